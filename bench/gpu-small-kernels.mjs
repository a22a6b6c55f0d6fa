// Kernel-only timings of the gpu-small kernels (docs/gpu-small.md): outputs allocated
// once, R dispatches per submit, best of 5. Run from the project root after `npx tsc -p .`:
//   node bench/gpu-small-kernels.mjs          (PROBE_BIG / PROBE_TRSM / PROBE_LU shrink the batches)
const keep = setInterval(() => {}, 1000);
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor } = await import(root + 'index.js');
const { runProgram } = await import(root + 'backend/gpu/program.js');
const { smallProgram } = await import(root + 'backend/gpu/small.js');
const { unrolled } = await import(root + 'backend/gpu/inv.js');
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
  const S = n * n, PAD = S % 2 ? S : S + 1, WG = PAD > 17 ? 64 : 128;
  const a = fill(big * S, n); for (let b = 0; b < big; b++) for (let k = 0; k < n; k++) a[b * S + k * (n + 1)] += 3;
  const A = Tensor.fromStorage('float32', [big, n, n], a).to('gpu');
  const X = emptyGpu('float32', [big, n, n], 'p'), I = emptyGpu('int32', [big], 'p');
  for (const wg of [64, 128]) {
    const prog = smallProgram('inv_small', 'inv/inv_small.wgsl', 'inv_small', 'float32', wg, { N: n, N1: false, N2: n === 2, N3: n === 3, N4: n === 4, NN: S, W2: 2 * S, S, PAD, TILE: wg * PAD, ...unrolled(n) });
    await time(`inv ${n}x${n} x${big} wg${wg}`, 10, () => runProgram(prog, { inputs: [A.gpuStorage()], outputs: [X.gpuStorage(), I.gpuStorage()], uniforms: [{ name: 'count', type: 'u32', value: big }], workgroups: Math.ceil(big / wg) }), big * (8 * S + 4));
  }
  const tp = smallProgram('transpose', 'transpose/transpose.wgsl', 'transpose', 'float32', 256, { E: 'u32' });
  await time(`transpose ${n}x${n} x${big} (baseline)`, 10, () => runProgram(tp, { inputs: [A.gpuStorage()], outputs: [X.gpuStorage()], uniforms: [{ name: 'm', type: 'u32', value: n }, { name: 'n', type: 'u32', value: n }, { name: 'total', type: 'u32', value: big * S }, { name: 'conj', type: 'u32', value: 0 }], workgroups: Math.ceil(big * S / 256) }), big * 8 * S);
  A.dispose(); X.dispose(); I.dispose();
}
const dummy = emptyGpu('int32', [1], 'p'), dummy2 = emptyGpu('int32', [1], 'p');
for (const [C, k] of [[64, 64], [32, 32], [16, 16]]) {
  const cnt = +(process.env.PROBE_TRSM || 4096);
  const A = Tensor.fromStorage('float32', [cnt, C, C], fill(cnt * C * C, 3).map((v) => v * 0.05)).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, C, k], fill(cnt * C * k, 4)).to('gpu');
  const X = emptyGpu('float32', [cnt, C, k], 'p');
  const KC = Math.min(64, Math.max(16, k));
  const u = [{ name: 'count', type: 'u32', value: cnt }, { name: 'nrhs', type: 'u32', value: k }, { name: 'use_a', type: 'u32', value: 0 }, { name: 'use_b', type: 'u32', value: 0 }];
  const io = { inputs: [A.gpuStorage(), B.gpuStorage(), dummy.gpuStorage(), dummy.gpuStorage()], outputs: [X.gpuStorage()], workgroups: cnt };
  const bytes = cnt * (C * C * 2 + C * k * 8);
  for (const [kc, skip] of [[KC, ''], [Math.max(16, KC / 2), '']]) {
    if (C === 16 && kc !== KC) continue;
    const defs = { N: C, KC: kc, NN4: C * C / 4, NKC: C * kc };
    for (const f of skip.split(' ').filter(Boolean)) defs[f] = true;
    const fast = smallProgram('trsm_unit_lower', 'trsm/trsm_unit_lower.wgsl', 'trsm_unit_lower', 'float32', 4 * kc, defs);
    await time(`trsm fast ${C}x${C} k${k} x${cnt} KC${kc} ${skip}`, 50, () => runProgram(fast, { ...io, uniforms: u }), bytes);
  }
  {
    const fast = smallProgram('trsm_unit_lower', 'trsm/trsm_unit_lower.wgsl', 'trsm_unit_lower', 'float32', 4 * KC, { N: C, KC, NN4: C * C / 4, NKC: C * KC });
    await time(`trsm fast ${C}x${C} k${k} ONE system (dispatch overhead)`, 50, () => runProgram(fast, { ...io, uniforms: [{ name: 'count', type: 'u32', value: 1 }, ...u.slice(1)], workgroups: 1 }), 0);
  }
  const MAXN = Math.max(16, C); let RC = 1; while (RC < 16 && RC < k && MAXN * 2 * RC * 4 <= 16384) RC *= 2;
  const gen = smallProgram('trsm', 'trsm/trsm.wgsl', 'trsm', 'float32', 256, { MAXN, RC, NRC: MAXN * RC });
  await time(`trsm general ${C}x${C} k${k} x${cnt}`, 20, () => runProgram(gen, { ...io, uniforms: [...u, { name: 'n', type: 'u32', value: C }, { name: 'upper', type: 'u32', value: 0 }, { name: 'unit', type: 'u32', value: 1 }] }), bytes);
  A.dispose(); B.dispose(); X.dispose();
}
{
  const n = 32, cnt = +(process.env.PROBE_LU || 65536);
  const a = fill(cnt * n * n, 7); for (let b = 0; b < cnt; b++) for (let k = 0; k < n; k++) a[b * n * n + k * (n + 1)] += 3;
  const A = Tensor.fromStorage('float32', [cnt, n, n], a).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, n, 1], fill(cnt * n, 8)).to('gpu');
  const X = emptyGpu('float32', [cnt, n, 1], 'p'), I = emptyGpu('int32', [cnt], 'p'), P = emptyGpu('int32', [cnt, n], 'p'), LU = emptyGpu('float32', [cnt, n, n], 'p');
  const u = [{ name: 'count', type: 'u32', value: cnt }, { name: 'nrhs', type: 'u32', value: 1 }, { name: 'use_a', type: 'u32', value: 0 }, { name: 'use_b', type: 'u32', value: 0 }, { name: 'adjoint', type: 'u32', value: 0 }];
  for (const [WG, skip] of [[32, false], [64, false]]) {
    const defs = (mode) => ({ N: n, NN: n * n, F: 1, RC: 1, NRC: n, ENTRY: mode[1], A_GLOBAL: false, MODE_FACTOR: mode[0] === 'F', MODE_SOLVE: mode[0] === 'S', MODE_INV: false, MODE_LUSOLVE: false, HAS_B: mode[0] === 'S' });
    const solve = smallProgram('lu_solve_fused', 'lu/lu.wgsl', 'lu_solve_fused', 'float32', WG, defs(['S', 'lu_solve_fused']));
    await time(`lu solve fused 32x32 x${cnt} wg${WG}${skip ? ' SKIP_FACTOR' : ''}`, 10, () => runProgram(solve, { inputs: [A.gpuStorage(), B.gpuStorage(), dummy.gpuStorage()], outputs: [X.gpuStorage(), I.gpuStorage(), dummy2.gpuStorage()], uniforms: u, workgroups: cnt }), cnt * (n * n + 2 * n) * 4);
    const fac = smallProgram('lu_factor', 'lu/lu.wgsl', 'lu_factor', 'float32', WG, defs(['F', 'lu_factor']));
    await time(`lu factor 32x32 x${cnt} wg${WG}${skip ? ' SKIP_FACTOR' : ''}`, 10, () => runProgram(fac, { inputs: [A.gpuStorage()], outputs: [LU.gpuStorage(), P.gpuStorage(), I.gpuStorage()], uniforms: u, workgroups: cnt }), cnt * n * n * 8);
  }
}
clearInterval(keep); process.exit(0);
