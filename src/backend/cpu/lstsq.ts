// CPU entry of lstsq: 'gelsd' composed from the registry's svd and matmul, 'gels' from its
// qr, matmul and solveTriangular.
import { isComplex, realOf, FLOAT_DTYPES } from '../../core/dtype.js';
import { planBatch, type BatchPlan } from '../../core/batch.js';
import { Tensor } from '../../core/tensor.js';
import { lookup, register } from '../registry.js';
import type { LstsqDriver, LstsqOutput } from '../ops.js';
import { adjointScaleCols, ldexp, mm, rankThreshold, scaleToRange, svdCpu } from './pinv.js';

function lstsq(A: Tensor, B: Tensor, plan: BatchPlan, rtol: number, driver: LstsqDriver): LstsqOutput {
  return driver === 'gels' ? gels(A, B, plan, rtol) : gelsd(A, B, plan, rtol);
}

/** (…, p, q) → (…, q, p) adjoint. */
function adjoint(X: Tensor): Tensor {
  const count = X.size / Math.max(1, X.rows * X.cols);
  return adjointScaleCols(X, new Float64Array(count * X.rows).fill(1), X.rows);
}

/**
 * QR least squares for full-rank A (LAPACK's gels): tall A = Q·R gives X = R⁻¹·(Qᴴ·B), wide
 * Aᴴ = Q·R gives the minimum-norm X = Q·(R⁻ᴴ·B). info k > 0 marks the first |r_kk| ≤
 * rtol·max|r_ii| (rank-deficient: never returned as a solution), −1 NaN/Inf in A (NaN X).
 */
function gels(A: Tensor, B: Tensor, plan: BatchPlan, rtol: number): LstsqOutput {
  const who = 'lstsq';
  const dt = A.dtype, m = A.rows, n = A.cols, k = Math.min(m, n), nrhs = B.cols, c2 = isComplex(dt) ? 2 : 1;
  const sa = scaleToRange(A), sb = scaleToRange(B);
  const a = sa.t, b = sb.t;
  const tall = m >= n;
  const { Q, R } = lookup('qr', dt, 'cpu', who)(tall ? a : adjoint(a), 'reduced');
  const info = Tensor.empty('int32', A.batchShape);
  const st = info.dataSync(), rd = R.dataSync(), ad = a.dataSync();
  const per = m * n * c2;
  for (let i = 0; i < st.length; i++) {
    let finite = true;
    for (let j = i * per; j < (i + 1) * per && finite; j++) finite = Number.isFinite(ad[j]);
    if (!finite) { st[i] = -1; continue; }
    const diag = (j: number) => Math.abs(rd[(i * k * k + j * k + j) * c2]); // R's diagonal is real
    let mx = 0;
    for (let j = 0; j < k; j++) mx = Math.max(mx, diag(j));
    for (let j = 0; j < k; j++) if (!(diag(j) > rtol * mx) || mx === 0) { st[i] = j + 1; break; }
  }
  let X: Tensor;
  const solveTri = (T: Tensor, C: Tensor, upper: boolean) =>
    lookup('solveTriangular', dt, 'cpu', who)(T, C, planBatch(T, C, who), { upper, unitriangular: false }).X;
  if (tall) {
    const C = mm(adjoint(Q!), b, who); // (batch, n, nrhs)
    X = solveTri(R, C, true);
  } else {
    X = mm(Q!, solveTri(adjoint(R), b, false), who);
  }
  const xd = X.dataSync();
  const ia = (f: number) => (plan.aIdx ? plan.aIdx[f] : f), ib = (f: number) => (plan.bIdx ? plan.bIdx[f] : f);
  const xper = n * nrhs * c2;
  for (let f = 0; f < plan.count; f++) if (st[ia(f)] !== 0) xd.fill(NaN, f * xper, (f + 1) * xper);
  let residuals: Tensor = Tensor.empty(realOf(dt), [0]);
  if (m > n && plan.count > 0) {
    const ax = mm(a, X, who).dataSync(), bd = b.dataSync();
    residuals = Tensor.empty(realOf(dt), [...plan.batchShape, nrhs]);
    const r = residuals.dataSync();
    for (let f = 0; f < plan.count; f++) {
      for (let i = 0; i < m; i++)
        for (let j = 0; j < nrhs; j++)
          for (let c = 0; c < c2; c++) {
            const e = bd[((ib(f) * m + i) * nrhs + j) * c2 + c] - ax[((f * m + i) * nrhs + j) * c2 + c];
            r[f * nrhs + j] += e * e;
          }
      const eb = sb.exps ? sb.exps[ib(f)] : 0;
      for (let j = 0; j < nrhs; j++) r[f * nrhs + j] = st[ia(f)] !== 0 ? NaN : ldexp(r[f * nrhs + j], 2 * eb);
    }
  }
  if (sa.exps || sb.exps) {
    for (let f = 0; f < plan.count; f++) {
      const e = (sb.exps ? sb.exps[ib(f)] : 0) - (sa.exps ? sa.exps[ia(f)] : 0);
      if (e !== 0) for (let i = f * xper; i < (f + 1) * xper; i++) xd[i] = ldexp(xd[i], e);
    }
  }
  const rank = Tensor.empty('int32', A.batchShape);
  rank.dataSync().fill(k);
  return { solution: X, residuals, rank, singularValues: Tensor.empty(realOf(dt), [0]), info };
}

function gelsd(A: Tensor, B: Tensor, plan: BatchPlan, rtol: number): LstsqOutput {
  const who = 'lstsq';
  let a = A, b = B;
  const dt = a.dtype, m = a.rows, n = a.cols, k = Math.min(m, n), nrhs = b.cols;
  // gelsd's scaling: solve 2^−eA·A·X' = 2^−eB·B near under/overflow, X = 2^(eB−eA)·X'
  // (entries at 1e-310 gave 1/σ = Inf and a NaN solution).
  const sa = scaleToRange(a), sb = scaleToRange(b);
  const expA = sa.exps, expB = sb.exps;
  a = sa.t;
  b = sb.t;
  const { U, S, Vh, info } = svdCpu(a, true, who);
  const count = info.size, s = S.dataSync(), st = info.dataSync();
  const rank = Tensor.empty('int32', a.batchShape);
  const rk = rank.dataSync();
  const w = new Float64Array(count * k);
  let fullRank = m > n;
  for (let i = 0; i < count; i++) {
    const thr = rankThreshold(s[i * k] ?? 0, m, n, dt, 0, rtol);
    let r = 0;
    for (let j = 0; j < k; j++) {
      const v = s[i * k + j];
      if (v > thr) { w[i * k + j] = 1 / v; r++; }
    }
    rk[i] = st[i] === 0 ? r : 0;
    if (rk[i] !== n || st[i] !== 0) fullRank = false;
  }
  // X = V·diag(w)·(Uᴴ·B), with Uᴴ·B = (Bᴴ·U)ᴴ and V·C' = (C'ᴴ·Vh)ᴴ: only the thin
  // B, C and X are transposed, never the large U or Vh (docs/decisions.md).
  const bCount = b.size / Math.max(1, m * nrhs);
  const Bh = adjointScaleCols(b, new Float64Array(bCount * m).fill(1), m);
  const C = adjointScaleCols(mm(Bh, U!, who), new Float64Array(plan.count * nrhs).fill(1), nrhs); // (batch, k, nrhs)
  const cd = C.dataSync(), c2 = isComplex(dt) ? 2 : 1;
  for (let f = 0; f < plan.count; f++) {
    const ia = plan.aIdx ? plan.aIdx[f] : f;
    for (let i = 0; i < k; i++) {
      const wi = w[ia * k + i];
      for (let j = 0; j < nrhs * c2; j++) cd[(f * k + i) * nrhs * c2 + j] *= wi;
    }
  }
  const Ch = adjointScaleCols(C, new Float64Array(plan.count * k).fill(1), k);
  const X = adjointScaleCols(mm(Ch, Vh!, who), new Float64Array(plan.count * nrhs).fill(1), nrhs);
  const xd = X.dataSync();
  for (let f = 0; f < plan.count; f++) {
    const ia = plan.aIdx ? plan.aIdx[f] : f;
    if (st[ia] !== 0) xd.fill(NaN, f * n * nrhs * c2, (f + 1) * n * nrhs * c2);
  }

  const ea = (f: number) => (expA ? expA[plan.aIdx ? plan.aIdx[f] : f] : 0);
  const eb = (f: number) => (expB ? expB[plan.bIdx ? plan.bIdx[f] : f] : 0);

  let residuals: Tensor = Tensor.empty(realOf(dt), [0]);
  if (fullRank && count > 0) {
    const AX = mm(a, X, who);
    const ax = AX.dataSync(), bd = b.dataSync();
    residuals = Tensor.empty(realOf(dt), [...plan.batchShape, nrhs]);
    const r = residuals.dataSync();
    for (let f = 0; f < plan.count; f++) {
      const ib = plan.bIdx ? plan.bIdx[f] : f;
      for (let i = 0; i < m; i++)
        for (let j = 0; j < nrhs; j++)
          for (let c = 0; c < c2; c++) {
            const e = bd[((ib * m + i) * nrhs + j) * c2 + c] - ax[((f * m + i) * nrhs + j) * c2 + c];
            r[f * nrhs + j] += e * e;
          }
    }
    if (expB) for (let f = 0; f < plan.count; f++) for (let j = 0; j < nrhs; j++) r[f * nrhs + j] = ldexp(r[f * nrhs + j], 2 * eb(f));
  }
  if (expA || expB) {
    const per = n * nrhs * c2;
    for (let f = 0; f < plan.count; f++) {
      const e = eb(f) - ea(f);
      if (e !== 0) for (let i = f * per; i < (f + 1) * per; i++) xd[i] = ldexp(xd[i], e);
    }
  }
  let sv = S;
  if (expA) {
    sv = Tensor.empty(S.dtype, S.shape);
    const o = sv.dataSync();
    for (let i = 0; i < count; i++) for (let j = 0; j < k; j++) o[i * k + j] = ldexp(s[i * k + j], expA[i]);
  }
  return { solution: X, residuals, rank, singularValues: sv, info };
}

export function registerLstsqCpu(): void {
  register('lstsq', FLOAT_DTYPES, 'cpu', lstsq);
}
