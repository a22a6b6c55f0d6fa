import { dtypeCode, realOf, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

function svd(A: Tensor, opts: { computeUV: boolean; fullMatrices: boolean }) {
  const m = A.rows, n = A.cols, k = Math.min(m, n), batch = A.batchShape;
  const count = batch.reduce((a, b) => a * b, 1);
  const full = opts.computeUV && opts.fullMatrices;
  const S = Tensor.empty(realOf(A.dtype), [...batch, k]);
  const U = opts.computeUV ? Tensor.empty(A.dtype as DType, [...batch, m, full ? m : k]) : null;
  const Vh = opts.computeUV ? Tensor.empty(A.dtype as DType, [...batch, full ? n : k, n]) : null;
  const info = Tensor.empty('int32', batch);
  native().svd({
    dtype: dtypeCode(A.dtype), A: floats(A), S: floats(S), U: U ? floats(U) : null, Vh: Vh ? floats(Vh) : null,
    info: info.dataSync(), batch: count, m, n, computeUV: opts.computeUV, fullMatrices: full,
  });
  return { U, S, Vh, info };
}

export function registerSvdCpu(): void {
  register('svd', FLOAT_DTYPES, 'cpu', svd);
}
