import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

function prepare(A: Tensor) {
  // uninit: the kernels write every element and every status (NaN rows for failures)
  const X = Tensor.uninit(A.dtype as DType, A.shape);
  const info = Tensor.uninit('int32', A.batchShape);
  const args = { dtype: dtypeCode(A.dtype), A: floats(A), X: floats(X), info: info.dataSync(), count: info.size, n: A.rows };
  return { X, info, args };
}

function inv(A: Tensor) {
  const { X, info, args } = prepare(A);
  native().inv({ ...args, async: false });
  return { X, info };
}

async function invAsync(A: Tensor) {
  const { X, info, args } = prepare(A);
  await native().inv({ ...args, async: true });
  return { X, info };
}

export function registerInvCpu(): void {
  register('inv', FLOAT_DTYPES, 'cpu', inv);
  register('invAsync', FLOAT_DTYPES, 'cpu', invAsync);
}
