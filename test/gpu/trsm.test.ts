// GPU triangular solves: the blocked unit-lower fast path (Gated DeltaNet shapes) against
// the general kernel and the CPU backend; the general kernel for every variant; NaN in
// the unread triangle; complex64; a batch above 65,535 systems.
import { describe, expect } from 'vitest';
import { create, all } from 'mathjs';
import { linalg, Rng, Tensor, LinAlgError } from '../../src/index.js';
import { planBatch } from '../../src/core/batch.js';
import { solveTriangularGpu, trsmFastPath } from '../../src/backend/gpu/trsm.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { Mat, randomMatrix, triangular, triangleOf, toTensor, fromTensor, ratioSolve, roundTo } from '../helpers/matrices.js';

useGpu();
const math = create(all, { absTol: 0, relTol: 1e-12 });
const cpu = (t: Tensor) => t.toAsync('cpu');

/** Unit lower systems as chunked delta-rule code makes them: strict lower entries ~ N(0,1)/n, NaN elsewhere. */
function unitLower(n: number, rng: Rng, complex = false): Mat {
  return triangular(n, false, rng, { complex, fill: NaN });
}

function withNaNDiagonal(T: Mat): Mat {
  const R = T.clone();
  for (let i = 0; i < T.rows; i++) R.set(i, i, NaN, NaN);
  return R;
}

describe('gpu solveTriangular: unit-lower fast path', () => {
  // (n, k): every chunk size, slab widths 16 and 64, a partial slab and several slabs
  for (const [n, k] of [[16, 8], [16, 100], [32, 8], [32, 12], [32, 64], [64, 8], [64, 33], [64, 64]] as const) {
    {
      gpuIt(`n=${n} k=${k}: fast path = general path = CPU, NaN outside the strict lower triangle ignored`, async () => {
        expect(trsmFastPath('float32', n, k, false, true)).toBe(true);
        const rng = new Rng(n * 1000 + k);
        const count = 3;
        const Ts = Array.from({ length: count }, () => roundTo(withNaNDiagonal(unitLower(n, rng)), 'float32'));
        const Bs = Ts.map(() => roundTo(randomMatrix(n, k, rng), 'float32'));
        const A = toTensor(Ts, 'float32'), B = toTensor(Bs, 'float32');
        const Ag = A.to('gpu'), Bg = B.to('gpu');
        const fast = await cpu(linalg.solveTriangular(Ag, Bg, { upper: false, unitriangular: true }));
        const opts = { upper: false, unitriangular: true };
        const general = await cpu(solveTriangularGpu(Ag, Bg, planBatch(Ag, Bg, 'test'), opts, 'general').X);
        // RHS counts that are multiples of 4 take the four-columns-per-thread kernel; the
        // column-per-thread one must agree on them too. It ships for k > 8 only (k = 8 is a
        // multiple of 4): its 8-column variant, never run by the library, is not compiled.
        const column = k > 8 ? await cpu(solveTriangularGpu(Ag, Bg, planBatch(Ag, Bg, 'test'), opts, 'unitLower').X) : null;
        const ref = linalg.solveTriangular(A, B, { upper: false, unitriangular: true });
        Ts.forEach((T, b) => {
          const L = triangleOf(T, false, true);
          const Xf = fromTensor(fast, b), Xg = fromTensor(general, b), R = fromTensor(ref, b);
          expect(Array.from(Xf.data).every(Number.isFinite)).toBe(true);
          if (column) {
            const Xc = fromTensor(column, b);
            expect(ratioSolve(L, Xc, Bs[b], 'float32')).toBeLessThan(30);
            expect(Xc.sub(R).norm1()).toBeLessThan(1e-4 * R.norm1());
          }
          expect(ratioSolve(L, Xf, Bs[b], 'float32')).toBeLessThan(30);
          expect(ratioSolve(L, Xg, Bs[b], 'float32')).toBeLessThan(30);
          expect(Xf.sub(R).norm1()).toBeLessThan(1e-4 * R.norm1());
          expect(Xf.sub(Xg).norm1()).toBeLessThan(1e-4 * R.norm1());
        });
      });
    }
  }

  gpuIt('broadcast: one A for a batch of B (and the other way round)', async () => {
    const rng = new Rng(4);
    const T = roundTo(unitLower(32, rng), 'float32');
    const Bs = Array.from({ length: 5 }, () => roundTo(randomMatrix(32, 16, rng), 'float32'));
    const X = await cpu(linalg.solveTriangular(toTensor([T], 'float32').to('gpu'), toTensor(Bs, 'float32').to('gpu'), { upper: false, unitriangular: true }));
    expect(X.shape).toEqual([5, 32, 16]);
    Bs.forEach((B, b) => expect(ratioSolve(triangleOf(T, false, true), fromTensor(X, b), B, 'float32')).toBeLessThan(30));
  });

  gpuIt('70,000 systems of 16×16 with 8 right-hand sides (folded dispatch)', async () => {
    const count = 70_000, n = 16, k = 8;
    const rng = new Rng(70);
    const a = new Float32Array(count * n * n).fill(NaN);
    for (let b = 0; b < count; b++) for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) a[(b * n + i) * n + j] = rng.normal() / n;
    const bb = new Float32Array(count * n * k);
    for (let i = 0; i < bb.length; i++) bb[i] = rng.normal();
    const A = Tensor.fromStorage('float32', [count, n, n], a), B = Tensor.fromStorage('float32', [count, n, k], bb);
    const X = (await linalg.solveTriangular(A.to('gpu'), B.to('gpu'), { upper: false, unitriangular: true }).data()) as Float32Array;
    const ref = linalg.solveTriangular(A, B, { upper: false, unitriangular: true }).dataSync() as Float32Array;
    let err = 0, mag = 0;
    for (let i = 0; i < X.length; i++) { err = Math.max(err, Math.abs(X[i] - ref[i])); mag = Math.max(mag, Math.abs(ref[i])); }
    expect(err).toBeLessThan(1e-5 * mag);
  });
});

describe('gpu solveTriangular: general kernel', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    for (const upper of [false, true]) {
      for (const unit of [false, true]) {
        gpuIt(`${dtype} upper=${upper} unit=${unit}: ratio < 30 for n in 1..300, the other triangle NaN`, async () => {
          const rng = new Rng((upper ? 2 : 1) * (unit ? 3 : 5));
          for (const [n, k] of [[1, 1], [5, 3], [17, 1], [64, 4], [100, 2], [300, 1]] as const) {
            const complex = dtype === 'complex64';
            let T = roundTo(triangular(n, upper, rng, { complex }), dtype);
            if (unit) T = withNaNDiagonal(T);
            const B = roundTo(randomMatrix(n, k, rng, { complex }), dtype);
            const X = fromTensor(await cpu(linalg.solveTriangular(toTensor([T], dtype).to('gpu'), toTensor([B], dtype).to('gpu'), { upper, unitriangular: unit })));
            expect(Array.from(X.data).every(Number.isFinite)).toBe(true);
            expect(ratioSolve(triangleOf(T, upper, unit), X, B, dtype)).toBeLessThan(30);
          }
        });
      }
    }
  }

  gpuIt('agrees with mathjs lsolve/usolve on samples', async () => {
    const rng = new Rng(12);
    for (const upper of [false, true]) {
      const T = roundTo(triangular(8, upper, rng, { fill: 0 }), 'float32');
      const b = roundTo(randomMatrix(8, 1, rng), 'float32');
      const X = fromTensor(await cpu(linalg.solveTriangular(toTensor([T], 'float32').to('gpu'), toTensor([b], 'float32').to('gpu'), { upper })));
      const ref = (upper ? math.usolve : math.lsolve)(T.toRealArray(), b.toRealArray()) as number[][];
      for (let i = 0; i < 8; i++) expect(Math.abs(X.re(i, 0) - ref[i][0])).toBeLessThan(1e-5 * (1 + Math.abs(ref[i][0])));
    }
  });

  gpuIt('fewer than 8 right-hand sides or other sizes take the general path with the same results', async () => {
    expect(trsmFastPath('float32', 32, 4, false, true)).toBe(false);
    expect(trsmFastPath('float32', 48, 16, false, true)).toBe(false);
    expect(trsmFastPath('complex64', 32, 16, false, true)).toBe(false);
    const rng = new Rng(31);
    const T = roundTo(unitLower(32, rng), 'float32');
    const B = roundTo(randomMatrix(32, 4, rng), 'float32');
    const X = fromTensor(await cpu(linalg.solveTriangular(toTensor([T], 'float32').to('gpu'), toTensor([B], 'float32').to('gpu'), { upper: false, unitriangular: true })));
    expect(ratioSolve(triangleOf(T, false, true), X, B, 'float32')).toBeLessThan(30);
  });
});

// Issue 10 item 8 on the GPU: trtrs's info from the diagonal-check kernel (recorded after
// the solve), NaN X for the singular systems, the plain function raising at the first read.
describe('gpu solveTriangular: exactly singular triangles (trtrs info)', () => {
  for (const dtype of ['float32', 'complex64'] as const) {
    gpuIt(`${dtype}: batched, left/right, upper/lower, general and broadcast: info and NaN as on the CPU`, async () => {
      const complex = dtype === 'complex64';
      const rng = new Rng(1234);
      for (const [n, k] of [[5, 3], [16, 8], [70, 9]] as const) {
        for (const upper of [false, true]) {
          for (const left of [true, false]) {
            const count = 4;
            const Ts = Array.from({ length: count }, () => roundTo(triangular(n, upper, rng, { complex }), dtype));
            Ts[1].set(2, 2, 0, 0);
            Ts[1].set(n - 1, n - 1, 0, 0);
            Ts[3].set(n - 1, n - 1, 0, 0);
            const Bs = Ts.map(() => roundTo(left ? randomMatrix(n, k, rng, { complex }) : randomMatrix(k, n, rng, { complex }), dtype));
            const A = toTensor(Ts, dtype), B = toTensor(Bs, dtype);
            const opts = { upper, left };
            const tag = `n=${n} k=${k} upper=${upper} left=${left}`;
            const cpuR = linalg.solveTriangularEx(A, B, opts);
            const gpuR = linalg.solveTriangularEx(A.to('gpu'), B.to('gpu'), opts);
            expect(gpuR.info.device).toBe('gpu');
            expect(Array.from(await gpuR.info.data()), tag).toEqual([0, 3, 0, n]);
            expect(Array.from(cpuR.info.dataSync()), tag).toEqual([0, 3, 0, n]);
            const X = await cpu(gpuR.solution);
            for (const b of [1, 3]) {
              const x = fromTensor(X, b);
              for (let i = 0; i < x.rows; i++) for (let j = 0; j < x.cols; j++) expect(Number.isNaN(x.re(i, j)), tag).toBe(true);
            }
            for (const b of [0, 2]) {
              const Tr = triangleOf(Ts[b], upper);
              const x = fromTensor(X, b);
              const r = left ? ratioSolve(Tr, x, Bs[b], dtype) : ratioSolve(Tr.transpose(), x.transpose(), Bs[b].transpose(), dtype);
              expect(r, tag).toBeLessThan(30);
            }
            // the plain function: the check fires at the first read
            const Xp = linalg.solveTriangular(A.to('gpu'), B.to('gpu'), opts);
            let err: unknown;
            try { await Xp.data(); } catch (e) { err = e; }
            expect(err, tag).toBeInstanceOf(LinAlgError);
            expect((err as LinAlgError).batchIndex).toBe(1);
            expect((err as LinAlgError).info).toBe(3);
            // unit diagonal: never read, never reported
            const u = linalg.solveTriangularEx(A.to('gpu'), B.to('gpu'), { ...opts, unitriangular: true });
            expect(Array.from(await u.info.data()), tag).toEqual([0, 0, 0, 0]);
          }
        }
      }
      // one A broadcast over a batch of B: its status on every output it serves
      const T = [0, 1].map(() => roundTo(triangular(6, true, rng, { complex }), dtype));
      T[1].set(0, 0, 0, 0);
      const Bb = [0, 1, 2].map(() => roundTo(randomMatrix(6, 2, rng, { complex }), dtype));
      const r = linalg.solveTriangularEx(toTensor(T, dtype, [2, 1]).to('gpu'), toTensor(Bb, dtype, [3]).to('gpu'), { upper: true });
      expect(r.info.shape).toEqual([2, 3]);
      expect(Array.from(await r.info.data())).toEqual([0, 0, 0, 1, 1, 1]);
    });
  }
  gpuIt('the GDN fast path (unit lower, n = 16, k = 8) is unchanged and reports info 0', async () => {
    const rng = new Rng(4321);
    const Ts = [0, 1].map(() => roundTo(withNaNDiagonal(unitLower(16, rng)), 'float32'));
    const Bs = Ts.map(() => roundTo(randomMatrix(16, 8, rng), 'float32'));
    expect(trsmFastPath('float32', 16, 8, false, true)).toBe(true);
    const A = toTensor(Ts, 'float32').to('gpu'), B = toTensor(Bs, 'float32').to('gpu');
    const r = linalg.solveTriangularEx(A, B, { upper: false, unitriangular: true });
    expect(Array.from(await r.info.data())).toEqual([0, 0]);
    const X = await cpu(linalg.solveTriangular(A, B, { upper: false, unitriangular: true }));
    expect(Array.from((await cpu(r.solution)).dataSync())).toEqual(Array.from(X.dataSync()));
  });
});
