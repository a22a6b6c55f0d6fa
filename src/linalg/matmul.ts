import { promote } from '../core/dtype.js';
import { ShapeError, DeviceError, DTypeError, fmtShape } from '../core/errors.js';
import { taping, gradCall, refuseTracked } from '../core/grad.js';
import { readOptions, opt } from '../core/options.js';
import { asTensor, castCpu, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';

export interface MatmulOptions {
  /**
   * Where to write the product (numpy's and torch's `out=`): a dense tensor on the operands'
   * device with exactly the result's shape and (promoted) dtype. The call returns it.
   */
  out?: Tensor;
}

/**
 * Matrix product with torch.matmul semantics: batch dims broadcast, a 1-D operand is a
 * vector (prepended/appended dim removed from the result).
 *
 * `out` (numpy's and torch's `out=`): the product is written into this tensor's storage,
 * which is returned, so a loop reuses one output instead of allocating a new one each call.
 * It must be on the operands' device, have the result's exact shape (the reduced shape for
 * vector operands) and its promoted dtype — never resized or cast. It may share storage
 * with A or B (`matmul(A, B, { out: A })`, or a reshape of either): the product then goes
 * to a temporary and is copied in, so the answer is that of the call without `out`.
 * Inside grad/valueAndGrad/vjp, `out` is refused when A, B or out is differentiated (an
 * in-place write has no gradient; torch refuses it too).
 *
 * Syntax: `linalg.matmul(A, B)`, `linalg.matmul(A, B, { out })`
 * Example: `matmul([[1, 2], [3, 4]], [[5], [6]])` → `[[17], [39]]`;
 * `const C = zeros([1000, 8, 8]); for (…) matmul(A, B, { out: C })`
 * Throws: ShapeError if the inner dims differ or the batch dims do not broadcast;
 * DeviceError if A and B are on different devices; DTypeError for float64 on the GPU.
 * With `out`: ArgumentError if it is not a Tensor (or it is differentiated under grad);
 * DeviceError if it is disposed or on another device; DTypeError if its dtype is not the
 * result's; ShapeError if its shape is not the result's.
 * See also: `solve`, `luFactor`.
 */
export function matmul(A: TensorLike, B: TensorLike, opts?: MatmulOptions): Tensor {
  const who = 'matmul';
  if (taping()) {
    // Refused before recording: out's old value may be on the tape, and the write has no rule.
    const out = (opts as { out?: unknown } | null | undefined)?.out;
    if (out !== undefined) {
      refuseTracked(who, [A, B, out], 'the out option writes in place; call matmul(A, B) without out (torch refuses out= for tensors that require grad)');
    }
    return gradCall(who, matmul, opts === undefined ? [A, B] : [A, B, opts]);
  }
  const out = readOptions(who, opts, { out: opt.check((v) => v instanceof Tensor, 'a Tensor') }).out;
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
  const plan = planBatch(a, b, who);
  const impl = lookup('matmul', dt, a.device, who);
  const shape = [...plan.batchShape];
  if (!aVec) shape.push(m);
  if (!bVec) shape.push(n);
  if (out !== undefined) checkOut(out, a.device, dt, shape, who);
  if (a.dtype !== dt) a = castCpu(a, dt, who);
  if (b.dtype !== dt) b = castCpu(b, dt, who);
  const C = impl(a, b, plan, m, k, n, out);
  if (out !== undefined) return out;
  return aVec || bVec ? C.reshape(shape) : C;
}

/** The checks on `out`, before any work: alive, same device, the result's dtype and shape (no resize, no cast). */
function checkOut(out: Tensor, device: string, dtype: string, shape: readonly number[], who: string): void {
  if (out.isDisposed) throw new DeviceError(`${who}: out was disposed`);
  if (out.device !== device) throw new DeviceError(`${who}: out is on ${out.device}, A and B are on ${device}`);
  out.alive(`${who}: out`);
  if (out.dtype !== dtype) {
    throw new DTypeError(`${who}: out is ${out.dtype}, the product is ${dtype} (out must have the result's dtype; it is not cast)`);
  }
  if (out.shape.length !== shape.length || out.shape.some((d, i) => d !== shape[i])) {
    throw new ShapeError(`${who}: out is ${fmtShape(out.shape)}, the product is ${fmtShape(shape)} (out must have the result's shape; it is not resized)`);
  }
}
