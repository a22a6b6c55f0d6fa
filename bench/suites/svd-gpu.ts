// The SVD family on the GPU (issue 14): svd with vectors, svdvals, pinv, lstsq (the QR
// driver 'gels') and batches of small SVDs, lapis's WebGPU kernels against torch.linalg on
// CUDA in the same run (float32 unless said; TF32 off in bench/python_peer.py). Suite
// `svd-gpu`. Each lapis result is the one of its last timed call, checked on the host in
// float64 after the timing: LAPACK's test ratios, reported as the accuracy columns and
// failing the case (its time dropped) past RATIO, so a fast wrong kernel cannot post a
// figure. A case whose op throws reports "error: …" and the suite goes on. On a software
// adapter (lavapipe) the sizes shrink: the paths run and check, speed is not compared.
import { isGpuOff, registerSuite, type BenchCase, type TimingOptions } from '../harness.js';
import { uniformFloats, gpuCase } from '../gpu-case.js';
import { gpu, linalg, Tensor } from '../../src/index.js';

const EPS32 = 1.1920928955078125e-7;
/** The limit of the test ratios (the tests: LAPACK's SVD ratios < 50). */
const RATIO = 50;

type D = 'float32' | 'complex64';
const w = (dtype: D) => (dtype === 'complex64' ? 2 : 1);

const size = (shape: number[]) => shape.reduce((a, b) => a * b, 1);

/** torch setup: a seeded uniform(-1, 1) tensor `name` of `shape` on the GPU. */
function torchUniform(name: string, dtype: D, shape: number[], seed: number): string {
  const dims = shape.join(', ');
  const u = (extra: string) => `(torch.rand(${dims}${extra}, device=dev, generator=g) * 2 - 1)`;
  return `g = torch.Generator(device=dev).manual_seed(${seed})\n` +
    (dtype === 'complex64' ? `${name} = torch.view_as_complex(${u(', 2')}.contiguous())` : `${name} = ${u('')}`);
}

function fail(what: string): never {
  throw new Error(`svd-gpu: ${what}`);
}

/** Columns to check of n: every one up to 256, else eight spread over the matrix (block edges included). */
function sampleColumns(n: number): number[] {
  if (n <= 256) return Array.from({ length: n }, (_, j) => j);
  return [...new Set([0, 1, n >> 2, (n >> 1) - 1, n >> 1, (3 * n) >> 2, n - 2, n - 1])];
}

/** Matrices of a batch to check: a spread of up to `count`, the first and the last included. */
function sampleMatrices(batch: number, count: number): number[] {
  if (batch <= count) return Array.from({ length: batch }, (_, b) => b);
  return [...new Set(Array.from({ length: count }, (_, q) => Math.round((q * (batch - 1)) / (count - 1))))];
}

// ---------------------------------------------------------------------------------------
// Host-side checks (float64). A matrix is row-major at an offset of a Float32Array; complex
// entries interleave (re, im).

interface Mat {
  d: Float32Array;
  off: number;
  rows: number;
  cols: number;
  c: number; // 1 real, 2 complex
}

const re = (M: Mat, i: number, j: number) => M.d[M.off + (i * M.cols + j) * M.c];
const im = (M: Mat, i: number, j: number) => (M.c === 2 ? M.d[M.off + (i * M.cols + j) * M.c + 1] : 0);

/** ‖M‖₁: the largest column sum of moduli. */
function norm1(M: Mat): number {
  const sums = new Float64Array(M.cols);
  const { d, off, cols } = M;
  if (M.c === 1) for (let i = 0; i < M.rows; i++) for (let j = 0, q = off + i * cols; j < cols; j++, q++) sums[j] += Math.abs(d[q]);
  else for (let i = 0; i < M.rows; i++) for (let j = 0; j < cols; j++) sums[j] += Math.hypot(re(M, i, j), im(M, i, j));
  let mx = 0;
  for (const s of sums) mx = Math.max(mx, s);
  return mx;
}

/** (M·x) for a complex vector x given as (xr, xi); `conjT`: Mᴴ·x. */
function matVec(M: Mat, xr: Float64Array, xi: Float64Array, conjT = false): [Float64Array, Float64Array] {
  const n = conjT ? M.cols : M.rows;
  const yr = new Float64Array(n), yi = new Float64Array(n);
  if (M.c === 1) {
    // the real case on plain indices: 4096² products per column of the big checks
    const { d, off, cols } = M;
    for (let i = 0; i < M.rows; i++) {
      const q0 = off + i * cols;
      if (conjT) {
        const xi0 = xr[i];
        for (let j = 0; j < cols; j++) yr[j] += d[q0 + j] * xi0;
      } else {
        let acc = 0;
        for (let j = 0; j < cols; j++) acc += d[q0 + j] * xr[j];
        yr[i] = acc;
      }
    }
    // a real matrix times the imaginary part (complex x: never in the real checks, kept exact)
    if (xi.some((v) => v !== 0)) {
      for (let i = 0; i < M.rows; i++) for (let j = 0; j < cols; j++) {
        if (conjT) yi[j] += d[off + i * cols + j] * xi[i];
        else yi[i] += d[off + i * cols + j] * xi[j];
      }
    }
    return [yr, yi];
  }
  for (let i = 0; i < M.rows; i++) for (let j = 0; j < M.cols; j++) {
    const ar = re(M, i, j), ai = im(M, i, j);
    if (conjT) {
      yr[j] += ar * xr[i] + ai * xi[i];
      yi[j] += ar * xi[i] - ai * xr[i];
    } else {
      yr[i] += ar * xr[j] - ai * xi[j];
      yi[i] += ar * xi[j] + ai * xr[j];
    }
  }
  return [yr, yi];
}

function column(M: Mat, j: number): [Float64Array, Float64Array] {
  const r = new Float64Array(M.rows), i2 = new Float64Array(M.rows);
  for (let i = 0; i < M.rows; i++) { r[i] = re(M, i, j); i2[i] = im(M, i, j); }
  return [r, i2];
}

const sum1 = (r: Float64Array, i: Float64Array) => { let s = 0; for (let q = 0; q < r.length; q++) s += Math.hypot(r[q], i[q]); return s; };
const ratioOf = (num: number, den: number) => (den > 0 ? num / den : num > 0 ? Infinity : 0);

/** S of every matrix finite, ≥ 0 and descending. */
function checkS(who: string, S: Float32Array, batch: number, k: number): void {
  for (let b = 0; b < batch; b++) for (let p = 0; p < k; p++) {
    const s = S[b * k + p];
    if (!(Number.isFinite(s) && s >= 0)) fail(`${who}: matrix ${b}: S[${p}] = ${s}`);
    if (p > 0 && s > S[b * k + p - 1]) fail(`${who}: matrix ${b}: S not descending at ${p} (${S[b * k + p - 1]} then ${s})`);
  }
}

/**
 * LAPACK's SVD ratios of matrix b: ‖(A − U·S·Vh)[:, j]‖₁/(‖A‖₁·max(m, n)·eps) over the
 * sampled columns j, and |(UᴴU − I)ᵢⱼ|/(m·eps), |(Vh·Vhᴴ − I)ᵢⱼ|/(n·eps) over the sampled
 * pairs. U is m×uc, Vh vr×n (uc, vr: k or the full m, n).
 */
function svdRatios(dtype: D, A: Float32Array, U: Float32Array, S: Float32Array, Vh: Float32Array, m: number, n: number, uc: number, vr: number, b: number): { resid: number; orth: number } {
  const c = w(dtype), k = Math.min(m, n);
  const a: Mat = { d: A, off: b * m * n * c, rows: m, cols: n, c };
  const u: Mat = { d: U, off: b * m * uc * c, rows: m, cols: uc, c };
  const v: Mat = { d: Vh, off: b * vr * n * c, rows: vr, cols: n, c };
  const s = (p: number) => S[b * k + p];
  const anorm = norm1(a);
  let resid = 0;
  for (const j of sampleColumns(n)) {
    // x = S·Vh[:, j] (k), then U[:, :k]·x
    const xr = new Float64Array(uc), xi = new Float64Array(uc);
    for (let p = 0; p < k; p++) { xr[p] = s(p) * re(v, p, j); xi[p] = s(p) * im(v, p, j); }
    const [yr, yi] = matVec(u, xr, xi);
    const [ar, ai] = column(a, j);
    for (let i = 0; i < m; i++) { yr[i] -= ar[i]; yi[i] -= ai[i]; }
    resid = Math.max(resid, ratioOf(sum1(yr, yi), anorm * Math.max(m, n) * EPS32));
  }
  let orth = 0;
  const uCols = sampleColumns(uc);
  for (const i of uCols) for (const j of uCols) {
    let sr = i === j ? -1 : 0, si = 0;
    for (let r = 0; r < m; r++) {
      const pr = re(u, r, i), pi = im(u, r, i), qr = re(u, r, j), qi = im(u, r, j);
      sr += pr * qr + pi * qi;
      si += pr * qi - pi * qr;
    }
    orth = Math.max(orth, Math.hypot(sr, si) / (m * EPS32));
  }
  const vRows = sampleColumns(vr);
  for (const i of vRows) for (const j of vRows) {
    let sr = i === j ? -1 : 0, si = 0;
    for (let q = 0; q < n; q++) {
      const pr = re(v, i, q), pi = im(v, i, q), qr = re(v, j, q), qi = im(v, j, q);
      sr += pr * qr + pi * qi;
      si += pi * qr - pr * qi;
    }
    orth = Math.max(orth, Math.hypot(sr, si) / (n * EPS32));
  }
  return { resid, orth };
}

function limit(who: string, what: string, r: number): void {
  if (!(r < RATIO)) fail(`${who}: ${what} ratio ${r.toPrecision(3)} (limit ${RATIO})`);
}

// ---------------------------------------------------------------------------------------
// Cases

const f32 = async (t: Tensor): Promise<Float32Array> => (await t.data()) as Float32Array;


/** svd with vectors of a (batch of) m×n matrices, fullMatrices true (torch's default). */
function svdCase(dtype: D, m: number, n: number, batch: number, timing: Partial<TimingOptions>, target?: number): BenchCase {
  let A: Float32Array | undefined, Ag: Tensor | undefined;
  const shape = batch > 1 ? [batch, m, n] : [m, n];
  const seed = 101 + m + n + batch;
  const k = Math.min(m, n);
  const label = batch > 1 ? `batch of ${batch.toLocaleString('en')} × ${m}×${n}` : `${m}×${n}`;
  const who = `svd ${label}`;
  return gpuCase({
    name: `gpu svd ${dtype === 'complex64' ? 'complex64 ' : ''}${label} with vectors, full_matrices`,
    target,
    timing,
    // full_matrices=True is torch's default and lapis's; for square A it is the reduced SVD
    torch: { setup: torchUniform('a', dtype, shape, seed), stmt: 'torch.linalg.svd(a, full_matrices=True)' },
    setup: () => {
      A = uniformFloats(size(shape) * w(dtype), seed);
      Ag = Tensor.fromStorage(dtype, shape, A).to('gpu');
    },
    run: () => {
      const r = linalg.svd(Ag!, { fullMatrices: true });
      return [r.U, r.S, r.Vh];
    },
    check: async ([Ut, St, Vt]) => {
      const U = await f32(Ut), S = await f32(St), Vh = await f32(Vt);
      checkS(who, S, batch, k);
      let resid = 0, orth = 0;
      for (const b of sampleMatrices(batch, batch > 1 ? 64 : 1)) {
        const r = svdRatios(dtype, A!, U, S, Vh, m, n, m, n, b);
        resid = Math.max(resid, r.resid);
        orth = Math.max(orth, r.orth);
      }
      limit(who, '‖A − U·S·Vh‖', resid);
      limit(who, 'orthogonality', orth);
      return { 'backward err': resid, orthogonality: orth };
    },
    teardown: () => { Ag?.dispose(); A = Ag = undefined; },
  });
}

/**
 * svdvals of an n×n matrix. Checked against the float64 singular values of the CPU backend
 * (max |σᵢ − σᵢʳᵉᶠ|/(n·eps·σ₁)) up to n = 1024; past that (the CPU reference would take
 * minutes) through Σσᵢ² = ‖A‖²_F: |Σσᵢ² − ‖A‖²_F|/(n·eps·‖A‖²_F).
 */
function svdvalsCase(n: number, timing: Partial<TimingOptions>, target?: number): BenchCase {
  let A: Float32Array | undefined, Ag: Tensor | undefined;
  const seed = 201 + n;
  const who = `svdvals ${n}×${n}`;
  return gpuCase({
    name: `gpu svdvals ${n}×${n}`,
    target,
    timing,
    torch: { setup: torchUniform('a', 'float32', [n, n], seed), stmt: 'torch.linalg.svdvals(a)' },
    setup: () => {
      A = uniformFloats(n * n, seed);
      Ag = Tensor.fromStorage('float32', [n, n], A).to('gpu');
    },
    run: () => [linalg.svdvals(Ag!)],
    check: async ([St]) => {
      const S = await f32(St);
      checkS(who, S, 1, n);
      if (n <= 1024) {
        const ref = linalg.svdvals(Tensor.fromStorage('float64', [n, n], Float64Array.from(A!))).dataSync() as Float64Array;
        let err = 0;
        for (let p = 0; p < n; p++) err = Math.max(err, Math.abs(S[p] - ref[p]));
        const r = ratioOf(err, n * EPS32 * ref[0]);
        limit(who, 'max |σ − σ(float64)|', r);
        return { 'σ err': r };
      }
      let ss = 0, ff = 0;
      for (let p = 0; p < n; p++) ss += S[p] * S[p];
      for (let q = 0; q < n * n; q++) ff += A![q] * A![q];
      const r = ratioOf(Math.abs(ss - ff), n * EPS32 * ff);
      limit(who, '|Σσ² − ‖A‖²_F|', r);
      return { 'σ err': r };
    },
    teardown: () => { Ag?.dispose(); A = Ag = undefined; },
  });
}

/**
 * pinv of an m×n matrix (m ≥ n, full rank): the Penrose conditions over sampled columns,
 * ‖(A·X·A − A)[:, j]‖₁/(‖A‖₁·max(m, n)·eps) and ‖(X·A·X − X)[:, j]‖₁/(‖X‖₁·max(m, n)·eps).
 */
function pinvCase(m: number, n: number, timing: Partial<TimingOptions>, target?: number): BenchCase {
  let A: Float32Array | undefined, Ag: Tensor | undefined;
  const seed = 301 + m + n;
  const who = `pinv ${m}×${n}`;
  return gpuCase({
    name: `gpu pinv ${m}×${n}`,
    target,
    timing,
    torch: { setup: torchUniform('a', 'float32', [m, n], seed), stmt: 'torch.linalg.pinv(a)' },
    setup: () => {
      A = uniformFloats(m * n, seed);
      Ag = Tensor.fromStorage('float32', [m, n], A).to('gpu');
    },
    run: () => [linalg.pinv(Ag!)],
    check: async ([Xt]) => {
      const X = await f32(Xt);
      const a: Mat = { d: A!, off: 0, rows: m, cols: n, c: 1 };
      const x: Mat = { d: X, off: 0, rows: n, cols: m, c: 1 };
      for (let q = 0; q < X.length; q++) if (!Number.isFinite(X[q])) fail(`${who}: X[${q}] = ${X[q]}`);
      const an = norm1(a), xn = norm1(x);
      let r1 = 0, r2 = 0;
      for (const j of sampleColumns(n)) {
        const [ar, ai] = column(a, j);
        const [yr, yi] = matVec(x, ar, ai);
        const [zr] = matVec(a, yr, yi);
        for (let i = 0; i < m; i++) zr[i] -= ar[i];
        r1 = Math.max(r1, ratioOf(sum1(zr, new Float64Array(m)), an * Math.max(m, n) * EPS32));
      }
      for (const j of sampleColumns(m)) {
        const [xr, xi] = column(x, j);
        const [yr, yi] = matVec(a, xr, xi);
        const [zr] = matVec(x, yr, yi);
        for (let i = 0; i < n; i++) zr[i] -= xr[i];
        r2 = Math.max(r2, ratioOf(sum1(zr, new Float64Array(n)), xn * Math.max(m, n) * EPS32));
      }
      limit(who, '‖A·X·A − A‖', r1);
      limit(who, '‖X·A·X − X‖', r2);
      return { 'backward err': Math.max(r1, r2) };
    },
    teardown: () => { Ag?.dispose(); A = Ag = undefined; },
  });
}

/**
 * lstsq of a full-rank m×n A (m > n) and k right-hand sides through the QR driver 'gels'
 * (torch on CUDA: its only driver, gels). Checked by the normal equations over sampled
 * columns (LAPACK xQRT17): ‖Aᵀ·r_j‖₁/(‖A‖₁·‖r_j‖₁·max(m, n, k)·eps), r = B − A·X.
 */
function lstsqCase(m: number, n: number, k: number, timing: Partial<TimingOptions>, target?: number): BenchCase {
  let A: Float32Array | undefined, B: Float32Array | undefined, Ag: Tensor | undefined, Bg: Tensor | undefined;
  const seed = 401 + m + n;
  const who = `lstsq ${m}×${n}`;
  let ran: string | undefined;
  return gpuCase({
    name: `gpu lstsq ${m}×${n}, ${k} RHS, driver gels`,
    target,
    timing,
    torch: {
      setup: torchUniform('a', 'float32', [m, n], seed) + '\n' + `b = torch.rand(${m}, ${k}, device=dev, generator=g) * 2 - 1`,
      stmt: "torch.linalg.lstsq(a, b, driver='gels')",
    },
    setup: () => {
      A = uniformFloats(m * n, seed); B = uniformFloats(m * k, seed + 1);
      Ag = Tensor.fromStorage('float32', [m, n], A).to('gpu');
      Bg = Tensor.fromStorage('float32', [m, k], B).to('gpu');
    },
    run: () => {
      const r = linalg.lstsq(Ag!, Bg!, { driver: 'gels' });
      ran = r.driver;
      return [r.solution, r.residuals, r.rank, r.singularValues];
    },
    check: async ([Xt]) => {
      if (ran !== 'gels') fail(`${who}: driver '${ran}' ran, not 'gels'`);
      const X = await f32(Xt);
      const a: Mat = { d: A!, off: 0, rows: m, cols: n, c: 1 };
      const x: Mat = { d: X, off: 0, rows: n, cols: k, c: 1 };
      const b: Mat = { d: B!, off: 0, rows: m, cols: k, c: 1 };
      const an = norm1(a);
      let ratio = 0;
      for (const j of sampleColumns(k)) {
        const [xr, xi] = column(x, j);
        for (let i = 0; i < n; i++) if (!Number.isFinite(xr[i])) fail(`${who}: X[${i}, ${j}] = ${xr[i]}`);
        const [yr] = matVec(a, xr, xi);
        const [br] = column(b, j);
        for (let i = 0; i < m; i++) yr[i] = br[i] - yr[i];
        const zero = new Float64Array(m);
        const [gr] = matVec(a, yr, zero, true);
        ratio = Math.max(ratio, ratioOf(sum1(gr, new Float64Array(n)), an * sum1(yr, zero) * Math.max(m, n, k) * EPS32));
      }
      limit(who, 'normal-equations', ratio);
      return { 'backward err': ratio };
    },
    teardown: () => { Ag?.dispose(); Bg?.dispose(); A = B = Ag = Bg = undefined; },
  });
}

const ABOUT =
  'Accuracy columns (svd-gpu): LAPACK\'s test ratios of the lapis GPU result of the last timed call, computed in ' +
  'float64 on the host after the timing (a case fails past 50). *backward err*: svd ‖(A − U·S·Vh)[:, j]‖₁/(‖A‖₁·max(m, n)·eps) ' +
  'over sampled columns (all up to 256, else 8; 64 matrices of a batch); pinv the Penrose conditions A·X·A = A and ' +
  'X·A·X = X on the same scale; lstsq the normal equations ‖Aᵀ·r‖₁/(‖A‖₁·‖r‖₁·max(m, n, k)·eps) (xQRT17). ' +
  '*orthogonality*: |UᴴU − I| over m·eps and |Vh·Vhᴴ − I| over n·eps on sampled pairs. *σ err*: max |σᵢ − σᵢ(float64 CPU)| ' +
  'over n·eps·σ₁ up to n = 1024, |Σσᵢ² − ‖A‖²_F| over n·eps·‖A‖²_F beyond. eps = 2⁻²³; uniform(−1, 1) inputs; ' +
  'torch.linalg.svd with full_matrices=True (its default and lapis\'s; square inputs: the reduced SVD), lstsq driver gels ' +
  "(torch's only CUDA driver) against lapis's driver 'gels'.";

async function cases(): Promise<BenchCase[]> {
  const ok = !isGpuOff() && (await gpu.available());
  const soft = !ok || gpu.info()?.isSoftware === true;
  if (soft) {
    // A CPU-emulated adapter (lavapipe): small sizes that still take the blocked Jacobi
    // (past the one-workgroup kernel), the QR driver and the batched kernel, to show that
    // every case runs and checks; speed is not compared. Lavapipe compiles each kernel
    // variant in seconds: a generous first-call budget.
    const t = { budgetSeconds: 60 };
    return [
      svdCase('float32', 96, 96, 1, t), svdCase('float32', 160, 160, 1, t),
      svdvalsCase(160, t), pinvCase(192, 64, t), lstsqCase(192, 64, 8, t),
      svdCase('float32', 32, 32, 256, t), svdCase('float32', 8, 8, 2000, t),
      svdCase('complex64', 64, 64, 1, t),
    ];
  }
  // Issue 14's table (targets are lapis ÷ torch). A 4096 SVD takes about a second per
  // call on each side: two or three timed calls, no warm-up period; every case has a time
  // budget so the suite keeps within its ~4 minute step.
  const big: Partial<TimingOptions> = { minSamples: 2, maxSamples: 3, warmSeconds: 0, budgetSeconds: 20 };
  const t: Partial<TimingOptions> = { budgetSeconds: 12 };
  return [
    svdCase('float32', 1024, 1024, 1, t, 1.0),
    svdCase('float32', 4096, 4096, 1, big, 1.0),
    svdvalsCase(4096, big, 1.0),
    pinvCase(4096, 1024, t, 1.0),
    lstsqCase(4096, 1024, 64, t, 1.5),
    svdCase('float32', 32, 32, 16_384, t, 0.5),
    svdCase('float32', 8, 8, 100_000, t),
    svdCase('float32', 256, 256, 1, t),
    svdCase('complex64', 512, 512, 1, t),
  ];
}

registerSuite('svd-gpu', cases, ABOUT);
