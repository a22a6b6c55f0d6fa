import { dtypeCode, type DType, type FloatDType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const FLOATS: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function matmul(A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number): Tensor {
  const C = Tensor.uninit(A.dtype as DType, [...plan.batchShape, m, n]);
  native().matmul(dtypeCode(A.dtype), A.dataSync(), B.dataSync(), C.dataSync(), plan.count, m, k, n,
    plan.aIdx, plan.bIdx, plan.aCount, plan.bCount);
  return C;
}

export function registerMatmulCpu(): void {
  register('matmul', FLOATS, 'cpu', matmul);
}
