import type { DType } from '../../core/dtype.js';
import { isComplex, FLOAT_DTYPES } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';

/** Batched transpose (conj: adjoint) of the last two dims into a new tensor. */
export function transposeCpu(A: Tensor, conj: boolean): Tensor {
  const m = A.rows, n = A.cols;
  const shape = [...A.shape.slice(0, -2), n, m];
  const out = Tensor.empty(A.dtype as DType, shape);
  const src = A.dataSync(), dst = out.dataSync();
  const count = m * n === 0 ? 0 : src.length / (m * n * (isComplex(A.dtype) ? 2 : 1));
  if (isComplex(A.dtype)) {
    const s = conj ? -1 : 1;
    for (let b = 0; b < count; b++) {
      const o = b * m * n * 2;
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          const from = o + (i * n + j) * 2, to = o + (j * m + i) * 2;
          dst[to] = src[from];
          dst[to + 1] = s * src[from + 1];
        }
    }
  } else {
    for (let b = 0; b < count; b++) {
      const o = b * m * n;
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) dst[o + j * m + i] = src[o + i * n + j];
    }
  }
  return out;
}

export function registerTransposeCpu(): void {
  register('transpose', FLOAT_DTYPES, 'cpu', transposeCpu);
}
