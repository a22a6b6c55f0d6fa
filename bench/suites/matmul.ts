// Matrix products on the CPU: lapis's packed GEMM against numpy (OpenBLAS, with the same
// thread count: the harness sets OPENBLAS_NUM_THREADS to LAPIS_NUM_THREADS), each GEMM shape
// on one thread and on the run's (issue 17), and the small-matrix case against ml-matrix and
// mathjs. Suite `matmul`; GPU cases live in matmul-gpu.ts under the same suite name.
import { registerSuite, registeredSuites, type BenchCase } from '../harness.js';
import { jsPeerLibs } from '../js-peers.js';
import { linalg, numThreads, randn, zeros, type Tensor } from '../../src/index.js';
import type { FloatDType } from '../../src/core/dtype.js';

const NP: Record<FloatDType, string> = {
  float32: 'np.float32', float64: 'np.float64', complex64: 'np.complex64', complex128: 'np.complex128',
};
const PREFIX: Record<FloatDType, string> = { float32: 's', float64: 'd', complex64: 'c', complex128: 'z' };

/**
 * The operands of the product that runs: seeded Gaussian A and B made by its case's setup
 * (untimed) and kept while the next case multiplies the same ones (its other thread count),
 * replaced when a case with others starts. The suite holds one product's data at a time:
 * all ~70 cases' operands at once (1.3 GB) beside the peers' heap made V8 collect lapis's
 * fresh results so often that two threads ran no faster than one at n = 256
 * (docs/decisions.md, "V8's own collector on two cores").
 */
class LiveOperands {
  private key = '';
  A: Tensor | null = null;
  B: Tensor | null = null;
  take(dtype: FloatDType, shapeA: [number, number], seedA: number, shapeB: [number, number], seedB: number): void {
    const key = `${dtype} ${shapeA.join('×')} ${seedA} ${shapeB.join('×')} ${seedB}`;
    if (key === this.key) return;
    this.A = this.B = null;
    this.A = randn(shapeA, { dtype, seed: seedA });
    this.B = randn(shapeB, { dtype, seed: seedB });
    this.key = key;
  }
}

export interface GemmShape {
  m: number;
  k: number;
  n: number;
  /** A transposed operand: 'A' is Aᵀ·B with A stored k×m, 'B' is A·Bᵀ with B stored n×k. */
  trans?: 'A' | 'B';
  /** Lapis and numpy threads for this case (BenchCase.threads); the run's if absent. */
  threads?: number;
  maxRatio?: number;
  timing?: BenchCase['timing'];
}

/**
 * An m×k·k×n product case on seeded Gaussian operands on both sides; a transposed one
 * passes `{ transposeA: true }` / `{ transposeB: true }` (the GEMM reads the stored operand
 * through swapped strides, no copy) against numpy's `a.T @ b` / `a @ b.T`.
 */
function gemmCase(dtype: FloatDType, { m, k, n, trans, threads, maxRatio, timing }: GemmShape, live = new LiveOperands()): BenchCase {
  const complex = dtype.startsWith('complex');
  const shapeA: [number, number] = trans === 'A' ? [k, m] : [m, k];
  const shapeB: [number, number] = trans === 'B' ? [n, k] : [k, n];
  const seedA = 2 * (m + k + n) + (trans === 'A' ? 1 : 0), seedB = 2 * (m + k + n) + (trans === 'B' ? 3 : 2);
  const gen = (s: number, [r, c]: [number, number]) => complex
    ? `(r${s}.standard_normal((${r}, ${c})) + 1j * r${s}.standard_normal((${r}, ${c}))).astype(${NP[dtype]})`
    : `r${s}.standard_normal((${r}, ${c})).astype(${NP[dtype]})`;
  const square = m === k && k === n;
  const name = `${PREFIX[dtype]}gemm ` + (trans === 'A' ? `${n} Aᵀ·B` : trans === 'B' ? `${n} A·Bᵀ` : square ? `n=${n}` : `${m}×${k}·${k}×${n}`) +
    (threads !== undefined ? ` (t=${threads})` : '');
  return {
    name,
    flops: (complex ? 8 : 2) * m * k * n,
    // its rate as a fraction of the FMA peak of the real type it runs on
    peak: dtype === 'float32' || dtype === 'complex64' ? 'float32' : 'float64',
    setup: () => live.take(dtype, shapeA, seedA, shapeB, seedB),
    lapis: trans === 'A' ? () => { linalg.matmul(live.A!, live.B!, { transposeA: true }); }
      : trans === 'B' ? () => { linalg.matmul(live.A!, live.B!, { transposeB: true }); }
      : () => { linalg.matmul(live.A!, live.B!); },
    python: {
      setup: `r0 = np.random.default_rng(${m + k})\nr1 = np.random.default_rng(${k + n + 1})\na = ${gen(0, shapeA)}\nb = ${gen(1, shapeB)}`,
      stmt: trans === 'A' ? 'a.T @ b' : trans === 'B' ? 'a @ b.T' : 'a @ b',
    },
    // issue 17: ≥ 85% of the peak for the square products from n = 1024
    targets: [
      ...(maxRatio === undefined ? [] : [{ vs: 'numpy' as const, maxRatio }]),
      ...(square && !trans && n >= 1024 ? [{ vs: 'peak' as const, minFraction: 0.85 }] : []),
    ],
    ...(threads !== undefined ? { threads } : {}),
    ...(timing ? { timing } : {}),
  };
}

/** Fewer samples for the big products, so the suite keeps within ~6 minutes on 2 cores. */
function gemmTiming(flops: number): BenchCase['timing'] {
  if (flops >= 60e9) return { minSamples: 3, maxSamples: 5, slowCallSeconds: 6, budgetSeconds: 8 };
  if (flops >= 15e9) return { minSamples: 3, budgetSeconds: 4 };
  // ~70 cases × 2 sides: half a second each instead of the default second
  return { targetSeconds: 0.5 };
}

/**
 * The issue-17 GEMM set, each on one thread and on the run's: float32/float64 n = 256…4096,
 * complex n = 256…2048, skinny n×64×n and 64×n×n, transposed operands; `--quick` keeps n = 256
 * (and one skinny and one transposed shape).
 */
function gemmSet(quick: boolean): BenchCase[] {
  const runThreads = numThreads();
  const threadCounts: Array<number | undefined> = runThreads > 1 ? [1, undefined] : [undefined];
  const shapes: Array<[FloatDType, GemmShape]> = [];
  const sizes = quick ? [256] : [256, 512, 1024, 2048, 4096];
  for (const dtype of ['float32', 'float64', 'complex64', 'complex128'] as const)
    for (const n of sizes) if (!dtype.startsWith('complex') || n <= 2048) shapes.push([dtype, { m: n, k: n, n }]);
  for (const dtype of quick ? ['float64' as const] : ['float32', 'float64'] as const)
    for (const n of quick ? [1024] : [1024, 4096]) {
      shapes.push([dtype, { m: n, k: 64, n }]);
      shapes.push([dtype, { m: 64, k: n, n }]);
    }
  for (const dtype of quick ? ['float64' as const] : ['float32', 'float64'] as const)
    for (const n of quick ? [256] : [1024, 2048])
      for (const trans of ['A', 'B'] as const) shapes.push([dtype, { m: n, k: n, n, trans }]);
  const cases: BenchCase[] = [];
  const live = new LiveOperands();
  for (const [dtype, shape] of shapes)
    for (const threads of threadCounts) {
      const flops = (dtype.startsWith('complex') ? 8 : 2) * shape.m * shape.k * shape.n;
      cases.push(gemmCase(dtype, { ...shape, threads, maxRatio: 1.0, timing: quick ? undefined : gemmTiming((flops * runThreads) / (threads ?? runThreads)) }, live));
    }
  return cases;
}

function cpuCases(): BenchCase[] {
  const cases: BenchCase[] = [gemmCase('float64', { m: 64, k: 64, n: 64 }), ...gemmSet(process.env.LAPIS_BENCH_QUICK === '1')];

  // 64×64 float64 against the JavaScript libraries (and numpy, for scale).
  {
    const n = 64;
    const A = randn([n, n], { seed: 64 });
    const B = randn([n, n], { seed: 65 });
    cases.push({
      name: `matmul 64×64 float64 vs JS`,
      flops: 2 * n ** 3,
      lapis: () => { linalg.matmul(A, B); },
      peers: async () => {
        const { math, ml: { Matrix } } = await jsPeerLibs();
        const a = A.toArray() as number[][];
        const b = B.toArray() as number[][];
        const ma = math.matrix(a), mb = math.matrix(b);
        const la = new Matrix(a), lb = new Matrix(b);
        return { mathjs: () => { math.multiply(ma, mb); }, mlMatrix: () => { la.mmul(lb); } };
      },
      python: {
        setup: `r0 = np.random.default_rng(64)\nr1 = np.random.default_rng(65)\na = r0.standard_normal((64, 64))\nb = r1.standard_normal((64, 64))`,
        stmt: 'a @ b',
      },
      targets: [{ vs: 'ml-matrix', maxRatio: 0.02 }, { vs: 'mathjs', maxRatio: 0.00333 }],
    });
  }

  // Matrix-vector.
  {
    const n = 1024;
    const A = randn([n, n], { seed: 5 });
    const x = randn([n, 1], { seed: 6 });
    cases.push({
      name: `dgemv n=${n}`,
      flops: 2 * n * n,
      lapis: () => { linalg.matmul(A, x); },
      python: {
        setup: `r0 = np.random.default_rng(5)\nr1 = np.random.default_rng(6)\na = r0.standard_normal((${n}, ${n}))\nx = r1.standard_normal((${n}, 1))`,
        stmt: 'a @ x',
      },
    });
  }
  {
    const [batch, n] = [10000, 8];
    const A = randn([batch, n, n], { seed: 8 });
    const B = randn([batch, n, n], { seed: 9 });
    cases.push({
      name: `batched dgemm ${batch}×(${n}×${n})`,
      flops: 2 * batch * n ** 3,
      lapis: () => { linalg.matmul(A, B); },
      python: {
        setup: `r0 = np.random.default_rng(8)\nr1 = np.random.default_rng(9)\na = r0.standard_normal((${batch}, ${n}, ${n}))\nb = r1.standard_normal((${batch}, ${n}, ${n}))`,
        stmt: 'a @ b',
      },
    });
    // The same product into one reused output (numpy's out=): no 5 MiB allocation a call.
    const C = zeros([batch, n, n]);
    cases.push({
      name: `batched dgemm ${batch}×(${n}×${n}), out=`,
      flops: 2 * batch * n ** 3,
      lapis: () => { linalg.matmul(A, B, { out: C }); },
      python: {
        setup: `r0 = np.random.default_rng(8)\nr1 = np.random.default_rng(9)\na = r0.standard_normal((${batch}, ${n}, ${n}))\nb = r1.standard_normal((${batch}, ${n}, ${n}))\nc = np.empty((${batch}, ${n}, ${n}))`,
        stmt: 'np.matmul(a, b, out=c)',
      },
    });
  }
  return cases;
}

// The GPU cases (matmul-gpu.ts) share the suite name; whichever file loads second keeps
// the other's cases.
const gpuFactory = registeredSuites().get('matmul');
registerSuite('matmul', async () => [...cpuCases(), ...(gpuFactory ? await gpuFactory() : [])]);
