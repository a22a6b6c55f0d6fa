import { readOptions, opt } from '../core/options.js';
import { epsOf, promote } from '../core/dtype.js';
import { ArgumentError, DeviceError, ShapeError, fmtShape } from '../core/errors.js';
import { asTensor, castCpu, requireMatrix, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import { raiseOnInfo } from '../core/info.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { svdMessage } from './svd.js';

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
  const m = a.rows, n = a.cols;
  if (b.rows !== m) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(b.shape.slice(-2))}: row counts differ`);
  }
  const dt = promote(a.dtype, b.dtype);
  if (a.dtype !== dt) a = castCpu(a, dt, who);
  if (b.dtype !== dt) b = castCpu(b, dt, who);
  const plan = planBatch(a, b, who);
  const rtol = opts.rcond === undefined || opts.rcond < 0 ? epsOf(dt) * Math.max(m, n) : opts.rcond;
  const r = lookup('lstsq', dt, a.device, who)(a, b, plan, rtol);
  // Non-convergence is an error, never a solution computed from unconverged factors.
  raiseOnInfo(r.info, who, a.ndim > 2, (code) => (code > 0 ? svdMessage(code) : null), [r.solution]);
  const { rank, singularValues } = r;
  let { solution, residuals } = r;
  if (vec) {
    solution = solution.reshape([n]);
    // A vector B: one residual (full rank) becomes a scalar; the empty [0] stays.
    if (residuals.size === 1) residuals = residuals.reshape([]);
  }
  return { solution, residuals, rank, singularValues };
}
