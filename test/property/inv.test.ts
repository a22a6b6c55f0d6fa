import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, Rng, LinAlgError, ShapeError, Tensor } from '../../src/index.js';
import { Mat, DTYPES, withCondition, randomMatrix, fromTensor, toTensor, ratioInv, hilbert, roundTo } from '../helpers/matrices.js';
import { epsOf, type FloatDType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
// Block sizes are explicit kernel parameters (LuParams): shrunken blocks at small n are
// checked in C++ (native/tests/test_blocking.cpp); here sizes cross the default edges.
const cplx = (dt: FloatDType) => dt.startsWith('complex');

describe('inv: LAPACK dget03 ratio < 30', () => {
  for (const dt of DTYPES) {
    it(`${dt}, sizes across the default block edges`, () => {
      const rng = new Rng(81);
      const conds = dt === 'float64' || dt === 'complex128' ? [1, 1e6, 1e12] : [1, 1e3, 1e5];
      for (const n of [1, 2, 3, 4, 5, 6, 8, 9, 17, 33, 40, 70]) {
        for (const cond of conds) {
          const A = toTensor([withCondition(n, cond, rng, { complex: cplx(dt) })], dt);
          const X = linalg.inv(A);
          expect(ratioInv(fromTensor(A), fromTensor(X), dt)).toBeLessThan(30);
        }
      }
    });
  }
  it('Hilbert 8×8 (κ ≈ 1.5e10)', () => {
    const H = toTensor([hilbert(8)], 'float64');
    expect(ratioInv(fromTensor(H), fromTensor(linalg.inv(H)), 'float64')).toBeLessThan(30);
  });
});

describe('inv: against mathjs inv', () => {
  it('real and complex', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 7 }), fc.boolean(), fc.integer({ min: 0, max: 1e6 }), (n, c, seed) => {
      const A = withCondition(n, 30, new Rng(seed), { complex: c });
      const mA = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (c ? math.complex(A.re(i, j), A.im(i, j)) : A.re(i, j))));
      const ref = math.inv(mA) as unknown as (number | { re: number; im: number })[][];
      const X = fromTensor(linalg.inv(toTensor([A], c ? 'complex128' : 'float64')));
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const r = ref[i][j];
          const rr = typeof r === 'number' ? r : r.re, ri = typeof r === 'number' ? 0 : r.im;
          expect(Math.hypot(X.re(i, j) - rr, X.im(i, j) - ri)).toBeLessThan(1e-11 * 30);
        }
    }), { numRuns: 40 });
  });
});

// Issue 10 item 24: batched inverses against mathjs inv, random batch sizes (n ≤ 4 goes
// through the lane kernel: full groups and ragged tails), every matrix with a zero in
// its (0, 0) entry so that elimination must swap rows; forward error in units of
// n·κ₁·eps: ‖X − X_ref‖₁ / (‖X_ref‖₁ · n · κ₁(A) · eps) < 30.
describe('inv: batches against mathjs inv', () => {
  it('random batch sizes, matrices that need row swaps, all dtypes', () => {
    type C = { re: number; im: number };
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 19 }), fc.constantFrom(...DTYPES),
      fc.integer({ min: 0, max: 1e6 }), (n, count, dt, seed) => {
        const rng = new Rng(seed);
        const c = cplx(dt);
        const mats = Array.from({ length: count }, () => {
          const A = withCondition(n, 20, rng, { complex: c });
          if (n > 1) A.set(0, 0, 0, 0);
          return roundTo(A, dt);
        });
        const { inverse, info } = linalg.invEx(toTensor(mats, dt, [count]));
        const eps = epsOf(dt);
        mats.forEach((A, b) => {
          const mA = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (c ? math.complex(A.re(i, j), A.im(i, j)) : A.re(i, j))));
          const ref = new Mat(n, n);
          (math.inv(mA) as unknown as (number | C)[][]).forEach((row, i) => row.forEach((z, j) => {
            if (typeof z === 'number') ref.set(i, j, z); else ref.set(i, j, z.re, z.im);
          }));
          const kappa = A.norm1() * ref.norm1();
          const X = fromTensor(inverse, b);
          expect(info.dataSync()[b]).toBe(0);
          expect(X.sub(ref).norm1() / (ref.norm1() * n * kappa * eps), `${dt} n=${n} b=${b}/${count}`).toBeLessThan(30);
        });
      }), { numRuns: 60 });
  });
});

describe('inv: singular, NaN, batches, async', () => {
  it('singular: LinAlgError with the pivot; invEx info and NaN; neighbours untouched', () => {
    const rng = new Rng(82);
    for (const dt of DTYPES) {
      for (const n of [3, 7]) {
        const As = [0, 1, 2].map(() => withCondition(n, 10, rng, { complex: cplx(dt) }));
        // the same batch without the singular member: its neighbours must not change
        const good = linalg.inv(toTensor(As, dt)).dataSync().slice();
        const gper = good.length / 3;
        const alone = [good.slice(0, gper), null, good.slice(2 * gper)];
        const bad = As[1].clone();
        for (let i = 0; i < n; i++) bad.set(i, n - 1, 0);
        As[1] = bad;
        const t = toTensor(As, dt);
        const { inverse, info } = linalg.invEx(t);
        expect(Array.from(info.dataSync())).toEqual([0, n, 0]);
        const d = inverse.dataSync(), per = d.length / 3;
        // n ≥ 5 (LU path): bit-identical neighbours. n ≤ 4 goes to the SIMD lane kernel
        // (inv_small), where lanes share a group; there neighbours are checked by accuracy.
        if (n >= 5) {
          expect(d.slice(0, per)).toEqual(alone[0]);
          expect(d.slice(2 * per)).toEqual(alone[2]);
        }
        for (const b of [0, 2]) expect(ratioInv(As[b], fromTensor(inverse, b), dt)).toBeLessThan(30);
        const k = cplx(dt) ? 2 : 1;
        const mid = Array.from(d.slice(per, 2 * per));
        for (let e = 0; e < mid.length; e += k) expect(Number.isNaN(mid[e]) || Number.isNaN(mid[e + k - 1])).toBe(true);
        expect(() => linalg.inv(t)).toThrow(LinAlgError);
        expect(() => linalg.inv(t)).toThrow(`(batch element 1) the diagonal element ${n} of U is zero`);
      }
    }
  });
  it('NaN/Inf input: info −1 and NaN inverse, for n ≤ 4 and n ≥ 5 alike', () => {
    for (const n of [2, 4, 5, 9]) {
      const A = Mat.eye(n);
      A.set(1, 0, NaN);
      const { inverse, info } = linalg.invEx(toTensor([A], 'float64'));
      expect(info.dataSync()[0]).toBe(-1);
      expect(Array.from(inverse.dataSync()).every(Number.isNaN)).toBe(true);
    }
  });
  it('0×0, 1×1, empty batch', () => {
    expect(linalg.inv(Tensor.empty('float64', [0, 0])).shape).toEqual([0, 0]);
    expect(linalg.inv([[4]]).toArray()).toEqual([[0.25]]);
    expect(linalg.inv(Tensor.empty('float32', [0, 6, 6])).shape).toEqual([0, 6, 6]);
    expect(() => linalg.inv([[1, 2]])).toThrow(ShapeError);
  });
  it('invAsync: same accuracy off the JS thread', async () => {
    const A = toTensor([withCondition(200, 100, new Rng(83)), withCondition(200, 100, new Rng(84))], 'float64');
    const X = await linalg.invAsync(A);
    for (const b of [0, 1]) expect(ratioInv(fromTensor(A, b), fromTensor(X, b), 'float64')).toBeLessThan(30);
    await expect(linalg.invAsync([[1, 1], [1, 1]])).rejects.toThrow(LinAlgError);
  });
  it('batch of many small matrices (thread pool over the batch)', () => {
    const rng = new Rng(85);
    const As = Array.from({ length: 300 }, () => randomMatrix(6, 6, rng));
    const X = linalg.inv(toTensor(As, 'float64'));
    for (let b = 0; b < 300; b += 37) expect(ratioInv(As[b], fromTensor(X, b), 'float64')).toBeLessThan(30);
  });
});

// n ≤ 4 real: the lane kernel (inv_small*), 16 float / 8 double matrices per AVX-512
// register, 8 / 4 with AVX2; full groups through the transposing loader (4×4 float), the
// rest of the batch through a padded group.
describe('inv: batched n ≤ 4 lane kernel', () => {
  for (const dt of ['float32', 'float64'] as FloatDType[]) {
    it(`${dt}: dget03 < 30 across full groups and a ragged tail; each matrix as if alone; failures stay in their lane`, () => {
      const rng = new Rng(86);
      // subnormal, with a representable reciprocal
      const tinyPivot = dt === 'float32' ? 2 ** -127 : 2 ** -1023;
      for (const n of [1, 2, 3, 4]) {
        const count = 16 * 3 + 5;
        const conds = dt === 'float32' ? [1, 1e2, 1e4] : [1, 1e6, 1e10];
        const As = Array.from({ length: count }, (_, b) => withCondition(n, conds[b % 3], rng));
        const singular = 17, nan = 34, subnormal = 50;
        As[singular] = As[singular].clone();
        for (let i = 0; i < n; i++) As[singular].set(i, 0, 0);
        As[nan] = As[nan].clone();
        As[nan].set(n - 1, 0, NaN);
        // a subnormal pivot (that lane divides instead of multiplying by the reciprocal)
        As[subnormal] = Mat.eye(n);
        As[subnormal].set(0, 0, tinyPivot);
        const { inverse, info } = linalg.invEx(toTensor(As, dt));
        const inf = Array.from(info.dataSync());
        const per = n * n, d = inverse.dataSync();
        for (let b = 0; b < count; b++) {
          const own = Array.from(d.slice(b * per, (b + 1) * per));
          if (b === singular) { expect(inf[b]).toBe(1); expect(own.every(Number.isNaN)).toBe(true); continue; }
          if (b === nan) { expect(inf[b]).toBe(-1); expect(own.every(Number.isNaN)).toBe(true); continue; }
          expect(inf[b]).toBe(0);
          if (b === subnormal) {
            expect(own).toEqual(Array.from(Mat.eye(n).data.filter((_, i) => i % 2 === 0), (v, i) => (i === 0 ? 1 / tinyPivot : v)));
            continue;
          }
          expect(ratioInv(fromTensor(toTensor([As[b]], dt)), fromTensor(inverse, b), dt), `n=${n} b=${b}`).toBeLessThan(30);
          if (b % 7 === 0) {
            const alone = Array.from(linalg.invEx(toTensor([As[b]], dt)).inverse.dataSync());
            expect(own).toEqual(alone);
          }
        }
      }
    });
  }
});
