// Batched LU / solve kernels on the GPU, old (workgroup memory, shaders/lu/lu.wgsl) against
// new (registers, shaders/lu/lu_reg.wgsl): kernel-only ms per dispatch (outputs allocated
// once, R dispatches per submit, best of 5) and ms per linalg.solveEx / luFactorEx / invEx call
// (default configuration, src/backend/gpu/lu.ts luVariant).
// Run from the project root after `npx tsc -p tsconfig.json`:
//   node bench/gpu-lu-kernels.mjs            (PROBE_LU=<count> shrinks the batch, default 65536)
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor, linalg } = await import(root + 'index.js');
const { runProgram } = await import(root + 'backend/gpu/program.js');
const { smallProgram } = await import(root + 'backend/gpu/small.js');
const { luRegProgram, luVariant } = await import(root + 'backend/gpu/lu.js');
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
// register kernel: [threads per group, one-barrier (speculative row stores) variant]
const variants = [[32, false], [64, false], [32, true], [64, true]];
for (const n of [32, 16, 8]) {
  const a = fill(cnt * n * n, 7 + n);
  for (let b = 0; b < cnt; b++) for (let k = 0; k < n; k++) a[b * n * n + k * (n + 1)] += 3;
  const A = Tensor.fromStorage('float32', [cnt, n, n], a).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, n, 1], fill(cnt * n, 8)).to('gpu');
  const X = emptyGpu('float32', [cnt, n, 1], 'bench'), I = emptyGpu('int32', [cnt], 'bench');
  const P = emptyGpu('int32', [cnt, n], 'bench'), LU = emptyGpu('float32', [cnt, n, n], 'bench');
  const tag = `${cnt} x ${n}x${n}`;
  // old kernel, as src/backend/gpu/lu.ts luProgram builds it (32 threads for n ≤ 32)
  const defs = (mode, entry) => ({ N: n, NN: n * n, F: 1, RC: 1, NRC: n, ENTRY: entry, A_GLOBAL: false, MODE_FACTOR: mode === 'F', MODE_SOLVE: mode === 'S', MODE_INV: false, MODE_LUSOLVE: false, HAS_B: mode === 'S' });
  const oldSolve = smallProgram('lu_solve_fused', 'lu/lu.wgsl', 'lu_solve_fused', 'float32', 32, defs('S', 'lu_solve_fused'));
  const oldFac = smallProgram('lu_factor', 'lu/lu.wgsl', 'lu_factor', 'float32', 32, defs('F', 'lu_factor'));
  const uOld = [{ name: 'count', type: 'u32', value: cnt }, { name: 'nrhs', type: 'u32', value: 1 }, { name: 'use_a', type: 'u32', value: 0 }, { name: 'use_b', type: 'u32', value: 0 }, { name: 'adjoint', type: 'u32', value: 0 }];
  const uNew = [{ name: 'count', type: 'u32', value: cnt }, { name: 'use_b', type: 'u32', value: 0 }];
  await time(`kernel solve 1 rhs ${tag}  old`, reps, () => runProgram(oldSolve, { inputs: [A.gpuStorage(), B.gpuStorage(), dummy.gpuStorage()], outputs: [X.gpuStorage(), I.gpuStorage(), dummy2.gpuStorage()], uniforms: uOld, workgroups: cnt }));
  for (const [wg, spec] of variants) {
    const G = Math.max(1, Math.floor(wg / n));
    await time(`kernel solve 1 rhs ${tag}  registers wg${wg} (${G}/group)${spec ? ' one-barrier' : ''}`, reps, () => runProgram(luRegProgram('SOLVE', n, 1, wg, spec), { inputs: [A.gpuStorage(), B.gpuStorage(), dummy.gpuStorage()], outputs: [X.gpuStorage(), I.gpuStorage()], uniforms: uNew, workgroups: Math.ceil(cnt / G) }));
  }
  await time(`kernel luFactor ${tag}  old`, reps, () => runProgram(oldFac, { inputs: [A.gpuStorage()], outputs: [LU.gpuStorage(), P.gpuStorage(), I.gpuStorage()], uniforms: uOld, workgroups: cnt }));
  for (const [wg, spec] of variants) {
    const G = Math.max(1, Math.floor(wg / n));
    await time(`kernel luFactor ${tag}  registers wg${wg} (${G}/group)${spec ? ' one-barrier' : ''}`, reps, () => runProgram(luRegProgram('FACTOR', n, 0, wg, spec), { inputs: [A.gpuStorage()], outputs: [LU.gpuStorage(), P.gpuStorage(), I.gpuStorage()], uniforms: uNew, workgroups: Math.ceil(cnt / G) }));
  }
  for (const registers of [false, true]) {
    luVariant.registers = registers;
    const name = registers ? 'registers' : 'old';
    await time(`linalg.solveEx per call ${tag}  ${name}`, reps, () => { const r = linalg.solveEx(A, B); r.result.dispose(); r.info.dispose(); });
    await time(`linalg.luFactorEx per call ${tag}  ${name}`, reps, () => { const r = linalg.luFactorEx(A); r.LU.dispose(); r.pivots.dispose(); r.info.dispose(); });
    await time(`linalg.invEx per call ${tag}  ${name}`, reps, () => { const r = linalg.invEx(A); r.inverse.dispose(); r.info.dispose(); });
  }
  luVariant.registers = true;
  for (const t of [A, B, X, I, P, LU]) t.dispose();
}
clearInterval(keep);
process.exit(0);
