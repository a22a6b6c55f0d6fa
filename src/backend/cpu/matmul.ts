import { dtypeCode, FLOAT_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { register } from '../registry.js';
import type { MatOp } from '../ops.js';
import { floats, native, type FloatArray } from './binding.js';

/** Whether two typed arrays view overlapping bytes of one buffer (a reshape or subarray of the same storage). */
function overlaps(x: FloatArray, y: FloatArray): boolean {
  return x.buffer === y.buffer && x.byteLength > 0 && y.byteLength > 0
    && x.byteOffset < y.byteOffset + y.byteLength && y.byteOffset < x.byteOffset + x.byteLength;
}

/**
 * `out`: the storage C is written to (zero-copy: the addon writes the array itself); `opA`/`opB`:
 * the operands are read transposed or conjugate-transposed in place (strides); see OpSignatures.matmul.
 */
function matmul(
  A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number, out?: Tensor, opA: MatOp = 0, opB: MatOp = 0,
): Tensor {
  const a = floats(A), b = floats(B);
  const dst = out ? floats(out) : undefined;
  // The GEMM would read entries of A or B it has already overwritten: compute apart, then copy.
  const apart = dst !== undefined && (overlaps(dst, a) || overlaps(dst, b));
  const C = out && !apart ? out : Tensor.uninit(A.dtype as DType, [...plan.batchShape, m, n]);
  native().matmul({
    dtype: dtypeCode(A.dtype), A: a, B: b, C: floats(C), batch: plan.count, m, k, n,
    aIdx: plan.aIdx, bIdx: plan.bIdx, aCount: plan.aCount, bCount: plan.bCount, opA, opB,
  });
  if (!apart) return C;
  dst!.set(floats(C));
  return out!;
}

export function registerMatmulCpu(): void {
  register('matmul', FLOAT_DTYPES, 'cpu', matmul);
}
