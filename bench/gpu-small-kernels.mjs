// Kernel-only timings of the gpu-small kernels (docs/gpu-small.md): outputs allocated
// once, R dispatches per submit, best of 5. Run from the project root after `npx tsc -p .`:
//   node bench/gpu-small-kernels.mjs          (PROBE_BIG / PROBE_TRSM / PROBE_LU shrink the batches)
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { runProgram } = await import(root + 'backend/gpu/program.js');
const { invSmallProgram } = await import(root + 'backend/gpu/inv.js');
const { lookup } = await import(root + 'backend/registry.js');
const { unitLowerPlan, unitLowerProgram, unitLowerV4Program, trsmProgram } = await import(root + 'backend/gpu/trsm.js');
const { luProgram } = await import(root + 'backend/gpu/lu.js');
const { emptyGpu } = await import(root + 'backend/gpu/tensor-ops.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description, JSON.stringify(info.limits));
function fill(n, seed) { const a = new Float32Array(n); let s = seed; for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = s / 2147483648 - 1; } return a; }
async function time(name, R, rec, bytes) {
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
  console.log(`${name.padEnd(48)} ${best.toFixed(4)} ms/dispatch  (record ${(recT * 1000).toFixed(0)} us)${bytes ? `  ${(bytes / best / 1e6).toFixed(0)} GB/s` : ''}`);
}
const big = +(process.env.PROBE_BIG || 16777216);
for (const n of [4, 3, 2]) {
  const S = n * n;
  const a = fill(big * S, n); for (let b = 0; b < big; b++) for (let k = 0; k < n; k++) a[b * S + k * (n + 1)] += 3;
  const A = Tensor.fromStorage('float32', [big, n, n], a).to('gpu');
  const X = emptyGpu('float32', [big, n, n], 'p'), I = emptyGpu('int32', [big], 'p');
  // the shipped kernels: 64 matrices per workgroup; direct vec4 loads for 2×2 and 4×4
  for (const direct of n === 3 ? [false] : [true, false]) {
    await time(`inv ${n}x${n} x${big}${direct ? ' direct' : ' staged'}`, 10, () => runProgram(invSmallProgram(n, 'float32', direct), { inputs: { A: A.gpuStorage() }, outputs: { X: X.gpuStorage(), info: I.gpuStorage() }, uniforms: { count: big }, workgroups: Math.ceil(big / 64) }), big * (8 * S + 4));
  }
  await time(`transpose ${n}x${n} x${big} (baseline)`, 10, () => lookup('transpose', 'float32', 'gpu')(A, false).dispose(), big * 8 * S);
  A.dispose(); X.dispose(); I.dispose();
}
const dummy = emptyGpu('int32', [1], 'p'), dummy2 = emptyGpu('int32', [1], 'p');
for (const [C, k] of [[64, 64], [32, 32], [16, 16]]) {
  const cnt = +(process.env.PROBE_TRSM || 4096);
  const A = Tensor.fromStorage('float32', [cnt, C, C], fill(cnt * C * C, 3).map((v) => v * 0.05)).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, C, k], fill(cnt * C * k, 4)).to('gpu');
  const X = emptyGpu('float32', [cnt, C, k], 'p');
  const u = { count: cnt, nrhs: k, use_a: 0, use_b: 0 };
  const io = { inputs: { A: A.gpuStorage(), B: B.gpuStorage(), amap: dummy.gpuStorage(), bmap: dummy.gpuStorage() }, outputs: { X: X.gpuStorage() } };
  const bytes = cnt * (C * C * 2 + C * k * 8);
  const L = unitLowerPlan(C, k), cblocks = Math.ceil(k / L.KC), tasks = cnt * cblocks;
  await time(`trsm column per thread ${C}x${C} k${k} x${cnt} KC${L.KC}`, 50, () => runProgram(unitLowerProgram(C, L), { ...io, uniforms: { ...u, cblocks, tasks }, workgroups: Math.ceil(tasks / L.G) }), bytes);
  const wg = C === 64 ? 256 : 64, cv = k / 4;
  await time(`trsm 4 columns per thread ${C}x${C} k${k} x${cnt}`, 50, () => runProgram(unitLowerV4Program(C, wg), { ...io, uniforms: { ...u, cv, tasks: cnt * cv }, workgroups: Math.ceil(cnt * cv / wg) }), bytes);
  await time(`trsm 4 columns per thread ${C}x${C} k${k} ONE system (dispatch overhead)`, 50, () => runProgram(unitLowerV4Program(C, wg), { ...io, uniforms: { ...u, count: 1, cv, tasks: cv }, workgroups: 1 }), 0);
  await time(`trsm general ${C}x${C} k${k} x${cnt}`, 20, () => runProgram(trsmProgram('float32', C, k), { ...io, uniforms: { ...u, n: C, upper: 0, unit: 1 }, workgroups: cnt }), bytes);
  A.dispose(); B.dispose(); X.dispose();
}
{
  const n = 32, cnt = +(process.env.PROBE_LU || 65536);
  const a = fill(cnt * n * n, 7); for (let b = 0; b < cnt; b++) for (let k = 0; k < n; k++) a[b * n * n + k * (n + 1)] += 3;
  const A = Tensor.fromStorage('float32', [cnt, n, n], a).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, n, 1], fill(cnt * n, 8)).to('gpu');
  const X = emptyGpu('float32', [cnt, n, 1], 'p'), I = emptyGpu('int32', [cnt], 'p'), P = emptyGpu('int32', [cnt, n], 'p'), LU = emptyGpu('float32', [cnt, n, n], 'p');
  const u = { count: cnt, nrhs: 1, use_a: 0, use_b: 0, adjoint: 0 };
  // the workgroup-memory kernel (lu.wgsl); the register kernel is timed by bench/gpu-lu-kernels.mjs
  await time(`lu solve fused 32x32 x${cnt}`, 10, () => runProgram(luProgram('SOLVE', 'float32', n, 1, false), { inputs: { A: A.gpuStorage(), B: B.gpuStorage(), bmap: dummy.gpuStorage() }, outputs: { X: X.gpuStorage(), INFO: I.gpuStorage(), W: dummy2.gpuStorage() }, uniforms: u, workgroups: cnt }), cnt * (n * n + 2 * n) * 4);
  await time(`lu factor 32x32 x${cnt}`, 10, () => runProgram(luProgram('FACTOR', 'float32', n, 1, false), { inputs: { A: A.gpuStorage() }, outputs: { LU: LU.gpuStorage(), PIV: P.gpuStorage(), INFO: I.gpuStorage() }, uniforms: u, workgroups: cnt }), cnt * n * n * 8);
}
clearInterval(keep); process.exit(0);
