import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { planBatch, type BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';
import { OP_NONE } from './lu.js';

function solveTriangular(
  A: Tensor, B: Tensor, plan: BatchPlan, opts: { upper: boolean; unitriangular: boolean; info?: boolean },
): { X: Tensor; info: Tensor<'int32'> | null } {
  const n = A.rows, k = B.cols;
  // uninit: the kernel writes every element (zero-filling a 64 MiB output cost as much as the solve)
  const X = Tensor.uninit(B.dtype as DType, [...plan.batchShape, n, k]);
  const info = opts.info ? Tensor.fromStorage('int32', plan.batchShape, new Int32Array(plan.count)) : null;
  native().solveTriangular({
    dtype: dtypeCode(A.dtype), A: floats(A), B: floats(B), X: floats(X), info: info ? info.dataSync() : null,
    count: plan.count, n, k, aIdx: plan.aIdx, bIdx: plan.bIdx, aCount: plan.aCount, bCount: plan.bCount, op: OP_NONE,
    upper: opts.upper, unit: opts.unitriangular, async: false,
  });
  return { X, info };
}

/** T = (I + tril(A, −1))⁻¹: the unit-lower solve against the identity, broadcast over A's batch. */
function invUnitLower(A: Tensor): Tensor {
  const C = A.cols;
  const eye = A.dtype === 'float32' ? new Float32Array(C * C) : new Float64Array(C * C);
  for (let i = 0; i < C; i++) eye[i * C + i] = 1;
  const I = Tensor.fromStorage(A.dtype as 'float32' | 'float64', [C, C], eye as never) as Tensor;
  return solveTriangular(A, I, planBatch(A, I, 'gdn.invUnitLower'), { upper: false, unitriangular: true }).X;
}

export function registerTrsmCpu(): void {
  register('solveTriangular', FLOAT_DTYPES, 'cpu', solveTriangular);
  register('invUnitLower', ['float32', 'float64'], 'cpu', invUnitLower);
}
