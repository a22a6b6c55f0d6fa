import { readOptions, opt } from '../core/options.js';
import { isComplex, realOf } from '../core/dtype.js';
import { ArgumentError, DTypeError, ShapeError, fmtShape } from '../core/errors.js';
import { asTensor, requireSquare, type TensorLike } from '../core/create.js';
import { sizeOf } from '../core/shape.js';
import { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { svdRaw } from './svd.js';

/** Matrix norm orders; vector norms take any number (Infinity, -Infinity, 0 included). */
export type NormOrd = number | 'fro' | 'nuc';

export interface NormOptions {
  /** One dim: vector norm along it; two dims: matrix norm over them. Default: see `norm`. */
  dim?: number | readonly [number, number];
  /** Keep the reduced dims as size 1. */
  keepdim?: boolean;
}

const MATRIX_ORDS: readonly NormOrd[] = ['fro', 'nuc', 1, -1, 2, -2, Infinity, -Infinity];

function normDim(d: number, nd: number, who: string): number {
  if (!Number.isInteger(d) || d < -nd || d >= nd) throw new ArgumentError(`${who}: dim ${d} is out of range for ${nd} dims`);
  return d < 0 ? d + nd : d;
}

/** Copies `t` with `dims` moved to the end (in that order); returns it and the kept dims. */
function moveToEnd(t: Tensor, dims: number[]): { out: Tensor; kept: number[] } {
  const nd = t.ndim;
  const kept = [...Array(nd).keys()].filter((d) => !dims.includes(d));
  const perm = [...kept, ...dims];
  if (perm.every((p, i) => p === i)) return { out: t, kept };
  const shape = perm.map((p) => t.shape[p]);
  const out = Tensor.empty(t.dtype, shape);
  const c = isComplex(t.dtype) ? 2 : 1;
  const src = t.dataSync(), dst = out.dataSync();
  const stride = new Array<number>(nd).fill(1);
  for (let i = nd - 2; i >= 0; i--) stride[i] = stride[i + 1] * t.shape[i + 1];
  const pstride = perm.map((p) => stride[p]);
  const idx = new Array<number>(nd).fill(0);
  const total = sizeOf(shape);
  let off = 0;
  for (let f = 0; f < total; f++) {
    dst[f * c] = src[off * c];
    if (c === 2) dst[f * c + 1] = src[off * c + 1];
    for (let i = nd - 1; i >= 0; i--) {
      idx[i]++;
      off += pstride[i];
      if (idx[i] < shape[i]) break;
      off -= pstride[i] * idx[i];
      idx[i] = 0;
    }
  }
  return { out, kept };
}

function absAt(d: ArrayLike<number>, i: number, cplx: boolean): number {
  return cplx ? Math.hypot(d[2 * i], d[2 * i + 1]) : Math.abs(d[i]);
}

function vectorNorm(d: ArrayLike<number>, off: number, len: number, p: number, cplx: boolean): number {
  if (p === Infinity || p === -Infinity) {
    let r = p === Infinity ? 0 : Infinity;
    if (len === 0) return p === Infinity ? 0 : Infinity;
    for (let i = 0; i < len; i++) {
      const a = absAt(d, off + i, cplx);
      if (Number.isNaN(a)) return NaN;
      r = p === Infinity ? Math.max(r, a) : Math.min(r, a);
    }
    return r;
  }
  if (p === 0) {
    let c = 0;
    for (let i = 0; i < len; i++) {
      const a = absAt(d, off + i, cplx);
      if (a !== 0) c++;
    }
    return c;
  }
  // Scaled by the largest entry so 1e±300 data neither overflows nor underflows.
  let mx = 0, nan = false;
  for (let i = 0; i < len; i++) {
    const a = absAt(d, off + i, cplx);
    if (Number.isNaN(a)) nan = true;
    else mx = Math.max(mx, a);
  }
  if (nan) return NaN;
  if (mx === 0) return p > 0 ? 0 : len === 0 ? Infinity : 0;
  if (mx === Infinity) return p > 0 ? Infinity : 0;
  let s = 0;
  if (p === 2) for (let i = 0; i < len; i++) { const a = absAt(d, off + i, cplx) / mx; s += a * a; }
  else if (p === 1) for (let i = 0; i < len; i++) s += absAt(d, off + i, cplx) / mx;
  else for (let i = 0; i < len; i++) s += (absAt(d, off + i, cplx) / mx) ** p;
  return mx * s ** (1 / p);
}

/** Matrix norms of the (…, m, n) tensor `t`, one value per matrix. */
function matrixNorms(t: Tensor, ord: NormOrd, who: string): Float64Array {
  const m = t.rows, n = t.cols, cplx = isComplex(t.dtype);
  const count = sizeOf(t.batchShape);
  const out = new Float64Array(count);
  if (ord === 'fro') {
    const d = t.dataSync();
    for (let b = 0; b < count; b++) out[b] = vectorNorm(d, b * m * n, m * n, 2, cplx);
    return out;
  }
  if (ord === 1 || ord === -1 || ord === Infinity || ord === -Infinity) {
    const d = t.dataSync();
    const byCols = ord === 1 || ord === -1;
    const big = ord === 1 || ord === Infinity;
    for (let b = 0; b < count; b++) {
      const sums = new Float64Array(byCols ? n : m);
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) sums[byCols ? j : i] += absAt(d, b * m * n + i * n + j, cplx);
      let r = sums.length === 0 ? (big ? 0 : Infinity) : sums[0];
      for (const v of sums) r = Number.isNaN(v) || Number.isNaN(r) ? NaN : big ? Math.max(r, v) : Math.min(r, v);
      out[b] = r;
    }
    return out;
  }
  // 2, -2, 'nuc': singular values.
  const { S, info } = svdRaw(t, false, false, who);
  const s = S.dataSync(), st = info.dataSync(), k = Math.min(m, n), d = t.dataSync();
  for (let b = 0; b < count; b++) {
    if (st[b] === -1) {
      let hasNaN = false;
      for (let i = b * m * n * (cplx ? 2 : 1); i < (b + 1) * m * n * (cplx ? 2 : 1); i++) if (Number.isNaN(d[i])) hasNaN = true;
      out[b] = hasNaN || ord === -2 ? NaN : Infinity;
      continue;
    }
    if (k === 0) { out[b] = ord === -2 ? Infinity : 0; continue; }
    if (ord === 2) out[b] = s[b * k];
    else if (ord === -2) out[b] = s[b * k + k - 1];
    else { let acc = 0; for (let i = 0; i < k; i++) acc += s[b * k + i]; out[b] = acc; }
  }
  return out;
}

/**
 * Vector and matrix norms with torch.linalg.norm semantics. Without `dim`: `ord`
 * undefined gives the 2-norm of all entries flattened; with `ord`, A must be 1-D (vector
 * norm) or 2-D (matrix norm). `dim` as one number takes vector norms along it, as a pair
 * matrix norms over those two dims. Vector orders: any number, ±Infinity, 0 (count of
 * non-zeros). Matrix orders: 'fro', 'nuc', 1, −1, 2, −2, Infinity, −Infinity. The result
 * has the real dtype; scaled sums keep 1e±300 entries from over/underflowing.
 *
 * Syntax: `linalg.norm(A, ord?, { dim, keepdim })`
 * Example: `linalg.norm([[3, 0], [0, 4]], 2)` → `4`; `linalg.norm([3, 4])` → `5`
 * Throws: ArgumentError for an unknown order or an order that does not fit the dims
 * ('fro' on a vector, 3 on a matrix), a bad dim; ShapeError when `ord` is given without
 * `dim` for a tensor of more than 2 dims; DTypeError for int32.
 * See also: `cond`, `svdvals`, `matrixRank`.
 */
export function norm(A: TensorLike, ord?: NormOrd, opts: NormOptions = {}): Tensor {
  const who = 'norm';
  opts = readOptions(who, opts, {
    dim: opt.check((v) => typeof v === 'number' || Array.isArray(v), 'a dim or a pair of dims'), keepdim: opt.bool,
  });
  const a = asTensor(A, who, 'A');
  if (a.dtype === 'int32') throw new DTypeError(`${who}: A is int32; norms need a floating dtype`);
  const nd = a.ndim;
  let dims: number[];
  if (opts.dim === undefined) {
    if (ord === undefined) {
      const flat = a.reshape([a.size]);
      const r = Tensor.empty(realOf(a.dtype), opts.keepdim ? new Array(nd).fill(1) : []);
      r.dataSync()[0] = vectorNorm(flat.dataSync(), 0, a.size, 2, isComplex(a.dtype));
      return r;
    }
    if (nd === 1) dims = [0];
    else if (nd === 2) dims = [0, 1];
    else throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}; with an order and no dim it must be 1-D or 2-D`);
  } else if (typeof opts.dim === 'number') {
    dims = [normDim(opts.dim, nd, who)];
  } else {
    if (opts.dim.length !== 2) throw new ArgumentError(`${who}: dim must be a number or a pair`);
    dims = [normDim(opts.dim[0], nd, who), normDim(opts.dim[1], nd, who)];
    if (dims[0] === dims[1]) throw new ArgumentError(`${who}: the two dims must differ`);
  }
  const matrix = dims.length === 2;
  const o: NormOrd = ord ?? (matrix ? 'fro' : 2);
  if (matrix && !MATRIX_ORDS.includes(o)) {
    throw new ArgumentError(`${who}: matrix norm order must be 'fro', 'nuc', ±1, ±2 or ±Infinity, got ${String(o)}`);
  }
  if (!matrix && (typeof o !== 'number' || Number.isNaN(o))) {
    throw new ArgumentError(`${who}: vector norm order must be a number, got ${String(o)}`);
  }
  const { out: moved, kept } = moveToEnd(a, dims);
  const keptShape = kept.map((d) => a.shape[d]);
  const outShape = opts.keepdim ? a.shape.map((s, i) => (dims.includes(i) ? 1 : s)) : keptShape;
  const r = Tensor.empty(realOf(a.dtype), outShape);
  const rd = r.dataSync();
  if (matrix) {
    const mat = moved.reshape([...keptShape, a.shape[dims[0]], a.shape[dims[1]]]);
    rd.set(matrixNorms(mat, o, who));
  } else {
    const len = a.shape[dims[0]], d = moved.dataSync(), cplx = isComplex(a.dtype);
    for (let f = 0; f < rd.length; f++) rd[f] = vectorNorm(d, f * len, len, o as number, cplx);
  }
  return r;
}

/**
 * Condition number (torch.linalg.cond). p undefined, 2 or −2: σ_max/σ_min (σ_min/σ_max)
 * from the singular values, any shape. Other orders ('fro', 'nuc', ±1, ±Infinity):
 * ‖A‖_p·‖A⁻¹‖_p for square A, Infinity when A is singular.
 *
 * Syntax: `linalg.cond(A, p?)`
 * Example: `linalg.cond([[1, 0], [0, 1e-3]])` → `1000`
 * Throws: ShapeError for non-square A with an order other than ±2; ArgumentError for
 * an unknown order.
 * See also: `norm`, `svdvals`, `matrixRank`.
 */
export function cond(A: TensorLike, p?: NormOrd): Tensor {
  const who = 'cond';
  const a = asTensor(A, who, 'A');
  if (a.ndim < 2) throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}, expected a matrix or a batch of matrices`);
  if (a.dtype === 'int32') throw new DTypeError(`${who}: A is int32; cond needs a floating dtype`);
  const ord = p ?? 2;
  if (!MATRIX_ORDS.includes(ord)) throw new ArgumentError(`${who}: unknown order ${String(ord)}`);
  const out = Tensor.empty(realOf(a.dtype), a.batchShape);
  const od = out.dataSync();
  if (ord === 2 || ord === -2) {
    const hi = matrixNorms(a, 2, who), lo = matrixNorms(a, -2, who);
    for (let b = 0; b < od.length; b++) od[b] = ord === 2 ? hi[b] / lo[b] : lo[b] / hi[b];
    return out;
  }
  requireSquare(a, who, 'A');
  const { X, info } = lookup('inv', a.dtype, a.device, who)(a);
  const na = matrixNorms(a, ord, who), ni = matrixNorms(X, ord, who), st = info.dataSync();
  for (let b = 0; b < od.length; b++) od[b] = st[b] > 0 ? Infinity : na[b] * ni[b];
  return out;
}
