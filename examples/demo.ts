// `npm run demo`: lapis at work on the best device present.
import { performance } from 'node:perf_hooks';
import { linalg, randn, tensor, gpu, numThreads, gemmKernel, frexp, special, type Tensor } from '../src/index.js';
import * as gdn from '../src/gdn/index.js';

const ms = (t0: number) => `${(performance.now() - t0).toFixed(1)} ms`;
const fmt = (x: number) => x.toExponential(2);

/** max over a batch of ‖B − A·X‖∞ / (‖A‖∞·‖X‖∞·eps): LAPACK's backward-error ratio. */
function solveRatio(A: Float64Array, X: Float64Array, B: Float64Array, count: number, n: number, k: number): number {
  let worst = 0;
  for (let b = 0; b < count; b++) {
    let nA = 0, nX = 0, nR = 0;
    for (let i = 0; i < n; i++) {
      let ra = 0;
      for (let j = 0; j < n; j++) ra += Math.abs(A[b * n * n + i * n + j]);
      nA = Math.max(nA, ra);
      let rx = 0;
      for (let j = 0; j < k; j++) rx += Math.abs(X[b * n * k + i * k + j]);
      nX = Math.max(nX, rx);
      let rr = 0;
      for (let j = 0; j < k; j++) {
        let s = B[b * n * k + i * k + j];
        for (let p = 0; p < n; p++) s -= A[b * n * n + i * n + p] * X[b * n * k + p * k + j];
        rr += Math.abs(s);
      }
      nR = Math.max(nR, rr);
    }
    worst = Math.max(worst, nR / (nA * nX * 2.220446049250313e-16));
  }
  return worst;
}

async function main(): Promise<void> {
  console.log('lapis demo');
  console.log(`  CPU: ${numThreads()} threads, GEMM micro-kernels: ${gemmKernel()}`);
  const haveGpu = await gpu.available();
  const info = gpu.info();
  console.log(haveGpu && info
    ? `  GPU: ${info.description || info.vendor} (${info.isSoftware ? 'software adapter' : 'hardware'})`
    : '  GPU: no WebGPU adapter found — running on the CPU only');
  const device = haveGpu && info && !info.isSoftware ? 'gpu' : 'cpu';
  console.log(`  best device: ${device}\n`);

  // 1. A batch of small systems in one call.
  {
    const count = 100_000, n = 8;
    const A = randn([count, n, n], { seed: 1 });
    const B = randn([count, n, 1], { seed: 2 });
    const t0 = performance.now();
    const { result: X, info: st } = linalg.solveEx(A, B);
    const t = ms(t0);
    const bad = Array.from(st.dataSync() as Int32Array).filter((v) => v !== 0).length;
    const r = solveRatio(A.dataSync() as Float64Array, X.dataSync() as Float64Array, B.dataSync() as Float64Array, 1000, n, 1);
    console.log(`solve: ${count.toLocaleString()} 8×8 systems (float64) in ${t}; singular: ${bad}; backward-error ratio ${r.toFixed(2)} (LAPACK's bound: 30)`);
  }

  // 2. A large LU-based solve and the determinant.
  {
    const n = 1024;
    const A = randn([n, n], { seed: 3 });
    const B = randn([n, 64], { seed: 4 });
    let t0 = performance.now();
    const X = linalg.solve(A, B);
    const ts = ms(t0);
    t0 = performance.now();
    const { sign, logabsdet } = linalg.slogdet(A);
    console.log(`solve: 1024×1024 with 64 right-hand sides in ${ts}; slogdet = (${(sign.dataSync() as Float64Array)[0]}, ${(logabsdet.dataSync() as Float64Array)[0].toFixed(3)}) in ${ms(t0)}`);
    // The tensor API: the residual B − A·X, its largest entry, and a printed block.
    const R = B.sub(A.matmul(X));
    const worst = R.abs().max({ dim: 0 }).max();
    console.log(`  residual: max |B − A·X| = ${fmt(worst.toArray() as number)}; X[:2, :3] =\n${X.slice(':2', ':3').toString().replace(/^/gm, '    ')}`);
  }

  // 3. Least squares and the pseudo-inverse on a rank-deficient matrix.
  {
    const m = 128, n = 64, r = 32;
    const L = randn([m, r], { seed: 5 }), R = randn([r, n], { seed: 6 });
    const A = linalg.matmul(L, R); // rank 32
    const t0 = performance.now();
    const P = linalg.pinv(A);
    const t = ms(t0);
    const APA = linalg.matmul(linalg.matmul(A, P), A).dataSync() as Float64Array;
    const a = A.dataSync() as Float64Array;
    let num = 0, den = 0;
    for (let i = 0; i < a.length; i++) { num += (APA[i] - a[i]) ** 2; den += a[i] ** 2; }
    const rank = linalg.matrixRank(A);
    console.log(`pinv: 128×64 of rank ${(rank.dataSync() as Int32Array | Float64Array)[0]} in ${t}; ‖A·A⁺·A − A‖/‖A‖ = ${fmt(Math.sqrt(num / den))} (mathjs's pinv gives ≈ 9 here)`);
    const b = randn([m, 1], { seed: 7 });
    const { solution, rank: rk } = linalg.lstsq(A, b);
    console.log(`lstsq: minimum-norm solution of a rank-${(rk.dataSync() as Int32Array)[0]} problem, ‖x‖ = ${Math.hypot(...(solution.dataSync() as Float64Array)).toFixed(4)}`);
    const s = linalg.svdvals(tensor([[1, 0], [0, 1e-300]])).dataSync();
    console.log(`svd: singular values of diag(1, 1e-300): [${Array.from(s).map(fmt).join(', ')}]`);
  }

  // 4. Elementwise.
  {
    const { mantissa, exponent } = frexp(tensor([8, 0.3, 5e-324, -0]));
    console.log(`frexp([8, 0.3, 5e-324, -0]) → mantissa [${Array.from(mantissa.dataSync()).join(', ')}], exponent [${Array.from(exponent.dataSync()).join(', ')}]`);
    const L = special.laguerrePolynomialL(tensor([0.5, 10, 100]), 1000);
    console.log(`L_1000([0.5, 10, 100]) = [${Array.from(L.dataSync()).map(fmt).join(', ')}]`);
  }

  // 5. On the GPU: batched tiny inverses and the Gated DeltaNet chunk solves.
  if (haveGpu) {
    const count = info!.isSoftware ? 65_536 : 4_194_304;
    const A = randn([count, 4, 4], { dtype: 'float32', seed: 8 }).to('gpu');
    linalg.inv(A).dispose();
    await gpu.sync();
    let t0 = performance.now();
    const X = linalg.inv(A);
    await gpu.sync();
    console.log(`\ngpu inv: ${count.toLocaleString()} 4×4 float32 matrices in ${ms(t0)}`);
    const x = await X.data();
    console.log(`  first inverse row: [${Array.from(x.subarray(0, 4)).map((v) => v.toFixed(4)).join(', ')}]`);
    X.dispose(); A.dispose();

    const heads = info!.isSoftware ? 8 : 4096, C = 64;
    const Ah = randn([heads, C, C], { dtype: 'float32', seed: 9 }).dataSync() as Float32Array;
    for (let i = 0; i < Ah.length; i++) Ah[i] *= 0.1; // chunk coefficients are small: well-conditioned I + A
    const Ag = tensor({ data: Ah, shape: [heads, C, C] }).to('gpu');
    const Bg = randn([heads, C, C], { dtype: 'float32', seed: 10 }).to('gpu');
    gdn.chunkSolve(Ag, Bg).dispose();
    await gpu.sync();
    t0 = performance.now();
    const Y: Tensor = gdn.chunkSolve(Ag, Bg);
    await gpu.sync();
    console.log(`gpu gdn.chunkSolve: ${heads.toLocaleString()} unit-lower 64×64 systems with 64 right-hand sides in ${ms(t0)}`);
    Y.dispose(); Ag.dispose(); Bg.dispose();
  }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
