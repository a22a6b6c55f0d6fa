import '../backend/registerAll.js';
import type { TensorLike } from '../core/create.js';
import { elementwiseLayout } from '../core/broadcast.js';
import { lookup } from '../backend/registry.js';
import { commonReal, realOperand, secondOperand, toDtype } from './common.js';
import { ArgumentError } from '../core/errors.js';
import { Tensor } from '../core/tensor.js';

/**
 * The largest degree computed (2^20): the recurrence costs O(n) per element, about 4 ms
 * per element at this degree (a 2^31 − 1 degree took 20 s per element).
 */
export const LAGUERRE_MAX_DEGREE = 1048576;

/** Refuses finite degrees above the limit, naming the first one (NaN and +Inf stay NaN results). */
function checkDegrees(n: Tensor | number, who: string): void {
  const bad = (v: number) => Number.isFinite(v) && Math.trunc(v) > LAGUERRE_MAX_DEGREE;
  const refuse = (v: number, at: string) => {
    throw new ArgumentError(`${who}: n${at} = ${v} is above the largest supported degree ` +
      `${LAGUERRE_MAX_DEGREE} (2^20; the cost is O(n) per element)`);
  };
  if (typeof n === 'number') {
    if (bad(n)) refuse(n, '');
    return;
  }
  // GPU degree tensors cannot be scanned synchronously: the kernel gives NaN above 2^24 (docs/special.md).
  if (n.device !== 'cpu') return;
  const d = n.dataSync();
  for (let i = 0; i < d.length; i++) if (bad(d[i])) refuse(d[i], `[${i}] (flat index)`);
}

/**
 * The Laguerre polynomial Lₙ(x) (torch.special.laguerre_polynomial_l), by the stable
 * three-term recurrence `L_{k+1} = ((2k + 1 − x)·L_k − k·L_{k−1}) / (k + 1)`. `n` is a
 * number or a tensor broadcast against `x`; non-integer n is truncated toward zero as in
 * torch; `n < 0` gives 0; `x = 0` or `n = 0` gives 1. Intermediate overflow is avoided by
 * rescaling, so the result is ±Inf only where the true value overflows. NaN or +Inf n
 * give NaN. Degrees are limited to 2²⁰ = 1,048,576 (`LAGUERRE_MAX_DEGREE`): the cost is
 * O(n) per element, and a larger finite degree is an ArgumentError (on the GPU, a degree
 * tensor is not scanned: its kernel gives NaN above 2²⁴). float32 is computed in double
 * on the CPU; see docs/special.md for the GPU's float32 accuracy.
 *
 * Syntax: `special.laguerrePolynomialL(x, n)`
 * Example: `special.laguerrePolynomialL([0.5, 2], 2)` → `[0.125, -1]` (L₂(x) = x²/2 − 2x + 1)
 * Throws: ShapeError if x and n do not broadcast; DTypeError for complex operands (or GPU
 * operands of different dtypes); DeviceError if they are on different devices;
 * ArgumentError for a finite degree above 2²⁰ (naming the first one).
 * See also: `heaviside`, docs/special.md.
 */
export function laguerrePolynomialL(x: TensorLike, n: TensorLike): Tensor {
  const who = 'laguerrePolynomialL';
  let a = realOperand(x, who, 'x');
  let b = secondOperand(n, a, who, 'n');
  checkDegrees(typeof n === 'number' ? n : b, who);
  // An int32 degree tensor does not widen the result (torch: integer n never promotes).
  const d = b.dtype === 'int32' && a.dtype !== 'int32' ? (a.dtype as 'float32' | 'float64') : commonReal(a.dtype, b.dtype);
  a = toDtype(a, d, who, 'x');
  b = toDtype(b, d, who, 'n');
  const L = elementwiseLayout(a.shape, b.shape, who, ['x', 'n']);
  return lookup(who, d, a.device, who)(a, b, L) as Tensor;
}
