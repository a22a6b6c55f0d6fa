import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, tensor, ShapeError, ArgumentError, LinAlgError, type FloatDType } from '../../src/index.js';
import {
  type M, fromTensor, toTensor, randomM, randomUnitary, cols, mul, adj, sub, fro, epsD, isComplexD, geometric,
  scaleCols, zerosM, withSingularValues, scaleM,
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

/**
 * The first-order perturbation bound of least squares (Higham, ASNA §20.1) with a backward
 * error of max(m, n)·eps: ‖x − x*‖/‖x*‖ ≤ max(m, n)·eps·κ·(2 + (κ + 1)·tan θ), tan θ =
 * ‖r*‖/(‖A‖₂‖x*‖). A backward-stable solver stays under it (measured: ≤ 0.06 of it).
 */
function lsBound(m: number, n: number, dtype: FloatDType, kappa: number, normA: number, x: M, r: M): number {
  const tan = fro(r) / (normA * fro(x));
  return Math.max(m, n) * epsD(dtype) * kappa * (2 + (kappa + 1) * tan);
}

describe('lstsq: full rank', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: tall, wide (minimum norm), square, to the least-squares perturbation bound`, () => {
      const rng = new Rng(301);
      for (const [m, n, k] of [[12, 5, 3], [30, 30, 2], [5, 12, 4], [1, 3, 1], [3, 1, 2], [40, 26, 3], [26, 40, 2]]) {
        // A = U·diag(σ)·Vᴴ with κ = 10; x* = V·y lies in the row space (the minimum-norm
        // solution when wide) and b = A·x* + r* with r* ⟂ range(A): x* is the exact answer.
        const cplx = isComplexD(dtype), p = Math.min(m, n);
        const U = randomUnitary(m, rng, cplx), V = randomUnitary(n, rng, cplx);
        const a0 = mul(scaleCols(cols(U, 0, p), geometric(p, 1, 0.1)), adj(cols(V, 0, p)));
        const xs = mul(cols(V, 0, p), randomM(p, k, rng, cplx));
        const rs = m > p ? mul(cols(U, p, m), randomM(m - p, k, rng, cplx)) : zerosM(m, k);
        const b0 = mul(a0, xs);
        for (let i = 0; i < b0.re.length; i++) { b0.re[i] += rs.re[i]; b0.im[i] += rs.im[i]; }
        const a = round(a0, dtype), b = round(b0, dtype);
        const r = linalg.lstsq(toTensor([a], dtype, []), toTensor([b], dtype, []));
        const x = fromTensor(r.solution);
        expect(r.solution.shape).toEqual([n, k]);
        expect(relErr(x, xs)).toBeLessThan(lsBound(m, n, dtype, 10, 1, xs, rs));
        expect(Array.from(r.rank.dataSync())).toEqual([Math.min(m, n)]);
        expect(r.singularValues.shape).toEqual([Math.min(m, n)]);
        if (m > n) {
          expect(r.residuals.shape).toEqual([k]);
          const res = sub(b, mul(a, x));
          for (let j = 0; j < k; j++) {
            let s = 0;
            for (let i = 0; i < m; i++) s += res.re[i * k + j] ** 2 + res.im[i * k + j] ** 2;
            // The reported residual is ‖b − A·x‖² of the returned x, computed in the dtype.
            expect(Math.abs(r.residuals.dataSync()[j] - s) / (m * epsD(dtype) * fro(b) ** 2)).toBeLessThan(30);
          }
        } else {
          expect(r.residuals.shape).toEqual([0]);
        }
      }
    });
  }

  it('against the normal equations (an independent reference) on random κ = 10 problems', () => {
    const rng = new Rng(305);
    for (const [m, n, k] of [[12, 5, 3], [30, 30, 2], [5, 12, 4]]) {
      const a = withSingularValues(m, n, geometric(Math.min(m, n), 1, 0.1), rng, false);
      const b = randomM(m, k, rng, false);
      const x = fromTensor(linalg.lstsq(toTensor([a], 'float64', []), toTensor([b], 'float64', [])).solution);
      const ref = m >= n ? solveRef(mul(adj(a), a), mul(adj(a), b)) : mul(adj(a), solveRef(mul(a, adj(a)), b));
      // The normal equations' own error is κ²·eps-sized: the bound with κ² in place of κ.
      expect(relErr(x, ref)).toBeLessThan(lsBound(m, n, 'float64', 100, 1, ref, sub(b, mul(a, ref))));
    }
  });
});

describe('lstsq: near under/overflow (gelsd scaling)', () => {
  // Entries near 1e-310 gave 1/σ = Inf and a NaN solution with full rank reported. Integer
  // data times 2^k is exact, and A, B are now brought near 1 by powers of two, so the
  // solution is exactly that of the unscaled problem times 2^(kB − kA).
  const cases: [number[][], number[][]][] = [
    [[[1, 2], [3, 4], [5, 7]], [[1], [2], [3]]],             // x = [−1/14, 1/2], ‖r‖² = 1/14
    [[[1, 2, 3], [4, 5, 7]], [[1, 0], [2, 1]]],               // wide: minimum norm
    [[[2, 1], [1, 3]], [[1], [1]]],                            // square: x = [2/5, 1/5]
  ];
  const asM = (rows: number[][]): M => {
    const a = zerosM(rows.length, rows[0].length);
    rows.flat().forEach((v, i) => { a.re[i] = v; });
    return a;
  };
  for (const [dtype, kas, kbs] of [['float64', [-1060, -1000, 0, 900], [-1060, 0]], ['float32', [-140, -100, 0, 100], [-140, 0]], ['complex128', [-1060], [-1060]]] as const) {
    it(`${dtype}: A·2^kA, B·2^kB (kA ∈ {${kas.join(', ')}}) solve exactly as the unscaled problem`, () => {
      for (const [A, B] of cases) {
        const a = asM(A), b = asM(B);
        const ref = linalg.lstsq(toTensor([a], dtype, []), toTensor([b], dtype, []));
        const x0 = Array.from(ref.solution.dataSync()), s0 = Array.from(ref.singularValues.dataSync());
        for (const ka of kas)
          for (const kb of kbs) {
            if (kb - ka > 1000 || kb - ka < -1000) continue;  // the answer itself over/underflows
            const r = linalg.lstsq(toTensor([scaleM(a, 2 ** ka)], dtype, []), toTensor([scaleM(b, 2 ** kb)], dtype, []));
            const want = x0.map((v) => v * 2 ** (kb - ka));
            expect(Array.from(r.solution.dataSync())).toEqual(dtype === 'float32' ? want.map(Math.fround) : want);
            expect(Array.from(r.rank.dataSync())).toEqual([Math.min(a.m, a.n)]);
            const sv = s0.map((v) => v * 2 ** ka);
            expect(Array.from(r.singularValues.dataSync())).toEqual(dtype === 'float32' ? sv.map(Math.fround) : sv);
          }
      }
      // The first case's known answer, to the perturbation bound.
      const x = fromTensor(linalg.lstsq(toTensor([scaleM(asM(cases[0][0]), 2 ** kas[0])], dtype, []), toTensor([scaleM(asM(cases[0][1]), 2 ** kbs[0])], dtype, [])).solution);
      const xs = asM([[-1 / 14], [0.5]]);
      const a = asM(cases[0][0]);
      const sv = linalg.svdvals(toTensor([a], 'float64', [])).dataSync();
      expect(relErr(x, xs)).toBeLessThan(lsBound(3, 2, dtype, sv[0] / sv[1], sv[0], xs, sub(asM(cases[0][1]), mul(a, xs))));
    });
  }

  it('batched with broadcasting, one scale per member', () => {
    const a = asM(cases[0][0]), b = asM(cases[0][1]);
    const x0 = Array.from(linalg.lstsq(toTensor([a], 'float64', []), toTensor([b], 'float64', [])).solution.dataSync());
    const ks = [-1060, -1000, 0];
    const r = linalg.lstsq(toTensor(ks.map((k) => scaleM(a, 2 ** k)), 'float64', [3]), toTensor([scaleM(b, 2 ** -1060)], 'float64', []));
    expect(r.solution.shape).toEqual([3, 2, 1]);
    expect(Array.from(r.solution.dataSync())).toEqual(ks.flatMap((k) => x0.map((v) => v * 2 ** (-1060 - k))));
    expect(Array.from(r.rank.dataSync())).toEqual([2, 2, 2]);
  });
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

describe("lstsq: gelsd's full-rank QR route and its SVD fallback", () => {
  // Where every member is of full rank by the threshold, gelsd's answer comes from a QR, the
  // values of R and a triangular solve; otherwise the whole batch goes through the SVD.
  const problem = (m: number, n: number, sig: number[], rng: Rng) => {
    const p = sig.length, U = randomUnitary(m, rng, false), V = randomUnitary(n, rng, false);
    const a = mul(scaleCols(cols(U, 0, p), sig), adj(cols(V, 0, p)));
    return { a, U, V };
  };

  it('κ = 1e10, full rank by the default threshold: rank, the values of A, the solution to the perturbation bound', () => {
    const rng = new Rng(306);
    for (const [m, n] of [[40, 20], [20, 40], [25, 25]]) {
      const p = Math.min(m, n), sig = geometric(p, 1, 1e-10);
      const { a, U, V } = problem(m, n, sig, rng);
      const xs = mul(cols(V, 0, p), randomM(p, 3, rng, false));
      const rs = m > p ? mul(cols(U, p, m), randomM(m - p, 3, rng, false)) : zerosM(m, 3);
      const b = mul(a, xs);
      for (let i = 0; i < b.re.length; i++) b.re[i] += rs.re[i];
      const r = linalg.lstsq(toTensor([a], 'float64', []), toTensor([b], 'float64', []));
      expect(Array.from(r.rank.dataSync())).toEqual([p]);
      expect(relErr(fromTensor(r.solution), xs)).toBeLessThan(lsBound(m, n, 'float64', 1e10, 1, xs, rs));
      const s = r.singularValues.dataSync();
      // gelsd's bound: each value within a small multiple of eps·σ_max.
      for (let i = 0; i < p; i++) expect(Math.abs(s[i] - sig[i]) / (p * epsD('float64'))).toBeLessThan(30);
      expect(r.residuals.shape).toEqual(m > n ? [3] : [0]);
    }
  });

  it('a value under the threshold gives rank n − 1 and the minimum-norm solution without it', () => {
    const rng = new Rng(307);
    for (const [m, n] of [[30, 10], [10, 30]]) {
      const p = Math.min(m, n), sig = [...geometric(p - 1, 1, 0.1), 1e-17];
      const { a, U, V } = problem(m, n, sig, rng);
      const b = randomM(m, 2, rng, false);
      const r = linalg.lstsq(toTensor([a], 'float64', []), toTensor([b], 'float64', []));
      expect(Array.from(r.rank.dataSync())).toEqual([p - 1]);
      const keep = sig.slice(0, p - 1);
      const ref = mul(scaleCols(cols(V, 0, p - 1), keep.map((v) => 1 / v)), mul(adj(cols(U, 0, p - 1)), b));
      expect(relErr(fromTensor(r.solution), ref)).toBeLessThan(1e3 * Math.max(m, n) * epsD('float64'));
      expect(r.residuals.shape).toEqual([0]);
    }
  });

  it('a batch with one rank-deficient member: each member as on its own, no residuals', () => {
    const rng = new Rng(308);
    const full = () => randomM(8, 5, rng, false);
    const As = [full(), problem(8, 5, [2, 1], rng).a, full()];
    const Bs = As.map(() => randomM(8, 2, rng, false));
    const r = linalg.lstsq(toTensor(As, 'float64', [3]), toTensor(Bs, 'float64', [3]));
    expect(Array.from(r.rank.dataSync())).toEqual([5, 2, 5]);
    expect(r.residuals.shape).toEqual([0]);
    As.forEach((a, i) => {
      const one = linalg.lstsq(toTensor([a], 'float64', []), toTensor([Bs[i]], 'float64', []));
      expect(relErr(fromTensor(r.solution, i), fromTensor(one.solution))).toBeLessThan(1e-12);
      const s = r.singularValues.dataSync(), s1 = one.singularValues.dataSync();
      for (let j = 0; j < 5; j++) expect(Math.abs(s[i * 5 + j] - s1[j])).toBeLessThan(1e-13);
    });
    // All of full rank: the residuals of each member.
    const ok = [As[0], As[2]], okB = [Bs[0], Bs[2]];
    const q = linalg.lstsq(toTensor(ok, 'float64', [2]), toTensor(okB, 'float64', [2]));
    expect(q.residuals.shape).toEqual([2, 2]);
    ok.forEach((a, i) => {
      const res = sub(okB[i], mul(a, fromTensor(q.solution, i)));
      for (let j = 0; j < 2; j++) {
        let e = 0;
        for (let t = 0; t < 8; t++) e += res.re[t * 2 + j] ** 2;
        expect(Math.abs(q.residuals.dataSync()[i * 2 + j] - e)).toBeLessThan(1e-13 * (1 + e));
      }
    });
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

describe("lstsq driver 'gels' (QR, full rank)", () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: tall, square and wide agree with 'gelsd' (broadcast batch)`, () => {
      const rng = new Rng(401);
      const cplx = isComplexD(dtype);
      for (const [m, n] of [[9, 4], [5, 5], [4, 9]]) {
        const As = [randomM(m, n, rng, cplx), randomM(m, n, rng, cplx)];
        const Bs = [randomM(m, 3, rng, cplx), randomM(m, 3, rng, cplx), randomM(m, 3, rng, cplx)];
        const A = toTensor(As, dtype, [2, 1]), B = toTensor(Bs, dtype, [3]);
        const q = linalg.lstsq(A, B, { driver: 'gels' }), s = linalg.lstsq(A, B);
        expect(q.driver).toBe('gels');
        expect(s.driver).toBe('gelsd');
        expect(q.solution.shape).toEqual([2, 3, n, 3]);
        expect(Array.from(q.rank.dataSync())).toEqual([Math.min(m, n), Math.min(m, n)]);
        expect(q.singularValues.shape).toEqual([0]);
        const tol = 200 * Math.max(m, n) * epsD(dtype);
        for (let f = 0; f < 6; f++) expect(relErr(fromTensor(q.solution, f), fromTensor(s.solution, f))).toBeLessThan(tol);
        if (m > n) {
          expect(q.residuals.shape).toEqual([2, 3, 3]);
          const rq = q.residuals.dataSync(), rs = s.residuals.dataSync();
          rq.forEach((v, i) => expect(Math.abs(v - rs[i])).toBeLessThan(tol * rs[i] + 1e-30));
        } else {
          expect(q.residuals.shape).toEqual([0]);
        }
        // wide: the minimum-norm solution lies in A's row space (gelsd's answer, checked above)
      }
    });
  }

  it('rank-deficient A throws LinAlgError naming gelsd; NaN gives NaN; vector B; bad driver', () => {
    const a = tensor([[1, 2], [2, 4], [3, 6]]);
    expect(() => linalg.lstsq(a, [[1], [2], [3]], { driver: 'gels' })).toThrow(/rank-deficient.*'gelsd'/);
    expect(() => linalg.lstsq(tensor([[1, 2, 3], [2, 4, 6]]), [[1], [2]], { driver: 'gels' })).toThrow(LinAlgError);
    const r = linalg.lstsq(tensor([[1, NaN], [0, 1], [1, 1]]), [1, 2, 3], { driver: 'gels' });
    expect(Array.from(r.solution.dataSync()).every(Number.isNaN)).toBe(true);
    const v = linalg.lstsq([[1, 0], [0, 1], [1, 1]], tensor([1, 2, 3]), { driver: 'gels' });
    expect(v.solution.shape).toEqual([2]);
    expect(v.residuals.shape).toEqual([]);
    const x = v.solution.dataSync();
    expect(Math.abs(x[0] - 1) + Math.abs(x[1] - 2)).toBeLessThan(1e-14);
    expect(() => linalg.lstsq([[1]], [[1]], { driver: 'svd' as never })).toThrow(/lstsq: .*driver/);
  });

  it('scaled entries near 1e-300 and 1e300 keep the solution (power-of-two scaling)', () => {
    const rng = new Rng(402);
    const a = randomM(7, 3, rng, false), b = randomM(7, 2, rng, false);
    const ref = linalg.lstsq(toTensor([a], 'float64', []), toTensor([b], 'float64', []), { driver: 'gels' }).solution;
    for (const [sa, sb] of [[1e-300, 1], [1e300, 1e290], [1e-300, 1e-290], [1, 1e300]]) {
      const r = linalg.lstsq(toTensor([scaleM(a, sa)], 'float64', []), toTensor([scaleM(b, sb)], 'float64', []), { driver: 'gels' });
      expect(relErr(fromTensor(r.solution), scaleM(fromTensor(ref), sb / sa))).toBeLessThan(1e-13);
    }
  });
});
