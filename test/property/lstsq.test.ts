import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, tensor, ShapeError, ArgumentError, type FloatDType } from '../../src/index.js';
import {
  type M, fromTensor, toTensor, randomM, randomUnitary, cols, mul, adj, sub, fro, epsD, isComplexD, geometric,
  scaleCols, zerosM, withSingularValues,
} from '../helpers/spectra.js';

const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
const round = (a: M, dtype: FloatDType): M => fromTensor(toTensor([a], dtype));

/** Solves the square system G·X = H by Gaussian elimination with partial pivoting (complex, float64). */
function solveRef(G: M, H: M): M {
  const n = G.m, k = H.n;
  const a = { re: Float64Array.from(G.re), im: Float64Array.from(G.im) };
  const b = { re: Float64Array.from(H.re), im: Float64Array.from(H.im) };
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.hypot(a.re[r * n + c], a.im[r * n + c]) > Math.hypot(a.re[p * n + c], a.im[p * n + c])) p = r;
    for (const [arr, w] of [[a, n], [b, k]] as const) for (let j = 0; j < w; j++) {
      [arr.re[c * w + j], arr.re[p * w + j]] = [arr.re[p * w + j], arr.re[c * w + j]];
      [arr.im[c * w + j], arr.im[p * w + j]] = [arr.im[p * w + j], arr.im[c * w + j]];
    }
    const pr = a.re[c * n + c], pi = a.im[c * n + c], d = pr * pr + pi * pi;
    for (let r = c + 1; r < n; r++) {
      const xr = a.re[r * n + c], xi = a.im[r * n + c];
      const fr = (xr * pr + xi * pi) / d, fi = (xi * pr - xr * pi) / d;
      for (const [arr, w, j0] of [[a, n, c], [b, k, 0]] as const) for (let j = j0; j < w; j++) {
        const yr = arr.re[c * w + j], yi = arr.im[c * w + j];
        arr.re[r * w + j] -= fr * yr - fi * yi; arr.im[r * w + j] -= fr * yi + fi * yr;
      }
    }
  }
  const x = zerosM(n, k);
  for (let j = 0; j < k; j++)
    for (let i = n - 1; i >= 0; i--) {
      let sr = b.re[i * k + j], si = b.im[i * k + j];
      for (let p = i + 1; p < n; p++) {
        const ar = a.re[i * n + p], ai = a.im[i * n + p], yr = x.re[p * k + j], yi = x.im[p * k + j];
        sr -= ar * yr - ai * yi; si -= ar * yi + ai * yr;
      }
      const pr = a.re[i * n + i], pi = a.im[i * n + i], d = pr * pr + pi * pi;
      x.re[i * k + j] = (sr * pr + si * pi) / d; x.im[i * k + j] = (si * pr - sr * pi) / d;
    }
  return x;
}

function relErr(x: M, ref: M): number {
  return fro(sub(x, ref)) / fro(ref);
}

describe('lstsq: full rank', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: tall (normal equations), wide (minimum norm Aᴴ(AAᴴ)⁻¹B), square`, () => {
      const rng = new Rng(301);
      const tol = 200 * epsD(dtype);
      for (const [m, n, k] of [[12, 5, 3], [30, 30, 2], [5, 12, 4], [1, 3, 1], [3, 1, 2]]) {
        // Well conditioned (κ = 10): the normal equations are an accurate reference.
        const a = round(withSingularValues(m, n, geometric(Math.min(m, n), 1, 0.1), rng, isComplexD(dtype)), dtype);
        const b = round(randomM(m, k, rng, isComplexD(dtype)), dtype);
        const r = linalg.lstsq(toTensor([a], dtype, []), toTensor([b], dtype, []));
        const x = fromTensor(r.solution);
        expect(r.solution.shape).toEqual([n, k]);
        const ref = m >= n ? solveRef(mul(adj(a), a), mul(adj(a), b)) : mul(adj(a), solveRef(mul(a, adj(a)), b));
        expect(relErr(x, ref)).toBeLessThan(tol * 100);
        expect(Array.from(r.rank.dataSync())).toEqual([Math.min(m, n)]);
        expect(r.singularValues.shape).toEqual([Math.min(m, n)]);
        if (m > n) {
          expect(r.residuals.shape).toEqual([k]);
          const res = sub(b, mul(a, x));
          for (let j = 0; j < k; j++) {
            let s = 0;
            for (let i = 0; i < m; i++) s += res.re[i * k + j] ** 2 + res.im[i * k + j] ** 2;
            expect(Math.abs(r.residuals.dataSync()[j] - s)).toBeLessThan(1e3 * epsD(dtype) * fro(b) ** 2);
          }
        } else {
          expect(r.residuals.shape).toEqual([0]);
        }
      }
    });
  }
});

describe('lstsq: rank-deficient input gets the minimum-norm solution', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: against V·Σ⁺·Uᴴ·B from the known factors`, () => {
      const rng = new Rng(302);
      for (const [m, n, r] of [[14, 8, 3], [8, 14, 3], [10, 10, 6]]) {
        const cplx = isComplexD(dtype);
        const U = cols(randomUnitary(m, rng, cplx), 0, r), V = cols(randomUnitary(n, rng, cplx), 0, r);
        const sig = geometric(r, 2, 0.5);
        const a = round(mul(scaleCols(U, sig), adj(V)), dtype);
        const b = round(randomM(m, 2, rng, cplx), dtype);
        const res = linalg.lstsq(toTensor([a], dtype, []), toTensor([b], dtype, []));
        const ref = mul(scaleCols(V, sig.map((s) => 1 / s)), mul(adj(U), b));
        expect(relErr(fromTensor(res.solution), ref)).toBeLessThan(1e3 * Math.max(m, n) * epsD(dtype));
        expect(Array.from(res.rank.dataSync())).toEqual([r]);
        expect(res.residuals.shape).toEqual([0]);
      }
    });
  }

  it('random problems satisfy the normal equations and lie in the row space (fast-check)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }),
      fc.integer({ min: 0, max: 1e6 }), (m, n, r0, seed) => {
        const r = Math.min(r0, m, n);
        const rng = new Rng(seed);
        const U = cols(randomUnitary(m, rng, false), 0, r), V = cols(randomUnitary(n, rng, false), 0, r);
        const a = mul(scaleCols(U, geometric(r, 1, 0.2)), adj(V));
        const b = randomM(m, 2, rng, false);
        const x = fromTensor(linalg.lstsq(toTensor([a], 'float64', []), toTensor([b], 'float64', [])).solution);
        const eps = 2.220446049250313e-16 * 1e3;
        expect(fro(mul(adj(a), sub(b, mul(a, x))))).toBeLessThan(eps * fro(a) * fro(b) * 10);
        // Minimum norm: X has no component in null(A) = span(V)^⊥.
        const proj = sub(x, mul(V, mul(adj(V), x)));
        expect(fro(proj)).toBeLessThan(eps * (fro(x) + 1));
      }), { numRuns: 50 });
  });

  it('rcond raises the threshold', () => {
    const a = tensor([[1, 0], [0, 1e-6], [0, 0]]);
    const b = tensor([[1], [1], [1]]);
    expect(linalg.lstsq(a, b).solution.dataSync()[1]).toBeCloseTo(1e6, 2);
    const r = linalg.lstsq(a, b, { rcond: 1e-3 });
    expect(Array.from(r.solution.dataSync())).toEqual([1, 0]);
    expect(Array.from(r.rank.dataSync())).toEqual([1]);
  });
});

describe('lstsq: batches, vectors, errors', () => {
  it('broadcasts A (2,1,·,·) against B (3,·,·)', () => {
    const rng = new Rng(303);
    const As = [randomM(6, 3, rng, false), randomM(6, 3, rng, false)];
    const Bs = [randomM(6, 2, rng, false), randomM(6, 2, rng, false), randomM(6, 2, rng, false)];
    const r = linalg.lstsq(toTensor(As, 'float64', [2, 1]), toTensor(Bs, 'float64', [3]));
    expect(r.solution.shape).toEqual([2, 3, 3, 2]);
    expect(r.rank.shape).toEqual([2, 1]);
    expect(r.residuals.shape).toEqual([2, 3, 2]);
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < 3; j++) {
        const ref = solveRef(mul(adj(As[i]), As[i]), mul(adj(As[i]), Bs[j]));
        expect(relErr(fromTensor(r.solution, i * 3 + j), ref)).toBeLessThan(1e-12);
      }
  });

  it('a vector right-hand side gives a vector solution', () => {
    const r = linalg.lstsq([[1, 0], [0, 1], [1, 1]], tensor([1, 2, 3]));
    expect(r.solution.shape).toEqual([2]);
    const x = r.solution.dataSync();
    expect(Math.abs(x[0] - 1) + Math.abs(x[1] - 2)).toBeLessThan(1e-14);
    expect(r.residuals.dataSync()[0]).toBeLessThan(1e-28);
  });

  it('NaN in A gives a NaN solution and rank 0 for that member only', () => {
    const rng = new Rng(304);
    const As = [randomM(5, 3, rng, false), randomM(5, 3, rng, false)];
    As[0].re[2] = NaN;
    const r = linalg.lstsq(toTensor(As, 'float64'), toTensor([randomM(5, 1, rng, false), randomM(5, 1, rng, false)], 'float64'));
    expect(Array.from(r.rank.dataSync())).toEqual([0, 3]);
    expect(Array.from(fromTensor(r.solution, 0).re).every(Number.isNaN)).toBe(true);
    expect(Array.from(fromTensor(r.solution, 1).re).every(Number.isFinite)).toBe(true);
  });

  it('bad arguments throw typed errors', () => {
    expect(() => linalg.lstsq([[1, 2], [3, 4]], [[1], [2], [3]])).toThrow(ShapeError);
    expect(() => linalg.lstsq([[1, 2]], [[1]], { rcond: NaN })).toThrow(ArgumentError);
  });
});
