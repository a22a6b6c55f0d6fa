// LU, solve, triangular solve, inverse and det on the CPU against numpy/scipy (same sizes,
// seeded Gaussian data), ml-matrix and mathjs. Suites: `lu` and `solve`.
import { registerSuite, type BenchCase } from '../harness.js';
import { jsPeerLibs } from '../js-peers.js';
import { linalg, randn, Tensor } from '../../src/index.js';

const lu = (n: number) => (2 / 3) * n ** 3;

/** A (…, n, n) upper (or unit lower) triangular system that is well conditioned, as in the Python setup. */
function triangularData(n: number, batch: number[], upper: boolean, dtype: 'float32' | 'float64', seed: number): Tensor {
  const t = randn([...batch, n, n], { dtype, seed });
  const d = t.dataSync();
  const count = d.length / (n * n);
  for (let b = 0; b < count; b++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const q = b * n * n + i * n + j;
        if (upper ? j < i : j > i) d[q] = 0;
        else if (i === j) d[q] = upper ? n : 1;
        else d[q] = upper ? d[q] : d[q] / n;
      }
  return t;
}

// An upper-triangular complex128 matrix, diagonal n (well conditioned, as triangularData).
function complexUpper(n: number, seed: number): Tensor {
  const t = randn([n, n], { dtype: 'complex128', seed });
  const d = t.dataSync() as Float64Array;
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      const q = 2 * (i * n + j);
      d[q] = j === i ? n : 0;
      d[q + 1] = 0;
    }
  return t;
}

registerSuite('lu', () => {
  const cases: BenchCase[] = [];
  for (const [n, ratio] of [[64, 1.0], [256, 1.2], [1024, 1.2]] as const) {
    const A = randn([n, n], { seed: n });
    const c: BenchCase = {
      name: `dgetrf n=${n}`,
      flops: lu(n),
      lapis: () => { linalg.luFactorEx(A); },
      python: {
        setup: `import scipy.linalg as sl\na = np.random.default_rng(${n}).standard_normal((${n}, ${n}))`,
        stmt: 'sl.lu_factor(a)',
      },
      targets: [{ vs: 'numpy', maxRatio: ratio }],
    };
    if (n === 256) {
      c.peers = async () => {
        const { math, ml: { Matrix, LuDecomposition } } = await jsPeerLibs();
        const rows = A.toArray() as number[][];
        const mm = new Matrix(rows);
        return { mathjs: () => { math.lup(rows); }, mlMatrix: () => { new LuDecomposition(mm); } };
      };
      c.targets!.push({ vs: 'mathjs', maxRatio: 0.01 }, { vs: 'ml-matrix', maxRatio: 0.01 });
    }
    cases.push(c);
  }
  {
    const n = 256;
    const A = randn([n, n], { dtype: 'complex64', seed: 7 });
    cases.push({
      name: `cgetrf n=${n} complex64`,
      flops: 4 * lu(n),
      lapis: () => { linalg.luFactorEx(A); },
      python: {
        setup: `import scipy.linalg as sl\nr = np.random.default_rng(7)\na = (r.standard_normal((${n}, ${n})) + 1j * r.standard_normal((${n}, ${n}))).astype(np.complex64)`,
        stmt: 'sl.lu_factor(a)',
      },
      targets: [{ vs: 'numpy', maxRatio: 1.3 }],
    });
  }
  // The explicit factors (P, L, U as matrices), as scipy.linalg.lu returns them.
  for (const n of [256, 1024]) {
    const A = randn([n, n], { seed: n });
    cases.push({
      name: `lu P, L, U n=${n}`,
      flops: lu(n),
      lapis: () => { linalg.lu(A); },
      python: {
        setup: `import scipy.linalg as sl\na = np.random.default_rng(${n}).standard_normal((${n}, ${n}))`,
        stmt: 'sl.lu(a)',
      },
      targets: [{ vs: 'numpy', maxRatio: 1.0 }],
    });
  }
  {
    const n = 256;
    const A = randn([n, n], { seed: 9 });
    cases.push({
      name: `dgetri inv n=${n}`,
      flops: 2 * n ** 3,
      lapis: () => { linalg.invEx(A); },
      python: { setup: `a = np.random.default_rng(9).standard_normal((${n}, ${n}))`, stmt: 'np.linalg.inv(a)' },
    });
    cases.push({
      name: `det n=${n}`,
      flops: lu(n),
      lapis: () => { linalg.det(A); },
      python: { setup: `a = np.random.default_rng(9).standard_normal((${n}, ${n}))`, stmt: 'np.linalg.det(a)' },
    });
  }
  return cases;
});

registerSuite('solve', () => {
  const cases: BenchCase[] = [];
  {
    const n = 1024, k = 64;
    const A = randn([n, n], { seed: 1 }), B = randn([n, k], { seed: 2 });
    cases.push({
      name: `dgesv n=${n} k=${k}`,
      flops: lu(n) + 2 * n * n * k,
      lapis: () => { linalg.solveEx(A, B); },
      python: {
        setup: `r = np.random.default_rng(1)\na = r.standard_normal((${n}, ${n}))\nb = r.standard_normal((${n}, ${k}))`,
        stmt: 'np.linalg.solve(a, b)',
      },
      targets: [{ vs: 'numpy', maxRatio: 1.2 }],
    });
  }
  {
    const n = 1024, k = 64;
    const A = triangularData(n, [], true, 'float64', 3), B = randn([n, k], { seed: 4 });
    cases.push({
      name: `dtrsm n=${n} k=${k} upper`,
      flops: n * n * k,
      lapis: () => { linalg.solveTriangular(A, B, { upper: true }); },
      python: {
        setup: `import scipy.linalg as sl\nr = np.random.default_rng(3)\na = np.triu(r.standard_normal((${n}, ${n})))\n` +
          `np.fill_diagonal(a, ${n})\nb = r.standard_normal((${n}, ${k}))`,
        stmt: 'sl.solve_triangular(a, b)',
      },
      targets: [{ vs: 'numpy', maxRatio: 1.3 }],
    });
  }
  // The same solve in float32 and complex128 (issue 17 asks for every dtype).
  for (const dtype of ['float32', 'complex128'] as const) {
    const n = 1024, k = 64, cx = dtype === 'complex128';
    const A = cx ? complexUpper(n, 7) : triangularData(n, [], true, dtype, 3), B = randn([n, k], { dtype, seed: 4 });
    const cast = cx ? '' : '.astype(np.float32)';
    cases.push({
      name: `${cx ? 'z' : 's'}trsm n=${n} k=${k} upper`,
      flops: (cx ? 4 : 1) * n * n * k,
      lapis: () => { linalg.solveTriangular(A, B, { upper: true }); },
      python: {
        setup: `import scipy.linalg as sl\nr = np.random.default_rng(3)\na = np.triu(r.standard_normal((${n}, ${n})))` +
          (cx ? ` + 1j * np.triu(r.standard_normal((${n}, ${n})))` : '') + `\nnp.fill_diagonal(a, ${n})\na = a${cast}\n` +
          `b = (r.standard_normal((${n}, ${k}))` + (cx ? ` + 1j * r.standard_normal((${n}, ${k}))` : '') + `)${cast}`,
        stmt: 'sl.solve_triangular(a, b)',
      },
      targets: [{ vs: 'numpy', maxRatio: 1.3 }],
    });
  }
  {
    const n = 256;
    const A = randn([n, n], { dtype: 'complex128', seed: 5 }), B = randn([n, 1], { dtype: 'complex128', seed: 6 });
    cases.push({
      name: `zgesv n=${n} complex128`,
      flops: 4 * (lu(n) + 2 * n * n),
      lapis: () => { linalg.solveEx(A, B); },
      python: {
        setup: `r = np.random.default_rng(5)\na = r.standard_normal((${n}, ${n})) + 1j * r.standard_normal((${n}, ${n}))\n` +
          `b = r.standard_normal((${n}, 1)) + 1j * r.standard_normal((${n}, 1))`,
        stmt: 'np.linalg.solve(a, b)',
      },
      targets: [{ vs: 'numpy', maxRatio: 1.3 }],
    });
  }
  {
    const count = 100_000, n = 8;
    const A = randn([count, n, n], { seed: 7 }), B = randn([count, n, 1], { seed: 8 });
    cases.push({
      name: `batched dgesv ${count}× ${n}×${n}`,
      flops: count * (lu(n) + 2 * n * n),
      lapis: () => { linalg.solveEx(A, B); },
      python: {
        setup: `r = np.random.default_rng(7)\na = r.standard_normal((${count}, ${n}, ${n}))\nb = r.standard_normal((${count}, ${n}, 1))`,
        stmt: 'np.linalg.solve(a, b)',
      },
      targets: [{ vs: 'numpy', maxRatio: 0.1 }],
    });
  }
  {
    // The chunked delta-rule shape (issue 5, CPU): unit-lower 64×64 systems with 64 RHS.
    // scipy has no batched trsm, so its peer is a loop of solve_triangular (strtrs).
    const count = 4096, n = 64, k = 64;
    const A = triangularData(n, [count], false, 'float32', 9), B = randn([count, n, k], { dtype: 'float32', seed: 10 });
    cases.push({
      name: `batched strsm ${count}× unit-lower ${n}×${n}, ${k} RHS`,
      flops: count * n * n * k,
      lapis: () => { linalg.solveTriangular(A, B, { upper: false, unitriangular: true }); },
      python: {
        setup: `import scipy.linalg as sl\nr = np.random.default_rng(9)\n` +
          `a = (np.tril(r.standard_normal((${count}, ${n}, ${n})), -1) / ${n} + np.eye(${n})).astype(np.float32)\n` +
          `b = r.standard_normal((${count}, ${n}, ${k})).astype(np.float32)`,
        stmt: `for i in range(${count}): sl.solve_triangular(a[i], b[i], lower=True, unit_diagonal=True, check_finite=False)`,
      },
      targets: [{ vs: 'numpy', maxRatio: 0.2 }],
    });
  }
  return cases;
});
