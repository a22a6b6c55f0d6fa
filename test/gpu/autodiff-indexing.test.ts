// Gradients of the shape/indexing ops, of src/special and of tensor(t, { dtype }) on the GPU:
// the pullback of a float32/complex64 GPU forward (its backward runs on the GPU: put,
// take, split, concat, eye products there) against the float64/complex128 CPU pullback of
// the same inputs, ≤ 1e-4 relative (gradDistance). Each rule is linear in the cotangent
// (or an elementwise formula), so float32 rounding is the only difference.
import { describe, expect } from 'vitest';
import {
  Tensor, tensor, vjp, grad, sum, transpose, permute, adjoint, expand, diagonal, triu, tril, trace, slice, concat, stack,
  split, take, put, heaviside, frexp, special, ArgumentError,
} from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { gradDistance, randomTensor } from '../helpers/gradcheck.js';

useGpu();

type Wide = 'float64' | 'complex128';
const narrow = (d: Wide) => (d === 'float64' ? 'float32' : 'complex64');
const toGpu = (t: Tensor) => tensor(t, { dtype: narrow(t.dtype as Wide), device: 'gpu' });

/** The GPU pullback of f at args (float32/complex64) against the CPU one (float64/complex128). */
async function compare(f: (...a: Tensor[]) => Tensor, args: Tensor[], tol = 1e-4): Promise<Tensor[]> {
  const ref = vjp(f, ...args);
  const W = randomTensor(ref.value.shape, ref.value.dtype as Wide, 99);
  const want = ref.pullback(W);
  const gpu = vjp(f, ...args.map(toGpu));
  expect(gpu.value.device).toBe('gpu');
  const got = gpu.pullback(toGpu(W));
  for (const g of got) expect(g.device).toBe('gpu');
  expect(await gradDistance(got, want)).toBeLessThanOrEqual(tol);
  return got;
}

describe('GPU gradients of the shape and indexing ops vs float64 CPU', () => {
  gpuIt('transpose, permute, adjoint (complex), expand, triu/tril, trace', async () => {
    for (const dt of ['float64', 'complex128'] as const) {
      const x = randomTensor([2, 3, 4], dt, 1);
      await compare((a) => permute(transpose(a, 0, -1), [1, -1, 0]), [x]);
      await compare((a) => adjoint(a), [x]);
      await compare((a) => triu(tril(expand(a, [2, 2, 3, 4]), 1), -1), [x]);
      await compare((a) => trace(a), [x]);
    }
  });

  gpuIt('diagonal (offset, dims), slice (negative steps), take with repeated indices', async () => {
    for (const dt of ['float64', 'complex128'] as const) {
      const x = randomTensor([3, 2, 4], dt, 2);
      await compare((a) => diagonal(a, { offset: -1, dim1: 0, dim2: 2 }), [x]);
      await compare((a) => slice(a, '::-2', null, '3:0:-2'), [x]);
      await compare((a) => take(a, [0, 7, 7, -1, 7]), [x]);
    }
  });

  gpuIt('take / put with a GPU int32 index: repeated indices (last writer, accumulate)', async () => {
    const idxCpu = tensor(Int32Array.from([4, 1, 4, -1, 0]));
    const idxGpu = tensor(Int32Array.from([4, 1, 4, -1, 0]), { device: 'gpu' });
    const x = randomTensor([2, 3], 'float64', 3), v = randomTensor([5], 'float64', 4);
    for (const accumulate of [false, true]) {
      const W = randomTensor([2, 3], 'float64', 5);
      const want = vjp((a: Tensor, b: Tensor) => put(a, idxCpu, b, { accumulate }), x, v).pullback(W);
      const got = vjp((a: Tensor, b: Tensor) => put(a, idxGpu, b, { accumulate }), toGpu(x), toGpu(v)).pullback(toGpu(W));
      expect(await gradDistance(got, want)).toBeLessThanOrEqual(1e-4);
    }
    const W = randomTensor([5], 'complex128', 6), xc = randomTensor([6], 'complex128', 7);
    const want = vjp((a: Tensor) => take(a, idxCpu), xc).pullback(W);
    const got = vjp((a: Tensor) => take(a, idxGpu), toGpu(xc)).pullback(toGpu(W));
    expect(await gradDistance(got, want)).toBeLessThanOrEqual(1e-4);
  });

  gpuIt('concat, stack, split (an unused chunk)', async () => {
    const a = randomTensor([2, 3], 'complex128', 8), b = randomTensor([2, 3], 'complex128', 9);
    await compare((p, q) => concat([p, q, p], -1), [a, b]);
    await compare((p, q) => stack([p, q], 1), [a, b]);
    await compare((p) => split(p, [1, 2], 1)[1], [a]);
  });
});

describe('GPU gradients of src/special and tensor() vs float64 CPU', () => {
  gpuIt('heaviside (values where x is 0), laguerrePolynomialL (series and identity), frexp', async () => {
    const x = tensor([-1, 0, 0.5, 0, 2, -0.25]);
    await compare((a, v) => heaviside(a, v), [x, randomTensor([6], 'float64', 10)]);
    const y = tensor([0, 1e-3, 0.04, 0.3, -0.7, 1.9, 3.5]);
    await compare((a) => special.laguerrePolynomialL(a, 6), [y]);
    await compare((a, n) => special.laguerrePolynomialL(a, n), [y, tensor([0, 1, 2, 3, 4, 5, 6])]);
    await compare((a) => frexp(a).mantissa, [tensor([0.3, -7.5, 1e-3, 4e5, 0])]);
  });

  gpuIt('tensor(t, { dtype }) on the GPU is recorded; moving a tracked tensor off the GPU is refused', async () => {
    const x = randomTensor([2, 3], 'float64', 11);
    const got = await compare((a) => tensor(a, { dtype: a.device === 'gpu' ? 'complex64' : 'complex128' }), [x]);
    expect(got[0].dtype).toBe('float32');
    const xg = toGpu(x);
    expect(() => grad((a: Tensor) => sum(tensor(a, { device: 'cpu' })))(xg)).toThrow(ArgumentError);
  });
});
