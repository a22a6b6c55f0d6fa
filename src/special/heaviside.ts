import type { TensorLike } from '../core/create.js';
import { elementwiseLayout } from '../core/broadcast.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { commonReal, realOperand, secondOperand, toDtype } from './common.js';
import { taping, gradCall } from '../core/grad.js';

/**
 * The Heaviside step function: 0 where `x < 0`, `values` where `x` is `+0` or `−0`,
 * 1 where `x > 0`, and NaN where `x` is NaN (numpy's rule; torch returns 0 there).
 * `x` and `values` broadcast against each other as in torch; a number for `values` is
 * a scalar of x's dtype.
 *
 * Syntax: `heaviside(x, values)`
 * Example: `heaviside([-1.5, 0, 2], 0.5)` → `[0, 0.5, 1]`
 * Throws: ShapeError if the shapes do not broadcast; DTypeError for complex operands
 * (or GPU operands of different dtypes); DeviceError if they are on different devices.
 * See also: `frexp`, docs/special.md.
 */
export function heaviside(x: TensorLike, values: TensorLike): Tensor {
  if (taping()) return gradCall('heaviside', heaviside, [x, values]);
  const who = 'heaviside';
  let a = realOperand(x, who, 'x');
  let b = secondOperand(values, a, who, 'values');
  const d = commonReal(a.dtype, b.dtype);
  a = toDtype(a, d, who, 'x');
  b = toDtype(b, d, who, 'values');
  const L = elementwiseLayout(a.shape, b.shape, who, ['x', 'values']);
  return lookup(who, d, a.device, who)(a, b, L);
}
