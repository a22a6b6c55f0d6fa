import type { Tensor } from './tensor.js';
import { broadcastShapes, broadcastIndex, sizeOf, isIdentityIndex } from './shape.js';

/**
 * How two batched matrix operands line up: the broadcast batch shape and, for each output
 * matrix, which input matrix to read (null when the operand already has the full batch).
 * Kernels take these maps instead of materialised broadcast copies.
 */
export interface BatchPlan {
  batchShape: number[];
  count: number;
  aIdx: Int32Array | null;
  bIdx: Int32Array | null;
  /**
   * Matrices of each operand the kernels may read. For an empty broadcast batch (count 0,
   * e.g. (0, m, k) with (k, n)) both are 0 and both maps null: nothing is read, and every
   * backend returns its empty, correctly shaped outputs without a launch (torch's rule).
   */
  aCount: number;
  bCount: number;
}

const AB: readonly string[] = ['A', 'B'];

export function planBatch(A: Tensor, B: Tensor, who: string, names = AB, aDims = 2, bDims = 2): BatchPlan {
  // Two plain matrices (the common call): one output matrix, nothing to broadcast.
  if (A.ndim === aDims && B.ndim === bDims) return { batchShape: [], count: 1, aIdx: null, bIdx: null, aCount: 1, bCount: 1 };
  const ab = A.shape.slice(0, A.ndim - aDims);
  const bb = B.shape.slice(0, B.ndim - bDims);
  const batchShape = broadcastShapes(ab, bb, who, names);
  const count = sizeOf(batchShape);
  if (count === 0) return { batchShape, count, aIdx: null, bIdx: null, aCount: 0, bCount: 0 };
  const aCount = sizeOf(ab), bCount = sizeOf(bb);
  return { batchShape, count, aIdx: indexMap(ab, batchShape, aCount), bIdx: indexMap(bb, batchShape, bCount), aCount, bCount };
}

/** The broadcast map of one operand, or null for the identity (decided from the shapes when possible: building the map costs O(count), noticeable next to a GPU dispatch). */
function indexMap(shape: readonly number[], batchShape: readonly number[], n: number): Int32Array | null {
  if (shape.length === batchShape.length && shape.every((d, i) => d === batchShape[i])) return null;
  const idx = broadcastIndex(shape, batchShape);
  return isIdentityIndex(idx, n) ? null : idx;
}
