// Gradients of the LU family (luFactor, lu, luSolve, solveTriangular, solve, inv, det, slogdet
// and their Ex forms): finite-difference gradchecks in float64 and complex128 on well-
// conditioned inputs, every option, batches and broadcasting, and the singular cases.
import { describe, expect, it } from 'vitest';
import { add, mul, sum, real, conj, cast, linalg, grad, vjp, tensor, eye, Tensor } from '../../src/index.js';
import { gradcheck, gradDistance, randomTensor } from '../helpers/gradcheck.js';
import { Tape, pushTape, popTape } from '../../src/core/grad.js';

type Dt = 'float64' | 'complex128';
const DTS: Dt[] = ['float64', 'complex128'];

/** Random (…, n, n) + n·I: well conditioned, and partial pivoting never swaps. */
function wc(shape: number[], dt: Dt, seed: number): Tensor {
  const n = shape[shape.length - 1];
  return add(randomTensor(shape, dt, seed), mul(eye(n, { dtype: dt }), n));
}

/** Random (…, m, n) plus a large entry per column in rows picked by `rows`: nontrivial, stable pivots. */
function pivoted(shape: number[], dt: Dt, seed: number, rows: number[]): Tensor {
  const [m, n] = shape.slice(-2);
  const big = new Float64Array(m * n);
  rows.forEach((r, j) => { if (j < n) big[r * n + j] = 4 + j; });
  return add(randomTensor(shape, dt, seed), tensor({ data: big, shape: [m, n] }));
}

describe('gradients of luFactor and lu', () => {
  it('luFactor: the packed LU, square with pivoting, batched, real and complex', () => {
    for (const dt of DTS) {
      const piv = linalg.luFactor(pivoted([3, 3], dt, 1, [2, 0, 1])).pivots.toArray();
      expect(piv).not.toEqual([1, 2, 3]);
      gradcheck((a) => linalg.luFactor(a).LU, [pivoted([3, 3], dt, 1, [2, 0, 1])]);
      gradcheck((a) => linalg.luFactor(a).LU, [pivoted([2, 4, 4], dt, 2, [1, 3, 0, 2])]);
      gradcheck((a) => linalg.luFactorEx(a).LU, [pivoted([4, 4], dt, 3, [3, 2, 1, 0])]);
    }
  });

  it('luFactor: rectangular (tall and wide)', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.luFactor(a).LU, [pivoted([5, 3], dt, 4, [4, 1, 2])]);
      gradcheck((a) => linalg.luFactor(a).LU, [pivoted([3, 5], dt, 5, [2, 0, 1])]);
      gradcheck((a) => linalg.luFactor(a).LU, [pivoted([2, 4, 2], dt, 6, [3, 0])]);
    }
  });

  it('lu: P·L·U, square and rectangular, L or U alone', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.lu(a), [pivoted([3, 3], dt, 7, [1, 2, 0])]);
      gradcheck((a) => linalg.lu(a), [pivoted([4, 3], dt, 8, [3, 0, 2])]);
      gradcheck((a) => linalg.lu(a), [pivoted([2, 3, 4], dt, 9, [2, 1, 0])]);
      gradcheck((a) => linalg.lu(a).U, [pivoted([3, 3], dt, 10, [1, 0, 2])]);
      gradcheck((a) => linalg.lu(a).L, [pivoted([3, 3], dt, 11, [1, 0, 2])]);
    }
  });

  it('a zero pivot gives NaN gradients (luFactorEx, lu), not silent numbers', () => {
    const A = tensor([[1, 2, 3], [2, 4, 6], [1, 0, 1]]);
    const { pullback } = vjp((a: Tensor) => linalg.luFactorEx(a).LU, A);
    const [g] = pullback(tensor([[1, 1, 1], [1, 1, 1], [1, 1, 1]]));
    expect((g.toArray() as number[][]).flat().every(Number.isNaN)).toBe(true);
    const [gl] = grad((a: Tensor) => sum(linalg.lu(a).U))(A);
    expect((gl.toArray() as number[][]).flat().every(Number.isNaN)).toBe(true);
  });
});

describe('gradients of luSolve', () => {
  it('LU and B, every left/adjoint combination, real and complex', () => {
    for (const dt of DTS) {
      const A = pivoted([3, 3], dt, 12, [2, 0, 1]);
      const { LU, pivots } = linalg.luFactor(A);
      for (const left of [true, false]) {
        for (const adjoint of [false, true]) {
          const B = randomTensor(left ? [3, 2] : [2, 3], dt, 13);
          gradcheck((lu, b) => linalg.luSolve(lu, pivots, b, { left, adjoint }), [LU, B]);
        }
      }
    }
  });

  it('broadcast batch dims of LU and B', () => {
    for (const dt of DTS) {
      const { LU, pivots } = linalg.luFactor(pivoted([2, 1, 3, 3], dt, 14, [1, 2, 0]));
      gradcheck((lu, b) => linalg.luSolve(lu, pivots, b), [LU, randomTensor([4, 3, 2], dt, 15)]);
      gradcheck((lu, b) => linalg.luSolve(lu, pivots, b, { left: false, adjoint: true }), [LU, randomTensor([4, 2, 3], dt, 16)]);
    }
  });
});

describe('gradients of solveTriangular', () => {
  it('upper/lower × left/right × unitriangular, real and complex; only the read triangle gets gradient', () => {
    for (const dt of DTS) {
      for (const upper of [true, false]) {
        for (const left of [true, false]) {
          for (const unitriangular of [false, true]) {
            const A = wc([3, 3], dt, 17);
            const B = randomTensor(left ? [3, 2] : [2, 3], dt, 18);
            gradcheck((a, b) => linalg.solveTriangular(a, b, { upper, left, unitriangular }), [A, B]);
            const [gA] = grad((a: Tensor) => sum(linalg.solveTriangularEx(a, B.dtype === 'float64' ? B : B, { upper, left, unitriangular }).solution.abs()))(A);
            const g = gA.toArray() as unknown[][];
            for (let i = 0; i < 3; i++) {
              for (let j = 0; j < 3; j++) {
                const outside = upper ? j < i : j > i;
                if (outside || (unitriangular && i === j)) expect(g[i][j]).toEqual(dt === 'float64' ? 0 : { re: 0, im: 0 });
              }
            }
          }
        }
      }
    }
  });

  it('batched with broadcasting', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => linalg.solveTriangular(a, b, { upper: true }), [wc([2, 1, 3, 3], dt, 19), randomTensor([4, 3, 2], dt, 20)]);
    }
  });
});

describe('gradients of solve', () => {
  it('left and right, matrix and vector B, real and complex', () => {
    for (const dt of DTS) {
      for (const left of [true, false]) {
        gradcheck((a, b) => linalg.solve(a, b, { left }), [wc([3, 3], dt, 21), randomTensor(left ? [3, 2] : [2, 3], dt, 22)]);
        gradcheck((a, b) => linalg.solve(a, b, { left }), [wc([3, 3], dt, 23), randomTensor([3], dt, 24)]);
        gradcheck((a, b) => linalg.solveEx(a, b, { left }).result, [wc([2, 3, 3], dt, 25), randomTensor([2, 3], dt, 26)]);
      }
    }
  });

  it('broadcasting batch dims: A (2,1,3,3) with B (4,3,2); real A with complex B', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => linalg.solve(a, b), [wc([2, 1, 3, 3], dt, 27), randomTensor([4, 3, 2], dt, 28)]);
      gradcheck((a, b) => linalg.solve(a, b, { left: false }), [wc([2, 1, 3, 3], dt, 29), randomTensor([4, 2, 3], dt, 30)]);
    }
    gradcheck((a, b) => linalg.solve(a, b), [wc([3, 3], 'float64', 31), randomTensor([3, 2], 'complex128', 32)]);
  });

  it('second derivatives through solve (the backward recomputes differentiably under an outer tape)', () => {
    const b = randomTensor([3], 'float64', 34);
    const inner = (a: Tensor) => grad((x: Tensor) => sum(mul(linalg.solve(x, b), linalg.solve(x, b))))(a)[0];
    gradcheck((a) => inner(a), [wc([3, 3], 'float64', 33)], { rtol: 1e-5 });
  });

  it('second derivatives through inv, det, slogdet, solveTriangular and luSolve', () => {
    const W = randomTensor([3, 3], 'float64', 47);
    const hvp = (f: (x: Tensor) => Tensor) => (a: Tensor) => mul(grad((x: Tensor) => f(x))(a)[0], W);
    const A = wc([3, 3], 'float64', 48), B = randomTensor([3, 2], 'float64', 49);
    gradcheck(hvp((x) => sum(mul(linalg.inv(x), W))), [A], { rtol: 1e-5 });
    gradcheck(hvp((x) => linalg.det(x)), [A], { rtol: 1e-5 });
    gradcheck(hvp((x) => linalg.slogdet(x).logabsdet), [A], { rtol: 1e-5 });
    gradcheck(hvp((x) => sum(mul(linalg.solveTriangular(x, B, { upper: true }), B))), [A], { rtol: 1e-5 });
    const { pivots } = linalg.luFactor(A);
    gradcheck(hvp((x) => sum(mul(linalg.luSolve(x, pivots, B, { adjoint: true }), B))), [linalg.luFactor(A).LU], { rtol: 1e-5 });
    const P = pivoted([3, 3], 'float64', 57, [2, 0, 1]);
    gradcheck(hvp((x) => sum(mul(linalg.luFactor(x).LU, W))), [P], { rtol: 1e-5 });
    gradcheck(hvp((x) => sum(mul(linalg.lu(x).U, W))), [P], { rtol: 1e-5 });
  });

  it('solveEx of a singular matrix: NaN gradients for that batch element only', () => {
    const A = tensor([[[1, 2], [2, 4]], [[2, 0], [0, 3]]]);
    const [gA, gB] = grad((a: Tensor, b: Tensor) => sum(linalg.solveEx(a, b).result))(A, tensor([[1, 1], [1, 1]]));
    const ga = gA.toArray() as number[][][], gb = gB.toArray() as number[][];
    expect(ga[0].flat().every(Number.isNaN)).toBe(true);
    expect(ga[1].flat().every(Number.isFinite)).toBe(true);
    expect(gb[0].every(Number.isNaN)).toBe(true);
  });
});

describe('gradients of inv', () => {
  it('inv and invEx, batched, real and complex', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.inv(a), [wc([3, 3], dt, 35)]);
      gradcheck((a) => linalg.inv(a), [wc([2, 5, 5], dt, 36)]);
      gradcheck((a) => linalg.invEx(a).inverse, [wc([4, 4], dt, 37)]);
    }
  });

  it('invEx of a singular matrix: NaN gradient', () => {
    const [g] = grad((a: Tensor) => sum(linalg.invEx(a).inverse))(tensor([[1, 2], [2, 4]]));
    expect((g.toArray() as number[][]).flat().every(Number.isNaN)).toBe(true);
  });
});

describe('gradients of det and slogdet', () => {
  it('det: batched, real and complex, with pivoting', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.det(a), [pivoted([3, 3], dt, 38, [2, 0, 1])]);
      gradcheck((a) => linalg.det(a), [randomTensor([2, 4, 4], dt, 39)]);
    }
  });

  it('det at singular matrices (rank n−1 and exact zeros): the adjugate, as torch', () => {
    for (const dt of DTS) {
      // rank 2: row 3 = row 1 + row 2
      const r = randomTensor([2, 3], dt, 40);
      const A = tensor({ data: new Float64Array([...r.dataSync() as Float64Array, ...(() => {
        const d = r.dataSync() as Float64Array, w = dt === 'float64' ? 1 : 2;
        return Array.from({ length: 3 * w }, (_, i) => d[i] + d[3 * w + i]);
      })()]), shape: [3, 3], dtype: dt });
      gradcheck((a) => linalg.det(a), [A], { rtol: 1e-6 });
      gradcheck((a) => linalg.det(a), [tensor([[[1, 2, 0], [0, 0, 0], [3, 1, 2]], [[2, 1, 0], [1, 2, 0], [0, 0, 3]]], { dtype: dt })]);
    }
    // rank n−2: the adjugate is 0
    const [g] = grad((a: Tensor) => linalg.det(a))(tensor([[1, 2, 3], [2, 4, 6], [3, 6, 9]]));
    expect(Math.max(...(g.toArray() as number[][]).flat().map(Math.abs))).toBeLessThan(1e-12);
  });

  it('slogdet: logabsdet and (complex) sign, batched', () => {
    for (const dt of DTS) {
      gradcheck((a) => linalg.slogdet(a), [pivoted([3, 3], dt, 41, [1, 2, 0])]);
      gradcheck((a) => linalg.slogdet(a).logabsdet, [randomTensor([2, 4, 4], dt, 42)]);
    }
    gradcheck((a) => linalg.slogdet(a).sign, [randomTensor([3, 3], 'complex128', 43)]);
  });

  it('slogdet of a singular matrix: NaN gradient', () => {
    const [g] = grad((a: Tensor) => linalg.slogdet(a).logabsdet)(tensor([[1, 2], [2, 4]]));
    expect((g.toArray() as number[][]).flat().every(Number.isNaN)).toBe(true);
  });

  it('the forward under a tape matches the plain forward (det/slogdet/solve from kept factors)', () => {
    for (const dt of DTS) {
      const A = randomTensor([2, 4, 4], dt, 44), B = randomTensor([2, 4, 3], dt, 45);
      const { value } = vjp((a: Tensor, b: Tensor) => [linalg.det(a), linalg.slogdet(a), linalg.solve(a, b)], A, B);
      const close = (x: Tensor, y: Tensor) => {
        const p = x.dataSync() as Float64Array, q = y.dataSync() as Float64Array;
        p.forEach((v, i) => expect(Math.abs(v - q[i])).toBeLessThan(1e-12 * Math.max(1, Math.abs(q[i]))));
      };
      close(value[0] as Tensor, linalg.det(A));
      close((value[1] as { logabsdet: Tensor }).logabsdet, linalg.slogdet(A).logabsdet);
      close((value[1] as { sign: Tensor }).sign, linalg.slogdet(A).sign);
      close(value[2] as Tensor, linalg.solve(A, B));
    }
  });

  it('async forms refuse tracked arguments', async () => {
    const A = wc([3, 3], 'float64', 46);
    const calls: [string, (a: Tensor) => Promise<unknown>][] = [
      ['invAsync', (a) => linalg.invAsync(a)],
      ['solveAsync', (a) => linalg.solveAsync(a, [1, 2, 3])],
      ['luFactorAsync', (a) => linalg.luFactorAsync(a)],
    ];
    for (const [name, call] of calls) {
      let p: Promise<unknown> | null = null;
      grad((a: Tensor) => { p = call(a); return sum(a); })(A);
      await expect(p).rejects.toThrow(new RegExp(`${name}: not differentiable`));
    }
  });
});

describe('kept factors and single precision', () => {
  /** The `saved` of the node `name` recorded by one call of f on a tape tracking xs. */
  function savedOf(name: string, f: (...x: Tensor[]) => unknown, xs: Tensor[]): unknown {
    const tape = new Tape();
    xs.forEach((x) => tape.track(x));
    pushTape(tape);
    try { f(...xs); } finally { popTape(tape); }
    return tape.nodes.find((n) => n.name === name)!.saved;
  }

  it('recorded solve, solveEx, det and slogdet keep their LU factors (the backward does not factor again)', () => {
    const A = wc([2, 4, 4], 'float64', 50);
    const cases: [string, (...x: Tensor[]) => unknown, Tensor[]][] = [
      ['solve', (a, b) => linalg.solve(a, b, { left: false }), [A, randomTensor([2, 3, 4], 'float64', 51)]],
      ['solveEx', (a, b) => linalg.solveEx(a, b), [A, randomTensor([2, 4, 3], 'float64', 52)]],
      ['det', (a) => linalg.det(a), [A]],
      ['slogdet', (a) => linalg.slogdet(a), [A]],
    ];
    for (const [name, f, xs] of cases) {
      const s = savedOf(name, f, xs) as { LU: Tensor; pivots: Tensor } | undefined;
      expect(s?.LU.shape, name).toEqual([2, 4, 4]);
      expect(s?.pivots.dtype, name).toBe('int32');
    }
    // a zero pivot: the fused kernel runs (its NaN and info conventions) and nothing is kept
    expect(savedOf('solveEx', (a, b) => linalg.solveEx(a, b), [tensor([[1, 2], [2, 4]]), tensor([1, 1])])).toBeUndefined();
  });

  it('float32 / complex64 CPU gradients agree with float64 / complex128 ones', async () => {
    for (const dt of DTS) {
      const nar = dt === 'float64' ? 'float32' : 'complex64';
      const A = pivoted([2, 3, 3], dt, 53, [2, 0, 1]), B = randomTensor([2, 3, 2], dt, 54);
      const W = randomTensor([2, 3, 2], dt, 55), w = randomTensor([2], dt, 56);
      const loss = (ww: Tensor, wd: Tensor) => (a: Tensor, b: Tensor) => add(add(
        sum(real(mul(linalg.solve(a, b), conj(ww)))), sum(real(mul(linalg.det(a), conj(wd))))),
      add(sum(real(linalg.inv(a))), sum(real(linalg.luFactor(a).LU))));
      const ref = grad(loss(W, w))(A, B);
      const got = grad(loss(cast(W, nar), cast(w, nar)))(cast(A, nar), cast(B, nar));
      expect(got[0].dtype).toBe(nar);
      expect(await gradDistance(got, ref)).toBeLessThan(1e-4);
    }
  });
});
