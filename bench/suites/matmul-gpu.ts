// Matrix products on the GPU: lapis's WGSL GEMM against torch on CUDA (no TF32) in the
// same run. Registered into suite `matmul` beside the CPU cases, and alone as
// `matmul-gpu`. On a software adapter (lavapipe) the sizes shrink so the suite stays short.
// LAPIS_BENCH_TUNE=1 adds the tile tuning cases, all through gemmGpu: every candidate tile
// (src/backend/gpu/gemm.ts GEMM_F32_CANDIDATES / GEMM_C64_CANDIDATES) on sgemm 4096 and
// 8192, cgemm 2048 and the LU-shaped rank-128 update of a 4096×4096 matrix (A, B and C in
// one buffer), torch timed once per shape, plus the old matmul.wgsl kernel for the A/B.
// LAPIS_BENCH_TUNE=t128,128x128x16/8x8 names the tiles to time (names or BMxBNxBK/TMxTN).
// The transposed-operand cases (Aᵀ·B, A·Bᵀ through { transposeA } / { transposeB }: read in
// place) sit beside torch's `a.mT @ b` / `a @ b.mT` (views: cuBLAS flips a flag), the plain
// A·B of the same shape, and `A.mT` first (a transposed copy, what the options replaced).
import { isGpuOff, registerSuite, registeredSuites, type BenchCase } from '../harness.js';
import { gpu, linalg, randn, type Tensor } from '../../src/index.js';
import { F32_TILES, C64_TILES, matmulGpu, type MatmulTile } from '../../src/backend/gpu/matmul.js';
import {
  gemmGpu, gemmTileOf, gemmTileFits, GEMM_F32_CANDIDATES, GEMM_C64_CANDIDATES, type GemmTile,
} from '../../src/backend/gpu/gemm.js';
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

/** How a transposed-operand case gets op(A)·op(B): NN plain, TN Aᵀ·B, NT A·Bᵀ; TNcopy matmul(A.mT, B), NTcopy matmul(A, B.mT). */
type OpPair = 'NN' | 'TN' | 'NT' | 'TNcopy' | 'NTcopy';

/**
 * op(A)·op(B) of square n×n operands (a batch of `batch` of them when given), `reps` products
 * per sync, beside torch's product of the same views. Checked after the timing: sampled
 * entries of one more product against float64 dot products of the op'd operands on the host.
 */
function opCase(dtype: 'float32' | 'complex64', pair: OpPair, n: number, opts: { batch?: number; reps?: number } = {}): BenchCase {
  const complex = dtype === 'complex64';
  const batch = opts.batch ?? 0, reps = opts.reps ?? 1;
  const lead = batch ? [batch] : [];
  const A = randn([...lead, n, n], { dtype, seed: n + 3 });
  const B = randn([...lead, n, n], { dtype, seed: n + 4 });
  let Ag: Tensor | undefined, Bg: Tensor | undefined;
  const mm = (a: Tensor, b: Tensor): Tensor => {
    if (pair === 'TN') return linalg.matmul(a, b, { transposeA: true });
    if (pair === 'NT') return linalg.matmul(a, b, { transposeB: true });
    if (pair === 'NN') return linalg.matmul(a, b);
    const t = pair === 'TNcopy' ? a.mT : b.mT;
    const c = pair === 'TNcopy' ? linalg.matmul(t, b) : linalg.matmul(a, t);
    t.dispose();
    return c;
  };
  const what = { NN: 'A·B', TN: 'Aᵀ·B', NT: 'A·Bᵀ', TNcopy: 'A.mT·B (copy)', NTcopy: 'A·B.mT (copy)' }[pair];
  const size = batch ? `${batch}×(${n}×${n})` : `n=${n}`;
  const tdt = complex ? 'torch.complex64' : 'torch.float32';
  const stmt1 = { NN: 'a @ b', TN: 'a.mT @ b', NT: 'a @ b.mT', TNcopy: 'a.mT @ b', NTcopy: 'a @ b.mT' }[pair];
  const shape = [...lead, n, n].join(', ');
  return {
    name: `gpu ${complex ? 'c' : 's'}gemm ${size} ${what}${reps > 1 ? ` (${reps} per sync)` : ''}`,
    flops: reps * (complex ? 8 : 2) * Math.max(batch, 1) * n ** 3,
    gpu: async () => {
      if (!Ag) { Ag = A.to('gpu'); Bg = B.to('gpu'); }
      for (let r = 0; r < reps; r++) mm(Ag, Bg!).dispose();
      await gpu.sync();
    },
    gpuCheck: async () => {
      const C = mm(Ag!, Bg!);
      const a = A.dataSync(), b = B.dataSync(), c = await C.data();
      C.dispose();
      const w = complex ? 2 : 1, mat = n * n;
      const tA = pair === 'TN' || pair === 'TNcopy', tB = pair === 'NT' || pair === 'NTcopy';
      let seed = 4321;
      const rnd = (lim: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return seed % lim; };
      for (let s = 0; s < 64; s++) {
        const q = s === 0 ? Math.max(batch, 1) - 1 : rnd(Math.max(batch, 1));
        const i = s === 0 ? n - 1 : rnd(n), j = s === 0 ? n - 1 : rnd(n);
        let re = 0, im = 0, bound = 0;
        for (let p = 0; p < n; p++) {
          const ai = (q * mat + (tA ? p * n + i : i * n + p)) * w, bi = (q * mat + (tB ? j * n + p : p * n + j)) * w;
          if (complex) {
            re += a[ai] * b[bi] - a[ai + 1] * b[bi + 1]; im += a[ai] * b[bi + 1] + a[ai + 1] * b[bi];
            bound += Math.hypot(a[ai], a[ai + 1]) * Math.hypot(b[bi], b[bi + 1]);
          } else {
            re += a[ai] * b[bi];
            bound += Math.abs(a[ai] * b[bi]);
          }
        }
        const o = (q * mat + i * n + j) * w;
        const err = Math.hypot(c[o] - re, complex ? c[o + 1] - im : 0);
        if (!(err <= 4 * n * EPS32 * bound)) throw new Error(`matmul-gpu ${pair}: wrong result at [${q}](${i}, ${j}): error ${err} > ${4 * n * EPS32 * bound}`);
      }
    },
    torch: {
      setup: `g = torch.Generator(device=dev).manual_seed(${n})\na = torch.randn(${shape}, device=dev, dtype=${tdt}, generator=g)\nb = torch.randn(${shape}, device=dev, dtype=${tdt}, generator=g)`,
      stmt: reps > 1 ? `for _ in range(${reps}):\n    ${stmt1}` : stmt1,
    },
  };
}

/**
 * The transposed-operand rows, float32 (lavapipe: tiny sizes): Aᵀ·B and A·Bᵀ beside A·B at each
 * size, and at 1024 and 4096 the copy forms too (whether reading in place beats copy + plain).
 */
function opCases(soft: boolean): BenchCase[] {
  const shapes: Array<[number, { batch?: number; reps?: number }]> = soft
    ? [[64, {}], [8, { batch: 64 }]]
    : [[256, { reps: 16 }], [1024, { reps: 8 }], [4096, {}], [32, { batch: 4096, reps: 8 }]];
  const cases: BenchCase[] = [];
  for (const [n, o] of shapes) {
    // A·B at 1024 (8 per sync) and 4096 is gemmCase's row above
    for (const pair of ['NN', 'TN', 'NT'] as const) if (pair !== 'NN' || soft || n < 1024) cases.push(opCase('float32', pair, n, o));
    if (n === 1024 || n === 4096 || n === 64) cases.push(opCase('float32', 'TNcopy', n, o), opCase('float32', 'NTcopy', n, o));
  }
  return cases;
}

/**
 * C = A·B (n×n) through gemmGpu with a given tile, or (`old`) through matmul.wgsl's tile
 * of the same name; torch's `a @ b` beside it when `torch`.
 */
// Inputs shared by the tuning cases of one shape (made on first use: 8192² operands for a
// dozen tiles would otherwise take gigabytes at suite construction).
const tuneInputs = new Map<string, { A: Tensor; B: Tensor; Ag: Tensor; Bg: Tensor; Cg: Tensor }>();
function sharedInputs(dtype: 'float32' | 'complex64', n: number) {
  const key = `${dtype}|${n}`;
  let e = tuneInputs.get(key);
  if (!e) {
    const A = randn([n, n], { dtype, seed: n }), B = randn([n, n], { dtype, seed: n + 1 });
    e = { A, B, Ag: A.to('gpu'), Bg: B.to('gpu'), Cg: randn([n, n], { dtype, seed: 7 }).to('gpu') };
    tuneInputs.set(key, e);
  }
  return e;
}

function tileCase(dtype: 'float32' | 'complex64', n: number, name: string, tile: GemmTile, torch: boolean, old = false): BenchCase {
  const complex = dtype === 'complex64';
  let A: Tensor, B: Tensor, Ag: Tensor | undefined, Bg: Tensor, Cg: Tensor;
  const tdt = complex ? 'torch.complex64' : 'torch.float32';
  const run = () => {
    if (old) {
      matmulGpu(Ag!, Bg!, planBatch(Ag!, Bg!, 'bench'), n, n, n, tile as MatmulTile, 'matmul').dispose();
      return;
    }
    const v = (t: Tensor, ld: number) => ({ s: t.gpuStorage(), offset: 0, ld, stride: 0 });
    gemmGpu('bench', { dtype, m: n, n, k: n, batch: 1, A: v(Ag!, n), B: v(Bg!, n), C: v(Cg!, n) }, tile);
  };
  return {
    name: `gpu tune ${complex ? 'c' : 's'}gemm n=${n} ${old ? 'matmul.wgsl' : 'gemm'} ${name}`,
    flops: (complex ? 8 : 2) * n ** 3,
    gpu: async () => {
      if (!Ag) {
        ({ A, B, Ag, Bg, Cg } = sharedInputs(dtype, n));
        if (old) {
          const C = matmulGpu(Ag, Bg, planBatch(Ag, Bg, 'bench'), n, n, n, tile as MatmulTile, 'matmul');
          await spotCheck(A, B, C, complex);
          C.dispose();
        } else {
          run();
          await spotCheck(A, B, Cg, complex);
        }
      }
      run();
      await gpu.sync();
    },
    torch: torch ? {
      setup: `g = torch.Generator(device=dev).manual_seed(${n})\na = torch.randn(${n}, ${n}, device=dev, dtype=${tdt}, generator=g)\nb = torch.randn(${n}, ${n}, device=dev, dtype=${tdt}, generator=g)`,
      stmt: 'a @ b',
    } : undefined,
  };
}

/**
 * The LU trailing update of one n×n matrix M: M[r:, r:] −= M[r:, :r]·M[:r, r:], with A, B
 * and C views of one buffer (bound once), as the blocked factorizations call gemmGpu.
 */
let rankInput: Tensor | undefined;
function rankUpdateCase(n: number, r: number, name: string, tile: GemmTile | undefined, torch: boolean): BenchCase {
  let M: Tensor, Mg: Tensor | undefined;
  const m = n - r;
  const run = () => {
    const s = Mg!.gpuStorage();
    gemmGpu('bench', {
      dtype: 'float32', m, n: m, k: r, batch: 1, alpha: -1, beta: 1,
      A: { s, offset: r * n, ld: n, stride: 0 }, B: { s, offset: r, ld: n, stride: 0 }, C: { s, offset: r * n + r, ld: n, stride: 0 },
    }, tile);
  };
  return {
    name: `gpu tune rank-${r} update n=${n} ${name}`,
    flops: 2 * m * m * r,
    gpu: async () => {
      if (!Mg) {
        // one host matrix; each case updates its own GPU copy (checked after its first call)
        if (!rankInput || rankInput.rows !== n) rankInput = randn([n, n], { dtype: 'float32', seed: 3 });
        M = rankInput;
        Mg = M.to('gpu');
        run();
        // sampled entries against float64 on the host, within k·eps·(|C| + |A||B|)
        const h = M.dataSync() as Float32Array, o = (await Mg.data()) as Float32Array;
        for (let q = 0; q < 64; q++) {
          const i = r + ((q * 2654435761) >>> 0) % m, j = r + ((q * 40503 + 17) >>> 0) % m;
          let d = h[i * n + j], bound = Math.abs(d);
          for (let p = 0; p < r; p++) { d -= h[i * n + p] * h[p * n + j]; bound += Math.abs(h[i * n + p] * h[p * n + j]); }
          if (!(Math.abs(o[i * n + j] - d) <= 4 * (r + 2) * EPS32 * bound)) throw new Error(`matmul-gpu: rank-${r} update wrong at (${i}, ${j})`);
        }
      }
      run();
      await gpu.sync();
    },
    torch: torch ? {
      setup: `g = torch.Generator(device=dev).manual_seed(3)\nM = torch.randn(${n}, ${n}, device=dev, dtype=torch.float32, generator=g)\nC = M[${r}:, ${r}:]\nA = M[${r}:, :${r}]\nB = M[:${r}, ${r}:]`,
      stmt: 'C.addmm_(A, B, alpha=-1)',
    } : undefined,
  };
}

/** The tuning cases: every candidate tile (or the named ones) on each shape. */
function tuneCases(tune: string): BenchCase[] {
  const pick = (dtype: 'float32' | 'complex64', all: Record<string, GemmTile>, skip: string[]): Array<[string, GemmTile]> => {
    const names = tune === '1' ? Object.keys(all).filter((t) => !skip.includes(t)) : tune.split(',');
    const out: Array<[string, GemmTile]> = [];
    for (const nm of names) {
      let t: GemmTile;
      try { t = gemmTileOf(dtype, nm); } catch { continue; }
      if (gemmTileFits(t, dtype === 'complex64')) out.push([nm, t]);
      else console.warn(`matmul-gpu tune: tile ${nm} does not fit this device's workgroup limits`);
    }
    return out;
  };
  // t64/t32/t64k32 are small-size tiles: not contenders at these sizes.
  const f32 = pick('float32', GEMM_F32_CANDIDATES, ['t64', 't32', 't64k32']);
  const c64 = pick('complex64', GEMM_C64_CANDIDATES, ['t32']);
  const cases: BenchCase[] = [];
  for (const n of [4096, 8192]) f32.forEach(([nm, t], i) => cases.push(tileCase('float32', n, nm, t, i === 0)));
  f32.forEach(([nm, t], i) => cases.push(rankUpdateCase(4096, 128, nm, t, i === 0)));
  cases.push(rankUpdateCase(4096, 128, 'picked', undefined, false));
  c64.forEach(([nm, t], i) => cases.push(tileCase('complex64', 2048, nm, t, i === 0)));
  // the old kernel (matmul.wgsl) on its default tiles, for the one-kernel-family A/B
  cases.push(tileCase('float32', 4096, 't128', F32_TILES.t128, false, true));
  cases.push(tileCase('float32', 4096, 't64', F32_TILES.t64, false, true));
  cases.push(tileCase('complex64', 2048, 't64r8', C64_TILES.t64r8, false, true));
  return cases;
}

async function gpuCases(): Promise<BenchCase[]> {
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true;
  if (soft) {
    // A CPU-emulated adapter: small sizes, to show the path works, not to compare speed.
    return [gemmCase('float32', 256, 1), gemmCase('float32', 512, 1), gemmCase('complex64', 256, 1), ...opCases(true)];
  }
  const cases = [
    gemmCase('float32', 1024, 8),
    // Issue 12's targets: ≤ 1.25× cuBLAS without TF32 (2.69 / 21.7 ms there, ≥ 40 TFLOP/s).
    gemmCase('float32', 4096, 1, { target: 1.25 }),
    gemmCase('float32', 8192, 1, { target: 1.25 }),
    gemmCase('complex64', 1024, 4),
    gemmCase('complex64', 4096, 1),
    ...opCases(false),
  ];
  const tune = process.env.LAPIS_BENCH_TUNE;
  if (tune) cases.push(...tuneCases(tune));
  return cases;
}

registerSuite('matmul-gpu', gpuCases);
// Suite `matmul` holds the CPU cases (matmul.ts) and these; whichever file loads second
// wraps the other's factory.
const cpuFactory = registeredSuites().get('matmul');
registerSuite('matmul', async () => [...(cpuFactory ? await cpuFactory() : []), ...(await gpuCases())]);
