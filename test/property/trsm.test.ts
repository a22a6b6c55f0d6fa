import { describe, it, expect, afterAll } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, ArgumentError, ShapeError, Tensor } from '../../src/index.js';
import { solverBlocking } from '../../src/backend/cpu/lu.js';
import { DTYPES, randomMatrix, fromTensor, toTensor, ratioSolve, triangular, triangleOf } from '../helpers/matrices.js';
import type { FloatDType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const defaults = solverBlocking();
afterAll(() => { solverBlocking(defaults); });
const cplx = (dt: FloatDType) => dt.startsWith('complex');

describe('solveTriangular: every variant, backward error < 30, NaN in the unread part', () => {
  for (const blocking of [{ trsmBlock: 3 }, defaults]) {
    for (const dt of DTYPES) {
      it(`${dt}, blocking ${JSON.stringify(blocking)}`, () => {
        solverBlocking(blocking);
        const rng = new Rng(61);
        for (const n of [1, 2, 3, 4, 6, 7, 13, 70]) {
          for (const upper of [false, true]) {
            for (const left of [true, false]) {
              for (const unit of [false, true]) {
                // NaN fills the other triangle; with unit, the diagonal too.
                const T = triangular(n, upper, rng, { complex: cplx(dt) });
                if (unit) for (let i = 0; i < n; i++) T.set(i, i, NaN, NaN);
                // 37 columns: full register strips (16 or 32 wide) plus a ragged rest
                const k = (n + (upper ? 1 : 0)) % 2 ? 5 : 37;
                const B = left ? randomMatrix(n, k, rng, { complex: cplx(dt) }) : randomMatrix(k, n, rng, { complex: cplx(dt) });
                const X = linalg.solveTriangular(toTensor([T], dt), toTensor([B], dt), { upper, left, unitriangular: unit });
                const x = fromTensor(X);
                for (const v of x.data) expect(Number.isFinite(v)).toBe(true);
                const Tr = triangleOf(fromTensor(toTensor([T], dt)), upper, unit);
                const Bt = fromTensor(toTensor([B], dt));
                const r = left ? ratioSolve(Tr, x, Bt, dt) : ratioSolve(Tr.transpose(), x.transpose(), Bt.transpose(), dt);
                expect(r).toBeLessThan(30);
              }
            }
          }
        }
        solverBlocking(defaults);
      });
    }
  }
});

describe('solveTriangular: against mathjs lsolve / usolve', () => {
  it('real', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.boolean(), fc.integer({ min: 0, max: 1e6 }), (n, upper, seed) => {
      const rng = new Rng(seed);
      const T = triangular(n, upper, rng, { fill: 0 });
      const b = randomMatrix(n, 1, rng);
      const ref = ((upper ? math.usolve : math.lsolve)(T.toRealArray(), b.toRealArray()) as number[][]).map((r) => r[0]);
      const got = Array.from(linalg.solveTriangular(toTensor([T], 'float64'), toTensor([b], 'float64'), { upper }).dataSync());
      got.forEach((v, i) => expect(Math.abs(v - ref[i])).toBeLessThan(1e-12 * (1 + Math.abs(ref[i])) * n));
    }), { numRuns: 40 });
  });
  it('complex', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.integer({ min: 0, max: 1e6 }), (n, upper, seed) => {
      const rng = new Rng(seed);
      const T = triangular(n, upper, rng, { complex: true, fill: 0 });
      const b = randomMatrix(n, 1, rng, { complex: true });
      const mT = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => math.complex(T.re(i, j), T.im(i, j))));
      const mb = Array.from({ length: n }, (_, i) => [math.complex(b.re(i, 0), b.im(i, 0))]);
      const ref = (upper ? math.usolve : math.lsolve)(mT, mb) as unknown as { re: number; im: number }[][];
      const x = fromTensor(linalg.solveTriangular(toTensor([T], 'complex128'), toTensor([b], 'complex128'), { upper }));
      for (let i = 0; i < n; i++) {
        expect(Math.hypot(x.re(i, 0) - ref[i][0].re, x.im(i, 0) - ref[i][0].im)).toBeLessThan(1e-12 * n * (1 + Math.hypot(ref[i][0].re, ref[i][0].im)));
      }
    }), { numRuns: 30 });
  });
});

describe('solveTriangular: batches and edge cases', () => {
  it('the Gated DeltaNet shape: batch of 64×64 unit-lower float32 systems with 64 RHS', () => {
    const rng = new Rng(71);
    const n = 64, count = 6;
    const Ts = Array.from({ length: count }, () => {
      const T = triangular(n, false, rng);
      for (let i = 0; i < n; i++) T.set(i, i, NaN);
      return T;
    });
    const Bs = Array.from({ length: count }, () => randomMatrix(n, 64, rng));
    const A = toTensor(Ts, 'float32'), B = toTensor(Bs, 'float32');
    const X = linalg.solveTriangular(A, B, { upper: false, unitriangular: true });
    for (let b = 0; b < count; b++) {
      const r = ratioSolve(triangleOf(fromTensor(A, b), false, true), fromTensor(X, b), fromTensor(B, b), 'float32');
      expect(r).toBeLessThan(30);
    }
  });
  it('broadcasts A (2,1) against B (3)', () => {
    const rng = new Rng(72);
    const Ts = [0, 1].map(() => triangular(4, true, rng));
    const Bs = [0, 1, 2].map(() => randomMatrix(4, 2, rng));
    const X = linalg.solveTriangular(toTensor(Ts, 'float64', [2, 1]), toTensor(Bs, 'float64', [3]), { upper: true });
    expect(X.shape).toEqual([2, 3, 4, 2]);
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < 3; j++) {
        expect(ratioSolve(triangleOf(Ts[i], true), fromTensor(X, i * 3 + j), Bs[j], 'float64')).toBeLessThan(30);
      }
  });
  it('a zero on the diagonal gives Inf/NaN, not finite garbage', () => {
    const X = linalg.solveTriangular([[1, 0], [1, 0]], [[1], [1]], { upper: false });
    expect(Array.from(X.dataSync()).some((v) => !Number.isFinite(v))).toBe(true);
  });
  it('0×0 and errors', () => {
    expect(linalg.solveTriangular(Tensor.empty('float64', [0, 0]), Tensor.empty('float64', [0, 2]), { upper: true }).shape).toEqual([0, 2]);
    expect(() => linalg.solveTriangular([[1]], [[1]], {} as never)).toThrow(ArgumentError);
    expect(() => linalg.solveTriangular([[1]], [[1]], undefined as never)).toThrow(/upper \(boolean\) is required/);
    expect(() => linalg.solveTriangular([[1, 2]], [[1]], { upper: true })).toThrow(ShapeError);
    expect(() => linalg.solveTriangular([[1, 0], [0, 1]], [[1, 2, 3]], { upper: true })).toThrow('rows of B must be 2');
  });
});
