// GPU batched LU / solve / luSolve (n ≤ 64, one workgroup per matrix) against LAPACK's
// ratios, the CPU backend and mathjs, with singular/NaN members, broadcasting, complex64
// and a batch above 65,535 (folded dispatch). Real n ≤ 32 solves with ≤ 8 right-hand
// sides and factorizations run the register kernel (lu_reg.wgsl); a later block checks
// it against the CPU backend on the same inputs.
import { describe, expect } from 'vitest';
import { create, all } from 'mathjs';
import { linalg, gpu, Rng, Tensor, ArgumentError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { useLuReg, solveGpu, luFactorGpu, invLuGpu, type LuKernel } from '../../src/backend/gpu/lu.js';
import { planBatch } from '../../src/core/batch.js';
import { Mat, withCondition, randomMatrix, toTensor, fromTensor, ratioLu, ratioSolve, ratioInv, roundTo } from '../helpers/matrices.js';

useGpu();
const math = create(all, { absTol: 0, relTol: 1e-12 });

type D = 'float32' | 'complex64';
const cpu = (t: Tensor) => t.toAsync('cpu');

function mats(n: number, count: number, rng: Rng, dtype: D, cond = 100): Mat[] {
  return Array.from({ length: count }, (_, i) =>
    roundTo(withCondition(n, cond ** ((i % 5) / 4), rng, { complex: dtype === 'complex64' }), dtype));
}

/** P, L, U (float64) from a packed LU and 1-based LAPACK pivots, with P·A = L·U ⇒ A = Pᵀ·L·U. */
function unpack(LU: Mat, piv: ArrayLike<number>): { P: Mat; L: Mat; U: Mat } {
  const n = LU.rows;
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let k = 0; k < n; k++) {
    const q = piv[k] - 1;
    [perm[k], perm[q]] = [perm[q], perm[k]];
  }
  const Pt = new Mat(n, n), L = Mat.eye(n), U = new Mat(n, n);
  for (let i = 0; i < n; i++) Pt.set(perm[i], i, 1);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    if (j < i) L.set(i, j, LU.re(i, j), LU.im(i, j));
    else U.set(i, j, LU.re(i, j), LU.im(i, j));
  }
  return { P: Pt, L, U };
}

describe('gpu luFactor', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    // (each n is its own compiled kernel; n = 31 adds nothing n = 5 and 32 do not cover)
    for (const n of [1, 2, 5, 16, 32, 33, 64]) {
      gpuIt(`${dtype} n=${n}: ‖A − Pᵀ·L·U‖ ratio < 30, pivots in range`, async () => {
        const rng = new Rng(n);
        const ms = mats(n, n > 32 ? 3 : 6, rng, dtype);
        const r = linalg.luFactorEx(toTensor(ms, dtype).to('gpu'));
        const LU = await cpu(r.LU);
        const piv = await r.pivots.data();
        const info = await r.info.data();
        ms.forEach((A, b) => {
          expect(info[b]).toBe(0);
          const p = Array.from(piv.slice(b * n, (b + 1) * n));
          p.forEach((v, k) => { expect(v).toBeGreaterThanOrEqual(k + 1); expect(v).toBeLessThanOrEqual(n); });
          const { P, L, U } = unpack(fromTensor(LU, b), p);
          expect(ratioLu(A, P, L, U, dtype)).toBeLessThan(30);
        });
      });
    }
  }

  gpuIt('a zero column gives info = k and the factorization completes', async () => {
    const rng = new Rng(3);
    const n = 8; // (the factor kernel of the n=8 cases below)
    const A = roundTo(withCondition(n, 10, rng), 'float32');
    for (let i = 0; i < n; i++) A.set(i, 2, 0);
    const r = linalg.luFactorEx(toTensor([A, A], 'float32').to('gpu'));
    expect(Array.from(await r.info.data())).toEqual([3, 3]);
    const cpuR = linalg.luFactorEx(toTensor([A], 'float32'));
    expect((await r.info.data())[0]).toBe(cpuR.info.dataSync()[0]);
    const LU = await cpu(r.LU);
    expect(Array.from(LU.dataSync() as Float32Array).every(Number.isFinite)).toBe(true);
  });
});

describe('gpu solve', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    // float32 n ≤ 32, k ≤ 8 run the register kernel, one per (n, k); complex64 runs the
    // workgroup-memory kernel, one per (n, RHS pass width): its RC 1/4/8/16, two passes,
    // and both workgroup sizes are covered without the 16/8, 32/1 cases (20–50 s each cold)
    // (float32 register cases at the (n, k) of the register block below, which compiles them anyway)
    const cases = dtype === 'float32' ? [[1, 1], [3, 2], [5, 1], [32, 8], [16, 17], [32, 1], [33, 2], [64, 5]] as const
      : [[1, 1], [2, 3], [5, 1], [16, 17], [33, 2], [64, 5]] as const;
    for (const [n, k] of cases) {
      gpuIt(`${dtype} n=${n} k=${k}: ‖B − A·X‖ ratio < 30 and agrees with the CPU`, async () => {
        const rng = new Rng(10 * n + k);
        const As = mats(n, 4, rng, dtype);
        const Bs = As.map(() => roundTo(randomMatrix(n, k, rng, { complex: dtype === 'complex64' }), dtype));
        const A = toTensor(As, dtype), B = toTensor(Bs, dtype);
        const g = linalg.solveEx(A.to('gpu'), B.to('gpu'));
        const X = await cpu(g.result);
        const info = await g.info.data();
        const ref = linalg.solve(A, B);
        As.forEach((M, b) => {
          expect(info[b]).toBe(0);
          const Xi = fromTensor(X, b);
          expect(ratioSolve(M, Xi, Bs[b], dtype)).toBeLessThan(30);
          const R = fromTensor(ref, b);
          expect(Xi.sub(R).norm1()).toBeLessThan(1e-3 * R.norm1());
        });
      });
    }
  }

  gpuIt('broadcasts A (2,1) against B (3) → (2,3), and info for the broadcast batch', async () => {
    // (n = 5, k = 1: the kernel the n=5 k=1 case compiled)
    const rng = new Rng(77);
    const As = mats(5, 2, rng, 'float32');
    As[1] = Mat.from([[1, 2, 3, 4, 5], [2, 4, 6, 8, 10], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]]); // singular
    const Bs = Array.from({ length: 3 }, () => roundTo(randomMatrix(5, 1, rng), 'float32'));
    const A = toTensor(As, 'float32', [2, 1]), B = toTensor(Bs, 'float32', [3]);
    const g = linalg.solveEx(A.to('gpu'), B.to('gpu'));
    const X = await cpu(g.result);
    expect(X.shape).toEqual([2, 3, 5, 1]);
    const info = Array.from(await g.info.data());
    expect(info.slice(0, 3)).toEqual([0, 0, 0]);
    expect(info.slice(3).every((v) => v > 0)).toBe(true);
    for (let j = 0; j < 3; j++) expect(ratioSolve(As[0], fromTensor(X, j), Bs[j], 'float32')).toBeLessThan(30);
  });

  gpuIt('singular and NaN members flagged, neighbours identical to solving alone', async () => {
    const rng = new Rng(8);
    const n = 12; // k = 2: the kernel of the bmap case below
    const As = mats(n, 6, rng, 'float32');
    const S = As[2].clone();
    for (let j = 0; j < n; j++) S.set(4, j, 0); // a zero row: exactly singular
    As[2] = S;
    As[4] = As[4].clone();
    As[4].set(1, 1, NaN);
    const Bs = As.map(() => roundTo(randomMatrix(n, 2, rng), 'float32'));
    const g = linalg.solveEx(toTensor(As, 'float32').to('gpu'), toTensor(Bs, 'float32').to('gpu'));
    const info = Array.from(await g.info.data());
    const X = await cpu(g.result);
    expect(info[2]).toBeGreaterThan(0);
    expect(info[4]).toBe(-1);
    for (const b of [2, 4]) expect(Array.from(fromTensor(X, b).data).filter((_, i) => i % 2 === 0).every(Number.isNaN)).toBe(true);
    for (const b of [0, 1, 3, 5]) {
      expect(info[b]).toBe(0);
      const alone = linalg.solve(toTensor([As[b]], 'float32').to('gpu'), toTensor([Bs[b]], 'float32').to('gpu'));
      expect(Array.from(fromTensor(X, b).data)).toEqual(Array.from(fromTensor(await cpu(alone)).data));
    }
  });

  gpuIt('agrees with mathjs lusolve on samples', async () => {
    const rng = new Rng(21);
    for (const n of [5, 32]) { // (the kernels of the n=5 and n=32 k=1 cases)
      const M = roundTo(withCondition(n, 30, rng), 'float32');
      const b = roundTo(randomMatrix(n, 1, rng), 'float32');
      const X = fromTensor(await cpu(linalg.solve(toTensor([M], 'float32').to('gpu'), toTensor([b], 'float32').to('gpu'))));
      const ref = math.lusolve(M.toRealArray(), b.toRealArray()) as number[][];
      for (let i = 0; i < n; i++) expect(Math.abs(X.re(i, 0) - ref[i][0])).toBeLessThan(1e-4 * 30 * n);
    }
  });

  // registers, 16 systems a group; registers with 2-thread groups (one system each, so
  // 70,000 groups fold); the workgroup-memory kernel (70,000 groups)
  for (const [variant, registers, wg] of [['registers', true, 32], ['registers, 1 per group', true, 2], ['workgroup memory', false, 32]] as const) {
  gpuIt(`70,000 2×2 systems in one call, ${variant} (folded dispatch past 65,535 workgroups)`, async () => {
    await solve70k({ registers, wg });
  });
  }

  async function solve70k(kernel: LuKernel) {
    const count = 70_000;
    const rng = new Rng(70);
    const a = new Float32Array(count * 4), b = new Float32Array(count * 2);
    for (let i = 0; i < a.length; i++) a[i] = rng.normal();
    for (let i = 0; i < count; i++) { a[4 * i] += 3; a[4 * i + 3] += 3; }
    for (let i = 0; i < b.length; i++) b[i] = rng.normal();
    const A = Tensor.fromStorage('float32', [count, 2, 2], a), B = Tensor.fromStorage('float32', [count, 2, 1], b);
    const Ag = A.to('gpu'), Bg = B.to('gpu');
    const r = solveGpu(Ag, Bg, planBatch(Ag, Bg, 'test'), kernel);
    expect(Array.from(await r.info.data()).every((i) => i === 0)).toBe(true);
    const X = (await r.X.data()) as Float32Array;
    const ref = linalg.solve(A, B).dataSync() as Float32Array;
    for (let i = 0; i < count; i++) {
      const r0 = b[2 * i] - a[4 * i] * X[2 * i] - a[4 * i + 1] * X[2 * i + 1];
      const r1 = b[2 * i + 1] - a[4 * i + 2] * X[2 * i] - a[4 * i + 3] * X[2 * i + 1];
      const scale = (Math.abs(a[4 * i]) + Math.abs(a[4 * i + 1]) + Math.abs(a[4 * i + 2]) + Math.abs(a[4 * i + 3])) * (Math.abs(X[2 * i]) + Math.abs(X[2 * i + 1]));
      if (!(Math.abs(r0) + Math.abs(r1) <= 30 * 1.2e-7 * scale)) expect.fail(`system ${i}: residual ${Math.abs(r0) + Math.abs(r1)}`);
      // GPU and CPU agree to the accuracy κ(A)·eps allows (κ₁ of a 2×2 in closed form)
      const det = a[4 * i] * a[4 * i + 3] - a[4 * i + 1] * a[4 * i + 2];
      const kappa = Math.max(Math.abs(a[4 * i]) + Math.abs(a[4 * i + 2]), Math.abs(a[4 * i + 1]) + Math.abs(a[4 * i + 3])) ** 2 / Math.abs(det);
      const dx = Math.abs(X[2 * i] - ref[2 * i]) + Math.abs(X[2 * i + 1] - ref[2 * i + 1]);
      if (!(dx <= 30 * kappa * 1.2e-7 * (Math.abs(ref[2 * i]) + Math.abs(ref[2 * i + 1])))) expect.fail(`system ${i}: GPU and CPU differ by ${dx} (κ ${kappa})`);
    }
  }
});

describe('gpu luSolve', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const adjoint of [false, true]) {
      gpuIt(`${dtype}, adjoint=${adjoint}: ‖B − op(A)·X‖ ratio < 30, broadcast B`, async () => {
        const rng = new Rng(adjoint ? 5 : 6);
        const n = 16; // (the factor kernel of the luFactor n=16 case)
        const As = mats(n, 2, rng, dtype);
        const Bs = Array.from({ length: 4 }, () => roundTo(randomMatrix(n, 3, rng, { complex: dtype === 'complex64' }), dtype));
        const f = linalg.luFactor(toTensor(As, dtype, [2, 1]).to('gpu'));
        const X = await cpu(linalg.luSolve(f.LU, f.pivots, toTensor(Bs, dtype, [4]).to('gpu'), { adjoint }));
        expect(X.shape).toEqual([2, 4, n, 3]);
        for (let a = 0; a < 2; a++) for (let j = 0; j < 4; j++) {
          const opA = adjoint ? As[a].adjoint() : As[a];
          expect(ratioSolve(opA, fromTensor(X, a * 4 + j), Bs[j], dtype)).toBeLessThan(30);
        }
      });
    }
  }
});

describe('gpu register LU kernel against the CPU', () => {
  // The reference is the CPU backend: the workgroup-memory kernel never runs the library's
  // float32 factorizations, inverses or ≤ 8-column solves at n ≤ 32 (the register kernel fits
  // even WebGPU's default limits), and compiling it per n was most of this file's time on
  // lavapipe (its 16/17 solve case above still compares the two through the CPU).
  // wg: threads per group of the register kernel (n ≤ wg/2 packs several matrices into one)
  // (vector and scalar loads, one to four tiers, packed and one-matrix groups, R rounded up,
  // the largest n; 64-thread groups, which only tests pick, once: three kernels per case)
  for (const [n, k, wg] of [[1, 1, 32], [3, 2, 32], [8, 1, 32], [13, 5, 32], [16, 1, 32],
    [24, 8, 32], [32, 1, 32], [32, 8, 32], [12, 3, 64]] as const) {
    const variant = wg !== 32 ? `${wg}-thread groups` : '';
    gpuIt(`n=${n} k=${k}${variant ? ` (${variant})` : ''}: info as documented; solutions, inverses and factors as the CPU's to rounding; same pivots`, async () => {
      expect(useLuReg('float32', n, k)).toBe(true);
      const rng = new Rng(1000 + 10 * n + k);
      const count = 11; // not a multiple of the matrices per group
      const As = mats(n, count, rng, 'float32');
      // a singular member (zero column 0 then a repeated row) and a NaN member among them
      if (n > 1) {
        As[3] = As[3].clone();
        for (let i = 0; i < n; i++) As[3].set(i, 0, 0);
      }
      As[6] = As[6].clone();
      As[6].set(n - 1, 0, NaN);
      const Bs = As.map(() => roundTo(randomMatrix(n, k, rng), 'float32'));
      const Ac = toTensor(As, 'float32'), Bc = toTensor(Bs, 'float32');
      const A = Ac.to('gpu'), B = Bc.to('gpu');
      const kernel = { registers: true, wg };
      const s = solveGpu(A, B, planBatch(A, B, 'test'), kernel);
      const f = luFactorGpu(A, kernel);
      const v = n > 4 ? invLuGpu(A, kernel) : null; // n ≤ 4: inv_small, not the LU kernels
      const reg = {
        inv: v && await cpu(v.X), iinfo: v && Array.from(await v.info.data()),
        X: await cpu(s.X), info: Array.from(await s.info.data()),
        LU: await cpu(f.LU), piv: Array.from(await f.pivots.data()), finfo: Array.from(await f.info.data()),
      };
      const cf = linalg.luFactorEx(Ac), cs = linalg.solveEx(Ac, Bc);
      const cLU = cf.LU, cpiv = Array.from(cf.pivots.dataSync());
      // info: 1 for the zero first column, −1 for the NaN member in solve and inverse (the
      // factorization, as LAPACK's, reports no NaN: 0), else 0
      const want = As.map((_, b) => (b === 6 ? -1 : b === 3 && n > 1 ? 1 : 0));
      expect(reg.info).toEqual(want);
      expect(reg.finfo).toEqual(want.map((w, b) => (b === 6 ? 0 : w)));
      if (reg.iinfo) expect(reg.iinfo).toEqual(want);
      if (reg.inv) {
        const ci = linalg.invEx(Ac).inverse;
        for (let b = 0; b < count; b++) {
          const Vr = fromTensor(reg.inv, b);
          if (want[b] !== 0) {
            expect(Array.from(Vr.data).filter((_, i) => i % 2 === 0).every(Number.isNaN)).toBe(true);
            continue;
          }
          const Vc = fromTensor(ci, b);
          expect(Vr.sub(Vc).norm1()).toBeLessThan(1e-4 * n * Vc.norm1());
          expect(ratioInv(As[b], Vr, 'float32')).toBeLessThan(30);
        }
      }
      for (let b = 0; b < count; b++) {
        if (want[b] !== 0) {
          expect(Array.from(fromTensor(reg.X, b).data).filter((_, i) => i % 2 === 0).every(Number.isNaN)).toBe(true);
        } else {
          const Xr = fromTensor(reg.X, b), Xc = fromTensor(cs.result, b);
          expect(Xr.sub(Xc).norm1()).toBeLessThan(1e-4 * n * Xc.norm1());
          expect(ratioSolve(As[b], Xr, Bs[b], 'float32')).toBeLessThan(30);
        }
        if (b === 6) continue;
        // the factors: same pivots (random data: no near-ties), entries to rounding
        expect(reg.piv.slice(b * n, (b + 1) * n)).toEqual(cpiv.slice(b * n, (b + 1) * n));
        const Lr = fromTensor(reg.LU, b), Lc = fromTensor(cLU, b);
        expect(Lr.sub(Lc).norm1()).toBeLessThanOrEqual(1e-4 * n * Lc.norm1());
        const { P, L, U } = unpack(Lr, reg.piv.slice(b * n, (b + 1) * n));
        expect(ratioLu(As[b], P, L, U, 'float32')).toBeLessThan(30);
      }
    }, 600_000);
  }

  gpuIt('pivots below the smallest normal: as on the CPU where the adapter keeps subnormals, as the zero matrix where it flushes them', async () => {
    const n = 4, s = 2 ** -130;
    const M = [4, 1, 2, 0, 1, 8, 0, 2, 2, 0, 4, 1, 0, 3, 1, 8];
    const A = Tensor.fromStorage('float32', [1, n, n], new Float32Array(M.map((v) => v * s)));
    const B = Tensor.fromStorage('float32', [1, n, 1], new Float32Array([1, 2, 3, 4].map((v) => v * s)));
    const f = linalg.luFactorEx(A.to('gpu'));
    const x = linalg.solveEx(A.to('gpu'), B.to('gpu'));
    if (!gpu.info()!.subnormals) {
      // The contract on an adapter that flushes float32 subnormals (gpu.info().subnormals
      // false, e.g. the H200): subnormal values act as zero, so every entry of A does and
      // info is that of the zero matrix on the CPU; solve flags it and writes NaN.
      const zero = linalg.luFactorEx(Tensor.fromStorage('float32', [1, n, n], new Float32Array(n * n)));
      expect(Array.from(await f.info.data())).toEqual(Array.from(zero.info.dataSync()));
      expect(Array.from(await x.info.data())).toEqual([1]);
      expect(Array.from(await x.result.data()).every(Number.isNaN)).toBe(true);
      return;
    }
    const c = linalg.luFactorEx(A);
    const xc = linalg.solve(A, B).dataSync() as Float32Array;
    expect(Array.from(await f.info.data())).toEqual([0]);
    expect(Array.from(await f.pivots.data())).toEqual(Array.from(c.pivots.dataSync()));
    const lu = (await f.LU.data()) as Float32Array, luc = c.LU.dataSync() as Float32Array;
    // U is denormal (fewer significant bits: ~2⁻¹⁴⁹ absolute), L is of order one
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const e = i * n + j, scale = j >= i ? 1 / s : 1;
      expect(Math.abs(lu[e] - luc[e]) * scale).toBeLessThan(1e-4);
    }
    const xg = (await x.result.data()) as Float32Array;
    for (let i = 0; i < n; i++) expect(Math.abs(xg[i] - xc[i])).toBeLessThan(1e-4);
  });

  gpuIt('exact ties (±1 matrices) pivot as LAPACK does: pivots, info and LU as on the CPU', async () => {
    // (small orders: from n ≈ 16 later columns hold rounded values whose near-ties any two
    // implementations break differently: the old kernel's pivots differ from the CPU's too)
    const rng = new Rng(4242);
    for (const n of [4, 5, 8]) { // (the factor kernels of other cases)
      const count = 6;
      const a = new Float32Array(count * n * n).map(() => (rng.normal() < 0 ? -1 : 1));
      const A = Tensor.fromStorage('float32', [count, n, n], a);
      const g = linalg.luFactorEx(A.to('gpu'));
      const c = linalg.luFactorEx(A);
      expect(Array.from(await g.info.data())).toEqual(Array.from(c.info.dataSync()));
      expect(Array.from(await g.pivots.data())).toEqual(Array.from(c.pivots.dataSync()));
      const lu = (await g.LU.data()) as Float32Array, luc = c.LU.dataSync() as Float32Array;
      for (let b = 0; b < count; b++) {
        let d = 0, nrm = 0;
        for (let e = b * n * n; e < (b + 1) * n * n; e++) { d += Math.abs(lu[e] - luc[e]); nrm += Math.abs(luc[e]); }
        expect(d).toBeLessThan(1e-5 * nrm);
      }
    }
  });

  gpuIt('broadcast B (bmap) through the register kernel', async () => {
    const rng = new Rng(99);
    const n = 12;
    const As = mats(n, 3, rng, 'float32');
    const Bs = [roundTo(randomMatrix(n, 2, rng), 'float32')];
    const A = toTensor(As, 'float32', [3]).to('gpu'), B = toTensor(Bs, 'float32', [1]).to('gpu');
    const g = linalg.solveEx(A, B);
    const X = await cpu(g.result);
    expect(Array.from(await g.info.data())).toEqual([0, 0, 0]);
    for (let b = 0; b < 3; b++) expect(ratioSolve(As[b], fromTensor(X, b), Bs[0], 'float32')).toBeLessThan(30);
  });
});

describe('gpu exact singularity and bad pivots (issue 10, items 9 and 10)', () => {
  /**
   * Matrices with one row equal to ± another (exactly singular): row j := sign·row i.
   * Once row i is eliminated, row j must cancel to exact zeros (its multiplier is exactly
   * ±1), so the last pivot is exactly zero and info = n, on both kernels. (a·(1/p) alone
   * may give 1 − 2⁻²⁴: a pivot ~1e-7·‖A‖ and info 0 with entries ~1e7 in the inverse.)
   */
  function duplicated(n: number, count: number, dtype: D, seed: number): Mat[] {
    const rng = new Rng(seed);
    return mats(n, count, rng, dtype).map((A, b) => {
      const M = A.clone();
      const i = b % n, j = (i + 1 + ((5 * b) % (n - 1))) % n, sign = b % 3 === 0 ? -1 : 1;
      for (let c = 0; c < n; c++) M.set(j, c, sign * M.re(i, c), sign * M.im(i, c));
      return M;
    });
  }

  const kernelOf = (registers: boolean): LuKernel => ({ registers, wg: 32 });

  // register kernel: float32 n ≤ 32; workgroup-memory kernel: registers off, n > 32, complex64
  // (the workgroup-memory kernel's float32 n = 16 runs it in the fused solve and inverse below)
  for (const [dtype, n, registers] of [['float32', 5, true], ['float32', 16, true], ['float32', 32, true],
    ['float32', 32, false], ['float32', 33, false], ['float32', 64, false],
    ['complex64', 5, false], ['complex64', 16, false]] as const) {
    const kernel = dtype === 'float32' && n <= 32 && registers ? 'register kernel' : 'workgroup-memory kernel';
    gpuIt(`${dtype} n=${n}, ${kernel}: a duplicated (or negated) row gives info = n, as the CPU where it reports one`, async () => {
      const count = n > 32 ? 8 : 24;
      const As = duplicated(n, count, dtype, 500 + n);
      const A = toTensor(As, dtype);
      const info = await luFactorGpu(A.to('gpu'), kernelOf(registers)).info.data();
      const cpuInfo = linalg.luFactorEx(A).info.dataSync();
      for (let b = 0; b < count; b++) {
        expect(info[b]).toBe(n);
        // the CPU's a·(1/p) can miss an exact zero (it reports 0 on some of these); where
        // it reports one, it is the same
        if (cpuInfo[b] !== 0) expect(info[b]).toBe(cpuInfo[b]);
      }
    });
  }

  gpuIt('inv n ≤ 4 (closed form, pivoted fallback): a duplicated (or negated) row gives info = n and NaN', async () => {
    for (const n of [2, 3, 4]) {
      for (const dtype of ['float32', 'complex64'] as const) {
        const count = 24;
        const r = linalg.invEx(toTensor(duplicated(n, count, dtype, 900 + n), dtype).to('gpu'));
        expect(Array.from(await r.info.data())).toEqual(new Array(count).fill(n));
        expect(Array.from(await r.inverse.data()).every(Number.isNaN)).toBe(true);
      }
    }
  });

  for (const registers of [true, false]) {
    gpuIt(`solve and inv of duplicated-row matrices (n = 16, ${registers ? 'register' : 'workgroup-memory'} kernel): info = n, NaN results`, async () => {
      const n = 16, count = 11;
      const As = duplicated(n, count, 'float32', 77);
      const A = toTensor(As, 'float32').to('gpu');
      const B = Tensor.fromStorage('float32', [count, n, 1], new Float32Array(count * n).fill(1)).to('gpu');
      const s = solveGpu(A, B, planBatch(A, B, 'test'), kernelOf(registers)), v = invLuGpu(A, kernelOf(registers));
      const [si, sx, ii, ix] = await Promise.all([s.info.data(), s.X.data(), v.info.data(), v.X.data()]);
      expect(Array.from(si)).toEqual(new Array(count).fill(n));
      expect(Array.from(ii)).toEqual(new Array(count).fill(n));
      expect(Array.from(sx).every(Number.isNaN)).toBe(true);
      expect(Array.from(ix).every(Number.isNaN)).toBe(true);
    });
  }

  gpuIt('luSolve with pivots outside 1..n (garbage, 0-based): ArgumentError on read as on the CPU, NaN for that matrix only', async () => {
    const n = 16, k = 3; // (the factor and luSolve kernels of the n=16 cases above)
    const iota = Array.from({ length: n }, (_, i) => i);
    const rng = new Rng(4711);
    const As = mats(n, 3, rng, 'float32');
    const Bs = As.map(() => roundTo(randomMatrix(n, k, rng), 'float32'));
    const f = linalg.luFactor(toTensor(As, 'float32').to('gpu'));
    const piv = Int32Array.from(await f.pivots.data());
    const good = piv.slice();
    piv.set([1000, -5], n);                                // member 1: garbage
    const zeroBased = piv.slice();
    zeroBased.set(iota, 2 * n);                           // member 2: 0-based (0 is out of range)
    const B = toTensor(Bs, 'float32').to('gpu');
    for (const [p, bad, value] of [[piv, 1, 1000], [zeroBased, 1, 1000]] as const) {
      const P = Tensor.fromStorage('int32', [3, n], p).to('gpu') as Tensor<'int32'>;
      const X = linalg.luSolve(f.LU, P, B);
      await expect(X.data()).rejects.toThrow(ArgumentError);
      // the CPU refuses the same pivots (luSolve's check)
      const LUc = await f.LU.toAsync('cpu');
      expect(() => linalg.luSolve(LUc, Tensor.fromStorage('int32', [3, n], p), toTensor(Bs, 'float32'))).toThrow(ArgumentError);
      // the check ran once; the data: NaN for the bad member, its neighbours solved
      const Xs = await cpu(X);
      const raw = Xs.dataSync() as Float32Array;
      for (let b = 0; b < 3; b++) {
        const nan = Array.from(raw.subarray(b * n * k, (b + 1) * n * k)).every(Number.isNaN);
        expect(nan).toBe(b === bad || (b === 2 && p[2 * n] === 0));
        if (!nan) expect(ratioSolve(As[b], fromTensor(Xs, b), Bs[b], 'float32')).toBeLessThan(30);
      }
      // message names the range and the value
      const X2 = linalg.luSolve(f.LU, P, B);
      await expect(X2.data()).rejects.toThrow(new RegExp(`pivots must be in 1\\.\\.${n}, found ${value}`));
      // X·A = B (left: false) goes through a transpose: the check goes with it
      const Bt = toTensor(Bs.map((M) => M.transpose()), 'float32').to('gpu');
      await expect(linalg.luSolve(f.LU, P, Bt, { left: false }).data()).rejects.toThrow(ArgumentError);
    }
    // only member 2 bad (0-based): its error names the 0
    const onlyZero = good.slice();
    onlyZero.set(iota, 2 * n);
    const P0 = Tensor.fromStorage('int32', [3, n], onlyZero).to('gpu') as Tensor<'int32'>;
    await expect(linalg.luSolve(f.LU, P0, B).data()).rejects.toThrow(/found 0 \(pivots\[0\] of batch element 2\)/);
    // valid pivots: no error
    const Pg = Tensor.fromStorage('int32', [3, n], good).to('gpu') as Tensor<'int32'>;
    const Xg = await cpu(linalg.luSolve(f.LU, Pg, B));
    for (let b = 0; b < 3; b++) expect(ratioSolve(As[b], fromTensor(Xg, b), Bs[b], 'float32')).toBeLessThan(30);
  });
});
