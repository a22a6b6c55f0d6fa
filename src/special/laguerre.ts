import type { TensorLike } from '../core/create.js';
import { elementwiseLayout, type ElementwiseLayout } from '../core/broadcast.js';
import { lookup } from '../backend/registry.js';
import { commonReal, realOperand, secondOperand, toDtype } from './common.js';
import { ArgumentError } from '../core/errors.js';
import { Tensor } from '../core/tensor.js';
import { taping, gradCall } from '../core/grad.js';

/**
 * The largest degree the recurrence runs to (2^20: O(n) per element; docs/decisions.md
 * has its cost). Larger degrees are computed by a Bessel-type expansion (O(1) per
 * element) where |x|³ ≤ 1.44·(n + ½), and refused elsewhere.
 */
export const LAGUERRE_MAX_DEGREE = 1048576;

/** Whether the native kernel's expansion covers (x, truncated degree t): laguerre_asy.hpp's `applies`. */
const expansionApplies = (x: number, t: number) => Math.abs(x) ** 3 <= 1.44 * (t + 0.5);

/**
 * Refuses finite degrees above 2^20 paired with a finite x outside the expansion's
 * region, naming the first such output element (NaN and +Inf degrees stay NaN results).
 */
function checkDegrees(a: Tensor, b: Tensor, n: TensorLike, L: ElementwiseLayout, who: string): void {
  const big = (v: number) => Number.isFinite(v) && Math.trunc(v) > LAGUERRE_MAX_DEGREE;
  const refuse = (xv: number | undefined, v: number, at: string): never => {
    throw new ArgumentError(`${who}: n${at} = ${v}${xv === undefined ? '' : ` with x = ${xv}`} is beyond what is ` +
      `computed in bounded time: degrees above ${LAGUERRE_MAX_DEGREE} (2^20) need |x|³ ≤ 1.44·(n + 1/2)` +
      `${a.device === 'cpu' ? '' : ', on the CPU'} (docs/special.md)`);
  };
  if (b.device !== 'cpu') {
    // the GPU has only the recurrence; a degree tensor there is not scanned (NaN above 2^24)
    if (typeof n === 'number' && big(n)) refuse(undefined, n, '');
    return;
  }
  const nd = b.dataSync();
  if (!nd.some(big)) return;
  const xd = a.dataSync();
  const { dims, aStrides, bStrides } = L;
  const ctr = new Array<number>(dims.length).fill(0);
  let ia = 0, ib = 0;
  for (let f = 0; f < L.size; f++) {
    const v = nd[ib], xv = xd[ia];
    if (big(v) && Number.isFinite(xv) && !expansionApplies(xv, Math.trunc(v))) {
      refuse(xv, v, L.size === 1 ? '' : ` (output element ${f})`);
    }
    for (let k = dims.length - 1; k >= 0; k--) {
      ia += aStrides[k]; ib += bStrides[k];
      if (++ctr[k] < dims[k]) break;
      ia -= aStrides[k] * dims[k]; ib -= bStrides[k] * dims[k];
      ctr[k] = 0;
    }
  }
}

/**
 * The Laguerre polynomial Lₙ(x) (torch.special.laguerre_polynomial_l). `n` is a number or
 * a tensor broadcast against `x`; non-integer n is truncated toward zero as in torch;
 * `n < 0` gives 0; `x = 0` or `n = 0` gives 1; NaN or +Inf n give NaN. Degrees up to 2²⁰
 * run the stable recurrence `L_{k+1} = ((2k + 1 − x)·L_k − k·L_{k−1}) / (k + 1)` (O(n) per
 * element, rescaled so the result is ±Inf only where the true value overflows); on the
 * CPU, degrees ≥ 2¹⁴ with |x|³ ≤ 1.44·(n + ½) use a Bessel-type expansion instead (O(1)
 * per element, error ≤ 2·(1 + z)·eps·envelope with z = 2·sqrt((n + ½)·|x|), which is the
 * problem's own conditioning). A finite degree above 2²⁰ outside that region is refused
 * (ArgumentError): no bounded-time algorithm for it is implemented. On the GPU the
 * recurrence is used for every degree (NaN above 2²⁴, and a number n above 2²⁰ is
 * refused). float32 is computed in double on the CPU; see docs/special.md.
 *
 * Syntax: `special.laguerrePolynomialL(x, n)`
 * Example: `special.laguerrePolynomialL([0.5, 2], 2)` → `[0.125, -1]` (L₂(x) = x²/2 − 2x + 1)
 * Throws: ShapeError if x and n do not broadcast; DTypeError for complex operands (or GPU
 * operands of different dtypes); DeviceError if they are on different devices;
 * ArgumentError for a finite degree above 2²⁰ with x outside the expansion's region
 * (naming the first such element).
 * See also: `heaviside`, docs/special.md.
 */
export function laguerrePolynomialL(x: TensorLike, n: TensorLike): Tensor {
  if (taping()) return gradCall('laguerrePolynomialL', laguerrePolynomialL, [x, n]);
  const who = 'laguerrePolynomialL';
  let a = realOperand(x, who, 'x');
  let b = secondOperand(n, a, who, 'n');
  // An int32 degree tensor does not widen the result (torch: integer n never promotes).
  const d = b.dtype === 'int32' && a.dtype !== 'int32' ? (a.dtype as 'float32' | 'float64') : commonReal(a.dtype, b.dtype);
  a = toDtype(a, d, who, 'x');
  b = toDtype(b, d, who, 'n');
  const L = elementwiseLayout(a.shape, b.shape, who, ['x', 'n']);
  checkDegrees(a, b, n, L, who);
  return lookup(who, d, a.device, who)(a, b, L);
}
