import { Complex, isComplexLike } from './complex.js';
import { ArgumentError } from '../core/errors.js';

/** The parts of a mathjs instance the interop needs (mathjs is not a runtime dependency). */
export interface MathjsLike {
  matrix(data: unknown[]): unknown;
  complex(re: number, im: number): unknown;
}

type Nested = number | Complex | Nested[];

/**
 * Converts a mathjs value (Matrix, array, Complex, number) into plain nested arrays of
 * numbers and `Complex`, ready for `tensor()`.
 */
export function fromMathjs(v: unknown): Nested {
  if (typeof v === 'number') return v;
  if (isComplexLike(v)) return new Complex(v.re, v.im);
  if (Array.isArray(v)) return v.map(fromMathjs);
  if (typeof v === 'object' && v !== null && typeof (v as { toArray?: unknown }).toArray === 'function') {
    return fromMathjs((v as { toArray(): unknown }).toArray());
  }
  throw new ArgumentError(`fromMathjs: cannot convert ${Object.prototype.toString.call(v)}`);
}

/** Nested arrays (from `Tensor.toArray()`) into a mathjs Matrix; complex entries become mathjs Complex. */
export function toMathjs(math: MathjsLike, nested: unknown): unknown {
  if (typeof math?.matrix !== 'function' || typeof math?.complex !== 'function') {
    throw new ArgumentError('toMathjs: math must be a mathjs instance (with matrix and complex)');
  }
  const conv = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(conv) : isComplexLike(x) ? math.complex(x.re, x.im) : x;
  const c = conv(nested);
  return Array.isArray(c) ? math.matrix(c) : c;
}
