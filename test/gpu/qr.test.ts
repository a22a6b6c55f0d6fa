// GPU blocked Householder QR (src/backend/gpu/qr.ts): LAPACK's ratios ‖A − Q·R‖ and
// ‖QᴴQ − I‖, R upper triangular with a real diagonal, R against the CPU backend (same
// signs), every mode, tall/square/wide on block edges with small panel widths, complex64,
// NaN and rank-deficient batch members beside untouched neighbours, and one size > 1024.
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { gpu, linalg, Rng, Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { qrGpu, panelShape, type QrMode, type QrParams } from '../../src/backend/gpu/qr.js';
import { Mat, randomMatrix, toTensor, fromTensor, roundTo } from '../helpers/matrices.js';

useGpu();

type D = 'float32' | 'complex64';
const EPS = 1.1920928955078125e-7;
const cpu = (t: Tensor) => t.toAsync('cpu');

interface Checked { back: number; orth: number }

/** Checks one member; returns LAPACK's ratios ‖A − Q·R‖/(‖A‖·max(m,n)·eps), ‖QᴴQ − I‖/(m·eps). */
function check(A: Mat, Q: Mat | null, R: Mat, mode: QrMode): Checked {
  const m = A.rows, n = A.cols, k = Math.min(m, n);
  const rr = mode === 'complete' ? m : k;
  expect([R.rows, R.cols]).toEqual([rr, n]);
  for (let i = 0; i < rr; i++) {
    for (let j = 0; j < Math.min(i, n); j++) expect([R.re(i, j), R.im(i, j)]).toEqual([0, 0]);
    if (i < k) expect(R.im(i, i)).toBe(0);
  }
  if (!Q) return { back: 0, orth: 0 };
  const qc = mode === 'complete' ? m : k;
  expect([Q.rows, Q.cols]).toEqual([m, qc]);
  // Q·R with R's first k rows (the rest are zero)
  const Qk = new Mat(m, k), Rk = new Mat(k, n);
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) Qk.set(i, j, Q.re(i, j), Q.im(i, j));
  for (let i = 0; i < k; i++) for (let j = 0; j < n; j++) Rk.set(i, j, R.re(i, j), R.im(i, j));
  const na = A.normFro();
  const back = A.sub(Qk.mul(Rk)).normFro() / ((na || 1) * Math.max(m, n) * EPS);
  const orth = Q.adjoint().mul(Q).sub(Mat.eye(qc)).normFro() / (m * EPS);
  expect(back).toBeLessThan(30);
  expect(orth).toBeLessThan(30);
  return { back, orth };
}

/** GPU QR of the matrices (one batch), checked; R compared with the CPU backend's. */
async function run(ms: Mat[], dtype: D, mode: QrMode, params: QrParams, batch?: number[]): Promise<{ Q: Tensor | null; R: Tensor }> {
  const A = toTensor(ms, dtype, batch);
  const g = qrGpu(A.to('gpu'), mode, params);
  const R = await cpu(g.R), Q = g.Q ? await cpu(g.Q) : null;
  const ref = linalg.qr(A, { mode });
  ms.forEach((M, b) => {
    const r = fromTensor(R, b);
    check(M, Q ? fromTensor(Q, b) : null, r, mode);
    // Same reflectors as the CPU (LAPACK's larfg): R agrees entry by entry, signs included.
    const rc = fromTensor(ref.R, b);
    const tol = 30 * Math.max(M.rows, M.cols) * EPS * M.normFro();
    expect(r.sub(rc).normFro()).toBeLessThan(tol);
  });
  return { Q, R };
}

/** Every entry NaN (real and imaginary parts; real dtypes: the real parts). */
const allNaN = (M: Mat, cplx: boolean) => Array.from(M.data).every((v, i) => Number.isNaN(v) || (!cplx && i % 2 === 1));

const rand = (m: number, n: number, rng: Rng, dtype: D) => roundTo(randomMatrix(m, n, rng, { complex: dtype === 'complex64' }), dtype);

describe('gpu qr: block edges with small panel widths', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: n = 1, 5, 8, 9, 17 square, nb = 4 and 8, every mode`, async () => {
      const rng = new Rng(1);
      for (const nb of [4, 8]) {
        for (const n of [1, 5, 8, 9, 17]) {
          const ms = [rand(n, n, rng, dtype), rand(n, n, rng, dtype)];
          for (const mode of ['reduced', 'complete', 'r'] as const) await run(ms, dtype, mode, { nb });
        }
      }
    });
    // (nb = 16, the default, runs in the linalg.qr case below: here its small-m panel
    // variants, one lavapipe compile each, only repeated the nb = 4 and 8 code on these shapes)
    gpuIt(`${dtype}: tall 40×17 and wide 17×40, nb = 4, 8; every mode`, async () => {
      const rng = new Rng(2);
      for (const nb of [4, 8]) {
        for (const [m, n] of [[40, 17], [17, 40], [9, 8], [8, 9]]) {
          const ms = [rand(m, n, rng, dtype), rand(m, n, rng, dtype), rand(m, n, rng, dtype)];
          for (const mode of ['reduced', 'complete', 'r'] as const) await run(ms, dtype, mode, { nb });
        }
      }
    });
    gpuIt(`${dtype}: nb = 5 (idle column lanes) and panel workgroups of 8 and 16 threads (1 and 2 row lanes)`, async () => {
      const rng = new Rng(9);
      for (const [nb, panelWg] of [[5, undefined], [8, 8], [8, 16], [4, 16]] as const) {
        for (const [m, n] of [[40, 17], [17, 40], [12, 12]]) {
          // explicit tiny workgroups: the storage panel's row lanes (the register one would keep 40 rows per thread)
          await run([rand(m, n, rng, dtype), rand(m, n, rng, dtype)], dtype, 'complete', { nb, panelWg, ...(panelWg ? { panel: 'global' as const } : {}) });
        }
      }
    });
    gpuIt(`${dtype}: both panel kernels (registers, storage), the register panel's row buckets, and the storage one past its register limit`, async () => {
      const rng = new Rng(11);
      for (const panel of ['registers', 'global'] as const) {
        for (const [m, n] of [[40, 17], [17, 40], [13, 13]]) {
          await run([rand(m, n, rng, dtype), rand(m, n, rng, dtype)], dtype, 'complete', { nb: 8, panel });
        }
      }
      // 1 row lane of 8 columns: 100 rows per thread is past MAX_REG_ROWS, the default takes the storage panel
      expect(panelShape(100, 8, 8).fitsRegs).toBe(false);
      expect([panelShape(60, 8, 8, 4).R, panelShape(40, 8, 8, 4).R, panelShape(40, 8, 8, 8).fitsRegs]).toEqual([64, 48, false]);
      // 4096 rows, nb 16: the widest workgroup the device allows; 64 rows per thread in registers at 1024 threads
      const lim = gpu.info()!.limits;
      const cap = Math.min(1024, lim.maxComputeInvocationsPerWorkgroup, lim.maxComputeWorkgroupSizeX);
      const tall = panelShape(4096, 16, undefined, 4);
      expect(tall).toMatchObject({ WG: cap, R: 4096 / (cap / 16) });
      if (cap === 1024 && lim.maxComputeWorkgroupStorageSize >= 32768) expect(tall.fitsRegs).toBe(true);
      else expect(tall.fitsRegs).toBe(tall.R <= 64 && lim.maxComputeWorkgroupStorageSize >= (tall.R * (cap / 16) + cap + 16 + 256 + 1) * 4 + (cap / 16) * 8);
      await run([rand(100, 12, rng, dtype)], dtype, 'reduced', { nb: 8, panelWg: 8 });
    });
    gpuIt(`${dtype}: a single matrix with split-K products (row chunks of ≥ 6, remainder chunk), nb = 4 and 8`, async () => {
      const rng = new Rng(8);
      for (const nb of [4, 8]) {
        for (const [m, n] of [[40, 17], [17, 40], [23, 23]]) {
          for (const mode of ['reduced', 'complete'] as const) await run([rand(m, n, rng, dtype)], dtype, mode, { nb, splitK: 3, splitMinRows: 6 });
        }
      }
    });
  }
});

describe('gpu qr: random shapes, block sizes and modes (fast-check)', () => {
  gpuIt('ratios < 30 and R as on the CPU for m, n in 1..24, nb in {2, 3, 5, 8}, both dtypes, every mode', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 24 }), fc.constantFrom(2, 3, 5, 8),
      fc.constantFrom<D>('float32', 'complex64'), fc.constantFrom<QrMode>('reduced', 'complete', 'r'), fc.integer({ min: 0, max: 1e6 }),
      async (m, n, nb, dtype, mode, seed) => {
        const rng = new Rng(seed);
        await run([rand(m, n, rng, dtype), rand(m, n, rng, dtype)], dtype, mode, { nb });
      }), { numRuns: 4 });
  });
});

describe('gpu qr: batches, bad members, scales, sizes above 1024', () => {
  gpuIt('batch shape [2, 3] broadcast through every dispatch, complex64 and float32', async () => {
    const rng = new Rng(3);
    for (const dtype of ['float32', 'complex64'] as const) {
      const ms = Array.from({ length: 6 }, () => rand(13, 10, rng, dtype));
      const { Q, R } = await run(ms, dtype, 'reduced', { nb: 4 }, [2, 3]);
      expect(Q!.shape).toEqual([2, 3, 13, 10]);
      expect(R.shape).toEqual([2, 3, 10, 10]);
    }
  });

  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: NaN and Inf members give NaN Q and R; rank-deficient and zero members and the neighbours are right`, async () => {
      const rng = new Rng(4);
      const cplx = dtype === 'complex64';
      const [m, n] = [19, 11];
      const nanM = rand(m, n, rng, dtype);
      nanM.set(7, 9, NaN);
      const infM = rand(m, n, rng, dtype);
      infM.set(0, 0, Infinity, 0);
      // rank 3, and a repeated column: reflectors of zero-norm columns (tau = 0) appear
      const low = roundTo(randomMatrix(m, 3, rng, { complex: cplx }).mul(randomMatrix(3, n, rng, { complex: cplx })), dtype);
      const zero = new Mat(m, n);
      const ms = [rand(m, n, rng, dtype), nanM, low, infM, zero, rand(m, n, rng, dtype)];
      for (const mode of ['reduced', 'complete', 'r'] as const) {
        const A = toTensor(ms, dtype);
        const g = qrGpu(A.to('gpu'), mode, { nb: 4 });
        const R = await cpu(g.R), Q = g.Q ? await cpu(g.Q) : null;
        const ref = linalg.qr(A, { mode });
        for (const b of [0, 2, 4, 5]) {
          const r = fromTensor(R, b);
          check(ms[b], Q ? fromTensor(Q, b) : null, r, mode);
          expect(r.sub(fromTensor(ref.R, b)).normFro()).toBeLessThan(30 * m * EPS * Math.max(ms[b].normFro(), 1e-30));
        }
        for (const b of [1, 3]) {
          // the CPU's contract: NaN in R (here all of Q and R, like LAPACK info −1 elsewhere)
          expect(Array.from(fromTensor(ref.R, b).data).some(Number.isNaN)).toBe(true);
          expect(allNaN(fromTensor(R, b), cplx)).toBe(true);
          if (Q) expect(allNaN(fromTensor(Q, b), cplx)).toBe(true);
        }
        // the zero matrix: R = 0, Q = the identity's columns (every tau = 0)
        expect(fromTensor(R, 4).normFro()).toBe(0);
        if (Q) {
          const q = fromTensor(Q, 4);
          for (let i = 0; i < m; i++) for (let j = 0; j < q.cols; j++) expect([q.re(i, j), q.im(i, j)]).toEqual([i === j ? 1 : 0, 0]);
        }
      }
    });
  }

  gpuIt('float32 and complex64 at scales 1e-33, 1e-20, 1e20, 1e35: scaled norms, no over- or underflow', async () => {
    const rng = new Rng(5);
    for (const dtype of ['float32', 'complex64'] as const) {
      for (const sc of [1e-33, 1e-20, 1e20, 1e35]) {
        const base = rand(24, 13, rng, dtype);
        const A = roundTo(new Mat(24, 13, base.data.map((v) => v * sc)), dtype);
        await run([A], dtype, 'reduced', { nb: 8 });
      }
    }
  });

  gpuIt('above 1024: 1030×16 tall (two panels of 8) and 16×1030 wide', async () => {
    const rng = new Rng(6);
    await run([rand(1030, 16, rng, 'float32')], 'float32', 'reduced', { nb: 8, splitK: 4 });
    await run([rand(16, 1030, rng, 'float32')], 'float32', 'complete', { nb: 8 });
    await run([rand(1030, 16, rng, 'complex64')], 'complex64', 'r', {});
  });

  gpuIt('a batch of 65,600 3×2 matrices, mode r (panel dispatch folded past 65,535 workgroups), against the CPU', async () => {
    const count = 65600;
    const data = new Float32Array(count * 6);
    const rng = new Rng(10);
    for (let i = 0; i < data.length; i++) data[i] = rng.normal();
    const A = Tensor.fromStorage('float32', [count, 3, 2], data);
    const R = await qrGpu(A.to('gpu'), 'r', {}).R.data();
    const Rc = linalg.qr(A, { mode: 'r' }).R.dataSync();
    let worst = 0;
    for (let i = 0; i < R.length; i++) worst = Math.max(worst, Math.abs(R[i] - Rc[i]));
    expect(worst).toBeLessThan(1e-5 * 8);
  });

  gpuIt('empty shapes: 3×0 (complete Q = I), 0×3, a batch of 0; shapes as on the CPU', async () => {
    for (const shape of [[3, 0], [0, 3], [0, 4, 4], [2, 3, 0]]) {
      for (const mode of ['reduced', 'complete', 'r'] as const) {
        const A = Tensor.empty('float32', shape);
        const g = qrGpu(A.to('gpu'), mode, {});
        const ref = linalg.qr(A, { mode });
        expect(g.R.shape).toEqual(ref.R.shape);
        expect(Array.from(await g.R.data())).toEqual(Array.from(ref.R.dataSync()));
        if (mode === 'r') expect(g.Q).toBeNull();
        else {
          expect(g.Q!.shape).toEqual(ref.Q.shape);
          expect(Array.from(await g.Q!.data())).toEqual(Array.from(ref.Q.dataSync()));
        }
      }
    }
  });

  gpuIt('bad tunables are ArgumentErrors naming qr', () => {
    const A = toTensor([new Mat(4, 4)], 'float32').to('gpu');
    expect(() => qrGpu(A, 'reduced', { nb: 0 })).toThrow(/qr: block size nb/);
    expect(() => qrGpu(A, 'reduced', { nb: 4, panelWg: 2 })).toThrow(/qr: panel workgroup size 2/);
    expect(() => qrGpu(A, 'reduced', { nb: 4, panelWg: 48 })).toThrow(/power of two/);
    expect(() => qrGpu(A, 'reduced', { splitK: 0 })).toThrow(/qr: splitK/);
    expect(() => qrGpu(A, 'reduced', { panel: 'shared' as 'global' })).toThrow(/qr: panel must be/);
    expect(() => qrGpu(A, 'reduced', { regRows: 0 })).toThrow(/qr: regRows/);
  });

  gpuIt('linalg.qr on a GPU tensor takes this path with the default block size (70×50, 50×70, complex64 45×40)', async () => {
    const rng = new Rng(7);
    for (const [m, n, dtype] of [[70, 50, 'float32'], [50, 70, 'float32'], [45, 40, 'complex64']] as const) {
      const M = rand(m, n, rng, dtype);
      const { Q, R } = linalg.qr(toTensor([M], dtype).to('gpu'));
      expect(Q.device).toBe('gpu');
      check(M, fromTensor(await cpu(Q)), fromTensor(await cpu(R)), 'reduced');
    }
  });
});
