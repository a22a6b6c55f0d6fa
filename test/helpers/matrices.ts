/**
 * Test matrices with known structure, for backward-error tests in the style of LAPACK's
 * TESTING/MATGEN (dlatms): random orthogonal/unitary factors times chosen singular
 * values, graded and Kahan matrices, and the norms the LAPACK ratios need.
 *
 * Everything is computed in float64 on a small dense type, `Mat` (interleaved complex,
 * imaginary parts zero for real matrices), independent of the library under test.
 * Convert with `toTensor` / `fromTensor`. All generators take an `Rng` from the core so
 * every case reproduces from its seed.
 *
 *   const rng = new Rng(7);
 *   const A = withCondition(20, 1e6, rng, { complex: true });   // κ₂(A) = 1e6
 *   const t = toTensor([A], 'complex128');                      // shape [20, 20]
 *   const r = ratioSolve(A, X, B, 'complex128');                // ‖B − A·X‖ / (‖A‖·‖X‖·eps)
 */
import { Rng } from '../../src/core/create.js';
import { Tensor } from '../../src/core/tensor.js';
import { epsOf, isComplex, type FloatDType } from '../../src/core/dtype.js';

/** A dense row-major matrix of complex float64 (re, im interleaved). */
export class Mat {
  readonly data: Float64Array;
  constructor(readonly rows: number, readonly cols: number, data?: Float64Array) {
    this.data = data ?? new Float64Array(2 * rows * cols);
  }
  re(i: number, j: number): number { return this.data[2 * (i * this.cols + j)]; }
  im(i: number, j: number): number { return this.data[2 * (i * this.cols + j) + 1]; }
  set(i: number, j: number, re: number, im = 0): void {
    this.data[2 * (i * this.cols + j)] = re;
    this.data[2 * (i * this.cols + j) + 1] = im;
  }
  clone(): Mat { return new Mat(this.rows, this.cols, this.data.slice()); }

  static zeros(m: number, n: number): Mat { return new Mat(m, n); }
  static eye(n: number): Mat {
    const I = new Mat(n, n);
    for (let i = 0; i < n; i++) I.set(i, i, 1);
    return I;
  }
  static from(rows: ReadonlyArray<ReadonlyArray<number>>): Mat {
    const m = rows.length, n = m ? rows[0].length : 0;
    const A = new Mat(m, n);
    rows.forEach((r, i) => r.forEach((v, j) => A.set(i, j, v)));
    return A;
  }
  static diag(d: readonly number[], m = d.length, n = d.length): Mat {
    const D = new Mat(m, n);
    d.forEach((v, i) => D.set(i, i, v));
    return D;
  }

  mul(B: Mat): Mat {
    if (this.cols !== B.rows) throw new Error(`Mat.mul: ${this.rows}×${this.cols} · ${B.rows}×${B.cols}`);
    const C = new Mat(this.rows, B.cols);
    const a = this.data, b = B.data, c = C.data, n = B.cols, k = this.cols;
    for (let i = 0; i < this.rows; i++)
      for (let p = 0; p < k; p++) {
        const ar = a[2 * (i * k + p)], ai = a[2 * (i * k + p) + 1];
        if (ar === 0 && ai === 0) continue;
        for (let j = 0; j < n; j++) {
          const br = b[2 * (p * n + j)], bi = b[2 * (p * n + j) + 1];
          c[2 * (i * n + j)] += ar * br - ai * bi;
          c[2 * (i * n + j) + 1] += ar * bi + ai * br;
        }
      }
    return C;
  }
  sub(B: Mat): Mat {
    const C = new Mat(this.rows, this.cols);
    for (let i = 0; i < C.data.length; i++) C.data[i] = this.data[i] - B.data[i];
    return C;
  }
  /** Conjugate transpose. */
  adjoint(): Mat {
    const C = new Mat(this.cols, this.rows);
    for (let i = 0; i < this.rows; i++) for (let j = 0; j < this.cols; j++) C.set(j, i, this.re(i, j), -this.im(i, j));
    return C;
  }
  transpose(): Mat {
    const C = new Mat(this.cols, this.rows);
    for (let i = 0; i < this.rows; i++) for (let j = 0; j < this.cols; j++) C.set(j, i, this.re(i, j), this.im(i, j));
    return C;
  }
  scaleRows(d: readonly number[]): Mat {
    const C = this.clone();
    for (let i = 0; i < this.rows; i++) for (let j = 0; j < 2 * this.cols; j++) C.data[2 * i * this.cols + j] *= d[i];
    return C;
  }
  scaleCols(d: readonly number[]): Mat {
    const C = this.clone();
    for (let i = 0; i < this.rows; i++)
      for (let j = 0; j < this.cols; j++) { C.data[2 * (i * this.cols + j)] *= d[j]; C.data[2 * (i * this.cols + j) + 1] *= d[j]; }
    return C;
  }
  /** Max column sum of |a_ij| (LAPACK's '1' norm). */
  norm1(): number {
    let best = 0;
    for (let j = 0; j < this.cols; j++) {
      let s = 0;
      for (let i = 0; i < this.rows; i++) s += Math.hypot(this.re(i, j), this.im(i, j));
      if (!(s <= best)) best = s;
    }
    return best;
  }
  normFro(): number {
    let s = 0;
    for (const v of this.data) s += v * v;
    return Math.sqrt(s);
  }
  maxAbs(): number {
    let m = 0;
    for (let i = 0; i < this.rows * this.cols; i++) {
      const v = Math.hypot(this.data[2 * i], this.data[2 * i + 1]);
      if (!(v <= m)) m = v;
    }
    return m;
  }
  /** Plain nested numbers (real part) — for mathjs and `tensor()`. */
  toRealArray(): number[][] {
    return Array.from({ length: this.rows }, (_, i) => Array.from({ length: this.cols }, (_, j) => this.re(i, j)));
  }
}

export interface GenOptions {
  /** Complex entries (a unitary rather than orthogonal factor). Default false. */
  complex?: boolean;
}

/** Entries iid N(0, 1) (complex: re, im each N(0, 1/2)). */
export function randomMatrix(m: number, n: number, rng: Rng, opts: GenOptions = {}): Mat {
  const A = new Mat(m, n);
  const s = opts.complex ? Math.SQRT1_2 : 1;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) A.set(i, j, s * rng.normal(), opts.complex ? s * rng.normal() : 0);
  return A;
}

/**
 * Householder QR of a tall or square m×n matrix (m ≥ n), float64, unblocked. Returns Q
 * (m×m, unitary) and R (m×n, upper). For test data only: O(m²n) and straightforward.
 */
export function householderQr(A: Mat): { Q: Mat; R: Mat } {
  const m = A.rows, n = A.cols;
  const R = A.clone();
  let Q = Mat.eye(m);
  for (let k = 0; k < Math.min(m - 1, n); k++) {
    // v = x + phase(x0)·‖x‖·e1, H = I − 2vvᴴ/(vᴴv)
    let nx = 0;
    for (let i = k; i < m; i++) nx += R.re(i, k) ** 2 + R.im(i, k) ** 2;
    nx = Math.sqrt(nx);
    if (nx === 0) continue;
    const x0r = R.re(k, k), x0i = R.im(k, k), ax0 = Math.hypot(x0r, x0i);
    const pr = ax0 === 0 ? 1 : x0r / ax0, pi = ax0 === 0 ? 0 : x0i / ax0;
    const v = new Float64Array(2 * m);
    for (let i = k; i < m; i++) { v[2 * i] = R.re(i, k); v[2 * i + 1] = R.im(i, k); }
    v[2 * k] += pr * nx; v[2 * k + 1] += pi * nx;
    let vv = 0;
    for (let i = k; i < m; i++) vv += v[2 * i] ** 2 + v[2 * i + 1] ** 2;
    const apply = (M: Mat, c0: number) => {
      for (let j = c0; j < M.cols; j++) {
        let sr = 0, si = 0; // vᴴ·M[:, j]
        for (let i = k; i < m; i++) {
          const ar = M.re(i, j), ai = M.im(i, j);
          sr += v[2 * i] * ar + v[2 * i + 1] * ai;
          si += v[2 * i] * ai - v[2 * i + 1] * ar;
        }
        const fr = 2 * sr / vv, fi = 2 * si / vv;
        for (let i = k; i < m; i++) {
          M.set(i, j, M.re(i, j) - (v[2 * i] * fr - v[2 * i + 1] * fi), M.im(i, j) - (v[2 * i] * fi + v[2 * i + 1] * fr));
        }
      }
    };
    apply(R, k);
    // Q ← Q·H (H is Hermitian): apply H to Qᴴ from the left, via adjoints.
    const Qh = Q.adjoint();
    apply(Qh, 0);
    Q = Qh.adjoint();
  }
  return { Q, R };
}

/**
 * A Haar-distributed random orthogonal (real) or unitary (complex) n×n matrix: Q of the QR
 * of a Gaussian matrix, with column phases fixed by R's diagonal (Mezzadri 2007).
 */
export function randomUnitary(n: number, rng: Rng, opts: GenOptions = {}): Mat {
  const { Q, R } = householderQr(randomMatrix(n, n, rng, opts));
  const out = Q.clone();
  for (let j = 0; j < n; j++) {
    const r = R.re(j, j), i = R.im(j, j), a = Math.hypot(r, i);
    if (a === 0) continue;
    const pr = r / a, pi = i / a;
    for (let k = 0; k < n; k++) {
      const qr = Q.re(k, j), qi = Q.im(k, j);
      out.set(k, j, qr * pr - qi * pi, qr * pi + qi * pr);
    }
  }
  return out;
}

/** U·diag(s)·Vᴴ (m×n, default square of length s) with random orthogonal/unitary U, V. */
export function withSingularValues(s: readonly number[], rng: Rng, opts: GenOptions & { m?: number; n?: number } = {}): Mat {
  const m = opts.m ?? s.length, n = opts.n ?? s.length;
  const U = randomUnitary(m, rng, opts), V = randomUnitary(n, rng, opts);
  return U.mul(Mat.diag([...s], m, n)).mul(V.adjoint());
}

/**
 * An n×n matrix with 2-norm condition number `cond` (dlatms MODE 3: singular values
 * geometric from 1 down to 1/cond), times `scale`.
 */
export function withCondition(n: number, cond: number, rng: Rng, opts: GenOptions & { scale?: number } = {}): Mat {
  const scale = opts.scale ?? 1;
  const s = Array.from({ length: n }, (_, i) => scale * (n === 1 ? 1 : cond ** (-i / (n - 1))));
  return withSingularValues(s, rng, opts);
}

/** D·A·D with D = diag(ratio^i): entries graded over many orders of magnitude. */
export function graded(n: number, ratio: number, rng: Rng, opts: GenOptions = {}): Mat {
  const d = Array.from({ length: n }, (_, i) => ratio ** i);
  return randomMatrix(n, n, rng, opts).scaleRows(d).scaleCols(d);
}

/** MATLAB gallery('kahan', n, theta): upper triangular, notoriously ill-conditioned. */
export function kahan(n: number, theta = 1.2): Mat {
  const s = Math.sin(theta), c = Math.cos(theta);
  const K = new Mat(n, n);
  for (let i = 0; i < n; i++) {
    const si = s ** i;
    K.set(i, i, si);
    for (let j = i + 1; j < n; j++) K.set(i, j, -c * si);
  }
  return K;
}

/** Hilbert matrix 1/(i + j + 1). */
export function hilbert(n: number): Mat {
  const H = new Mat(n, n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) H.set(i, j, 1 / (i + j + 1));
  return H;
}

/**
 * A well-conditioned triangular matrix (torch's trick: the U or L factor of a random
 * matrix's LU has modest condition, raw random triangles do not): diagonal ±(1..2) and
 * off-diagonal entries N(0,1)/n. The other triangle is filled with `fill` (NaN by default)
 * to check it is never read.
 */
export function triangular(n: number, upper: boolean, rng: Rng, opts: GenOptions & { fill?: number; unitDiagFill?: number } = {}): Mat {
  const T = randomMatrix(n, n, rng, opts);
  const fill = opts.fill ?? NaN;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) {
        const mag = 1 + rng.uniform();
        T.set(i, j, rng.uniform() < 0.5 ? -mag : mag, 0);
      } else if (upper ? j > i : j < i) {
        T.set(i, j, T.re(i, j) / n, T.im(i, j) / n);
      } else {
        T.set(i, j, fill, opts.complex ? fill : 0);
      }
    }
  return T;
}

/** The triangle of T that `solveTriangular` reads, with the rest zero (and unit diagonal). */
export function triangleOf(T: Mat, upper: boolean, unit = false): Mat {
  const R = new Mat(T.rows, T.cols);
  for (let i = 0; i < T.rows; i++)
    for (let j = 0; j < T.cols; j++) {
      if (i === j) { if (unit) R.set(i, j, 1); else R.set(i, j, T.re(i, j), T.im(i, j)); }
      else if (upper ? j > i : j < i) R.set(i, j, T.re(i, j), T.im(i, j));
    }
  return R;
}

/** Stacks matrices into one tensor: one matrix → shape [m, n]; several → [count, m, n] (or `batch`). */
export function toTensor(mats: readonly Mat[], dtype: FloatDType, batch?: readonly number[]): Tensor {
  const m = mats[0]?.rows ?? 0, n = mats[0]?.cols ?? 0;
  const shape = batch ? [...batch, m, n] : mats.length === 1 ? [m, n] : [mats.length, m, n];
  const t = Tensor.empty(dtype, shape);
  const d = t.dataSync() as Float32Array | Float64Array;
  const c = isComplex(dtype);
  mats.forEach((A, b) => {
    const o = b * m * n;
    for (let i = 0; i < m * n; i++) {
      if (c) { d[2 * (o + i)] = A.data[2 * i]; d[2 * (o + i) + 1] = A.data[2 * i + 1]; }
      else d[o + i] = A.data[2 * i];
    }
  });
  return t;
}

/** Matrix `index` of a (batched) CPU tensor as a float64 `Mat`. */
export function fromTensor(t: Tensor, index = 0): Mat {
  const m = t.rows, n = t.cols;
  const d = t.dataSync() as Float32Array | Float64Array;
  const c = isComplex(t.dtype);
  const A = new Mat(m, n);
  for (let i = 0; i < m * n; i++) {
    const s = index * m * n + i;
    if (c) A.set(Math.floor(i / n), i % n, d[2 * s], d[2 * s + 1]);
    else A.set(Math.floor(i / n), i % n, d[s]);
  }
  return A;
}

/** LAPACK dget01: ‖A − P·L·U‖₁ / (n · ‖A‖₁ · eps). */
export function ratioLu(A: Mat, P: Mat, L: Mat, U: Mat, dtype: FloatDType): number {
  const n = Math.max(A.rows, A.cols, 1);
  const an = A.norm1();
  const r = A.sub(P.mul(L).mul(U)).norm1();
  return an === 0 ? r / epsOf(dtype) : r / (n * an * epsOf(dtype));
}

/** LAPACK dget02: ‖B − A·X‖₁ / (‖A‖₁ · ‖X‖₁ · eps). */
export function ratioSolve(A: Mat, X: Mat, B: Mat, dtype: FloatDType): number {
  const r = B.sub(A.mul(X)).norm1();
  const d = A.norm1() * X.norm1() * epsOf(dtype);
  return d === 0 ? r : r / d;
}

/** LAPACK dget03: ‖I − A·Ainv‖₁ / (n · ‖A‖₁ · ‖Ainv‖₁ · eps). */
export function ratioInv(A: Mat, Ainv: Mat, dtype: FloatDType): number {
  const n = A.rows;
  const r = Mat.eye(n).sub(A.mul(Ainv)).norm1();
  return r / (n * A.norm1() * Ainv.norm1() * epsOf(dtype));
}

/** Rounds a Mat through float32 (so a float32 test's reference sees the same input). */
export function roundTo(A: Mat, dtype: FloatDType): Mat {
  if (dtype === 'float64' || dtype === 'complex128') return A;
  return new Mat(A.rows, A.cols, Float64Array.from(Float32Array.from(A.data)));
}

export const DTYPES: readonly FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
