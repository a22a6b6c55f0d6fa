// CPU entries of the elementwise special functions (native/src/special). Registry ops:
//   frexp(x) → { mantissa, exponent }
//   heaviside(x, values, layout) → out            (layout: src/core/broadcast.ts)
//   laguerrePolynomialL(x, n, layout) → out       (n already in x's dtype)
//   logspace(steps, start, end, base, dtype) → out, registered per output dtype
import { dtypeCode, REAL_DTYPES, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { ElementwiseLayout } from '../../core/broadcast.js';
import { register } from '../registry.js';
import { floats, native } from './binding.js';

/** An output the kernel overwrites completely (the binding advises huge pages for it). */
function output(dtype: DType, shape: readonly number[]): Tensor {
  return Tensor.uninit(dtype, shape);
}

function frexp(x: Tensor): { mantissa: Tensor; exponent: Tensor<'int32'> } {
  const mantissa = output(x.dtype, x.shape);
  const exponent = output('int32', x.shape) as Tensor<'int32'>;
  native().frexp({ dtype: dtypeCode(x.dtype), x: floats(x), mantissa: floats(mantissa), exponent: exponent.dataSync() });
  return { mantissa, exponent };
}

function heaviside(x: Tensor, values: Tensor, L: ElementwiseLayout): Tensor {
  const out = output(x.dtype, L.shape);
  if (L.size === 0) return out;
  native().heaviside({
    dtype: dtypeCode(x.dtype), x: floats(x), values: floats(values), out: floats(out), shape: Float64Array.from(L.dims),
    xStrides: Float64Array.from(L.aStrides), valuesStrides: Float64Array.from(L.bStrides),
  });
  return out;
}

function laguerrePolynomialL(x: Tensor, n: Tensor, L: ElementwiseLayout): Tensor {
  const out = output(x.dtype, L.shape);
  if (L.size === 0) return out;
  native().laguerrePolynomialL({
    dtype: dtypeCode(x.dtype), x: floats(x), n: floats(n), out: floats(out), shape: Float64Array.from(L.dims),
    xStrides: Float64Array.from(L.aStrides), nStrides: Float64Array.from(L.bStrides),
  });
  return out;
}

function logspace(steps: number, start: number, end: number, base: number, dtype: DType): Tensor {
  const out = output(dtype, [steps]);
  native().logspace({ dtype: dtypeCode(dtype), out: out.dataSync() as Float32Array | Float64Array | Int32Array, steps, start, end, base });
  return out;
}

export function registerSpecialCpu(): void {
  register('frexp', REAL_DTYPES, 'cpu', frexp);
  register('heaviside', REAL_DTYPES, 'cpu', heaviside);
  register('laguerrePolynomialL', REAL_DTYPES, 'cpu', laguerrePolynomialL);
  register('logspace', [...REAL_DTYPES, 'int32'], 'cpu', logspace);
}
