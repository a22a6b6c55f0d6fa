// SVD and pseudo-inverse on the CPU against numpy (np.linalg.svd: LAPACK gesdd;
// np.linalg.pinv), mathjs (no SVD; its pinv) and ml-matrix (SingularValueDecomposition,
// pseudoInverse), same sizes, seeded Gaussian data. Suite `svd`.
import { registerSuite, type BenchCase } from '../harness.js';
import { linalg, randn } from '../../src/index.js';

registerSuite('svd', () => {
  const mlMatrix = () => import('ml-matrix');
  const cases: BenchCase[] = [];
  for (const [n, ratio] of [[64, 1.0], [512, 1.5]] as const) {
    const A = randn([n, n], { seed: n });
    const c: BenchCase = {
      name: `dgesvd n=${n} with vectors`,
      lapis: () => { linalg.svd(A, { fullMatrices: false }); },
      python: {
        setup: `a = np.random.default_rng(${n}).standard_normal((${n}, ${n}))`,
        stmt: 'np.linalg.svd(a, full_matrices=False)',
      },
      targets: [{ vs: 'numpy', maxRatio: ratio }],
    };
    if (n === 64) {
      c.peers = async () => {
        const { Matrix, SingularValueDecomposition } = await mlMatrix();
        const mm = new Matrix(A.toArray() as number[][]);
        return { mlMatrix: () => { new SingularValueDecomposition(mm); } };
      };
      c.targets!.push({ vs: 'ml-matrix', maxRatio: 0.05 });
    }
    cases.push(c);
  }
  // Values only at a small and a large size (the small one under the issue-17 target).
  const svdvals = (n: number, seed: number, target?: number) => {
    const A = randn([n, n], { seed });
    cases.push({
      name: `svdvals n=${n}`,
      lapis: () => { linalg.svdvals(A); },
      python: { setup: `a = np.random.default_rng(${seed}).standard_normal((${n}, ${n}))`, stmt: 'np.linalg.svd(a, compute_uv=False)' },
      ...(target ? { targets: [{ vs: 'numpy' as const, maxRatio: target }] } : {}),
    });
    return A;
  };
  svdvals(64, 6, 1.0);
  {
    const n = 512;
    const A = svdvals(n, 5);
    cases.push({
      name: `cond n=${n}`,
      lapis: () => { linalg.cond(A); },
      python: { setup: `a = np.random.default_rng(5).standard_normal((${n}, ${n}))`, stmt: 'np.linalg.cond(a)' },
      targets: [{ vs: 'numpy', maxRatio: 1.0 }],
    });
  }
  for (const [m, n, ratio] of [[512, 256, 1.5], [128, 64, undefined]] as const) {
    const A = randn([m, n], { seed: m * n });
    const c: BenchCase = {
      name: `pinv ${m}×${n}`,
      lapis: () => { linalg.pinv(A); },
      python: {
        setup: `a = np.random.default_rng(${m * n}).standard_normal((${m}, ${n}))`,
        stmt: 'np.linalg.pinv(a)',
      },
      targets: ratio ? [{ vs: 'numpy', maxRatio: ratio }] : [],
    };
    if (m === 128) {
      c.peers = async () => {
        const { Matrix, pseudoInverse } = await mlMatrix();
        const mm = new Matrix(A.toArray() as number[][]);
        return { mlMatrix: () => { pseudoInverse(mm); } };
      };
      c.targets!.push({ vs: 'ml-matrix', maxRatio: 0.05 });
    }
    cases.push(c);
  }
  {
    const m = 512, n = 256, k = 4;
    const A = randn([m, n], { seed: 8 }), B = randn([m, k], { seed: 9 });
    cases.push({
      name: `lstsq ${m}×${n} k=${k}`,
      lapis: () => { linalg.lstsq(A, B); },
      python: {
        setup: `r = np.random.default_rng(8)\na = r.standard_normal((${m}, ${n}))\nb = r.standard_normal((${m}, ${k}))`,
        stmt: 'np.linalg.lstsq(a, b, rcond=None)',
      },
    });
  }
  {
    const n = 128;
    const A = randn([n, n], { dtype: 'complex128', seed: 11 });
    cases.push({
      name: `zgesvd n=${n} complex128 with vectors`,
      lapis: () => { linalg.svd(A, { fullMatrices: false }); },
      python: {
        setup: `r = np.random.default_rng(11)\na = r.standard_normal((${n}, ${n})) + 1j * r.standard_normal((${n}, ${n}))`,
        stmt: 'np.linalg.svd(a, full_matrices=False)',
      },
    });
  }
  return cases;
});
