import { dtypeCode, realOf, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

function run(A: Tensor, wantDet: boolean) {
  const batch = A.batchShape;
  const sign = Tensor.empty(A.dtype as DType, batch);
  const logabsdet = Tensor.empty(realOf(A.dtype), batch);
  const det = wantDet ? Tensor.empty(A.dtype as DType, batch) : null;
  native().slogdet({
    dtype: dtypeCode(A.dtype), A: floats(A), sign: floats(sign), logabs: floats(logabsdet), det: det ? floats(det) : null,
    count: sign.size, n: A.rows,
  });
  return { sign, logabsdet, det };
}

export function registerDetCpu(): void {
  register('det', FLOAT_DTYPES, 'cpu', (A: Tensor) => run(A, true).det!);
  register('slogdet', FLOAT_DTYPES, 'cpu', (A: Tensor) => {
    const { sign, logabsdet } = run(A, false);
    return { sign, logabsdet };
  });
}
