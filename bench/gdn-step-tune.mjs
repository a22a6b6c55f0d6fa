// The recurrent-step kernel (shaders/gdn/step.wgsl) at other tile widths than the default
// (gdnStepPlan): R chained steps per submit, best of 5, for each CW, and the API call. Imports
// only dist/src. From the project root after `npx tsc -p .`:   node bench/gdn-step-tune.mjs
// (GDN_STEP="B,H,D" picks the shape; default 4,16,128 then 1,16,128).
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const gdn = await import(root + 'gdn/index.js');
const { runProgram } = await import(root + 'backend/gpu/program.js');
const { gdnStepPlan, gdnStepProgram } = await import(root + 'backend/gpu/gdn_step.js');
const { emptyGpu } = await import(root + 'backend/gpu/tensor-ops.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);
function fill(n, seed, scale = 1) { const a = new Float32Array(n); let s = seed; for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = (s / 2147483648 - 1) * scale; } return a; }
async function time(name, R, rec, bytes) {
  rec(); await gpuSync();
  let best = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    for (let i = 0; i < R; i++) rec();
    await gpuSync();
    best = Math.min(best, (performance.now() - t0) / R);
  }
  console.log(`${name.padEnd(44)} ${(best * 1000).toFixed(1)} us${bytes ? `  ${(bytes / best / 1e6).toFixed(0)} GB/s` : ''}`);
}
const shapes = process.env.GDN_STEP ? [process.env.GDN_STEP.split(',').map(Number)] : [[4, 16, 128], [1, 16, 128]];
const R = 50;
for (const [B, H, D] of shapes) {
  const up = (a, s) => Tensor.fromStorage('float32', s, a).to('gpu');
  const q = up(fill(B * H * D, 1), [B, H, D]), k = up(fill(B * H * D, 2), [B, H, D]), v = up(fill(B * H * D, 3), [B, H, D]);
  const beta = up(fill(B * H, 4).map((x) => 0.5 + 0.25 * x), [B, H]), g = up(fill(B * H, 5).map((x) => -0.25 * (x + 1)), [B, H]);
  const S = [up(fill(B * H * D * D, 6, 0.5), [B, H, D, D]), emptyGpu('float32', [B, H, D, D], 't')];
  const o = emptyGpu('float32', [B, H, D], 't'), status = emptyGpu('int32', [B, H], 't');
  const bytes = 2 * B * H * D * D * 4;
  console.log(`-- B ${B}, H ${H}, dk = dv = ${D} (${(bytes / 1e6).toFixed(1)} MB of state read and written)`);
  for (const cw of [2, 4, 8, 16, 32, 64, 128, 256].filter((c) => c <= 256)) {
    const plan = gdnStepPlan(D, D, cw);
    const prog = gdnStepProgram('float32', plan);
    let flip = 0;
    await time(`kernel CW ${cw} RG ${plan.RG} ROWS ${plan.ROWS}${cw === gdnStepPlan(D, D).CW ? ' (default)' : ''}`, R, () => {
      const [a, b] = flip++ % 2 ? [S[1], S[0]] : [S[0], S[1]];
      runProgram(prog, {
        inputs: { S: a.gpuStorage(), q: q.gpuStorage(), k: k.gpuStorage(), v: v.gpuStorage(), beta: beta.gpuStorage(), g: g.gpuStorage() },
        outputs: { o: o.gpuStorage(), Snew: b.gpuStorage(), status: status.gpuStorage() },
        uniforms: { count: B * H, H, HV: H, dk: D, dv: D, scale: 1 / Math.sqrt(D), l2: 1 },
        workgroups: B * H,
      });
    }, bytes);
  }
  let st = S[0];
  await time('API gdn.recurrentStep (chained)', R, () => {
    const r = gdn.recurrentStep(st, q, k, v, beta, g, { qkL2norm: true });
    if (st !== S[0]) st.dispose();
    r.o.dispose();
    st = r.state;
  }, bytes);
}
process.exit(0);
