/**
 * linalg.matmul on batches of small matrices, the shapes the native small-product kernels
 * take (m, n ≤ 16, k ≤ 64; docs/gemm.md "Small products") and the ones just past them: all
 * four dtypes, every size 1…16 on both sides, odd batch counts, empty batches, broadcast
 * batch dims, vector operands. Each product is checked against a float64 triple loop
 * (complex as two float64 parts) with the LAPACK-style elementwise ratio
 * |C − C_ref|ᵢⱼ / (k · eps · (|A|·|B|)ᵢⱼ), which must stay below 30: rounding gives ratios
 * near 1, a wrong or missing element, a lost conjugate or a stray write gives 1/eps.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, randn, Tensor } from '../../src/index.js';
import type { FloatDType } from '../../src/core/dtype.js';

const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const isCplx = (dt: FloatDType) => dt === 'complex64' || dt === 'complex128';
const epsOf = (dt: FloatDType) => (dt === 'float32' || dt === 'complex64' ? 2 ** -23 : 2 ** -52);

/** The batch index of an operand with batch dims `dims` for output batch multi-index `at` (right-aligned broadcast). */
function operandIndex(dims: readonly number[], at: readonly number[]): number {
  let idx = 0;
  const off = at.length - dims.length;
  for (let d = 0; d < dims.length; d++) idx = idx * dims[d] + (dims[d] === 1 ? 0 : at[off + d]);
  return idx;
}

/**
 * The largest elementwise ratio |C − A·B| / (k·eps·(|A||B|)) over every matrix of C, with
 * A's and B's batch dims broadcast against C's.
 */
function worstRatio(A: Tensor, B: Tensor, C: Tensor, dt: FloatDType): number {
  const w = isCplx(dt) ? 2 : 1;
  const [m, k] = A.shape.slice(-2), n = B.shape[B.ndim - 1];
  const ba = A.shape.slice(0, -2), bb = B.shape.slice(0, -2), bc = C.shape.slice(0, -2);
  expect(C.shape).toEqual([...bc, m, n]);
  const a = A.dataSync() as Float32Array | Float64Array, b = B.dataSync() as Float32Array | Float64Array;
  const c = C.dataSync() as Float32Array | Float64Array;
  const count = bc.reduce((x, y) => x * y, 1);
  const at = new Array<number>(bc.length).fill(0);
  let worst = 0;
  for (let q = 0; q < count; q++) {
    let r = q;
    for (let d = bc.length - 1; d >= 0; d--) {
      at[d] = r % bc[d];
      r = Math.floor(r / bc[d]);
    }
    const ao = operandIndex(ba, at) * m * k * w, bo = operandIndex(bb, at) * k * n * w, co = q * m * n * w;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let re = 0, im = 0, mag = 0;
        for (let p = 0; p < k; p++) {
          const x = ao + (i * k + p) * w, y = bo + (p * n + j) * w;
          if (w === 1) {
            re += a[x] * b[y];
            mag += Math.abs(a[x] * b[y]);
          } else {
            re += a[x] * b[y] - a[x + 1] * b[y + 1];
            im += a[x] * b[y + 1] + a[x + 1] * b[y];
            mag += Math.hypot(a[x], a[x + 1]) * Math.hypot(b[y], b[y + 1]);
          }
        }
        const z = co + (i * n + j) * w;
        const err = w === 1 ? Math.abs(c[z] - re) : Math.hypot(c[z] - re, c[z + 1] - im);
        const ratio = err / (k * epsOf(dt) * mag + Number.MIN_VALUE);
        if (!(ratio < 30)) throw new Error(`matrix ${q} (${at.join(',')}), element (${i}, ${j}): ratio ${ratio} (err ${err})`);
        worst = Math.max(worst, ratio);
      }
  }
  return worst;
}

const small = fc.integer({ min: 1, max: 16 });
/** k within the small kernels' bound, on it, and past it. */
const depth = fc.oneof(fc.integer({ min: 1, max: 16 }), fc.constantFrom(31, 63, 64, 65));
const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 });

describe('matmul (CPU) on batches of small matrices', () => {
  for (const dt of DTYPES) {
    it(`${dt}: every m and n of 1…16 in one batch each`, () => {
      let worst = 0;
      for (let m = 1; m <= 16; m++)
        for (let n = 1; n <= 16; n++) {
          const k = 1 + ((m * 5 + n * 3) % 16), count = 1 + ((m + 2 * n) % 7);
          const A = randn([count, m, k], { dtype: dt, seed: m * 100 + n });
          const B = randn([count, k, n], { dtype: dt, seed: m * 100 + n + 50_000 });
          worst = Math.max(worst, worstRatio(A, B, linalg.matmul(A, B), dt));
        }
      expect(worst).toBeLessThan(30);
    });

    it(`${dt}: random sizes and batch counts, k up to past the kernels' bound`, () => {
      fc.assert(
        fc.property(small, depth, small, fc.integer({ min: 1, max: 24 }), seed, (m, k, n, count, s) => {
          const A = randn([count, m, k], { dtype: dt, seed: s });
          const B = randn([count, k, n], { dtype: dt, seed: s + 1 });
          expect(worstRatio(A, B, linalg.matmul(A, B), dt)).toBeLessThan(30);
        }),
      );
    });

    it(`${dt}: batches large enough to be split over the threads`, () => {
      for (const [count, m, k, n] of [[3000, 8, 8, 8], [700, 13, 16, 11], [400, 16, 64, 16]]) {
        const A = randn([count, m, k], { dtype: dt, seed: count });
        const B = randn([count, k, n], { dtype: dt, seed: count + 1 });
        expect(worstRatio(A, B, linalg.matmul(A, B), dt)).toBeLessThan(30);
      }
    });

    it(`${dt}: broadcast batch dims and vector operands`, () => {
      const batchPair = fc.constantFrom<[number[], number[]]>(
        [[3, 1], [1, 4]], [[], [5]], [[6], []], [[2, 3], [3]], [[1], [7]], [[4, 1, 2], [3, 1]],
      );
      fc.assert(
        fc.property(batchPair, small, depth, small, seed, ([ba, bb], m, k, n, s) => {
          const A = randn([...ba, m, k], { dtype: dt, seed: s });
          const B = randn([...bb, k, n], { dtype: dt, seed: s + 7 });
          expect(worstRatio(A, B, linalg.matmul(A, B), dt)).toBeLessThan(30);
          // a 1-D left operand: [k]·[…, k, n] is [1, k]·… with the row dim dropped
          const x = randn([k], { dtype: dt, seed: s + 9 });
          const y = linalg.matmul(x, B);
          expect(y.shape).toEqual([...bb, n]);
          expect(worstRatio(x.reshape([1, k]), B, y.reshape([...bb, 1, n]), dt)).toBeLessThan(30);
        }),
      );
    });

    it(`${dt}: empty batches give empty results of the right shape`, () => {
      for (const [ba, bb, out] of [[[0], [0], [0]], [[0], [], [0]], [[2, 0], [1], [2, 0]], [[], [3, 0], [3, 0]]] as const) {
        const A = randn([...ba, 5, 3], { dtype: dt, seed: 1 });
        const B = randn([...bb, 3, 7], { dtype: dt, seed: 2 });
        const C = linalg.matmul(A, B);
        expect(C.shape).toEqual([...out, 5, 7]);
        expect(C.dtype).toBe(dt);
        expect(C.dataSync().length).toBe(0);
      }
    });
  }
});
