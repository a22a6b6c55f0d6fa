import { dtypeCode, realOf, type DType, type FloatDType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const FLOATS: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function svd(A: Tensor, opts: { computeUV: boolean; fullMatrices: boolean }) {
  const m = A.rows, n = A.cols, k = Math.min(m, n), batch = A.batchShape;
  const count = batch.reduce((a, b) => a * b, 1);
  const full = opts.computeUV && opts.fullMatrices;
  const S = Tensor.empty(realOf(A.dtype), [...batch, k]);
  const U = opts.computeUV ? Tensor.empty(A.dtype as DType, [...batch, m, full ? m : k]) : null;
  const Vh = opts.computeUV ? Tensor.empty(A.dtype as DType, [...batch, full ? n : k, n]) : null;
  const info = Tensor.empty('int32', batch);
  native().svd(dtypeCode(A.dtype), A.dataSync(), S.dataSync(), U ? U.dataSync() : null, Vh ? Vh.dataSync() : null,
    info.dataSync(), count, m, n, opts.computeUV, full);
  return { U, S, Vh, info };
}

export function registerSvdCpu(): void {
  register('svd', FLOATS, 'cpu', svd);
}
