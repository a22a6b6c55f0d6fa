// Batched LU / solve kernels on the GPU, old (workgroup memory, shaders/lu/lu.wgsl) against
// new (registers, shaders/lu/lu_reg.wgsl): kernel-only ms per dispatch (outputs allocated
// once, R dispatches per submit, best of 5) and ms per linalg.solveEx / luFactorEx / invEx call
// (default kernel, and the workgroup-memory one through the `kernel` parameter of src/backend/gpu/lu.ts).
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-lu-kernels.mjs            (PROBE_LU=<count> shrinks the batch, default 65536)
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor, linalg } = await import(root + 'index.js');
const { runProgram } = await import(root + 'backend/gpu/program.js');
const { luProgram, luRegProgram, solveGpu, luFactorGpu, invLuGpu } = await import(root + 'backend/gpu/lu.js');
const { planBatch } = await import(root + 'core/batch.js');
const { emptyGpu } = await import(root + 'backend/gpu/tensor-ops.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description);
const cnt = +(process.env.PROBE_LU || 65536);

function fill(n, seed) { const a = new Float32Array(n); let s = seed; for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = s / 2147483648 - 1; } return a; }
async function time(name, R, rec) {
  rec(); await gpuSync();
  let best = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    for (let i = 0; i < R; i++) rec();
    await gpuSync();
    best = Math.min(best, (performance.now() - t0) / R);
  }
  console.log(`${name.padEnd(58)} ${best.toFixed(4)} ms`);
  return best;
}

const dummy = emptyGpu('int32', [1], 'bench'), dummy2 = emptyGpu('int32', [1], 'bench');
const reps = cnt >= 16384 ? 10 : 3;
// register kernel: threads per group
const variants = [32, 64];
for (const n of [32, 16, 8]) {
  const a = fill(cnt * n * n, 7 + n);
  for (let b = 0; b < cnt; b++) for (let k = 0; k < n; k++) a[b * n * n + k * (n + 1)] += 3;
  const A = Tensor.fromStorage('float32', [cnt, n, n], a).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, n, 1], fill(cnt * n, 8)).to('gpu');
  const X = emptyGpu('float32', [cnt, n, 1], 'bench'), I = emptyGpu('int32', [cnt], 'bench');
  const P = emptyGpu('int32', [cnt, n], 'bench'), LU = emptyGpu('float32', [cnt, n, n], 'bench');
  const tag = `${cnt} x ${n}x${n}`;
  // old kernel, as src/backend/gpu/lu.ts luProgram builds it (32 threads for n ≤ 32)
  const oldSolve = luProgram('SOLVE', 'float32', n, 1, false);
  const oldFac = luProgram('FACTOR', 'float32', n, 1, false);
  const uOld = { count: cnt, nrhs: 1, use_a: 0, use_b: 0, adjoint: 0 };
  const uNew = { count: cnt, use_b: 0 };
  await time(`kernel solve 1 rhs ${tag}  old`, reps, () => runProgram(oldSolve, { inputs: { A: A.gpuStorage(), B: B.gpuStorage(), bmap: dummy.gpuStorage() }, outputs: { X: X.gpuStorage(), INFO: I.gpuStorage(), W: dummy2.gpuStorage() }, uniforms: uOld, workgroups: cnt }));
  for (const wg of variants) {
    const G = Math.max(1, Math.floor(wg / n));
    await time(`kernel solve 1 rhs ${tag}  registers wg${wg} (${G}/group)`, reps, () => runProgram(luRegProgram('SOLVE', n, 1, wg), { inputs: { A: A.gpuStorage(), B: B.gpuStorage(), bmap: dummy.gpuStorage() }, outputs: { X: X.gpuStorage(), INFO: I.gpuStorage() }, uniforms: uNew, workgroups: Math.ceil(cnt / G) }));
  }
  await time(`kernel luFactor ${tag}  old`, reps, () => runProgram(oldFac, { inputs: { A: A.gpuStorage() }, outputs: { LU: LU.gpuStorage(), PIV: P.gpuStorage(), INFO: I.gpuStorage() }, uniforms: uOld, workgroups: cnt }));
  for (const wg of variants) {
    const G = Math.max(1, Math.floor(wg / n));
    await time(`kernel luFactor ${tag}  registers wg${wg} (${G}/group)`, reps, () => runProgram(luRegProgram('FACTOR', n, 0, wg), { inputs: { A: A.gpuStorage() }, outputs: { LU: LU.gpuStorage(), PIV: P.gpuStorage(), INFO: I.gpuStorage() }, uniforms: uNew, workgroups: Math.ceil(cnt / G) }));
  }
  const plan = planBatch(A, B, 'bench');
  for (const registers of [false, true]) {
    const kernel = { registers, wg: 32 };
    const name = registers ? 'registers' : 'old';
    await time(`solveEx per call ${tag}  ${name}`, reps, () => { const r = solveGpu(A, B, plan, kernel); r.X.dispose(); r.info.dispose(); });
    await time(`luFactorEx per call ${tag}  ${name}`, reps, () => { const r = luFactorGpu(A, kernel); r.LU.dispose(); r.pivots.dispose(); r.info.dispose(); });
    await time(`invEx per call ${tag}  ${name}`, reps, () => { const r = invLuGpu(A, kernel); r.X.dispose(); r.info.dispose(); });
  }
  for (const t of [A, B, X, I, P, LU]) t.dispose();
}
clearInterval(keep);
process.exit(0);
