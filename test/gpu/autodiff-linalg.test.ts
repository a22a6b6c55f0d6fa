// Gradients of the LU family on the GPU (float32 / complex64): the backward runs on the GPU
// (GPU gradients) and agrees with the float64 / complex128 CPU gradient of the same function
// (gradDistance ≤ 1e-4 relative to the largest entry; the inputs are well conditioned).
// One small size (3×3, a batch of 2) so lavapipe compiles few pipelines.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { add, mul, sum, real, conj, cast, eye, grad, gpu, linalg, tensor, Tensor } from '../../src/index.js';
import { setElementwiseOpsByUniform } from '../../src/backend/gpu/elementwise.js';
import { tensorLeaves } from '../../src/core/grad.js';
import { isComplex } from '../../src/core/dtype.js';
import { gradDistance, randomTensor } from '../helpers/gradcheck.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();
// On a software adapter one elementwise kernel per (dtype, path), the op by uniform: the rules use
// a dozen elementwise ops, and lavapipe compiles each specialised kernel in ~0.4 s.
beforeAll(() => { if (gpu.info()?.isSoftware) setElementwiseOpsByUniform(true); });
afterAll(() => setElementwiseOpsByUniform(false));

type Wide = 'float64' | 'complex128';
const narrow = (d: Wide) => (d === 'float64' ? 'float32' : 'complex64');
const DTS: Wide[] = ['float64', 'complex128'];

/** Random (…, n, n) + n·I: well conditioned, no pivoting. */
const wc = (shape: number[], dt: Wide, seed: number) =>
  add(randomTensor(shape, dt, seed), mul(eye(shape[shape.length - 1], { dtype: dt }), shape[shape.length - 1]));

/** Random plus a large entry per column in the rows given: partial pivoting swaps, stably. */
function pivoted(shape: number[], dt: Wide, seed: number, rows: number[]): Tensor {
  const [m, n] = shape.slice(-2);
  const big = new Float64Array(m * n);
  rows.forEach((r, j) => { big[r * n + j] = 4 + j; });
  return add(randomTensor(shape, dt, seed), tensor({ data: big, shape: [m, n] }));
}

/** The gradient of Re Σ conj(W)·f(args) (every floating output leaf) on the GPU vs the CPU reference. */
async function compare(f: (...a: Tensor[]) => unknown, args: Tensor[]): Promise<number> {
  const leaves = (v: unknown) => tensorLeaves(v).filter((t) => t.dtype !== 'int32');
  const shapes = leaves(f(...args)).map((t) => ({ shape: t.shape, dtype: (isComplex(t.dtype) ? 'complex128' : 'float64') as Wide }));
  const Ws = shapes.map((s, i) => randomTensor(s.shape, s.dtype, 90 + i));
  const loss = (ws: Tensor[]) => (...a: Tensor[]) => {
    const ys = leaves(f(...a));
    return ys.map((y, i) => sum(real(mul(y, conj(ws[i]))))).reduce((p, q) => add(p, q));
  };
  const ref = grad(loss(Ws))(...args);
  const gpuArgs = args.map((a) => cast(a, narrow(a.dtype as Wide)).to('gpu'));
  const got = grad(loss(Ws.map((w) => cast(w, narrow(w.dtype as Wide)).to('gpu'))))(...gpuArgs);
  got.forEach((g, i) => {
    expect(g.device).toBe('gpu');
    expect(g.dtype).toBe(gpuArgs[i].dtype);
  });
  return gradDistance(got, ref);
}

describe('gpu autodiff: the LU family vs the float64 CPU gradient', () => {
  gpuIt('solve (left, right, vector, broadcast batch) and solveEx', async () => {
    for (const dt of DTS) {
      expect(await compare((a, b) => linalg.solve(a, b), [wc([2, 1, 3, 3], dt, 1), randomTensor([2, 3, 2], dt, 2)])).toBeLessThan(1e-4);
      expect(await compare((a, b) => linalg.solve(a, b, { left: false }), [wc([3, 3], dt, 3), randomTensor([3], dt, 4)])).toBeLessThan(1e-4);
      expect(await compare((a, b) => linalg.solveEx(a, b).result, [wc([2, 3, 3], dt, 5), randomTensor([2, 3, 2], dt, 6)])).toBeLessThan(1e-4);
    }
  }, 120_000);

  gpuIt('inv, invEx, det, slogdet', async () => {
    for (const dt of DTS) {
      const A = pivoted([2, 3, 3], dt, 7, [2, 0, 1]);
      expect(await compare((a) => linalg.inv(a), [A])).toBeLessThan(1e-4);
      expect(await compare((a) => linalg.invEx(a).inverse, [A])).toBeLessThan(1e-4);
      expect(await compare((a) => linalg.det(a), [A])).toBeLessThan(1e-4);
      expect(await compare((a) => linalg.slogdet(a), [A])).toBeLessThan(1e-4);
    }
  }, 120_000);

  gpuIt('luFactor (square, tall, wide), lu and luSolve (every option)', async () => {
    for (const dt of DTS) {
      const real = dt === 'float64';
      expect(await compare((a) => linalg.luFactor(a).LU, [pivoted([2, 3, 3], dt, 8, [2, 0, 1])])).toBeLessThan(1e-4);
      // rectangular: tall in float32, wide in complex64 (each shape compiles its own LU kernels)
      if (real) expect(await compare((a) => linalg.luFactorEx(a).LU, [pivoted([4, 3], dt, 9, [3, 0, 2])])).toBeLessThan(1e-4);
      else expect(await compare((a) => linalg.luFactor(a).LU, [pivoted([3, 4], dt, 10, [1, 2, 0])])).toBeLessThan(1e-4);
      expect(await compare((a) => linalg.lu(a), [pivoted([3, 3], dt, 11, [1, 2, 0])])).toBeLessThan(1e-4);
      const A = pivoted([3, 3], dt, 12, [2, 0, 1]);
      const options = real ? [[true, false], [true, true], [false, false], [false, true]] : [[true, true], [false, false]];
      for (const [left, adjoint] of options) {
        // the factors are made on each side from its own A, so both sides see their own pivots
        const f = (a: Tensor, b: Tensor) => {
          const { LU, pivots } = linalg.luFactor(a);
          return linalg.luSolve(LU, pivots, b, { left, adjoint });
        };
        expect(await compare(f, [A, randomTensor(left ? [3, 2] : [2, 3], dt, 13)])).toBeLessThan(1e-4);
      }
    }
  }, 180_000);

  gpuIt('solveTriangular: upper/lower, left/right, unitriangular', async () => {
    for (const dt of DTS) {
      for (const [upper, left, unitriangular] of [[true, true, false], [false, false, true], [true, false, true], [false, true, false]]) {
        const f = (a: Tensor, b: Tensor) => linalg.solveTriangular(a, b, { upper, left, unitriangular });
        expect(await compare(f, [wc([2, 3, 3], dt, 14), randomTensor(left ? [2, 3, 2] : [2, 2, 3], dt, 15)])).toBeLessThan(1e-4);
      }
    }
  }, 120_000);
});
