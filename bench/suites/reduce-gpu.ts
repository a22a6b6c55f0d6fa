// Reductions on the GPU (issue 13): the sum of 100 M float32 (issue target ≥ 70 % of the
// copy bandwidth) and the sum over the last dim of 10000×10000, against torch on CUDA in
// the same run, beside a copy baseline (a buffer-to-buffer copy of the same bytes: the
// bandwidth a reduction, which only reads, is measured against). The rate column counts
// bytes read (and written, for the copy) as "flops": it reads as GB/s. Each result is
// checked against a float64 sum on the host after its timing. On a software adapter
// (lavapipe) the sizes shrink: the paths run, speed is not compared.
// Beside them: the sum over the first dim of 10000×10000 (columns kernel) and over the last
// dim of 1000000×100 (short rows, several per workgroup). LAPIS_REDUCE_PARAMS='{"partials":2048}'
// sets the launch parameters (src/backend/gpu/reduce.ts setReduceParams) for the whole run;
// LAPIS_REDUCE_TUNE=1 adds a grid of them (wg, unroll, partials, shortRow, maxCx).
import { isGpuOff, registerSuite, type BenchCase } from '../harness.js';
import { gpu, sum, Tensor } from '../../src/index.js';
import { setReduceParams, type ReduceParams } from '../../src/backend/gpu/reduce.js';
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
    name: `gpu baseline: copy ${count.toLocaleString('en')} float32, copyBufferToBuffer (${reps} per sync; GB/s)`,
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

// Inputs shared by the cases of one shape (100 M floats are made once, not per tuning case).
const inputs = new Map<string, { host: Float32Array; x: Tensor }>();
function input(rows: number, cols: number): { host: Float32Array; x: Tensor } {
  const key = `${rows}x${cols}`;
  let e = inputs.get(key);
  if (!e) {
    const host = fill(rows * cols, 11);
    e = { host, x: Tensor.fromStorage('float32', [rows, cols], host).to('gpu') };
    inputs.set(key, e);
  }
  return e;
}

/**
 * The sum of a [rows, cols] float32 tensor over `dims` (`reps` per sync), checked against
 * float64 (the full sum, or 16 sampled outputs). `params`: launch parameters set for this
 * case only (tuning), the label says which.
 */
function sumCase(label: string, rows: number, cols: number, dims: number[], reps: number, params?: Partial<ReduceParams>, torch = true): BenchCase {
  const full = dims.length === 2;
  const tag = params ? ` ${JSON.stringify(params)}` : '';
  const withParams = async <T>(f: () => Promise<T> | T): Promise<T> => {
    const prev = params ? setReduceParams(params) : undefined;
    try { return await f(); } finally { if (prev) setReduceParams(prev); }
  };
  const stmt = `a.sum(${full ? '' : `dim=${dims[0]}`})`;
  return {
    name: `gpu ${label}${tag} (${reps} per sync; GB/s)`,
    flops: reps * rows * cols * 4,
    gpu: () => withParams(async () => {
      const { x } = input(rows, cols);
      for (let r = 0; r < reps; r++) sumGpu(x, dims).dispose();
      await gpu.sync();
    }),
    gpuCheck: () => withParams(async () => {
      const { host: h, x } = input(rows, cols);
      const got = await sumGpu(x, dims).data();
      const check = (i: number, want: number) => {
        if (!(Math.abs(got[i] - want) <= 1e-6 * Math.abs(want))) throw new Error(`reduce-gpu: ${label}${tag}: entry ${i} is ${got[i]}, float64 gives ${want}`);
      };
      if (full) {
        let s = 0;
        for (let i = 0; i < h.length; i++) s += h[i];
        check(0, s);
      } else {
        const outs = dims[0] === 1 ? rows : cols;
        for (let q = 0; q < 16; q++) {
          const i = Math.floor((q * outs) / 16);
          let s = 0;
          if (dims[0] === 1) for (let j = 0; j < cols; j++) s += h[i * cols + j];
          else for (let j = 0; j < rows; j++) s += h[j * cols + i];
          check(i, s);
        }
      }
    }),
    torch: torch ? { setup: `a = torch.rand(${rows}, ${cols}, device=dev) * 10 + 995`, stmt: reps > 1 ? `for _ in range(${reps}):\n    ${stmt}` : stmt } : undefined,
  };
}

/** LAPIS_REDUCE_TUNE=1: the 100 M sum and the 10000² row sums over a grid of launch parameters. */
function tuneCases(n: number): BenchCase[] {
  const out: BenchCase[] = [];
  for (const wg of [128, 256, 512]) {
    for (const unroll of [2, 4, 8]) {
      for (const partials of [528, 1056, 2112, 4224]) out.push(sumCase('tune sum 100 M float32', 1, n, [0, 1], 10, { wg, unroll, partials }, false));
      out.push(sumCase('tune sum last dim 10000×10000 float32', 10_000, 10_000, [1], 10, { wg, unroll }, false));
    }
  }
  for (const shortRow of [256, 1024, 4096]) out.push(sumCase('tune sum last dim 100000×1000 float32', 100_000, 1000, [1], 10, { shortRow }, false));
  for (const maxCx of [32, 64, 128, 256]) out.push(sumCase('tune sum first dim 10000×10000 float32', 10_000, 10_000, [0], 10, { maxCx }, false));
  return out;
}

/** The issue's reduction cases, for suite tensor-gpu beside its WGSL copy baseline (`soft`: small sizes). */
export function targetSumCases(soft: boolean): BenchCase[] {
  if (soft) return [sumCase('sum 1 M float32', 1, 1_000_000, [0, 1], 1), sumCase('sum last dim 1000×1000 float32', 1000, 1000, [1], 1)];
  return [sumCase('sum 100 M float32', 1, 100_000_000, [0, 1], 10), sumCase('sum last dim 10000×10000 float32', 10_000, 10_000, [1], 10)];
}

async function cases(): Promise<BenchCase[]> {
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true;
  const tune = process.env.LAPIS_REDUCE_PARAMS;
  if (tune) setReduceParams(JSON.parse(tune) as Partial<ReduceParams>);
  if (soft) {
    // CPU-emulated adapter: small sizes, to show the paths work
    return [copyCase(1_000_000, 1), ...targetSumCases(true), sumCase('sum first dim 1000×1000 float32', 1000, 1000, [0], 1)];
  }
  gpu.memory({ maxPooledBytes: 8 * 2 ** 30 });
  const n = 100_000_000;
  return [
    copyCase(n, 10),
    ...targetSumCases(false),
    sumCase('sum first dim 10000×10000 float32', 10_000, 10_000, [0], 10),
    sumCase('sum last dim 1000000×100 float32', 1_000_000, 100, [1], 10),
    ...(process.env.LAPIS_REDUCE_TUNE === '1' ? tuneCases(n) : []),
  ];
}

registerSuite('reduce-gpu', cases);
