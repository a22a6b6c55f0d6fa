import { FLOAT_DTYPES, dtypeCode } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { native } from './binding.js';

/** Batched transpose (conj: adjoint) of the last two dims into a new tensor: the native strided copy's tiled path. */
export function transposeCpu(A: Tensor, conj: boolean): Tensor {
  const m = A.rows, n = A.cols;
  const batch = A.shape.slice(0, -2);
  const out = Tensor.uninit(A.dtype, [...batch, n, m]);
  const strides = [1, n];
  for (let d = batch.length - 1, s = m * n; d >= 0; s *= batch[d], d--) strides.unshift(s);
  native().stridedCopy({
    dtype: dtypeCode(A.dtype), x: A.dataSync(), out: out.dataSync(), shape: Float64Array.from(out.shape),
    strides: Float64Array.from(strides), offset: 0, conj,
  });
  return out;
}

export function registerTransposeCpu(): void {
  register('transpose', FLOAT_DTYPES, 'cpu', transposeCpu);
}
