import { promote } from '../core/dtype.js';
import { ShapeError, DeviceError, fmtShape } from '../core/errors.js';
import { taping, gradCall } from '../core/grad.js';
import { asTensor, castCpu, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';

/**
 * Matrix product with torch.matmul semantics: batch dims broadcast, a 1-D operand is a
 * vector (prepended/appended dim removed from the result).
 *
 * Syntax: `linalg.matmul(A, B)`
 * Example: `matmul([[1, 2], [3, 4]], [[5], [6]])` → `[[17], [39]]`
 * Throws: ShapeError if the inner dims differ or the batch dims do not broadcast;
 * DeviceError if A and B are on different devices; DTypeError for float64 on the GPU.
 * See also: `solve`, `luFactor`.
 */
export function matmul(A: TensorLike, B: TensorLike): Tensor {
  if (taping()) return gradCall('matmul', matmul, [A, B]);
  const who = 'matmul';
  let a = asTensor(A, who, 'A');
  let b = asTensor(B, who, 'B');
  if (a.device !== b.device) throw new DeviceError(`${who}: A is on ${a.device}, B is on ${b.device}`);
  if (a.ndim === 0 || b.ndim === 0) throw new ShapeError(`${who}: operands must have at least one dimension`);
  const aVec = a.ndim === 1, bVec = b.ndim === 1;
  if (aVec) a = a.reshape([1, a.shape[0]]);
  if (bVec) b = b.reshape([b.shape[0], 1]);
  const [m, k] = [a.rows, a.cols];
  const [k2, n] = [b.rows, b.cols];
  if (k !== k2) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(b.shape.slice(-2))}: inner dims ${k} ≠ ${k2}`);
  }
  const dt = promote(a.dtype, b.dtype);
  if (a.dtype !== dt) a = castCpu(a, dt, who);
  if (b.dtype !== dt) b = castCpu(b, dt, who);
  const plan = planBatch(a, b, who);
  let C = lookup('matmul', dt, a.device, who)(a, b, plan, m, k, n);
  if (aVec || bVec) {
    const shape = [...plan.batchShape];
    if (!aVec) shape.push(m);
    if (!bVec) shape.push(n);
    C = C.reshape(shape);
  }
  return C;
}
