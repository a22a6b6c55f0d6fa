import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, ArgumentError, ShapeError, LinAlgError, Tensor } from '../../src/index.js';
import { DTYPES, Mat, randomMatrix, fromTensor, toTensor, ratioSolve, triangular, triangleOf, roundTo } from '../helpers/matrices.js';
import type { FloatDType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
// The TRSM block is an explicit kernel parameter (TrsmParams): shrunken blocks at small n
// are checked in C++ (native/tests/test_blocking.cpp); here sizes cross the default 32.
const cplx = (dt: FloatDType) => dt.startsWith('complex');

describe('solveTriangular: every variant, backward error < 30, NaN in the unread part', () => {
  for (const dt of DTYPES) {
    it(`${dt}, sizes across the default block (32)`, () => {
      const rng = new Rng(61);
      // 150: above the batched small-system kernel (n ≤ 128), so the blocked path keeps
      // running with 37 right-hand sides; 33 with 5 (k < 8: the blocked path too)
      for (const n of [1, 2, 3, 4, 6, 7, 13, 33, 70, 150]) {
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
    });
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
  it('a zero on the diagonal raises LinAlgError (trtrs info); solveTriangularEx returns it with NaN X', () => {
    expect(() => linalg.solveTriangular([[1, 0], [1, 0]], [[1], [1]], { upper: false }))
      .toThrow(/diagonal element A\[1, 1\] is exactly zero/);
    const r = linalg.solveTriangularEx([[1, 0], [1, 0]], [[1], [1]], { upper: false });
    expect(Array.from(r.info.dataSync())).toEqual([2]);
    expect(r.info.shape).toEqual([]);
    expect(Array.from(r.solution.dataSync()).every(Number.isNaN)).toBe(true);
    // unit diagonal: the stored zeros are never read
    expect(Array.from(linalg.solveTriangular([[0, 0], [1, 0]], [[1], [1]], { upper: false, unitriangular: true }).dataSync()))
      .toEqual([1, 0]);
  });
  it('0×0 and errors', () => {
    expect(linalg.solveTriangular(Tensor.empty('float64', [0, 0]), Tensor.empty('float64', [0, 2]), { upper: true }).shape).toEqual([0, 2]);
    expect(() => linalg.solveTriangular([[1]], [[1]], {} as never)).toThrow(ArgumentError);
    expect(() => linalg.solveTriangular([[1]], [[1]], undefined as never)).toThrow(/upper \(boolean\) is required/);
    expect(() => linalg.solveTriangular([[1, 2]], [[1]], { upper: true })).toThrow(ShapeError);
    expect(() => linalg.solveTriangular([[1, 0], [0, 1]], [[1, 2, 3]], { upper: true })).toThrow('rows of B must be 2');
  });
});

// n ≤ 128 with ≥ 8 right-hand sides (real types) take the batched register kernel
// (native/src/trsm/trsm_small*): tiles of rows × vectors of columns, a narrower strip for
// the rest of the full vectors and a padded copy for a ragged rest.
describe('solveTriangular: batched small systems (register kernel)', () => {
  const solveEach = (Ts: Mat[], Bs: Mat[], dt: FloatDType, upper: boolean, unit: boolean) =>
    linalg.solveTriangular(toTensor(Ts, dt, [Ts.length]), toTensor(Bs, dt, [Bs.length]), { upper, unitriangular: unit });
  for (const dt of ['float32', 'float64'] as FloatDType[]) {
    it(`${dt}: n = 16, 32, 64 and odd sizes, ragged k, both triangles, unit or not: backward error < 30, NaN unread`, () => {
      const rng = new Rng(81);
      const shapes: [number, number][] = [[16, 16], [32, 32], [64, 64], [1, 8], [5, 9], [13, 40], [37, 17], [64, 100],
        [100, 64], [128, 8], [128, 33], [7, 72]];
      for (const [n, k] of shapes) {
        for (const upper of [false, true]) {
          for (const unit of [false, true]) {
            const count = 3;
            const Ts = Array.from({ length: count }, () => {
              const T = triangular(n, upper, rng);  // NaN in the other triangle
              if (unit) for (let i = 0; i < n; i++) T.set(i, i, NaN);
              return T;
            });
            const Bs = Array.from({ length: count }, () => randomMatrix(n, k, rng));
            const X = solveEach(Ts, Bs, dt, upper, unit);
            for (let b = 0; b < count; b++) {
              const x = fromTensor(X, b);
              for (const v of x.data) expect(Number.isFinite(v)).toBe(true);
              const Tr = triangleOf(fromTensor(toTensor([Ts[b]], dt)), upper, unit);
              const r = ratioSolve(Tr, x, fromTensor(toTensor([Bs[b]], dt)), dt);
              expect(r, `n=${n} k=${k} upper=${upper} unit=${unit}`).toBeLessThan(30);
            }
          }
        }
      }
    });

    it(`${dt}: a system's result does not depend on its neighbours (NaN / Inf neighbours, place in the batch)`, () => {
      const rng = new Rng(82);
      const n = 64, k = 64, count = 5;
      const Ts = Array.from({ length: count }, () => triangular(n, false, rng));
      const Bs = Array.from({ length: count }, () => randomMatrix(n, k, rng));
      Ts[1].set(40, 3, NaN);  // read by the solve: system 1 turns NaN from row 40 on
      Bs[3].set(0, 5, Infinity);
      const X = solveEach(Ts, Bs, dt, false, true);
      for (const b of [0, 2, 4]) {
        const alone = linalg.solveTriangular(toTensor([Ts[b]], dt), toTensor([Bs[b]], dt), { upper: false, unitriangular: true });
        expect(Array.from(fromTensor(X, b).data)).toEqual(Array.from(fromTensor(alone).data));
      }
      const x1 = fromTensor(X, 1);
      expect(Number.isNaN(x1.re(40, 0))).toBe(true);
      expect(Number.isFinite(x1.re(39, 0))).toBe(true);
      expect(fromTensor(X, 3).re(0, 5)).toBe(Infinity);
    });

    it(`${dt}: a subnormal diagonal entry is divided by, not inverted (its reciprocal overflows)`, () => {
      const n = 16, k = 16;
      const tiny = dt === 'float32' ? 2 ** -130 : 2 ** -1030, small = dt === 'float32' ? 2 ** -140 : 2 ** -1040;
      const T = Mat.eye(n);
      T.set(3, 3, tiny);
      const B = new Mat(n, k);
      B.set(3, 0, small);
      const x = fromTensor(linalg.solveTriangular(toTensor([T], dt), toTensor([B], dt), { upper: false }));
      expect(x.re(3, 0)).toBe(2 ** -10);
    });
  }

  it('float32 broadcast A over a batch of B, and left: false at n = 64', () => {
    const rng = new Rng(83);
    const n = 64, k = 48;
    const T = triangular(n, false, rng);
    const Bs = [0, 1, 2, 3].map(() => randomMatrix(n, k, rng));
    const X = linalg.solveTriangular(toTensor([T], 'float32'), toTensor(Bs, 'float32'), { upper: false });
    expect(X.shape).toEqual([4, n, k]);
    const Tr = triangleOf(fromTensor(toTensor([T], 'float32')), false);
    for (let b = 0; b < 4; b++) expect(ratioSolve(Tr, fromTensor(X, b), fromTensor(toTensor([Bs[b]], 'float32')), 'float32')).toBeLessThan(30);
    const C = randomMatrix(k, n, rng);
    const Y = fromTensor(linalg.solveTriangular(toTensor([T], 'float32'), toTensor([C], 'float32'), { upper: false, left: false }));
    expect(ratioSolve(Tr.transpose(), Y.transpose(), fromTensor(toTensor([C], 'float32')).transpose(), 'float32')).toBeLessThan(30);
  });
});


// Issue 10 item 8: an exact zero on the diagonal is LAPACK trtrs's info (first such
// index, 1-based) per batch element; the plain function throws, the Ex variant returns it.
describe('solveTriangular: exactly singular triangles (trtrs info)', () => {
  // (n, k): the unblocked row kernel, the batched register kernel (real n ≤ 128, k ≥ 8),
  // the blocked recursion (n = 150 > 128, and n = 70 with k = 2 < 8)
  const shapes: [number, number][] = [[5, 3], [16, 16], [150, 9], [70, 2]];
  for (const dt of DTYPES) {
    it(`${dt}: batched, left/right, upper/lower: info, NaN X for the singular items, neighbours untouched`, () => {
      const rng = new Rng(91);
      for (const [n, k] of shapes) {
        for (const upper of [false, true]) {
          for (const left of [true, false]) {
            const count = 4;
            const Ts = Array.from({ length: count }, () => triangular(n, upper, rng, { complex: cplx(dt) }));
            // item 1: zeros at two places (the first counts); item 3: the last diagonal entry
            const z1 = Math.min(2, n - 1);
            Ts[1].set(z1, z1, 0, 0);
            Ts[1].set(n - 1, n - 1, 0, 0);
            Ts[3].set(n - 1, n - 1, 0, 0);
            const Bs = Array.from({ length: count }, () =>
              left ? randomMatrix(n, k, rng, { complex: cplx(dt) }) : randomMatrix(k, n, rng, { complex: cplx(dt) }));
            const A = toTensor(Ts, dt), B = toTensor(Bs, dt);
            const opts = { upper, left };
            const tag = `n=${n} k=${k} upper=${upper} left=${left}`;
            const r = linalg.solveTriangularEx(A, B, opts);
            expect(r.info.shape, tag).toEqual([count]);
            expect(Array.from(r.info.dataSync()), tag).toEqual([0, z1 + 1, 0, n]);
            const parts = (M: Mat) => Array.from(M.data).filter((_, i) => cplx(dt) || i % 2 === 0);  // Mat stores (re, 0) for real
            for (const b of [1, 3]) expect(parts(fromTensor(r.solution, b)).every(Number.isNaN), tag).toBe(true);
            for (const b of [0, 2]) {
              const x = fromTensor(r.solution, b);
              const alone = linalg.solveTriangular(toTensor([Ts[b]], dt), toTensor([Bs[b]], dt), opts);
              expect(Array.from(x.data), tag).toEqual(Array.from(fromTensor(alone).data));
              const Tr = triangleOf(fromTensor(toTensor([Ts[b]], dt)), upper);
              const Bt = fromTensor(toTensor([Bs[b]], dt));
              const ratio = left ? ratioSolve(Tr, x, Bt, dt) : ratioSolve(Tr.transpose(), x.transpose(), Bt.transpose(), dt);
              expect(ratio, tag).toBeLessThan(30);
            }
            let err: unknown;
            try { linalg.solveTriangular(A, B, opts); } catch (e) { err = e; }
            expect(err, tag).toBeInstanceOf(LinAlgError);
            expect((err as LinAlgError).batchIndex).toBe(1);
            expect((err as LinAlgError).info).toBe(z1 + 1);
            expect((err as Error).message).toContain(`(batch element 1)`);
            expect((err as Error).message).toContain(`A[${z1}, ${z1}] is exactly zero`);
            // unit diagonal: zeros on the stored diagonal are never read, never reported
            const u = linalg.solveTriangularEx(A, B, { ...opts, unitriangular: true });
            expect(Array.from(u.info.dataSync()), tag).toEqual([0, 0, 0, 0]);
            expect(parts(fromTensor(u.solution, 3)).every(Number.isFinite), tag).toBe(true);
          }
        }
      }
    });
  }
  it('a broadcast A reports its info on every output matrix it serves', () => {
    const rng = new Rng(92);
    const Ts = [0, 1].map(() => triangular(4, true, rng));
    Ts[1].set(0, 0, 0);
    const Bs = [0, 1, 2].map(() => randomMatrix(4, 2, rng));
    const r = linalg.solveTriangularEx(toTensor(Ts, 'float64', [2, 1]), toTensor(Bs, 'float64', [3]), { upper: true });
    expect(r.info.shape).toEqual([2, 3]);
    expect(Array.from(r.info.dataSync())).toEqual([0, 0, 0, 1, 1, 1]);
  });
});

// Issue 10 item 24: complex64 triangular solves against mathjs lsolve/usolve (each of
// k ≥ 8 columns), unit or not, left or right, sizes crossing the blocked kernel's
// default block (32). Forward error against the double-precision reference is
// bounded by κ∞(T)·n·eps (the solve is backward stable), so the ratio below is < 30.
describe('solveTriangular: complex64 against mathjs', () => {
  it('k ≥ 8, unit, left: false, blocked sizes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 8, max: 11 }), fc.boolean(), fc.boolean(),
      fc.boolean(), fc.integer({ min: 0, max: 1e6 }), (n, k, upper, unit, left, seed) => {
        const rng = new Rng(seed);
        const T = roundTo(triangular(n, upper, rng, { complex: true }), 'complex64');
        const B = roundTo(left ? randomMatrix(n, k, rng, { complex: true }) : randomMatrix(k, n, rng, { complex: true }), 'complex64');
        const X = fromTensor(linalg.solveTriangular(toTensor([T], 'complex64'), toTensor([B], 'complex64'),
          { upper, left, unitriangular: unit }));
        // reference: op(T)·x = b per column, op(T) = T (left) or Tᵀ (right: X·T = B ⇔ Tᵀ·Xᵀ = Bᵀ)
        const Tr = triangleOf(T, upper, unit);
        const M = left ? Tr : Tr.transpose();
        const Bl = left ? B : B.transpose();
        const mM = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => math.complex(M.re(i, j), M.im(i, j))));
        const lowerOp = left ? !upper : upper;
        const Minv = math.inv(mM) as unknown as { re: number; im: number }[][];
        const normInf = (rows: { re: number; im: number }[][]) =>
          Math.max(...rows.map((r) => r.reduce((s, z) => s + Math.hypot(z.re, z.im), 0)));
        const kappa = normInf(mM as unknown as { re: number; im: number }[][]) * normInf(Minv);
        let worst = 0;
        for (let c = 0; c < k; c++) {
          const b = Array.from({ length: n }, (_, i) => [math.complex(Bl.re(i, c), Bl.im(i, c))]);
          const ref = (lowerOp ? math.lsolve : math.usolve)(mM, b) as unknown as { re: number; im: number }[][];
          let err = 0, mag = 0;
          for (let i = 0; i < n; i++) {
            const xr = left ? X.re(i, c) : X.re(c, i), xi = left ? X.im(i, c) : X.im(c, i);
            err = Math.max(err, Math.hypot(xr - ref[i][0].re, xi - ref[i][0].im));
            mag = Math.max(mag, Math.hypot(ref[i][0].re, ref[i][0].im));
          }
          worst = Math.max(worst, err / (mag * kappa * n * 2 ** -23));
        }
        expect(worst).toBeLessThan(30);
      }), { numRuns: 60 });
  });
});
