// CPU entries of the shape and indexing ops (src/backend/ops.ts: stridedCopy, triangle,
// concat, take, put) over the native kernels (native/src/indexing/), every dtype.
import { NATIVE_DTYPES, dtypeCode } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { sizeOf } from '../../core/shape.js';
import type { StridedView } from '../ops.js';
import { register } from '../registry.js';
import { native } from './binding.js';

function stridedCopy(x: Tensor, view: StridedView, conj: boolean): Tensor {
  const out = Tensor.uninit(x.dtype, view.shape);
  native().stridedCopy({
    dtype: dtypeCode(x.dtype), x: x.dataSync(), out: out.dataSync(), shape: Float64Array.from(view.shape),
    strides: Float64Array.from(view.strides), offset: view.offset, conj,
  });
  return out;
}

function triangle(x: Tensor, upper: boolean, k: number): Tensor {
  const m = x.rows, n = x.cols;
  const out = Tensor.uninit(x.dtype, x.shape);
  const count = m * n === 0 ? 0 : x.size / (m * n);
  native().triangle({ dtype: dtypeCode(x.dtype), x: x.dataSync(), out: out.dataSync(), count, m, n, upper, k });
  return out;
}

function concat(xs: readonly Tensor[], dim: number): Tensor {
  const first = xs[0];
  const shape = [...first.shape];
  shape[dim] = xs.reduce((s, t) => s + t.shape[dim], 0);
  const out = Tensor.uninit(first.dtype, shape);
  const inner = sizeOf(first.shape.slice(dim + 1));
  native().concat({
    dtype: dtypeCode(first.dtype), xs: xs.map((t) => t.dataSync()), out: out.dataSync(), outer: sizeOf(first.shape.slice(0, dim)),
    sizes: Float64Array.from(xs, (t) => t.shape[dim] * inner),
  });
  return out;
}

function take(x: Tensor, index: Tensor<'int32'>): Tensor {
  const out = Tensor.uninit(x.dtype, index.shape);
  native().take({ dtype: dtypeCode(x.dtype), x: x.dataSync(), index: index.dataSync(), out: out.dataSync() });
  return out;
}

function put(x: Tensor, index: Tensor<'int32'>, values: Tensor, accumulate: boolean): Tensor {
  const out = Tensor.uninit(x.dtype, x.shape);
  native().put({
    dtype: dtypeCode(x.dtype), x: x.dataSync(), index: index.dataSync(), values: values.dataSync(), out: out.dataSync(), accumulate,
  });
  return out;
}

export function registerIndexingCpu(): void {
  register('stridedCopy', NATIVE_DTYPES, 'cpu', stridedCopy);
  register('triangle', NATIVE_DTYPES, 'cpu', triangle);
  register('concat', NATIVE_DTYPES, 'cpu', concat);
  register('take', NATIVE_DTYPES, 'cpu', take);
  register('put', NATIVE_DTYPES, 'cpu', put);
}
