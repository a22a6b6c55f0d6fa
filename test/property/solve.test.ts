import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, tensor, Rng, LinAlgError, ShapeError, ArgumentError, Tensor } from '../../src/index.js';
import {
  Mat, DTYPES, withCondition, randomMatrix, fromTensor, toTensor, ratioSolve, graded, roundTo,
} from '../helpers/matrices.js';
import { epsOf, type FloatDType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
// Block sizes are explicit kernel parameters (LuParams): shrunken blocks at small n are
// checked in C++ (native/tests/test_blocking.cpp); here sizes cross the default block
// edges (TRSM block 32, LU crossover 64).
const cplx = (dt: FloatDType) => dt.startsWith('complex');

function worstSolveRatio(A: Tensor, B: Tensor, X: Tensor): number {
  let worst = 0;
  const count = X.size / (X.rows * X.cols) || 0;
  for (let b = 0; b < count; b++) {
    worst = Math.max(worst, ratioSolve(fromTensor(A, b), fromTensor(X, b), fromTensor(B, b), A.dtype as FloatDType));
  }
  return worst;
}

describe('solve: backward error (LAPACK dget02 < 30)', () => {
  for (const dt of DTYPES) {
    it(`${dt}, sizes across the default block edges`, () => {
      const rng = new Rng(21);
      for (const n of [1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 65, 70]) {
        for (const k of [1, 3, 8]) {
          for (const cond of dt === 'float64' || dt === 'complex128' ? [1, 1e5, 1e13] : [1, 1e3, 1e6]) {
            const A = toTensor([withCondition(n, cond, rng, { complex: cplx(dt) })], dt);
            const B = toTensor([randomMatrix(n, k, rng, { complex: cplx(dt) })], dt);
            const X = linalg.solve(A, B);
            expect(X.shape).toEqual([n, k]);
            expect(worstSolveRatio(A, B, X)).toBeLessThan(30);
          }
        }
      }
    });
  }
  it('n = 130, 40 right-hand sides (recursive LU, blocked TRSM with GEMM updates)', () => {
    const rng = new Rng(22);
    for (const dt of DTYPES) {
      const A = toTensor([withCondition(130, 1e8, rng, { complex: cplx(dt) })], dt);
      const B = toTensor([randomMatrix(130, 40, rng, { complex: cplx(dt) })], dt);
      expect(worstSolveRatio(A, B, linalg.solve(A, B))).toBeLessThan(30);
    }
  });
  it('graded and near-overflow inputs', () => {
    const rng = new Rng(23);
    const G = toTensor([graded(25, 0.2, rng)], 'float64');
    const B = toTensor([randomMatrix(25, 2, rng)], 'float64');
    expect(worstSolveRatio(G, B, linalg.solve(G, B))).toBeLessThan(30);
    const big = toTensor([withCondition(10, 10, rng).scaleRows(Array.from({ length: 10 }, (_, i) => (i < 3 ? 1e300 : 1)))], 'float64');
    const Bb = toTensor([randomMatrix(10, 1, rng).scaleRows(Array.from({ length: 10 }, (_, i) => (i < 3 ? 1e300 : 1)))], 'float64');
    const X = linalg.solve(big, Bb);
    for (const v of X.dataSync()) expect(Number.isFinite(v)).toBe(true);
    expect(worstSolveRatio(big, Bb, X)).toBeLessThan(30);
  });
});

describe('solve: against mathjs lusolve', () => {
  it('real', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 1e6 }), (n, seed) => {
      const rng = new Rng(seed);
      const A = withCondition(n, 100, rng), b = randomMatrix(n, 1, rng);
      const x = linalg.solve(toTensor([A], 'float64'), toTensor([b], 'float64'));
      const ref = (math.lusolve(A.toRealArray(), b.toRealArray()) as number[][]).map((r) => r[0]);
      const got = Array.from(x.dataSync());
      const scale = Math.max(...ref.map(Math.abs));
      got.forEach((v, i) => expect(Math.abs(v - ref[i])).toBeLessThan(1e-11 * scale));
    }), { numRuns: 40 });
  });
  it('complex (mathjs Complex)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 1e6 }), (n, seed) => {
      const rng = new Rng(seed);
      const A = withCondition(n, 50, rng, { complex: true }), b = randomMatrix(n, 1, rng, { complex: true });
      const mA = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => math.complex(A.re(i, j), A.im(i, j))));
      const mb = Array.from({ length: n }, (_, i) => [math.complex(b.re(i, 0), b.im(i, 0))]);
      const ref = math.lusolve(mA, mb) as unknown as { re: number; im: number }[][];
      const x = fromTensor(linalg.solve(toTensor([A], 'complex128'), toTensor([b], 'complex128')));
      for (let i = 0; i < n; i++) {
        expect(Math.hypot(x.re(i, 0) - ref[i][0].re, x.im(i, 0) - ref[i][0].im)).toBeLessThan(1e-11 * (1 + Math.hypot(ref[i][0].re, ref[i][0].im)) * 10);
      }
    }), { numRuns: 30 });
  });
});

describe('solve: shapes, broadcasting, vectors, left=false', () => {
  it('A (2,1,n,n) with B (3,n,k) gives (2,3,n,k), each the solve of its own pair', () => {
    const rng = new Rng(31);
    const n = 5, k = 2;
    const As = [0, 1].map(() => withCondition(n, 10, rng));
    const Bs = [0, 1, 2].map(() => randomMatrix(n, k, rng));
    const X = linalg.solve(toTensor(As, 'float64', [2, 1]), toTensor(Bs, 'float64', [3]));
    expect(X.shape).toEqual([2, 3, n, k]);
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < 3; j++) {
        const x1 = linalg.solve(toTensor([As[i]], 'float64'), toTensor([Bs[j]], 'float64')).dataSync();
        expect(fromTensor(X, i * 3 + j).data.filter((_, q) => q % 2 === 0)).toEqual(Float64Array.from(x1));
      }
  });
  it('one A broadcast over a batch of B is factored once: same accuracy, shared status', () => {
    const rng = new Rng(33);
    for (const dt of DTYPES) {
      const n = 40;
      const A = withCondition(n, 1e3, rng, { complex: cplx(dt) });
      const Bs = [0, 1, 2, 3, 4].map(() => randomMatrix(n, 3, rng, { complex: cplx(dt) }));
      const X = linalg.solve(toTensor([A], dt, [1]), toTensor(Bs, dt));
      expect(X.shape).toEqual([5, n, 3]);
      for (let b = 0; b < 5; b++) expect(ratioSolve(fromTensor(toTensor([A], dt)), fromTensor(X, b), fromTensor(toTensor([Bs[b]], dt)), dt)).toBeLessThan(30);
      const S = A.clone();
      for (let j = 0; j < n; j++) S.set(7, j, 0);
      const { info, result } = linalg.solveEx(toTensor([S], dt, [1]), toTensor(Bs, dt));
      expect(Array.from(info.dataSync()).every((v) => v > 0)).toBe(true);
      expect(Number.isNaN(result.dataSync()[0])).toBe(true);
      S.set(0, 0, NaN);
      expect(Array.from(linalg.solveEx(toTensor([S], dt, [1]), toTensor(Bs, dt)).info.dataSync())).toEqual([-1, -1, -1, -1, -1]);
    }
  });
  it('vector right-hand sides follow torch (1-D, or A batch + n)', () => {
    const x = linalg.solve([[3, 1], [1, 2]], [9, 8]);
    expect(x.shape).toEqual([2]);
    const xs = Array.from(x.dataSync());
    expect(xs[0]).toBeCloseTo(2, 14);
    expect(xs[1]).toBeCloseTo(3, 14);
    const A = toTensor([withCondition(3, 5, new Rng(1)), withCondition(3, 5, new Rng(2))], 'float64');
    const b = tensor({ data: new Float64Array([1, 2, 3, 4, 5, 6]), shape: [2, 3] });
    expect(linalg.solve(A, b).shape).toEqual([2, 3]);
  });
  it('left = false solves X·A = B', () => {
    const rng = new Rng(32);
    for (const dt of DTYPES) {
      const A = withCondition(6, 100, rng, { complex: cplx(dt) }), B = randomMatrix(4, 6, rng, { complex: cplx(dt) });
      const X = fromTensor(linalg.solve(toTensor([A], dt), toTensor([B], dt), { left: false }));
      // X·A = B ⇔ Aᵀ·Xᵀ = Bᵀ
      expect(ratioSolve(A.transpose(), X.transpose(), B.transpose(), dt)).toBeLessThan(30);
    }
  });
  it('0×0 and k = 0', () => {
    expect(linalg.solve(Tensor.empty('float64', [0, 0]), Tensor.empty('float64', [0, 3])).shape).toEqual([0, 3]);
    expect(linalg.solve([[2]], Tensor.empty('float64', [1, 0])).shape).toEqual([1, 0]);
    expect(linalg.solve([[2]], [[4]]).toArray()).toEqual([[2]]);
  });
  it('errors name the function, the argument and its shape', () => {
    expect(() => linalg.solve([[1, 2, 3], [4, 5, 6]], [1, 2])).toThrow(ShapeError);
    expect(() => linalg.solve([[1, 2, 3], [4, 5, 6]], [1, 2])).toThrow('solve: A is 2×3, expected square');
    expect(() => linalg.solve([[1, 0], [0, 1]], [[1], [2], [3]])).toThrow('rows of B must be 2');
    expect(() => linalg.solve(toTensor([Mat.eye(2), Mat.eye(2)], 'float64'), toTensor([Mat.eye(2), Mat.eye(2), Mat.eye(2)], 'float64')))
      .toThrow(/do not broadcast/);
    expect(() => linalg.solve([[1]], [[1]], { left: 'no' as unknown as boolean })).toThrow(ArgumentError);
  });
});

describe('solve: singular, NaN, batch isolation, async', () => {
  it('singular: solve throws LinAlgError naming the pivot; solveEx returns info and NaN', () => {
    for (const dt of DTYPES) {
      const A = toTensor([Mat.from([[1, 2, 3], [2, 4, 6], [1, 0, 1]])], dt);
      expect(() => linalg.solve(A, [[1], [2], [3]])).toThrow(LinAlgError);
      expect(() => linalg.solve(A, [[1], [2], [3]])).toThrow(/singular/);
      const { result, info } = linalg.solveEx(A, toTensor([Mat.from([[1], [2], [3]])], dt));
      expect(info.dataSync()[0]).toBeGreaterThan(0);
      expect(Array.from(result.dataSync()).every(Number.isNaN)).toBe(true);
    }
  });
  it('one singular matrix leaves its neighbours exact', () => {
    const rng = new Rng(41);
    for (const dt of DTYPES) {
      const As = [0, 1, 2].map(() => withCondition(7, 10, rng, { complex: cplx(dt) }));
      const B = toTensor([randomMatrix(7, 2, rng, { complex: cplx(dt) })], dt);
      const alone = As.map((a) => linalg.solve(toTensor([a], dt), B).dataSync().slice());
      As[1] = Mat.zeros(7, 7);
      const { result, info } = linalg.solveEx(toTensor(As, dt), B);
      expect(Array.from(info.dataSync())).toEqual([0, 1, 0]);
      const r = result.dataSync(), per = r.length / 3;
      expect(r.slice(0, per)).toEqual(alone[0]);
      expect(r.slice(2 * per)).toEqual(alone[2]);
      expect(() => linalg.solve(toTensor(As, dt), B)).toThrow('(batch element 1)');
    }
  });
  it('many tiny systems with one RHS (SIMD lanes across matrices): accurate, isolated', () => {
    const rng = new Rng(43);
    for (const dt of ['float32', 'float64'] as const) {
      for (const n of [2, 3, 5, 8]) {
        const count = 203;
        const As = Array.from({ length: count }, () => withCondition(n, 50, rng));
        As[17] = Mat.zeros(n, n);
        As[18].set(0, 0, NaN);
        const Bs = Array.from({ length: count }, () => randomMatrix(n, 1, rng));
        const A = toTensor(As, dt), B = toTensor(Bs, dt);
        const { result, info } = linalg.solveEx(A, B);
        const inf = info.dataSync();
        for (let b = 0; b < count; b++) {
          if (b === 17) { expect(inf[b]).toBe(1); continue; }
          if (b === 18) { expect(inf[b]).toBe(-1); continue; }
          expect(inf[b]).toBe(0);
          expect(ratioSolve(fromTensor(A, b), fromTensor(result, b), fromTensor(B, b), dt)).toBeLessThan(30);
        }
        expect(Array.from(fromTensor(result, 17).data.filter((_, q) => q % 2 === 0)).every(Number.isNaN)).toBe(true);
        expect(Array.from(fromTensor(result, 18).data.filter((_, q) => q % 2 === 0)).every(Number.isNaN)).toBe(true);
        // the same systems one by one agree to rounding
        const one = linalg.solve(toTensor([As[5]], dt), toTensor([Bs[5]], dt));
        expect(ratioSolve(fromTensor(A, 5), fromTensor(one), fromTensor(B, 5), dt)).toBeLessThan(30);
      }
    }
  });
  it('NaN/Inf in A: NaN solution and info = −1 (no finite garbage)', () => {
    for (const bad of [NaN, Infinity]) {
      const A = [[1, 1, 1], [1, bad, 1], [1, 1, 2]];
      const { result, info } = linalg.solveEx(A, [[1], [2], [3]]);
      expect(info.dataSync()[0]).toBe(-1);
      expect(Array.from(result.dataSync()).every(Number.isNaN)).toBe(true);
      expect(Array.from(linalg.solve(A, [[1], [2], [3]]).dataSync()).every(Number.isNaN)).toBe(true);
    }
  });
  it('solveAsync: same answer, and the event loop keeps running meanwhile', async () => {
    const rng = new Rng(42);
    // Under ASan (a background CI lane on a shared core) 400 came within reach of the timeout.
    const n = process.env.LAPIS_SANITIZER ? 200 : 400;
    const A = toTensor([withCondition(n, 100, rng)], 'float64');
    const B = toTensor([randomMatrix(n, 50, rng)], 'float64');
    let ticks = 0;
    let done = false;
    const spin = () => { if (!done) { ticks++; setImmediate(spin); } };
    setImmediate(spin);
    const X = await linalg.solveAsync(A, B);
    done = true;
    expect(ticks).toBeGreaterThan(0);
    // (not bit-compared with the synchronous call: the GEMM may split work differently
    // when the pool is busy)
    expect(worstSolveRatio(A, B, X)).toBeLessThan(30);
    await expect(linalg.solveAsync([[0, 0], [0, 0]], [1, 1])).rejects.toThrow(LinAlgError);
  });
});

describe('luSolve', () => {
  it('left/right × adjoint, all dtypes, unblocked and blocked sizes', () => {
    const rng = new Rng(51);
    for (const dt of DTYPES) {
      for (const n of [1, 4, 9, 33, 70]) {
        const A = withCondition(n, 1e3, rng, { complex: cplx(dt) });
        const { LU, pivots } = linalg.luFactor(toTensor([A], dt));
        for (const left of [true, false]) {
          for (const adjoint of [false, true]) {
            const B = left ? randomMatrix(n, 3, rng, { complex: cplx(dt) }) : randomMatrix(3, n, rng, { complex: cplx(dt) });
            const X = fromTensor(linalg.luSolve(LU, pivots, toTensor([B], dt), { left, adjoint }));
            const opA = adjoint ? A.adjoint() : A;
            const r = left ? ratioSolve(opA, X, B, dt) : ratioSolve(opA.transpose(), X.transpose(), B.transpose(), dt);
            expect(r).toBeLessThan(30);
          }
        }
      }
    }
  });
  // Issue 10 item 24: against mathjs lusolve on op(A) = A or Aᴴ (complex adjoint), left or
  // right, in forward-error units: ‖X − X_ref‖₁ / (‖X_ref‖₁ · n · κ₁(A) · eps) < 30.
  it('against mathjs lusolve: complex adjoint, left: false, all dtypes, sizes past the TRSM block (32)', () => {
    type C = { re: number; im: number };
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom(...DTYPES),
      fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 1e6 }), (n, k, dt, left, adjoint, seed) => {
        const rng = new Rng(seed);
        const c = cplx(dt);
        const A = roundTo(withCondition(n, 50, rng, { complex: c }), dt);
        const B = roundTo(left ? randomMatrix(n, k, rng, { complex: c }) : randomMatrix(k, n, rng, { complex: c }), dt);
        const { LU, pivots } = linalg.luFactor(toTensor([A], dt));
        const X = fromTensor(linalg.luSolve(LU, pivots, toTensor([B], dt), { left, adjoint }));
        // op(A)·X = B (left) or X·op(A) = B ⇔ op(A)ᵀ·Xᵀ = Bᵀ
        const opA = adjoint ? A.adjoint() : A;
        const M = left ? opA : opA.transpose();
        const Bl = left ? B : B.transpose();
        const Xl = left ? X : X.transpose();
        const mM = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (c ? math.complex(M.re(i, j), M.im(i, j)) : M.re(i, j))));
        const inv = math.inv(mM) as unknown as (number | C)[][];
        let invNorm = 0;
        for (let j = 0; j < n; j++) {
          let col = 0;
          for (let i = 0; i < n; i++) { const z = inv[i][j]; col += typeof z === 'number' ? Math.abs(z) : Math.hypot(z.re, z.im); }
          invNorm = Math.max(invNorm, col);
        }
        const kappa = M.norm1() * invNorm;
        const ref = new Mat(n, Bl.cols);
        for (let j = 0; j < Bl.cols; j++) {
          const b = Array.from({ length: n }, (_, i) => [c ? math.complex(Bl.re(i, j), Bl.im(i, j)) : Bl.re(i, j)]);
          const x = math.lusolve(mM, b) as unknown as (number | C)[][];
          x.forEach((row, i) => { const z = row[0]; if (typeof z === 'number') ref.set(i, j, z); else ref.set(i, j, z.re, z.im); });
        }
        const ratio = Xl.sub(ref).norm1() / (ref.norm1() * n * kappa * epsOf(dt));
        expect(ratio, `${dt} n=${n} k=${k} left=${left} adjoint=${adjoint}`).toBeLessThan(30);
      }), { numRuns: 60 });
  });
  it('broadcasts a single factorization over a batch of B', () => {
    const rng = new Rng(52);
    const A = withCondition(5, 10, rng);
    const { LU, pivots } = linalg.luFactor(toTensor([A], 'float64'));
    const Bs = [0, 1, 2, 3].map(() => randomMatrix(5, 2, rng));
    const X = linalg.luSolve(LU, pivots, toTensor(Bs, 'float64'));
    expect(X.shape).toEqual([4, 5, 2]);
    for (let b = 0; b < 4; b++) expect(ratioSolve(A, fromTensor(X, b), Bs[b], 'float64')).toBeLessThan(30);
  });
  it('rejects pivots out of range and mismatched shapes', () => {
    const { LU } = linalg.luFactor([[2, 1], [1, 3]]);
    const bad = tensor({ data: new Int32Array([3, 1]), shape: [2] });
    expect(() => linalg.luSolve(LU, bad, [[1], [1]])).toThrow(/pivots must be in 1..2/);
    expect(() => linalg.luSolve(LU, bad, [[1], [1]])).toThrow(ArgumentError);
    const short = tensor({ data: new Int32Array([1]), shape: [1] });
    expect(() => linalg.luSolve(LU, short, [[1], [1]])).toThrow(ShapeError);
  });
});
