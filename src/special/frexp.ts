import { DTypeError } from '../core/errors.js';
import { asTensor, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { taping, gradCall } from '../core/grad.js';

/**
 * Splits each element into a mantissa and a power of two: `x = mantissa · 2^exponent`
 * with `0.5 ≤ |mantissa| < 1` (torch.frexp). Exact for every input, subnormals included
 * (also on the GPU, where WGSL's builtin is not). `±0` gives `(±0, 0)`; `±Inf` and `NaN`
 * give `mantissa = x` and `exponent = 0`.
 *
 * Syntax: `const { mantissa, exponent } = frexp(x)`
 * Example: `frexp([8, -0.375, 0])` → mantissa `[0.5, -0.75, 0]`, exponent `[4, -1, 0]` (int32)
 * Throws: DTypeError unless x is float32 or float64 (GPU: float32).
 * See also: `heaviside`, `special.laguerrePolynomialL`, docs/special.md.
 */
export function frexp(x: TensorLike): { mantissa: Tensor; exponent: Tensor<'int32'> } {
  if (taping()) return gradCall('frexp', frexp, [x]);
  const who = 'frexp';
  const t = asTensor(x, who, 'x');
  if (t.dtype !== 'float32' && t.dtype !== 'float64') {
    throw new DTypeError(`${who}: x is ${t.dtype}; frexp takes float32 or float64`);
  }
  return lookup(who, t.dtype, t.device, who)(t);
}
