import { asTensor, requireSquare, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';

/**
 * Determinant of a square matrix or a batch, from partial-pivoted LU. The product of the
 * pivots is scaled as it goes, so it overflows/underflows only if the determinant does.
 * NaN or Inf anywhere in A gives NaN (numpy gives 0 for some such inputs); a singular
 * matrix gives 0; the 0×0 matrix gives 1.
 *
 * Syntax: `linalg.det(A)` → tensor of the batch shape
 * Example: `det([[1, 2], [3, 4]])` → −2
 * Throws: ShapeError if A is not square; DTypeError/DeviceError where no kernel exists.
 * See also: `slogdet`, `luFactor`.
 */
export function det(A: TensorLike): Tensor {
  const a = asTensor(A, 'det', 'A');
  requireSquare(a, 'det', 'A');
  return lookup('det', a.dtype, a.device, 'det')(a);
}

/**
 * Sign and log of the absolute value of the determinant (torch.linalg.slogdet):
 * det = sign · exp(logabsdet), usable when det itself would overflow. sign is ±1 (real)
 * or a unit complex number (complex); a singular matrix gives sign 0 and logabsdet −Inf;
 * NaN/Inf input gives NaN for both; the 0×0 matrix gives (1, 0).
 *
 * Syntax: `linalg.slogdet(A)` → `{ sign, logabsdet }`
 * Example: `slogdet([[1e200, 0], [0, 1e200]]).logabsdet` → 921.03…
 * Throws: ShapeError if A is not square.
 * See also: `det`.
 */
export function slogdet(A: TensorLike): { sign: Tensor; logabsdet: Tensor } {
  const a = asTensor(A, 'slogdet', 'A');
  requireSquare(a, 'slogdet', 'A');
  return lookup('slogdet', a.dtype, a.device, 'slogdet')(a);
}
