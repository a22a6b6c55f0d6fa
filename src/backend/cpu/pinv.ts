// CPU entries of pinv and matrixRank (and the helpers lstsq shares): composed from the
// registry's svd and matmul, with the threshold and scaling steps in JavaScript.
import { epsOf, isComplex, realOf, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { planBatch } from '../../core/batch.js';
import { Tensor } from '../../core/tensor.js';
import { lookup, register } from '../registry.js';
import type { RankTolerance } from '../ops.js';

/**
 * The one rank threshold of pinv, lstsq and matrixRank (torch.linalg's rule): singular
 * values σ with σ ≤ max(atol, rtol·σ_max) count as zero. rtol defaults to max(m, n)·eps
 * of the dtype, or to 0 when a positive atol is given.
 */
export function rankThreshold(
  sMax: number, m: number, n: number, dtype: DType, atol?: number, rtol?: number,
): number {
  const a = atol ?? 0;
  const r = rtol ?? (atol !== undefined && atol > 0 ? 0 : epsOf(dtype) * Math.max(m, n));
  return Math.max(a, r * sMax);
}

/** A Hermitian matrix (batch) built from the lower triangle of A. */
export function hermitianFromLower(A: Tensor): Tensor {
  const n = A.rows, c = isComplex(A.dtype) ? 2 : 1;
  const out = Tensor.empty(A.dtype, A.shape);
  const s = A.dataSync(), d = out.dataSync();
  const count = A.size / Math.max(1, n * n);
  for (let b = 0; b < count; b++) {
    const o = b * n * n;
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        const lo = (o + i * n + j) * c, up = (o + j * n + i) * c;
        d[lo] = s[lo]; d[up] = s[lo];
        if (c === 2) {
          d[lo + 1] = i === j ? 0 : s[lo + 1];
          d[up + 1] = i === j ? 0 : -s[lo + 1];
        }
      }
  }
  return out;
}

/**
 * (…, p, q) → (…, q, p) adjoint with column j scaled by w[batch][j] (w has q entries per
 * matrix, indexed through wIdx for broadcast batches).
 */
export function adjointScaleCols(X: Tensor, w: Float64Array, wStride: number): Tensor {
  const p = X.rows, q = X.cols, c = isComplex(X.dtype) ? 2 : 1;
  const batch = X.batchShape;
  const out = Tensor.empty(X.dtype, [...batch, q, p]);
  const s = X.dataSync(), d = out.dataSync();
  const count = X.size / Math.max(1, p * q);
  // Strips of 16 output rows (input columns), each filled front to back: the row-by-row
  // loop wrote one new cache line per element (docs/decisions.md).
  const S = 16;
  for (let b = 0; b < count; b++) {
    const o = b * p * q, wo = b * wStride;
    for (let j0 = 0; j0 < q; j0 += S) {
      const j1 = Math.min(q, j0 + S);
      if (c === 1) {
        for (let i = 0; i < p; i++) {
          const f = w[wo + i], row = o + i * q;
          for (let j = j0; j < j1; j++) d[o + j * p + i] = s[row + j] * f;
        }
      } else {
        for (let i = 0; i < p; i++) {
          const f = w[wo + i], row = (o + i * q) * 2;
          for (let j = j0; j < j1; j++) {
            const to = (o + j * p + i) * 2;
            d[to] = s[row + 2 * j] * f;
            d[to + 1] = -s[row + 2 * j + 1] * f;
          }
        }
      }
    }
  }
  return out;
}

/** C = A·B through the registry (batch dims broadcast). */
export function mm(A: Tensor, B: Tensor, who: string): Tensor {
  const plan = planBatch(A, B, who);
  if (A.cols === 0) return Tensor.empty(A.dtype, [...plan.batchShape, A.rows, B.cols]);
  return lookup('matmul', A.dtype, 'cpu', who)(A, B, plan, A.rows, A.cols, B.cols);
}

/** x·2^k for any integer k (two steps: 2^k alone over- or underflows past ±1023). */
export function ldexp(x: number, k: number): number {
  const h = Math.trunc(k / 2);
  return x * 2 ** h * 2 ** (k - h);
}

/**
 * Brings each matrix of the batch whose max|aᵢⱼ| lies outside
 * [2^−e, 2^e] (e = a quarter of the dtype's exponent range: 1e±77 in float64, 1e±9 in
 * float32) to max|aᵢⱼ| ≈ 1 by an exact power of two, as LAPACK's gelsd scales A and B
 * (its SMLNUM/BIGNUM): the reciprocals 1/σ of pinv/lstsq overflow for σ below about
 * 1/(eps·max) (float64 data at 1e-310 gave a NaN solution), and products of subnormals
 * lose their digits. exps[b] = the exponent taken out (matrix b was multiplied by 2^−exps[b]);
 * null and the tensor itself when no matrix needs it (one O(mn) scan, no copy).
 */
export function scaleToRange(A: Tensor): { t: Tensor; exps: Int32Array | null } {
  const per = A.rows * A.cols * (isComplex(A.dtype) ? 2 : 1);
  const count = per === 0 ? 0 : A.size / (A.rows * A.cols);
  const d = A.dataSync() as Float32Array | Float64Array;
  const lim = realOf(A.dtype) === 'float64' ? 256 : 32;
  const lo = 2 ** -lim, hi = 2 ** lim;
  let exps: Int32Array | null = null;
  for (let b = 0; b < count; b++) {
    let mx = 0;
    for (let i = b * per; i < (b + 1) * per; i++) { const v = Math.abs(d[i]); if (v > mx) mx = v; }
    if (mx > 0 && Number.isFinite(mx) && (mx < lo || mx > hi)) {
      exps ??= new Int32Array(count);
      exps[b] = Math.floor(Math.log2(mx));
    }
  }
  if (exps === null) return { t: A, exps: null };
  const out = Tensor.empty(A.dtype, A.shape);
  const o = out.dataSync() as Float32Array | Float64Array;
  for (let b = 0; b < count; b++) {
    const e = exps[b];
    if (e === 0) { o.set(d.subarray(b * per, (b + 1) * per), b * per); continue; }
    for (let i = b * per; i < (b + 1) * per; i++) o[i] = ldexp(d[i], -e);
  }
  return { t: out, exps };
}

function fillNaN(t: Tensor, b: number, per: number): void {
  t.dataSync().fill(NaN, b * per, (b + 1) * per);
}

/** The SVD entry of the CPU backend (outputs on the CPU). */
export function svdCpu(A: Tensor, computeUV: boolean, who: string) {
  return lookup('svd', A.dtype, 'cpu', who)(A, { computeUV, fullMatrices: false });
}

/** atol in the units of matrix b after scaleToRange, and the threshold for its σ_max. */
function threshold(tol: RankTolerance, sMax: number, m: number, n: number, dtype: DType, exp: number): number {
  const atol = tol.atol === undefined || exp === 0 ? tol.atol : ldexp(tol.atol, -exp);
  return rankThreshold(sMax, m, n, dtype, atol, tol.rtol ?? (tol.atol !== undefined && tol.atol > 0 ? 0 : undefined));
}

function pinv(A: Tensor, tol: RankTolerance) {
  const who = 'pinv';
  const a = tol.hermitian ? hermitianFromLower(A) : A;
  const m = a.rows, n = a.cols;
  // Near under/overflow, the pseudo-inverse of 2^−e·A (then times 2^−e): 1/σ stays finite.
  const { t: as, exps } = scaleToRange(a);
  const { U, S, Vh, info } = svdCpu(as, true, who);
  const k = Math.min(m, n), count = info.size;
  const s = S.dataSync(), st = info.dataSync();
  const w = new Float64Array(count * k);
  for (let b = 0; b < count; b++) {
    const thr = threshold(tol, s[b * k] ?? 0, m, n, a.dtype, exps === null ? 0 : exps[b]);
    for (let i = 0; i < k; i++) { const v = s[b * k + i]; w[b * k + i] = v > thr ? 1 / v : 0; }
  }
  // X = V·diag(w)·Uᴴ = (Vhᴴ·diag(w))·Uᴴ.
  const Vw = adjointScaleCols(Vh!, w, k);
  const Uh = adjointScaleCols(U!, new Float64Array(count * m).fill(1), m);
  const X = mm(Vw, Uh, who);
  const per = n * m * (isComplex(a.dtype) ? 2 : 1), xd = X.dataSync() as Float32Array | Float64Array;
  for (let b = 0; b < count; b++) {
    if (st[b] !== 0) fillNaN(X, b, per);
    else if (exps !== null && exps[b] !== 0) for (let i = b * per; i < (b + 1) * per; i++) xd[i] = ldexp(xd[i], -exps[b]);
  }
  return { X, info };
}

function matrixRank(A: Tensor, tol: RankTolerance) {
  const a = tol.hermitian ? hermitianFromLower(A) : A;
  const m = a.rows, n = a.cols, k = Math.min(m, n);
  // As pinv: values of 2^−e·A, so subnormal σ keep their digits for the comparison.
  const { t: as, exps } = scaleToRange(a);
  const { S, info } = svdCpu(as, false, 'matrixRank');
  const s = S.dataSync();
  const rank = Tensor.empty('int32', a.batchShape);
  const r = rank.dataSync();
  for (let b = 0; b < r.length; b++) {
    const thr = threshold(tol, s[b * k] ?? 0, m, n, a.dtype, exps === null ? 0 : exps[b]);
    let c = 0;
    for (let i = 0; i < k; i++) if (s[b * k + i] > thr) c++;
    r[b] = c;
  }
  return { rank, info };
}

export function registerPinvCpu(): void {
  register('pinv', FLOAT_DTYPES, 'cpu', pinv);
  register('matrixRank', FLOAT_DTYPES, 'cpu', matrixRank);
}
