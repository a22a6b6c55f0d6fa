// CPU entries of the reductions (native/src/reduce). Registry ops:
//   reduce(x, op, dims, keepDims) → out         (dims sorted, unique, non-negative)
//   argReduce(x, op, dim, keepDims) → { values, indices }
// The native kernels reduce one dim of x seen as (outer, n, inner); here the reduced dims are
// merged with their reduced neighbours (size-1 dims dropped), and groups that stay apart
// after merging are reduced one at a time, innermost first.
import { NATIVE_DTYPES, dtypeCode, type AnyStorage, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { reduceOutDtype, type ReduceOp } from '../ops.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const OP_CODE: Record<ReduceOp, number> = { sum: 0, prod: 1, max: 2, min: 3, any: 4, all: 5 };

interface Group {
  size: number;
  reduced: boolean;
}

/** x's dims as alternating kept/reduced groups (adjacent dims of one kind merged, size-1 dims dropped). */
function groupsOf(shape: readonly number[], dims: readonly number[]): Group[] {
  const out: Group[] = [];
  shape.forEach((size, d) => {
    if (size === 1) return;
    const reduced = dims.includes(d);
    const last = out[out.length - 1];
    if (last && last.reduced === reduced) last.size *= size;
    else out.push({ size, reduced });
  });
  return out;
}

function outShape(shape: readonly number[], dims: readonly number[], keepDims: boolean): number[] {
  const s: number[] = [];
  shape.forEach((size, d) => {
    if (!dims.includes(d)) s.push(size);
    else if (keepDims) s.push(1);
  });
  return s;
}

function reduce(x: Tensor, op: ReduceOp, dims: readonly number[], keepDims: boolean): Tensor {
  const outDtype = reduceOutDtype(op, x.dtype);
  const shape = outShape(x.shape, dims, keepDims);
  const out = Tensor.uninit(outDtype, shape);
  let groups = groupsOf(x.shape, dims);
  // Every reduced dim has size 1 (or none is given): one pass with n = 1 still applies the op
  // (sum of bool → int32, any → bool, −0 + 0 as numpy's sum).
  if (!groups.some((g) => g.reduced)) groups = [...groups, { size: 1, reduced: true }];
  let data: AnyStorage = x.dataSync();
  let dtype: DType = x.dtype;
  for (;;) {
    const k = groups.map((g) => g.reduced).lastIndexOf(true);
    if (k < 0) break;
    const outer = groups.slice(0, k).reduce((p, g) => p * g.size, 1);
    const inner = groups.slice(k + 1).reduce((p, g) => p * g.size, 1);
    const n = groups[k].size;
    const last = !groups.some((g, i) => i !== k && g.reduced);
    const dst = last ? out.dataSync() : Tensor.uninit(reduceOutDtype(op, dtype), [outer * inner]).dataSync();
    native().reduce({ dtype: dtypeCode(dtype), op: OP_CODE[op], x: data, out: dst, outer, n, inner });
    data = dst;
    dtype = reduceOutDtype(op, dtype);
    // Drop group k; its neighbours (both kept) merge.
    const rest = [...groups.slice(0, k), ...groups.slice(k + 1)];
    groups = [];
    for (const g of rest) {
      const prev = groups[groups.length - 1];
      if (prev && prev.reduced === g.reduced) prev.size *= g.size;
      else groups.push({ ...g });
    }
  }
  return out;
}

function argReduce(x: Tensor, op: 'max' | 'min', dim: number, keepDims: boolean): { values: Tensor; indices: Tensor<'int32'> } {
  const shape = outShape(x.shape, [dim], keepDims);
  const values = Tensor.uninit(x.dtype, shape);
  const indices = Tensor.uninit('int32', shape);
  const outer = x.shape.slice(0, dim).reduce((p, s) => p * s, 1);
  const inner = x.shape.slice(dim + 1).reduce((p, s) => p * s, 1);
  native().argReduce({
    dtype: dtypeCode(x.dtype), op: op === 'max' ? 0 : 1, x: x.dataSync(), values: values.dataSync(), indices: indices.dataSync(),
    outer, n: x.shape[dim], inner,
  });
  return { values, indices };
}

export function registerReduceCpu(): void {
  register('reduce', NATIVE_DTYPES, 'cpu', reduce);
  register('argReduce', NATIVE_DTYPES.filter((d) => d !== 'complex64' && d !== 'complex128'), 'cpu', argReduce);
}
