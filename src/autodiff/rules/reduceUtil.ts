import type { Tensor } from '../../core/tensor.js';

/** The reduced dims of a sum/mean/prod/max/min call, sorted, non-negative (all when `dim` is omitted). */
export function reducedDimsOf(opts: unknown, ndim: number): number[] {
  const o = (opts ?? {}) as { dim?: number | readonly number[] };
  if (ndim === 0) return []; // a 0-d tensor's dim 0 / −1 names the tensor itself
  if (o.dim === undefined || o.dim === null) return [...Array(ndim).keys()];
  const list = typeof o.dim === 'number' ? [o.dim] : [...o.dim];
  return list.map((d) => (d < 0 ? d + ndim : d)).sort((a, b) => a - b);
}

/** `g` (the reduction's output) with the reduced dims put back as size 1 (keepDims layout). */
export function unsqueezeReduced(g: Tensor, inShape: readonly number[], opts: unknown, outNdim: number): Tensor {
  const o = (opts ?? {}) as { keepDims?: boolean };
  const n = inShape.length;
  if (outNdim === n && o.keepDims) return g;
  const dims = reducedDimsOf(opts, n);
  const shape = inShape.map((d, i) => (dims.includes(i) ? 1 : d));
  return g.reshape(shape);
}
