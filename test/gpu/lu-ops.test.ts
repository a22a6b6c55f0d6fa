// What the GPU builds on LU at every size (src/backend/gpu/lu_ops.ts): det and slogdet
// against the CPU backend's float64 results, luUnpack against the CPU's unpack and
// LAPACK's ‖A − P·L·U‖ ratio (tall and wide too), and luSolve / solve / inv past the
// one-workgroup kernels (n > 64, and small n with small blocks through the blocked path)
// against LAPACK's residual ratios, with broadcasting, complex64, singular and NaN members.
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { linalg, Rng, Tensor } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import { planBatch } from '../../src/core/batch.js';
import {
  detGpu, slogdetGpu, luUnpackGpu, luSolveBlockedGpu, solveBlockedGpu, invBlockedGpu, luFactorCopyGpu,
} from '../../src/backend/gpu/lu_ops.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import {
  Mat, withCondition, randomMatrix, randomUnitary, toTensor, fromTensor, ratioLu, ratioSolve, ratioInv, roundTo,
} from '../helpers/matrices.js';

useGpu();

type D = 'float32' | 'complex64';
const EPS = 1.1920928955078125e-7;
const wide = (d: D) => (d === 'complex64' ? 'complex128' : 'float64');
const cpu = (t: Tensor) => t.toAsync('cpu');

/**
 * count matrices of order n, condition numbers conds[b % conds.length], rounded to the
 * dtype; singular values from √κ down to 1/√κ, so |det| = 1 (in float32 range at any n).
 */
function mats(n: number, count: number, rng: Rng, dtype: D, conds: readonly number[] = [1, 30, 1000]): Mat[] {
  return Array.from({ length: count }, (_, b) => {
    const c = conds[b % conds.length];
    return roundTo(withCondition(n, c, rng, { complex: dtype === 'complex64', scale: Math.sqrt(c) }), dtype);
  });
}

/** Element b of a (CPU) det/sign tensor as [re, im]. */
function elem(t: Tensor, b: number): [number, number] {
  const d = t.dataSync() as Float32Array | Float64Array;
  return t.dtype === 'complex64' || t.dtype === 'complex128' ? [d[2 * b], d[2 * b + 1]] : [d[b], 0];
}

describe('gpu det and slogdet', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const n of [1, 2, 5, 16, 33, 64, 65, 130]) {
      gpuIt(`${dtype} n=${n}: det, sign and log|det| against the CPU's float64 within 4·n·κ·eps`, async () => {
        const rng = new Rng(100 + n);
        const conds = [1, 30, 1000];
        const As = mats(n, 3, rng, dtype, conds);
        const A = toTensor(As, dtype).to('gpu');
        const det = await cpu(linalg.det(A));
        const { sign, logabsdet } = linalg.slogdet(A);
        const s = await cpu(sign), la = await cpu(logabsdet);
        const ref = linalg.slogdet(toTensor(As, wide(dtype)));
        const refDet = linalg.det(toTensor(As, wide(dtype)));
        expect(det.shape).toEqual([3]);
        expect(la.dtype).toBe('float32');
        for (let b = 0; b < 3; b++) {
          // first-order bound n·κ·eps with a factor 4 (lavapipe and the CPU's float32 det stay under 0.15 of it)
          const tol = 4 * n * conds[b] * EPS;
          const [dr, di] = elem(det, b), [rr, ri] = elem(refDet, b);
          expect(Math.hypot(dr - rr, di - ri) / Math.hypot(rr, ri), `det ${b}`).toBeLessThan(tol);
          const [sr, si] = elem(s, b), [qr, qi] = elem(ref.sign, b);
          if (dtype === 'float32') expect(sr, `sign ${b}`).toBe(qr);
          else expect(Math.hypot(sr - qr, si - qi), `sign ${b}`).toBeLessThan(tol);
          const l = (la.dataSync() as Float32Array)[b], lr = (ref.logabsdet.dataSync() as Float64Array)[b];
          expect(Math.abs(l - lr), `log|det| ${b}`).toBeLessThan(tol + 4 * EPS * Math.abs(lr));
        }
      });
    }
  }

  gpuIt('products past the float32 range: ±Inf and 0 where det itself is out of range, finite log|det|; det in range when only partial products are not', async () => {
    const rng = new Rng(9);
    const n = 32;
    const Q = randomUnitary(n, rng);
    const big = roundTo(new Mat(n, n, Q.data.map((v) => 1e3 * v)), 'float32');
    const small = roundTo(new Mat(n, n, Q.data.map((v) => 1e-3 * v)), 'float32');
    // row scales 1e±10 (16 each): ∏ u_ii passes 1e160 on the way, det(A) = det(M)
    const M = withCondition(n, 10, rng);
    const graded = roundTo(M.scaleRows(Array.from({ length: n }, (_, i) => (i % 2 ? 1e10 : 1e-10))), 'float32');
    const As = [big, small, graded];
    const A = toTensor(As, 'float32').to('gpu');
    const det = (await cpu(linalg.det(A))).dataSync() as Float32Array;
    const { sign, logabsdet } = linalg.slogdet(A);
    const s = (await cpu(sign)).dataSync(), la = (await cpu(logabsdet)).dataSync();
    const ref = linalg.slogdet(toTensor(As, 'float64'));
    const rs = ref.sign.dataSync(), rl = ref.logabsdet.dataSync();
    expect(det[0]).toBe(rs[0] * Infinity);
    expect(Math.abs(det[1])).toBeLessThan(1e-38);
    const refDet = linalg.det(toTensor([graded], 'float64')).dataSync()[0];
    expect(Number.isFinite(det[2])).toBe(true);
    expect(Math.abs(det[2] - refDet) / Math.abs(refDet)).toBeLessThan(30 * n * 10 * EPS);
    for (let b = 0; b < 3; b++) {
      expect(s[b]).toBe(rs[b]);
      expect(Math.abs(la[b] - rl[b])).toBeLessThan(30 * n * 10 * EPS + 4 * EPS * Math.abs(rl[b]));
    }
  });

  for (const dtype of ['float32', 'complex64'] as const) {
    for (const [n, scanInGroupMaxN] of [[16, undefined], [16, 0], [90, undefined]] as const) {
      gpuIt(`${dtype} n=${n}${scanInGroupMaxN === 0 ? ' (scan over many groups)' : ''}: singular → 0, sign 0, −∞; NaN and Inf members → NaN; neighbours as alone`, async () => {
        const rng = new Rng(n);
        const As = mats(n, 5, rng, dtype, [10]);
        for (let i = 0; i < n; i++) As[1].set(i, 2, 0); // a zero column: U[2, 2] is exactly zero
        As[2].set(n - 1, 0, NaN);
        As[3].set(n >> 1, n - 1, Infinity);
        const A = toTensor(As, dtype).to('gpu');
        const opts = { scanInGroupMaxN };
        const det = await cpu(detGpu(A, opts));
        const sl = slogdetGpu(A, opts);
        const s = await cpu(sl.sign), la = (await cpu(sl.logabsdet)).dataSync();
        expect(elem(det, 1)).toEqual([0, 0]);
        expect(elem(s, 1)).toEqual([0, 0]);
        expect(la[1]).toBe(-Infinity);
        for (const b of [2, 3]) {
          const parts = dtype === 'complex64' ? 2 : 1;
          expect(elem(det, b).slice(0, parts).every(Number.isNaN), `det ${b}`).toBe(true);
          expect(elem(s, b).slice(0, parts).every(Number.isNaN), `sign ${b}`).toBe(true);
          expect(la[b]).toBeNaN();
        }
        for (const b of [0, 4]) {
          const alone = toTensor([As[b]], dtype).to('gpu');
          expect(elem(det, b)).toEqual(elem(await cpu(detGpu(alone, opts)), 0));
          expect(la[b]).toBe((await cpu(slogdetGpu(alone, opts).logabsdet)).dataSync()[0]);
        }
      });
    }
  }

  gpuIt('det of 70,000 2×2 matrices in one call (folded dispatch past 65,535 workgroups) against ad − bc', async () => {
    const count = 70_000;
    const rng = new Rng(70);
    const a = new Float32Array(4 * count);
    for (let i = 0; i < a.length; i++) a[i] = rng.normal();
    const d = (await linalg.det(Tensor.fromStorage('float32', [count, 2, 2], a).to('gpu')).data()) as Float32Array;
    for (let i = 0; i < count; i++) {
      const ref = a[4 * i] * a[4 * i + 3] - a[4 * i + 1] * a[4 * i + 2];
      const scale = Math.abs(a[4 * i] * a[4 * i + 3]) + Math.abs(a[4 * i + 1] * a[4 * i + 2]);
      if (!(Math.abs(d[i] - ref) <= 4 * EPS * scale)) expect.fail(`matrix ${i}: det ${d[i]}, ad − bc = ${ref}`);
    }
  });

  gpuIt('0×0 matrices give det 1, sign 1, log 0; an empty batch gives empty results; batch shape kept', async () => {
    const E = Tensor.fromStorage('float32', [3, 0, 0], new Float32Array(0)).to('gpu');
    expect(Array.from(await linalg.det(E).data())).toEqual([1, 1, 1]);
    const r = linalg.slogdet(E);
    expect(Array.from(await r.sign.data())).toEqual([1, 1, 1]);
    expect(Array.from(await r.logabsdet.data())).toEqual([0, 0, 0]);
    const Z = Tensor.fromStorage('complex64', [0, 4, 4], new Float32Array(0)).to('gpu');
    expect(linalg.det(Z).shape).toEqual([0]);
    const rng = new Rng(4);
    const A = toTensor(mats(5, 6, rng, 'float32'), 'float32', [2, 3]).to('gpu');
    expect(linalg.det(A).shape).toEqual([2, 3]);
    expect(linalg.slogdet(A).logabsdet.shape).toEqual([2, 3]);
  });
});

describe('gpu luUnpack and lu', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const [m, n] of [[1, 1], [5, 3], [3, 5], [17, 17], [70, 40], [40, 70], [300, 260], [260, 300]] as const) {
      gpuIt(`${dtype} ${m}×${n}: P, L, U equal the CPU's unpack of the same factors; ‖A − P·L·U‖ ratio < 30`, async () => {
        const rng = new Rng(m * 1000 + n);
        const cplx = dtype === 'complex64';
        const count = m * n > 10_000 ? 1 : 2; // (the float64 reference products dominate the time)
        const As = Array.from({ length: count }, () => roundTo(randomMatrix(m, n, rng, { complex: cplx }), dtype));
        const f = linalg.luFactorEx(toTensor(As, dtype)); // CPU factors (rectangular), unpacked on both devices
        const g = luUnpackGpu(f.LU.to('gpu'), f.pivots.to('gpu') as Tensor<'int32'>);
        const c = lookup('luUnpack', dtype, 'cpu')(f.LU, f.pivots);
        const k = Math.min(m, n);
        const bs = count === 1 ? [] : [count];
        for (const [name, t, shape] of [['P', g.P, [...bs, m, m]], ['L', g.L, [...bs, m, k]], ['U', g.U, [...bs, k, n]]] as const) {
          expect(t.shape, name).toEqual(shape);
          expect(Array.from(await t.data()), name).toEqual(Array.from(c[name].dataSync()));
        }
        const P = await cpu(g.P), L = await cpu(g.L), U = await cpu(g.U);
        for (let b = 0; b < count; b++) expect(ratioLu(As[b], fromTensor(P, b), fromTensor(L, b), fromTensor(U, b), dtype)).toBeLessThan(30);
      });
    }
  }

  gpuIt('pivots outside 1..m count as no interchange, as on the CPU', async () => {
    const LU = toTensor([Mat.from([[4, 1, 2], [0.5, 3, 1], [0.25, 0.5, 2]])], 'float32');
    const piv = Tensor.fromStorage('int32', [3], new Int32Array([3, 0, 7]));
    const g = luUnpackGpu(LU.to('gpu'), piv.to('gpu') as Tensor<'int32'>);
    const c = lookup('luUnpack', 'float32', 'cpu')(LU, piv);
    expect(Array.from(await g.P.data())).toEqual(Array.from(c.P.dataSync()));
  });

  for (const dtype of ['float32', 'complex64'] as const) {
    for (const [m, n] of [[5, 5], [64, 64], [100, 100], [70, 40], [40, 70]] as const) {
      gpuIt(`linalg.lu on the GPU, ${dtype} ${m}×${n}: P a permutation, L unit lower, ‖A − P·L·U‖ ratio < 30`, async () => {
        const rng = new Rng(m + n + 7);
        const As = [0, 1].map(() => roundTo(randomMatrix(m, n, rng, { complex: dtype === 'complex64' }), dtype));
        const { P, L, U } = linalg.lu(toTensor(As, dtype).to('gpu'));
        expect(P.device).toBe('gpu');
        expect([P.shape, L.shape, U.shape]).toEqual([[2, m, m], [2, m, Math.min(m, n)], [2, Math.min(m, n), n]]);
        const Pc = await cpu(P), Lc = await cpu(L), Uc = await cpu(U);
        for (let b = 0; b < 2; b++) {
          const Pm = fromTensor(Pc, b), Lm = fromTensor(Lc, b);
          for (let i = 0; i < m; i++) {
            let ones = 0;
            for (let j = 0; j < m; j++) ones += Pm.re(j, i);
            expect(ones).toBe(1);
            if (i < n) expect(Lm.re(i, i)).toBe(1);
          }
          expect(ratioLu(As[b], Pm, Lm, fromTensor(Uc, b), dtype)).toBeLessThan(30);
        }
      });
    }
  }
});

const rhs = (n: number, k: number, count: number, rng: Rng, dtype: D) =>
  Array.from({ length: count }, () => roundTo(randomMatrix(n, k, rng, { complex: dtype === 'complex64' }), dtype));

describe('gpu blocked luSolve, solve and inv with small blocks (nb = 8: every block edge)', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const n of [1, 7, 8, 9, 17, 70]) {
      gpuIt(`${dtype} n=${n}: luSolve (both ops), solve and inv ratios < 30`, async () => {
        const rng = new Rng(300 + n);
        const As = mats(n, 2, rng, dtype, [1, 100]);
        const Bs = rhs(n, 3, 2, rng, dtype);
        const A = toTensor(As, dtype, [2]).to('gpu'), B = toTensor(Bs, dtype, [2]).to('gpu');
        const plan = planBatch(A, B, 'test');
        const f = luFactorCopyGpu(A, { luNb: 8 });
        for (const adjoint of [false, true]) {
          const X = await cpu(luSolveBlockedGpu(f.LU, f.pivots, B, plan, adjoint, { nb: 8 }));
          for (let b = 0; b < 2; b++) {
            expect(ratioSolve(adjoint ? As[b].adjoint() : As[b], fromTensor(X, b), Bs[b], dtype), `adjoint ${adjoint}, ${b}`).toBeLessThan(30);
          }
        }
        const s = solveBlockedGpu(A, B, plan, { nb: 8, luNb: 8 });
        expect(Array.from(await s.info.data())).toEqual([0, 0]);
        const X = await cpu(s.X);
        const inv = invBlockedGpu(A, { nb: 8, luNb: 8 });
        expect(Array.from(await inv.info.data())).toEqual([0, 0]);
        const Ai = await cpu(inv.X);
        for (let b = 0; b < 2; b++) {
          expect(ratioSolve(As[b], fromTensor(X, b), Bs[b], dtype)).toBeLessThan(30);
          expect(ratioInv(As[b], fromTensor(Ai, b), dtype)).toBeLessThan(30);
        }
      });
    }
  }
});

describe('gpu blocked solves and det on random shapes (property)', () => {
  gpuIt('solve and luSolve (both ops): ratios < 30 at any n, RHS count, batch and block size', async () => {
    await fc.assert(fc.asyncProperty(
      fc.boolean(), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3 }),
      fc.constantFrom(4, 8, 16), fc.integer({ min: 0, max: 1000 }),
      async (cplx, n, k, count, nb, seed) => {
        const dtype: D = cplx ? 'complex64' : 'float32';
        const rng = new Rng(seed);
        const As = mats(n, count, rng, dtype, [10]);
        const Bs = rhs(n, k, count, rng, dtype);
        const A = toTensor(As, dtype, [count]).to('gpu'), B = toTensor(Bs, dtype, [count]).to('gpu');
        const plan = planBatch(A, B, 'test');
        const s = solveBlockedGpu(A, B, plan, { nb, luNb: nb });
        // the blocked LU (the one-workgroup kernels compile per n: slow on a cold lavapipe)
        const f = luFactorCopyGpu(A, { luNb: nb });
        const Z = await cpu(luSolveBlockedGpu(f.LU, f.pivots, B, plan, true, { nb }));
        const X = await cpu(s.X);
        expect(Array.from(await s.info.data()).every((i) => i === 0)).toBe(true);
        for (let b = 0; b < count; b++) {
          expect(ratioSolve(As[b], fromTensor(X, b), Bs[b], dtype)).toBeLessThan(30);
          expect(ratioSolve(As[b].adjoint(), fromTensor(Z, b), Bs[b], dtype)).toBeLessThan(30);
        }
      },
    ), { numRuns: 6 });
  }, 120_000);
});

describe('gpu luSolve, solve and inv past n = 64 through linalg', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const n of [65, 70, 130]) {
      gpuIt(`${dtype} n=${n}: solve, luSolve (adjoint too) and inv ratios < 30`, async () => {
        const rng = new Rng(500 + n);
        const As = mats(n, 2, rng, dtype, [10, 1000]);
        const Bs = rhs(n, 4, 2, rng, dtype);
        const A = toTensor(As, dtype).to('gpu'), B = toTensor(Bs, dtype).to('gpu');
        const X = await cpu(linalg.solve(A, B));
        const f = linalg.luFactor(A);
        const Y = await cpu(linalg.luSolve(f.LU, f.pivots, B));
        const Z = await cpu(linalg.luSolve(f.LU, f.pivots, B, { adjoint: true }));
        const Ai = await cpu(linalg.inv(A));
        expect(X.shape).toEqual([2, n, 4]);
        for (let b = 0; b < 2; b++) {
          expect(ratioSolve(As[b], fromTensor(X, b), Bs[b], dtype), 'solve').toBeLessThan(30);
          expect(ratioSolve(As[b], fromTensor(Y, b), Bs[b], dtype), 'luSolve').toBeLessThan(30);
          expect(ratioSolve(As[b].adjoint(), fromTensor(Z, b), Bs[b], dtype), 'luSolve adjoint').toBeLessThan(30);
          expect(ratioInv(As[b], fromTensor(Ai, b), dtype), 'inv').toBeLessThan(30);
        }
      });
    }
  }

  gpuIt('broadcasting: one A over B\'s batch (stride 0), A\'s batch over one B, A (2,1) with B (3), LU (2,1) with B (1,3) (gathered factors)', async () => {
    const n = 70, k = 2;
    const rng = new Rng(71);
    const As = mats(n, 3, rng, 'float32', [10]);
    const Bs = rhs(n, k, 4, rng, 'float32');
    const check = (X: Tensor, ai: (j: number) => number, bi: (j: number) => number, count: number) => {
      for (let j = 0; j < count; j++) expect(ratioSolve(As[ai(j)], fromTensor(X, j), Bs[bi(j)], 'float32'), `member ${j}`).toBeLessThan(30);
    };
    const one = toTensor([As[0]], 'float32').to('gpu');
    const X1 = await cpu(linalg.solve(one, toTensor(Bs, 'float32', [4]).to('gpu')));
    expect(X1.shape).toEqual([4, n, k]);
    check(X1, () => 0, (j) => j, 4);
    const X2 = await cpu(linalg.solve(toTensor(As, 'float32', [3]).to('gpu'), toTensor([Bs[1]], 'float32', [1]).to('gpu')));
    check(X2, (j) => j, () => 1, 3);
    const g = linalg.solveEx(toTensor(As.slice(0, 2), 'float32', [2, 1]).to('gpu'), toTensor(Bs.slice(0, 3), 'float32', [3]).to('gpu'));
    expect(g.info.shape).toEqual([2, 3]);
    expect(Array.from(await g.info.data())).toEqual([0, 0, 0, 0, 0, 0]);
    const X3 = await cpu(g.result);
    check(X3, (j) => Math.floor(j / 3), (j) => j % 3, 6);
    const f = linalg.luFactor(toTensor(As.slice(0, 2), 'float32', [2, 1]).to('gpu'));
    const X4 = await cpu(linalg.luSolve(f.LU, f.pivots, toTensor(Bs.slice(0, 3), 'float32', [1, 3]).to('gpu'), { adjoint: true }));
    expect(X4.shape).toEqual([2, 3, n, k]);
    for (let j = 0; j < 6; j++) expect(ratioSolve(As[Math.floor(j / 3)].adjoint(), fromTensor(X4, j), Bs[j % 3], 'float32')).toBeLessThan(30);
  });

  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype} n=70: singular and NaN members (info > 0 and −1, NaN results), neighbours unaffected`, async () => {
      const n = 70;
      const rng = new Rng(72);
      const As = mats(n, 4, rng, dtype, [10]);
      for (let j = 0; j < n; j++) As[1].set(30, j, 0); // a zero row: exactly singular
      As[2].set(5, 60, NaN);
      const Bs = rhs(n, 2, 4, rng, dtype);
      const A = toTensor(As, dtype).to('gpu');
      const s = linalg.solveEx(A, toTensor(Bs, dtype).to('gpu'));
      const inv = linalg.invEx(A);
      for (const [name, info, R] of [['solve', s.info, s.result], ['inv', inv.info, inv.inverse]] as const) {
        const i = Array.from(await info.data());
        expect(i[1], name).toBeGreaterThan(0);
        expect(i[2], name).toBe(-1);
        expect([i[0], i[3]], name).toEqual([0, 0]);
        const X = await cpu(R);
        for (const b of [1, 2]) expect(Array.from(fromTensor(X, b).data).filter((_, e) => dtype === 'complex64' || e % 2 === 0).every(Number.isNaN), `${name} ${b}`).toBe(true);
        for (const b of [0, 3]) {
          if (name === 'solve') expect(ratioSolve(As[b], fromTensor(X, b), Bs[b], dtype)).toBeLessThan(30);
          else expect(ratioInv(As[b], fromTensor(X, b), dtype)).toBeLessThan(30);
        }
      }
      await expect(linalg.solve(A, toTensor(Bs, dtype).to('gpu')).data()).rejects.toThrow(/singular/);
    });
  }

  gpuIt('luSolve n=70 with pivots outside 1..n: ArgumentError on read, NaN for that matrix only', async () => {
    const n = 70;
    const rng = new Rng(73);
    const As = mats(n, 2, rng, 'float32', [10]);
    const Bs = rhs(n, 1, 2, rng, 'float32');
    const f = linalg.luFactor(toTensor(As, 'float32').to('gpu'));
    const piv = (await f.pivots.data()) as Int32Array;
    piv[n + 3] = 0;
    const bad = Tensor.fromStorage('int32', [2, n], piv).to('gpu') as Tensor<'int32'>;
    const X = linalg.luSolve(f.LU, bad, toTensor(Bs, 'float32').to('gpu'));
    await expect(X.data()).rejects.toThrow(/pivots must be in 1\.\.70, found 0 \(pivots\[3\] of LU batch element 1\)/);
    // the check ran once; the data: NaN for the bad member, its neighbour solved
    const Xs = await cpu(X);
    expect(Array.from(fromTensor(Xs, 1).data).filter((_, e) => e % 2 === 0).every(Number.isNaN)).toBe(true);
    expect(ratioSolve(As[0], fromTensor(Xs, 0), Bs[0], 'float32')).toBeLessThan(30);
  });

  gpuIt('n = 1030 (past 1024), 2 right-hand sides, through linalg.solve: ratio < 30', async () => {
    const n = 1030;
    const rng = new Rng(1030);
    const A = roundTo(randomMatrix(n, n, rng), 'float32');
    const B = roundTo(randomMatrix(n, 2, rng), 'float32');
    const X = await cpu(linalg.solve(toTensor([A], 'float32').to('gpu'), toTensor([B], 'float32').to('gpu')));
    expect(ratioSolve(A, fromTensor(X), B, 'float32')).toBeLessThan(30);
  }, 120_000);
});
