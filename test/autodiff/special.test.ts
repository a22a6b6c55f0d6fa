// Gradients of src/special (src/autodiff/rules/special.ts): heaviside (zero in x, exact in
// values where x is ±0), laguerrePolynomialL (d/dx, both the identity and the series near
// x = 0, against gradcheck and against −Σ_{k<n} L_k(x)), frexp (the mantissa's 2^−e, over
// the whole exponent range).
import { describe, expect, it } from 'vitest';
import { Tensor, tensor, frexp, heaviside, special, sum, mul, grad, vjp } from '../../src/index.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';

const L = special.laguerrePolynomialL;

describe('heaviside gradients', () => {
  it('x gets zero (away from 0: as finite differences say), values the cotangent where x is ±0', () => {
    gradcheck((a, v) => heaviside(a, v), [tensor([-1.5, 0.25, 2, -0.1]), randomTensor([4], 'float64', 1)]);
    gradcheck((a, v) => heaviside(a, v), [tensor([-1, 0, 2, -0]), randomTensor([4], 'float64', 2)], { check: [1] });
    // values broadcast: summed over the zeros of x it reaches
    gradcheck((a, v) => heaviside(a, v), [tensor([[0, 1], [0, -0]]), randomTensor([1], 'float64', 3)], { check: [1] });
    const { pullback } = vjp((a: Tensor, v: Tensor) => heaviside(a, v), tensor([0, 3, -0, -2]), tensor([0.5, 0.5, 0.5, 0.5]));
    const [gx, gv] = pullback(tensor([1, 2, 4, 8]));
    expect(gx.toArray()).toEqual([0, 0, 0, 0]);
    expect(gv.toArray()).toEqual([1, 0, 4, 0]);
  });

  it('a number for values is a constant; x still gets its zero gradient', () => {
    const [g] = grad((a: Tensor) => sum(heaviside(a, 0.5)))(tensor([0, 1, -1]));
    expect(g.toArray()).toEqual([0, 0, 0]);
  });
});

describe('laguerrePolynomialL gradients (in x)', () => {
  it('gradcheck for degrees 0…40, non-integer and negative degrees, tensor degrees (float64, int32, broadcast)', () => {
    const x = randomTensor([6], 'float64', 4);
    for (const n of [0, 1, 2, 3, 5, 12, 2.7, -3]) gradcheck((a) => L(a, n), [x]);
    gradcheck((a) => L(a, 40), [tensor([0.3, 1.7, 4.2, 9.5])]);
    gradcheck((a) => L(a, tensor([[0], [3], [7]])), [tensor([0.2, -1.3, 2.5])]);
    gradcheck((a) => L(a, tensor([4, 9, 1], { dtype: 'int32' })), [tensor([0.7, -0.4, 3.1])]);
  });

  it('near and at x = 0 (the series branch and its boundary |n·x| = 0.5) it matches −Σ_{k<n} L_k(x)', () => {
    for (const n of [1, 3, 8, 30, 400]) {
      const xs = [0, 1e-12, -3e-7, 0.5 / n, -0.5 / n, 0.50001 / n, 0.05, 0.6, 2.5];
      const [g] = grad((a: Tensor) => sum(L(a, n)))(tensor(xs));
      const got = g.dataSync() as Float64Array;
      xs.forEach((v, i) => {
        let want = 0;
        for (let k = 0; k < n; k++) want -= (L(tensor(v), k).toArray() as number);
        expect(Math.abs(got[i] - want)).toBeLessThanOrEqual(1e-11 * Math.max(1, Math.abs(want)));
      });
    }
  });

  it('second derivatives: gradcheck of L′ (through the series and the identity); L₂″ = 1 exactly', () => {
    const d1 = (a: Tensor) => grad((b: Tensor) => sum(L(b, 6)))(a)[0];
    gradcheck(d1, [tensor([0, 1e-4, 0.3, -1.2, 2.5])], { rtol: 1e-6 });
    const [h] = grad((a: Tensor) => sum(grad((b: Tensor) => sum(L(b, 2)))(a)[0]))(tensor([0, 0.5, 3]));
    for (const v of h.toArray() as number[]) expect(v).toBeCloseTo(1, 12);
  });

  it('n gets no gradient; a NaN degree gives NaN; float32 x gets a float32 gradient', () => {
    const [gx, gn] = grad((a: Tensor, n: Tensor) => sum(L(a, n)))(tensor([0.5, 1]), tensor([2, 3]));
    // L₂′(x) = x − 2, L₃′(x) = −x²/2 + 3x − 3
    const gxs = gx.toArray() as number[];
    expect(gxs[0]).toBeCloseTo(-1.5, 14);
    expect(gxs[1]).toBeCloseTo(-0.5, 14);
    expect(gn.toArray()).toEqual([0, 0]);
    const [g] = grad((a: Tensor) => sum(L(a, NaN)))(tensor([0.5, 0]));
    expect((g.toArray() as number[]).every(Number.isNaN)).toBe(true);
    const [g32] = grad((a: Tensor) => sum(L(a, 2)))(tensor([0.5, 4], { dtype: 'float32' }));
    expect(g32.dtype).toBe('float32');
    expect(g32.toArray()).toEqual([-1.5, 2]);
  });
});

describe('frexp gradients (the mantissa; the exponent is an integer output)', () => {
  it('gradcheck across binades', () => {
    gradcheck((a) => frexp(a).mantissa, [tensor([0.3, -0.7, 3.3, -40.1, 1e-5, 7e10])], { eps: 1e-12 });
    gradcheck((a) => frexp(mul(a, 37)).mantissa, [randomTensor([8], 'float64', 5)]);
  });

  it('exactly 2^−e over the whole range: the top binade (2^e overflows), subnormals, 0 / ±Inf / NaN (1)', () => {
    const xs = [1.7e308, -(2 ** 1023), 3 * 2 ** -1074, 2 ** -1022, 0, Infinity, NaN, 6];
    const [g] = grad((a: Tensor) => sum(frexp(a).mantissa))(tensor(xs));
    expect(Array.from(g.dataSync() as Float64Array)).toEqual([2 ** -1024, 2 ** -1024, Infinity, 2 ** 1021, 1, 1, 1, 1 / 8]);
    const [g32] = grad((a: Tensor) => sum(frexp(a).mantissa))(tensor([3e38, 1.5, 0], { dtype: 'float32' }));
    expect(g32.dtype).toBe('float32');
    expect(Array.from(g32.dataSync() as Float32Array)).toEqual([2 ** -128, 0.5, 1]);
  });
});
