// The Gated DeltaNet forward's state pass (gdnStatePassStagedGpu: state kernel + finalize) and output
// kernel (gdnOutputGpu) alone, for several tile variants, at B 4, T 4096, H 16, dk = dv = 128,
// C 64, float32 (issue 15's goal: the whole forward ≤ 1.66 ms on an H200); then the WY stage and
// the whole forward (backend entry, no status read) for the breakdown. Best of 5 × R calls per
// sync. Imports only dist/src. From the project root after `npx tsc -p .`:
//   node bench/gdn-state-tune.mjs        (GDN_B, GDN_T, GDN_H, GDN_D, GDN_C change the shape; GDN_R the repeats)
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { planGdn } = await import(root + 'gdn/plan.js');
const { lookup } = await import(root + 'backend/registry.js');
const { gdnChunkTable } = await import(root + 'backend/gpu/gdn_chunks.js');
const { gdnWyGpu } = await import(root + 'backend/gpu/gdn_wy.js');
const { gdnStatePassStagedGpu, gdnStateStagedPlan } = await import(root + 'backend/gpu/gdn_state_staged.js');
const { gdnOutputGpu, gdnOutputPlan } = await import(root + 'backend/gpu/gdn_output.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const { gpuLimits } = await import(root + 'backend/gpu/device.js');

const info = await gpu.init();
console.log(info.description, process.env.LAPIS_DAWN_FLAGS ?? '(robustness on)', `limits ${info.limitsMode}`);
gpu.memory({ maxPooledBytes: 48 * 2 ** 30 });
const B = +(process.env.GDN_B || 4), T = +(process.env.GDN_T || 4096), H = +(process.env.GDN_H || 16), D = +(process.env.GDN_D || 128);
const C = +(process.env.GDN_C || 64), R = +(process.env.GDN_R || 20);

function fill(n, seed, lo, hi) {
  const a = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = lo + (hi - lo) * (s / 4294967296); }
  return a;
}
function unitRows(a, d) {
  for (let i = 0; i < a.length; i += d) {
    let ss = 0;
    for (let e = 0; e < d; e++) ss += a[i + e] * a[i + e];
    const r = 1 / Math.sqrt(ss);
    for (let e = 0; e < d; e++) a[i + e] *= r;
  }
  return a;
}
async function time(name, rec, flop) {
  rec(); await gpuSync();
  let best = Infinity, recT = 0;
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    for (let i = 0; i < R; i++) rec();
    const t1 = performance.now();
    await gpuSync();
    const dt = (performance.now() - t0) / R;
    if (dt < best) { best = dt; recT = (t1 - t0) / R; }
  }
  console.log(`${name.padEnd(60)} ${best.toFixed(4)} ms  (host ${(recT * 1000).toFixed(0)} us)${flop ? `  ${(flop / best / 1e9).toFixed(1)} TFLOP/s` : ''}`);
  return best;
}

const n = B * T * H * D;
const up = (a, shape) => Tensor.fromStorage('float32', shape, a).to('gpu');
const raw = {
  q: up(fill(n, 1, -1, 1), [B, T, H, D]), k: up(unitRows(fill(n, 2, -1, 1), D), [B, T, H, D]), v: up(fill(n, 3, -1, 1), [B, T, H, D]),
  beta: up(fill(B * T * H, 4, 0.1, 0.9), [B, T, H]), g: up(fill(B * T * H, 5, -0.2, 0), [B, T, H]),
};
const { x, plan } = planGdn(raw, { layout: 'bthd', chunk: C, qkL2norm: false }, 'bench');
const chunks = gdnChunkTable(plan);
const wy = gdnWyGpu(x, plan, chunks, { keepT: false }, 'bench');
await gpuSync();
const limits = gpuLimits('bench');
const pairs = chunks.count * H;
console.log(`B ${B}, T ${T}, H = HV ${H}, dk = dv ${D}, C ${C}: ${chunks.count} chunks, h ${(pairs * D * D * 4 / 1e6).toFixed(0)} MB`);

// state pass: Vn = U − W·S (C·dk·dv) and Kᵀ·Vn (dk·C·dv) per chunk and head
const stateFlop = pairs * 4 * C * D * D;
// the staged state pass (gdn_state_staged.ts): W and K tiles of CS rows through workgroup memory, loaded a tile ahead
// wd: W tiles of all C rows × a dk slice (a 2D register tile in W·S); db: two tile buffers, one barrier per tile
for (const tune of [
  {},
  { wd: false },
  { db: true },
  { bv: 16, db: true },
  { bv: 16, cs: 64 },
  { bv: 16, cs: 64, wd: false },
  { bv: 16 },
  { cs: 16 },
  { rg: 16 },
  { bv: 16, rg: 16, db: true },
  { rg: 64 },
]) {
  const L = gdnStateStagedPlan(C, D, D, limits, tune);
  if (!L) { console.log(`staged state ${JSON.stringify(tune)}: does not fit`); continue; }
  await time(`staged state ${JSON.stringify(tune)} BV ${L.BV} CS ${L.CS} RG ${L.RG} DS ${L.DS}${L.DB ? ' DB' : ''} TS ${L.TS} NL ${L.NL} ${L.bytes} B (${B * H * Math.ceil(D / L.BV)} wg)`, () => {
    const s = gdnStatePassStagedGpu(x, wy, plan, chunks, 'bench', tune);
    s.h.dispose(); s.vn.dispose(); s.finalState.dispose();
  }, stateFlop);
}
const st = gdnStatePassStagedGpu(x, wy, plan, chunks, 'bench');
// output: Q·h (C·dk·dv), the lower half of Q·Kᵀ (C²·dk/2) and P·Vn (C²·dv/2) per chunk and head
const outFlop = pairs * 2 * (C * D * D + C * C * D);
// hs false: h_c read from global memory by every row group (the run-2 tiles); cw: column vec4s per thread
for (const tune of [
  {}, { hs: false }, { bk: 32 }, { bk: 8 }, { bo: 128 }, { ro: 8 }, { bo: 128, ro: 8 }, { rbo: 64 },
  { cw: 2 }, { bo: 128, cw: 2 }, { bo: 128, cw: 2, ro: 8 }, { bo: 128, cw: 4 }, { rbo: 64, bo: 128, cw: 2 }, { bo: 128, cw: 2, bk: 32 },
  { cw: 2, hs: false },
]) {
  const L = gdnOutputPlan(C, D, D, limits, tune);
  if (!L) { console.log(`output ${JSON.stringify(tune)}: does not fit`); continue; }
  await time(`output ${JSON.stringify(tune)} BO ${L.BO} RBO ${L.RBO} RO ${L.RO} CW ${L.CW} HS ${L.HS ? 1 : 0} BK ${L.BK} TS ${L.TS} PTT ${L.PTT} ${L.bytes} B`, () => {
    gdnOutputGpu(x, wy, st, plan, chunks, 'bench', tune).dispose();
  }, outFlop);
}
await time('WY stage (gdnWyGpu)', () => {
  const w = gdnWyGpu(x, plan, chunks, { keepT: false }, 'bench');
  for (const t of [w.gcum, w.W, w.U, w.T, w.qn, w.kn, w.status]) t?.dispose();
});
const fwd = lookup('gdnForward', 'float32', 'gpu', 'bench');
await time('whole forward (gdnForward backend entry)', () => {
  const r = fwd(x, plan);
  r.o.dispose(); r.finalState.dispose(); r.status.dispose();
});
