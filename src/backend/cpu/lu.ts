import { dtypeCode, isComplex, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import { floats, native, type OpCode } from './binding.js';

/** Op codes of the native solvers: op(A) = A, Aᵀ, Aᴴ. */
export const OP_NONE: OpCode = 0, OP_TRANS: OpCode = 1, OP_CONJ_TRANS: OpCode = 2;

function luOutputs(A: Tensor) {
  const m = A.rows, n = A.cols, batch = A.batchShape;
  const LU = Tensor.empty(A.dtype as DType, A.shape);
  const pivots = Tensor.empty('int32', [...batch, Math.min(m, n)]);
  const info = Tensor.empty('int32', batch);
  const count = info.size;
  return { LU, pivots, info, count, m, n };
}

// One options literal (no spread: a spread copy made every call several times slower).
function luOptions<Async extends boolean>(A: Tensor, o: ReturnType<typeof luOutputs>, async: Async) {
  return {
    dtype: dtypeCode(A.dtype), A: floats(A), LU: floats(o.LU), pivots: o.pivots.dataSync(), info: o.info.dataSync(),
    count: o.count, m: o.m, n: o.n, async,
  };
}

function luFactor(A: Tensor) {
  const o = luOutputs(A);
  native().luFactor(luOptions(A, o, false));
  return { LU: o.LU, pivots: o.pivots, info: o.info };
}

async function luFactorAsync(A: Tensor) {
  const o = luOutputs(A);
  await native().luFactor(luOptions(A, o, true));
  return { LU: o.LU, pivots: o.pivots, info: o.info };
}

function luSolve(LU: Tensor, pivots: Tensor<'int32'>, B: Tensor, plan: BatchPlan, adjoint: boolean): Tensor {
  const n = LU.rows, k = B.cols;
  const X = Tensor.empty(B.dtype as DType, [...plan.batchShape, n, k]);
  native().luSolve({
    dtype: dtypeCode(LU.dtype), LU: floats(LU), pivots: pivots.dataSync(), B: floats(B), X: floats(X), count: plan.count, n, k,
    aIdx: plan.aIdx, bIdx: plan.bIdx, aCount: plan.aCount, bCount: plan.bCount, op: adjoint ? OP_CONJ_TRANS : OP_NONE,
    async: false,
  });
  return X;
}

/** P·L·U from the packed factors: P from replaying the interchanges, L and U by triangle. */
function luUnpack(LU: Tensor, pivots: Tensor<'int32'>) {
  const m = LU.rows, n = LU.cols, k = Math.min(m, n), batch = LU.batchShape;
  const dt = LU.dtype as DType;
  const c = isComplex(dt) ? 2 : 1;
  const P = Tensor.empty(dt, [...batch, m, m]);
  const L = Tensor.empty(dt, [...batch, m, k]);
  const U = Tensor.empty(dt, [...batch, k, n]);
  const src = LU.dataSync(), piv = pivots.dataSync();
  const p = P.dataSync(), l = L.dataSync(), u = U.dataSync();
  const count = batch.reduce((a, b) => a * b, 1);
  const perm = new Int32Array(m);
  for (let b = 0; b < count; b++) {
    const so = b * m * n * c;
    // Row by row with typed-array copies: the strict lower part of LU's row i (its first
    // min(i, k) entries) into L, the upper part from the diagonal on into U.
    for (let i = 0; i < m; i++) {
      const row = so + i * n * c, lo = (b * m * k + i * k) * c;
      const w = Math.min(i, k);
      if (w > 0) l.set(src.subarray(row, row + w * c), lo);
      if (i < k) {
        l[lo + i * c] = 1;
        u.set(src.subarray(row + i * c, row + n * c), (b * k * n + i * n + i) * c);
      }
    }
    for (let i = 0; i < m; i++) perm[i] = i;
    for (let i = 0; i < k; i++) {
      const q = piv[b * k + i] - 1;
      if (q < 0 || q >= m) continue;
      const t = perm[i]; perm[i] = perm[q]; perm[q] = t;
    }
    // Pᵀ·A = L·U, row i of Pᵀ·A is row perm[i] of A: P[perm[i], i] = 1.
    for (let i = 0; i < m; i++) p[(b * m * m + perm[i] * m + i) * c] = 1;
  }
  return { P, L, U };
}

export function registerLuCpu(): void {
  register('luFactor', FLOAT_DTYPES, 'cpu', luFactor);
  register('luFactorAsync', FLOAT_DTYPES, 'cpu', luFactorAsync);
  register('luSolve', FLOAT_DTYPES, 'cpu', luSolve);
  register('luUnpack', FLOAT_DTYPES, 'cpu', luUnpack);
}

