// Gradients of the elementwise and reduction rules on the GPU (float32 / complex64): the
// backward runs on the GPU (the gradients are GPU tensors) and agrees with the float64 /
// complex128 CPU gradient of the same function (gradDistance, relative to the largest entry).
// Few shapes and ops per program, so lavapipe compiles a small set of pipelines.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  add, sub, mul, div, pow, minimum, maximum, abs, sign, sqrt, exp, log, sin, cos, tanh, sigmoid, conj, real, imag, angle,
  clamp, where, gt, sum, mean, prod, max, min, maxWithIndices, cast, grad, gpu, Tensor,
} from '../../src/index.js';
import { setElementwiseOpsByUniform } from '../../src/backend/gpu/elementwise.js';
import { gradDistance, randomTensor } from '../helpers/gradcheck.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();
// On a software adapter one kernel per (dtype, path) with the op by uniform: lavapipe takes
// ~0.4 s per kernel, and the specialised set of this file's ops runs to dozens (a real GPU keeps them).
beforeAll(() => { if (gpu.info()?.isSoftware) setElementwiseOpsByUniform(true); });
afterAll(() => setElementwiseOpsByUniform(false));

type Wide = 'float64' | 'complex128';
const narrow = (d: Wide) => (d === 'float64' ? 'float32' : 'complex64');

/** The gradient of Re Σ conj(W)·f(args) on the GPU in float32/complex64 vs on the CPU in float64/complex128. */
async function compare(f: (...a: Tensor[]) => Tensor, args: Tensor[], outShape: number[], outDtype: Wide): Promise<number> {
  const W = randomTensor(outShape, outDtype, 99);
  const loss = (w: Tensor) => (...a: Tensor[]) => sum(real(mul(f(...a), conj(w))));
  const ref = grad(loss(W))(...args);
  const gpuArgs = args.map((a) => cast(a, narrow(a.dtype as Wide)).to('gpu'));
  const got = grad(loss(cast(W, narrow(outDtype)).to('gpu')))(...gpuArgs);
  got.forEach((g, i) => {
    expect(g.device).toBe('gpu');
    expect(g.dtype).toBe(gpuArgs[i].dtype);
    expect(g.shape).toEqual(args[i].shape);
  });
  return gradDistance(got, ref);
}

/** Real parts in [0.6, 1.1): logs, roots and divisors stay away from 0. */
const positive = (shape: number[], dtype: Wide, seed: number) => add(abs(randomTensor(shape, 'float64', seed)), 0.6).cast(dtype);

describe('gpu autodiff: elementwise and reductions vs the float64 CPU gradient', () => {
  gpuIt('real elementwise ops with broadcasting', async () => {
    const x = randomTensor([3, 4], 'float64', 1), y = positive([4], 'float64', 2);
    const f = (a: Tensor, b: Tensor) => add(
      add(div(mul(exp(a), sin(b)), b), pow(sigmoid(a), 2)),
      add(mul(tanh(a), cos(a)), add(sqrt(b), log(b))),
    );
    expect(await compare(f, [x, y], [3, 4], 'float64')).toBeLessThan(1e-4);
    const g = (a: Tensor, b: Tensor) => add(
      where(gt(a, 0), maximum(a, sub(b, 1)), minimum(a, -0.1)),
      add(clamp(a, -0.2, 0.3), pow(b, a)),
    );
    expect(await compare(g, [x, y], [3, 4], 'float64')).toBeLessThan(1e-4);
  }, 300_000);

  gpuIt('complex elementwise ops (holomorphic and torch\'s non-holomorphic rules)', async () => {
    const z = randomTensor([3, 4], 'complex128', 3), w = positive([4], 'complex128', 4);
    const f = (a: Tensor, b: Tensor) => add(mul(div(exp(a), b), conj(a)), add(sqrt(b), mul(sign(a), imag(b))));
    expect(await compare(f, [z, w], [3, 4], 'complex128')).toBeLessThan(1e-4);
    const g = (a: Tensor) => add(mul(abs(a), angle(a)), real(mul(a, a)));
    expect(await compare(g, [z], [3, 4], 'float64')).toBeLessThan(1e-4);
  }, 300_000);

  gpuIt('reductions: sum, mean, prod, max/min (ties split), maxWithIndices', async () => {
    const x = randomTensor([2, 3, 4], 'float64', 5);
    const f = (a: Tensor) => add(
      add(sum(a, { dim: 0 }), mul(mean(a, { dim: [0, 2], keepDims: true }), 2)),
      add(prod(a, { dim: 0 }), mul(max(a, { dim: 0 }), min(a))),
    );
    expect(await compare(f, [x], [3, 4], 'float64')).toBeLessThan(1e-4);
    const g = (a: Tensor) => add(maxWithIndices(a, 1, { keepDims: true }).values, prod(a, { dim: 1, keepDims: true }));
    expect(await compare(g, [x], [2, 1, 4], 'float64')).toBeLessThan(1e-4);
    const z = randomTensor([3, 4], 'complex128', 6);
    expect(await compare((a: Tensor) => prod(a, { dim: -1 }), [z], [3], 'complex128')).toBeLessThan(1e-4);
    // ties (exact in float32 too): an even split on the GPU as on the CPU
    const t = randomTensor([2, 4], 'float64', 7).mul(0).add(1);
    expect(await compare((a: Tensor) => max(a, { dim: 1 }), [t], [2], 'float64')).toBeLessThan(1e-6);
  }, 300_000);
});
