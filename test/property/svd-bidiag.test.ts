import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, type FloatDType } from '../../src/index.js';
import {
  type M, toTensor, fromTensor, randomM, withSingularValues, geometric, scaleCols, scaleRows, epsD, mul,
} from '../helpers/spectra.js';

// Values-only calls on real, ungraded input take the bidiagonal route (gebrd + dqds/bdsqr,
// native/src/svd/bidiag.cpp); svd with vectors of such input takes gebrd + divide and
// conquer (svd-dc.test.ts), of graded input one-sided Jacobi. These tests hold svdvals
// against svd's values and check what the route promises: every value to eps·σ_max.
const REAL: FloatDType[] = ['float32', 'float64'];
const round = (a: M, dtype: FloatDType): M => fromTensor(toTensor([a], dtype));

function svdvalsVsJacobi(a: M, dtype: FloatDType): number {
  const t = toTensor([a], dtype, []);
  const s = linalg.svdvals(t).dataSync();
  const sj = linalg.svd(t, { fullMatrices: false }).S.dataSync();
  const k = Math.min(a.m, a.n);
  expect(s.length).toBe(k);
  let worst = 0;
  for (let i = 0; i < k; i++) {
    expect(s[i]).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(s[i]).toBeLessThanOrEqual(s[i - 1]);
    worst = Math.max(worst, Math.abs(s[i] - sj[i]));
  }
  return k === 0 || sj[0] === 0 ? 0 : worst / (Math.max(a.m, a.n) * epsD(dtype) * sj[0]);
}

describe('svdvals by bidiagonalization: against Jacobi', () => {
  for (const dtype of REAL) {
    it(`${dtype}: shapes across the panel width, the unblocked remainder and the QR-first crossover`, () => {
      const rng = new Rng(1702);
      const shapes = [[1, 1], [1, 6], [6, 1], [2, 2], [3, 7], [31, 31], [33, 32], [65, 65], [100, 100], [130, 97],
        [97, 130], [161, 100], [100, 161], [300, 90], [200, 200]];
      for (const [m, n] of shapes) expect(svdvalsVsJacobi(round(randomM(m, n, rng, false), dtype), dtype)).toBeLessThan(30);
    });
  }

  it('random shapes up to 48 (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 48 }), fc.integer({ min: 1, max: 48 }), fc.integer({ min: 0, max: 1e6 }),
      fc.constantFrom(...REAL), (m, n, seed, dtype) => {
        expect(svdvalsVsJacobi(round(randomM(m, n, new Rng(seed), false), dtype), dtype)).toBeLessThan(30);
      }), { numRuns: 60 });
  });

  it('known spectra (σ over 1 … 1e-12, repeated values, exact rank 5): each σ within eps·σ_max', () => {
    const rng = new Rng(17);
    const cases: [number, number, number[]][] = [
      [80, 60, geometric(60, 1, 1e-12)],
      [60, 60, Array.from({ length: 60 }, (_, i) => (i < 30 ? 2 : 1))],
      [70, 50, [...geometric(5, 3, 1), ...new Array(45).fill(0)]],
    ];
    for (const [m, n, sig] of cases) {
      const a = withSingularValues(m, n, sig, rng, false);
      const s = linalg.svdvals(toTensor([a], 'float64', [])).dataSync();
      for (let i = 0; i < n; i++) expect(Math.abs(s[i] - sig[i])).toBeLessThan(30 * m * epsD('float64') * sig[0]);
    }
  });

  it('norm(A, 2), cond and matrixRank agree with the SVD of the same input', () => {
    const rng = new Rng(5);
    const a = mul(randomM(90, 7, rng, false), randomM(7, 70, rng, false));  // rank 7
    const t = toTensor([a], 'float64', []);
    const sj = linalg.svd(t, { fullMatrices: false }).S.dataSync();
    expect(linalg.matrixRank(t).dataSync()[0]).toBe(7);
    const nrm = linalg.norm(t, 2).dataSync()[0];
    expect(Math.abs(nrm - sj[0]) / sj[0]).toBeLessThan(100 * epsD('float64'));
    const b = toTensor([randomM(64, 64, rng, false)], 'float64', []);
    const sb = linalg.svd(b).S.dataSync();
    const c = linalg.cond(b).dataSync()[0];
    expect(Math.abs(c - sb[0] / sb[63]) / c).toBeLessThan(64 * epsD('float64') * (sb[0] / sb[63]));
  });

  it('graded input (columns or rows scaled over 1 … 1e-12) keeps Jacobi: every value to high relative accuracy', () => {
    const rng = new Rng(9);
    const d = geometric(30, 1, 1e-12);
    const b = randomM(40, 30, rng, false);
    for (const a of [scaleCols(b, d), scaleRows(randomM(30, 40, rng, false), d)]) {
      const t = toTensor([a], 'float64', []);
      const s = linalg.svdvals(t).dataSync();
      const sj = linalg.svd(t, { fullMatrices: false }).S.dataSync();
      for (let i = 0; i < 30; i++) expect(Math.abs(s[i] - sj[i]) / sj[i]).toBeLessThan(30 * 40 * epsD('float64'));
    }
  });
});
