// The machine's FMA peak (cpuPeakFlops: a register-only multiply-add loop of the active
// kernel family on threads of its own), float32 and float64, on 1 thread and on
// numThreads(). No peer: it is the ceiling the GEMM figures are read against (their
// "of peak" column, from the same probe measured once per run).
import { registerSuite, type BenchCase } from '../harness.js';
import { cpuPeakFlops, numThreads } from '../../src/index.js';

const ABOUT =
  'The FMA peak: a register-only multiply-add loop built for the active kernel family (12 ymm ' +
  'accumulators with AVX2, 24 zmm with AVX-512, 24 q registers with NEON), run on that many threads of its ' +
  'own for 0.25 s each call, 2 flops per FMA lane, each thread timed by its own CPU time (so other ' +
  'processes on a shared machine lower it little). GFLOP/s is the best call; the time column is one ' +
  "call's length (warm-up included), not a figure. GEMM cases (matmul) show their rate as a fraction " +
  'of this peak for their dtype and thread count. See docs/gemm.md, "Peak".';

function peakCase(dtype: 'float32' | 'float64', threads: number): BenchCase {
  let best = 0;
  return {
    name: `${dtype} FMA peak, ${threads} thread${threads === 1 ? '' : 's'}`,
    lapis: () => { best = Math.max(best, cpuPeakFlops(dtype, threads)); },
    lapisCheck: () => ({ 'GFLOP/s': Number(best.toFixed(1)), 'per thread': Number((best / threads).toFixed(1)) }),
    timing: { minSamples: 3, maxSamples: 3, warmup: 1 },
  };
}

function cases(): BenchCase[] {
  const n = numThreads();
  const counts = n === 1 ? [1] : [1, n];
  return (['float32', 'float64'] as const).flatMap((d) => counts.map((t) => peakCase(d, t)));
}

registerSuite('peak', cases, ABOUT);
