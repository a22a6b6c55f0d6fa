// Tunables of the blocked GPU triangular solve (src/backend/gpu/trsm.ts trsmBlockedGpu): times
// linalg.solveTriangular (lower, non-unit, float32 unless the case says c) for every
// combination of block size nb, update-tile rows bm, diagonal-block staging and path below, per
// case (median of 7 after a warm-up, the GPU synchronised), checks each result's residual
// ratio ‖B − A·X‖₁/(‖A‖₁‖X‖₁·eps) on the host, and prints the fastest per case.
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-trsm-blocked-tune.mjs
//   TRSM_TUNE_CASES=4096x64,8192x64 TRSM_TUNE_NB=32,64,96,128 TRSM_TUNE_BM=32,64,128 node bench/gpu-trsm-blocked-tune.mjs
// Cases: <n>x<nrhs> (float32), c<n>x<nrhs> (complex64). TRSM_TUNE_PATH=fused,gemm (default
// fused for nrhs < 256, both above), TRSM_TUNE_STAGE=auto,0,1 (default auto). Each setting goes
// through the LAPIS_TRSM_* variables the library reads per call (trsmBlockedDefaults), so the
// winner can be checked in any other run (e.g. the linalg-gpu suite) by exporting them.
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor, linalg } = await import(root + 'index.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);

const list = (v, d) => (v ? v.split(',') : d);
const cases = list(process.env.TRSM_TUNE_CASES, ['4096x64', '8192x64', '1024x64', 'c2048x64', '4096x1', '4096x4096']);
const nbs = list(process.env.TRSM_TUNE_NB, ['32', '64', '96', '128']).map(Number);
const bms = list(process.env.TRSM_TUNE_BM, ['32', '64', '128']).map(Number);
const stages = list(process.env.TRSM_TUNE_STAGE, ['auto']);

function rand(seed) {
  let s = seed;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2147483648 - 1; };
}

/** Lower triangle with diagonal ±(1..2) and off-diagonal entries U(−1, 1)/n: well conditioned. */
function lowerTriangle(n, F, seed) {
  const r = rand(seed), a = new Float32Array(n * n * F);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
    const e = (i * n + j) * F;
    if (i === j) a[e] = (1 + Math.abs(r())) * (r() < 0 ? -1 : 1);
    else { a[e] = r() / n; if (F === 2) a[e + 1] = r() / n; }
  }
  return a;
}

/** ‖B − A·X‖₁ / (‖A‖₁‖X‖₁·eps) in float64 on the host, over the first and last columns of X (cheap at n = 8192). */
function ratio(a, b, x, n, k, F) {
  let num = 0, an = 0, xn = 0;
  for (let j = 0; j < n; j++) { let s = 0; for (let i = j; i < n; i++) s += Math.hypot(a[(i * n + j) * F], F === 2 ? a[(i * n + j) * F + 1] : 0); an = Math.max(an, s); }
  for (const c of new Set([0, k - 1])) {
    let rs = 0, xs = 0;
    for (let i = 0; i < n; i++) {
      let re = b[(i * k + c) * F], im = F === 2 ? b[(i * k + c) * F + 1] : 0;
      for (let j = 0; j <= i; j++) {
        const ar = a[(i * n + j) * F], ai = F === 2 ? a[(i * n + j) * F + 1] : 0;
        const xr = x[(j * k + c) * F], xi = F === 2 ? x[(j * k + c) * F + 1] : 0;
        re -= ar * xr - ai * xi; im -= ar * xi + ai * xr;
      }
      rs += Math.hypot(re, im);
      xs += Math.hypot(x[(i * k + c) * F], F === 2 ? x[(i * k + c) * F + 1] : 0);
    }
    num = Math.max(num, rs); xn = Math.max(xn, xs);
  }
  return num / (an * xn * 2 ** -23);
}

for (const c of cases) {
  const m = /^(c?)(\d+)x(\d+)$/.exec(c);
  if (!m) { console.log(`bad case ${c}`); continue; }
  const dtype = m[1] ? 'complex64' : 'float32', F = m[1] ? 2 : 1, n = Number(m[2]), k = Number(m[3]);
  const a = lowerTriangle(n, F, 17);
  const bh = Float32Array.from({ length: n * k * F }, rand(29));
  const A = Tensor.fromStorage(dtype, [n, n], a).to('gpu'), B = Tensor.fromStorage(dtype, [n, k], bh).to('gpu');
  const paths = list(process.env.TRSM_TUNE_PATH, k >= 256 ? ['fused', 'gemm'] : ['fused']);
  const results = [];
  for (const path of paths) for (const nb of nbs) for (const bm of path === 'gemm' ? [bms[0]] : bms) for (const stage of stages) {
    const env = { LAPIS_TRSM_BLOCKED_FROM: '1', LAPIS_TRSM_GEMM_FROM: path === 'gemm' ? '1' : '1000000000', [path === 'gemm' ? 'LAPIS_TRSM_GEMM_NB' : 'LAPIS_TRSM_NB']: String(nb), LAPIS_TRSM_BM: String(bm) };
    if (stage !== 'auto') env.LAPIS_TRSM_STAGE = stage;
    for (const key of Object.keys(process.env)) if (key.startsWith('LAPIS_TRSM_')) delete process.env[key];
    Object.assign(process.env, env);
    const tag = `${c.padEnd(10)} ${path.padEnd(5)} nb=${String(nb).padEnd(4)} bm=${String(bm).padEnd(4)} stage=${stage}`;
    try {
      let X = linalg.solveTriangular(A, B, { upper: false });
      const q = ratio(a, bh, await X.data(), n, k, F);
      X.dispose();
      if (!(q < 30)) throw new Error(`residual ratio ${q}`);
      const ts = [];
      for (let rep = 0; rep < 7; rep++) {
        const t0 = performance.now();
        X = linalg.solveTriangular(A, B, { upper: false });
        await gpuSync();
        ts.push(performance.now() - t0);
        X.dispose();
      }
      ts.sort((x, y) => x - y);
      results.push([ts[3], tag]);
      console.log(`${tag}  ${ts[3].toFixed(3)} ms  (ratio ${q.toFixed(2)})`);
    } catch (e) {
      console.log(`${tag}  error: ${e.message}`);
    }
    for (const key of Object.keys(env)) delete process.env[key];
  }
  results.sort((x, y) => x[0] - y[0]);
  if (results.length) console.log(`BEST ${c}: ${results[0][0].toFixed(3)} ms with ${results[0][1]}`);
  A.dispose(); B.dispose();
}
clearInterval(keep);
process.exit(0);
