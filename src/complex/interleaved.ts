import { Complex, type ComplexLike } from './complex.js';

type F = Float32Array | Float64Array;

/** Element i of an interleaved (re, im) array. */
export function getComplex(a: F, i: number): Complex {
  return new Complex(a[2 * i], a[2 * i + 1]);
}

export function setComplex(a: F, i: number, z: ComplexLike): void {
  a[2 * i] = z.re;
  a[2 * i + 1] = z.im;
}

/** Splits interleaved storage into separate real and imaginary arrays. */
export function deinterleave<T extends F>(a: T): { re: T; im: T } {
  const n = a.length >> 1;
  const C = a.constructor as { new (n: number): T };
  const re = new C(n), im = new C(n);
  for (let i = 0; i < n; i++) { re[i] = a[2 * i]; im[i] = a[2 * i + 1]; }
  return { re, im };
}

/** Joins separate real and imaginary arrays into interleaved storage. */
export function interleave<T extends F>(re: T, im: T): T {
  const C = re.constructor as { new (n: number): T };
  const out = new C(2 * re.length);
  for (let i = 0; i < re.length; i++) { out[2 * i] = re[i]; out[2 * i + 1] = im[i]; }
  return out;
}
