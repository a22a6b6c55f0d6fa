// Operand handling shared by the elementwise special functions: coercion, the torch-like
// dtype rule for two real operands, and device agreement.
import type { DType, RealDType } from '../core/dtype.js';
import { DTypeError, DeviceError } from '../core/errors.js';
import { asTensor, castCpu, tensor, type TensorLike } from '../core/create.js';
import { Tensor } from '../core/tensor.js';

/** A real float operand; int32 is accepted where noted and promoted by `commonReal`. */
export function realOperand(v: TensorLike, who: string, name: string, allowInt = true): Tensor {
  const t = asTensor(v, who, name);
  const ok = t.dtype === 'float32' || t.dtype === 'float64' || (allowInt && t.dtype === 'int32');
  if (!ok) {
    throw new DTypeError(`${who}: ${name} is ${t.dtype}; expected float32 or float64${allowInt ? ' (or int32)' : ''}`);
  }
  return t;
}

/**
 * The dtype of a binary result: float64 if either is float64, else float32 if either is
 * float32 (int32 with float32 stays float32, as torch), else float64 (the library's
 * default float; torch would use its default dtype).
 */
export function commonReal(a: DType, b: DType): RealDType {
  if (a === 'float64' || b === 'float64') return 'float64';
  if (a === 'float32' || b === 'float32') return 'float32';
  return 'float64';
}

/** `t` in dtype `d`: a copy on the CPU; on the GPU the dtypes must already agree. */
export function toDtype(t: Tensor, d: DType, who: string, name: string): Tensor {
  if (t.dtype === d) return t;
  if (t.device !== 'cpu') {
    throw new DTypeError(`${who}: ${name} is ${t.dtype} on the GPU but the result is ${d}; GPU operands must share a dtype (float32)`);
  }
  return castCpu(t, d, who);
}

/**
 * A second operand given as a plain number takes the first operand's dtype and device
 * (a one-element tensor), as a Python scalar does in torch.
 */
export function secondOperand(v: TensorLike, first: Tensor, who: string, name: string): Tensor {
  if (typeof v === 'number') {
    const d = first.dtype === 'int32' ? 'float64' : first.dtype;
    return tensor(v, { dtype: d, device: first.device });
  }
  const t = realOperand(v, who, name);
  if (t.device !== first.device) {
    throw new DeviceError(`${who}: ${name} is on ${t.device} but the first operand is on ${first.device}`);
  }
  return t;
}
