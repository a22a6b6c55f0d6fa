// The WY stage of the GPU Gated DeltaNet forward (src/backend/gpu/gdn_wy.ts) alone, for a few
// tile variants, and its kernels one at a time (outputs allocated once, R recordings per submit,
// best of 5); then gdn.invUnitLower against the unit-lower solve with I it replaced. Imports only
// dist/src. From the project root after `npx tsc -p .`:   node bench/gdn-wy-tune.mjs
// Shape: GDN_B (4), GDN_T (4096), GDN_H (16), GDN_HV (= H), GDN_DK (128), GDN_DV (128), GDN_C (64);
// GDN_ALL=1 tries every tile combination instead of the short list, GDN_VARIANTS=0 only the default;
// GDN_R recordings per submit (20), GDN_REPS repetitions (5; the best counts).
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor, gdn } = await import(root + 'index.js');
const { gdnWyGpu, recordWyStage, gdnWyTiles, checkTiles, invUnitLowerGpu } = await import(root + 'backend/gpu/gdn_wy.js');
const { gdnChunkTable } = await import(root + 'backend/gpu/gdn_chunks.js');
const { planGdn } = await import(root + 'gdn/plan.js');
const { emptyGpu } = await import(root + 'backend/gpu/tensor-ops.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const { gpuLimits } = await import(root + 'backend/gpu/device.js');
const info = await gpu.init();
console.log(info.description);
gpu.memory({ maxPooledBytes: 48 * 2 ** 30 });
const limits = gpuLimits('bench');
console.log(`workgroup memory ${limits.maxComputeWorkgroupStorageSize} B, ${limits.maxComputeInvocationsPerWorkgroup} invocations`);

function fill(n, seed, lo, hi) {
  const a = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = lo + (hi - lo) * (s / 4294967296); }
  return a;
}
const env = (k, d) => +(process.env[k] ?? d);
const REPS = env('GDN_REPS', 5);
async function time(name, R, rec) {
  rec(); await gpuSync();
  let best = Infinity;
  for (let rep = 0; rep < REPS; rep++) {
    const t0 = performance.now();
    for (let i = 0; i < R; i++) rec();
    await gpuSync();
    best = Math.min(best, (performance.now() - t0) / R);
  }
  console.log(`${name.padEnd(64)} ${best.toFixed(4)} ms`);
  return best;
}

const B = env('GDN_B', 4), T = env('GDN_T', 4096), H = env('GDN_H', 16), HV = env('GDN_HV', H);
const dk = env('GDN_DK', 128), dv = env('GDN_DV', 128), C = env('GDN_C', 64);
const kData = fill(B * T * H * dk, 3, -1, 1);
for (let i = 0; i < kData.length; i += dk) {
  let ss = 0;
  for (let d = 0; d < dk; d++) ss += kData[i + d] ** 2;
  for (let d = 0; d < dk; d++) kData[i + d] /= Math.sqrt(ss);
}
const raw = {
  q: Tensor.fromStorage('float32', [B, T, H, dk], fill(B * T * H * dk, 1, -1, 1)).to('gpu'),
  k: Tensor.fromStorage('float32', [B, T, H, dk], kData).to('gpu'),
  v: Tensor.fromStorage('float32', [B, T, HV, dv], fill(B * T * HV * dv, 5, -1, 1)).to('gpu'),
  beta: Tensor.fromStorage('float32', [B, T, HV], fill(B * T * HV, 7, 0.1, 0.9)).to('gpu'),
  g: Tensor.fromStorage('float32', [B, T, HV], fill(B * T * HV, 9, -0.2, 0)).to('gpu'),
};
const { x, plan } = planGdn(raw, { layout: 'bthd', chunk: C, qkL2norm: false }, 'bench');
const chunks = gdnChunkTable(plan);
const pairs = chunks.count * HV;
console.log(`-- WY stage: B ${B}, T ${T}, H ${H}, HV ${HV}, dk ${dk}, dv ${dv}, C ${C}: ${pairs} (chunk, head) pairs`);

const def = gdnWyTiles(C, dk, dv, limits);
const variants = [def];
const add = (o) => {
  const t = gdnWyTiles(C, dk, dv, limits, o);
  try { checkTiles(C, t, limits, 'bench'); } catch { return; }
  if (!variants.some((v) => JSON.stringify(v) === JSON.stringify(t))) variants.push(t);
};
if (process.env.GDN_VARIANTS === '0') {
  // the default only
} else if (process.env.GDN_ALL) {
  for (const dkt of [32, 64, 128]) for (const gr of [4, 8]) for (const nt of [32, 64, 128]) for (const rt of [4, 8]) for (const cw of [1, 2]) for (const bal of [false, true]) for (const invWg of [128, 256]) for (const invCols of [1, 4]) for (const stageT of [false, true]) add({ dkt, gr, nt, rt, cw, bal, invWg, invCols, stageT });
} else {
  // W/U variants around the default (rt 8, bal): the previous default (rt 4, no mirrored blocks) first
  for (const o of [{ rt: 4, bal: false }, { rt: 8, bal: false }, { rt: 4, bal: true }, { cw: 2 }, { cw: 2, rt: 4, bal: false }, { stageT: true },
    { nt: 32 }, { nt: 128 }, { nt: 32, cw: 2 }, { stageT: true, nt: 32 }, { dkt: 16 }, { invWg: 128 }, { invCols: 4 }, { invCols: 4, invWg: 64 }]) add({ ...def, ...o });
}
const bufs = {
  status: emptyGpu('int32', [plan.seqs, HV], 'bench'),
  gcum: emptyGpu('float32', [chunks.count, HV, C], 'bench'),
  W: emptyGpu('float32', [chunks.count, HV, C, dk], 'bench'),
  U: emptyGpu('float32', [chunks.count, HV, C, dv], 'bench'),
  qn: null, kn: null,
  A: emptyGpu('float32', [chunks.count, HV, C, C], 'bench'),
  T: emptyGpu('float32', [chunks.count, HV, C, C], 'bench'),
};
const R = env('GDN_R', 20);
for (const t of variants) {
  const tag = `dkt ${t.dkt} gr ${t.gr} nt ${t.nt} rt ${t.rt}${t.cw > 1 ? ` cw ${t.cw}` : ''}${t.bal ? ' bal' : ''}${t.stageT ? ' stageT' : ''} invWg ${t.invWg} invCols ${t.invCols}${t === def ? ' (default)' : ''}`;
  await time(`kernels, ${tag}`, R, () => recordWyStage(x, plan, chunks, t, bufs));
  // the Gram kernel and the inverse only where their tiles differ from the default's
  const same = t !== def && t.dkt === def.dkt && t.gr === def.gr && t.invWg === def.invWg && t.invCols === def.invCols;
  for (const k of same ? ['wu'] : ['check', 'kkt', 'inv', 'wu']) await time(`   ${k} alone`, R, () => recordWyStage(x, plan, chunks, t, bufs, new Set([k])));
  if (t === def) await time('   kkt alone without the check of q (checkQ false)', R, () => recordWyStage(x, plan, chunks, t, bufs, new Set(['kkt']), false));
}
await time('gdnWyGpu (default tiles, fresh outputs per call)', R, () => {
  const w = gdnWyGpu(x, plan, chunks, { keepT: false }, 'bench');
  for (const o of [w.gcum, w.W, w.U, w.status]) o.dispose();
});
{
  // the default's W and U against each variant's (same math, different summation orders)
  const d = gdnWyGpu(x, plan, chunks, { keepT: false }, 'bench');
  const refW = await d.W.data(), refU = await d.U.data();
  const rel = (a, r) => {
    let num = 0, den = 0;
    for (let i = 0; i < r.length; i++) { num += (a[i] - r[i]) ** 2; den += r[i] ** 2; }
    return Math.sqrt(num / den);
  };
  let worst = 0;
  for (const t of variants.slice(1)) {
    recordWyStage(x, plan, chunks, t, bufs);
    worst = Math.max(worst, rel(await bufs.W.data(), refW), rel(await bufs.U.data(), refU));
  }
  console.log(`W and U of every variant vs the default: largest relative difference ${worst.toExponential(2)}`);
}

console.log('-- gdn.invUnitLower (target: ≤ 0.5 × FLA solve_tril: 0.117 / 0.056 / 0.052 ms)');
const scale = env('GDN_INV_SCALE', 1);
for (const [n, cnt0] of [[64, 4096], [32, 8192], [16, 16384]]) {
  const cnt = Math.max(1, Math.round(cnt0 * scale));
  const a = fill(cnt * n * n, 11, -0.5 / Math.sqrt(n), 0.5 / Math.sqrt(n));
  const A = Tensor.fromStorage('float32', [cnt, n, n], a).to('gpu');
  await time(`invUnitLower ${cnt} × ${n}×${n} (default: a column per thread)`, 2 * R + 10, () => gdn.invUnitLower(A).dispose());
  for (const [invCols, invWg] of [[1, 64], [1, 128], [1, 256], [4, n === 64 ? 256 : n === 32 ? 128 : 64]]) {
    await time(`   invUnitLowerGpu, ${invCols} column(s) per thread, ${invWg} threads`, 2 * R + 10, () => invUnitLowerGpu(A, { invCols, invWg }).dispose());
  }
  const eye = new Float32Array(n * n);
  for (let i = 0; i < n; i++) eye[i * n + i] = 1;
  const I = Tensor.fromStorage('float32', [n, n], eye).to('gpu');
  await time(`   chunkSolve(A, I) (the path it replaced)`, 2 * R + 10, () => gdn.chunkSolve(A, I).dispose());
  A.dispose();
  I.dispose();
}
