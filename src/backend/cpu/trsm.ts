import { dtypeCode, type DType, type FloatDType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { native } from './binding.js';
import { OP_NONE } from './lu.js';

const FLOATS: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

function solveTriangular(
  A: Tensor, B: Tensor, plan: BatchPlan, opts: { upper: boolean; unitriangular: boolean; info?: boolean },
): { X: Tensor; info: Tensor<'int32'> | null } {
  const n = A.rows, k = B.cols;
  // uninit: the kernel writes every element (zero-filling a 64 MiB output cost as much as the solve)
  const X = Tensor.uninit(B.dtype as DType, [...plan.batchShape, n, k]);
  const info = opts.info ? Tensor.fromStorage('int32', plan.batchShape, new Int32Array(plan.count)) : null;
  native().solveTriangular(dtypeCode(A.dtype), A.dataSync(), B.dataSync(), X.dataSync(), plan.count, n, k,
    plan.aIdx, plan.bIdx, plan.aCount, plan.bCount, OP_NONE, opts.upper, opts.unitriangular, false,
    info ? info.dataSync() : null);
  return { X, info };
}

export function registerTrsmCpu(): void {
  register('solveTriangular', FLOATS, 'cpu', solveTriangular);
}
