import type { Tensor } from '../../core/tensor.js';

/** `g` (the reduction's output) with the reduced dims put back as size 1 (keepDims layout). */
export function unsqueezeReduced(g: Tensor, inShape: readonly number[], opts: unknown, outNdim: number): Tensor {
  const o = (opts ?? {}) as { dim?: number | readonly number[]; keepDims?: boolean };
  const n = inShape.length;
  if (outNdim === n && o.keepDims) return g;
  const dims = o.dim === undefined || o.dim === null ? [...Array(n).keys()]
    : (typeof o.dim === 'number' ? [o.dim] : [...o.dim]).map((d) => (d < 0 ? d + n : d));
  const shape = inShape.map((d, i) => (dims.includes(i) ? 1 : d));
  return g.reshape(shape);
}
