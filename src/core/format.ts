// Printing tensors as torch does (torch/_tensor_str.py): one format per tensor chosen from
// the values shown, `...` summaries beyond 1000 elements (numpy's threshold and edgeitems),
// rows wrapped at 80 columns, the dtype (and a non-CPU device) as suffixes.
import type { DType, Device } from './dtype.js';
import { isComplex } from './dtype.js';
import { halfToFloat64 } from './half.js';

/** numpy/torch print options: summarise above THRESHOLD elements, EDGE items per side, 80 columns, 4 digits. */
export const PRINT_OPTIONS = { threshold: 1000, edgeitems: 3, linewidth: 80, precision: 4 } as const;

const PREFIX = 'tensor(';

/** Indices shown along a dim of length n: all, or the first and last EDGE around a gap (-1). */
function shownIndices(n: number, summarize: boolean): number[] {
  const e = PRINT_OPTIONS.edgeitems;
  if (summarize && n > 2 * e) {
    const out: number[] = [];
    for (let i = 0; i < e; i++) out.push(i);
    out.push(-1);
    for (let i = n - e; i < n; i++) out.push(i);
    return out;
  }
  return Array.from({ length: n }, (_, i) => i);
}

/** Python's `{:.4e}`: two exponent digits at least (1.0000e+05, not JS's 1.0000e+5). */
function expo(a: number, p: number): string {
  return a.toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2');
}

/**
 * torch's float formatter: integer-valued tensors print as `1.` (scientific when the
 * non-zero finite magnitudes span more than 1000× or exceed 1e8), others with 4 decimals
 * (scientific also when the smallest is below 1e-4). nan, inf, -inf; −0 keeps its sign.
 */
function floatFormatter(values: readonly number[]): (v: number) => string {
  let intMode = true, min = Infinity, max = 0, any = false;
  for (const v of values) {
    if (!Number.isFinite(v) || v === 0) continue;
    const a = Math.abs(v);
    any = true;
    if (a < min) min = a;
    if (a > max) max = a;
    if (!Number.isInteger(v)) intMode = false;
  }
  const sci = any && (max / min > 1000 || max > 1e8 || (!intMode && min < 1e-4));
  const p = PRINT_OPTIONS.precision;
  return (v) => {
    if (v !== v) return 'nan';
    if (v === Infinity) return 'inf';
    if (v === -Infinity) return '-inf';
    const a = Math.abs(v);
    const s = sci ? expo(a, p) : intMode ? `${a.toFixed(0)}.` : a.toFixed(p);
    return (v < 0 || Object.is(v, -0) ? '-' : '') + s;
  };
}

/** One string per shown element, in shown order (complex as `re+imi`, torch's `j` as `i`). */
function formatValues(data: ArrayLike<number>, flat: readonly number[], dtype: DType): string[] {
  if (dtype === 'bool') return flat.map((i) => (data[i] !== 0 ? 'true' : 'false'));
  if (dtype === 'int32' || dtype === 'uint32') return flat.map((i) => String(data[i]));
  if (isComplex(dtype)) {
    const fr = floatFormatter(flat.map((i) => data[2 * i]));
    const fi = floatFormatter(flat.map((i) => data[2 * i + 1]));
    return flat.map((i) => {
      const im = fi(data[2 * i + 1]);
      return `${fr(data[2 * i])}${im.startsWith('-') ? '' : '+'}${im}i`;
    });
  }
  const f = floatFormatter(flat.map((i) => data[i]));
  return flat.map((i) => f(data[i]));
}

/** torch's _add_suffixes: `, dtype=…` on the last line, or on a new line past the line width. */
function addSuffixes(body: string, suffixes: readonly string[]): string {
  const indent = PREFIX.length;
  let out = body;
  let last = body.length - body.lastIndexOf('\n') + 1;
  for (const s of suffixes) {
    if (last + s.length + 2 > PRINT_OPTIONS.linewidth) {
      out += `,\n${' '.repeat(indent)}${s}`;
      last = indent + s.length;
    } else {
      out += `, ${s}`;
      last += s.length + 2;
    }
  }
  return `${out})`;
}

function suffixesOf(shape: readonly number[], dtype: DType, device: Device, size: number): string[] {
  const s: string[] = [];
  if (size === 0 && shape.length !== 1) s.push(`shape=[${shape.join(', ')}]`);
  s.push(`dtype=${dtype}`);
  if (device !== 'cpu') s.push(`device=${device}`);
  return s;
}

/**
 * The printed form of a tensor's values: `tensor([[1.0000, 2.5000],\n        [3.0000,
 * 4.0000]], dtype=float32)`. `data` is the host storage (complex interleaved, bool 0/1).
 */
export function formatTensor(data: ArrayLike<number>, shape: readonly number[], dtype: DType, device: Device): string {
  if (dtype === 'float16') data = halfToFloat64(data as Uint16Array); // float16 storage is bits: print the values
  let size = 1;
  for (const d of shape) size *= d;
  const suffixes = suffixesOf(shape, dtype, device, size);
  if (size === 0) return addSuffixes(`${PREFIX}[]`, suffixes);
  const summarize = size > PRINT_OPTIONS.threshold;
  const shown = shape.map((n) => shownIndices(n, summarize));
  const strides: number[] = new Array(shape.length);
  for (let d = shape.length - 1, s = 1; d >= 0; d--) { strides[d] = s; s *= shape[d]; }

  // The flat indices shown (row-major), so one formatter sees exactly the printed values.
  const flat: number[] = [];
  const collect = (dim: number, off: number): void => {
    if (dim === shape.length) { flat.push(off); return; }
    for (const i of shown[dim]) if (i >= 0) collect(dim + 1, off + i * strides[dim]);
  };
  collect(0, 0);
  const strs = formatValues(data, flat, dtype);
  let width = 1;
  for (const s of strs) if (s.length > width) width = s.length;
  let next = 0;
  const take = (): string => strs[next++].padStart(width);

  const { linewidth } = PRINT_OPTIONS;
  const render = (dim: number, indent: number): string => {
    const nd = shape.length - dim;
    if (nd === 0) return take();
    if (nd === 1) {
      const items = shown[dim].map((i) => (i < 0 ? ' ...' : take()));
      const perLine = Math.max(1, Math.floor((linewidth - indent) / (width + 2)));
      const lines: string[] = [];
      for (let i = 0; i < items.length; i += perLine) lines.push(items.slice(i, i + perLine).join(', '));
      return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
    }
    const slices = shown[dim].map((i) => (i < 0 ? '...' : render(dim + 1, indent + 1)));
    return `[${slices.join(`,${'\n'.repeat(nd - 1)}${' '.repeat(indent + 1)}`)}]`;
  };
  return addSuffixes(PREFIX + render(0, PREFIX.length), suffixes);
}

/** What `toString()` prints when the values cannot be read synchronously (GPU, disposed). */
export function formatTensorMeta(shape: readonly number[], dtype: DType, device: Device, note: string): string {
  return `${PREFIX}<${note}>, shape=[${shape.join(', ')}], dtype=${dtype}${device !== 'cpu' ? `, device=${device}` : ''})`;
}
