import { ShapeError, fmtShape } from './errors.js';
import { show } from './options.js';

export function sizeOf(shape: readonly number[]): number {
  let s = 1;
  for (const d of shape) s *= d;
  return s;
}

/** The most dims a tensor may have (numpy's limit). */
export const MAX_RANK = 64;

/**
 * Checks a shape where it enters the library: an array of at most MAX_RANK non-negative
 * safe integers whose product is a safe integer. ShapeError naming `who` and `name`.
 */
export function checkShape(shape: unknown, who: string, name = 'shape'): asserts shape is readonly number[] {
  if (!Array.isArray(shape)) {
    throw new ShapeError(`${who}: ${name} must be an array of non-negative integers, got ${show(shape)}`);
  }
  if (shape.length > MAX_RANK) throw new ShapeError(`${who}: ${name} has ${shape.length} dims, at most ${MAX_RANK} are supported`);
  let size = 1;
  for (let i = 0; i < shape.length; i++) {
    const d: unknown = shape[i];
    if (!Number.isSafeInteger(d) || (d as number) < 0) {
      throw new ShapeError(`${who}: ${name} ${show(shape)} has dim ${i} = ${show(d)}; dims must be non-negative integers`);
    }
    size *= d as number;
  }
  if (!Number.isSafeInteger(size)) throw new ShapeError(`${who}: ${name} ${show(shape)} has more than 2^53 elements`);
}

/**
 * torch/numpy broadcasting, right-aligned, sizes equal or 1: the one broadcast-shape
 * function (batch dims of matrix operands, and whole shapes of elementwise operands with
 * `what` = ''). `names` label the operands in the error message.
 */
export function broadcastShapes(
  a: readonly number[], b: readonly number[], who: string, names: readonly string[] = ['A', 'B'], what = 'batch dims of ',
): number[] {
  const n = Math.max(a.length, b.length);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) {
      throw new ShapeError(
        `${who}: ${what}${names[0]} (${fmtShape(a)}) and ${names[1]} (${fmtShape(b)}) do not broadcast (dim ${i - n}: ${x} vs ${y})`,
      );
    }
    out[i] = x === 1 ? y : x;
  }
  return out;
}

/**
 * For each flat index into the broadcast batch `out`, the flat index into an operand of
 * batch shape `src` (which broadcasts to `out`). Returned as an Int32Array so kernels can
 * take per-matrix offsets without materialising broadcast copies.
 */
export function broadcastIndex(src: readonly number[], out: readonly number[]): Int32Array {
  const total = sizeOf(out);
  const idx = new Int32Array(total);
  const nd = out.length;
  const s = new Array<number>(nd).fill(1);
  // strides of src aligned to out, 0 where src broadcasts
  const strides = new Array<number>(nd).fill(0);
  let acc = 1;
  for (let i = nd - 1; i >= 0; i--) {
    const j = src.length - nd + i;
    const dim = j >= 0 ? src[j] : 1;
    s[i] = dim;
    strides[i] = dim === 1 ? 0 : acc;
    acc *= dim;
  }
  const counter = new Array<number>(nd).fill(0);
  let off = 0;
  for (let f = 0; f < total; f++) {
    idx[f] = off;
    for (let i = nd - 1; i >= 0; i--) {
      counter[i]++;
      off += strides[i];
      if (counter[i] < out[i]) break;
      off -= strides[i] * counter[i];
      counter[i] = 0;
    }
  }
  return idx;
}

export function isIdentityIndex(idx: Int32Array, srcCount: number): boolean {
  if (idx.length !== srcCount) return false;
  for (let i = 0; i < idx.length; i++) if (idx[i] !== i) return false;
  return true;
}
