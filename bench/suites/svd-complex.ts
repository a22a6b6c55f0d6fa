// Complex SVD on the CPU against numpy (np.linalg.svd: LAPACK zgesdd/cgesdd with vectors,
// the same without): complex64 and complex128, with and without vectors, square and tall,
// seeded Gaussian data (re and im both standard normal). Suite `svd-complex`; the
// complex128 n = 128 case with vectors is also in `svd` (issue 17's zgesvd row).
import { registerSuite, type BenchCase } from '../harness.js';
import { linalg, randn } from '../../src/index.js';

registerSuite('svd-complex', () => {
  const cases: BenchCase[] = [];
  const gen = (m: number, n: number, seed: number, dt: 'complex64' | 'complex128') =>
    `r = np.random.default_rng(${seed})\n` +
    `a = (r.standard_normal((${m}, ${n})) + 1j * r.standard_normal((${m}, ${n}))).astype(np.${dt})`;
  for (const dtype of ['complex64', 'complex128'] as const) {
    const lap = dtype === 'complex64' ? 'cgesvd' : 'zgesvd';
    for (const [m, n] of [[64, 64], [128, 128], [256, 256], [512, 256]] as const) {
      const seed = 31 * m + n;
      const A = randn([m, n], { dtype, seed });
      cases.push({
        name: `${lap} ${m}×${n} ${dtype} with vectors`,
        lapis: () => { linalg.svd(A, { fullMatrices: false }); },
        python: { setup: gen(m, n, seed, dtype), stmt: 'np.linalg.svd(a, full_matrices=False)' },
      });
    }
    for (const n of [128, 512]) {
      const A = randn([n, n], { dtype, seed: 7 * n });
      cases.push({
        name: `svdvals ${n}×${n} ${dtype}`,
        lapis: () => { linalg.svdvals(A); },
        python: { setup: gen(n, n, 7 * n, dtype), stmt: 'np.linalg.svd(a, compute_uv=False)' },
      });
    }
  }
  return cases;
});
