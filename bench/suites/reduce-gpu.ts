// Reductions on the GPU (issue 13): the sum of 100 M float32 (issue target ≥ 70 % of the
// copy bandwidth) and the sum over the last dim of 10000×10000, against torch on CUDA in
// the same run, beside a copy baseline (a buffer-to-buffer copy of the same bytes: the
// bandwidth a reduction, which only reads, is measured against). The rate column counts
// bytes read (and written, for the copy) as "flops": it reads as GB/s. Each result is
// checked against a float64 sum on the host after its timing. On a software adapter
// (lavapipe) the sizes shrink: the paths run, speed is not compared.
// LAPIS_REDUCE_PARAMS='{"partials":2048,"unroll":8}' sets the launch parameters
// (src/backend/gpu/reduce.ts setReduceParams) for a tuning run.
import { registerSuite, type BenchCase } from '../harness.js';
import { gpu, sum, Tensor } from '../../src/index.js';
import { setReduceParams } from '../../src/backend/gpu/reduce.js';
import { commandEncoder, recordedCommand } from '../../src/backend/gpu/queue.js';
import { bufferOf } from '../../src/backend/gpu/pool.js';

/** 1000 + uniform(−5, 5) from a seeded LCG: a large mean, the hard case for float32 sums. */
function fill(count: number, seed: number): Float32Array {
  const a = new Float32Array(count);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = 1000 + (s / 2 ** 32 - 0.5) * 10;
  }
  return a;
}

const sumGpu = (x: Tensor, dims: number[]) => sum(x, { dim: dims });

/** A copy of `count` float32 between two GPU buffers (`reps` per sync): the bandwidth baseline. */
function copyCase(count: number, reps: number): BenchCase {
  let a: Tensor | undefined, b: Tensor | undefined;
  return {
    name: `gpu baseline: copy ${count.toLocaleString('en')} float32 (${reps} per sync)`,
    flops: reps * count * 8,
    gpu: async () => {
      if (!a) { a = Tensor.fromStorage('float32', [count], fill(count, 5)).to('gpu'); b = Tensor.fromStorage('float32', [count], new Float32Array(count)).to('gpu'); }
      for (let r = 0; r < reps; r++) {
        commandEncoder('bench').copyBufferToBuffer(bufferOf(a.gpuStorage()), 0, bufferOf(b!.gpuStorage()), 0, count * 4);
        recordedCommand();
      }
      await gpu.sync();
    },
    gpuCheck: async () => { a?.dispose(); b?.dispose(); a = b = undefined; },
    torch: { setup: `a = torch.rand(${count}, device=dev)\nb = torch.empty_like(a)`, stmt: reps > 1 ? `for _ in range(${reps}):\n    b.copy_(a)` : 'b.copy_(a)' },
  };
}

/** The sum of a [rows, cols] float32 tensor over `dims` (`reps` per sync), checked against float64. */
function sumCase(label: string, rows: number, cols: number, dims: number[], reps: number): BenchCase {
  let host: Float32Array | undefined, x: Tensor | undefined;
  const full = dims.length === 2;
  return {
    name: `gpu ${label} (${reps} per sync)`,
    flops: reps * rows * cols * 4,
    gpu: async () => {
      if (!x) { host = fill(rows * cols, 11); x = Tensor.fromStorage('float32', [rows, cols], host).to('gpu'); }
      for (let r = 0; r < reps; r++) sumGpu(x, dims).dispose();
      await gpu.sync();
    },
    gpuCheck: async () => {
      const got = await sumGpu(x!, dims).data();
      const h = host!;
      // the full sum, or 16 sampled rows, against float64
      const check = (i: number, want: number, abs: number) => {
        if (!(Math.abs(got[i] - want) <= 1e-6 * abs)) throw new Error(`reduce-gpu: ${label}: entry ${i} is ${got[i]}, float64 gives ${want}`);
      };
      if (full) {
        let s = 0;
        for (let i = 0; i < h.length; i++) s += h[i];
        check(0, s, s);
      } else {
        for (let q = 0; q < 16; q++) {
          const i = Math.floor((q * rows) / 16);
          let s = 0;
          for (let j = 0; j < cols; j++) s += h[i * cols + j];
          check(i, s, s);
        }
      }
      x!.dispose();
      x = host = undefined;
    },
    torch: {
      setup: `a = torch.rand(${rows}, ${cols}, device=dev) * 10 + 995`,
      stmt: reps > 1 ? `for _ in range(${reps}):\n    a.sum(${full ? '' : 'dim=1'})` : `a.sum(${full ? '' : 'dim=1'})`,
    },
  };
}

async function cases(): Promise<BenchCase[]> {
  const ok = await gpu.available();
  const soft = !ok || gpu.info()?.isSoftware === true;
  const tune = process.env.LAPIS_REDUCE_PARAMS;
  if (tune) setReduceParams(JSON.parse(tune) as Record<string, number>);
  if (soft) {
    // CPU-emulated adapter: small sizes, to show the paths work
    return [copyCase(1_000_000, 1), sumCase('sum 1 M float32', 1, 1_000_000, [0, 1], 1), sumCase('sum last dim 1000×1000 float32', 1000, 1000, [1], 1)];
  }
  gpu.memory({ maxPooledBytes: 8 * 2 ** 30 });
  const n = 100_000_000;
  return [
    copyCase(n, 10),
    sumCase('sum 100 M float32', 1, n, [0, 1], 10),
    sumCase('sum last dim 10000×10000 float32', 10_000, 10_000, [1], 10),
  ];
}

registerSuite('reduce-gpu', cases);
