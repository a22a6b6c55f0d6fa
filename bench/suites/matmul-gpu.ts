// Matrix products on the GPU: lapis's WGSL GEMM against torch on CUDA (no TF32) in the
// same run. Registered into suite `matmul` beside the CPU cases, and alone as
// `matmul-gpu`. On a software adapter (lavapipe) the sizes shrink so the suite stays short.
// LAPIS_BENCH_TUNE=1 adds one case per tile `pickTile` chooses from, without the torch
// peer; LAPIS_BENCH_TUNE=t128,t64 names the tiles to time. (Tiles that lost are in
// docs/decisions.md and git history; try one by passing it to matmulGpu.)
import { registerSuite, registeredSuites, type BenchCase } from '../harness.js';
import { gpu, linalg, randn, type Tensor } from '../../src/index.js';
import { F32_TILES, C64_TILES, matmulGpu, type MatmulTile } from '../../src/backend/gpu/matmul.js';
import { planBatch } from '../../src/core/batch.js';

const EPS32 = 1.1920928955078125e-7;

/**
 * Checks sampled entries of the GPU product against float64 dot products on the host,
 * within k·eps·(|A||B|)ᵢⱼ, so a fast wrong kernel cannot post a figure.
 */
async function spotCheck(A: Tensor, B: Tensor, C: Tensor, complex: boolean): Promise<void> {
  const a = A.dataSync(), b = B.dataSync(), c = await C.data();
  const [m, k] = [A.rows, A.cols], n = B.cols;
  const w = complex ? 2 : 1;
  let seed = 12345;
  const rnd = (lim: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % lim; };
  for (let s = 0; s < 64; s++) {
    const i = s === 0 ? m - 1 : rnd(m), j = s === 0 ? n - 1 : rnd(n);
    let re = 0, im = 0, bound = 0;
    for (let p = 0; p < k; p++) {
      const ar = a[(i * k + p) * w], br = b[(p * n + j) * w];
      if (complex) {
        const ai = a[(i * k + p) * w + 1], bi = b[(p * n + j) * w + 1];
        re += ar * br - ai * bi; im += ar * bi + ai * br;
        bound += Math.hypot(ar, ai) * Math.hypot(br, bi);
      } else {
        re += ar * br;
        bound += Math.abs(ar * br);
      }
    }
    const err = Math.hypot(c[(i * n + j) * w] - re, complex ? c[(i * n + j) * w + 1] - im : 0);
    if (!(err <= 4 * k * EPS32 * bound)) {
      throw new Error(`matmul-gpu: wrong result at (${i}, ${j}): error ${err} > ${4 * k * EPS32 * bound}`);
    }
  }
}

function gemmCase(
  dtype: 'float32' | 'complex64', n: number, reps: number, opts: { tile?: string; target?: number; torch?: boolean } = {},
): BenchCase {
  const complex = dtype === 'complex64';
  const A = randn([n, n], { dtype, seed: n });
  const B = randn([n, n], { dtype, seed: n + 1 });
  let Ag: Tensor | undefined, Bg: Tensor | undefined;
  const tdt = complex ? 'torch.complex64' : 'torch.float32';
  const label = `${complex ? 'c' : 's'}gemm n=${n}${reps > 1 ? ` (${reps} per sync)` : ''}${opts.tile ? ` tile ${opts.tile}` : ''}`;
  return {
    name: `gpu ${label}`,
    flops: reps * (complex ? 8 : 2) * n ** 3,
    gpu: async () => {
      const tile: MatmulTile | undefined = opts.tile ? (complex ? C64_TILES : F32_TILES)[opts.tile as 't64'] : undefined;
      // a named tile through the GPU entry with an explicit tile (linalg.matmul picks its own)
      const mm = (a: Tensor, b: Tensor) => (tile ? matmulGpu(a, b, planBatch(a, b, 'bench'), n, n, n, tile) : linalg.matmul(a, b));
      if (!Ag) {
        Ag = A.to('gpu'); Bg = B.to('gpu');
        const C = mm(Ag, Bg);
        await spotCheck(A, B, C, complex);
        C.dispose();
      }
      for (let r = 0; r < reps; r++) mm(Ag, Bg!).dispose();
      await gpu.sync();
    },
    torch: opts.torch === false ? undefined : {
      setup: `g = torch.Generator(device=dev).manual_seed(${n})\na = torch.randn(${n}, ${n}, device=dev, dtype=${tdt}, generator=g)\nb = torch.randn(${n}, ${n}, device=dev, dtype=${tdt}, generator=g)`,
      stmt: reps > 1 ? `for _ in range(${reps}):\n    a @ b` : 'a @ b',
    },
    targets: opts.target === undefined ? undefined : [{ vs: 'torch', device: 'gpu', maxRatio: opts.target }],
  };
}

async function gpuCases(): Promise<BenchCase[]> {
  const ok = await gpu.available();
  const soft = !ok || gpu.info()?.isSoftware === true;
  if (soft) {
    // A CPU-emulated adapter: small sizes, to show the path works, not to compare speed.
    return [gemmCase('float32', 256, 1), gemmCase('float32', 512, 1), gemmCase('complex64', 256, 1)];
  }
  const cases = [
    gemmCase('float32', 1024, 8),
    // Issue target: ≥ 20 TFLOP/s at 4096; cuBLAS (no TF32) is about 50 TFLOP/s, so 2.5×.
    gemmCase('float32', 4096, 1, { target: 2.5 }),
    gemmCase('float32', 8192, 1),
    gemmCase('complex64', 1024, 4),
    gemmCase('complex64', 4096, 1),
  ];
  const tune = process.env.LAPIS_BENCH_TUNE;
  if (tune) {
    const want = (t: string) => tune === '1' || tune.split(',').includes(t);
    for (const t of Object.keys(F32_TILES)) if (want(t)) cases.push(gemmCase('float32', 4096, 1, { tile: t, torch: false }));
    for (const t of Object.keys(C64_TILES)) if (want(t)) cases.push(gemmCase('complex64', 2048, 1, { tile: t, torch: false }));
  }
  return cases;
}

registerSuite('matmul-gpu', gpuCases);
// Suite `matmul` holds the CPU cases (matmul.ts) and these; whichever file loads second
// wraps the other's factory.
const cpuFactory = registeredSuites().get('matmul');
registerSuite('matmul', async () => [...(cpuFactory ? await cpuFactory() : []), ...(await gpuCases())]);
