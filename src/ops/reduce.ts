// Public reductions of the tensor API (issue 13): sum, mean, prod, max, min, any, all over
// given dims, argmax/argmin, and max/min with indices along one dim (torch.max(x, dim)).
// Each validates, normalises the dims (sorted, unique, non-negative), then calls the
// registry's `reduce` / `argReduce` (src/backend/ops.ts) on x's device.
import { isComplex, isFloating, type DType } from '../core/dtype.js';
import { ArgumentError, DTypeError, ShapeError, fmtShape } from '../core/errors.js';
import { taping, gradCall } from '../core/grad.js';
import { readOptions, opt, show } from '../core/options.js';
import { elementwiseLayout } from '../core/broadcast.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import type { ReduceOp } from '../backend/ops.js';
import { castTo, scalarTensor, toOperand, type Operand } from './operands.js';

/** Options of sum, mean, prod, max, min, any, all. */
export interface ReduceOptions {
  /** The dim or dims to reduce (negative counts from the end); omitted: all dims. */
  dim?: number | readonly number[];
  /** Keep each reduced dim as size 1 (default false). */
  keepDims?: boolean;
}

/** Options of argmax / argmin. */
export interface ArgReduceOptions {
  /** The dim to reduce; omitted: the index into the flattened tensor. */
  dim?: number;
  /** Keep the reduced dim as size 1 (default false; with no dim, every dim is kept as 1). */
  keepDims?: boolean;
}

/** Options of maxWithIndices / minWithIndices. */
export interface WithIndicesOptions {
  keepDims?: boolean;
}

const isDimList = (v: unknown): boolean =>
  Number.isSafeInteger(v) || (Array.isArray(v) && v.every((d) => Number.isSafeInteger(d)));

/** One dim normalised to [0, ndim); a 0-d tensor takes 0 and −1 (torch). */
function normDim(who: string, name: string, d: number, ndim: number): number {
  const n = Math.max(ndim, 1);
  if (!Number.isSafeInteger(d) || d < -n || d >= n) {
    throw new ArgumentError(`${who}: ${name} is ${show(d)}, out of range for a ${ndim}-d tensor (expected in [${-n}, ${n - 1}])`);
  }
  return d < 0 ? d + n : d;
}

/** The reduced dims, sorted and unique (all dims when omitted). Duplicates are an ArgumentError. */
function reducedDims(who: string, dim: number | readonly number[] | undefined, ndim: number): number[] {
  if (dim === undefined) return Array.from({ length: ndim }, (_, i) => i);
  const list = typeof dim === 'number' ? [dim] : dim;
  const out = list.map((d, i) => normDim(who, typeof dim === 'number' ? 'dim' : `dim[${i}]`, d, ndim));
  const seen = new Set<number>();
  out.forEach((d, i) => {
    if (seen.has(d)) throw new ArgumentError(`${who}: dim ${show(list[i])} is repeated in ${show(list)}`);
    seen.add(d);
  });
  // A 0-d tensor has no dim to reduce: its dim 0 / −1 names the tensor itself.
  return ndim === 0 ? [] : out.sort((a, b) => a - b);
}

function readReduceOptions(who: string, opts: ReduceOptions | undefined): { dim?: number | readonly number[]; keepDims: boolean } {
  const o = readOptions(who, opts, {
    dim: opt.check(isDimList, 'an integer or an array of integers'),
    keepDims: opt.bool,
  });
  return { dim: o.dim, keepDims: o.keepDims ?? false };
}

function emptyCheck(who: string, x: Tensor, dims: readonly number[]): void {
  for (const d of dims) {
    if (x.shape[d] === 0) {
      throw new ShapeError(`${who}: x has shape ${fmtShape(x.shape)}; dim ${d} is empty and ${who} of nothing is not defined`);
    }
  }
}

function reduceOp(who: string, op: ReduceOp, x: Operand, opts: ReduceOptions | undefined): Tensor {
  const { dim, keepDims } = readReduceOptions(who, opts);
  const t = toOperand(x, who, 'x');
  if ((op === 'max' || op === 'min') && isComplex(t.dtype)) {
    throw new DTypeError(`${who}: x is ${t.dtype}; complex numbers have no order (take abs() or real() first)`);
  }
  const dims = reducedDims(who, dim, t.ndim);
  if (op === 'max' || op === 'min') emptyCheck(who, t, dims);
  return lookup('reduce', t.dtype, t.device, who)(t, op, dims, keepDims);
}

/**
 * Sum over the given dims (all by default). Floating sums are pairwise (float32 stays in
 * float32 with numpy's accuracy); int32/uint32 sums wrap modulo 2^32; bool sums count (int32).
 * An empty reduction is 0.
 *
 * Syntax: `sum(x, { dim, keepDims })`
 * Example: `sum([[1, 2], [3, 4]], { dim: 0 })` → `[4, 6]`
 * Throws: ArgumentError for a dim out of range or repeated, or a bad option.
 * See also: `mean`, `prod`, `Tensor.sum`.
 */
export function sum(x: Operand, opts?: ReduceOptions): Tensor {
  if (taping()) return gradCall('sum', sum, [x, opts]);
  return reduceOp('sum', 'sum', x, opts);
}

/**
 * Product over the given dims (all by default); int32/uint32 wrap modulo 2^32, bool gives
 * int32. An empty reduction is 1.
 *
 * Syntax: `prod(x, { dim, keepDims })`
 * Example: `prod([[1, 2], [3, 4]], { dim: 1 })` → `[2, 12]`
 * Throws: ArgumentError for a dim out of range or repeated, or a bad option.
 * See also: `sum`.
 */
export function prod(x: Operand, opts?: ReduceOptions): Tensor {
  if (taping()) return gradCall('prod', prod, [x, opts]);
  return reduceOp('prod', 'prod', x, opts);
}

/**
 * Mean over the given dims (all by default): the sum divided by the count of reduced
 * elements. Integral and bool inputs compute in float32 (torch would refuse them); complex
 * works. An empty reduction is NaN (0 / 0).
 *
 * Syntax: `mean(x, { dim, keepDims })`
 * Example: `mean([[1, 2], [3, 4]], { dim: 1 })` → `[1.5, 3.5]`
 * Throws: ArgumentError for a dim out of range or repeated, or a bad option.
 * See also: `sum`.
 */
export function mean(x: Operand, opts?: ReduceOptions): Tensor {
  if (taping()) return gradCall('mean', mean, [x, opts]);
  const who = 'mean';
  const { dim, keepDims } = readReduceOptions(who, opts);
  let t = toOperand(x, who, 'x');
  const dims = reducedDims(who, dim, t.ndim);
  const dt: DType = isFloating(t.dtype) ? t.dtype : 'float32';
  t = castTo(t, dt, who);
  const s = lookup('reduce', dt, t.device, who)(t, 'sum', dims, keepDims);
  const count = dims.reduce((p, d) => p * t.shape[d], 1);
  const c = scalarTensor(count, dt, t.device, who, 'count');
  return lookup('binary', dt, t.device, who)(s, c, 'div', elementwiseLayout(s.shape, c.shape, who, ['sum', 'count']));
}

/**
 * Largest value over the given dims (all by default); NaN propagates (numpy). For the index
 * of the largest value use `argmax` or `maxWithIndices`.
 *
 * Syntax: `max(x, { dim, keepDims })`
 * Example: `max([[1, 5], [3, 4]], { dim: 0 })` → `[3, 5]`
 * Throws: ShapeError if a reduced dim is empty; DTypeError for complex x; ArgumentError for
 * a dim out of range or repeated, or a bad option.
 * See also: `min`, `argmax`, `maxWithIndices`, `maximum`.
 */
export function max(x: Operand, opts?: ReduceOptions): Tensor {
  if (taping()) return gradCall('max', max, [x, opts]);
  return reduceOp('max', 'max', x, opts);
}

/**
 * Smallest value over the given dims (all by default); NaN propagates (numpy).
 *
 * Syntax: `min(x, { dim, keepDims })`
 * Example: `min([[1, 5], [3, 4]], { dim: 1 })` → `[1, 3]`
 * Throws: ShapeError if a reduced dim is empty; DTypeError for complex x; ArgumentError for
 * a dim out of range or repeated, or a bad option.
 * See also: `max`, `argmin`, `minWithIndices`, `minimum`.
 */
export function min(x: Operand, opts?: ReduceOptions): Tensor {
  if (taping()) return gradCall('min', min, [x, opts]);
  return reduceOp('min', 'min', x, opts);
}

/**
 * True where any element over the given dims (all by default) is non-zero (NaN counts as
 * non-zero); a bool tensor. An empty reduction is false.
 *
 * Syntax: `any(x, { dim, keepDims })`
 * Example: `any([[0, 1], [0, 0]], { dim: 1 })` → `[true, false]`
 * Throws: ArgumentError for a dim out of range or repeated, or a bad option.
 * See also: `all`.
 */
export function any(x: Operand, opts?: ReduceOptions): Tensor {
  return reduceOp('any', 'any', x, opts);
}

/**
 * True where every element over the given dims (all by default) is non-zero; a bool
 * tensor. An empty reduction is true.
 *
 * Syntax: `all(x, { dim, keepDims })`
 * Example: `all([[1, 1], [0, 1]], { dim: 1 })` → `[true, false]`
 * Throws: ArgumentError for a dim out of range or repeated, or a bad option.
 * See also: `any`.
 */
export function all(x: Operand, opts?: ReduceOptions): Tensor {
  return reduceOp('all', 'all', x, opts);
}

function withIndices(
  who: string, op: 'max' | 'min', x: Operand, dim: number | undefined, keepDims: boolean,
): { values: Tensor; indices: Tensor<'int32'> } {
  let t = toOperand(x, who, 'x');
  if (isComplex(t.dtype)) {
    throw new DTypeError(`${who}: x is ${t.dtype}; complex numbers have no order (take abs() or real() first)`);
  }
  const flat = dim === undefined;
  const shape = t.shape;
  if (flat) t = t.reshape([t.size]);
  const d = flat ? 0 : normDim(who, 'dim', dim, t.ndim);
  if (t.ndim === 0) t = t.reshape([1]);
  if (t.shape[d] === 0) {
    throw new ShapeError(`${who}: x has shape ${fmtShape(shape)}; ${flat ? 'it is empty' : `dim ${d} is empty`} and has no ${op}imum`);
  }
  const r = lookup('argReduce', t.dtype, t.device, who)(t, op, d, keepDims && !flat && shape.length > 0);
  if (flat) {
    // torch: keepDims with no dim keeps every dim as 1.
    const outShape = keepDims ? shape.map(() => 1) : [];
    return { values: r.values.reshape(outShape), indices: r.indices.reshape(outShape) as Tensor<'int32'> };
  }
  if (shape.length === 0) return { values: r.values.reshape([]), indices: r.indices.reshape([]) as Tensor<'int32'> };
  return r;
}

function argOptions(who: string, opts: ArgReduceOptions | undefined): { dim?: number; keepDims: boolean } {
  const o = readOptions(who, opts, { dim: opt.int(), keepDims: opt.bool });
  return { dim: o.dim, keepDims: o.keepDims ?? false };
}

/**
 * Index of the largest value along `dim` (its first occurrence; a NaN counts as the largest,
 * numpy's rule), int32. Without dim: the index into the flattened tensor.
 *
 * Syntax: `argmax(x, { dim, keepDims })`
 * Example: `argmax([[1, 5], [7, 4]], { dim: 1 })` → `[1, 0]`; `argmax([[1, 5], [7, 4]])` → `2`
 * Throws: ShapeError if the reduced dim (or x, without dim) is empty; DTypeError for complex
 * x; ArgumentError for a dim out of range or a bad option.
 * See also: `argmin`, `maxWithIndices`, `max`.
 */
export function argmax(x: Operand, opts?: ArgReduceOptions): Tensor<'int32'> {
  const { dim, keepDims } = argOptions('argmax', opts);
  return withIndices('argmax', 'max', x, dim, keepDims).indices;
}

/**
 * Index of the smallest value along `dim` (its first occurrence; NaN counts as the
 * smallest), int32. Without dim: the index into the flattened tensor.
 *
 * Syntax: `argmin(x, { dim, keepDims })`
 * Example: `argmin([[1, 5], [7, 4]], { dim: 1 })` → `[0, 1]`
 * Throws: ShapeError if the reduced dim (or x, without dim) is empty; DTypeError for complex
 * x; ArgumentError for a dim out of range or a bad option.
 * See also: `argmax`, `minWithIndices`, `min`.
 */
export function argmin(x: Operand, opts?: ArgReduceOptions): Tensor<'int32'> {
  const { dim, keepDims } = argOptions('argmin', opts);
  return withIndices('argmin', 'min', x, dim, keepDims).indices;
}

/**
 * The largest values along `dim` and their indices (first occurrence, NaN wins), as
 * torch.max(x, dim). values keep x's dtype; indices are int32.
 *
 * Syntax: `maxWithIndices(x, dim, { keepDims })` → `{ values, indices }`
 * Example: `maxWithIndices([[1, 5], [7, 4]], 1)` → `{ values: [5, 7], indices: [1, 0] }`
 * Throws: ShapeError if dim is empty; DTypeError for complex x; ArgumentError for a dim out
 * of range or a bad option.
 * See also: `max`, `argmax`, `minWithIndices`.
 */
export function maxWithIndices(x: Operand, dim: number, opts?: WithIndicesOptions): { values: Tensor; indices: Tensor<'int32'> } {
  if (taping()) return gradCall('maxWithIndices', maxWithIndices, [x, dim, opts]);
  const who = 'maxWithIndices';
  const o = readOptions(who, opts, { keepDims: opt.bool });
  if (!Number.isSafeInteger(dim)) throw new ArgumentError(`${who}: dim must be an integer, got ${show(dim)}`);
  return withIndices(who, 'max', x, dim, o.keepDims ?? false);
}

/**
 * The smallest values along `dim` and their indices (first occurrence, NaN wins), as
 * torch.min(x, dim).
 *
 * Syntax: `minWithIndices(x, dim, { keepDims })` → `{ values, indices }`
 * Example: `minWithIndices([[1, 5], [7, 4]], 1)` → `{ values: [1, 4], indices: [0, 1] }`
 * Throws: ShapeError if dim is empty; DTypeError for complex x; ArgumentError for a dim out
 * of range or a bad option.
 * See also: `min`, `argmin`, `maxWithIndices`.
 */
export function minWithIndices(x: Operand, dim: number, opts?: WithIndicesOptions): { values: Tensor; indices: Tensor<'int32'> } {
  if (taping()) return gradCall('minWithIndices', minWithIndices, [x, dim, opts]);
  const who = 'minWithIndices';
  const o = readOptions(who, opts, { keepDims: opt.bool });
  if (!Number.isSafeInteger(dim)) throw new ArgumentError(`${who}: dim must be an integer, got ${show(dim)}`);
  return withIndices(who, 'min', x, dim, o.keepDims ?? false);
}
