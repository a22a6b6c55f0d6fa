// CPU entry of lstsq: 'gelsd' composed from the registry's qr, svd (values) and
// solveTriangular where every member is of full rank, else from its svd and matmul; 'gels'
// from its qr, matmul and solveTriangular (docs/svd.md, "lstsq on the CPU").
import { isComplex, realOf, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
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
  const dt = A.dtype, m = A.rows, n = A.cols, k = Math.min(m, n), c2 = isComplex(dt) ? 2 : 1;
  const sa = scaleToRange(A), sb = scaleToRange(B);
  const a = sa.t;
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
  const { X, residuals } = qrSolution(sa, sb, Q!, R, plan, st);
  const rank = Tensor.empty('int32', A.batchShape);
  rank.dataSync().fill(k);
  return { solution: X, residuals, rank, singularValues: Tensor.empty(realOf(dt), [0]), info };
}

type Scaled = ReturnType<typeof scaleToRange>;

/** Elements of [A | B] up to which gelsd's full-rank route builds it (2^22: 32 MiB of float64). */
const AUGMENTED_MAX = 2 ** 22;

/**
 * X from the reduced QR of the scaled A (tall) or Aᴴ (wide), NaN for the members whose
 * status st is not 0, scaled back by 2^(eB − eA); with the residuals ‖B − A·X‖² when m > n.
 */
function qrSolution(sa: Scaled, sb: Scaled, Q: Tensor, R: Tensor, plan: BatchPlan, st: Int32Array): { X: Tensor; residuals: Tensor } {
  const who = 'lstsq';
  const a = sa.t, b = sb.t;
  const dt = a.dtype, m = a.rows, n = a.cols, nrhs = b.cols, c2 = isComplex(dt) ? 2 : 1;
  let X: Tensor;
  const solveTri = (T: Tensor, C: Tensor, upper: boolean) =>
    lookup('solveTriangular', dt, 'cpu', who)(T, C, planBatch(T, C, who), { upper, unitriangular: false }).X;
  if (m >= n) {
    const C = mm(adjoint(Q), b, who); // (batch, n, nrhs)
    X = solveTri(R, C, true);
  } else {
    X = mm(Q, solveTri(adjoint(R), b, false), who);
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
  unscaleSolution(xd, xper, sa, sb, plan);
  return { X, residuals };
}

/** X' of the scaled problem → X = 2^(eB − eA)·X', member by member. */
function unscaleSolution(xd: ReturnType<Tensor["dataSync"]>, xper: number, sa: Scaled, sb: Scaled, plan: BatchPlan): void {
  if (!sa.exps && !sb.exps) return;
  for (let f = 0; f < plan.count; f++) {
    const e = (sb.exps ? sb.exps[plan.bIdx ? plan.bIdx[f] : f] : 0) - (sa.exps ? sa.exps[plan.aIdx ? plan.aIdx[f] : f] : 0);
    if (e !== 0) for (let i = f * xper; i < (f + 1) * xper; i++) xd[i] = ldexp(xd[i], e);
  }
}

/**
 * The tall full-rank case with an A per member (B may broadcast) through one QR (mode 'r')
 * of [A | B]: its R is
 * [R₁₁ R₁₂; 0 R₂₂] with R₁₁ that of A, so Qᴴ·B comes out of the factorization (LAPACK's
 * gels applies the reflectors the same way), X = R₁₁⁻¹·R₁₂ and the residuals are the
 * squared column norms of R₂₂. Null when a member needs the SVD.
 */
function gelsdAugmented(sa: Scaled, sb: Scaled, plan: BatchPlan, rtol: number): LstsqOutput | null {
  const who = 'lstsq';
  const a = sa.t, b = sb.t, dt = a.dtype, m = a.rows, n = a.cols, r = b.cols, w = n + r, count = plan.count;
  const c2 = isComplex(dt) ? 2 : 1;
  const ab = Tensor.empty(dt, [count, m, w]), abd = ab.dataSync(), ad = a.dataSync(), bd = b.dataSync();
  for (let f = 0; f < count; f++) {
    const fb = plan.bIdx ? plan.bIdx[f] : f;
    for (let i = 0; i < m; i++) {
      const row = f * m + i, brow = fb * m + i;
      abd.set(ad.subarray(row * n * c2, (row + 1) * n * c2), row * w * c2);
      abd.set(bd.subarray(brow * r * c2, (brow + 1) * r * c2), (row * w + n) * c2);
    }
  }
  const T = lookup('qr', dt, 'cpu', who)(ab, 'r').R, td = T.dataSync(), p = T.rows; // p = min(m, w)
  const R11 = Tensor.empty(dt, [...plan.batchShape, n, n]), R12 = Tensor.empty(dt, [...plan.batchShape, n, r]);
  const r11 = R11.dataSync(), r12 = R12.dataSync();
  for (let f = 0; f < count; f++)
    for (let i = 0; i < n; i++) {
      const row = (f * p + i) * w * c2;
      r11.set(td.subarray(row, row + n * c2), (f * n + i) * n * c2);
      r12.set(td.subarray(row + n * c2, row + w * c2), (f * n + i) * r * c2);
    }
  const { S, info } = svdCpu(R11, false, who);
  if (!allFullRank(S, info, m, n, rtol)) return null;
  const solveTri = lookup('solveTriangular', dt, 'cpu', who);
  const X = solveTri(R11, R12, planBatch(R11, R12, who), { upper: true, unitriangular: false }).X;
  unscaleSolution(X.dataSync(), n * r * c2, sa, sb, plan);
  let residuals: Tensor = Tensor.empty(realOf(dt), [0]);
  if (m > n) {
    residuals = Tensor.empty(realOf(dt), [...plan.batchShape, r]);
    const res = residuals.dataSync();
    for (let f = 0; f < count; f++) {
      const eb = sb.exps ? sb.exps[plan.bIdx ? plan.bIdx[f] : f] : 0;
      for (let j = 0; j < r; j++) {
        let acc = 0;
        for (let i = n; i < p; i++)
          for (let c = 0; c < c2; c++) acc += td[((f * p + i) * w + n + j) * c2 + c] ** 2;
        res[f * r + j] = ldexp(acc, 2 * eb);
      }
    }
  }
  const rank = Tensor.empty('int32', a.batchShape);
  rank.dataSync().fill(n);
  return { solution: X, residuals, rank, singularValues: unscaledValues(S, sa.exps), info };
}

/** Every member's values converged and its smallest is above the rank threshold. */
function allFullRank(S: Tensor, info: Tensor, m: number, n: number, rtol: number): boolean {
  const k = Math.min(m, n), s = S.dataSync(), st = info.dataSync();
  for (let i = 0; i < st.length; i++) {
    if (st[i] !== 0 || !(s[i * k + k - 1] > rankThreshold(s[i * k], m, n, S.dtype as DType, 0, rtol))) return false;
  }
  return true;
}

/** The singular values of the scaled batch, scaled back by 2^eA. */
function unscaledValues(S: Tensor, exps: Int32Array | null): Tensor {
  if (!exps) return S;
  const k = S.shape[S.ndim - 1], s = S.dataSync(), sv = Tensor.empty(S.dtype, S.shape), o = sv.dataSync();
  for (let i = 0; i < exps.length; i++) for (let j = 0; j < k; j++) o[i * k + j] = ldexp(s[i * k + j], exps[i]);
  return sv;
}

/**
 * gelsd's answer when every member of the batch is finite and of full rank by the same
 * threshold: the values of A are those of R in A = Q·R (or Aᴴ = Q·R), and with no value
 * dropped V·Σ⁻¹·Uᴴ·B equals the QR solution, which takes a QR, the values of a k×k
 * triangle and a triangular solve instead of both sets of singular vectors. Null when some
 * member needs the SVD (rank-deficient, non-finite, or values that did not converge).
 */
function gelsdFullRank(sa: Scaled, sb: Scaled, plan: BatchPlan, rtol: number): LstsqOutput | null {
  const who = 'lstsq';
  const a = sa.t, dt = a.dtype, m = a.rows, n = a.cols, k = Math.min(m, n);
  if (k === 0 || plan.count === 0) return null;
  // The augmented route copies A and B into one matrix, memory on top of the QR's own: taken
  // up to 2^22 elements; larger problems take the Q route (and the SVD route if that fails
  // to allocate, see gelsd).
  if (m >= n && !plan.aIdx && plan.aCount === plan.count && plan.count * m * (n + sb.t.cols) <= AUGMENTED_MAX) {
    return gelsdAugmented(sa, sb, plan, rtol);
  }
  const { Q, R } = lookup('qr', dt, 'cpu', who)(m >= n ? a : adjoint(a), 'reduced');
  const { S, info } = svdCpu(R, false, who);
  if (!allFullRank(S, info, m, n, rtol)) return null;
  const { X, residuals } = qrSolution(sa, sb, Q!, R, plan, info.dataSync());
  const rank = Tensor.empty('int32', a.batchShape);
  rank.dataSync().fill(k);
  return { solution: X, residuals, rank, singularValues: unscaledValues(S, sa.exps), info };
}

function gelsd(A: Tensor, B: Tensor, plan: BatchPlan, rtol: number): LstsqOutput {
  // gelsd's scaling: solve 2^−eA·A·X' = 2^−eB·B near under/overflow, X = 2^(eB−eA)·X'
  // (entries at 1e-310 gave 1/σ = Inf and a NaN solution).
  const sa = scaleToRange(A), sb = scaleToRange(B);
  let fast: LstsqOutput | null = null;
  try {
    fast = gelsdFullRank(sa, sb, plan, rtol);
  } catch (e) {
    // Out of memory in the QR (its Q and work copies): the SVD route needs less for a tall,
    // skinny A near the limit (2^22×12 under ulimit -v 2 GB: test/abuse/scenarios.mjs).
    if (!(e instanceof RangeError)) throw e;
  }
  return fast ?? gelsdSvd(sa, sb, plan, rtol);
}

/** gelsd through the SVD: X = V·Σ⁺·Uᴴ·B, the minimum-norm solution at any rank. */
function gelsdSvd(sa: Scaled, sb: Scaled, plan: BatchPlan, rtol: number): LstsqOutput {
  const who = 'lstsq';
  const a = sa.t, b = sb.t;
  const m = a.rows, n = a.cols, dt = a.dtype, k = Math.min(m, n), nrhs = b.cols;
  const expA = sa.exps, expB = sb.exps;
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
  return { solution: X, residuals, rank, singularValues: unscaledValues(S, expA), info };
}

export function registerLstsqCpu(): void {
  register('lstsq', FLOAT_DTYPES, 'cpu', lstsq);
}
