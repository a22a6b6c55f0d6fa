// Float64 reference arithmetic for the browser suite, written out here so that no residual
// is computed by the code under test. Matrices are row-major arrays (complex interleaved).

export type Arr = ArrayLike<number>;

/** C = A·B for one m×k by k×n pair, real, in float64. */
export function mm(A: Arr, B: Arr, m: number, k: number, n: number): Float64Array {
  const C = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let p = 0; p < k; p++) {
      const a = A[i * k + p];
      for (let j = 0; j < n; j++) C[i * n + j] += a * B[p * n + j];
    }
  }
  return C;
}

/** Complex C = A·B, interleaved (re, im). */
export function mmc(A: Arr, B: Arr, m: number, k: number, n: number): Float64Array {
  const C = new Float64Array(2 * m * n);
  for (let i = 0; i < m; i++) {
    for (let p = 0; p < k; p++) {
      const ar = A[2 * (i * k + p)], ai = A[2 * (i * k + p) + 1];
      for (let j = 0; j < n; j++) {
        const br = B[2 * (p * n + j)], bi = B[2 * (p * n + j) + 1];
        C[2 * (i * n + j)] += ar * br - ai * bi;
        C[2 * (i * n + j) + 1] += ar * bi + ai * br;
      }
    }
  }
  return C;
}

/** Aᵀ of an m×n matrix. */
export function tr(A: Arr, m: number, n: number): Float64Array {
  const T = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) T[j * m + i] = A[i * n + j];
  return T;
}

/** Frobenius norm of a − b (b omitted: of a); works for interleaved complex too. */
export function fro(a: Arr, b?: Arr): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - (b ? b[i] : 0);
    s += d * d;
  }
  return Math.sqrt(s);
}

/** The n×n identity. */
export function eye(n: number): Float64Array {
  const I = new Float64Array(n * n);
  for (let i = 0; i < n; i++) I[i * n + i] = 1;
  return I;
}

/** The `b`-th matrix of `size` entries of a batch. */
export function item(a: Arr, b: number, size: number): Arr {
  return Array.prototype.slice.call(a, b * size, (b + 1) * size) as number[];
}

export const EPS64 = 2 ** -52;
export const EPS32 = 2 ** -23;
