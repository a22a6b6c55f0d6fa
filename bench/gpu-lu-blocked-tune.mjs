// Block sizes of the blocked GPU LU (src/backend/gpu/lu_blocked.ts): times luFactor through
// luFactorGpu(A, kernel, { nb, leaf, wg, leafRegs }) for every combination below, per case
// (median of 5 after a warm-up, the GPU synchronised), and prints the fastest per case.
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-lu-blocked-tune.mjs
//   LU_TUNE_CASES=4096,c2048 LU_TUNE_NB=64,128,256 LU_TUNE_LEAF=8,16,32 LU_TUNE_WG=0,256,512,1024 node bench/gpu-lu-blocked-tune.mjs
// Cases: n (float32 n×n), c<n> (complex64), b<count>x<n> (a batch). wg 0: leafPlan's pick;
// LU_TUNE_REGS=0 also times the leaf kept in A. The shipped defaults are luBlockDefaults
// (LAPIS_LU_NB / LAPIS_LU_LEAF / LAPIS_LU_WG override them in any run, e.g. the linalg-gpu suite).
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { luFactorGpu, LU_KERNEL_DEFAULT } = await import(root + 'backend/gpu/lu.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);

const list = (v, d) => (v ? v.split(',') : d);
const cases = list(process.env.LU_TUNE_CASES, ['1024', '4096', '8192', 'c2048', 'b1024x128']);
const nbs = list(process.env.LU_TUNE_NB, ['64', '128', '256']).map(Number);
const leaves = list(process.env.LU_TUNE_LEAF, ['8', '16', '32']).map(Number);
const wgs = list(process.env.LU_TUNE_WG, ['0', '256', '512', '1024']).map(Number);
const regs = process.env.LU_TUNE_REGS === '0' ? [true, false] : [true];

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
  const A = Tensor.fromStorage(dtype, shape, fill(batch * n * n * (dtype === 'complex64' ? 2 : 1), 17)).to('gpu');
  const results = [];
  for (const nb of nbs) for (const leaf of leaves) for (const wg of wgs) for (const leafRegs of regs) {
    if (leaf > nb) continue;
    const blocks = { nb, leaf, wg, leafRegs };
    const once = () => { const r = luFactorGpu(A, LU_KERNEL_DEFAULT, blocks); return r; };
    try {
      let r = once();
      const inf = await r.info.data();
      if (inf.some((v) => v !== 0)) throw new Error(`info ${inf.find((v) => v !== 0)}`);
      r.LU.dispose(); r.pivots.dispose(); r.info.dispose();
      const ts = [];
      for (let rep = 0; rep < 5; rep++) {
        const t0 = performance.now();
        r = once();
        await gpuSync();
        ts.push(performance.now() - t0);
        r.LU.dispose(); r.pivots.dispose(); r.info.dispose();
      }
      ts.sort((a, b) => a - b);
      results.push([ts[2], blocks]);
      console.log(`${c.padEnd(10)} nb=${String(nb).padEnd(4)} leaf=${String(leaf).padEnd(3)} wg=${String(wg).padEnd(5)} regs=${leafRegs ? 1 : 0}  ${ts[2].toFixed(3)} ms`);
    } catch (e) {
      console.log(`${c.padEnd(10)} nb=${nb} leaf=${leaf} wg=${wg} regs=${leafRegs ? 1 : 0}  error: ${e.message}`);
    }
  }
  results.sort((a, b) => a[0] - b[0]);
  if (results.length) console.log(`BEST ${c}: ${results[0][0].toFixed(3)} ms with ${JSON.stringify(results[0][1])}`);
  A.dispose();
}
clearInterval(keep);
process.exit(0);
