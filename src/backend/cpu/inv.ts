import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

// One options literal (no spread: a spread copy made every call several times slower).
function prepare<Async extends boolean>(A: Tensor, async: Async) {
  // uninit: the kernels write every element and every status (NaN rows for failures)
  const X = Tensor.uninit(A.dtype as DType, A.shape);
  const info = Tensor.uninit('int32', A.batchShape);
  const options = { dtype: dtypeCode(A.dtype), A: floats(A), X: floats(X), info: info.dataSync(), count: info.size, n: A.rows, async };
  return { X, info, options };
}

function inv(A: Tensor) {
  const { X, info, options } = prepare(A, false);
  native().inv(options);
  return { X, info };
}

async function invAsync(A: Tensor) {
  const { X, info, options } = prepare(A, true);
  await native().inv(options);
  return { X, info };
}

export function registerInvCpu(): void {
  register('inv', FLOAT_DTYPES, 'cpu', inv);
  register('invAsync', FLOAT_DTYPES, 'cpu', invAsync);
}
