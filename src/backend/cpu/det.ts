import { dtypeCode, realOf, type DType, type FloatDType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const FLOATS: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function run(A: Tensor, wantDet: boolean) {
  const batch = A.batchShape;
  const sign = Tensor.empty(A.dtype as DType, batch);
  const logabsdet = Tensor.empty(realOf(A.dtype), batch);
  const det = wantDet ? Tensor.empty(A.dtype as DType, batch) : null;
  native().slogdet(dtypeCode(A.dtype), A.dataSync(), sign.dataSync(), logabsdet.dataSync(), det ? det.dataSync() : null,
    sign.size, A.rows);
  return { sign, logabsdet, det };
}

export function registerDetCpu(): void {
  register('det', FLOATS, 'cpu', (A: Tensor) => run(A, true).det!);
  register('slogdet', FLOATS, 'cpu', (A: Tensor) => {
    const { sign, logabsdet } = run(A, false);
    return { sign, logabsdet };
  });
}
