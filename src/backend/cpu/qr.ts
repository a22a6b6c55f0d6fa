import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

const MODE = { reduced: 0, complete: 1, r: 2 } as const;

function qr(A: Tensor, mode: 'reduced' | 'complete' | 'r'): { Q: Tensor | null; R: Tensor } {
  const m = A.rows, n = A.cols, k = Math.min(m, n), batch = A.batchShape;
  const count = batch.reduce((a, b) => a * b, 1);
  const rr = mode === 'complete' ? m : k;
  const Q = mode === 'r' ? null : Tensor.empty(A.dtype as DType, [...batch, m, mode === 'complete' ? m : k]);
  const R = Tensor.empty(A.dtype as DType, [...batch, rr, n]);
  native().qr({ dtype: dtypeCode(A.dtype), A: floats(A), Q: Q ? floats(Q) : null, R: floats(R), batch: count, m, n, mode: MODE[mode] });
  return { Q, R };
}

export function registerQrCpu(): void {
  register('qr', FLOAT_DTYPES, 'cpu', qr);
}
