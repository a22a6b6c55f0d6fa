import '../backend/registerAll.js';
import type { TensorLike } from '../core/create.js';
import { elementwiseLayout } from '../core/broadcast.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { commonReal, realOperand, secondOperand, toDtype } from './common.js';

/**
 * The Laguerre polynomial Lₙ(x) (torch.special.laguerre_polynomial_l), by the stable
 * three-term recurrence `L_{k+1} = ((2k + 1 − x)·L_k − k·L_{k−1}) / (k + 1)`. `n` is a
 * number or a tensor broadcast against `x`; non-integer n is truncated toward zero as in
 * torch; `n < 0` gives 0; `x = 0` or `n = 0` gives 1. Intermediate overflow is avoided by
 * rescaling, so the result is ±Inf only where the true value overflows. NaN or +Inf n,
 * and n above 2³¹ − 1, give NaN (the cost is O(n) per element). float32 is computed in
 * double on the CPU; see docs/special.md for the GPU's float32 accuracy.
 *
 * Syntax: `special.laguerrePolynomialL(x, n)`
 * Example: `special.laguerrePolynomialL([0.5, 2], 2)` → `[0.125, -1]` (L₂(x) = x²/2 − 2x + 1)
 * Throws: ShapeError if x and n do not broadcast; DTypeError for complex operands (or GPU
 * operands of different dtypes); DeviceError if they are on different devices.
 * See also: `heaviside`, docs/special.md.
 */
export function laguerrePolynomialL(x: TensorLike, n: TensorLike): Tensor {
  const who = 'laguerrePolynomialL';
  let a = realOperand(x, who, 'x');
  let b = secondOperand(n, a, who, 'n');
  // An int32 degree tensor does not widen the result (torch: integer n never promotes).
  const d = b.dtype === 'int32' && a.dtype !== 'int32' ? (a.dtype as 'float32' | 'float64') : commonReal(a.dtype, b.dtype);
  a = toDtype(a, d, who, 'x');
  b = toDtype(b, d, who, 'n');
  const L = elementwiseLayout(a.shape, b.shape, who, ['x', 'n']);
  return lookup(who, d, a.device, who)(a, b, L) as Tensor;
}
