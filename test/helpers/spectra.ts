// Small float64 reference linear algebra for the QR/SVD/pinv/lstsq tests: matrices with
// chosen singular values (random unitary factors × a spectrum), and complex-aware
// products and norms computed in plain JS, independent of the library under test.
import { Rng, Tensor, tensor, type FloatDType } from '../../src/index.js';

/** A dense complex matrix in float64 (im all zero for real data). */
export interface M { m: number; n: number; re: Float64Array; im: Float64Array }

export function zerosM(m: number, n: number): M {
  return { m, n, re: new Float64Array(m * n), im: new Float64Array(m * n) };
}

export function eyeM(n: number): M {
  const r = zerosM(n, n);
  for (let i = 0; i < n; i++) r.re[i * n + i] = 1;
  return r;
}

export function mul(a: M, b: M): M {
  if (a.n !== b.m) throw new Error(`mul: ${a.m}×${a.n} by ${b.m}×${b.n}`);
  const c = zerosM(a.m, b.n);
  for (let i = 0; i < a.m; i++)
    for (let p = 0; p < a.n; p++) {
      const xr = a.re[i * a.n + p], xi = a.im[i * a.n + p];
      if (xr === 0 && xi === 0) continue;
      for (let j = 0; j < b.n; j++) {
        const yr = b.re[p * b.n + j], yi = b.im[p * b.n + j];
        c.re[i * b.n + j] += xr * yr - xi * yi;
        c.im[i * b.n + j] += xr * yi + xi * yr;
      }
    }
  return c;
}

export function adj(a: M): M {
  const c = zerosM(a.n, a.m);
  for (let i = 0; i < a.m; i++)
    for (let j = 0; j < a.n; j++) {
      c.re[j * a.m + i] = a.re[i * a.n + j];
      c.im[j * a.m + i] = -a.im[i * a.n + j];
    }
  return c;
}

export function sub(a: M, b: M): M {
  const c = zerosM(a.m, a.n);
  for (let i = 0; i < a.re.length; i++) { c.re[i] = a.re[i] - b.re[i]; c.im[i] = a.im[i] - b.im[i]; }
  return c;
}

/** Frobenius norm (scaled, so 1e±300 entries do not over/underflow). */
export function fro(a: M): number {
  let mx = 0;
  for (let i = 0; i < a.re.length; i++) mx = Math.max(mx, Math.abs(a.re[i]), Math.abs(a.im[i]));
  if (mx === 0 || !Number.isFinite(mx)) return mx;
  let s = 0;
  for (let i = 0; i < a.re.length; i++) { const x = a.re[i] / mx, y = a.im[i] / mx; s += x * x + y * y; }
  return mx * Math.sqrt(s);
}

/** Columns j0..j1-1. */
export function cols(a: M, j0: number, j1: number): M {
  const c = zerosM(a.m, j1 - j0);
  for (let i = 0; i < a.m; i++)
    for (let j = j0; j < j1; j++) { c.re[i * c.n + j - j0] = a.re[i * a.n + j]; c.im[i * c.n + j - j0] = a.im[i * a.n + j]; }
  return c;
}

/** Matrix b of a (batched) tensor, as float64. */
export function fromTensor(t: Tensor, b = 0): M {
  const m = t.rows, n = t.cols;
  const d = t.dataSync() as Float32Array | Float64Array;
  const c = zerosM(m, n);
  const cplx = t.dtype === 'complex64' || t.dtype === 'complex128';
  for (let i = 0; i < m * n; i++) {
    if (cplx) { c.re[i] = d[2 * (b * m * n + i)]; c.im[i] = d[2 * (b * m * n + i) + 1]; } else c.re[i] = d[b * m * n + i];
  }
  return c;
}

/** Stacks matrices into a tensor of the dtype (batch shape [count] unless given). */
export function toTensor(ms: M[], dtype: FloatDType, batch?: number[]): Tensor {
  const { m, n } = ms[0] ?? { m: 0, n: 0 };
  const cplx = dtype === 'complex64' || dtype === 'complex128';
  const k = cplx ? 2 : 1;
  const data = dtype === 'float32' || dtype === 'complex64' ? new Float32Array(ms.length * m * n * k) : new Float64Array(ms.length * m * n * k);
  ms.forEach((a, b) => {
    for (let i = 0; i < m * n; i++) {
      if (cplx) { data[2 * (b * m * n + i)] = a.re[i]; data[2 * (b * m * n + i) + 1] = a.im[i]; } else data[b * m * n + i] = a.re[i];
    }
  });
  return tensor({ data, shape: [...(batch ?? [ms.length]), m, n], dtype });
}

/** Random unitary (orthogonal when real) n×n: Gram–Schmidt, twice, of a normal matrix. */
export function randomUnitary(n: number, rng: Rng, complex: boolean): M {
  const q = zerosM(n, n);
  for (let i = 0; i < n * n; i++) { q.re[i] = rng.normal(); if (complex) q.im[i] = rng.normal(); }
  for (let j = 0; j < n; j++) {
    for (let pass = 0; pass < 2; pass++)
      for (let p = 0; p < j; p++) {
        let hr = 0, hi = 0;  // h = q_pᴴ q_j
        for (let i = 0; i < n; i++) {
          const ar = q.re[i * n + p], ai = q.im[i * n + p], br = q.re[i * n + j], bi = q.im[i * n + j];
          hr += ar * br + ai * bi; hi += ar * bi - ai * br;
        }
        for (let i = 0; i < n; i++) {
          const ar = q.re[i * n + p], ai = q.im[i * n + p];
          q.re[i * n + j] -= hr * ar - hi * ai; q.im[i * n + j] -= hr * ai + hi * ar;
        }
      }
    let s = 0;
    for (let i = 0; i < n; i++) s += q.re[i * n + j] ** 2 + q.im[i * n + j] ** 2;
    s = Math.sqrt(s);
    for (let i = 0; i < n; i++) { q.re[i * n + j] /= s; q.im[i * n + j] /= s; }
  }
  return q;
}

/** U·diag(sigmas)·Vᴴ, m×n, with random unitary U, V (sigmas.length ≤ min(m, n)). */
export function withSingularValues(m: number, n: number, sigmas: readonly number[], rng: Rng, complex: boolean): M {
  const U = randomUnitary(m, rng, complex), V = randomUnitary(n, rng, complex);
  const k = sigmas.length;
  const Us = cols(U, 0, k);
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) { Us.re[i * k + j] *= sigmas[j]; Us.im[i * k + j] *= sigmas[j]; }
  return mul(Us, adj(cols(V, 0, k)));
}

/** Geometric spectrum from hi down to lo, n values. */
export function geometric(n: number, hi: number, lo: number): number[] {
  if (n === 1) return [hi];
  return Array.from({ length: n }, (_, i) => hi * (lo / hi) ** (i / (n - 1)));
}

export function scaleM(a: M, s: number): M {
  const c = zerosM(a.m, a.n);
  for (let i = 0; i < a.re.length; i++) { c.re[i] = a.re[i] * s; c.im[i] = a.im[i] * s; }
  return c;
}

/**
 * `base` at the scale `sc`: above 1 a plain multiple; below 1 the largest entry lands at
 * 8·sc (at 1e-45 a unit-norm matrix would round to zero, so entries span 0…8 grid steps).
 */
export function atScale(base: M, sc: number): M {
  if (sc > 1) return scaleM(base, sc);
  let mx = 0;
  for (let i = 0; i < base.re.length; i++) mx = Math.max(mx, Math.abs(base.re[i]), Math.abs(base.im[i]));
  return scaleM(base, (8 * sc) / mx);
}

export function randomM(m: number, n: number, rng: Rng, complex: boolean): M {
  const c = zerosM(m, n);
  for (let i = 0; i < m * n; i++) { c.re[i] = rng.normal(); if (complex) c.im[i] = rng.normal(); }
  return c;
}

export const isComplexD = (d: FloatDType) => d === 'complex64' || d === 'complex128';
export const epsD = (d: FloatDType) => (d === 'float32' || d === 'complex64' ? 1.1920928955078125e-7 : 2.220446049250313e-16);

/** From the solvers' `Mat` (test/helpers/matrices.ts: Kahan, Hilbert, graded generators). */
export function fromMat(x: { rows: number; cols: number; data: Float64Array }): M {
  const c = zerosM(x.rows, x.cols);
  for (let i = 0; i < x.rows * x.cols; i++) { c.re[i] = x.data[2 * i]; c.im[i] = x.data[2 * i + 1]; }
  return c;
}

/** A·diag(d) (columns scaled). */
export function scaleCols(a: M, d: readonly number[]): M {
  const c = zerosM(a.m, a.n);
  for (let i = 0; i < a.m; i++) for (let j = 0; j < a.n; j++) { c.re[i * a.n + j] = a.re[i * a.n + j] * d[j]; c.im[i * a.n + j] = a.im[i * a.n + j] * d[j]; }
  return c;
}

/** diag(d)·A (rows scaled). */
export function scaleRows(a: M, d: readonly number[]): M {
  const c = zerosM(a.m, a.n);
  for (let i = 0; i < a.m; i++) for (let j = 0; j < a.n; j++) { c.re[i * a.n + j] = a.re[i * a.n + j] * d[i]; c.im[i * a.n + j] = a.im[i * a.n + j] * d[i]; }
  return c;
}

/** U·diag(s)·Vh from svd outputs (first k columns/rows). */
export function usv(U: M, s: ArrayLike<number>, Vh: M): M {
  const k = s.length;
  const Uk = scaleCols(cols(U, 0, k), Array.from(s));
  const Vk = zerosM(k, Vh.n);
  for (let i = 0; i < k * Vh.n; i++) { Vk.re[i] = Vh.re[i]; Vk.im[i] = Vh.im[i]; }
  return mul(Uk, Vk);
}

/** ‖I − XᴴX‖_F (columns orthonormal when small). */
export function orthErr(x: M): number {
  return fro(sub(mul(adj(x), x), eyeM(x.n)));
}
