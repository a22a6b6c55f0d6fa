import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { tensor, gpu, Tensor, linalg, DeviceError, DTypeError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { F32_TILES, C64_TILES, SMALL_MAX, tileFits, matmulGpu, type MatmulTile } from '../../src/backend/gpu/matmul.js';
import { planBatch } from '../../src/core/batch.js';
import { poolStats, bucketSize } from '../../src/backend/gpu/pool.js';
import { AUTO_FLUSH_COMMANDS } from '../../src/backend/gpu/queue.js';
import { pipelineStats } from '../../src/backend/gpu/program.js';

useGpu();

const EPS32 = 1.1920928955078125e-7;

function rand(n: number, seed: number): Float32Array {
  // xorshift: deterministic, uniform in [-1, 1)
  let s = (seed * 2654435761) >>> 0 || 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    out[i] = (s / 4294967296) * 2 - 1;
  }
  return out;
}

/**
 * GPU C against the CPU backend's C: each entry may differ by c·k·eps·(|A||B|)ᵢⱼ, the
 * float32 error bound of a length-k dot product (both results carry such an error).
 */
function checkProduct(
  gpuC: Float32Array, cpuC: Float32Array, absA: Float32Array, absB: Float32Array,
  batch: number, m: number, k: number, n: number, complex: boolean, aMap: (b: number) => number, bMap: (b: number) => number,
): void {
  const w = complex ? 2 : 1;
  let worst = 0;
  for (let b = 0; b < batch; b++) {
    const ao = aMap(b) * m * k, bo = bMap(b) * k * n;
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
      let bound = 0;
      for (let p = 0; p < k; p++) bound += absA[ao + i * k + p] * absB[bo + p * n + j];
      for (let c = 0; c < w; c++) {
        const idx = ((b * m + i) * n + j) * w + c;
        const err = Math.abs(gpuC[idx] - cpuC[idx]);
        const ratio = err / (Math.max(k, 1) * EPS32 * bound + Number.MIN_VALUE);
        worst = Math.max(worst, ratio);
      }
    }
  }
  expect(worst).toBeLessThan(complex ? 8 : 4);
}

function absOf(d: Float32Array, complex: boolean): Float32Array {
  if (!complex) return d.map(Math.abs);
  const out = new Float32Array(d.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Math.hypot(d[2 * i], d[2 * i + 1]);
  return out;
}

/** `tile`: the GPU product through that tile (the GPU entry with an explicit tile), else linalg.matmul's choice. */
async function compare(aShape: number[], bShape: number[], dtype: 'float32' | 'complex64', seed: number, tile?: MatmulTile, kernel?: 'gemm' | 'matmul'): Promise<void> {
  const complex = dtype === 'complex64';
  const w = complex ? 2 : 1;
  const size = (s: number[]) => s.reduce((x, y) => x * y, 1);
  const A = tensor({ data: rand(size(aShape) * w, seed), shape: aShape, dtype });
  const B = tensor({ data: rand(size(bShape) * w, seed + 1), shape: bShape, dtype });
  const cpu = linalg.matmul(A, B);
  const Ag = A.to('gpu'), Bg = B.to('gpu');
  const mk = aShape.slice(-2), kn = bShape.slice(-2);
  const Cg = tile || kernel ? matmulGpu(Ag, Bg, planBatch(Ag, Bg, 'test'), mk[0], mk[1], kn[1], tile, kernel) : linalg.matmul(Ag, Bg);
  expect(Cg.device).toBe('gpu');
  expect(Cg.shape).toEqual(cpu.shape);
  const got = (await Cg.data()) as Float32Array;
  const m = aShape[aShape.length - 2], k = aShape[aShape.length - 1], n = bShape[bShape.length - 1];
  const batch = size(cpu.shape.slice(0, -2));
  // Broadcast maps from the batch shapes, as torch broadcasts them.
  const outB = cpu.shape.slice(0, -2);
  const mapOf = (shape: number[]) => (flat: number) => {
    const bs = shape.slice(0, -2);
    let idx = 0, stride = 1, rem = flat;
    const coords: number[] = [];
    for (let d = outB.length - 1; d >= 0; d--) { coords[d] = rem % outB[d]; rem = Math.floor(rem / outB[d]); }
    for (let d = bs.length - 1; d >= 0; d--) {
      const c = coords[outB.length - bs.length + d];
      idx += (bs[d] === 1 ? 0 : c) * stride;
      stride *= bs[d];
    }
    return idx;
  };
  checkProduct(got, cpu.dataSync() as Float32Array, absOf(A.dataSync() as Float32Array, complex),
    absOf(B.dataSync() as Float32Array, complex), batch, m, k, n, complex, mapOf(aShape), mapOf(bShape));
  Ag.dispose(); Bg.dispose(); Cg.dispose();
}

describe('gpu matmul', () => {
  // Both tiled kernels while the old one stays selectable: gemm.wgsl (float32's default)
  // and matmul.wgsl (complex64's), until the H200 A/B retires one.
  for (const kernel of ['gemm', 'matmul'] as const) {
    gpuIt(`matches the CPU on tile edges for every float32 tile variant (${kernel}.wgsl)`, async () => {
      for (const t of Object.values<MatmulTile>(F32_TILES)) {
        if (!tileFits(t, false)) {
          // a tile over the device's workgroup limits: refused by name
          const a = Tensor.fromStorage('float32', [t.BM, t.BK], new Float32Array(t.BM * t.BK)).to('gpu');
          const b = Tensor.fromStorage('float32', [t.BK, t.BN], new Float32Array(t.BK * t.BN)).to('gpu');
          expect(() => matmulGpu(a, b, planBatch(a, b, 'test'), t.BM, t.BK, t.BN, t, kernel)).toThrow(/workgroup memory/);
          continue;
        }
        for (const [m, k, n] of [[1, 1, 1], [t.BM - 1, t.BK + 1, t.BN + 1], [t.BM + 1, 2 * t.BK, t.BN], [2 * t.BM + 1, 3, 5], [7, 4 * t.BK - 1, 2 * t.BN - 1]]) {
          await compare([m, k], [k, n], 'float32', m * 131 + k * 7 + n, t, kernel);
        }
      }
    });

    gpuIt(`matches the CPU for complex64 on tile edges (${kernel}.wgsl)`, async () => {
      for (const t of Object.values<MatmulTile>(C64_TILES)) {
        for (const [m, k, n] of [[1, 1, 1], [t.BM - 1, t.BK + 1, t.BN + 1], [t.BM + 1, 2 * t.BK, 3]]) {
          await compare([m, k], [k, n], 'complex64', m + 3 * k + 5 * n, t, kernel);
        }
      }
    });

    gpuIt(`broadcasts batch dims through index maps and stride 0 (${kernel}.wgsl)`, async () => {
      await compare([2, 1, 40, 24], [3, 24, 36], 'float32', 21, undefined, kernel);
      await compare([3, 24, 20], [2, 1, 20, 36], 'float32', 22, undefined, kernel);
      await compare([4, 33, 17], [17, 29], 'complex64', 23, undefined, kernel);
      await compare([1, 17, 20], [5, 20, 40], 'complex64', 24, undefined, kernel);
    });
  }

  gpuIt('matches the CPU for small matrices (one thread per element) in big batches', async () => {
    expect(SMALL_MAX).toBeGreaterThanOrEqual(4);
    await compare([3000, 4, 4], [3000, 4, 4], 'float32', 11);
    await compare([500, SMALL_MAX, 37], [500, 37, SMALL_MAX], 'float32', 12);
    await compare([200, 3, 5], [1, 5, 2], 'complex64', 13);
    await compare([7, 1, 2, 9], [5, 9, SMALL_MAX], 'complex64', 14);
    // 70,000 products of 2×2: 280,000 threads; the batch index passes 65,535
    await compare([70000, 2, 2], [70000, 2, 2], 'float32', 15);
  });

  gpuIt('broadcasts batch dims', async () => {
    await compare([2, 1, 5, 8], [3, 8, 4], 'float32', 1);
    await compare([3, 8, 4].map((x) => x), [2, 1, 4, 5], 'float32', 2);
    await compare([4, 6, 3], [3, 7], 'complex64', 3);
    await compare([1, 17, 9], [5, 9, 12], 'float32', 4);
  });

  gpuIt('matches the CPU on random shapes (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 70 }),
      fc.integer({ min: 1, max: 70 }), fc.boolean(), fc.integer({ min: 0, max: 1000 }),
      async (batch, m, k, n, cplx, seed) => {
        await compare([batch, m, k], [batch, k, n], cplx ? 'complex64' : 'float32', seed);
      },
    ), { numRuns: 25 });
  });

  gpuIt('handles empty dims and vectors', async () => {
    const A = tensor({ data: new Float32Array(0), shape: [3, 0] }).to('gpu');
    const B = tensor({ data: new Float32Array(0), shape: [0, 2] }).to('gpu');
    const C = linalg.matmul(A, B);
    expect(C.shape).toEqual([3, 2]);
    expect(Array.from(await C.data())).toEqual([0, 0, 0, 0, 0, 0]);
    const v = tensor({ data: new Float32Array([1, 2]), shape: [2] }).to('gpu');
    const M = tensor({ data: new Float32Array([1, 2, 3, 4]), shape: [2, 2] }).to('gpu');
    const mv = linalg.matmul(M, v);
    expect(mv.shape).toEqual([2]);
    expect(Array.from(await mv.data())).toEqual([5, 11]);
  });

  gpuIt('refuses float64 and mixed devices', () => {
    const a = tensor([[1, 2]], { dtype: 'float32' });
    expect(() => linalg.matmul(a.to('gpu'), a)).toThrow(DeviceError);
    expect(() => tensor([[1]], { dtype: 'float64', device: 'gpu' })).toThrow(DTypeError);
  });

  gpuIt('keeps pool memory flat over a loop of small matmuls with dispose()', async () => {
    const iters = process.env.LAPIS_LONG === '1' ? 100_000 : 10_000;
    const A = tensor({ data: rand(16, 1), shape: [4, 4] }).to('gpu');
    const B = tensor({ data: rand(16, 2), shape: [4, 4] }).to('gpu');
    const cpu = linalg.matmul(await A.toAsync('cpu'), await B.toAsync('cpu')).dataSync();
    let last: Tensor | undefined;
    const loop = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        last?.dispose();
        last = linalg.matmul(A, B);
        if (i % 1000 === 999) {
          // a read now and then, as real code does, checks the results stay right
          const d = await last.data();
          for (let j = 0; j < 16; j++) expect(Math.abs(d[j] - cpu[j])).toBeLessThan(1e-5);
        }
      }
      last?.dispose();
      last = undefined;
      await gpu.sync();
    };
    // Warm-up: pipelines exist and the pool holds the buffers that one submit batch
    // keeps parked (released while their commands were still unsubmitted).
    await loop(1000);
    const before = poolStats();
    const compiled = pipelineStats().compiled;
    await loop(iters);
    const after = poolStats();
    expect(pipelineStats().compiled).toBe(compiled); // no pipeline built per call
    // Live bytes can only fall (tensors of earlier tests may be finalized meanwhile). The
    // pool may differ by what one submit batch parks (its phase against the loop varies),
    // but not by anything that grows with the iteration count.
    const slack = AUTO_FLUSH_COMMANDS * bucketSize(64);
    expect(after.bytesLive).toBeLessThanOrEqual(before.bytesLive);
    expect(after.bytesLive + after.bytesPooled).toBeLessThanOrEqual(before.bytesLive + before.bytesPooled + slack);
    expect(after.buffersCreated - before.buffersCreated).toBeLessThanOrEqual(AUTO_FLUSH_COMMANDS);
    expect(iters).toBeGreaterThan(10 * AUTO_FLUSH_COMMANDS);
    A.dispose(); B.dispose();
  }, 600_000);
});
