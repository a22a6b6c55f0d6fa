import { readOptions, opt } from '../core/options.js';
import { epsOf, promote } from '../core/dtype.js';
import { ArgumentError, DeviceError, ShapeError, fmtShape } from '../core/errors.js';
import { asTensor, requireMatrix, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import { raiseOnInfo } from '../core/info.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import type { LstsqDriver } from '../backend/ops.js';
import { svdMessage } from './svd.js';
import { taping, gradCall } from '../core/grad.js';

export interface LstsqOptions {
  /**
   * Singular values ≤ rcond·σ_max count as zero (the rank threshold shared with pinv and
   * matrixRank). Default max(m, n)·eps of the dtype; a negative value means that default.
   */
  rcond?: number;
  /**
   * 'gelsd' (default): through the SVD — any rank, the minimum-norm solution. 'gels': QR, for
   * full-rank A only (faster; torch's CUDA default): tall A = Q·R gives R⁻¹·Qᴴ·B, wide A the
   * minimum-norm solution from the QR of Aᴴ. A matrix with |r_kk| ≤ rcond·max|r_ii| makes
   * it throw LinAlgError (rank-deficient: use 'gelsd'); rank is then min(m, n) and
   * singularValues an empty [0] tensor.
   */
  driver?: LstsqDriver;
}

export interface LstsqResult {
  /** (…, n, k): the minimum-norm least-squares solution. */
  solution: Tensor;
  /**
   * (…, k) squared residual norms ‖B − A·X‖² per column when m > n, else an empty tensor of
   * shape [0]. CPU 'gelsd' (torch's rule): also [0] unless every matrix of A has full rank.
   * On the GPU (whose ranks are not known without a read) and for 'gels': always (…, k) when
   * m > n, NaN for the matrices of rank < n.
   */
  residuals: Tensor;
  /** int32, A's batch shape: the effective rank of each matrix (min(m, n) for 'gels'). */
  rank: Tensor<'int32'>;
  /** (…, min(m, n)) singular values of A, descending ('gelsd'); an empty [0] tensor for 'gels'. */
  singularValues: Tensor;
  /** The driver that ran. */
  driver: LstsqDriver;
}

function gelsMessage(code: number): string | null {
  if (code <= 0) return null;
  return `A is rank-deficient (|r_kk| ≤ rcond·max|r_ii| at k = ${code} of its QR); use driver 'gelsd' for a rank-deficient A`;
}

/**
 * Least squares min ‖A·X − B‖ (torch.linalg.lstsq) on the CPU or the GPU (float32,
 * complex64). driver 'gelsd' (default) gives the SVD's answer, so rank-deficient A gets the
 * minimum-norm solution and tall or wide A both work (on the CPU a full-rank A takes a QR
 * and the values of R instead of both sets of singular vectors); 'gels' is the QR fast path for
 * full-rank A (tall: R⁻¹·Qᴴ·B; wide: the minimum-norm Q·R⁻ᴴ·B from the QR of Aᴴ). Batch dims
 * of A and B broadcast; B may be a vector when A is a single matrix; A and B of different
 * dtypes are promoted on their device.
 *
 * Syntax: `linalg.lstsq(A, B, { rcond, driver })` → `{ solution, residuals, rank, singularValues, driver }`
 * Example: `lstsq([[1, 0], [0, 1], [1, 1]], [[1], [2], [3]]).solution` → `[[1], [2]]`;
 * on the GPU `lstsq(A.to('gpu'), B.to('gpu'), { driver: 'gels' })` (read with `await`).
 * Throws: ShapeError if A and B have different row counts or batch dims that do not
 * broadcast; ArgumentError for a non-finite rcond or an unknown driver; DeviceError for
 * mixed devices. LinAlgError if the SVD did not converge ('gelsd') or A is rank-deficient
 * ('gels': use 'gelsd') — on the GPU at the first read of the solution. A matrix holding
 * NaN/Inf gives a NaN solution (and rank 0 with 'gelsd'). Entries near under/overflow are
 * scaled by powers of two first (gelsd). GPU residuals: (…, k) whenever m > n, NaN where
 * rank < n (the CPU's gelsd returns [0] then; the GPU cannot know the ranks without a read).
 * Gradients (torch's rule, through pinv): solution and residuals w.r.t. A and B, and
 * singularValues w.r.t. A; rank-deficient A as pinv (exact along rank-preserving directions;
 * an rcond that drops non-negligible singular values goes through the SVD).
 * See also: `pinv`, `qr`, `solve`, `matrixRank`.
 */
export function lstsq(A: TensorLike, B: TensorLike, opts: LstsqOptions = {}): LstsqResult {
  if (taping()) return gradCall('lstsq', lstsq, [A, B, opts]);
  const who = 'lstsq';
  opts = readOptions(who, opts, { rcond: opt.num(), driver: opt.oneOf('gelsd', 'gels') });
  const driver: LstsqDriver = opts.driver ?? 'gelsd';
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
  // Promotion through the registry's cast: GPU operands stay on the GPU.
  if (a.dtype !== dt) a = lookup('cast', a.dtype, a.device, who)(a, dt);
  if (b.dtype !== dt) b = lookup('cast', b.dtype, b.device, who)(b, dt);
  const plan = planBatch(a, b, who);
  const rtol = opts.rcond === undefined || opts.rcond < 0 ? epsOf(dt) * Math.max(m, n) : opts.rcond;
  const r = lookup('lstsq', dt, a.device, who)(a, b, plan, rtol, driver);
  const { rank, singularValues } = r;
  let { solution, residuals } = r;
  if (vec) {
    solution = solution.reshape([n]);
    // A vector B: one residual (full rank) becomes a scalar; the empty [0] stays.
    if (residuals.size === 1) residuals = residuals.reshape([]);
  }
  // Non-convergence (gelsd) or rank deficiency (gels) is an error, never a solution
  // computed from unconverged factors or a singular R. Attached after the reshapes: on the
  // GPU the check rides on the returned tensors and fires at their first read.
  const message = driver === 'gels' ? gelsMessage : (code: number) => (code > 0 ? svdMessage(code) : null);
  raiseOnInfo(r.info, who, a.ndim > 2, message, [solution, residuals]);
  return { solution, residuals, rank, singularValues, driver };
}
