import { readOptions, opt } from '../core/options.js';
import { epsOf, isComplex, promote, realOf } from '../core/dtype.js';
import { ArgumentError, DeviceError, LinAlgError, ShapeError, fmtShape } from '../core/errors.js';
import { asTensor, castCpu, requireMatrix, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import { Tensor } from '../core/tensor.js';
import { svdMessage, svdRaw } from './svd.js';
import { adjointScaleCols, ldexp, mm, rankThreshold, scaleToRange } from './pinv.js';

export interface LstsqOptions {
  /**
   * Singular values ≤ rcond·σ_max count as zero (the rank threshold shared with pinv and
   * matrixRank). Default max(m, n)·eps of the dtype; a negative value means that default.
   */
  rcond?: number;
}

export interface LstsqResult {
  /** (…, n, k): the minimum-norm least-squares solution. */
  solution: Tensor;
  /**
   * (…, k) squared residual norms ‖B − A·X‖² per column, when m > n and every matrix of A
   * has full rank; otherwise an empty tensor of shape [0] (torch's rule).
   */
  residuals: Tensor;
  /** int32, A's batch shape: the effective rank of each matrix. */
  rank: Tensor<'int32'>;
  /** (…, min(m, n)) singular values of A, descending. */
  singularValues: Tensor;
}

/**
 * Least squares min ‖A·X − B‖ (torch.linalg.lstsq, gelsd-style): through the SVD, so
 * rank-deficient A gets the minimum-norm solution and tall or wide A both work. Batch dims
 * of A and B broadcast; B may be a vector when A is a single matrix.
 *
 * Syntax: `linalg.lstsq(A, B, { rcond })` → `{ solution, residuals, rank, singularValues }`
 * Example: `lstsq([[1, 0], [0, 1], [1, 1]], [[1], [2], [3]]).solution` → `[[1], [2]]`
 * Throws: ShapeError if A and B have different row counts or batch dims that do not
 * broadcast; ArgumentError for a non-finite rcond; DeviceError for mixed devices.
 * LinAlgError if the SVD did not converge. A matrix holding NaN/Inf gives a NaN solution
 * and rank 0. Entries near under/overflow are scaled by powers of two first (gelsd).
 * See also: `pinv`, `qr`, `solve`, `matrixRank`.
 */
export function lstsq(A: TensorLike, B: TensorLike, opts: LstsqOptions = {}): LstsqResult {
  const who = 'lstsq';
  opts = readOptions(who, opts, { rcond: opt.num() });
  if (opts.rcond !== undefined && (typeof opts.rcond !== 'number' || !Number.isFinite(opts.rcond))) {
    throw new ArgumentError(`${who}: rcond must be a finite number, got ${String(opts.rcond)}`);
  }
  let a = asTensor(A, who, 'A');
  let b = asTensor(B, who, 'B');
  if (a.device !== b.device) throw new DeviceError(`${who}: A is on ${a.device}, B is on ${b.device}`);
  requireMatrix(a, who, 'A');
  const vec = b.ndim === 1;
  if (vec) {
    if (a.ndim !== 2) throw new ShapeError(`${who}: a vector B needs a single matrix A, got A ${fmtShape(a.shape)}`);
    b = b.reshape([b.shape[0], 1]);
  }
  requireMatrix(b, who, 'B');
  const m = a.rows, n = a.cols, k = Math.min(m, n), nrhs = b.cols;
  if (b.rows !== m) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(b.shape.slice(-2))}: row counts differ`);
  }
  const dt = promote(a.dtype, b.dtype);
  if (a.dtype !== dt) a = castCpu(a, dt, who);
  if (b.dtype !== dt) b = castCpu(b, dt, who);
  const plan = planBatch(a, b, who);
  const rtol = opts.rcond === undefined || opts.rcond < 0 ? epsOf(dt) * Math.max(m, n) : opts.rcond;

  // gelsd's scaling: solve 2^−eA·A·X' = 2^−eB·B near under/overflow, X = 2^(eB−eA)·X'
  // (entries at 1e-310 gave 1/σ = Inf and a NaN solution).
  const sa = scaleToRange(a), sb = scaleToRange(b);
  const expA = sa.exps, expB = sb.exps;
  a = sa.t;
  b = sb.t;
  const { U, S, Vh, info } = svdRaw(a, true, false, who);
  const count = info.size, s = S.dataSync(), st = info.dataSync();
  for (let i = 0; i < count; i++) {
    // Non-convergence is an error, never a solution computed from unconverged factors.
    if (st[i] > 0) throw new LinAlgError(`${who}: ${a.ndim > 2 ? `(batch element ${i}) ` : ''}${svdMessage(st[i])}`, i, st[i]);
  }
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
  // B, C and X are transposed, never U or Vh (512×256 U: 0.63 ms of JavaScript).
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
  let X = adjointScaleCols(mm(Ch, Vh!, who), new Float64Array(plan.count * nrhs).fill(1), nrhs);
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
    if (vec) residuals = residuals.reshape([]);
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
  if (vec) X = X.reshape([n]);
  return { solution: X, residuals, rank, singularValues: sv };
}
