// CPU batched inverse for n ≤ 4 (native inv_small_batched: SIMD lanes, AVX2 or portable
// per LAPIS_KERNELS): fast-check properties against mathjs and LAPACK's inverse ratio,
// info for singular and non-finite members, isolation of neighbours, tails of the lanes.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, Tensor } from '../../src/index.js';
import { Mat, withCondition, toTensor, fromTensor, ratioInv, roundTo } from '../helpers/matrices.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const REAL = ['float32', 'float64'] as const;

describe('cpu inv, n ≤ 4 (batched lanes)', () => {
  for (const dtype of [...REAL, 'complex64', 'complex128'] as const) {
    for (const n of [1, 2, 3, 4]) {
      it(`${dtype} n=${n}: LAPACK ratio < 30 over κ up to 1e6 (float32: 1e4), every lane position`, () => {
        const rng = new Rng(n * 17);
        const kmax = dtype === 'float32' || dtype === 'complex64' ? 1e4 : 1e6;
        // 8-lane blocks plus a tail (count not a multiple of 8 or 4)
        const mats = Array.from({ length: 37 }, (_, i) => roundTo(withCondition(n, kmax ** ((i % 6) / 5), rng,
          { complex: dtype.startsWith('complex'), scale: 2 ** ((i % 11) - 5) }), dtype));
        const r = linalg.invEx(toTensor(mats, dtype));
        const info = r.info.dataSync();
        mats.forEach((M, b) => {
          expect(info[b]).toBe(0);
          expect(ratioInv(M, fromTensor(r.inverse, b), dtype)).toBeLessThan(30);
        });
      });
    }
  }

  it('fast-check: agrees with mathjs inv on well-conditioned float64 matrices', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 16, maxLength: 16 }),
      (n, vals) => {
        const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => vals[i * n + j] + (i === j ? 40 : 0)));
        const X = linalg.inv(Tensor.fromStorage('float64', [n, n], Float64Array.from(rows.flat()))).dataSync();
        const ref = math.inv(rows) as number[][];
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(Math.abs(X[i * n + j] - ref[i][j])).toBeLessThan(1e-13);
      }), { numRuns: 200 });
  });

  it('fast-check: complex128 agrees with mathjs inv', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 32, maxLength: 32 }),
      (n, vals) => {
        const data = new Float64Array(2 * n * n);
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
          data[2 * (i * n + j)] = vals[2 * (i * n + j)] + (i === j ? 30 : 0);
          data[2 * (i * n + j) + 1] = vals[2 * (i * n + j) + 1];
        }
        const X = linalg.inv(Tensor.fromStorage('complex128', [n, n], data)).dataSync();
        const M = math.matrix(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => math.complex(data[2 * (i * n + j)], data[2 * (i * n + j) + 1]))));
        const ref = (math.inv(M) as unknown as { toArray(): Array<Array<{ re: number; im: number }>> }).toArray();
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
          expect(Math.hypot(X[2 * (i * n + j)] - ref[i][j].re, X[2 * (i * n + j) + 1] - ref[i][j].im)).toBeLessThan(1e-13);
        }
      }), { numRuns: 100 });
  });

  for (const dtype of REAL) {
    for (const n of [2, 3, 4]) {
      it(`${dtype} n=${n}: singular → info = first zero pivot, NaN/Inf → −1, neighbours bit-identical`, () => {
        const rng = new Rng(n);
        const mats = Array.from({ length: 19 }, () => roundTo(withCondition(n, 10, rng), dtype));
        const S = new Mat(n, n);
        for (let j = 0; j < n; j++) { S.set(0, j, j + 1); S.set(n - 1, j, 2 * (j + 1)); }
        for (let i = 1; i < n - 1; i++) S.set(i, i, 1);
        mats[3] = S;
        const Z = new Mat(n, n); // all zeros: pivot 1
        mats[9] = Z;
        mats[10] = mats[10].clone(); mats[10].set(n - 1, n - 1, NaN);
        mats[17] = mats[17].clone(); mats[17].set(0, 1, -Infinity);
        const r = linalg.invEx(toTensor(mats, dtype));
        const info = Array.from(r.info.dataSync());
        expect(info[3]).toBe(n); // the 2× row cancels at the last pivot
        expect(info[9]).toBe(1);
        expect(info[10]).toBe(-1);
        expect(info[17]).toBe(-1);
        for (const b of [3, 9, 10, 17]) {
          const X = fromTensor(r.inverse, b);
          for (let k = 0; k < n * n; k++) expect(X.data[2 * k]).toBeNaN();
        }
        for (let b = 0; b < 19; b++) {
          if ([3, 9, 10, 17].includes(b)) continue;
          expect(info[b]).toBe(0);
          const alone = linalg.inv(toTensor([mats[b]], dtype));
          expect(Array.from(fromTensor(r.inverse, b).data)).toEqual(Array.from(fromTensor(alone).data));
        }
        expect(() => linalg.inv(toTensor(mats, dtype))).toThrow(/singular|NaN|Inf/);
      });
    }
  }

  it('subnormal pivots are divided, not multiplied by a rounded reciprocal', () => {
    // float32 subnormal t with finite 1/t, and a with fl(a/t) ≠ fl(a·fl(1/t))
    const t = 2097303 * 2 ** -149;
    const a = Math.fround((3 * t) / 7);
    expect(Math.fround(a / t)).not.toBe(Math.fround(a * Math.fround(1 / t)));
    for (const count of [1, 9]) {
      const data = new Float32Array(count * 4);
      for (let b = 0; b < count; b++) data.set(b === 0 ? [t, a, 0, 1] : [2, 1, 1, 3], b * 4);
      const r = linalg.invEx(Tensor.fromStorage('float32', [count, 2, 2], data));
      expect(r.info.dataSync()[0]).toBe(0);
      const X = r.inverse.dataSync();
      expect(X[1]).toBe(-Math.fround(a / t));
      expect(Number.isFinite(X[0])).toBe(true);
    }
  });

  it('a large batch (100,003 float32 4×4) matches per-matrix results of a small batch', () => {
    const count = 100_003;
    const rng = new Rng(99);
    const data = new Float32Array(count * 16);
    for (let i = 0; i < data.length; i++) data[i] = rng.normal();
    for (let b = 0; b < count; b++) for (let k = 0; k < 4; k++) data[b * 16 + 5 * k] += 4;
    const X = linalg.inv(Tensor.fromStorage('float32', [count, 4, 4], data)).dataSync();
    for (const b of [0, 7, 8, 50_000, count - 3, count - 1]) {
      const one = linalg.inv(Tensor.fromStorage('float32', [4, 4], data.slice(b * 16, b * 16 + 16))).dataSync();
      expect(Array.from(X.slice(b * 16, b * 16 + 16))).toEqual(Array.from(one));
    }
  });
});
