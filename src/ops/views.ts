// The strided views (shape, strides, offset in elements) that the shape functions of
// src/ops/indexing.ts copy, computed from shapes alone; and, for the gradient rules
// (src/autodiff/rules/indexing.ts), the flat positions such a view reads. Not re-exported
// by src/ops/index.ts: internal to lapis.
import { ArgumentError, fmtShape } from '../core/errors.js';
import { checkArg, opt, readOptions, show } from '../core/options.js';
import { sizeOf } from '../core/shape.js';
import type { StridedView } from '../backend/ops.js';

/** Row-major strides (elements) of a dense shape. */
export function denseStrides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  for (let d = shape.length - 1, acc = 1; d >= 0; d--) {
    s[d] = acc;
    acc *= shape[d];
  }
  return s;
}

/** A dim argument in [−ndim, ndim) as a non-negative index; ArgumentError naming it otherwise. */
export function normDim(who: string, name: string, dim: unknown, ndim: number): number {
  checkArg(who, name, dim, opt.int());
  const d = dim as number;
  if (d < -ndim || d >= ndim) {
    throw new ArgumentError(
      ndim === 0
        ? `${who}: ${name} is ${d}, but x is a scalar (0-d) and has no dims`
        : `${who}: ${name} is ${d}, out of range for a ${ndim}-d tensor (expected in [${-ndim}, ${ndim - 1}])`,
    );
  }
  return d < 0 ? d + ndim : d;
}

// ---------------------------------------------------------------- diagonal

/** The strided view of x (of shape `xs`) that `diagonal` copies. */
export function diagonalView(xs: readonly number[], offset: number, dim1: number, dim2: number, who: string): StridedView {
  const a = normDim(who, 'dim1', dim1, xs.length), b = normDim(who, 'dim2', dim2, xs.length);
  if (a === b) throw new ArgumentError(`${who}: dim1 and dim2 are both dim ${a}; they must differ`);
  const st = denseStrides(xs);
  const len = Math.max(0, offset >= 0 ? Math.min(xs[a], xs[b] - offset) : Math.min(xs[a] + offset, xs[b]));
  const shape: number[] = [], strides: number[] = [];
  xs.forEach((n, i) => {
    if (i !== a && i !== b) {
      shape.push(n);
      strides.push(st[i]);
    }
  });
  shape.push(len);
  strides.push(st[a] + st[b]);
  const start = len === 0 ? 0 : offset >= 0 ? offset * st[b] : -offset * st[a];
  return { shape, strides, offset: start };
}

/** The flat (row-major) positions a view reads, in the view's own row-major order. */
function viewIndex(view: StridedView): Int32Array {
  const { shape, strides } = view;
  const out = new Int32Array(sizeOf(shape));
  const ctr = new Array<number>(shape.length).fill(0);
  let at = view.offset;
  for (let f = 0; f < out.length; f++) {
    out[f] = at;
    for (let k = shape.length - 1; k >= 0; k--) {
      at += strides[k];
      if (++ctr[k] < shape[k]) break;
      at -= strides[k] * shape[k];
      ctr[k] = 0;
    }
  }
  return out;
}

/**
 * For the gradient rules: the flat positions in x (of shape `xs`) of the elements
 * `diagonal(x, { offset, dim1, dim2 })` returns, in the result's order.
 */
export function diagonalIndex(xs: readonly number[], opts: { offset?: number; dim1?: number; dim2?: number } = {}): Int32Array {
  return viewIndex(diagonalView(xs, opts.offset ?? 0, opts.dim1 ?? -2, opts.dim2 ?? -1, 'diagonal'));
}

/** For the gradient rules: the flat positions in x (of shape `xs`) that `slice(x, ...specs)` returns, in order. */
export function sliceIndex(xs: readonly number[], specs: readonly SliceSpec[]): Int32Array {
  return viewIndex(sliceView(xs, specs, 'slice'));
}

// ---------------------------------------------------------------- slice

/**
 * One dim's selector in `slice`: an integer (selects one index and drops the dim; negative
 * counts from the end), `null` or `':'` (the whole dim), a numpy-style string
 * `'start:stop:step'` (any part may be empty: `'1:5'`, `'::2'`, `'::-1'`, `'-3:'`), an object
 * `{ start?, stop?, step? }`, or `'...'` (as many whole dims as needed; at most one).
 */
export type SliceSpec = number | null | string | { start?: number | null; stop?: number | null; step?: number | null };

type ParsedSpec =
  | { kind: 'index'; i: number }
  | { kind: 'range'; start: number | null; stop: number | null; step: number }
  | { kind: 'ellipsis' };

const INT = /^[+-]?\d+$/;

function parseSpec(who: string, spec: unknown, at: number): ParsedSpec {
  const name = `spec ${at}`;
  if (spec === null || spec === undefined) return { kind: 'range', start: null, stop: null, step: 1 };
  if (typeof spec === 'number') {
    checkArg(who, name, spec, opt.int());
    return { kind: 'index', i: spec };
  }
  if (typeof spec === 'string') {
    const s = spec.trim();
    if (s === '...') return { kind: 'ellipsis' };
    if (INT.test(s)) return { kind: 'index', i: checkArg<number>(who, name, Number(s), opt.int()) };
    const parts = s.split(':');
    if (parts.length < 2 || parts.length > 3 || !parts.every((p) => p.trim() === '' || INT.test(p.trim()))) {
      throw new ArgumentError(
        `${who}: ${name} is ${show(spec)}; expected an integer, 'start:stop:step' (parts optional), ':' or '...'`,
      );
    }
    const num = (p: string | undefined): number | null =>
      p === undefined || p.trim() === '' ? null : checkArg<number>(who, name, Number(p.trim()), opt.int());
    const step = num(parts[2]) ?? 1;
    if (step === 0) throw new ArgumentError(`${who}: ${name} (${show(spec)}) has step 0`);
    return { kind: 'range', start: num(parts[0]), stop: num(parts[1]), step };
  }
  if (typeof spec === 'object' && !Array.isArray(spec)) {
    const intOrNull = opt.check((v) => v === null || Number.isSafeInteger(v), 'an integer or null');
    const o = readOptions(who, spec as Record<string, unknown>, { start: intOrNull, stop: intOrNull, step: intOrNull }, name) as {
      start?: number | null; stop?: number | null; step?: number | null;
    };
    const step = o.step ?? 1;
    if (step === 0) throw new ArgumentError(`${who}: ${name} has step 0`);
    return { kind: 'range', start: o.start ?? null, stop: o.stop ?? null, step };
  }
  throw new ArgumentError(`${who}: ${name} is ${show(spec)}; expected an integer, null, a slice string or { start, stop, step }`);
}

/**
 * numpy's slice rules (CPython's PySlice_AdjustIndices) for one dim of size n: the first
 * index and the count. Negative start/stop count from the end; out-of-range bounds clamp.
 */
function sliceIndices(n: number, start: number | null, stop: number | null, step: number): { first: number; count: number } {
  let a: number, b: number;
  if (start === null) a = step < 0 ? n - 1 : 0;
  else if (start < 0) a = Math.max(start + n, step < 0 ? -1 : 0);
  else a = Math.min(start, step < 0 ? n - 1 : n);
  if (stop === null) b = step < 0 ? -1 : n;
  else if (stop < 0) b = Math.max(stop + n, step < 0 ? -1 : 0);
  else b = Math.min(stop, step < 0 ? n - 1 : n);
  let count = 0;
  if (step > 0 && a < b) count = Math.floor((b - a - 1) / step) + 1;
  else if (step < 0 && b < a) count = Math.floor((a - b - 1) / -step) + 1;
  return { first: a, count };
}

/** The strided view of x (of shape `xs`) that `slice` copies. */
export function sliceView(xs: readonly number[], specs: readonly SliceSpec[], who: string): StridedView {
  const t = { shape: xs, ndim: xs.length };
  const parsed = specs.map((s, i) => parseSpec(who, s, i));
  const ell = parsed.filter((p) => p.kind === 'ellipsis').length;
  if (ell > 1) throw new ArgumentError(`${who}: at most one '...' is allowed, got ${ell}`);
  const used = parsed.length - ell;
  if (used > t.ndim) throw new ArgumentError(`${who}: ${used} specs for a ${t.ndim}-d tensor (${fmtShape(t.shape)})`);
  const st = denseStrides(t.shape);
  const shape: number[] = [], strides: number[] = [];
  let offset = 0, dim = 0;
  const whole = () => {
    shape.push(t.shape[dim]);
    strides.push(st[dim]);
    dim++;
  };
  parsed.forEach((p, at) => {
    if (p.kind === 'ellipsis') {
      for (let k = 0; k < t.ndim - used; k++) whole();
      return;
    }
    const n = t.shape[dim];
    if (p.kind === 'index') {
      if (p.i < -n || p.i >= n) {
        throw new ArgumentError(`${who}: index ${p.i} (spec ${at}) is out of range for dim ${dim} of size ${n}`);
      }
      offset += (p.i < 0 ? p.i + n : p.i) * st[dim];
      dim++;
      return;
    }
    const { first, count } = sliceIndices(n, p.start, p.stop, p.step);
    if (count > 0) offset += first * st[dim];
    shape.push(count);
    // One element or none: the stride is never used (and step · stride could pass 2^53).
    strides.push(count <= 1 ? 0 : p.step * st[dim]);
    dim++;
  });
  while (dim < t.ndim) whole();
  if (sizeOf(shape) === 0) offset = 0;
  return { shape, strides, offset };
}
