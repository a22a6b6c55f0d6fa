/**
 * linalg.matmul on the CPU against mathjs (built with absTol 0): random shapes, including
 * the GEMM's micro-tile and cache-block edges, all four dtypes (complex through mathjs
 * Complex), broadcast batch dims, vector operands, and the shape errors. Errors are judged
 * elementwise and relatively: |C − C_ref| ≤ c·k·eps·(|A|·|B|), the bound a dot product of
 * length k obeys in floating point, so a wrong element, a lost conjugate or a missed edge
 * fails while rounding (FMA or not, any summation order) passes.
 * Larger products, which take the packed multithreaded path, are checked the same way
 * against a float64 triple loop (mathjs would take seconds there).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { all, create, type Matrix } from 'mathjs';
import { linalg, randn, tensor, Tensor, Complex, ShapeError, fromMathjs, toMathjs } from '../../src/index.js';
import type { FloatDType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const isCplx = (dt: FloatDType) => dt === 'complex64' || dt === 'complex128';
const epsOf = (dt: FloatDType) => (dt === 'float32' || dt === 'complex64' ? 2 ** -23 : 2 ** -52);

/** Matrix `b` (flat batch index) of a tensor as (re, im) float64 arrays. */
function slice(t: Tensor, b: number): { re: Float64Array; im: Float64Array; m: number; n: number } {
  const m = t.shape[t.shape.length - 2], n = t.shape[t.shape.length - 1];
  const d = t.dataSync() as Float32Array | Float64Array;
  const re = new Float64Array(m * n), im = new Float64Array(m * n);
  const c = isCplx(t.dtype as FloatDType);
  for (let q = 0; q < m * n; q++) {
    if (c) {
      re[q] = d[2 * (b * m * n + q)];
      im[q] = d[2 * (b * m * n + q) + 1];
    } else {
      re[q] = d[b * m * n + q];
    }
  }
  return { re, im, m, n };
}

type Slice = ReturnType<typeof slice>;

function nested(s: Slice, complex: boolean): (number | Complex)[][] {
  const rows: (number | Complex)[][] = [];
  for (let i = 0; i < s.m; i++) {
    const row: (number | Complex)[] = [];
    for (let j = 0; j < s.n; j++) row.push(complex ? new Complex(s.re[i * s.n + j], s.im[i * s.n + j]) : s.re[i * s.n + j]);
    rows.push(row);
  }
  return rows;
}

/** C_ref = A·B by mathjs, as (re, im) arrays. */
function mathjsProduct(a: Slice, b: Slice, complex: boolean): Slice {
  const A = toMathjs(math, nested(a, complex)) as Matrix;
  const B = toMathjs(math, nested(b, complex)) as Matrix;
  const C = fromMathjs(math.multiply(A, B)) as (number | Complex)[][] | (number | Complex);
  const rows = (Array.isArray(C) ? C : [[C]]) as (number | Complex)[][];
  const re = new Float64Array(a.m * b.n), im = new Float64Array(a.m * b.n);
  for (let i = 0; i < a.m; i++)
    for (let j = 0; j < b.n; j++) {
      const v = rows[i][j];
      if (typeof v === 'number') re[i * b.n + j] = v;
      else { re[i * b.n + j] = v.re; im[i * b.n + j] = v.im; }
    }
  return { re, im, m: a.m, n: b.n };
}

/** C_ref by a float64 triple loop (for sizes mathjs is too slow for). */
function loopProduct(a: Slice, b: Slice): Slice {
  const { m } = a, k = a.n, n = b.n;
  const re = new Float64Array(m * n), im = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < k; p++) {
      const ar = a.re[i * k + p], ai = a.im[i * k + p];
      for (let j = 0; j < n; j++) {
        const br = b.re[p * n + j], bi = b.im[p * n + j];
        re[i * n + j] += ar * br - ai * bi;
        im[i * n + j] += ar * bi + ai * br;
      }
    }
  return { re, im, m, n };
}

/** (|A|·|B|)ᵢⱼ with |z| the modulus. */
function absProduct(a: Slice, b: Slice): Float64Array {
  const { m } = a, k = a.n, n = b.n;
  const aa = a.re.map((x, q) => Math.hypot(x, a.im[q]));
  const bb = b.re.map((x, q) => Math.hypot(x, b.im[q]));
  const out = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < k; p++) {
      const x = aa[i * k + p];
      for (let j = 0; j < n; j++) out[i * n + j] += x * bb[p * n + j];
    }
  return out;
}

/** Asserts |C − ref| ≤ 4·(k+2)·eps·(|A||B|) elementwise (and C finite). */
function expectClose(C: Slice, ref: Slice, a: Slice, b: Slice, dt: FloatDType, what: string): void {
  const bound = absProduct(a, b);
  const c = 4 * (a.n + 2) * epsOf(dt);
  let worst = 0;
  for (let q = 0; q < C.re.length; q++) {
    const err = Math.hypot(C.re[q] - ref.re[q], C.im[q] - ref.im[q]);
    const r = err / (c * bound[q] + Number.MIN_VALUE);
    if (!(r <= 1)) throw new Error(`${what}: element ${q} off by ${err} (bound ${c * bound[q]})`);
    worst = Math.max(worst, r);
  }
  expect(worst).toBeLessThanOrEqual(1);
}

/** Dims on the micro-tile (3, 4, 6, 8, 16) and cache-block (96, 192, 256) edges, and odd ones. */
const edge = fc.constantFrom(1, 2, 3, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 31, 33);
const deep = fc.constantFrom(1, 2, 7, 8, 63, 64, 65, 255, 256, 257);

describe('matmul (CPU) against mathjs', () => {
  for (const dt of DTYPES) {
    it(`${dt}: random shapes on tile and block edges`, () => {
      fc.assert(
        fc.property(edge, deep, edge, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (m, k, n, seed) => {
          const A = randn([m, k], { dtype: dt, seed });
          const B = randn([k, n], { dtype: dt, seed: seed + 1 });
          const C = linalg.matmul(A, B);
          expect(C.shape).toEqual([m, n]);
          expect(C.dtype).toBe(dt);
          const a = slice(A, 0), b = slice(B, 0);
          expectClose(slice(C, 0), mathjsProduct(a, b, isCplx(dt)), a, b, dt, `${dt} ${m}×${k}·${k}×${n}`);
        }),
        { numRuns: isCplx(dt) ? 25 : 40 },
      );
    });
  }

  for (const dt of DTYPES) {
    it(`${dt}: broadcast batch dims`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom<[number[], number[]]>([[2, 1], [3]], [[1], [4]], [[3], [3]], [[2, 3], [1, 1]], [[], [2, 2]], [[5], []]),
          edge, edge, edge, fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          ([ba, bb], m, k, n, seed) => {
            const A = randn([...ba, m, k], { dtype: dt, seed });
            const B = randn([...bb, k, n], { dtype: dt, seed: seed + 7 });
            const C = linalg.matmul(A, B);
            const nb = Math.max(ba.length, bb.length);
            const batch: number[] = [];
            for (let i = 0; i < nb; i++) {
              const x = ba[ba.length - nb + i] ?? 1, y = bb[bb.length - nb + i] ?? 1;
              batch.push(x === 1 ? y : x);
            }
            expect(C.shape).toEqual([...batch, m, n]);
            // Walk the output batch and find the operand matrix each entry reads.
            const count = batch.reduce((s, x) => s * x, 1);
            const flatIndex = (shape: number[], idx: number[]) => {
              let f = 0;
              for (let i = 0; i < shape.length; i++) f = f * shape[i] + (shape[i] === 1 ? 0 : idx[idx.length - shape.length + i]);
              return f;
            };
            for (let q = 0; q < count; q++) {
              const idx: number[] = [];
              let r = q;
              for (let i = batch.length - 1; i >= 0; i--) { idx.unshift(r % batch[i]); r = Math.floor(r / batch[i]); }
              const a = slice(A, flatIndex(ba, idx)), b = slice(B, flatIndex(bb, idx));
              expectClose(slice(C, q), mathjsProduct(a, b, isCplx(dt)), a, b, dt, `${dt} batch ${q}`);
            }
          }),
        { numRuns: 12 },
      );
    });
  }

  it('vectors: 1-D operands follow torch.matmul', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DTYPES), edge, edge, fc.integer({ min: 0, max: 1e6 }), (dt, m, k, seed) => {
        const M = randn([m, k], { dtype: dt, seed });
        const x = randn([k], { dtype: dt, seed: seed + 1 });
        const y = randn([m], { dtype: dt, seed: seed + 2 });
        const Mx = linalg.matmul(M, x);      // (m)
        const yM = linalg.matmul(y, M);      // (k)
        const xx = linalg.matmul(x, x);      // scalar
        expect(Mx.shape).toEqual([m]);
        expect(yM.shape).toEqual([k]);
        expect(xx.shape).toEqual([]);
        const a = slice(M, 0), xs = slice(x.reshape([k, 1]), 0), ys = slice(y.reshape([1, m]), 0);
        expectClose(slice(Mx.reshape([m, 1]), 0), mathjsProduct(a, xs, isCplx(dt)), a, xs, dt, 'M·x');
        expectClose(slice(yM.reshape([1, k]), 0), mathjsProduct(ys, a, isCplx(dt)), ys, a, dt, 'y·M');
        const xr = slice(x.reshape([1, k]), 0);
        expectClose(slice(xx.reshape([1, 1]), 0), mathjsProduct(xr, xs, isCplx(dt)), xr, xs, dt, 'x·x');
        // A batch of matrices times a vector broadcasts the vector.
        const S = randn([3, m, k], { dtype: dt, seed: seed + 3 });
        expect(linalg.matmul(S, x).shape).toEqual([3, m]);
      }),
      { numRuns: 20 },
    );
  });

  it('empty inner dimension gives zeros; empty outer dims give empty results', () => {
    for (const dt of DTYPES) {
      const C = linalg.matmul(randn([3, 0], { dtype: dt }), randn([0, 4], { dtype: dt }));
      expect(C.shape).toEqual([3, 4]);
      expect(Array.from(C.dataSync()).every((v) => v === 0)).toBe(true);
      expect(linalg.matmul(randn([0, 5], { dtype: dt }), randn([5, 2], { dtype: dt })).shape).toEqual([0, 2]);
    }
  });

  it('NaN and Inf reach the result, never finite garbage', () => {
    for (const dt of DTYPES) {
      const A = randn([20, 30], { dtype: dt, seed: 3 });
      (A.dataSync() as Float64Array)[0] = NaN;  // A[0][0] (real part for complex)
      const B = tensor({ data: new (dt === 'float32' || dt === 'complex64' ? Float32Array : Float64Array)(30 * 40 * (isCplx(dt) ? 2 : 1)).fill(1), shape: [30, 40], dtype: dt });
      const C = slice(linalg.matmul(A, B), 0);
      for (let j = 0; j < 40; j++) expect(Number.isNaN(C.re[j])).toBe(true);
      for (let q = 40; q < C.re.length; q++) expect(Number.isFinite(C.re[q])).toBe(true);
    }
  });
});

describe('matmul (CPU): packed, multithreaded sizes against a float64 loop', () => {
  for (const dt of DTYPES) {
    it(`${dt}: products past the cache blocks`, () => {
      const shapes: [number, number, number][] = [[97, 130, 91], [300, 400, 300], [520, 260, 130], [193, 66, 390]];
      for (const [m, k, n] of shapes) {
        const A = randn([m, k], { dtype: dt, seed: m });
        const B = randn([k, n], { dtype: dt, seed: n });
        const a = slice(A, 0), b = slice(B, 0);
        expectClose(slice(linalg.matmul(A, B), 0), loopProduct(a, b), a, b, dt, `${dt} ${m}×${k}·${k}×${n}`);
      }
    });
  }
});

describe('matmul: shape errors name the operands and their shapes', () => {
  it('inner dimensions must agree', () => {
    fc.assert(
      fc.property(edge, edge, edge, edge, (m, k, k2, n) => {
        fc.pre(k !== k2);
        const f = () => linalg.matmul(randn([m, k]), randn([k2, n]));
        expect(f).toThrow(ShapeError);
        expect(f).toThrow(`matmul: A is ${m}×${k} and B is ${k2}×${n}`);
      }),
      { numRuns: 20 },
    );
    expect(() => linalg.matmul(randn([4]), randn([5]))).toThrow(ShapeError);
  });

  it('batch dims must broadcast', () => {
    const f = () => linalg.matmul(randn([2, 3, 3]), randn([3, 3, 3]));
    expect(f).toThrow(ShapeError);
    expect(f).toThrow('matmul: batch dims of A (2) and B (3) do not broadcast');
    expect(() => linalg.matmul(randn([2, 4, 3, 3]), randn([4, 2, 3, 3]))).toThrow(/batch dims of A \(2×4\) and B \(4×2\)/);
  });
});
