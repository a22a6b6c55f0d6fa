// Concurrent native calls under the CPU budget (issue 17, lapis/parallel.hpp): a sync dgemm
// 1024 alone, four solveAsync(512×512, 512 right-hand sides) alone, and both at once (the
// solves queued first, then the matmul on the JS thread), best of REPS (5) wall times each,
// plus the sync matmul's own time inside the mixed run and the process's CPU time per mixed
// run. Run from the project root against
// an addon build, e.g. to compare two builds interleaved:
//   LAPIS_ADDON=$PWD/build-x/Release/lapis.node node --import ./test/hardening/fixtures/register.mjs bench/concurrency.mjs
// Prints one JSON line (times in ms).
import { linalg, randn, setNumThreads, numThreads } from '../src/index.js';

const REPS = Number(process.env.REPS ?? 5);
if (process.env.THREADS) setNumThreads(Number(process.env.THREADS));

const P = randn([1024, 1024], { seed: 1 }), Q = randn([1024, 1024], { seed: 2 });
const As = [0, 1, 2, 3].map((s) => randn([512, 512], { seed: 10 + s }));
const Bs = [0, 1, 2, 3].map((s) => randn([512, 512], { seed: 20 + s }));

const now = () => performance.now();
async function best(f) {
  await f();  // warm-up
  let b = Infinity, extra;
  for (let r = 0; r < REPS; r++) {
    const t0 = now();
    const x = await f();
    const t = now() - t0;
    if (t < b) { b = t; extra = x; }
  }
  return { ms: b, extra };
}

const gemm = await best(() => { linalg.matmul(P, Q); });
const solves = await best(() => Promise.all(As.map((A, i) => linalg.solveAsync(A, Bs[i]))));
const cpu0 = process.cpuUsage();
const both = await best(async () => {
  const pending = As.map((A, i) => linalg.solveAsync(A, Bs[i]));
  const t0 = now();
  linalg.matmul(P, Q);
  const matmulMs = now() - t0;
  await Promise.all(pending);
  return matmulMs;
});
// CPU time per mixed run (all threads of the process): the work done, whatever share of the
// cores other processes left us.
const cpu = process.cpuUsage(cpu0), cpuBothMs = (cpu.user + cpu.system) / 1000 / (REPS + 1);
let stats = null;
try {
  const { _threadStats } = await import('../src/backend/cpu/binding.js');
  stats = _threadStats();
} catch { /* an addon without threadStats (before the budget) */ }
console.log(JSON.stringify({
  threads: numThreads(), uvThreads: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
  dgemm1024: +gemm.ms.toFixed(1), solveAsync4x512: +solves.ms.toFixed(1), both: +both.ms.toFixed(1),
  matmulInBoth: +both.extra.toFixed(1), cpuBoth: +cpuBothMs.toFixed(1), peak: stats?.peak ?? null,
}));
