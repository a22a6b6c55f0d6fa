import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

function matmul(A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number): Tensor {
  const C = Tensor.uninit(A.dtype as DType, [...plan.batchShape, m, n]);
  native().matmul({
    dtype: dtypeCode(A.dtype), A: floats(A), B: floats(B), C: floats(C), batch: plan.count, m, k, n,
    aIdx: plan.aIdx, bIdx: plan.bIdx, aCount: plan.aCount, bCount: plan.bCount,
  });
  return C;
}

export function registerMatmulCpu(): void {
  register('matmul', FLOAT_DTYPES, 'cpu', matmul);
}
