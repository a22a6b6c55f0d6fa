import { dtypeCode, type DType, type FloatDType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const FLOATS: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function prepare(A: Tensor, B: Tensor, plan: BatchPlan) {
  const n = A.rows, k = B.cols;
  const X = Tensor.empty(B.dtype as DType, [...plan.batchShape, n, k]);
  const info = Tensor.empty('int32', plan.batchShape);
  const args = [dtypeCode(A.dtype), A.dataSync(), B.dataSync(), X.dataSync(), info.dataSync(), plan.count, n, k,
    plan.aIdx, plan.bIdx, plan.aCount, plan.bCount];
  return { X, info, args };
}

function solve(A: Tensor, B: Tensor, plan: BatchPlan) {
  const { X, info, args } = prepare(A, B, plan);
  native().solve(...args, false);
  return { X, info };
}

async function solveAsync(A: Tensor, B: Tensor, plan: BatchPlan) {
  const { X, info, args } = prepare(A, B, plan);
  await native().solve(...args, true);
  return { X, info };
}

export function registerSolveCpu(): void {
  register('solve', FLOATS, 'cpu', solve);
  register('solveAsync', FLOATS, 'cpu', solveAsync);
}
