import { readOptions, opt } from '../core/options.js';
import { DTypeError } from '../core/errors.js';
import { raiseOnInfo } from '../core/info.js';
import { asTensor, requireMatrix, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { taping, gradCall, claimSaveSlot } from '../core/grad.js';

export interface SvdOptions {
  /** true (default, as torch): U is m×m and Vh n×n; false: U m×k, Vh k×n, k = min(m, n). */
  fullMatrices?: boolean;
}

export interface SvdResult {
  U: Tensor;
  /** Singular values, real dtype, shape (…, k), descending and non-negative. */
  S: Tensor;
  Vh: Tensor;
}

/** The batched SVD through the registry, before any status check. */
function svdRaw(A: Tensor, computeUV: boolean, fullMatrices: boolean, who: string) {
  requireMatrix(A, who, 'A');
  if (A.dtype === 'int32') throw new DTypeError(`${who}: A is int32; the SVD needs a floating dtype`);
  return lookup('svd', A.dtype, A.device, who)(A, { computeUV, fullMatrices });
}

/** @internal What an SVD status code means. */
export function svdMessage(code: number): string | null {
  if (code === 0) return null;
  if (code < 0) return 'the input holds NaN or Inf; the SVD of a non-finite matrix is undefined';
  return 'the Jacobi iteration did not converge within its sweep cap';
}

/**
 * Singular value decomposition A = U·diag(S)·Vh (torch.linalg.svd), of a matrix or a
 * batch, real or complex. One-sided Jacobi after QR preconditioning: small singular
 * values of graded matrices come out to high relative accuracy; the input is scaled by
 * max|aᵢⱼ| first, so entries near 1e±300 (float64) or 1e±30 (float32) are fine.
 *
 * Syntax: `linalg.svd(A, { fullMatrices })` → `{ U, S, Vh }`
 * Example: `linalg.svd([[3, 0], [0, 4]]).S` → `[4, 3]`
 * Throws: LinAlgError (info −1) naming the batch element when A holds NaN or Inf, or
 * (info > 0) when the iteration did not converge; ShapeError if A is not (a batch of)
 * matrices; DTypeError for int32 input. `svdEx` returns the status instead.
 * Gradients (docs/autodiff.md, torch's rule): through S always; through U or Vh only where
 * the singular values they touch are distinct and, for m ≠ n or complex A, non-zero — else
 * LinAlgError (CPU; on the GPU at the gradient's first read, its entries Inf/NaN). Complex:
 * the loss must not depend on the phases of the singular vectors (ArgumentError). With
 * fullMatrices the extra columns of U / rows of Vh get no gradient (torch's rule).
 * See also: `svdvals`, `svdEx`, `pinv`, `lstsq`, `matrixRank`.
 */
export function svd(A: TensorLike, opts: SvdOptions = {}): SvdResult {
  if (taping()) return gradCall('svd', svd, [A, opts]);
  const who = 'svd';
  opts = readOptions(who, opts, { fullMatrices: opt.bool });
  const a = asTensor(A, who, 'A');
  const r = svdRaw(a, true, opts.fullMatrices ?? true, who);
  raiseOnInfo(r.info, who, a.ndim > 2, svdMessage, [r.U!, r.S, r.Vh!]);
  return { U: r.U!, S: r.S, Vh: r.Vh! };
}

/**
 * `svd` that returns the per-matrix status instead of throwing: info 0 ok, −1 when the
 * matrix holds NaN/Inf (its outputs are then NaN), k > 0 when Jacobi did not converge.
 *
 * Syntax: `linalg.svdEx(A, { fullMatrices })` → `{ U, S, Vh, info }`
 * Example: `svdEx([[NaN, 1], [0, 1]]).info` → `-1`
 * Throws: ShapeError / DTypeError for bad arguments only.
 * See also: `svd`.
 */
export function svdEx(A: TensorLike, opts: SvdOptions = {}): SvdResult & { info: Tensor<'int32'> } {
  if (taping()) return gradCall('svdEx', svdEx, [A, opts]);
  const who = 'svdEx';
  opts = readOptions(who, opts, { fullMatrices: opt.bool });
  const a = asTensor(A, who, 'A');
  const r = svdRaw(a, true, opts.fullMatrices ?? true, who);
  return { U: r.U!, S: r.S, Vh: r.Vh!, info: r.info };
}

/**
 * Singular values only (torch.linalg.svdvals): shape (…, min(m, n)), real, descending.
 * Cheaper than `svd`: the rotations are not accumulated.
 *
 * Syntax: `linalg.svdvals(A)`
 * Example: `linalg.svdvals([[1, 1], [1, 1]])` → `[2, 0]`
 * Throws: LinAlgError when A holds NaN/Inf; ShapeError; DTypeError.
 * Gradient: U·diag(ḡ)·Vh, defined everywhere (a subgradient at repeated values); when
 * recorded by grad/vjp the forward also computes the singular vectors for it.
 * See also: `svd`, `matrixRank`, `cond`, `norm`.
 */
export function svdvals(A: TensorLike): Tensor {
  if (taping()) return gradCall('svdvals', svdvals, [A]);
  const who = 'svdvals';
  const a = asTensor(A, who, 'A');
  // Recorded for a gradient: the vectors come with the values (its rule is U·diag(ḡ)·Vh).
  const slot = claimSaveSlot(who);
  const r = svdRaw(a, slot !== null, false, who);
  raiseOnInfo(r.info, who, a.ndim > 2, svdMessage, [r.S]);
  if (slot) slot.saved = { U: r.U, Vh: r.Vh };
  return r.S;
}
