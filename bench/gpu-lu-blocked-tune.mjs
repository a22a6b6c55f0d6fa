// Block sizes of the blocked GPU LU (src/backend/gpu/lu_blocked.ts): times luFactor through
// luFactorGpu(A, kernel, { nb, leaf, wg, leafRegs, panel }) for every combination below, per
// case (median of 3 after a warm-up, the GPU synchronised), and prints the fastest per case.
// Every parameter is passed explicitly (the library reads no environment variables).
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-lu-blocked-tune.mjs            (the default sweep below, ~1 min on an H200)
//   node bench/gpu-lu-blocked-tune.mjs --cases=4096,c2048 --nb=32,64,128 --leaf=8,16 --panel=left,recursive --wg=0,512
// Cases: n (float32 n×n), c<n> (complex64), b<count>x<n> (a batch). wg 0: leafPlan's pick;
// --regs=0 also times the leaf kept in A. Shipped defaults: luBlockDefaults (nb 64, leaf 8, left).
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { luFactorGpu, LU_KERNEL_DEFAULT } = await import(root + 'backend/gpu/lu.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const list = (v, d) => (v ? v.split(',') : d);
const cases = list(arg('cases'), ['1024', '4096', '8192', 'c2048', 'b1024x128']);
// (nb, leaf, panel, wg) combinations: the shipped default, its recursive twin (the old panel), and the neighbours that could win
const combos = arg('nb') || arg('leaf') || arg('panel') || arg('wg')
  ? list(arg('nb'), ['64']).flatMap((nb) => list(arg('leaf'), ['8']).flatMap((leaf) => list(arg('panel'), ['left']).flatMap((panel) =>
    list(arg('wg'), ['0']).map((wg) => [Number(nb), Number(leaf), panel, Number(wg)]))))
  : [[64, 8, 'left', 0], [64, 8, 'left', 1024], [64, 8, 'recursive', 0], [32, 8, 'left', 0], [64, 16, 'left', 0], [128, 8, 'left', 0]];
const regs = arg('regs') === '0' ? [true, false] : [true];

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
  for (const [nb, leaf, panel, wg] of combos) for (const leafRegs of regs) {
    if (leaf > nb) continue;
    const blocks = { nb, leaf, wg, leafRegs, panel };
    const once = () => { const r = luFactorGpu(A, LU_KERNEL_DEFAULT, blocks); return r; };
    try {
      let r = once();
      const inf = await r.info.data();
      if (inf.some((v) => v !== 0)) throw new Error(`info ${inf.find((v) => v !== 0)}`);
      r.LU.dispose(); r.pivots.dispose(); r.info.dispose();
      const ts = [];
      for (let rep = 0; rep < 3; rep++) {
        const t0 = performance.now();
        r = once();
        await gpuSync();
        ts.push(performance.now() - t0);
        r.LU.dispose(); r.pivots.dispose(); r.info.dispose();
      }
      ts.sort((a, b) => a - b);
      results.push([ts[1], blocks]);
      console.log(`${c.padEnd(10)} nb=${String(nb).padEnd(4)} leaf=${String(leaf).padEnd(3)} wg=${String(wg).padEnd(5)} regs=${leafRegs ? 1 : 0} ${panel.padEnd(9)}  ${ts[1].toFixed(3)} ms`);
    } catch (e) {
      console.log(`${c.padEnd(10)} nb=${nb} leaf=${leaf} wg=${wg} regs=${leafRegs ? 1 : 0} ${panel}  error: ${e.message}`);
    }
  }
  results.sort((a, b) => a[0] - b[0]);
  if (results.length) console.log(`BEST ${c}: ${results[0][0].toFixed(3)} ms with ${JSON.stringify(results[0][1])}`);
  A.dispose();
}
clearInterval(keep);
process.exit(0);
