// The GPU Gated DeltaNet backward (src/backend/gpu/gdn_backward.ts) against the forward:
// gdn.chunkedForward, gdn.chunkedBackward (forward stages recomputed inside), and the backward
// kernels alone on stages recorded once (gdnBackwardFromStages), for the default tiles and a few
// others. R calls per submit, best of 5. Imports only dist/src. From the project root after
// `npx tsc -p .`:   node bench/gdn-backward-time.mjs
// Shape: GDN_B (4), GDN_T (4096), GDN_H (16), GDN_HV (= H), GDN_DK (128), GDN_DV (128), GDN_C (64),
// GDN_DTYPE (float32 | float16), GDN_L2 (1: qkL2norm), GDN_R (5 calls per submit).
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor, gdn } = await import(root + 'index.js');
const { gdnWyGpu } = await import(root + 'backend/gpu/gdn_wy.js');
const { gdnStatePassStagedGpu } = await import(root + 'backend/gpu/gdn_state_staged.js');
const { gdnBackwardFromStages, gdnBwdTiles } = await import(root + 'backend/gpu/gdn_backward.js');
const { gdnChunkTable } = await import(root + 'backend/gpu/gdn_chunks.js');
const { planGdn } = await import(root + 'gdn/plan.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const { gpuLimits } = await import(root + 'backend/gpu/device.js');
const info = await gpu.init();
console.log(info.description);
gpu.memory({ maxPooledBytes: 64 * 2 ** 30 });
const limits = gpuLimits('bench');

function fill(n, seed, lo, hi) {
  const a = new Float32Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = lo + (hi - lo) * (s / 4294967296); }
  return a;
}
const R = +(process.env.GDN_R ?? 5);
async function time(name, rec) {
  const first = rec(); await gpuSync(); first?.();
  let best = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    const done = [];
    for (let i = 0; i < R; i++) done.push(rec());
    await gpuSync();
    best = Math.min(best, (performance.now() - t0) / R);
    for (const d of done) d?.();
  }
  console.log(`${name.padEnd(60)} ${best.toFixed(3)} ms`);
  return best;
}

const env = (k, d) => +(process.env[k] ?? d);
const B = env('GDN_B', 4), T = env('GDN_T', 4096), H = env('GDN_H', 16), HV = env('GDN_HV', H);
const dk = env('GDN_DK', 128), dv = env('GDN_DV', 128), C = env('GDN_C', 64);
const dtype = process.env.GDN_DTYPE ?? 'float32', l2 = process.env.GDN_L2 === '1';
const kData = fill(B * T * H * dk, 3, -1, 1);
for (let i = 0; i < kData.length; i += dk) {
  let ss = 0;
  for (let d = 0; d < dk; d++) ss += kData[i + d] ** 2;
  for (let d = 0; d < dk; d++) kData[i + d] /= Math.sqrt(ss);
}
const mk = (shape, data) => {
  const t = Tensor.fromStorage('float32', shape, data).to('gpu');
  if (dtype === 'float32') return t;
  const h = t.cast(dtype);
  t.dispose();
  return h;
};
const input = {
  q: mk([B, T, H, dk], fill(B * T * H * dk, 1, -1, 1)),
  k: mk([B, T, H, dk], kData),
  v: mk([B, T, HV, dv], fill(B * T * HV * dv, 5, -1, 1)),
  beta: mk([B, T, HV], fill(B * T * HV, 7, 0.1, 0.9)),
  g: mk([B, T, HV], fill(B * T * HV, 9, -0.2, 0)),
  initialState: Tensor.fromStorage('float32', [B, HV, dk, dv], fill(B * HV * dk * dv, 11, -0.1, 0.1)).to('gpu'),
  chunkSize: C, qkL2norm: l2,
};
const dO = mk([B, T, HV, dv], fill(B * T * HV * dv, 13, -1, 1));
const dF = Tensor.fromStorage('float32', [B, HV, dk, dv], fill(B * HV * dk * dv, 15, -1, 1)).to('gpu');
console.log(`-- B ${B}, T ${T}, H ${H}, HV ${HV}, dk ${dk}, dv ${dv}, C ${C}, ${dtype}${l2 ? ', qkL2norm' : ''}; default tiles ${JSON.stringify(gdnBwdTiles(dk, dv, limits))}`);

let fwd = NaN;
try {
  fwd = await time('gdn.chunkedForward', () => {
    const r = gdn.chunkedForward(input);
    return () => { r.o.dispose(); r.finalState.dispose(); };
  });
} catch (e) {
  console.log(`gdn.chunkedForward failed: ${e.message}`);
}
const free = (r) => () => { for (const t of [r.dq, r.dk, r.dv, r.dbeta, r.dg, r.dInitialState]) t?.dispose(); };
const bwd = await time('gdn.chunkedBackward (forward stages recomputed)', () => free(gdn.chunkedBackward(input, { dO, dFinalState: dF })));
console.log(`backward / forward: ${(bwd / fwd).toFixed(2)}×`);

// the backward kernels alone, on forward stages recorded once
const { x, plan } = planGdn(input, { layout: 'bthd', chunk: C, qkL2norm: l2 }, 'bench');
const chunks = gdnChunkTable(plan);
await time('forward stages for the backward (WY with T, state pass)', () => {
  const wy = gdnWyGpu(x, plan, chunks, { keepT: true }, 'bench');
  const st = gdnStatePassStagedGpu(x, wy, plan, chunks, 'bench');
  return () => { for (const t of [wy.gcum, wy.W, wy.U, wy.T, wy.qn, wy.kn, wy.status, st.h, st.vn, st.finalState]) t?.dispose(); };
});
const wy = gdnWyGpu(x, plan, chunks, { keepT: true }, 'bench');
const st = gdnStatePassStagedGpu(x, wy, plan, chunks, 'bench');

// KW: the reverse pass's K slice width (the default the widest that fits); WP false (and BV 16,
// where a thread owns two rows of dh) keeps W's column out of registers
for (const tiles of [{}, { WP: false }, { KW: 32 }, { KW: 64 }, { BV: 4 }, { BV: 16 }, { KT: 32 }]) {
  let t;
  try {
    t = gdnBwdTiles(dk, dv, limits, tiles);
    await time(`backward kernels alone, KT ${t.KT}, BV ${t.BV}, KW ${t.KW}, WP ${t.WP}`, () => free(gdnBackwardFromStages(x, dO, dF, plan, chunks, wy, st, 'bench', tiles)));
  } catch (e) {
    console.log(`${JSON.stringify(tiles)}: ${e.message}`);
  }
}

// where the time goes (default tiles): the first k dispatches, k = 1, 2, …; the difference is stage k
const STAGES = [
  ...(dtype === 'float16' ? ['widen q', 'widen k', 'widen v', 'widen beta', 'widen dO'] : []),
  'dfin (dFinal into the pass)', 'qk (Q·Kᵀ, K·Kᵀ)', 'dvl (dVn local)', 'dhq ((ΓQ)ᵀ·dO)', 'state (reverse pass)', 'x (Tᵀ·dVt, dv)',
  'pda (dO·Vnᵀ, −X·Vnᵀ)', 'dqh (dO·hᵀ, dots)', 'dk1a (Vn·dhEᵀ, dots)', 'dk1b (X·hᵀ, dots)', 'rows', 'ccfin (C×C, dγ, dβ)', 'gate (dg, dβ out)',
  'dq2 (Pm·K)', 'dk2 (Pmᵀ·Q + Bs·K)', 'qkout (dq, dk out)', 'dS0',
];
let prev = 0;
for (let k = 1; k <= STAGES.length; k++) {
  const t = await time(`  first ${k} dispatches`, () => free(gdnBackwardFromStages(x, dO, dF, plan, chunks, wy, st, 'bench', {}, k)));
  console.log(`    ${STAGES[k - 1].padEnd(40)} ${(t - prev).toFixed(3)} ms`);
  prev = t;
}
