// The issue-17 scaling curve: the big CPU operations against numpy/scipy on 1, 2, 4, 8 and
// 16 threads (both sides on the same count, BenchCase.threads), for the 16-core host.
// Suite `cpu16`. LAPIS_BENCH_THREADS lists the thread counts (default "1,2,4,8,16", capped
// at os.availableParallelism()); LAPIS_BENCH_CPU16_SCALE (default 1) scales every size, so
// a small machine can check the suite quickly (0.25: n = 1024 instead of 4096).
import os from 'node:os';
import { registerSuite, type BenchCase } from '../harness.js';
import { linalg, randn } from '../../src/index.js';

const lu = (n: number) => (2 / 3) * n ** 3;
// geqrf + orgqr, reduced Q (as bench/suites/qr.ts).
const qrFlops = (m: number, n: number) => 2 * (2 * m * n * n - (2 / 3) * n ** 3);

/** The thread counts to measure: LAPIS_BENCH_THREADS, deduplicated, within the machine's. */
export function cpu16Threads(spec = process.env.LAPIS_BENCH_THREADS, available = os.availableParallelism()): number[] {
  const asked = (spec?.trim() ? spec : '1,2,4,8,16').split(',').map((s) => Number(s.trim()));
  const bad = asked.find((t) => !Number.isInteger(t) || t < 1);
  if (bad !== undefined) throw new Error(`cpu16: LAPIS_BENCH_THREADS must list positive integers, got ${JSON.stringify(spec)}`);
  const ok = [...new Set(asked.filter((t) => t <= available))].sort((a, b) => a - b);
  return ok.length ? ok : [available];
}

// 1-thread 4096 LU/QR calls take seconds: three samples within a 10 s budget, so the whole
// suite (8 ops × 5 thread counts × 2 sides) keeps within ~8 minutes on 16 cores.
const TIMING: BenchCase['timing'] = { targetSeconds: 1.5, minSamples: 3, maxSamples: 10, slowCallSeconds: 8, budgetSeconds: 10 };

registerSuite(
  'cpu16',
  () => {
    const scale = Number(process.env.LAPIS_BENCH_CPU16_SCALE ?? 1);
    if (!(scale > 0 && scale <= 1)) throw new Error(`cpu16: LAPIS_BENCH_CPU16_SCALE must be in (0, 1], got ${process.env.LAPIS_BENCH_CPU16_SCALE}`);
    const sz = (x: number) => Math.max(8, Math.round(x * scale));
    const N = sz(4096), NS = sz(1024), K = sz(256), COUNT = Math.max(1, Math.round(1_000_000 * scale));
    const ops: Array<Omit<BenchCase, 'threads' | 'targets' | 'timing'>> = [];
    {
      const A = randn([N, N], { seed: 1 }), B = randn([N, N], { seed: 2 });
      ops.push({
        name: `dgemm n=${N}`,
        flops: 2 * N ** 3,
        peak: 'float64',
        lapis: () => { linalg.matmul(A, B); },
        python: { setup: `r = np.random.default_rng(1)\na = r.standard_normal((${N}, ${N}))\nb = r.standard_normal((${N}, ${N}))`, stmt: 'a @ b' },
      });
    }
    {
      const A = randn([N, N], { dtype: 'float32', seed: 3 }), B = randn([N, N], { dtype: 'float32', seed: 4 });
      ops.push({
        name: `sgemm n=${N}`,
        flops: 2 * N ** 3,
        peak: 'float32',
        lapis: () => { linalg.matmul(A, B); },
        python: {
          setup: `r = np.random.default_rng(3)\na = r.standard_normal((${N}, ${N})).astype(np.float32)\nb = r.standard_normal((${N}, ${N})).astype(np.float32)`,
          stmt: 'a @ b',
        },
      });
    }
    {
      const A = randn([N, N], { seed: 5 });
      ops.push({
        name: `dgetrf n=${N}`,
        flops: lu(N),
        lapis: () => { linalg.luFactor(A); },
        python: { setup: `import scipy.linalg as sl\na = np.random.default_rng(5).standard_normal((${N}, ${N}))`, stmt: 'sl.lu_factor(a)' },
      });
    }
    {
      const A = randn([N, N], { seed: 6 }), B = randn([N, K], { seed: 7 });
      ops.push({
        name: `dgesv n=${N} k=${K}`,
        flops: lu(N) + 2 * N * N * K,
        lapis: () => { linalg.solveEx(A, B); },
        python: { setup: `r = np.random.default_rng(6)\na = r.standard_normal((${N}, ${N}))\nb = r.standard_normal((${N}, ${K}))`, stmt: 'np.linalg.solve(a, b)' },
      });
    }
    {
      const A = randn([N, N], { seed: 8 });
      ops.push({
        name: `dgeqrf+dorgqr ${N}×${N}`,
        flops: qrFlops(N, N),
        lapis: () => { linalg.qr(A); },
        python: { setup: `a = np.random.default_rng(8).standard_normal((${N}, ${N}))`, stmt: 'np.linalg.qr(a)' },
      });
    }
    {
      const A = randn([NS, NS], { seed: 9 });
      ops.push({
        name: `dgesvd n=${NS} with vectors`,
        lapis: () => { linalg.svd(A, { fullMatrices: false }); },
        python: { setup: `a = np.random.default_rng(9).standard_normal((${NS}, ${NS}))`, stmt: 'np.linalg.svd(a, full_matrices=False)' },
      });
    }
    {
      const A = randn([N, NS], { seed: 10 });
      ops.push({
        name: `pinv ${N}×${NS}`,
        lapis: () => { linalg.pinv(A); },
        python: { setup: `a = np.random.default_rng(10).standard_normal((${N}, ${NS}))`, stmt: 'np.linalg.pinv(a)' },
      });
    }
    {
      const n = 8;
      const A = randn([COUNT, n, n], { seed: 11 }), B = randn([COUNT, n, 1], { seed: 12 });
      ops.push({
        name: `batched dgesv ${COUNT}× ${n}×${n}`,
        flops: COUNT * (lu(n) + 2 * n * n),
        lapis: () => { linalg.solveEx(A, B); },
        python: {
          setup: `r = np.random.default_rng(11)\na = r.standard_normal((${COUNT}, ${n}, ${n}))\nb = r.standard_normal((${COUNT}, ${n}, 1))`,
          stmt: 'np.linalg.solve(a, b)',
        },
      });
    }
    const cases: BenchCase[] = [];
    for (const op of ops)
      for (const threads of cpu16Threads())
        cases.push({ ...op, name: `${op.name} (t=${threads})`, threads, targets: [{ vs: 'numpy', maxRatio: 1.0 }], timing: TIMING });
    return cases;
  },
  'Each operation on every thread count of `LAPIS_BENCH_THREADS` (lapis under `setNumThreads(t)`, numpy/scipy ' +
    'with `OPENBLAS_NUM_THREADS=t`), so the tables above read as scaling curves; targets are numpy ≤ 1.0 at every ' +
    "count. numpy's batched solve is a gufunc loop over LAPACK on one thread whatever the count.",
);
