// Reductions on the CPU against numpy in the same run: full sums of 10M float32 and float64,
// sums over the last and the first dim of a 1000×10000 float64 matrix, max and argmax of 10M
// float32, and three matrix norms. Issue 13's target: sum within 1.5× numpy (numpy is single-threaded here).
import { registerSuite, type BenchCase } from '../harness.js';
import { sum, max, argmax, tensor, linalg, randn } from '../../src/index.js';

const N = 10_000_000;

/** Deterministic data both sides build the same way: a golden-ratio sequence scaled to [lo, hi). */
function golden(n: number, lo: number, hi: number, C: Float64ArrayConstructor | Float32ArrayConstructor): Float64Array | Float32Array {
  const a = new C(n);
  for (let i = 0; i < n; i++) { const f = (i * 0.6180339887498949) % 1; a[i] = lo + (hi - lo) * f; }
  return a;
}
const pyGolden = (n: number, lo: number, hi: number, dt = 'np.float64') =>
  `np.asarray(${lo} + (${hi} - ${lo}) * np.mod(np.arange(${n}, dtype=np.float64) * 0.6180339887498949, 1.0), dtype=${dt})`;

function cases(): BenchCase[] {
  const x32 = tensor({ data: golden(N, -100, 100, Float32Array), shape: [N] });
  const x64 = tensor({ data: golden(N, -100, 100, Float64Array), shape: [N] });
  const m64 = tensor({ data: golden(N, -100, 100, Float64Array), shape: [1000, 10000] });
  const m1k = tensor({ data: golden(1_000_000, -100, 100, Float64Array), shape: [1000, 1000] });
  const z512 = randn([512, 512], { dtype: 'complex128', seed: 5 });
  const sumTarget = [{ vs: 'numpy' as const, maxRatio: 1.5 }];
  const py32 = `x = ${pyGolden(N, -100, 100, 'np.float32')}`;
  const py64 = `x = ${pyGolden(N, -100, 100)}`;
  return [
    {
      name: 'sum f32 n=10M (all)',
      lapis: () => { sum(x32); },
      python: { setup: py32, stmt: 'np.sum(x)' },
      targets: sumTarget,
    },
    {
      name: 'sum f64 n=10M (all)',
      lapis: () => { sum(x64); },
      python: { setup: py64, stmt: 'np.sum(x)' },
      targets: sumTarget,
    },
    {
      name: 'sum f64 1000×10000 dim=-1',
      lapis: () => { sum(m64, { dim: -1 }); },
      python: { setup: `${py64}.reshape(1000, 10000)`, stmt: 'np.sum(x, axis=-1)' },
      targets: sumTarget,
    },
    {
      name: 'sum f64 1000×10000 dim=0',
      lapis: () => { sum(m64, { dim: 0 }); },
      python: { setup: `${py64}.reshape(1000, 10000)`, stmt: 'np.sum(x, axis=0)' },
      targets: sumTarget,
    },
    {
      name: 'max f32 n=10M',
      lapis: () => { max(x32); },
      python: { setup: py32, stmt: 'np.max(x)' },
    },
    {
      name: 'argmax f32 n=10M',
      lapis: () => { argmax(x32); },
      python: { setup: py32, stmt: 'np.argmax(x)' },
    },
    // Norms (linalg.norm): the Frobenius, 1- and ∞-norms of a 1000×1000 float64 matrix, the
    // 2-norm of a 10M float64 vector and the 1-norm of a 512×512 complex128 matrix (|z| per entry).
    {
      name: "norm 'fro' f64 1000×1000",
      lapis: () => { linalg.norm(m1k); },
      python: { setup: `x = ${pyGolden(1_000_000, -100, 100)}.reshape(1000, 1000)`, stmt: 'np.linalg.norm(x)' },
    },
    {
      name: 'norm 1 f64 1000×1000',
      lapis: () => { linalg.norm(m1k, 1); },
      python: { setup: `x = ${pyGolden(1_000_000, -100, 100)}.reshape(1000, 1000)`, stmt: 'np.linalg.norm(x, 1)' },
    },
    {
      name: 'norm ∞ f64 1000×1000',
      lapis: () => { linalg.norm(m1k, Infinity); },
      python: { setup: `x = ${pyGolden(1_000_000, -100, 100)}.reshape(1000, 1000)`, stmt: 'np.linalg.norm(x, np.inf)' },
    },
    {
      name: 'vector norm 2 f64 n=10M',
      lapis: () => { linalg.norm(x64); },
      python: { setup: py64, stmt: 'np.linalg.norm(x)' },
    },
    {
      name: 'norm 1 c128 512×512',
      lapis: () => { linalg.norm(z512, 1); },
      python: {
        setup: 'r = np.random.default_rng(5)\nx = r.standard_normal((512, 512)) + 1j * r.standard_normal((512, 512))',
        stmt: 'np.linalg.norm(x, 1)',
      },
    },
  ];
}

registerSuite('reduce', async () => cases());
