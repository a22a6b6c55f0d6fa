// Unit-lower triangular solves (the Gated DeltaNet path, docs/gpu-small.md): the kernel
// alone (outputs allocated once, R dispatches per submit, best of 5) for both kernels on the
// same data, the API call, and torch on the same GPU
// when python3 has CUDA torch. Imports only dist/src. From the project root after
// `npx tsc -p .`:   node bench/gdn-kernels.mjs     (GDN_COUNT shrinks the batch; GDN_TORCH=0 skips torch)
import { spawnSync } from 'node:child_process';
const root = process.cwd() + '/dist/src/';
const { gpu, Tensor, gdn } = await import(root + 'index.js');
const { runProgram } = await import(root + 'backend/gpu/program.js');
const { unitLowerPlan, unitLowerProgram, unitLowerV4Program, solveTriangularGpu } = await import(root + 'backend/gpu/trsm.js');
const { planBatch } = await import(root + 'core/batch.js');
const { emptyGpu } = await import(root + 'backend/gpu/tensor-ops.js');
const { gpuSync } = await import(root + 'backend/gpu/queue.js');
const info = await gpu.init();
console.log(info.description, process.env.LAPIS_DAWN_FLAGS ?? '(robustness on)');
gpu.memory({ maxPooledBytes: 48 * 2 ** 30 });
function fill(n, seed, scale = 1) { const a = new Float32Array(n); let s = seed; for (let i = 0; i < n; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; a[i] = (s / 2147483648 - 1) * scale; } return a; }
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
  console.log(`${name.padEnd(52)} ${best.toFixed(4)} ms  (host ${(recT * 1000).toFixed(0)} us)${bytes ? `  ${(bytes / best / 1e6).toFixed(0)} GB/s` : ''}`);
  return best;
}
const cnt = +(process.env.GDN_COUNT || 4096);
const dummy = emptyGpu('int32', [1], 'p');
const shapes = [[64, 64], [32, 32], [16, 16]];
for (const [C, k] of shapes) {
  const a = fill(cnt * C * C, 3, 0.5 / Math.sqrt(C));
  for (let m = 0; m < cnt; m++) for (let i = 0; i < C; i++) a[(m * C + i) * C + i] = NaN; // unread diagonal
  const A = Tensor.fromStorage('float32', [cnt, C, C], a).to('gpu');
  const B = Tensor.fromStorage('float32', [cnt, C, k], fill(cnt * C * k, 4)).to('gpu');
  const X = emptyGpu('float32', [cnt, C, k], 'p');
  const bytes = cnt * (C * C * 4 + C * k * 8);
  const u = { count: cnt, nrhs: k, use_a: 0, use_b: 0 };
  const io = { inputs: { A: A.gpuStorage(), B: B.gpuStorage(), amap: dummy.gpuStorage(), bmap: dummy.gpuStorage() }, outputs: { X: X.gpuStorage() } };
  console.log(`-- ${C}x${C}, ${k} RHS, batch ${cnt} (${(bytes / 1e6).toFixed(0)} MB moved if A is read whole)`);
  // column per thread (trsm_unit_lower.wgsl): KC from the RHS count, 64- or 128-thread groups
  for (const wg of process.env.GDN_SWEEP ? [64, 128] : [64]) {
    const L = unitLowerPlan(C, k, wg);
    const cb = Math.ceil(k / L.KC), tasks = cnt * cb;
    const prog = unitLowerProgram(C, L);
    const uu = { ...u, cblocks: cb, tasks };
    await time(`column kernel KC${L.KC} G${L.G} (wg ${L.WG})${wg === 64 && k % 4 !== 0 ? ' = API path' : ''}`, 50, () => runProgram(prog, { ...io, uniforms: uu, workgroups: Math.ceil(tasks / L.G) }), bytes);
    if (wg === 64) {
      await time(`column kernel, ONE system (per-dispatch cost)`, 50, () => runProgram(prog, { ...io, uniforms: { ...u, count: 1, cblocks: cb, tasks: cb }, workgroups: Math.ceil(cb / L.G) }), 0);
    }
  }
  if (k % 4 === 0) {
    // four RHS columns per thread (trsm_unit_lower_v4.wgsl), three workgroup sizes
    const cv = k / 4, tasks = cnt * cv;
    const uv = { ...u, cv, tasks };
    for (const wg of [64, 128, 256]) {
      const prog = unitLowerV4Program(C, wg);
      await time(`v4 kernel (4 columns per thread) wg ${wg}${wg === (C === 64 ? 256 : 64) ? ' = API path' : ''}`, 50, () => runProgram(prog, { ...io, uniforms: uv, workgroups: Math.ceil(tasks / wg) }), bytes);
    }
    await time(`v4 kernel, ONE system (per-dispatch cost)`, 50, () => runProgram(unitLowerV4Program(C, 64), { ...io, uniforms: { ...u, count: 1, cv, tasks: cv }, workgroups: 1 }), 0);
  }
  // correctness of the API result against a float64 host substitution on sampled systems
  const Xa = await gdn.chunkSolve(A, B).data();
  const bv = fill(cnt * C * k, 4);
  let worst = 0;
  for (const m of [0, cnt >> 1, cnt - 1]) for (let i = 0; i < C; i++) for (let j = 0; j < k; j++) {
    let r = Xa[(m * C + i) * k + j] - bv[(m * C + i) * k + j];
    for (let q = 0; q < i; q++) r += a[(m * C + i) * C + q] * Xa[(m * C + q) * k + j];
    worst = Math.max(worst, Math.abs(r));
  }
  console.log(`API result: max |(I+L)X - B| on 3 sampled systems = ${worst.toExponential(2)}${worst < 1e-4 ? '' : '  WRONG'}`);
  {
    // host-cost probes: a fresh output per call (rotating through 50, as the API's pool does)
    // and the allocation alone, to split the API's extra host time
    const L = unitLowerPlan(C, k), cb = Math.ceil(k / L.KC), tasks = cnt * cb;
    const uu = { ...u, cblocks: cb, tasks };
    const prog = C === 64 ? null : unitLowerProgram(C, L);
    if (prog) {
      const outs = Array.from({ length: 50 }, () => emptyGpu('float32', [cnt, C, k], 'p'));
      let i = 0;
      await time(`column kernel, 50 distinct outputs`, 50, () => runProgram(prog, { ...io, outputs: { X: outs[i++ % 50].gpuStorage() }, uniforms: uu, workgroups: Math.ceil(tasks / L.G) }), bytes);
      for (const o of outs) o.dispose();
    }
    await time(`host: emptyGpu(X) + 2 dummies + dispose, no dispatch`, 50, () => { emptyGpu('float32', [cnt, C, k], 'p').dispose(); emptyGpu('int32', [1], 'p').dispose(); emptyGpu('int32', [1], 'p').dispose(); }, 0);
  }
  await time(`API gdn.chunkSolve (50 per sync)`, 50, () => gdn.chunkSolve(A, B).dispose(), bytes);
  await time(`API gdn.chunkSolve (1 per sync)`, 1, () => gdn.chunkSolve(A, B).dispose(), bytes);
  // the GPU entry with each unit-lower kernel named (the API takes v4 for multiples of 4)
  const plan = planBatch(A, B, 'bench'), opts = { upper: false, unitriangular: true };
  for (const kernel of k % 4 === 0 ? ['unitLowerV4', 'unitLower'] : ['unitLower']) {
    await time(`solveTriangularGpu, ${kernel} (50 per sync)`, 50, () => solveTriangularGpu(A, B, plan, opts, kernel).X.dispose(), bytes);
  }
  A.dispose(); B.dispose(); X.dispose();
}
if (process.env.GDN_TORCH !== '0') {
  const py = `
import torch, sys
dev = 'cuda'
cnt = ${cnt}
print('torch', torch.__version__, torch.cuda.get_device_name(0))
def t(name, f, R, nbytes=0):
    f(); torch.cuda.synchronize()
    best = 1e9
    for _ in range(5):
        s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(R): f()
        e.record(); torch.cuda.synchronize()
        best = min(best, s.elapsed_time(e) / R)
    print(f"{name:<52} {best:.4f} ms" + (f"  {nbytes/best/1e6:.0f} GB/s" if nbytes else ''))
for C, k in ${JSON.stringify(shapes)}:
    g = torch.Generator(device=dev).manual_seed(C)
    a = torch.tril(torch.rand(cnt, C, C, device=dev, generator=g) - 0.5, -1) / C**0.5 + torch.eye(C, device=dev)
    b = torch.rand(cnt, C, k, device=dev, generator=g)
    print(f"-- torch {C}x{C}, {k} RHS, batch {cnt}")
    t('torch.linalg.solve_triangular (50 per sync)', lambda: torch.linalg.solve_triangular(a, b, upper=False, unitriangular=True), 50)
    t('torch.linalg.solve_triangular (1 per sync)', lambda: torch.linalg.solve_triangular(a, b, upper=False, unitriangular=True), 1)
    t('torch copy of A and B (clone)', lambda: (a.clone(), b.clone()), 50, 2 * (a.numel() + b.numel()) * 4)
`;
  const r = spawnSync('python3', ['-c', py], { encoding: 'utf8' });
  process.stdout.write(r.stdout || ''); if (r.status !== 0) process.stdout.write(`torch run failed: ${r.stderr?.slice(-500)}\n`);
}
process.exit(0);
