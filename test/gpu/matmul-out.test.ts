/**
 * linalg.matmul(A, B, { out }) on the GPU: the kernels write out's own buffer (no new pool
 * buffer in a loop), with the same bits as the call without out, for the small and tiled
 * kernels, float32 and complex64, broadcast and vector shapes; out sharing A's or B's
 * buffer gives the same answer; a bad out is a typed error naming it.
 */
import { describe, expect } from 'vitest';
import { tensor, linalg, randn, zeros, Tensor, DeviceError, DTypeError, ShapeError, LinAlgError } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { matmulGpu } from '../../src/backend/gpu/matmul.js';
import { planBatch } from '../../src/core/batch.js';
import { poolStats } from '../../src/backend/gpu/pool.js';
import { commandEncoder } from '../../src/backend/gpu/queue.js';

useGpu();

type GpuFloat = 'float32' | 'complex64';

const gpuRandn = (shape: number[], dtype: GpuFloat, seed: number): Tensor => randn(shape, { dtype, seed }).to('gpu');

/** A GPU tensor of NaN (the product must overwrite every element). */
function nanOut(shape: number[], dtype: GpuFloat): Tensor {
  const t = zeros(shape, { dtype });
  (t.dataSync() as Float32Array).fill(NaN);
  return t.to('gpu');
}

async function bits(t: Tensor): Promise<number[]> {
  return Array.from(await t.data());
}

/** out's values against the call without out, bit for bit; out is returned itself. */
async function checkOut(A: Tensor, B: Tensor): Promise<Tensor> {
  const want = linalg.matmul(A, B);
  const out = nanOut([...want.shape], want.dtype as GpuFloat);
  expect(linalg.matmul(A, B, { out })).toBe(out);
  expect(await bits(out)).toEqual(await bits(want));
  want.dispose();
  return out;
}

describe('gpu matmul out', () => {
  gpuIt('small and tiled kernels, float32 and complex64, batched, broadcast and vector shapes', async () => {
    for (const dtype of ['float32', 'complex64'] as const) {
      (await checkOut(gpuRandn([2, 1, 3, 4], dtype, 1), gpuRandn([5, 4, 2], dtype, 2))).dispose();
      (await checkOut(gpuRandn([2, 20, 20], dtype, 3), gpuRandn([20, 20], dtype, 4))).dispose();
      const v = await checkOut(gpuRandn([4], dtype, 5), gpuRandn([3, 4, 2], dtype, 6));
      expect(v.shape).toEqual([3, 2]);
      const s = await checkOut(gpuRandn([4], dtype, 7), gpuRandn([4], dtype, 8));
      expect(s.shape).toEqual([]);
    }
  });

  gpuIt('the strided gemm kernel writes out too', async () => {
    const A = gpuRandn([2, 20, 20], 'float32', 9), B = gpuRandn([20, 24], 'float32', 10);
    const plan = planBatch(A, B, 'test');
    const want = matmulGpu(A, B, plan, 20, 20, 24, undefined, 'gemm');
    const out = nanOut([2, 20, 24], 'float32');
    expect(matmulGpu(A, B, plan, 20, 20, 24, undefined, 'gemm', out)).toBe(out);
    expect(await bits(out)).toEqual(await bits(want));
  });

  gpuIt('k = 0 writes zeros; a loop with out creates no buffers and copies nothing', async () => {
    const z = nanOut([2, 3], 'float32');
    linalg.matmul(zeros([2, 0], { dtype: 'float32' }).to('gpu'), zeros([0, 3], { dtype: 'float32' }).to('gpu'), { out: z });
    expect(await bits(z)).toEqual([0, 0, 0, 0, 0, 0]);
    const A = gpuRandn([4, 8, 8], 'float32', 11), B = gpuRandn([4, 8, 8], 'float32', 12);
    const out = nanOut([4, 8, 8], 'float32');
    linalg.matmul(A, B, { out });
    await out.data();
    const created = poolStats().buffersCreated;
    // Counts buffer copies recorded on the encoder (the kernel must write out itself).
    const proto = Object.getPrototypeOf(commandEncoder('test')) as GPUCommandEncoder;
    const copy = proto.copyBufferToBuffer;
    let copies = 0;
    proto.copyBufferToBuffer = function (this: GPUCommandEncoder, ...a: unknown[]) {
      copies++;
      return (copy as (...x: unknown[]) => void).apply(this, a);
    } as typeof copy;
    try {
      for (let i = 0; i < 20; i++) linalg.matmul(A, B, { out });
      expect(copies).toBe(0);
      await out.data();
      expect(poolStats().buffersCreated).toBe(created);
      copies = 0; // the read above copied to a staging buffer
      linalg.matmul(A, B, { out: A });
      expect(copies).toBe(1);
    } finally {
      proto.copyBufferToBuffer = copy;
    }
  });

  gpuIt('out is A, out is B, out a reshape of B: the answer of the call without out', async () => {
    for (const [n, dtype] of [[4, 'float32'], [20, 'complex64']] as const) {
      const Ah = randn([2, n, n], { dtype, seed: 13 }), Bh = randn([2, n, n], { dtype, seed: 14 });
      const want = await bits(linalg.matmul(Ah.to('gpu'), Bh.to('gpu')));
      const A1 = Ah.to('gpu'), B1 = Bh.to('gpu');
      expect(linalg.matmul(A1, B1, { out: A1 })).toBe(A1);
      expect(await bits(A1)).toEqual(want);
      const A2 = Ah.to('gpu'), B2 = Bh.to('gpu');
      linalg.matmul(A2, B2, { out: B2 });
      expect(await bits(B2)).toEqual(want);
      const A3 = Ah.to('gpu'), B3 = Bh.to('gpu');
      const view = B3.reshape([2, n, n]);
      linalg.matmul(A3, B3, { out: view });
      expect(await bits(B3)).toEqual(want);
    }
  });

  gpuIt('bad out: DeviceError for the wrong device, DTypeError, ShapeError; out untouched', async () => {
    const A = gpuRandn([3, 4], 'float32', 15), B = gpuRandn([4, 2], 'float32', 16);
    expect(() => linalg.matmul(A, B, { out: zeros([3, 2], { dtype: 'float32' }) })).toThrow(DeviceError);
    expect(() => linalg.matmul(A, B, { out: zeros([3, 2], { dtype: 'float32' }) })).toThrow(/matmul: out is on cpu, A and B are on gpu/);
    const cpuA = tensor([[1, 2]], { dtype: 'float32' }), cpuB = tensor([[3], [4]], { dtype: 'float32' });
    expect(() => linalg.matmul(cpuA, cpuB, { out: nanOut([1, 1], 'float32') })).toThrow(/out is on gpu, A and B are on cpu/);
    const c = nanOut([3, 2], 'complex64');
    expect(() => linalg.matmul(A, B, { out: c })).toThrow(DTypeError);
    const s = nanOut([2, 3], 'float32');
    expect(() => linalg.matmul(A, B, { out: s })).toThrow(ShapeError);
    expect((await bits(s)).every(Number.isNaN)).toBe(true);
    const d = nanOut([3, 2], 'float32');
    d.dispose();
    expect(() => linalg.matmul(A, B, { out: d })).toThrow(/matmul: out was disposed/);
  });

  gpuIt('a pending numerical check on out: dropped when the product overwrites out, kept when out is an operand', async () => {
    const singular = tensor([[1, 2], [2, 4]], { dtype: 'float32' }).to('gpu');
    const A = gpuRandn([2, 2], 'float32', 17), B = gpuRandn([2, 2], 'float32', 18);
    const want = await bits(linalg.matmul(A, B));
    const stale = linalg.inv(singular);
    await expect(linalg.inv(singular).data()).rejects.toThrow(LinAlgError);
    linalg.matmul(A, B, { out: stale });
    expect(await bits(stale)).toEqual(want);
    const bad = linalg.inv(singular);
    linalg.matmul(bad, B, { out: bad });
    await expect(bad.data()).rejects.toThrow(LinAlgError);
  });
});

