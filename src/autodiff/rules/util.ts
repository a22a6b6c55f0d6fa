// Small pieces the backward rules share. Every one is a public op, so a rule built from them
// runs on its tensors' device and is itself recorded by an enclosing tape (second derivatives).
import type { Tensor } from '../../core/tensor.js';
import { isComplex } from '../../core/dtype.js';
import { conj } from '../../ops/elementwise.js';
import { adjoint } from '../../ops/indexing.js';

/** conj(x) for complex dtypes, x itself for real ones (saves a copy). */
export function cj(x: Tensor): Tensor {
  return isComplex(x.dtype) ? conj(x) : x;
}

/** The conjugate transpose of the last two dims (xᴴ; xᵀ for real x). */
export function H(x: Tensor): Tensor {
  return adjoint(x);
}
