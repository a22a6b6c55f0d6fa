import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, tensor, ShapeError, ArgumentError, type FloatDType } from '../../src/index.js';
import {
  type M, fromTensor, toTensor, randomM, mul, adj, sub, fro, epsD, isComplexD, withSingularValues, geometric, zerosM,
  scaleM,
} from '../helpers/spectra.js';

const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const round = (a: M, dtype: FloatDType): M => fromTensor(toTensor([a], dtype));

/** The four Moore–Penrose conditions as LAPACK-style ratios (never mathjs pinv). */
function penrose(a: M, x: M, dtype: FloatDType): number[] {
  const eps = epsD(dtype) * Math.max(a.m, a.n);
  const na = fro(a), nx = fro(x);
  const ax = mul(a, x), xa = mul(x, a);
  return [
    fro(sub(mul(ax, a), a)) / (na * nx * na * eps),
    fro(sub(mul(xa, x), x)) / (nx * na * nx * eps),
    fro(sub(adj(ax), ax)) / (na * nx * eps),
    fro(sub(adj(xa), xa)) / (na * nx * eps),
  ];
}

function expectPenrose(a: M, x: M, dtype: FloatDType): void {
  for (const r of penrose(a, x, dtype)) expect(r).toBeLessThan(50);
}

describe('pinv: the four Penrose conditions', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: full-rank tall, wide, square`, () => {
      const rng = new Rng(201);
      for (const [m, n] of [[9, 5], [5, 9], [7, 7], [1, 4], [40, 33]]) {
        const a = round(randomM(m, n, rng, isComplexD(dtype)), dtype);
        const X = linalg.pinv(toTensor([a], dtype, []));
        expect(X.shape).toEqual([n, m]);
        expectPenrose(a, fromTensor(X), dtype);
      }
    });

    it(`${dtype}: rank-deficient (rank 32 of 128×64, as in mathjs issue #3373) and rank 3 of 10×12`, () => {
      const rng = new Rng(202);
      for (const [m, n, r] of [[128, 64, 32], [10, 12, 3]]) {
        const sig = [...geometric(r, 1, 0.1), ...new Array(Math.min(m, n) - r).fill(0)];
        const a = round(withSingularValues(m, n, sig.slice(0, r), rng, isComplexD(dtype)), dtype);
        const x = fromTensor(linalg.pinv(toTensor([a], dtype, [])));
        expectPenrose(a, x, dtype);
        expect(linalg.matrixRank(toTensor([a], dtype, [])).dataSync()[0]).toBe(r);
      }
    });
  }

  it('random shapes and ranks (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 1e6 }), fc.constantFrom(...DTYPES), (m, n, r0, seed, dtype) => {
        const r = Math.min(r0, m, n);
        const rng = new Rng(seed);
        const a = r === 0 ? zerosM(m, n) : round(withSingularValues(m, n, geometric(r, 2, 0.3), rng, isComplexD(dtype)), dtype);
        const x = fromTensor(linalg.pinv(toTensor([a], dtype, [])));
        if (r === 0) expect(fro(x)).toBe(0);
        else expectPenrose(a, x, dtype);
      }), { numRuns: 60 });
  });

  it('badly scaled input (1e±300) still satisfies the conditions', () => {
    const rng = new Rng(203);
    for (const sc of [1e150, 1e-150]) {
      const a = withSingularValues(8, 6, geometric(6, sc, sc * 1e-3), rng, false);
      expectPenrose(a, fromTensor(linalg.pinv(toTensor([a], 'float64', []))), 'float64');
    }
  });
});

describe('pinv: options, batches, edge cases', () => {
  it('atol/rtol follow torch: values ≤ max(atol, rtol·σ_max) are dropped', () => {
    const a = tensor([[1, 0, 0], [0, 1e-3, 0], [0, 0, 1e-8]]);
    const diag = (t: ReturnType<typeof linalg.pinv>) => [0, 4, 8].map((i) => t.dataSync()[i]);
    // Default rtol = 3·eps: all three values are kept.
    const d0 = diag(linalg.pinv(a));
    expect(d0[0]).toBe(1);
    expect(Math.abs(d0[1] / 1e3 - 1)).toBeLessThan(1e-14);
    expect(Math.abs(d0[2] / 1e8 - 1)).toBeLessThan(1e-14);
    expect(diag(linalg.pinv(a, { rtol: 1e-5 }))[2]).toBe(0);
    expect(diag(linalg.pinv(a, { rtol: 1e-5 }))[1]).toBeCloseTo(1e3, 6);
    expect(diag(linalg.pinv(a, { atol: 1e-2 }))).toEqual([1, 0, 0]);
    // A positive atol alone turns the default rtol off.
    expect(diag(linalg.pinv(a, { atol: 1e-9 }))[2]).toBeCloseTo(1e8, -1);
    expect(Array.from(linalg.matrixRank(a, { rtol: 1e-5 }).dataSync())).toEqual([2]);
    expect(Array.from(linalg.matrixRank(a, { atol: 0.5 }).dataSync())).toEqual([1]);
  });

  // The default cutoff, pinned with exact cases: SVDs of diagonal matrices are exact, so
  // σ = 4·eps·max(m, n) must be kept and σ = eps·max(m, n)/4 dropped (torch's default
  // rtol = eps·max(m, n) when atol is not given). A cutoff 1000× too large (the planted
  // mutant) gave 0 instead of 1e13 for diag(1, 1e-13) and passed every other test.
  for (const dtype of DTYPES) {
    it(`${dtype}: default rtol = eps·max(m, n) for pinv, matrixRank and lstsq`, () => {
      const eps = epsD(dtype), cplx = isComplexD(dtype);
      for (const [m, n] of [[2, 2], [3, 2], [2, 5], [6, 6]]) {
        const mx = Math.max(m, n);
        for (const [sig, kept] of [[4 * eps * mx, true], [eps * mx / 4, false]] as const) {
          const a = zerosM(m, n);
          a.re[0] = 1;
          a.re[n + 1] = sig;  // A(1, 1)
          const t = toTensor([a], dtype, []);
          const x = fromTensor(linalg.pinv(t));
          expect(x.re[0]).toBe(1);
          const want = kept ? 1 / sig : 0;
          expect(Math.abs(x.re[m + 1] - want)).toBeLessThanOrEqual(4 * eps * want);  // X(1, 1)
          expect(linalg.matrixRank(t).dataSync()[0]).toBe(kept ? 2 : 1);
          const b = zerosM(m, 1);
          b.re[0] = 1; b.re[1] = 1;
          const r = linalg.lstsq(t, toTensor([b], dtype, []));
          const sol = fromTensor(r.solution);
          expect(sol.re[0]).toBe(1);
          expect(Math.abs(sol.re[1] - want)).toBeLessThanOrEqual(4 * eps * want);
          expect(r.rank.dataSync()[0]).toBe(kept ? 2 : 1);
          if (cplx) expect(Array.from(x.im).every((v) => v === 0)).toBe(true);
        }
      }
    });
  }

  it('float64 diag(1, 1e-13): the pseudo-inverse keeps 1e13 (issue example)', () => {
    const a = tensor([[1, 0], [0, 1e-13]]);
    expect(Math.abs(linalg.pinv(a).dataSync()[3] / 1e13 - 1)).toBeLessThan(4 * epsD('float64'));
    expect(linalg.matrixRank(a).dataSync()[0]).toBe(2);
    expect(Math.abs(linalg.lstsq(a, tensor([1, 1])).solution.dataSync()[1] / 1e13 - 1)).toBeLessThan(4 * epsD('float64'));
  });

  it('near under/overflow: pinv(2^k·A) = 2^−k·pinv(A) exactly; overflow gives Inf, never NaN', () => {
    // Small integer entries: 2^k·A is exact down to the subnormals. 1/σ overflowed for
    // σ ≈ 1e-310 and V·diag(Inf)·Uᴴ made NaN; the input is now brought near 1 by a power
    // of two first, so the result is exactly that of A, scaled (Inf only where 2^−k·pinv(A)
    // itself overflows).
    const rng = new Rng(206);
    const ints = (m: number, n: number, cplx: boolean): M => {
      const a = zerosM(m, n);
      for (let i = 0; i < m * n; i++) { a.re[i] = Math.round(rng.normal() * 8); if (cplx) a.im[i] = Math.round(rng.normal() * 8); }
      return a;
    };
    for (const [dtype, ks, over] of [['float64', [-1000, -300, 1000], -1060], ['complex128', [-1000, 1000], -1060], ['float32', [-100, 100], -140], ['complex64', [-100, 100], -140]] as const) {
      for (const [m, n] of [[4, 3], [3, 5]]) {
        const base = ints(m, n, isComplexD(dtype));
        const t0 = toTensor([base], dtype, []);
        const ref = linalg.pinv(t0).dataSync(), rk = linalg.matrixRank(t0).dataSync()[0];
        for (const k of ks) {
          const a = toTensor([scaleM(base, 2 ** k)], dtype, []);
          expect(Array.from(a.dataSync()).map((v) => v * 2 ** -k)).toEqual(Array.from(t0.dataSync()));  // exact input
          const x = Array.from(linalg.pinv(a).dataSync());
          expect(x).toEqual(Array.from(ref).map((v) => v * 2 ** -k));
          expect(linalg.matrixRank(a).dataSync()[0]).toBe(rk);
        }
        const x = Array.from(linalg.pinv(toTensor([scaleM(base, 2 ** over)], dtype, [])).dataSync());
        expect(x.some(Number.isNaN)).toBe(false);
        expect(x.some((v) => !Number.isFinite(v))).toBe(true);
      }
    }
  });

  it('hermitian: reads only the lower triangle', () => {
    const rng = new Rng(204);
    const b = randomM(5, 5, rng, true);
    const h = mul(b, adj(b));
    for (let i = 0; i < 5; i++) h.im[i * 5 + i] = 0;
    const junk: M = { m: 5, n: 5, re: Float64Array.from(h.re), im: Float64Array.from(h.im) };
    for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) { junk.re[i * 5 + j] = NaN; junk.im[i * 5 + j] = 7; }
    const x = fromTensor(linalg.pinv(toTensor([junk], 'complex128', []), { hermitian: true }));
    expectPenrose(h, x, 'complex128');
    expect(() => linalg.pinv(toTensor([randomM(3, 4, rng, false)], 'float64', []), { hermitian: true })).toThrow(ShapeError);
  });

  it('batched, with one NaN member: NaN there, exact elsewhere', () => {
    const rng = new Rng(205);
    const mats = [randomM(6, 4, rng, false), randomM(6, 4, rng, false), randomM(6, 4, rng, false)];
    mats[1].re[3] = NaN;
    const X = linalg.pinv(toTensor(mats, 'float64'));
    expect(X.shape).toEqual([3, 4, 6]);
    expectPenrose(mats[0], fromTensor(X, 0), 'float64');
    expectPenrose(mats[2], fromTensor(X, 2), 'float64');
    expect(Array.from(fromTensor(X, 1).re).every(Number.isNaN)).toBe(true);
  });

  it('empty shapes and the zero matrix', () => {
    expect(linalg.pinv(tensor({ data: new Float64Array(0), shape: [0, 3] })).shape).toEqual([3, 0]);
    expect(linalg.pinv(tensor({ data: new Float64Array(0), shape: [2, 0] })).shape).toEqual([0, 2]);
    expect(Array.from(linalg.pinv(tensor([[0, 0], [0, 0]])).dataSync())).toEqual([0, 0, 0, 0]);
  });

  it('bad arguments throw typed errors', () => {
    expect(() => linalg.pinv([[1, 2]], { rtol: -1 })).toThrow(ArgumentError);
    expect(() => linalg.pinv([[1, 2]], { atol: NaN })).toThrow(ArgumentError);
    expect(() => linalg.pinv(tensor([1, 2]))).toThrow(ShapeError);
    expect(() => linalg.matrixRank(tensor([[NaN, 1], [1, 1]]))).toThrow(/NaN/);
  });
});
