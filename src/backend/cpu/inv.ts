import { dtypeCode, type DType, type FloatDType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const FLOATS: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function prepare(A: Tensor) {
  // uninit: the kernels write every element and every status (NaN rows for failures)
  const X = Tensor.uninit(A.dtype as DType, A.shape);
  const info = Tensor.uninit('int32', A.batchShape);
  return { X, info, args: [dtypeCode(A.dtype), A.dataSync(), X.dataSync(), info.dataSync(), info.size, A.rows] };
}

function inv(A: Tensor) {
  const { X, info, args } = prepare(A);
  native().inv(...args, false);
  return { X, info };
}

async function invAsync(A: Tensor) {
  const { X, info, args } = prepare(A);
  await native().inv(...args, true);
  return { X, info };
}

export function registerInvCpu(): void {
  register('inv', FLOATS, 'cpu', inv);
  register('invAsync', FLOATS, 'cpu', invAsync);
}
