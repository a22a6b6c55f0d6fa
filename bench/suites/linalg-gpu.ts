// Dense factorizations on the GPU (issue 12): LU, solve, triangular solve, complex64 LU, QR,
// det and a batch of mid-size LUs, lapis's WebGPU kernels against torch.linalg on CUDA in
// the same run (float32 unless said; TF32 off in bench/python_peer.py). Suite `linalg-gpu`;
// sgemm 4096/8192 are in `matmul-gpu`. Every lapis result is verified on the host after its
// timing (residuals of a few columns, in float64, against LAPACK's ratio limit), so a fast
// wrong kernel cannot post a figure; a case whose op throws or fails its check reports
// "error: …" and the suite goes on. On a software adapter (lavapipe) the sizes shrink: the
// paths are exercised, speed is not compared.
import { isGpuOff, registerSuite, type BenchCase, type BenchTarget } from '../harness.js';
import { uniformFloats, loudGpu } from '../gpu-case.js';
import { gpu, linalg, Tensor } from '../../src/index.js';

const EPS32 = 1.1920928955078125e-7;
/** LAPACK's test-ratio threshold (xGET01, xGET02, xQRT01…). */
const RATIO = 30;

type D = 'float32' | 'complex64';

const w = (dtype: D) => (dtype === 'complex64' ? 2 : 1);

/** (batch of) m×n uniform(-1, 1) matrices: well conditioned in practice, and partial pivoting swaps rows. */
function dense(dtype: D, shape: number[], seed: number): Tensor {
  return Tensor.fromStorage(dtype, shape, uniformFloats(shape.reduce((a, b) => a * b, 1) * w(dtype), seed));
}

/** Lower triangle with diagonal in [1, 2) and off-diagonal U(-1, 1)·0.5/√n: a well-conditioned TRSM. */
function lowerTriangle(n: number, seed: number): Tensor<'float32'> {
  const a = uniformFloats(n * n, seed);
  const s = 0.5 / Math.sqrt(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const q = i * n + j;
    a[q] = j < i ? a[q] * s : j === i ? 1.5 + 0.5 * a[q] : 0;
  }
  return Tensor.fromStorage('float32', [n, n], a);
}

/**
 * Rows of I + 0.3·U(-1,1)·√3/√n, shuffled: |det| is of order 1 at any n (a uniform matrix's
 * overflows float32 long before 4096), and the row shuffle makes the LU pivot.
 */
function detMatrix(n: number, seed: number): Tensor<'float32'> {
  const e = uniformFloats(n * n, seed);
  const a = new Float32Array(n * n);
  const perm = Array.from({ length: n }, (_, i) => i);
  let s = seed ^ 0x9e3779b9;
  for (let i = n - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const c = (0.3 * Math.sqrt(3)) / Math.sqrt(n);
  for (let i = 0; i < n; i++) {
    const src = perm[i];
    for (let j = 0; j < n; j++) a[i * n + j] = (src === j ? 1 : 0) + c * e[src * n + j];
  }
  return Tensor.fromStorage('float32', [n, n], a);
}

// ---------------------------------------------------------------------------------------
// Host-side checks (float64): a few columns of each residual against LAPACK's ratios.

/** max over columns of Σᵢ |aᵢⱼ| (complex: moduli), of the m×n matrix at `off`. */
function norm1(a: Float32Array, m: number, n: number, dtype: D, off = 0): number {
  const c = w(dtype);
  const sums = new Float64Array(n);
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
    const q = off + (i * n + j) * c;
    sums[j] += c === 2 ? Math.hypot(a[q], a[q + 1]) : Math.abs(a[q]);
  }
  return Math.max(0, ...sums);
}

function fail(what: string): never {
  throw new Error(`linalg-gpu: ${what}`);
}

/** Columns to check: the first two, one in the middle, the last (it crosses every block). */
function someColumns(n: number): number[] {
  return [...new Set([0, Math.min(1, n - 1), n >> 1, n - 1])];
}

/**
 * LU of the square n×n matrix b of A (host copy): pivots in range, info 0, and for a few
 * columns j, ‖(P·A − L·U)[:, j]‖₁ / (n·eps·‖A‖₁) < 30.
 */
function checkLu(dtype: D, A: Float32Array, LU: Float32Array, piv: Int32Array, info: Int32Array, n: number, b: number, cols: number[]): void {
  const c = w(dtype);
  const off = b * n * n * c;
  if (info[b] !== 0) fail(`luFactor matrix ${b}: info ${info[b]} (expected 0)`);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let k = 0; k < n; k++) {
    const p = piv[b * n + k] - 1;
    if (!(p >= k && p < n)) fail(`luFactor matrix ${b}: pivot ${k} is ${p + 1}, outside [${k + 1}, ${n}]`);
    [perm[k], perm[p]] = [perm[p], perm[k]];
  }
  const anorm = norm1(A, n, n, dtype, off);
  const at = (i: number, j: number) => off + (i * n + j) * c;
  for (const j of cols) {
    let r1 = 0;
    for (let i = 0; i < n; i++) {
      // (L·U)[i, j] = Σ_{k < min(i, j+1)} L[i,k]·U[k,j] + (i ≤ j ? U[i,j] : L[i,j]·U[j,j])
      let re = 0, im = 0;
      const kmax = Math.min(i, j + 1);
      for (let k = 0; k < kmax; k++) {
        const l = at(i, k), u = at(k, j);
        if (c === 2) {
          re += LU[l] * LU[u] - LU[l + 1] * LU[u + 1];
          im += LU[l] * LU[u + 1] + LU[l + 1] * LU[u];
        } else re += LU[l] * LU[u];
      }
      if (i <= j) {
        re += LU[at(i, j)];
        if (c === 2) im += LU[at(i, j) + 1];
      }
      const a = at(perm[i], j);
      r1 += c === 2 ? Math.hypot(A[a] - re, A[a + 1] - im) : Math.abs(A[a] - re);
    }
    const ratio = r1 / (n * EPS32 * anorm);
    if (!(ratio < RATIO)) fail(`luFactor matrix ${b}: column ${j} of P·A − L·U has ratio ${ratio.toPrecision(3)} (limit ${RATIO})`);
  }
}

/** For a few columns j of X (n×k): ‖B − A·X‖₁ / (‖A‖₁·‖X‖₁·n·eps) < 30 (LAPACK xGET02), real. */
function checkSolve(who: string, A: Float32Array, X: Float32Array, B: Float32Array, n: number, k: number, lowerOnly = false): void {
  const anorm = norm1(A, n, n, 'float32');
  for (const j of someColumns(k)) {
    let r1 = 0, x1 = 0;
    for (let i = 0; i < n; i++) x1 += Math.abs(X[i * k + j]);
    for (let i = 0; i < n; i++) {
      let s = B[i * k + j];
      const kmax = lowerOnly ? i + 1 : n;
      for (let p = 0; p < kmax; p++) s -= A[i * n + p] * X[p * k + j];
      r1 += Math.abs(s);
    }
    const ratio = r1 / (anorm * x1 * n * EPS32);
    if (!(ratio < RATIO)) fail(`${who}: column ${j} of B − A·X has ratio ${ratio.toPrecision(3)} (limit ${RATIO})`);
  }
}

/**
 * QR of the m×n A (reduced: Q m×n, R n×n, m ≥ n): a few columns of A − Q·R against
 * m·eps·‖A‖₁, and a few entries of QᵀQ − I against m·eps (LAPACK xQRT01).
 */
function checkQr(A: Float32Array, Q: Float32Array, R: Float32Array, m: number, n: number): void {
  const anorm = norm1(A, m, n, 'float32');
  for (const j of someColumns(n)) {
    let r1 = 0;
    for (let i = 0; i < m; i++) {
      let s = A[i * n + j];
      for (let k = 0; k <= j; k++) s -= Q[i * n + k] * R[k * n + j];
      r1 += Math.abs(s);
    }
    const ratio = r1 / (m * EPS32 * anorm);
    if (!(ratio < RATIO)) fail(`qr: column ${j} of A − Q·R has ratio ${ratio.toPrecision(3)} (limit ${RATIO})`);
    for (let i = 0; i < j; i++) {
      const r = Math.abs(R[j * n + i]);
      if (r !== 0) fail(`qr: R[${j}, ${i}] = ${r} below the diagonal`);
    }
  }
  const cols = someColumns(n);
  for (const i of cols) for (const j of cols) {
    let s = i === j ? -1 : 0;
    for (let p = 0; p < m; p++) s += Q[p * n + i] * Q[p * n + j];
    const ratio = Math.abs(s) / (m * EPS32);
    if (!(ratio < RATIO)) fail(`qr: (QᵀQ − I)[${i}, ${j}] has ratio ${ratio.toPrecision(3)} (limit ${RATIO})`);
  }
}

// ---------------------------------------------------------------------------------------
// Cases

/** torch setup: a seeded uniform(-1, 1) tensor `name` of `shape` on the GPU. */
function torchUniform(name: string, dtype: D, shape: number[], seed: number): string {
  const dims = shape.join(', ');
  const u = (extra: string) => `(torch.rand(${dims}${extra}, device=dev, generator=g) * 2 - 1)`;
  return `g = torch.Generator(device=dev).manual_seed(${seed})\n` +
    (dtype === 'complex64' ? `${name} = torch.view_as_complex(${u(', 2')}.contiguous())` : `${name} = ${u('')}`);
}

/**
 * A GPU case: `setup` makes the data (lazily, on the first call, so only cases that run pay
 * for it), `run` records one call and returns its outputs, `check` verifies one result on
 * the host. Errors come out as "error: <ErrorClass>: <message>" in the case's gpu note.
 */
function gpuCase(spec: {
  name: string;
  flops: number;
  target?: number;
  torch: { setup: string; stmt: string };
  setup: () => void;
  run: () => Tensor[];
  check: (outs: Tensor[]) => Promise<void>;
  teardown: () => void;
}): BenchCase {
  let ready = false;
  const targets: BenchTarget[] | undefined = spec.target === undefined ? undefined : [{ vs: 'torch', device: 'gpu', maxRatio: spec.target }];
  return {
    name: spec.name,
    flops: spec.flops,
    gpu: () => loudGpu(async () => {
      try {
        if (!ready) {
          spec.setup();
          ready = true;
        }
        for (const t of spec.run()) t.dispose();
        await gpu.sync();
      } catch (e) {
        // no gpuCheck follows a failed timing: free the case's data now
        spec.teardown();
        ready = false;
        throw e;
      }
    }),
    gpuCheck: () => loudGpu(async () => {
      try {
        const outs = spec.run();
        try {
          await spec.check(outs);
        } finally {
          for (const t of outs) t.dispose();
        }
      } finally {
        spec.teardown();
        ready = false;
      }
    }),
    torch: spec.torch,
    targets,
  };
}

const f32 = async (t: Tensor): Promise<Float32Array> => (await t.data()) as Float32Array;
const i32 = async (t: Tensor): Promise<Int32Array> => (await t.data()) as Int32Array;

function luCase(dtype: D, n: number, batch: number, target?: number): BenchCase {
  let A: Tensor | undefined, Ag: Tensor | undefined;
  const shape = batch > 1 ? [batch, n, n] : [n, n];
  const seed = 11 + n + batch;
  const label = batch > 1 ? `batch of ${batch.toLocaleString('en')} × ${n}×${n}` : `${n}×${n}`;
  return gpuCase({
    name: `gpu luFactor ${dtype === 'complex64' ? 'complex64 ' : ''}${label}`,
    flops: batch * (dtype === 'complex64' ? 8 : 2) / 3 * n ** 3,
    target,
    torch: { setup: torchUniform('a', dtype, shape, seed), stmt: 'torch.linalg.lu_factor(a)' },
    setup: () => { A = dense(dtype, shape, seed); Ag = A.to('gpu'); },
    run: () => { const r = linalg.luFactor(Ag!); return [r.LU, r.pivots, r.info]; },
    check: async ([LU, piv, info]) => {
      const a = A!.dataSync() as Float32Array, lu = await f32(LU), p = await i32(piv), inf = await i32(info);
      // one matrix: a few columns; a batch: every column of three members (n is small there)
      const members = batch > 1 ? [0, batch >> 1, batch - 1] : [0];
      for (const b of members) checkLu(dtype, a, lu, p, inf, n, b, batch > 1 ? Array.from({ length: n }, (_, j) => j) : someColumns(n));
      for (let b = 0; b < batch; b++) if (inf[b] !== 0) fail(`luFactor matrix ${b}: info ${inf[b]}`);
    },
    teardown: () => { Ag?.dispose(); A = Ag = undefined; },
  });
}

function solveCase(n: number, k: number, target?: number): BenchCase {
  let A: Tensor | undefined, B: Tensor | undefined, Ag: Tensor | undefined, Bg: Tensor | undefined;
  const seed = 21 + n;
  return gpuCase({
    name: `gpu solve ${n}×${n}, ${k} RHS`,
    flops: (2 / 3) * n ** 3 + 2 * n * n * k,
    target,
    torch: { setup: torchUniform('a', 'float32', [n, n], seed) + '\n' + `b = torch.rand(${n}, ${k}, device=dev, generator=g) * 2 - 1`, stmt: 'torch.linalg.solve(a, b)' },
    setup: () => {
      A = dense('float32', [n, n], seed); B = dense('float32', [n, k], seed + 1);
      Ag = A.to('gpu'); Bg = B.to('gpu');
    },
    run: () => [linalg.solve(Ag!, Bg!)],
    check: async ([X]) => checkSolve('solve', A!.dataSync() as Float32Array, await f32(X), B!.dataSync() as Float32Array, n, k),
    teardown: () => { Ag?.dispose(); Bg?.dispose(); A = B = Ag = Bg = undefined; },
  });
}

function trsmCase(n: number, k: number, target?: number): BenchCase {
  let L: Tensor | undefined, B: Tensor | undefined, Lg: Tensor | undefined, Bg: Tensor | undefined;
  const seed = 31 + n;
  return gpuCase({
    name: `gpu solveTriangular ${n}×${n} lower, ${k} RHS`,
    flops: n * n * k,
    target,
    torch: {
      setup: `g = torch.Generator(device=dev).manual_seed(${seed})\n` +
        `l = torch.tril(torch.rand(${n}, ${n}, device=dev, generator=g) * 2 - 1, -1) * ${0.5 / Math.sqrt(n)} + torch.diag(1 + torch.rand(${n}, device=dev, generator=g))\n` +
        `b = torch.rand(${n}, ${k}, device=dev, generator=g) * 2 - 1`,
      stmt: 'torch.linalg.solve_triangular(l, b, upper=False)',
    },
    setup: () => {
      L = lowerTriangle(n, seed); B = dense('float32', [n, k], seed + 1);
      Lg = L.to('gpu'); Bg = B.to('gpu');
    },
    run: () => [linalg.solveTriangular(Lg!, Bg!, { upper: false })],
    check: async ([X]) => checkSolve('solveTriangular', L!.dataSync() as Float32Array, await f32(X), B!.dataSync() as Float32Array, n, k, true),
    teardown: () => { Lg?.dispose(); Bg?.dispose(); L = B = Lg = Bg = undefined; },
  });
}

function qrCase(n: number, target?: number): BenchCase {
  let A: Tensor | undefined, Ag: Tensor | undefined;
  const seed = 41 + n;
  return gpuCase({
    name: `gpu qr ${n}×${n} reduced, with Q`,
    // geqrf 4/3·n³ and orgqr 4/3·n³ (LAPACK's counts for square A)
    flops: (8 / 3) * n ** 3,
    target,
    torch: { setup: torchUniform('a', 'float32', [n, n], seed), stmt: "torch.linalg.qr(a, mode='reduced')" },
    setup: () => { A = dense('float32', [n, n], seed); Ag = A.to('gpu'); },
    run: () => { const r = linalg.qr(Ag!, { mode: 'reduced' }); return [r.Q, r.R]; },
    check: async ([Q, R]) => checkQr(A!.dataSync() as Float32Array, await f32(Q), await f32(R), n, n),
    teardown: () => { Ag?.dispose(); A = Ag = undefined; },
  });
}

function detCase(n: number, target?: number): BenchCase {
  let A: Tensor | undefined, Ag: Tensor | undefined;
  const seed = 51 + n;
  const c = (0.3 * Math.sqrt(3)) / Math.sqrt(n);
  return gpuCase({
    name: `gpu det ${n}×${n}`,
    flops: (2 / 3) * n ** 3,
    target,
    torch: {
      setup: `g = torch.Generator(device=dev).manual_seed(${seed})\n` +
        `a = (torch.eye(${n}, device=dev) + ${c} * (torch.rand(${n}, ${n}, device=dev, generator=g) * 2 - 1))[torch.randperm(${n}, device=dev, generator=g)]`,
      stmt: 'torch.linalg.det(a)',
    },
    setup: () => { A = detMatrix(n, seed); Ag = A.to('gpu'); },
    run: () => [linalg.det(Ag!)],
    check: async ([d]) => {
      // against the CPU backend's float32 det of the same matrix: |det| is of order 1 here
      const got = (await f32(d))[0];
      const want = (linalg.det(A!).dataSync() as Float32Array)[0];
      if (!(Number.isFinite(want) && want !== 0)) fail(`det: the CPU reference is ${want}; the test matrix is wrong`);
      const rel = Math.abs(got - want) / Math.abs(want);
      if (!(rel < 1e-2)) fail(`det: GPU ${got} vs CPU ${want} (relative difference ${rel.toPrecision(3)})`);
    },
    teardown: () => { Ag?.dispose(); A = Ag = undefined; },
  });
}

async function cases(): Promise<BenchCase[]> {
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true;
  if (soft) {
    // A CPU-emulated adapter (lavapipe, a few GFLOP/s): small sizes that still cross the
    // blocked paths' block edges, to show every case runs and checks; speed is not compared.
    return [
      luCase('float32', 256, 1), luCase('float32', 520, 1),
      solveCase(300, 16), trsmCase(300, 16), trsmCase(520, 16),
      luCase('complex64', 160, 1), qrCase(130), qrCase(260), detCase(300),
      luCase('float32', 96, 16),
    ];
  }
  // Issue 12's table (targets are lapis ÷ torch); sgemm 4096/8192 are in suite matmul-gpu.
  return [
    luCase('float32', 1024, 1, 1.5), luCase('float32', 4096, 1, 1.5), luCase('float32', 8192, 1, 1.3),
    solveCase(4096, 64, 1.5),
    trsmCase(4096, 64, 1.5), trsmCase(8192, 64, 1.5),
    luCase('complex64', 2048, 1, 1.5),
    qrCase(1024, 1.5), qrCase(4096, 1.5),
    detCase(4096, 1.5),
    luCase('float32', 128, 1024, 1.0),
  ];
}

registerSuite('linalg-gpu', cases);
