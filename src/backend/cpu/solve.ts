import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

// The options object is built as one literal (no spread): a spread copy of this many fields
// made every call several times slower.
function prepare<Async extends boolean>(A: Tensor, B: Tensor, plan: BatchPlan, async: Async) {
  const n = A.rows, k = B.cols;
  const X = Tensor.empty(B.dtype as DType, [...plan.batchShape, n, k]);
  const info = Tensor.empty('int32', plan.batchShape);
  const options = {
    dtype: dtypeCode(A.dtype), A: floats(A), B: floats(B), X: floats(X), info: info.dataSync(), count: plan.count, n, k,
    aIdx: plan.aIdx, bIdx: plan.bIdx, aCount: plan.aCount, bCount: plan.bCount, async,
  };
  return { X, info, options };
}

function solve(A: Tensor, B: Tensor, plan: BatchPlan) {
  const { X, info, options } = prepare(A, B, plan, false);
  native().solve(options);
  return { X, info };
}

async function solveAsync(A: Tensor, B: Tensor, plan: BatchPlan) {
  const { X, info, options } = prepare(A, B, plan, true);
  await native().solve(options);
  return { X, info };
}

export function registerSolveCpu(): void {
  register('solve', FLOAT_DTYPES, 'cpu', solve);
  register('solveAsync', FLOAT_DTYPES, 'cpu', solveAsync);
}
