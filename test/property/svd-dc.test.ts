import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, type FloatDType } from '../../src/index.js';
import {
  type M, fromTensor, toTensor, randomM, mul, adj, fro, epsD, orthErr, sub, withSingularValues, geometric, scaleM,
  usv, isComplexD,
} from '../helpers/spectra.js';

// svd with vectors of ungraded input with min(m, n) ≥ 72 (complex: ≥ 16) takes the bidiagonal route
// (gebrd — zgebrd's real bidiagonal for complex input —, divide and conquer on the
// bidiagonal, native/src/svd/bdsdc.cpp; smaller sizes run in native/tests/test_svd_dc.cpp).
// LAPACK's ratios (with Uᴴ, Vᴴ), the values against svdvals (dqds), on sizes around the
// leaf (25) and the merges, deflating spectra, scaling; real and complex.
const ALL: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const round = (a: M, dtype: FloatDType): M => fromTensor(toTensor([a], dtype));

function check(a: M, dtype: FloatDType, fullMatrices: boolean): void {
  const { U, S, Vh } = linalg.svd(toTensor([a], dtype, []), { fullMatrices });
  const k = Math.min(a.m, a.n), eps = epsD(dtype), mx = Math.max(a.m, a.n, 1);
  expect(U.shape).toEqual([a.m, fullMatrices ? a.m : k]);
  expect(Vh.shape).toEqual([fullMatrices ? a.n : k, a.n]);
  const s = S.dataSync();
  const u = fromTensor(U), vh = fromTensor(Vh);
  for (let i = 0; i < k; i++) {
    expect(s[i]).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(s[i]).toBeLessThanOrEqual(s[i - 1]);
  }
  const na = fro(a);
  if (na > 0) expect(fro(sub(a, usv(u, s, vh))) / (mx * eps * na)).toBeLessThan(30);
  if (u.n > 0) expect(orthErr(u) / (Math.max(u.n, 1) * eps)).toBeLessThan(30);
  if (vh.m > 0) expect(orthErr(adj(vh)) / (Math.max(vh.m, 1) * eps)).toBeLessThan(30);
  const sv = linalg.svdvals(toTensor([a], dtype, [])).dataSync();
  for (let i = 0; i < k; i++) expect(Math.abs(s[i] - sv[i])).toBeLessThanOrEqual(30 * k * eps * sv[0]);
}

describe('svd with vectors by bidiagonal divide and conquer', () => {
  for (const dtype of ALL) {
    const cx = isComplexD(dtype);
    it(`${dtype}: square sizes from the route's 72 up, around the merges and powers of two, reduced and full`, () => {
      const rng = new Rng(1717);
      for (const n of cx ? [72, 97, 128, 129] : [72, 73, 100, 101, 128, 129]) {
        check(round(randomM(n, n, rng, cx), dtype), dtype, n % 2 === 0);
      }
    });

    if (cx) {
      it(`${dtype}: from the complex route's 16 up (one unblocked panel), tall and wide, reduced and full`, () => {
        const rng = new Rng(1716);
        for (const [m, n] of [[16, 16], [17, 17], [33, 33], [40, 16], [16, 40], [26, 17], [17, 26]]) {
          for (const full of [false, true]) check(round(randomM(m, n, rng, true), dtype), dtype, full);
        }
      });
    }

    it(`${dtype}: tall and wide (the QR-first crossover at 1.6), reduced and full`, () => {
      const rng = new Rng(1718);
      for (const [m, n] of [[200, 80], [80, 200], [120, 80], [80, 120], [130, 80], [80, 130]]) {
        for (const full of [false, true]) check(round(randomM(m, n, rng, cx), dtype), dtype, full);
      }
    });

    it(`${dtype}: repeated, clustered and zero singular values (deflation)`, () => {
      const rng = new Rng(1719);
      const n = 90;
      const spectra = [
        Array.from({ length: n }, (_, i) => (i < 45 ? 1 : 0.5)),
        Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0.25) * (1 + 1e-13 * i)),
        [...geometric(10, 2, 1), ...new Array(n - 10).fill(0)],
      ];
      for (const sig of spectra) check(round(withSingularValues(n, n, sig, rng, cx), dtype), dtype, false);
      check(round(mul(randomM(90, 9, rng, cx), randomM(9, 100, rng, cx)), dtype), dtype, true);
    });

    it(`${dtype}: tiny and huge entries`, () => {
      const rng = new Rng(1720);
      const a = randomM(100, 80, rng, cx);
      const single = dtype === 'float32' || dtype === 'complex64';
      for (const sc of single ? [1e-30, 1e30] : [1e-300, 1e300]) check(round(scaleM(a, sc), dtype), dtype, false);
    });
  }

  it('random shapes 72 … 110 (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 72, max: 110 }), fc.integer({ min: 72, max: 110 }), fc.integer({ min: 0, max: 1e6 }),
      fc.constantFrom(...ALL), fc.boolean(), (m, n, seed, dtype, full) => {
        check(round(randomM(m, n, new Rng(seed), isComplexD(dtype)), dtype), dtype, full);
      }), { numRuns: 24, seed: 1721 });
  });
});
