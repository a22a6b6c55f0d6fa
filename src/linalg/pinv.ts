import { readOptions, opt } from '../core/options.js';
import { ArgumentError, DTypeError, ShapeError, fmtShape } from '../core/errors.js';
import { asTensor, requireMatrix, type TensorLike } from '../core/create.js';
import { raiseOnInfo } from '../core/info.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { svdMessage } from './svd.js';
import { taping, gradCall } from '../core/grad.js';

export interface RankOptions {
  /** Absolute threshold: singular values ≤ atol count as zero. Default 0. */
  atol?: number;
  /**
   * Relative threshold (times the largest singular value). Default max(m, n)·eps, or 0
   * when `atol` > 0 is given (torch's rule).
   */
  rtol?: number;
  /** A is Hermitian: only its lower triangle is read (torch's contract). */
  hermitian?: boolean;
}

// atol/rtol are checked by checkTol (its message states the range)
const RANK_OPTIONS = { atol: opt.any, rtol: opt.any, hermitian: opt.bool };

/** A (batch of) matrix of a floating dtype, square with `hermitian`. */
function checkOperand(a: Tensor, who: string, opts: RankOptions): void {
  requireMatrix(a, who, 'A');
  if (a.dtype === 'int32') throw new DTypeError(`${who}: A is int32; the SVD needs a floating dtype`);
  if (opts.hermitian && a.rows !== a.cols) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape.slice(-2))}; hermitian needs a square matrix`);
  }
}

function checkTol(v: number | undefined, who: string, name: string): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !(v >= 0) || v === Infinity) {
    throw new ArgumentError(`${who}: ${name} must be a finite number ≥ 0, got ${String(v)}`);
  }
}

/**
 * Moore–Penrose pseudo-inverse (torch.linalg.pinv) from the SVD: singular values above
 * the rank threshold are inverted, the others dropped, so rank-deficient input gives the
 * true pseudo-inverse (X·A·X = X, A·X·A = A, A·X and X·A Hermitian).
 *
 * Runs on the CPU or the GPU (float32, complex64: the GPU SVD, one GEMM; results stay on the GPU).
 *
 * Syntax: `linalg.pinv(A, { atol, rtol, hermitian })` → (…, n, m)
 * Example: `linalg.pinv([[1, 2], [2, 4]])` → `[[0.04, 0.08], [0.08, 0.16]]`;
 * `await linalg.pinv(A.to('gpu')).toAsync('cpu')` on the GPU.
 * Throws: ShapeError if A is not (a batch of) matrices, or not square with `hermitian`;
 * ArgumentError for a negative or non-finite atol/rtol; DTypeError for int32; LinAlgError
 * (info > 0) if the SVD did not converge (on the GPU at the first read of the result). A
 * matrix holding NaN/Inf gives a NaN pseudo-inverse (never finite garbage).
 * Gradient (torch's pinv_backward): exact where the rank is locally constant (full rank, or a
 * rank-deficient A moved along rank-preserving directions). An atol/rtol that drops singular
 * values that are not negligible goes through the SVD (torch's formula misses those terms; it
 * then needs distinct kept values: LinAlgError otherwise). With `hermitian` it flows to the
 * lower triangle read (real part on the diagonal).
 * See also: `lstsq`, `matrixRank`, `svd`.
 */
export function pinv(A: TensorLike, opts: RankOptions = {}): Tensor {
  if (taping()) return gradCall('pinv', pinv, [A, opts]);
  const who = 'pinv';
  opts = readOptions(who, opts, RANK_OPTIONS);
  checkTol(opts.atol, who, 'atol');
  checkTol(opts.rtol, who, 'rtol');
  const a = asTensor(A, who, 'A');
  checkOperand(a, who, opts);
  const r = lookup('pinv', a.dtype, a.device, who)(a, { atol: opts.atol, rtol: opts.rtol, hermitian: opts.hermitian ?? false });
  // Non-convergence is an error, never NaN or garbage handed back (NaN input: NaN out).
  raiseOnInfo(r.info, who, a.ndim > 2, (code) => (code > 0 ? svdMessage(code) : null), [r.X]);
  return r.X;
}

/**
 * Numerical rank (torch.linalg.matrix_rank): the number of singular values above the
 * shared threshold max(atol, rtol·σ_max). int32 tensor of the batch shape.
 *
 * On the GPU (float32, complex64) from the GPU singular values, the rank an int32 GPU tensor.
 *
 * Syntax: `linalg.matrixRank(A, { atol, rtol, hermitian })`
 * Example: `linalg.matrixRank([[1, 2], [2, 4]])` → `1`
 * Throws: LinAlgError when a matrix holds NaN/Inf (its rank is undefined; on the GPU at the
 * first read); ShapeError; ArgumentError for bad tolerances.
 * No gradient rule or hook: the result is int32, a constant under grad/vjp.
 * See also: `svdvals`, `pinv`, `lstsq`.
 */
export function matrixRank(A: TensorLike, opts: RankOptions = {}): Tensor<'int32'> {
  const who = 'matrixRank';
  opts = readOptions(who, opts, RANK_OPTIONS);
  checkTol(opts.atol, who, 'atol');
  checkTol(opts.rtol, who, 'rtol');
  const a = asTensor(A, who, 'A');
  checkOperand(a, who, opts);
  const r = lookup('matrixRank', a.dtype, a.device, who)(a, { atol: opts.atol, rtol: opts.rtol, hermitian: opts.hermitian ?? false });
  // A NaN/Inf matrix has no rank: every non-zero status is an error here.
  raiseOnInfo(r.info, who, a.ndim > 2, svdMessage, [r.rank]);
  return r.rank;
}
