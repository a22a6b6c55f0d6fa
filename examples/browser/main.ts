// examples/browser: lapis in a web page (docs/browser.md). Build: `npm run build:browser`
// at the repository root, then `npx vite build examples/browser` (or `npx vite
// examples/browser` to serve it). The bundler picks lapis's browser bundle through
// package.json's "browser" condition (vite.config.ts).
import { linalg, randn, eye, gpu, cpuBackend, type Tensor } from 'lapis';

const out = document.getElementById('out')!;
const lines: string[] = [];
function print(line: string): void {
  lines.push(line);
  out.textContent = lines.join('\n');
}

/** ‖X‖_F as a number (CPU tensors). */
function fro(X: Tensor): number {
  return Number(linalg.norm(X).dataSync()[0]);
}

const results: Record<string, number> = {};
function report(name: string, residual: number): void {
  results[name] = residual;
  print(`${name.padEnd(44)} ${residual.toExponential(2)}`);
}

async function main(): Promise<void> {
  out.textContent = '';
  print(`CPU backend: ${cpuBackend()}`);

  // solve: A·x = b, 300×300, float64
  const A = randn([300, 300], { seed: 1 });
  const b = randn([300, 1], { seed: 2 });
  const t0 = performance.now();
  const x = linalg.solve(A, b);
  const ms = performance.now() - t0;
  report(`solve 300×300 (${ms.toFixed(1)} ms): ‖Ax − b‖/(‖A‖‖x‖)`, fro(A.matmul(x).sub(b)) / (fro(A) * fro(x)));

  // pinv of a rank-deficient 80×50 matrix (rank 20): the Penrose condition A·A⁺·A = A
  const R = randn([80, 20], { seed: 3 }).matmul(randn([20, 50], { seed: 4 }));
  const P = linalg.pinv(R);
  report('pinv 80×50, rank 20: ‖A·A⁺·A − A‖/‖A‖', fro(R.matmul(P).matmul(R).sub(R)) / fro(R));
  print(`  matrixRank: ${linalg.matrixRank(R).dataSync()[0]}`);

  // SVD of a 120×70 matrix: A = U·diag(S)·Vh
  const M = randn([120, 70], { seed: 5 });
  const { U, S, Vh } = linalg.svd(M, { fullMatrices: false });
  report('svd 120×70: ‖A − U·S·Vh‖/‖A‖', fro(U.mul(S).matmul(Vh).sub(M)) / fro(M));
  print(`  largest and smallest singular values: ${S.dataSync()[0].toFixed(3)}, ${S.dataSync()[69].toFixed(3)}`);

  // GPU: 100,000 4×4 inverses in one kernel (float32)
  if (!(await gpu.available())) {
    print('GPU: no WebGPU adapter in this browser (chrome://gpu says why); the CPU results above stand');
    return;
  }
  const info = gpu.info()!;
  print(`GPU: ${[info.vendor, info.architecture, info.description].filter(Boolean).join(' ')}${info.isSoftware ? ' (software)' : ''}`);
  const count = 100_000;
  const As = randn([count, 4, 4], { dtype: 'float32', seed: 6 }).add(eye(4, { dtype: 'float32' }).mul(4));
  const g0 = performance.now();
  const Xs = linalg.inv(As.to('gpu'));
  const Xh = await Xs.toAsync('cpu');
  const gms = performance.now() - g0;
  const I = eye(4, { dtype: 'float32' });
  const each = { dim: [-2, -1] } as const;
  const ratio = linalg.norm(As.matmul(Xh).sub(I), 'fro', each).div(linalg.norm(As, 'fro', each).mul(linalg.norm(Xh, 'fro', each)));
  report(`inv ${count.toLocaleString('en')}×4×4 on the GPU (${gms.toFixed(0)} ms): max ‖AX − I‖/(‖A‖‖X‖)`, Number(ratio.max().dataSync()[0]));
}

main().then(
  () => Object.assign(window, { lapisExample: { done: true, results } }),
  (e: Error) => {
    print(`error: ${e.name}: ${e.message}`);
    Object.assign(window, { lapisExample: { done: true, results, error: `${e.name}: ${e.message}` } });
  },
);
