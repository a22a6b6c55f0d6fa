// Shapes, views and indexing of the tensor API (issue 13). Tensors stay dense row-major
// (docs/architecture.md, "copies, not strided views"): flatten, squeeze and unsqueeze share
// storage (reshape: metadata only); every other function here computes the strided view
// (shape, strides, offset in elements) of what it selects, validates it, and has the
// registry's stridedCopy / triangle / concat / take / put produce a new contiguous tensor.
// So every op accepts what any op returns, and no kernel handles strides but stridedCopy.
import { type DType, type Device, isComplex, resultType, resultTypeWithScalar } from '../core/dtype.js';
import { ArgumentError, DTypeError, ShapeError, fmtShape } from '../core/errors.js';
import { checkArg, opt, readOptions, show } from '../core/options.js';
import { checkShape, sizeOf } from '../core/shape.js';
import { Tensor } from '../core/tensor.js';
import { requireMatrix, type TensorLike } from '../core/create.js';
import type { StridedView } from '../backend/ops.js';
import { lookup } from '../backend/registry.js';
import { taping, gradCall } from '../core/grad.js';
import {
  castTo, commonDevice, scalarKind, scalarTensor, toOperand, type JsScalar, type Operand, type ScalarKind,
} from './operands.js';
import { denseStrides, diagonalView, normDim, sliceView, type SliceSpec } from './views.js';

export type { SliceSpec } from './views.js';

// ---------------------------------------------------------------- helpers

/** The tensor argument of a shape function (anything `tensor()` takes, or a JS scalar). */
function arg(x: Operand, who: string, name = 'x'): Tensor {
  return toOperand(x, who, name);
}

/** The view copied into a new contiguous tensor on x's device (conj: complex conjugate on the way). */
function copyView(x: Tensor, view: StridedView, conj: boolean, who: string): Tensor {
  return lookup('stridedCopy', x.dtype, x.device, who)(x, view, conj && isComplex(x.dtype));
}

/** x with its dims reordered by `perm` (a permutation), as a new contiguous tensor. */
function permuted(x: Tensor, perm: readonly number[], conj: boolean, who: string): Tensor {
  const st = denseStrides(x.shape);
  return copyView(x, { shape: perm.map((p) => x.shape[p]), strides: perm.map((p) => st[p]), offset: 0 }, conj, who);
}

// ---------------------------------------------------------------- storage-sharing reshapes

/**
 * Flattens dims `startDim`…`endDim` (inclusive, negative counting from the end) into one.
 * Shares x's storage (a reshape, no copy); a 0-d tensor becomes shape [1] (torch).
 *
 * Syntax: `flatten(x, startDim = 0, endDim = -1)`
 * Example: `flatten(zeros([2, 3, 4]), 1)` → shape [2, 12]
 * Throws: ArgumentError for a dim out of range or startDim after endDim.
 * See also: `squeeze`, `unsqueeze`, `Tensor.reshape`.
 */
export function flatten(x: TensorLike, startDim = 0, endDim = -1): Tensor {
  if (taping()) return gradCall('flatten', flatten, [x, startDim, endDim]);
  const who = 'flatten';
  const t = arg(x, who);
  const nd = Math.max(t.ndim, 1);
  const s = normDim(who, 'startDim', startDim, nd), e = normDim(who, 'endDim', endDim, nd);
  if (s > e) throw new ArgumentError(`${who}: startDim (${startDim}) comes after endDim (${endDim})`);
  if (t.ndim === 0) return t.reshape([1]);
  return t.reshape([...t.shape.slice(0, s), sizeOf(t.shape.slice(s, e + 1)), ...t.shape.slice(e + 1)]);
}

/**
 * Removes dims of size 1: all of them, or those named by `dim` (a number or an array;
 * a named dim whose size is not 1 is left as it is, as in torch). Shares x's storage.
 *
 * Syntax: `squeeze(x)`, `squeeze(x, dim)`, `squeeze(x, [d0, d1])`
 * Example: `squeeze(zeros([1, 3, 1]))` → shape [3]; `squeeze(zeros([1, 3, 1]), 0)` → [3, 1]
 * Throws: ArgumentError for a dim out of range or repeated.
 * See also: `unsqueeze`, `flatten`.
 */
export function squeeze(x: TensorLike, dim?: number | readonly number[]): Tensor {
  if (taping()) return gradCall('squeeze', squeeze, [x, dim]);
  const who = 'squeeze';
  const t = arg(x, who);
  if (dim === undefined) return t.reshape(t.shape.filter((n) => n !== 1));
  const dims = Array.isArray(dim) ? dim : [dim];
  // A 0-d tensor takes dim 0 / −1 (torch wraps scalars as one dim); squeezing it changes nothing.
  const nd = Math.max(t.ndim, 1);
  const drop = new Set<number>();
  dims.forEach((d, i) => {
    const k = normDim(who, Array.isArray(dim) ? `dim[${i}]` : 'dim', d, nd);
    if (drop.has(k)) throw new ArgumentError(`${who}: dim ${k} appears twice in ${show(dim)}`);
    drop.add(k);
  });
  return t.reshape(t.shape.filter((n, i) => !(n === 1 && drop.has(i))));
}

/**
 * Inserts a dim of size 1 at `dim` (in [−ndim−1, ndim]; negative counts from the end of the
 * result). Shares x's storage.
 *
 * Syntax: `unsqueeze(x, dim)`
 * Example: `unsqueeze(zeros([3]), 0)` → shape [1, 3]; `unsqueeze(zeros([3]), -1)` → [3, 1]
 * Throws: ArgumentError for a dim out of range.
 * See also: `squeeze`, `stack`, `expand`.
 */
export function unsqueeze(x: TensorLike, dim: number): Tensor {
  if (taping()) return gradCall('unsqueeze', unsqueeze, [x, dim]);
  const who = 'unsqueeze';
  const t = arg(x, who);
  const d = normDim(who, 'dim', dim, t.ndim + 1);
  return t.reshape([...t.shape.slice(0, d), 1, ...t.shape.slice(d)]);
}

// ---------------------------------------------------------------- broadcasting copies

/**
 * x repeated along dims of size 1 (and new leading dims) to `shape`; −1 keeps x's size
 * of that dim. A new contiguous tensor (torch's expand shares storage; lapis copies).
 *
 * Syntax: `expand(x, shape)`
 * Example: `expand([[1], [2]], [2, 3])` → `[[1, 1, 1], [2, 2, 2]]`; `expand(x, [4, -1, -1])`
 * Throws: ShapeError if a dim of x is neither 1 nor the target size, or the shape has fewer
 * dims than x; ArgumentError for −1 in a new leading dim or other negative sizes.
 * See also: `broadcastTo`, `unsqueeze`.
 */
export function expand(x: TensorLike, shape: readonly number[]): Tensor {
  if (taping()) return gradCall('expand', expand, [x, shape]);
  return expandAs('expand', arg(x, 'expand'), shape);
}

/**
 * x broadcast to `shape` (numpy's broadcast_to; −1 keeps a dim, as in torch). A new
 * contiguous tensor.
 *
 * Syntax: `broadcastTo(x, shape)`
 * Example: `broadcastTo([1, 2, 3], [2, 3])` → `[[1, 2, 3], [1, 2, 3]]`
 * Throws: ShapeError if x does not broadcast to the shape.
 * See also: `expand`.
 */
export function broadcastTo(x: TensorLike, shape: readonly number[]): Tensor {
  if (taping()) return gradCall('broadcastTo', broadcastTo, [x, shape]);
  return expandAs('broadcastTo', arg(x, 'broadcastTo'), shape);
}

function expandAs(who: string, t: Tensor, shape: readonly number[]): Tensor {
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= -1)) {
    throw new ArgumentError(`${who}: shape must be an array of integers ≥ −1 (−1 keeps a dim), got ${show(shape)}`);
  }
  const lead = shape.length - t.ndim;
  if (lead < 0) {
    throw new ShapeError(`${who}: shape ${show(shape)} has fewer dims than x (${fmtShape(t.shape)})`);
  }
  const src = denseStrides(t.shape);
  const out: number[] = [], strides: number[] = [];
  for (let d = 0; d < shape.length; d++) {
    const want = shape[d];
    if (d < lead) {
      if (want === -1) throw new ArgumentError(`${who}: shape ${show(shape)}: −1 is not allowed in a new leading dim (dim ${d})`);
      out.push(want);
      strides.push(0);
      continue;
    }
    const have = t.shape[d - lead];
    if (want === -1 || want === have) {
      out.push(have);
      strides.push(src[d - lead]);
    } else if (have === 1) {
      out.push(want);
      strides.push(0);
    } else {
      throw new ShapeError(`${who}: x (${fmtShape(t.shape)}) cannot be expanded to ${show(shape)}: dim ${d} is ${have}, not 1 or ${want}`);
    }
  }
  checkShape(out, who);
  return copyView(t, { shape: out, strides, offset: 0 }, false, who);
}

// ---------------------------------------------------------------- transposes

/**
 * Swaps two dims (default the last two). A new contiguous tensor.
 *
 * Syntax: `transpose(x, dim0 = -2, dim1 = -1)`
 * Example: `transpose(zeros([2, 3, 4]), 0, 2)` → shape [4, 3, 2]
 * Throws: ArgumentError for a dim out of range (a 1-d x needs explicit dims: 0 and −1).
 * See also: `permute`, `matrixTranspose`, `adjoint`.
 */
export function transpose(x: TensorLike, dim0 = -2, dim1 = -1): Tensor {
  if (taping()) return gradCall('transpose', transpose, [x, dim0, dim1]);
  const who = 'transpose';
  const t = arg(x, who);
  const a = normDim(who, 'dim0', dim0, t.ndim), b = normDim(who, 'dim1', dim1, t.ndim);
  const perm = t.shape.map((_, i) => i);
  perm[a] = b;
  perm[b] = a;
  return permuted(t, perm, false, who);
}

/**
 * Reorders the dims: result dim i is x's dim `dims[i]` (negative counting from the end).
 * A new contiguous tensor.
 *
 * Syntax: `permute(x, dims)`
 * Example: `permute(zeros([2, 3, 4]), [2, 0, 1])` → shape [4, 2, 3]
 * Throws: ArgumentError unless dims is a permutation of x's dims.
 * See also: `transpose`.
 */
export function permute(x: TensorLike, dims: readonly number[]): Tensor {
  if (taping()) return gradCall('permute', permute, [x, dims]);
  const who = 'permute';
  const t = arg(x, who);
  if (!Array.isArray(dims)) throw new ArgumentError(`${who}: dims must be an array of dims, got ${show(dims)}`);
  if (dims.length !== t.ndim) {
    throw new ArgumentError(`${who}: dims ${show(dims)} has ${dims.length} entries, x has ${t.ndim} dims`);
  }
  const seen = new Set<number>();
  const perm = dims.map((d, i) => {
    const k = normDim(who, `dims[${i}]`, d, t.ndim);
    if (seen.has(k)) throw new ArgumentError(`${who}: dims ${show(dims)} names dim ${k} twice`);
    seen.add(k);
    return k;
  });
  return permuted(t, perm, false, who);
}

/**
 * The transpose of the last two dims of a (batch of) matrix (torch's `x.mT`).
 *
 * Syntax: `matrixTranspose(x)`
 * Example: `matrixTranspose([[1, 2, 3]])` → `[[1], [2], [3]]`
 * Throws: ShapeError if x has fewer than 2 dims.
 * See also: `adjoint`, `transpose`.
 */
export function matrixTranspose(x: TensorLike): Tensor {
  if (taping()) return gradCall('matrixTranspose', matrixTranspose, [x]);
  const who = 'matrixTranspose';
  const t = arg(x, who);
  requireMatrix(t, who, 'x');
  return transposeLast(t, false, who);
}

/**
 * The conjugate transpose of the last two dims (torch's `x.mH`, `adjoint`); for real
 * dtypes the same as `matrixTranspose`.
 *
 * Syntax: `adjoint(x)`
 * Example: `adjoint([[c(1, 2), c(3, 0)]])` → `[[1−2i], [3]]`
 * Throws: ShapeError if x has fewer than 2 dims.
 * See also: `matrixTranspose`, `transpose`.
 */
export function adjoint(x: TensorLike): Tensor {
  if (taping()) return gradCall('adjoint', adjoint, [x]);
  const who = 'adjoint';
  const t = arg(x, who);
  requireMatrix(t, who, 'x');
  return transposeLast(t, true, who);
}

function transposeLast(t: Tensor, conj: boolean, who: string): Tensor {
  const perm = t.shape.map((_, i) => i);
  perm[t.ndim - 2] = t.ndim - 1;
  perm[t.ndim - 1] = t.ndim - 2;
  return permuted(t, perm, conj, who);
}

// ---------------------------------------------------------------- diagonals and triangles

export interface DiagonalOptions {
  /** 0: the main diagonal; k > 0 above it (x[i, i + k]), k < 0 below (x[i − k, i]). */
  offset?: number;
  /** The two dims the diagonal runs over (default −2, −1); they are removed and the diagonal appended last. */
  dim1?: number;
  dim2?: number;
}

/**
 * The diagonal of dims `dim1`, `dim2` (torch.diagonal): those dims are removed and the
 * diagonal becomes the last dim, of length max(0, min(n1, n2 − offset)) for offset ≥ 0.
 *
 * Syntax: `diagonal(x, { offset, dim1, dim2 })`
 * Example: `diagonal([[1, 2], [3, 4]])` → `[1, 4]`; with `{ offset: 1 }` → `[2]`
 * Throws: ShapeError if x has fewer than 2 dims; ArgumentError for a dim out of range, dim1
 * equal to dim2, or a non-integer offset.
 * See also: `trace`, `triu`, `tril`.
 */
export function diagonal(x: TensorLike, opts: DiagonalOptions = {}): Tensor {
  if (taping()) return gradCall('diagonal', diagonal, [x, opts]);
  const who = 'diagonal';
  const t = arg(x, who);
  opts = readOptions(who, opts, { offset: opt.int(), dim1: opt.int(), dim2: opt.int() });
  requireMatrix(t, who, 'x');
  return diagonalOf(t, opts.offset ?? 0, opts.dim1 ?? -2, opts.dim2 ?? -1, who);
}

function diagonalOf(t: Tensor, offset: number, dim1: number, dim2: number, who: string): Tensor {
  return copyView(t, diagonalView(t.shape, offset, dim1, dim2, who), false, who);
}

/**
 * The upper triangle of the last two dims: entries below diagonal k (j − i < k) set to 0.
 * k = 0 keeps the main diagonal, k = 1 drops it, k = −1 keeps one subdiagonal.
 *
 * Syntax: `triu(x, k = 0)`
 * Example: `triu([[1, 2], [3, 4]])` → `[[1, 2], [0, 4]]`
 * Throws: ShapeError if x has fewer than 2 dims; ArgumentError for a non-integer k.
 * See also: `tril`, `diagonal`.
 */
export function triu(x: TensorLike, k = 0): Tensor {
  if (taping()) return gradCall('triu', triu, [x, k]);
  return triangleOf('triu', x, k, true);
}

/**
 * The lower triangle of the last two dims: entries above diagonal k (j − i > k) set to 0.
 *
 * Syntax: `tril(x, k = 0)`
 * Example: `tril([[1, 2], [3, 4]])` → `[[1, 0], [3, 4]]`
 * Throws: ShapeError if x has fewer than 2 dims; ArgumentError for a non-integer k.
 * See also: `triu`, `diagonal`.
 */
export function tril(x: TensorLike, k = 0): Tensor {
  if (taping()) return gradCall('tril', tril, [x, k]);
  return triangleOf('tril', x, k, false);
}

function triangleOf(who: string, x: TensorLike, k: number, upper: boolean): Tensor {
  const t = arg(x, who);
  checkArg(who, 'k', k, opt.int());
  requireMatrix(t, who, 'x');
  // Beyond ±(m + n) every k selects all or nothing: clamped so backends see small integers.
  const kk = Math.max(-t.rows - 1, Math.min(t.cols + 1, k));
  return lookup('triangle', t.dtype, t.device, who)(t, upper, kk);
}

/**
 * The sum of the main diagonal of the last two dims, batched: shape x.shape[:-2]. The
 * dtype is sum's (int32/uint32 keep theirs and wrap, bool gives int32).
 *
 * Syntax: `trace(x)`
 * Example: `trace([[1, 2], [3, 4]])` → 5 (a 0-d tensor)
 * Throws: ShapeError if x has fewer than 2 dims.
 * See also: `diagonal`, `sum`.
 */
export function trace(x: TensorLike): Tensor {
  if (taping()) return gradCall('trace', trace, [x]);
  const who = 'trace';
  const t = arg(x, who);
  requireMatrix(t, who, 'x');
  const d = diagonalOf(t, 0, -2, -1, who);
  return lookup('reduce', d.dtype, d.device, who)(d, 'sum', [d.ndim - 1], false);
}

// ---------------------------------------------------------------- slicing

/**
 * Selects along the leading dims, one spec per dim (numpy's basic indexing): an integer
 * picks one index and drops the dim, a range keeps it (negative steps walk backwards), and
 * dims without a spec are kept whole; `'...'` stands for the whole dims in between. A new
 * contiguous tensor.
 *
 * Syntax: `slice(x, ...specs)` with specs `2`, `-1`, `null`, `':'`, `'1:5'`, `'::2'`, `'::-1'`,
 * `{ start, stop, step }`, `'...'`
 * Example: `slice(A, '1:3', -1)` → rows 1 and 2 of A's last column; `slice(x, '...', 0)` → x[..., 0];
 * `slice(v, '::-1')` → v reversed
 * Throws: ArgumentError for an integer out of range (naming the dim), step 0, a malformed
 * string, more than one '...', or more specs than x has dims.
 * See also: `take`, `split`, `diagonal`.
 */
export function slice(x: TensorLike, ...specs: SliceSpec[]): Tensor {
  if (taping()) return gradCall('slice', slice, [x, ...specs]);
  const who = 'slice';
  const t = arg(x, who);
  return copyView(t, sliceView(t.shape, specs, who), false, who);
}

// ---------------------------------------------------------------- concat, stack, split

/** The operands of concat/stack: tensors as given, and JS data (arrays, scalars) made CPU tensors. */
interface TensorList {
  ts: Tensor[];
  /** Which entries were tensors (JS data neither decides the device nor widens the dtype). */
  given: boolean[];
  device: Device;
}

function tensorList(who: string, xs: unknown): TensorList {
  if (!Array.isArray(xs) || xs.length === 0) {
    throw new ArgumentError(`${who}: xs must be a non-empty array of tensors, got ${show(xs)}`);
  }
  const ts = xs.map((v, i) => arg(v as Operand, who, `xs[${i}]`));
  const given = xs.map((v) => v instanceof Tensor);
  const device = commonDevice(ts.map((t, i) => (given[i] ? t : null)), ts.map((_, i) => `xs[${i}]`), who);
  return { ts, given, device };
}

/** The category JS data raises a dtype by, as a scalar of it would (integer-valued numbers are 'int'). */
function dataKind(t: Tensor): ScalarKind {
  if (t.dtype === 'bool') return 'bool';
  if (isComplex(t.dtype)) return 'complex';
  return t.dataSync().every((v) => Number.isInteger(v)) ? 'int' : 'float';
}

/**
 * The list cast to one dtype on one device: tensors promote as in arithmetic (torch.cat),
 * JS data raises the result only by its category (as a JS scalar does) and moves to the
 * tensors' device after the cast (float64 data can join a float32 GPU tensor).
 */
function promoteList(who: string, list: TensorList): Tensor[] {
  const { ts, given, device } = list;
  const anyTensor = given.some((g) => g);
  let d: DType | null = null;
  ts.forEach((t, i) => {
    if (anyTensor && !given[i]) return;
    const r: DType | null = d === null ? t.dtype : resultType(d, t.dtype);
    if (r === null) {
      throw new DTypeError(`${who}: xs[${i}] is ${t.dtype} but an earlier tensor is ${d}; they have no common dtype without int64`);
    }
    d = r;
  });
  let dt = d as unknown as DType;
  if (anyTensor) ts.forEach((t, i) => { if (!given[i]) dt = resultTypeWithScalar(dt, dataKind(t)); });
  return ts.map((t, i) => {
    const c = castTo(t, dt, who, `xs[${i}]`);
    return c.device === device ? c : c.to(device);
  });
}

function concatChecked(who: string, list: TensorList, dim: number): Tensor {
  const ts = list.ts;
  const first = ts[0];
  ts.forEach((t, i) => {
    if (t.ndim !== first.ndim || t.shape.some((n, k) => k !== dim && n !== first.shape[k])) {
      throw new ShapeError(
        `${who}: xs[0] is ${fmtShape(first.shape)} and xs[${i}] is ${fmtShape(t.shape)}; all dims but dim ${dim} must agree`,
      );
    }
  });
  const shape = [...first.shape];
  shape[dim] = ts.reduce((s, t) => s + t.shape[dim], 0);
  checkShape(shape, who);
  const ps = promoteList(who, list);
  return lookup('concat', ps[0].dtype, ps[0].device, who)(ps, dim);
}

/**
 * Joins tensors along an existing dim; the others must agree. Dtypes promote as in
 * arithmetic (int32 with float32 → float32); JS arrays among tensors count like JS scalars
 * (their category only: `concat([f32gpu, [[5, 6]]])` stays float32) and join the tensors' device.
 *
 * Syntax: `concat(xs, dim = 0)`
 * Example: `concat([[[1, 2]], [[3, 4]]])` → `[[1, 2], [3, 4]]`
 * Throws: ArgumentError for an empty list or a dim out of range; ShapeError for 0-d tensors
 * or dims that disagree; DeviceError for tensors on different devices; DTypeError for
 * int32 with uint32.
 * See also: `stack`, `split`.
 */
export function concat(xs: readonly TensorLike[], dim = 0): Tensor {
  if (taping()) return gradCall('concat', concat, [xs, dim]);
  const who = 'concat';
  const list = tensorList(who, xs);
  list.ts.forEach((t, i) => {
    if (t.ndim === 0) throw new ShapeError(`${who}: xs[${i}] is a scalar (0-d); concat needs at least 1 dim (use stack)`);
  });
  return concatChecked(who, list, normDim(who, 'dim', dim, list.ts[0].ndim));
}

/**
 * Joins tensors of one shape along a new dim `dim` (in [−ndim−1, ndim]).
 *
 * Syntax: `stack(xs, dim = 0)`
 * Example: `stack([[1, 2], [3, 4]], 1)` → `[[1, 3], [2, 4]]`
 * Throws: ArgumentError for an empty list or a dim out of range; ShapeError for shapes
 * that differ; DeviceError / DTypeError as `concat`.
 * See also: `concat`, `unsqueeze`.
 */
export function stack(xs: readonly TensorLike[], dim = 0): Tensor {
  if (taping()) return gradCall('stack', stack, [xs, dim]);
  const who = 'stack';
  const list = tensorList(who, xs);
  const ts = list.ts;
  const first = ts[0];
  ts.forEach((t, i) => {
    if (t.ndim !== first.ndim || t.shape.some((n, k) => n !== first.shape[k])) {
      throw new ShapeError(`${who}: xs[0] is ${fmtShape(first.shape)} and xs[${i}] is ${fmtShape(t.shape)}; stack needs one shape`);
    }
  });
  const d = normDim(who, 'dim', dim, first.ndim + 1);
  return concatChecked(who, { ...list, ts: ts.map((t) => t.reshape([...t.shape.slice(0, d), 1, ...t.shape.slice(d)])) }, d);
}

/**
 * Splits x along `dim` into chunks: a number gives chunks of that size (the last one
 * smaller: torch.split), an array gives the chunk sizes (they must sum to the dim's size).
 * Each chunk is a new contiguous tensor.
 *
 * Syntax: `split(x, size, dim = 0)`, `split(x, [s0, s1, …], dim = 0)`
 * Example: `split([1, 2, 3, 4, 5], 2)` → `[1, 2]`, `[3, 4]`, `[5]`; `split(A, [1, 2], 1)`
 * Throws: ShapeError for a 0-d x or sizes that do not sum to the dim's size; ArgumentError
 * for a size that is not a positive integer (array entries may be 0) or a dim out of range.
 * See also: `concat`, `slice`.
 */
export function split(x: TensorLike, sizeOrSections: number | readonly number[], dim = 0): Tensor[] {
  if (taping()) return gradCall('split', split, [x, sizeOrSections, dim]);
  const who = 'split';
  const t = arg(x, who);
  if (t.ndim === 0) throw new ShapeError(`${who}: x is a scalar (0-d); split needs at least 1 dim`);
  const d = normDim(who, 'dim', dim, t.ndim);
  const n = t.shape[d];
  let sizes: number[];
  if (Array.isArray(sizeOrSections)) {
    sizes = sizeOrSections.map((s, i) => checkArg<number>(who, `sizeOrSections[${i}]`, s, opt.int(0)));
    const total = sizes.reduce((a, b) => a + b, 0);
    if (total !== n) {
      throw new ShapeError(`${who}: the sizes ${show(sizeOrSections)} sum to ${total}, but dim ${d} of x (${fmtShape(t.shape)}) is ${n}`);
    }
  } else {
    const size = checkArg<number>(who, 'sizeOrSections', sizeOrSections, opt.int(1));
    sizes = [];
    for (let at = 0; at < n; at += size) sizes.push(Math.min(size, n - at));
    if (n === 0) sizes.push(0);
  }
  const st = denseStrides(t.shape);
  let at = 0;
  return sizes.map((s) => {
    const shape = [...t.shape];
    shape[d] = s;
    const offset = s === 0 || sizeOf(shape) === 0 ? 0 : at * st[d];
    at += s;
    return copyView(t, { shape, strides: st, offset }, false, who);
  });
}

// ---------------------------------------------------------------- take / put

/**
 * The flat indices as an int32 tensor on x's device: a tensor (int32 or uint32) or (nested)
 * arrays of integers. On the CPU (and for arrays) negatives are wrapped and bounds checked
 * here; GPU index tensors are checked by the GPU entry (the error surfaces at the first read).
 */
function flatIndex(who: string, index: unknown, x: Tensor): Tensor<'int32'> {
  const size = x.size;
  // Anything tensor() takes (a disposed tensor is a DeviceError, malformed input a typed error).
  const t = toOperand(index as Operand, who, 'index');
  if (t.dtype === 'int32' || t.dtype === 'uint32') {
    if (index instanceof Tensor) commonDevice([x, t], ['x', 'index'], who);
    // GPU index tensors go as they are: the entry wraps negatives, checks bounds, and reads a
    // uint32 tensor as unsigned (the contract in ops.ts: a cast to int32 would make 2^32 − 1 read as −1).
    if (t.device !== 'cpu') return t as Tensor<'int32'>;
    const out = normalised(who, t.dataSync(), t.shape, size, x);
    return x.device === 'cpu' ? out : out.to(x.device);
  }
  if (!(index instanceof Tensor) && (t.dtype === 'float64' || t.dtype === 'float32')) {
    // JS numbers (arrays, { data, shape }): integers only.
    const s = t.dataSync();
    for (let i = 0; i < s.length; i++) {
      if (!Number.isInteger(s[i])) throw new ArgumentError(`${who}: index entry ${i} is ${s[i]}, not an integer`);
    }
    const out = normalised(who, s, t.shape, size, x);
    return x.device === 'cpu' ? out : out.to(x.device);
  }
  throw new DTypeError(`${who}: index is ${t.dtype}; expected an int32 or uint32 tensor or integers`);
}

function normalised(who: string, s: ArrayLike<number>, shape: readonly number[], size: number, x: Tensor): Tensor<'int32'> {
  // A read-only pass first: indices already in [0, size) of an int32/uint32 array are used
  // as they are (a uint32 array viewed as int32: every value is below 2^31), no copy.
  let negative = false;
  for (let i = 0; i < s.length; i++) {
    const v = s[i];
    if (v < -size || v >= size) {
      throw new ArgumentError(
        `${who}: index ${v} (entry ${i}) is out of range for x with ${size} element${size === 1 ? '' : 's'} (${fmtShape(x.shape)})`,
      );
    }
    if (v < 0) negative = true;
    else if (v > 2147483647) throw new ArgumentError(`${who}: index ${v} (entry ${i}) does not fit int32 (lapis indexes with int32)`);
  }
  if (!negative && (s instanceof Int32Array || s instanceof Uint32Array)) {
    return Tensor.fromStorage('int32', shape, s instanceof Int32Array ? s : new Int32Array(s.buffer, s.byteOffset, s.length));
  }
  const out = Tensor.uninit('int32', shape);
  const o = out.dataSync();
  for (let i = 0; i < s.length; i++) {
    const v = s[i];
    const k = v < 0 ? v + size : v;
    if (k > 2147483647) throw new ArgumentError(`${who}: index ${v} (entry ${i}) does not fit int32 (lapis indexes with int32)`);
    o[i] = k;
  }
  return out;
}

/**
 * Gathers from x as if it were 1-D (torch.take): out has index's shape, out[i…] =
 * x.flat[index[i…]]; negative indices count from the end.
 *
 * Syntax: `take(x, index)` with index an int32/uint32 tensor or (nested) arrays of integers
 * Example: `take([[1, 2], [3, 4]], [0, -1])` → `[1, 4]`
 * Throws: ArgumentError for an index out of range (GPU index tensors: at the first read of
 * the result) or a non-integer; DTypeError for a float index tensor; DeviceError for x and
 * index on different devices.
 * See also: `put`, `slice`.
 */
export function take(x: TensorLike, index: TensorLike): Tensor {
  if (taping()) return gradCall('take', take, [x, index]);
  const who = 'take';
  const t = arg(x, who);
  const idx = flatIndex(who, index, t);
  return lookup('take', t.dtype, t.device, who)(t, idx);
}

export interface PutOptions {
  /** Add the values instead of writing them; every duplicate index counts (bool: logical or). */
  accumulate?: boolean;
}

/**
 * A copy of x with x.flat[index[i]] = values[i] (torch's `put_`, not in place): values
 * broadcast to index's shape or hold as many elements as index; they are cast to x's
 * dtype (JS data, then moved to x's device). Without accumulate a repeated index keeps the
 * last value; with it the values add up (int32/uint32 wrap, bool is logical or).
 *
 * Syntax: `put(x, index, values, { accumulate = false })`
 * Example: `put([0, 0, 0], [0, 2, 0], [1, 2, 3], { accumulate: true })` → `[4, 0, 2]`
 * Throws: ArgumentError for an index out of range; ShapeError if values fit neither index's
 * shape nor its size; DTypeError for complex values into a real x or a float index tensor;
 * DeviceError for operands on different devices.
 * See also: `take`.
 */
export function put(x: TensorLike, index: TensorLike, values: Operand, opts: PutOptions = {}): Tensor {
  if (taping()) return gradCall('put', put, [x, index, values, opts]);
  const who = 'put';
  const t = arg(x, who);
  opts = readOptions(who, opts, { accumulate: opt.bool });
  const idx = flatIndex(who, index, t);
  let v = scalarKind(values) !== null
    ? scalarTensor(values as JsScalar, t.dtype, t.device, who, 'values')
    : toOperand(values, who, 'values');
  // JS data is cast, then goes to x's device; a tensor on another device is a DeviceError.
  if (values instanceof Tensor) commonDevice([t, v], ['x', 'values'], who);
  v = castTo(v, t.dtype, who, 'values');
  if (v.device !== t.device) v = v.to(t.device);
  if (v.size === idx.size) {
    v = v.reshape(idx.shape);
  } else {
    const ok = v.ndim <= idx.ndim && v.shape.every((n, i) => n === 1 || n === idx.shape[idx.ndim - v.ndim + i]);
    if (!ok) {
      throw new ShapeError(
        `${who}: values (${fmtShape(v.shape)}) neither broadcast to index's shape (${fmtShape(idx.shape)}) nor hold ${idx.size} elements`,
      );
    }
    v = expandAs(who, v, idx.shape);
  }
  return lookup('put', t.dtype, t.device, who)(t, idx, v, opts.accumulate ?? false);
}
