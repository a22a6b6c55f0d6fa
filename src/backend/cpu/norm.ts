// CPU entries of vectorNorm, matrixNorm and cond: sums in JavaScript (long float64 sums of
// squares through the addon's dot product; a scaled pass where squares over- or underflow),
// the spectral orders from one registry svd, cond's inverse from the registry's inv.
import { dtypeCode, isComplex, realOf, FLOAT_DTYPES } from '../../core/dtype.js';
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

// From this many scalars a float64 sum of squares is the addon's dot product (x·x as a 1×n by
// n×1 product); float32 data stays in the loop below, which sums in float64.
const DOT_MIN = 4096;

/** Σ|x|² over `len` entries from `off` (complex: both parts), unscaled. */
function sumSquares(d: ArrayLike<number>, off: number, len: number, cplx: boolean): number {
  const c = cplx ? 2 : 1, e = (off + len) * c;
  if (d instanceof Float64Array && len * c >= DOT_MIN) {
    const x = d.subarray(off * c, e), out = new Float64Array(1);
    native().matmul({
      dtype: dtypeCode('float64'), A: x, B: x, C: out, batch: 1, m: 1, k: x.length, n: 1,
      aIdx: null, bIdx: null, aCount: 1, bCount: 1, opA: 0, opB: 0,
    });
    return out[0];
  }
  let i = off * c, s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (; i + 4 <= e; i += 4) {
    const a = d[i], b = d[i + 1], x = d[i + 2], y = d[i + 3];
    s0 += a * a;
    s1 += b * b;
    s2 += x * x;
    s3 += y * y;
  }
  for (; i < e; i++) s0 += d[i] * d[i];
  return (s0 + s1) + (s2 + s3);
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
  if (p === 2) {
    const s = sumSquares(d, off, len, cplx);
    // Squares that neither overflowed nor lost digits to underflow (each tiny term is below
    // 2.3e-308, so together they are under 1e-280·eps of this sum): the plain sum stands.
    if (s < Infinity && s > 1e-280) return Math.sqrt(s);
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
      for (let i = 0; i < m; i++) {
        const o = (b * m + i) * n * (cplx ? 2 : 1);
        if (byCols) {
          if (cplx) for (let j = 0; j < n; j++) sums[j] += cabs(d[o + 2 * j], d[o + 2 * j + 1]);
          else for (let j = 0; j < n; j++) sums[j] += Math.abs(d[o + j]);
        } else {
          let acc = 0;
          if (cplx) for (let j = 0; j < n; j++) acc += cabs(d[o + 2 * j], d[o + 2 * j + 1]);
          else for (let j = 0; j < n; j++) acc += Math.abs(d[o + j]);
          sums[i] = acc;
        }
      }
      let r = sums.length === 0 ? (big ? 0 : Infinity) : sums[0];
      for (const v of sums) r = Number.isNaN(v) || Number.isNaN(r) ? NaN : big ? Math.max(r, v) : Math.min(r, v);
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
