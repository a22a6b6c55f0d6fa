// CPU entries of the elementwise special functions (native/src/special). Registry ops:
//   frexp(x) → { mantissa, exponent }
//   heaviside(x, values, layout) → out            (layout: src/core/broadcast.ts)
//   laguerrePolynomialL(x, n, layout) → out       (n already in x's dtype)
//   logspace(steps, start, end, base, dtype) → out, registered per output dtype
import { dtypeCode, type DType } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import type { ElementwiseLayout } from '../../core/broadcast.js';
import { register } from '../registry.js';
import { native } from './binding.js';

const REAL: DType[] = ['float32', 'float64'];

/** An output the kernel overwrites completely (the binding advises huge pages for it). */
function output(dtype: DType, shape: readonly number[]): Tensor {
  return Tensor.uninit(dtype, shape);
}

function frexp(x: Tensor): { mantissa: Tensor; exponent: Tensor<'int32'> } {
  const mantissa = output(x.dtype, x.shape);
  const exponent = output('int32', x.shape) as Tensor<'int32'>;
  native().frexp(dtypeCode(x.dtype), x.dataSync(), mantissa.dataSync(), exponent.dataSync());
  return { mantissa, exponent };
}

function binary(name: string) {
  return (a: Tensor, b: Tensor, L: ElementwiseLayout): Tensor => {
    const out = output(a.dtype, L.shape);
    if (L.size === 0) return out;
    native()[name](dtypeCode(a.dtype), a.dataSync(), b.dataSync(), out.dataSync(),
      Float64Array.from(L.dims), Float64Array.from(L.aStrides), Float64Array.from(L.bStrides));
    return out;
  };
}

function logspace(steps: number, start: number, end: number, base: number, dtype: DType): Tensor {
  const out = output(dtype, [steps]);
  native().logspace(dtypeCode(dtype), out.dataSync(), steps, start, end, base);
  return out;
}

export function registerSpecialCpu(): void {
  register('frexp', REAL, 'cpu', frexp);
  register('heaviside', REAL, 'cpu', binary('heaviside'));
  register('laguerrePolynomialL', REAL, 'cpu', binary('laguerrePolynomialL'));
  register('logspace', [...REAL, 'int32'], 'cpu', logspace);
}
