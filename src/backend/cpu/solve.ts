import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

function prepare(A: Tensor, B: Tensor, plan: BatchPlan) {
  const n = A.rows, k = B.cols;
  const X = Tensor.empty(B.dtype as DType, [...plan.batchShape, n, k]);
  const info = Tensor.empty('int32', plan.batchShape);
  const args = {
    dtype: dtypeCode(A.dtype), A: floats(A), B: floats(B), X: floats(X), info: info.dataSync(), count: plan.count, n, k,
    aIdx: plan.aIdx, bIdx: plan.bIdx, aCount: plan.aCount, bCount: plan.bCount,
  };
  return { X, info, args };
}

function solve(A: Tensor, B: Tensor, plan: BatchPlan) {
  const { X, info, args } = prepare(A, B, plan);
  native().solve({ ...args, async: false });
  return { X, info };
}

async function solveAsync(A: Tensor, B: Tensor, plan: BatchPlan) {
  const { X, info, args } = prepare(A, B, plan);
  await native().solve({ ...args, async: true });
  return { X, info };
}

export function registerSolveCpu(): void {
  register('solve', FLOAT_DTYPES, 'cpu', solve);
  register('solveAsync', FLOAT_DTYPES, 'cpu', solveAsync);
}
