// CPU entries of vectorNorm, matrixNorm and cond: the sums Σ|x|² and Σ|x| from the addon's
// reductions (native/src/reduce, in double), a scaled pass in JavaScript where squares over-
// or underflow and for the other orders, the spectral orders from one registry svd, cond's
// inverse from the registry's inv.
import { dtypeCode, isComplex, realOf, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { sizeOf } from '../../core/shape.js';
import { Tensor } from '../../core/tensor.js';
import { lookup, register } from '../registry.js';
import type { MatrixNormOrd } from '../ops.js';
import { svdCpu } from './pinv.js';
import { native } from './binding.js';

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

/** |re + i·im|: the plain root where its square neither overflowed nor underflowed (Math.hypot is ~20× slower). */
function cabs(re: number, im: number): number {
  const s = re * re + im * im;
  return s < Infinity && s > 1e-290 ? Math.sqrt(s) : Math.hypot(re, im);
}

function absAt(d: ArrayLike<number>, i: number, cplx: boolean): number {
  return cplx ? cabs(d[2 * i], d[2 * i + 1]) : Math.abs(d[i]);
}

/** The addon's reduction codes of the norms' sums (native/include/lapis/reduce.hpp). */
const SUM_SQUARES = 6, SUM_MAGNITUDES = 7;

/** Σ|x|² or Σ|x| over the n dim of data seen as (outer, n, inner), in double. */
function normSums(data: ArrayLike<number>, dtype: DType, op: number, outer: number, n: number, inner: number): Float64Array {
  const out = new Float64Array(outer * inner);
  native().reduce({ dtype: dtypeCode(dtype), op, x: data as Float64Array, out, outer, n, inner });
  return out;
}

/** The 2-norm from the sum of squares s where its squares neither overflowed nor lost digits to underflow. */
function rootOf(s: number): number | null {
  // Each tiny term is below 2.3e-308, so together they are under 1e-280·eps of this sum.
  return s < Infinity && s > 1e-280 ? Math.sqrt(s) : null;
}

/** The p-norm of d[off, off + len) by a pass scaled by its largest entry (orders 0 and ±∞ directly). */
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
function matrixNorms(t: Tensor, ord: MatrixNormOrd, who: string): Float64Array {
  const m = t.rows, n = t.cols, cplx = isComplex(t.dtype);
  const count = sizeOf(t.batchShape);
  const out = new Float64Array(count);
  if (ord === 'fro') {
    const d = t.dataSync(), s = normSums(d, t.dtype, SUM_SQUARES, count, m * n, 1);
    for (let b = 0; b < count; b++) out[b] = rootOf(s[b]) ?? vectorNorm(d, b * m * n, m * n, 2, cplx);
    return out;
  }
  if (ord === 1 || ord === -1 || ord === Infinity || ord === -Infinity) {
    const byCols = ord === 1 || ord === -1;
    const big = ord === 1 || ord === Infinity;
    // Column sums reduce the m dim of (count, m, n); row sums the n dim of (count·m, n, 1).
    const len = byCols ? n : m;
    const sums = byCols
      ? normSums(t.dataSync(), t.dtype, SUM_MAGNITUDES, count, m, n)
      : normSums(t.dataSync(), t.dtype, SUM_MAGNITUDES, count * m, n, 1);
    for (let b = 0; b < count; b++) {
      let r = len === 0 ? (big ? 0 : Infinity) : sums[b * len];
      for (let j = b * len; j < (b + 1) * len; j++) {
        const v = sums[j];
        r = Number.isNaN(v) || Number.isNaN(r) ? NaN : big ? Math.max(r, v) : Math.min(r, v);
      }
      out[b] = r;
    }
    return out;
  }
  const sv = spectralNorms(t, who);
  return ord === 2 ? sv.hi : ord === -2 ? sv.lo : sv.nuc;
}

/** The orders 2, −2 and 'nuc' of each (…, m, n) matrix, from one singular value decomposition. */
function spectralNorms(t: Tensor, who: string): { hi: Float64Array; lo: Float64Array; nuc: Float64Array } {
  const m = t.rows, n = t.cols, cplx = isComplex(t.dtype);
  const count = sizeOf(t.batchShape);
  const hi = new Float64Array(count), lo = new Float64Array(count), nuc = new Float64Array(count);
  const { S, info } = svdCpu(t, false, who);
  const s = S.dataSync(), st = info.dataSync(), k = Math.min(m, n), d = t.dataSync();
  for (let b = 0; b < count; b++) {
    if (st[b] === -1) {
      let hasNaN = false;
      for (let i = b * m * n * (cplx ? 2 : 1); i < (b + 1) * m * n * (cplx ? 2 : 1); i++) if (Number.isNaN(d[i])) hasNaN = true;
      hi[b] = nuc[b] = hasNaN ? NaN : Infinity;
      lo[b] = NaN;
      continue;
    }
    if (k === 0) { hi[b] = nuc[b] = 0; lo[b] = Infinity; continue; }
    hi[b] = s[b * k];
    lo[b] = s[b * k + k - 1];
    let acc = 0;
    for (let i = 0; i < k; i++) acc += s[b * k + i];
    nuc[b] = acc;
  }
  return { hi, lo, nuc };
}

/** The output of a reduction over `dims` of `shape`: dims dropped, or kept as 1. */
function reducedShape(shape: readonly number[], dims: readonly number[], keepdim: boolean): number[] {
  return keepdim ? shape.map((s, i) => (dims.includes(i) ? 1 : s)) : shape.filter((_, i) => !dims.includes(i));
}

function vectorNormOp(x: Tensor, ord: number, dims: readonly number[], keepdim: boolean): Tensor {
  const { out: moved } = moveToEnd(x, [...dims]);
  const r = Tensor.empty(realOf(x.dtype), reducedShape(x.shape, dims, keepdim));
  const rd = r.dataSync(), d = moved.dataSync(), cplx = isComplex(x.dtype);
  const len = sizeOf(dims.map((i) => x.shape[i]));
  if (ord === 2 || ord === 1) {
    const s = normSums(d, x.dtype, ord === 2 ? SUM_SQUARES : SUM_MAGNITUDES, rd.length, len, 1);
    // Σ|x| stands as it is (an overflowing sum is the norm's own overflow; NaN propagates).
    for (let f = 0; f < rd.length; f++) rd[f] = ord === 1 ? s[f] : rootOf(s[f]) ?? vectorNorm(d, f * len, len, 2, cplx);
    return r;
  }
  for (let f = 0; f < rd.length; f++) rd[f] = vectorNorm(d, f * len, len, ord, cplx);
  return r;
}

function matrixNormOp(A: Tensor, ord: MatrixNormOrd, dims: readonly [number, number], keepdim: boolean): Tensor {
  const { out: moved, kept } = moveToEnd(A, [...dims]);
  const keptShape = kept.map((d) => A.shape[d]);
  const r = Tensor.empty(realOf(A.dtype), reducedShape(A.shape, dims, keepdim));
  const mat = moved.reshape([...keptShape, A.shape[dims[0]], A.shape[dims[1]]]);
  r.dataSync().set(matrixNorms(mat, ord, 'norm'));
  return r;
}

function cond(A: Tensor, ord: MatrixNormOrd): Tensor {
  const who = 'cond';
  const out = Tensor.empty(realOf(A.dtype), A.batchShape);
  const od = out.dataSync();
  if (ord === 2 || ord === -2) {
    const { hi, lo } = spectralNorms(A, who);
    for (let b = 0; b < od.length; b++) od[b] = ord === 2 ? hi[b] / lo[b] : lo[b] / hi[b];
    return out;
  }
  const { X, info } = lookup('inv', A.dtype, 'cpu', who)(A);
  const na = matrixNorms(A, ord, who), ni = matrixNorms(X, ord, who), st = info.dataSync();
  for (let b = 0; b < od.length; b++) od[b] = st[b] > 0 ? Infinity : na[b] * ni[b];
  return out;
}

export function registerNormCpu(): void {
  register('vectorNorm', FLOAT_DTYPES, 'cpu', vectorNormOp);
  register('matrixNorm', FLOAT_DTYPES, 'cpu', matrixNormOp);
  register('cond', FLOAT_DTYPES, 'cpu', cond);
}
