import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import { linalg, tensor, Rng, LinAlgError, ShapeError, Tensor } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import {
  Mat, DTYPES, withCondition, randomMatrix, fromTensor, toTensor, ratioLu, graded, roundTo,
} from '../helpers/matrices.js';
import { epsOf } from '../../src/core/dtype.js';

const isCplx = (dt: string) => dt.startsWith('complex');

const math = create(all, { absTol: 0, relTol: 1e-12 });
// The kernels' block sizes are explicit parameters now (LuParams); shrunken blocks at small n
// are checked in C++ (native/tests/test_blocking.cpp). Here the sizes cross the default
// block edges (crossover 64, leaf 16, TRSM block 32) so the recursive path runs too.

function checkLu(A: Tensor, limit = 30): number {
  const { P, L, U } = linalg.lu(A);
  let worst = 0;
  const count = A.size / (A.rows * A.cols) || 0;
  for (let b = 0; b < count; b++) {
    const r = ratioLu(fromTensor(A, b), fromTensor(P, b), fromTensor(L, b), fromTensor(U, b), A.dtype as never);
    worst = Math.max(worst, r);
  }
  expect(worst).toBeLessThan(limit);
  return worst;
}

describe('luFactor / lu: backward error (LAPACK dget01 < 30)', () => {
  const sizes = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 65, 70];
  for (const dt of DTYPES) {
    it(`${dt}, sizes across the default block edges`, () => {
      const rng = new Rng(11);
      for (const n of sizes) {
        for (const cond of [1, 1e4, 1e12]) {
          const A = toTensor([withCondition(n, cond, rng, { complex: dt.startsWith('complex') })], dt);
          checkLu(A);
        }
      }
    });
  }
  it('n = 100 with the default blocking goes through the recursive path', () => {
    const rng = new Rng(3);
    for (const dt of DTYPES) checkLu(toTensor([randomMatrix(100, 100, rng, { complex: dt.startsWith('complex') })], dt));
  });
  it('rectangular: tall and wide, unblocked and recursive', () => {
    const rng = new Rng(5);
    for (const dt of DTYPES) {
      for (const [m, n] of [[7, 3], [3, 7], [12, 5], [5, 12], [1, 4], [4, 1], [100, 70], [70, 100]]) {
        const A = toTensor([randomMatrix(m, n, rng, { complex: dt.startsWith('complex') })], dt);
        const { P, L, U } = linalg.lu(A);
        expect(P.shape).toEqual([m, m]);
        expect(L.shape).toEqual([m, Math.min(m, n)]);
        expect(U.shape).toEqual([Math.min(m, n), n]);
        checkLu(A);
      }
    }
  });
  it('batches of tall and wide matrices: each P·L·U, L unit lower and U upper trapezoidal', () => {
    const rng = new Rng(6);
    for (const dt of DTYPES) {
      const complex = dt.startsWith('complex');
      for (const [m, n] of [[6, 4], [4, 6], [5, 5]]) {
        const A = toTensor([0, 1, 2].map(() => randomMatrix(m, n, rng, { complex })), dt);
        checkLu(A);
        const { L, U } = linalg.lu(A);
        const k = Math.min(m, n);
        for (let b = 0; b < 3; b++) {
          const Lb = fromTensor(L, b), Ub = fromTensor(U, b);
          for (let i = 0; i < m; i++)
            for (let j = i; j < k; j++) expect([Lb.re(i, j), Lb.im(i, j)]).toEqual([i === j ? 1 : 0, 0]);
          for (let i = 0; i < k; i++)
            for (let j = 0; j < i; j++) expect([Ub.re(i, j), Ub.im(i, j)]).toEqual([0, 0]);
        }
      }
    }
  });
  it('graded matrices (entries from 1 to 1e-60)', () => {
    const rng = new Rng(8);
    for (const n of [6, 20, 70]) checkLu(toTensor([graded(n, 0.15, rng)], 'float64'));
  });
  for (const n of [12, 70]) it(`rows near overflow (1e300) and subnormal columns, n = ${n}`, () => {
    const rng = new Rng(9);
    const big = randomMatrix(n, n, rng).scaleRows(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1e300 : 1)));
    checkLu(toTensor([big], 'float64'));
    // A whole column of subnormals: its pivot is subnormal and must be divided by (its
    // reciprocal overflows to Inf).
    const sub = randomMatrix(n, n, rng).scaleCols(Array.from({ length: n }, (_, j) => (j === 0 ? 1e-310 : 1)));
    const { LU, info } = linalg.luFactorEx(toTensor([sub], 'float64'));
    expect(info.dataSync()[0]).toBe(0);
    for (const v of LU.dataSync()) expect(Number.isFinite(v)).toBe(true);
    const f = fromTensor(toTensor([sub], 'float64'));
    const { P, L, U } = linalg.lu(toTensor([sub], 'float64'));
    // column-scaled backward error: the subnormal column is exact to its own scale
    const R = f.sub(fromTensor(P).mul(fromTensor(L)).mul(fromTensor(U)));
    for (let i = 0; i < n; i++) expect(Math.abs(R.re(i, 0))).toBeLessThan(30 * n * 2.3e-16 * 1e-310 * 4);
    // float32 subnormals (below 1.18e-38)
    const s32 = toTensor([randomMatrix(n, n, rng).scaleCols(Array.from({ length: n }, (_, j) => (j === 2 ? 1e-40 : 1)))], 'float32');
    const r32 = linalg.luFactorEx(s32);
    for (const v of r32.LU.dataSync()) expect(Number.isFinite(v)).toBe(true);
  });
});

describe('luFactor: against mathjs lup (P·A = L·U invariants, not factors)', () => {
  it('random real matrices', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 1e6 }),
      (n, seed) => {
        const A = randomMatrix(n, n, new Rng(seed));
        const ref = math.lup(A.toRealArray());
        const { P, L, U } = linalg.lu(toTensor([A], 'float64'));
        // both reproduce A; determinants agree
        const PLU = fromTensor(P).mul(fromTensor(L)).mul(fromTensor(U));
        // mathjs: A[i] = (L·U)[p[i]]
        const LUref = math.multiply(ref.L, ref.U) as unknown as number[][];
        const back = new Mat(n, n);
        (ref.p as number[]).forEach((pi, i) => { for (let j = 0; j < n; j++) back.set(i, j, LUref[pi][j]); });
        expect(A.sub(PLU).norm1()).toBeLessThan(30 * n * 2.3e-16 * A.norm1());
        expect(A.sub(back).norm1()).toBeLessThan(1e-10 * A.norm1());
        // same determinant
        const d = linalg.det(toTensor([A], 'float64')).dataSync()[0];
        const dref = math.det(A.toRealArray());
        // |δdet| ≤ c·n·eps·∏σ-ish; use Hadamard's bound ∏‖row‖ as the scale
        let had = 1;
        for (let i = 0; i < n; i++) { let s2 = 0; for (let j = 0; j < n; j++) s2 += A.re(i, j) ** 2; had *= Math.sqrt(s2); }
        expect(Math.abs(d - dref)).toBeLessThan(1e-12 * n * had);
      },
    ), { numRuns: 40 });
  });
  it('pivots are 1-based and follow partial pivoting (largest magnitude first)', () => {
    const { pivots, LU } = linalg.luFactor([[1, 2], [3, 4]]);
    expect(Array.from(pivots.dataSync())).toEqual([2, 2]);
    expect(LU.toArray()).toEqual([[3, 4], [1 / 3, 2 - 4 / 3]]);
  });
});

// Issue 10 items 22/24: the factors themselves against mathjs lup, on inputs with
// negative entries (so pivoting by signed value instead of magnitude picks other rows)
// and no near-ties (lup and lapis then must pick the same pivots). Sizes up to 72: the
// unblocked getf2 and, past the crossover (64), the recursion with column-major leaf
// panels. Entry errors are measured against first-order LU perturbation theory:
// (‖ΔL‖₁/‖L‖₁ + ‖ΔU‖₁/‖U‖₁) / (n·eps·κ₁(L)·κ₁(U)) < 30.
describe('luFactor / lu: P, L, U against mathjs lup (pivots and factors)', () => {
  type C = { re: number; im: number };
  const toMath = (A: Mat, complex: boolean) => Array.from({ length: A.rows }, (_, i) =>
    Array.from({ length: A.cols }, (_, j) => (complex ? math.complex(A.re(i, j), A.im(i, j)) : A.re(i, j))));
  const fromMath = (rows: unknown[][]): Mat => {
    const M = new Mat(rows.length, rows[0]?.length ?? 0);
    rows.forEach((r, i) => r.forEach((v, j) => {
      if (typeof v === 'number') M.set(i, j, v);
      else M.set(i, j, (v as C).re, (v as C).im);
    }));
    return M;
  };
  const abs1 = (re: number, im: number) => Math.abs(re) + Math.abs(im);
  const cond1 = (M: Mat, complex: boolean) => M.norm1() * fromMath(math.inv(toMath(M, complex)) as unknown as unknown[][]).norm1();
  for (const dt of DTYPES) {
    const complex = dt.startsWith('complex');
    it(`${dt}: same pivots as lup, factors within perturbation bounds`, () => {
      fc.assert(fc.property(fc.integer({ min: 1, max: 72 }), fc.integer({ min: 0, max: 1e6 }), (n, seed) => {
        const A = roundTo(randomMatrix(n, n, new Rng(seed), { complex }), dt);
        const ref = math.lup(toMath(A, complex) as never) as unknown as { L: unknown[][]; U: unknown[][]; p: number[] };
        const Lr = fromMath(ref.L), Ur = fromMath(ref.U);
        // No near-ties under either pivot measure (lup: modulus; lapis, as LAPACK: |re| + |im|):
        // at step k the candidates are l_ik·u_kk (i > k) against u_kk.
        for (let k = 0; k < n; k++) {
          const ur = Ur.re(k, k), ui = Ur.im(k, k);
          for (let i = k + 1; i < n; i++) {
            const lr = Lr.re(i, k), li = Lr.im(i, k);
            fc.pre(Math.hypot(lr, li) < 1 - 1e-6);
            fc.pre(abs1(lr * ur - li * ui, lr * ui + li * ur) < (1 - 1e-6) * abs1(ur, ui));
          }
        }
        const eps = epsOf(dt);
        const kL = cond1(Lr, complex), kU = cond1(Ur, complex);
        {
          const { P, L, U } = linalg.lu(toTensor([A], dt));
          // lup: A[i] = (L·U)[p[i]]; lapis: A = P·L·U, so A[i] = (L·U)[c] with P[i][c] = 1
          const Pm = fromTensor(P);
          const perm = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, c) => c).find((c) => Pm.re(i, c) === 1));
          expect(perm, `n=${n}`).toEqual(ref.p);
          const dL = fromTensor(L).sub(Lr).norm1() / Lr.norm1();
          const dU = fromTensor(U).sub(Ur).norm1() / Ur.norm1();
          expect((dL + dU) / (n * eps * kL * kU), `n=${n}`).toBeLessThan(30);
        }
      }), { numRuns: 40 });
    });
  }
  it('−(a permutation): pivoting by value would pick a zero; by magnitude it is exact (lu, luFactor, solve, inv, det)', () => {
    // every column's largest signed value is 0 and its largest magnitude −1..−2: a kernel
    // that compared signed values would find an exactly zero pivot (info > 0)
    const rng = new Rng(23);
    for (const dt of DTYPES) {
      for (const n of [1, 2, 3, 4, 5, 8, 12, 16, 17, 40, 70]) {
        {
          const count = 9;  // a full lane group and a ragged tail in the batched small kernels
          const perms: number[][] = [];
          const mats = Array.from({ length: count }, () => {
            const M = new Mat(n, n);
            const p = Array.from({ length: n }, (_, i) => i);
            for (let i = n - 1; i > 0; i--) { const j = Math.floor(rng.uniform() * (i + 1)); [p[i], p[j]] = [p[j], p[i]]; }
            p.forEach((c, r) => M.set(r, c, -(2 ** Math.floor(4 * rng.uniform())) / 2));  // −0.5, −1, −2, −4: exact arithmetic
            perms.push(p);
            return M;
          });
          // sign of a permutation: (−1)^(n − cycles)
          const parity = (p: number[]) => {
            const seen = new Array<boolean>(p.length).fill(false);
            let cycles = 0;
            for (let i = 0; i < p.length; i++) if (!seen[i]) { cycles++; for (let j = i; !seen[j]; j = p[j]) seen[j] = true; }
            return (p.length - cycles) % 2 ? -1 : 1;
          };
          const tag = `${dt} n=${n}`;
          const A = toTensor(mats, dt);
          expect(Array.from(linalg.luFactorEx(A).info.dataSync()), tag).toEqual(Array(count).fill(0));
          const b = toTensor(mats.map(() => { const v = new Mat(n, 1); for (let i = 0; i < n; i++) v.set(i, 0, i + 1); return v; }), dt);
          const { result, info } = linalg.solveEx(A, b);
          expect(Array.from(info.dataSync()), tag).toEqual(Array(count).fill(0));
          const inv = linalg.invEx(A);
          expect(Array.from(inv.info.dataSync()), tag).toEqual(Array(count).fill(0));
          const det = linalg.det(A).dataSync();
          for (let m = 0; m < count; m++) {
            // M = −P·D: x = M⁻¹·b and M⁻¹ = Mᵀ with entries inverted, exactly
            const M = mats[m];
            const x = fromTensor(result, m), Xi = fromTensor(inv.inverse, m);
            let dref = 1;
            for (let r = 0; r < n; r++)
              for (let c = 0; c < n; c++) {
                const v = M.re(r, c);
                if (v === 0) continue;
                expect(x.re(c, 0), tag).toBe((r + 1) / v);
                expect(Xi.re(c, r), tag).toBe(1 / v);
                dref *= v;
              }
            expect(det[isCplx(dt) ? 2 * m : m], tag).toBe(parity(perms[m]) * dref);
          }
        }
      }
    }
  });
});

describe('luFactor: singular, NaN, empty, batches, errors', () => {
  it('an exactly zero pivot gives info = k and the factorization still completes', () => {
    for (const dt of DTYPES) {
      const rng = new Rng(2);
      // n = 70: past the crossover, so the zero pivot is met inside the recursion
      for (const [n, zc] of [[9, 0], [9, 4], [9, 8], [70, 0], [70, 35], [70, 69]]) {
        const A = randomMatrix(n, n, rng, { complex: dt.startsWith('complex') });
        for (let i = 0; i < n; i++) A.set(i, zc, 0);
        const t = toTensor([A], dt);
        const { info } = linalg.luFactorEx(t);
        expect(info.dataSync()[0]).toBe(zc + 1);
        checkLu(t);
        expect(() => linalg.luFactor(t)).toThrow(LinAlgError);
        expect(() => linalg.luFactor(t)).toThrow(`U[${zc}, ${zc}] is exactly zero`);
      }
    }
  });
  it('rank-deficient ones matrix: info = 2 (torch: info ≥ 0 for all-ones)', () => {
    const { info } = linalg.luFactorEx([[1, 1, 1], [1, 1, 1], [1, 1, 1]]);
    expect(info.dataSync()[0]).toBe(2);
  });
  it('NaN input spreads into the factors instead of being skipped', () => {
    const A = [[1, 1, 1], [1, NaN, 1], [1, 1, 1]];
    const { LU } = linalg.luFactorEx(A);
    expect(Array.from(LU.dataSync()).some(Number.isNaN)).toBe(true);
  });
  it('0×0, 1×1, 0×n and batches of zero', () => {
    const e = linalg.luFactorEx(Tensor.empty('float64', [0, 0]));
    expect(e.LU.shape).toEqual([0, 0]);
    expect(e.pivots.shape).toEqual([0]);
    expect(linalg.luFactor([[5]]).LU.toArray()).toEqual([[5]]);
    expect(linalg.luFactorEx([[0]]).info.dataSync()[0]).toBe(1);
    expect(linalg.lu(Tensor.empty('float64', [0, 3])).U.shape).toEqual([0, 3]);
    expect(linalg.luFactorEx(Tensor.empty('float32', [0, 4, 4])).info.shape).toEqual([0]);
  });
  it('a singular member leaves its neighbours untouched; errors name the batch element', () => {
    const rng = new Rng(4);
    for (const dt of DTYPES) {
      const mats = [0, 1, 2, 3].map(() => randomMatrix(6, 6, rng, { complex: dt.startsWith('complex') }));
      const single = mats.map((m) => linalg.luFactor(toTensor([m], dt)).LU.dataSync().slice());
      const bad = mats[2].clone();
      for (let j = 0; j < 6; j++) bad.set(3, j, 0);
      for (let j = 0; j < 6; j++) bad.set(4, j, 0);
      const batch = toTensor([mats[0], mats[1], bad, mats[3]], dt);
      const { LU, info } = linalg.luFactorEx(batch);
      expect(Array.from(info.dataSync())).toEqual([0, 0, 5, 0]);
      const all = LU.dataSync();
      const per = all.length / 4;
      for (const b of [0, 1, 3]) expect(all.slice(b * per, (b + 1) * per)).toEqual(single[b]);
      expect(() => linalg.luFactor(batch)).toThrow('(batch element 2)');
      try { linalg.luFactor(batch); } catch (e) {
        expect((e as LinAlgError).batchIndex).toBe(2);
        expect((e as LinAlgError).info).toBe(5);
      }
    }
  });
  it('async variant gives the same factors off the JS thread', async () => {
    const rng = new Rng(6);
    const A = toTensor([withCondition(150, 100, rng)], 'float64');
    const s = linalg.luFactor(A);
    const a = await linalg.luFactorAsync(A);
    // (not bit-compared with the synchronous call: the GEMM may split work differently
    // when the pool is busy) — checked by its own backward error instead
    expect(a.info.dataSync()[0]).toBe(0);
    expect(a.LU.shape).toEqual(s.LU.shape);
    const unpack = lookup('luUnpack', 'float64', 'cpu');
    const f = unpack(a.LU, a.pivots);
    expect(ratioLu(fromTensor(A), fromTensor(f.P), fromTensor(f.L), fromTensor(f.U), 'float64')).toBeLessThan(30);
    const sing = tensor([[1, 2], [2, 4]]);
    await expect(linalg.luFactorAsync(sing)).rejects.toThrow(LinAlgError);
  });
  it('bad arguments', () => {
    expect(() => linalg.luFactor([1, 2, 3])).toThrow(ShapeError);
    expect(() => linalg.luFactor([1, 2, 3])).toThrow(/luFactor: A is 3, expected a matrix/);
    expect(() => linalg.lu(5)).toThrow(ShapeError);
  });
});
