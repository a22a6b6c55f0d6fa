// Tunables of the blocked GPU QR (src/backend/gpu/qr.ts): times qrGpu(A, mode, params) with
// explicit params (nb, panel kernel, regRows, panelWg, splitK) per case (median of 5 after a warm-up,
// the GPU synchronised), checks |diag(R)| against the case's first combination, counts the
// dispatches of one call and prints the fastest per case.
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-qr-tune.mjs
//   QR_TUNE_CASES=1024,4096 QR_TUNE_NB=8,16,32 QR_TUNE_PANEL=registers,global QR_TUNE_REGROWS=64,128 QR_TUNE_WG=0,512 QR_TUNE_SPLITK=16 node bench/gpu-qr-tune.mjs
// Cases: n (float32 n×n, reduced with Q), <n>r (mode 'r': R only, no orgqr), c<n> (complex64),
// b<count>x<n> (a batch). wg 0: panelShape's pick per panel. The defaults (qrBlockSize,
// panelShape, panel 'registers' where it fits, splitK 16) are what params = {} gives.
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { qrGpu } = await import(root + 'backend/gpu/qr.js');
const { gpuSync, dispatchCount } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);

const list = (v, d) => (v ? v.split(',') : d);
const cases = list(process.env.QR_TUNE_CASES, ['1024', '4096', '4096r', 'c2048', 'b256x128']);
const nbs = list(process.env.QR_TUNE_NB, ['8', '16', '32']).map(Number);
const panels = list(process.env.QR_TUNE_PANEL, ['registers', 'global']);
const wgs = list(process.env.QR_TUNE_WG, ['0']).map(Number);
const splits = list(process.env.QR_TUNE_SPLITK, ['16']).map(Number);
// regRows: the register panel's rows-per-thread limit (64 default; 128 lets nb = 32 keep a 4096-row panel in registers, spilling)
const regRowsList = list(process.env.QR_TUNE_REGROWS, ['64', '128']).map(Number);
const budgetMs = 1000 * Number(process.env.QR_TUNE_BUDGET_S || 75);
const t00 = performance.now();

function fill(n, seed) {
  const a = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = s / 2147483648 - 1; }
  return a;
}

for (const c of cases) {
  const dtype = c.startsWith('c') ? 'complex64' : 'float32';
  const mode = c.endsWith('r') ? 'r' : 'reduced';
  const bm = /^b(\d+)x(\d+)$/.exec(c);
  const batch = bm ? Number(bm[1]) : 1, n = bm ? Number(bm[2]) : Number(c.replace(/^c/, '').replace(/r$/, ''));
  const shape = batch > 1 ? [batch, n, n] : [n, n];
  const F = dtype === 'complex64' ? 2 : 1;
  const A = Tensor.fromStorage(dtype, shape, fill(batch * n * n * F, 17)).to('gpu');
  const results = [];
  let refDiag = null;
  for (const panel of panels) for (const nb of nbs) for (const wg of wgs) for (const splitK of splits) for (const regRows of regRowsList) {
    // the storage panel is the old kernel: one width is enough to compare against
    if (panel === 'global' && (nb !== 16 || regRows !== regRowsList[0])) continue;
    // a larger register limit only matters where the panel is past the default one (nb ≥ 32 at 4096 rows)
    if (panel === 'registers' && regRows !== regRowsList[0] && nb < 32) continue;
    if (batch > 1 && splitK !== splits[0]) continue; // split-K is for single matrices
    if (performance.now() - t00 > budgetMs) { console.log(`${c} nb=${nb} ${panel}: skipped (time budget)`); continue; }
    const params = { nb, panel, splitK, regRows, ...(wg ? { panelWg: wg } : {}) };
    const dispose = (r) => { r.Q?.dispose(); r.R.dispose(); };
    try {
      const d0 = dispatchCount();
      let r = qrGpu(A, mode, params);
      const disp = dispatchCount() - d0;
      const R = await r.R.data();
      const diag = Array.from({ length: n }, (_, i) => Math.hypot(R[F * (i * n + i)], F === 2 ? R[2 * (i * n + i) + 1] : 0));
      if (!diag.every(Number.isFinite)) throw new Error('non-finite R');
      if (refDiag) {
        const bad = diag.findIndex((d, i) => !(Math.abs(d - refDiag[i]) <= 1e-2 * Math.max(1, refDiag[i])));
        if (bad >= 0) throw new Error(`|R[${bad}, ${bad}]| = ${diag[bad]} differs from ${refDiag[bad]}`);
      } else refDiag = diag;
      dispose(r);
      const ts = [], hs = [];
      for (let rep = 0; rep < 5; rep++) {
        await gpuSync();
        const t0 = performance.now();
        r = qrGpu(A, mode, params);
        hs.push(performance.now() - t0);
        await gpuSync();
        ts.push(performance.now() - t0);
        dispose(r);
      }
      ts.sort((a, b) => a - b);
      hs.sort((a, b) => a - b);
      results.push([ts[2], params]);
      console.log(`${c.padEnd(9)} nb=${String(nb).padEnd(3)} ${panel.padEnd(9)} regRows=${String(regRows).padEnd(3)} wg=${String(wg).padEnd(5)} splitK=${String(splitK).padEnd(3)} ${ts[2].toFixed(3)} ms  (host recording ${hs[2].toFixed(2)} ms, ${disp} dispatches)`);
    } catch (e) {
      console.log(`${c.padEnd(9)} nb=${nb} ${panel} wg=${wg} splitK=${splitK}  error: ${e.message}`);
    }
  }
  results.sort((a, b) => a[0] - b[0]);
  if (results.length) console.log(`BEST ${c}: ${results[0][0].toFixed(3)} ms with ${JSON.stringify(results[0][1])}`);
  A.dispose();
}
console.log(`total ${((performance.now() - t00) / 1000).toFixed(1)} s`);
clearInterval(keep);
process.exit(0);
