import { describe, expect, it } from 'vitest';
import {
  add, mul, sum, neg, sub, linalg, grad, valueAndGrad, vjp, stopGradient, tensor, ArgumentError, DTypeError, Tensor,
} from '../../src/index.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';

const num = (t: Tensor) => t.toArray() as number;

describe('autodiff API', () => {
  it('valueAndGrad of Σ x·y gives y and x', () => {
    const x = tensor([1, 2, 3]), y = tensor([4, 5, 6]);
    const { value, grads } = valueAndGrad((a: Tensor, b: Tensor) => sum(mul(a, b)))(x, y);
    expect(num(value)).toBe(32);
    expect(grads[0].toArray()).toEqual([4, 5, 6]);
    expect(grads[1].toArray()).toEqual([1, 2, 3]);
  });

  it('argnums picks arguments; the same tensor twice gets one gradient per position', () => {
    const x = tensor([1, 2]);
    const [g] = grad((a: Tensor, b: Tensor) => sum(mul(a, b)), { argnums: 1 })(x, tensor([3, 4]));
    expect(g.toArray()).toEqual([1, 2]);
    const gs = grad((a: Tensor, b: Tensor) => sum(mul(a, b)))(x, x);
    expect(gs[0].toArray()).toEqual([1, 2]);
    expect(gs[1].toArray()).toEqual([1, 2]);
  });

  it('broadcast inputs get gradients summed over the broadcast dims', () => {
    const x = tensor([[1, 2, 3], [4, 5, 6]]), b = tensor([10, 20, 30]);
    const [gx, gb] = grad((p: Tensor, q: Tensor) => sum(mul(add(p, q), p)))(x, b);
    expect(gb.toArray()).toEqual([5, 7, 9]);
    expect(gx.toArray()).toEqual([[12, 24, 36], [18, 30, 42]]);
  });

  it('float32 arguments get float32 gradients when an op promotes to float64', () => {
    const x = tensor([1, 2], { dtype: 'float32' });
    const [g] = grad((a: Tensor) => sum(mul(a, tensor([3, 4]))))(x);
    expect(g.dtype).toBe('float32');
    expect(g.toArray()).toEqual([3, 4]);
  });

  it('complex: L = Σ|z|² via z·conj(z) gives 2z (torch convention) through mul', () => {
    const z = randomTensor([3], 'complex128', 5);
    gradcheck((a) => mul(a, a), [z]);
    gradcheck((a, b) => sub(mul(a, b), neg(a)), [z, randomTensor([2, 3], 'complex128', 6)]);
  });

  it('gradcheck: matmul, every vector/matrix/batch combination, real and complex', () => {
    for (const dt of ['float64', 'complex128'] as const) {
      gradcheck((a, b) => linalg.matmul(a, b), [randomTensor([3, 4], dt, 1), randomTensor([4, 2], dt, 2)]);
      gradcheck((a, b) => linalg.matmul(a, b), [randomTensor([4], dt, 3), randomTensor([2, 4, 3], dt, 4)]);
      gradcheck((a, b) => linalg.matmul(a, b), [randomTensor([2, 1, 3, 4], dt, 5), randomTensor([4], dt, 6)]);
      gradcheck((a, b) => linalg.matmul(a, b), [randomTensor([4], dt, 7), randomTensor([4], dt, 8)]);
      gradcheck((a, b) => linalg.matmul(a, b), [randomTensor([2, 3, 4], dt, 9), randomTensor([1, 4, 2], dt, 10)]);
    }
  });

  it('vjp takes structured cotangents and can pull back twice', () => {
    const A = randomTensor([3, 3], 'float64', 11);
    const { value, pullback } = vjp((a: Tensor) => [linalg.matmul(a, a), sum(a)], A);
    const [g1] = pullback([tensor([[1, 0, 0], [0, 0, 0], [0, 0, 0]]), null]);
    const [g2] = pullback([null, tensor(1)]);
    expect(value.length).toBe(2);
    expect(g2.toArray()).toEqual([[1, 1, 1], [1, 1, 1], [1, 1, 1]]);
    // d(A²)[0,0] = Σ_k A0k Ak0: gradient row 0 = A[:,0]ᵀ, column 0 adds A[0,:]
    const a = A.toArray() as number[][], g = g1.toArray() as number[][];
    expect(g[0][1]).toBeCloseTo(a[1][0], 14);
    expect(g[1][0]).toBeCloseTo(a[0][1], 14);
    expect(g[0][0]).toBeCloseTo(2 * a[0][0], 14);
  });

  it('second derivatives: grad of grad of Σ x³ is 6x', () => {
    const x = tensor([1, 2, -3]);
    const dx = (a: Tensor) => grad((b: Tensor) => sum(mul(mul(b, b), b)))(a)[0];
    expect(dx(x).toArray()).toEqual([3, 12, 27]);
    const [h] = grad((a: Tensor) => sum(dx(a)))(x);
    expect(h.toArray()).toEqual([6, 12, -18]);
  });

  it('stopGradient cuts the flow; an untouched argument gets zeros', () => {
    const x = tensor([1, 2]);
    const [g] = grad((a: Tensor) => sum(mul(a, stopGradient(a))))(x);
    expect(g.toArray()).toEqual([1, 2]);
    const [z] = grad((_a: Tensor) => sum(tensor([1, 2])))(x);
    expect(z.toArray()).toEqual([0, 0]);
  });

  it('needsGrad: differentiating only B gives the same B gradient (solve, solveTriangular, luSolve skip Ā)', () => {
    const A = add(randomTensor([4, 4], 'float64', 21), tensor([[4, 0, 0, 0], [0, 4, 0, 0], [0, 0, 4, 0], [0, 0, 0, 4]]));
    const B = randomTensor([4, 3], 'float64', 22);
    const W = randomTensor([4, 3], 'float64', 23);
    const { LU, pivots } = linalg.luFactor(A);
    const fs: Array<(a: Tensor, b: Tensor) => Tensor> = [
      (a, b) => linalg.solve(a, b),
      (a, b) => linalg.solveTriangular(a, b, { upper: true }),
      (a, b) => linalg.luSolve(a, pivots, b),
    ];
    for (const [i, f] of fs.entries()) {
      const M = i === 2 ? LU : A;
      const loss = (a: Tensor, b: Tensor) => sum(mul(f(a, b), W));
      const both = grad(loss)(M, B);
      const only = grad(loss, { argnums: 1 })(M, B);
      expect(only[0].toArray(), `case ${i}`).toEqual(both[1].toArray());
    }
  });

  it('Tensor methods and getters record like the functions they call (T, mT, mH, sum, matmul, slice)', () => {
    const x = randomTensor([3, 3], 'complex128', 31);
    const viaMethods = grad((a: Tensor) => a.T.mul(a.mH).matmul(a.mT).slice('0:2').abs().sum())(x)[0];
    gradcheck((a) => a.T.mul(a.mH).matmul(a.mT).slice('0:2').abs(), [x]);
    expect(viaMethods.shape).toEqual([3, 3]);
  });

  it('clear errors: non-scalar value, integer argument, non-tensor argument, async, no rule', () => {
    const x = tensor([1, 2]);
    expect(() => grad((a: Tensor) => mul(a, a))(x)).toThrow(/real scalar tensor.*shape \[2\]/);
    expect(() => grad((a: Tensor) => sum(a))(tensor([1, 2], { dtype: 'int32' }))).toThrow(DTypeError);
    expect(() => grad((a: Tensor) => sum(a))(tensor([1, 2], { dtype: 'int32' }))).toThrow(/argument 0 is int32/);
    expect(() => grad((a: Tensor, _n: number) => sum(a))(x, 3 as never)).toThrow(/argument 1 is number/);
    expect(() => grad((a: Tensor, _n: number) => sum(a), { argnums: 0 })(x, 3 as never)).not.toThrow();
    expect(() => grad((a: Tensor) => sum(a), { argnums: 2 })(x)).toThrow(ArgumentError);
    expect(() => grad((a: Tensor) => sum(a.mul(tensor([{ re: 1, im: 1 }, 2]))))(x)).toThrow(/real scalar/);
    expect(() => grad((() => Promise.resolve(tensor(1))) as never)(x)).toThrow(/Promise/);
    expect(() => grad((a: Tensor) => sum(a.to('cpu').reshape([2])))(x)).not.toThrow();
  });
});
