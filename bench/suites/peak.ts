// The machine's FMA peak (cpuPeakFlops: a register-only multiply-add loop of the active
// kernel family on threads of its own), float32 and float64, on 1 thread and on
// numThreads(). No peer: it is the ceiling the GEMM figures are read against (their
// "of peak" column, from the same probe measured once per run).
import { registerSuite, type BenchCase } from '../harness.js';
import { cpuPeakFlops, numThreads } from '../../src/index.js';

const ABOUT =
  'The FMA peak (cpuPeakFlops): a register-only multiply-add loop built for the active kernel family ' +
  '(12 ymm accumulators with AVX2, 24 zmm with AVX-512, 24 q registers with NEON) on the case\'s number ' +
  'of threads of its own, 0.25 s per call, 2 flops per FMA lane; each thread keeps its best of 5 stretches, ' +
  'timed by its own CPU time, so other processes on a shared machine lower it little. GFLOP/s is the best ' +
  "of the suite's calls; the time column is one call's length (warm-up included), not a figure. The GEMM " +
  'cases (matmul) show their rate as a fraction of this peak for their real type and thread count ' +
  '("of peak"). See docs/gemm.md, "Peak".';

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
