// Tunables of the blocked GPU triangular solve (src/backend/gpu/trsm.ts trsmBlockedGpu): times
// the lower, non-unit float32 (c: complex64) solve X = L⁻¹·B through trsmBlockedGpu with
// explicit parameters (path, nb, bc; bm for the 'fused' path) for a few combinations per case,
// each call as the public solveTriangular records it (copy B into X, then the solve in X),
// median and minimum of 9 after a check and two warm-ups, the GPU synchronised per call (so a
// call's time is host recording + GPU); prints the dispatches per call, the host recording
// time, the residual ratio ‖B − L·X‖₁/(‖L‖₁‖X‖₁·eps) (float64 on the host, first and last
// columns), and the fastest combination per case.
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-trsm-blocked-tune.mjs
//   TRSM_TUNE_CASES=4096x64,8192x64 node bench/gpu-trsm-blocked-tune.mjs
//   TRSM_TUNE_CASES=4096x64 TRSM_TUNE_NB=128,256 TRSM_TUNE_BC=8,16 node bench/gpu-trsm-blocked-tune.mjs   (look-ahead grid)
// Cases: <n>x<nrhs> (float32), c<n>x<nrhs> (complex64); default 4096x64, 8192x64, c2048x64, 4096x4096.
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu } = await import(root + 'index.js');
const { gpuSync, commandEncoder, recordedCommand, dispatchCount } = await import(root + 'backend/gpu/queue.js');
const { trsmBlockedGpu, trsmStepShape, TRSM_BLOCKED_DEFAULT } = await import(root + 'backend/gpu/trsm.js');
const { gpuLimits } = await import(root + 'backend/gpu/device.js');
const { bufferOf } = await import(root + 'backend/gpu/pool.js');
const { emptyGpu } = await import(root + 'backend/gpu/tensor-ops.js');
const info = await gpu.init();
console.log(info.description);

const list = (v, d) => (v ? v.split(',') : d);
const cases = list(process.env.TRSM_TUNE_CASES, ['4096x64', '8192x64', 'c2048x64', '4096x4096']);

/** The combinations that matter per case (the fused path's H200 best as the baseline). */
function combos(n, k) {
  if (process.env.TRSM_TUNE_NB || process.env.TRSM_TUNE_BC) {
    const out = [];
    for (const nb of list(process.env.TRSM_TUNE_NB, ['128']).map(Number)) {
      for (const bc of list(process.env.TRSM_TUNE_BC, ['8']).map(Number)) out.push({ path: k >= 256 ? 'gemm' : 'lookahead', nb, bc });
    }
    return out;
  }
  if (k >= 256) {
    return [{ path: 'gemm', nb: 128, bc: 32 }, { path: 'gemm', nb: 256, bc: 32 }, { path: 'gemm', nb: 128, bc: 16 }, { path: 'lookahead', nb: 256, bc: 32 }];
  }
  const out = [{ path: 'fused', nb: 32, bm: 64 }];
  for (const nb of n >= 8192 ? [128, 256] : [64, 128, 256]) for (const bc of [8, 16]) out.push({ path: 'lookahead', nb, bc });
  if (n < 8192) out.push({ path: 'lookahead', nb: 128, bc: 8, sb: 32 });
  return out;
}

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

/** ‖L‖₁ (float64). */
function norm1(a, n, F) {
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) s[j] += Math.hypot(a[(i * n + j) * F], F === 2 ? a[(i * n + j) * F + 1] : 0);
  return Math.max(...s);
}

/** ‖B − L·X‖₁ / (‖L‖₁‖X‖₁·eps) over the first and last columns of X. */
function ratio(a, an, b, x, n, k, F) {
  let num = 0, xn = 0;
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

const { Tensor } = await import(root + 'index.js');
for (const c of cases) {
  const m = /^(c?)(\d+)x(\d+)$/.exec(c);
  if (!m) { console.log(`bad case ${c}`); continue; }
  const dtype = m[1] ? 'complex64' : 'float32', F = m[1] ? 2 : 1, n = Number(m[2]), k = Number(m[3]);
  const a = lowerTriangle(n, F, 17);
  const an = norm1(a, n, F);
  const bh = Float32Array.from({ length: n * k * F }, rand(29));
  // one A and B for every combination (no upload inside the timings); X is a fresh buffer per call
  const A = Tensor.fromStorage(dtype, [n, n], a).to('gpu'), B = Tensor.fromStorage(dtype, [n, k], bh).to('gpu');
  const bytes = n * k * F * 4;
  const call = (X, p) => {
    commandEncoder('tune').copyBufferToBuffer(bufferOf(B.gpuStorage()), 0, bufferOf(X), 0, bytes);
    recordedCommand();
    trsmBlockedGpu('tune', {
      dtype, n, nrhs: k, batch: 1, upper: false, unit: false, op: 'N', ...p,
      A: { s: A.gpuStorage(), offset: 0, ld: n, stride: 0 }, B: { s: X, offset: 0, ld: k, stride: n * k },
    });
  };
  const results = [];
  const seen = new Set();
  for (const p of combos(n, k)) {
    // the step kernel's shape as compiled (narrower column tiles, shallower chunks where workgroup memory is short)
    const sh = p.path === 'fused' ? null
      : trsmStepShape(dtype, p.nb, p.bc, p.sb ?? TRSM_BLOCKED_DEFAULT.sb, k, gpuLimits('tune').maxComputeWorkgroupStorageSize);
    const key = JSON.stringify([p.path, p.nb, sh ?? p.bm]);
    if (seen.has(key)) continue; // a request the device's workgroup memory narrowed to one already timed
    seen.add(key);
    const tag = `${c.padEnd(10)} ${p.path.padEnd(9)} nb=${String(p.nb).padEnd(4)} ${sh ? `bc=${sh.bc} sb=${sh.sb} kc=${sh.kc}` : `bm=${p.bm}`}`.padEnd(46);
    const Xt = emptyGpu(dtype, [n, k], 'tune');
    const X = Xt.gpuStorage();
    try {
      call(X, p);
      const out = await Xt.data();
      const q = ratio(a, an, bh, out, n, k, F);
      if (!(q < 30)) throw new Error(`residual ratio ${q}`);
      for (let w = 0; w < 2; w++) { call(X, p); await gpuSync(); }
      const ts = [], hs = [];
      let disp = 0;
      for (let rep = 0; rep < 9; rep++) {
        const d0 = dispatchCount();
        const t0 = performance.now();
        call(X, p);
        hs.push(performance.now() - t0);
        disp = dispatchCount() - d0;
        await gpuSync();
        ts.push(performance.now() - t0);
      }
      ts.sort((x, y) => x - y); hs.sort((x, y) => x - y);
      results.push([ts[4], tag]);
      console.log(`${tag} ${ts[4].toFixed(3)} ms (min ${ts[0].toFixed(3)}, host ${hs[4].toFixed(3)})  ${disp} dispatches  ratio ${q.toFixed(2)}`);
    } catch (e) {
      console.log(`${tag} error: ${e.message}`);
    }
    Xt.dispose();
  }
  results.sort((x, y) => x[0] - y[0]);
  if (results.length) console.log(`BEST ${c}: ${results[0][0].toFixed(3)} ms with ${results[0][1].trim()}`);
  A.dispose(); B.dispose();
}
clearInterval(keep);
process.exit(0);
