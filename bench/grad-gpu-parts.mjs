// Times the public ops the GDN chunk rules are built from, on the GPU at the rule's batch
// (4,096 × 64×64 float32), to find which one a slow pullback spends its time in.
// Usage (built tree): node bench/grad-gpu-parts.mjs
import * as L from '../dist/src/index.js';

await L.gpu.init();
const B = Number(process.env.PARTS_BATCH ?? 4096), n = 64;
const host = new Float32Array(B * n * n).map(() => Math.random() - 0.5);
const A = L.tensor({ data: host, shape: [B, n, n], dtype: 'float32' }).to('gpu');
const G = L.tensor({ data: host.map((x) => x * 0.5), shape: [B, n, n], dtype: 'float32' }).to('gpu');
const T = L.gdn.invUnitLower(A);
const cases = {
  'invUnitLower (forward)': () => L.gdn.invUnitLower(A),
  'chunkSolve (forward)': () => L.gdn.chunkSolve(A, G),
  adjoint: () => L.adjoint(A),
  'matmul batched': () => L.linalg.matmul(A, G),
  'matmul(adjoint(T), G)': () => L.linalg.matmul(L.adjoint(T), G),
  'tril(x, -1)': () => L.tril(A, -1),
  neg: () => L.neg(A),
  'solveTriangular upper unit (batched)': () => L.linalg.solveTriangular(L.adjoint(A), G, { upper: true, unitriangular: true }),
  'solveTriangular lower unit (batched)': () => L.linalg.solveTriangular(A, G, { upper: false, unitriangular: true }),
  'vjp pullback invUnitLower': (() => { const { pullback } = L.vjp((a) => L.gdn.invUnitLower(a), A); return () => pullback(G)[0]; })(),
  'vjp pullback chunkSolve': (() => { const { pullback } = L.vjp((a, b) => L.gdn.chunkSolve(a, b), A, G); return () => pullback(G)[0]; })(),
};
for (const [name, f] of Object.entries(cases)) {
  for (let i = 0; i < 3; i++) { const r = f(); await L.gpu.sync(); r.dispose?.(); }
  const times = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const r = f();
    await L.gpu.sync();
    times.push(performance.now() - t0);
    r.dispose?.();
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(40)} median ${times[5].toFixed(3)} ms  min ${times[0].toFixed(3)} ms`);
}
process.exit(0);
