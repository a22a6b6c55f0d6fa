// Tunables of the blocked GPU QR (src/backend/gpu/qr.ts): times qr (reduced, with Q) through
// qrGpu(A, 'reduced', { nb, panelWg, splitK }) for every combination below, per case (median
// of 5 after a warm-up, the GPU synchronised), checks |diag(R)| against the first
// combination's, and prints the fastest per case.
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-qr-tune.mjs
//   QR_TUNE_CASES=1024,4096 QR_TUNE_NB=16,32,64 QR_TUNE_WG=256,512,1024 QR_TUNE_SPLITK=1,8,16 node bench/gpu-qr-tune.mjs
// Cases: n (float32 n×n), c<n> (complex64), b<count>x<n> (a batch). wg 0: panelShape's pick.
// The shipped defaults are qrBlockSize / panelShape / 16 chunks (LAPIS_QR_NB / LAPIS_QR_WG /
// LAPIS_QR_SPLITK override them in any run, e.g. the linalg-gpu suite).
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { qrGpu } = await import(root + 'backend/gpu/qr.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);

const list = (v, d) => (v ? v.split(',') : d);
const cases = list(process.env.QR_TUNE_CASES, ['1024', '4096', 'c2048', 'b256x128']);
const nbs = list(process.env.QR_TUNE_NB, ['16', '32', '64']).map(Number);
const wgs = list(process.env.QR_TUNE_WG, ['0', '256', '512']).map(Number);
const splits = list(process.env.QR_TUNE_SPLITK, ['1', '8', '16']).map(Number);

function fill(n, seed) {
  const a = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = s / 2147483648 - 1; }
  return a;
}

for (const c of cases) {
  const dtype = c.startsWith('c') ? 'complex64' : 'float32';
  const bm = /^b(\d+)x(\d+)$/.exec(c);
  const batch = bm ? Number(bm[1]) : 1, n = bm ? Number(bm[2]) : Number(c.replace(/^c/, ''));
  const shape = batch > 1 ? [batch, n, n] : [n, n];
  const F = dtype === 'complex64' ? 2 : 1;
  const A = Tensor.fromStorage(dtype, shape, fill(batch * n * n * F, 17)).to('gpu');
  const results = [];
  let refDiag = null;
  for (const nb of nbs) for (const wg of wgs) for (const splitK of splits) {
    if (batch > 1 && splitK > 1) continue; // split-K is for single matrices
    const params = { nb, splitK, ...(wg ? { panelWg: wg } : {}) };
    const once = () => qrGpu(A, 'reduced', params);
    try {
      let r = once();
      const R = await r.R.data();
      const diag = Array.from({ length: n }, (_, i) => Math.hypot(R[F * (i * n + i)], F === 2 ? R[2 * (i * n + i) + 1] : 0));
      if (!diag.every(Number.isFinite)) throw new Error('non-finite R');
      if (refDiag) {
        const bad = diag.findIndex((d, i) => !(Math.abs(d - refDiag[i]) <= 1e-2 * Math.max(1, refDiag[i])));
        if (bad >= 0) throw new Error(`|R[${bad}, ${bad}]| = ${diag[bad]} differs from ${refDiag[bad]}`);
      } else refDiag = diag;
      r.Q.dispose(); r.R.dispose();
      const ts = [];
      for (let rep = 0; rep < 5; rep++) {
        const t0 = performance.now();
        r = once();
        await gpuSync();
        ts.push(performance.now() - t0);
        r.Q.dispose(); r.R.dispose();
      }
      ts.sort((a, b) => a - b);
      results.push([ts[2], params]);
      console.log(`${c.padEnd(10)} nb=${String(nb).padEnd(3)} wg=${String(wg).padEnd(5)} splitK=${String(splitK).padEnd(3)} ${ts[2].toFixed(3)} ms`);
    } catch (e) {
      console.log(`${c.padEnd(10)} nb=${nb} wg=${wg} splitK=${splitK}  error: ${e.message}`);
    }
  }
  results.sort((a, b) => a[0] - b[0]);
  if (results.length) console.log(`BEST ${c}: ${results[0][0].toFixed(3)} ms with ${JSON.stringify(results[0][1])}`);
  A.dispose();
}
clearInterval(keep);
process.exit(0);
