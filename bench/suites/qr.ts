// Householder QR on the CPU against numpy (np.linalg.qr, reduced: geqrf + orgqr) on the
// same sizes and seeded Gaussian data, and against mathjs / ml-matrix at a small size.
// Suite `qr`.
import { registerSuite, type BenchCase } from '../harness.js';
import { jsPeerLibs } from '../js-peers.js';
import { linalg, randn } from '../../src/index.js';

// geqrf + orgqr, reduced Q (LAPACK's operation counts).
const qrFlops = (m: number, n: number) => 2 * m * n * n - (2 / 3) * n ** 3 + (2 * m * n * n - (2 / 3) * n ** 3);

registerSuite('qr', () => {
  const cases: BenchCase[] = [];
  for (const [m, n, ratio] of [[1024, 1024, 1.2], [2048, 256, 1.2], [256, 256, undefined], [64, 64, undefined]] as const) {
    const A = randn([m, n], { seed: m + n });
    const c: BenchCase = {
      name: `dgeqrf+dorgqr ${m}×${n}`,
      flops: qrFlops(m, n),
      lapis: () => { linalg.qr(A); },
      python: {
        setup: `a = np.random.default_rng(${m + n}).standard_normal((${m}, ${n}))`,
        stmt: 'np.linalg.qr(a)',
      },
      targets: ratio ? [{ vs: 'numpy', maxRatio: ratio }] : undefined,
    };
    if (m === 64) {
      c.peers = async () => {
        const { math, ml: { Matrix, QrDecomposition } } = await jsPeerLibs();
        const rows = A.toArray() as number[][];
        const mm = new Matrix(rows);
        return {
          mathjs: () => { math.qr(rows); },
          mlMatrix: () => { const q = new QrDecomposition(mm); void q.orthogonalMatrix; },
        };
      };
    }
    cases.push(c);
  }
  {
    const n = 256;
    const A = randn([n, n], { dtype: 'complex128', seed: 3 });
    cases.push({
      name: `zgeqrf+zungqr ${n}×${n} complex128`,
      flops: 4 * qrFlops(n, n),
      lapis: () => { linalg.qr(A); },
      python: {
        setup: `r = np.random.default_rng(3)\na = r.standard_normal((${n}, ${n})) + 1j * r.standard_normal((${n}, ${n}))`,
        stmt: 'np.linalg.qr(a)',
      },
    });
  }
  return cases;
});
