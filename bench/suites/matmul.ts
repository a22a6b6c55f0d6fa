// Matrix products on the CPU: lapis's packed GEMM against numpy (OpenBLAS, with the same
// thread count: the harness sets OPENBLAS_NUM_THREADS to LAPIS_NUM_THREADS), and the
// small-matrix case against ml-matrix and mathjs. Suite `matmul`; GPU cases live in
// matmul-gpu.ts under the same suite name.
import { create, all } from 'mathjs';
import { Matrix } from 'ml-matrix';
import { registerSuite, registeredSuites, type BenchCase } from '../harness.js';
import { linalg, randn } from '../../src/index.js';
import type { FloatDType } from '../../src/core/dtype.js';

const NP: Record<FloatDType, string> = {
  float32: 'np.float32', float64: 'np.float64', complex64: 'np.complex64', complex128: 'np.complex128',
};
const PREFIX: Record<FloatDType, string> = { float32: 's', float64: 'd', complex64: 'c', complex128: 'z' };

/** An n×n product case: seeded Gaussian operands on both sides. */
function gemmCase(dtype: FloatDType, n: number, maxRatio?: number): BenchCase {
  const complex = dtype.startsWith('complex');
  const A = randn([n, n], { dtype, seed: n });
  const B = randn([n, n], { dtype, seed: n + 1 });
  const gen = complex
    ? (s: number) => `(r${s}.standard_normal((${n}, ${n})) + 1j * r${s}.standard_normal((${n}, ${n}))).astype(${NP[dtype]})`
    : (s: number) => `r${s}.standard_normal((${n}, ${n})).astype(${NP[dtype]})`;
  return {
    name: `${PREFIX[dtype]}gemm n=${n}`,
    flops: (complex ? 8 : 2) * n ** 3,
    lapis: () => { linalg.matmul(A, B); },
    python: {
      setup: `r0 = np.random.default_rng(${n})\nr1 = np.random.default_rng(${n + 1})\na = ${gen(0)}\nb = ${gen(1)}`,
      stmt: 'a @ b',
    },
    targets: maxRatio === undefined ? undefined : [{ vs: 'numpy', maxRatio }],
  };
}

function cpuCases(): BenchCase[] {
  const cases: BenchCase[] = [
    gemmCase('float64', 64),
    gemmCase('float64', 256),
    gemmCase('float64', 1024, 1.3),
    gemmCase('float32', 1024, 1.5),
    gemmCase('complex64', 1024, 1.5),
    gemmCase('complex128', 1024, 1.5),
  ];

  // 64×64 float64 against the JavaScript libraries (and numpy, for scale).
  {
    const n = 64;
    const A = randn([n, n], { seed: 64 });
    const B = randn([n, n], { seed: 65 });
    const math = create(all, { absTol: 0, relTol: 1e-12 });
    const a = A.toArray() as number[][];
    const b = B.toArray() as number[][];
    const ma = math.matrix(a), mb = math.matrix(b);
    const la = new Matrix(a), lb = new Matrix(b);
    cases.push({
      name: `matmul 64×64 float64 vs JS`,
      flops: 2 * n ** 3,
      lapis: () => { linalg.matmul(A, B); },
      peers: {
        mathjs: () => { math.multiply(ma, mb); },
        mlMatrix: () => { la.mmul(lb); },
      },
      python: {
        setup: `r0 = np.random.default_rng(64)\nr1 = np.random.default_rng(65)\na = r0.standard_normal((64, 64))\nb = r1.standard_normal((64, 64))`,
        stmt: 'a @ b',
      },
      targets: [{ vs: 'ml-matrix', maxRatio: 0.02 }, { vs: 'mathjs', maxRatio: 0.00333 }],
    });
  }

  // Skinny shapes the factorizations produce (panel updates: k small; matrix-vector).
  {
    const [m, k, n] = [1024, 64, 1024];
    const A = randn([m, k], { seed: 3 });
    const B = randn([k, n], { seed: 4 });
    cases.push({
      name: `dgemm ${m}×${k}·${k}×${n} (rank-64 update)`,
      flops: 2 * m * n * k,
      lapis: () => { linalg.matmul(A, B); },
      python: {
        setup: `r0 = np.random.default_rng(3)\nr1 = np.random.default_rng(4)\na = r0.standard_normal((${m}, ${k}))\nb = r1.standard_normal((${k}, ${n}))`,
        stmt: 'a @ b',
      },
    });
  }
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
  }
  return cases;
}

// The GPU cases (matmul-gpu.ts) share the suite name; whichever file loads second keeps
// the other's cases.
const gpuFactory = registeredSuites().get('matmul');
registerSuite('matmul', async () => [...cpuCases(), ...(gpuFactory ? await gpuFactory() : [])]);
