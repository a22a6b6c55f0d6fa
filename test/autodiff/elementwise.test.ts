// Gradient checks of the elementwise rules (src/autodiff/rules/elementwise.ts) against
// central finite differences (float64 / complex128), with broadcasting, 0-d and batch
// shapes, JS-scalar operands, and torch's values at the singular points.
import { describe, expect, it } from 'vitest';
import {
  add, sub, mul, div, pow, minimum, maximum, neg, abs, sign, sqrt, exp, log, log1p, expm1, sin, cos, tanh,
  sigmoid, conj, real, imag, angle, clamp, where, cast, sum, grad, tensor, Tensor, gt, eq, ne, logicalAnd,
} from '../../src/index.js';
import { gradcheck, randomTensor, rng } from '../helpers/gradcheck.js';

type Dt = 'float64' | 'complex128';
const DTS: readonly Dt[] = ['float64', 'complex128'];

/** Random entries pushed away from 0 and the negative real axis: 0.6 + |u| in the real part. */
function awayFromZero(shape: number[], dtype: Dt, seed: number): Tensor {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1) * (dtype === 'complex128' ? 2 : 1);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = dtype === 'complex128' && i % 2 === 1 ? r() : 0.6 + Math.abs(r());
  return tensor({ data: d, shape, dtype });
}

const vals = (t: Tensor) => t.toArray();

describe('autodiff: elementwise arithmetic', () => {
  it('add, sub, mul, neg with broadcasting, 0-d and batch dims, real and complex', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => add(a, b), [randomTensor([2, 1, 3], dt, 1), randomTensor([4, 1], dt, 2)]);
      gradcheck((a, b) => sub(a, b), [randomTensor([3], dt, 3), randomTensor([2, 3], dt, 4)]);
      gradcheck((a, b) => mul(a, b), [randomTensor([], dt, 5), randomTensor([2, 3], dt, 6)]);
      gradcheck((a) => neg(a), [randomTensor([2, 2], dt, 7)]);
    }
    // mixed real × complex: the real argument gets the real part
    gradcheck((a, b) => mul(a, b), [randomTensor([3], 'float64', 8), randomTensor([2, 3], 'complex128', 9)]);
  });

  it('JS-scalar operands (real and complex) are constants and conjugated where they multiply', () => {
    const c = { re: 0.3, im: -0.7 };
    for (const dt of DTS) {
      gradcheck((a) => mul(a, 2.5), [randomTensor([3], dt, 10)]);
      gradcheck((a) => mul(c, a), [randomTensor([2, 2], dt, 11)]);
      gradcheck((a) => div(a, c), [randomTensor([3], dt, 12)]);
      gradcheck((a) => div(c, a), [awayFromZero([3], dt, 13)]);
      gradcheck((a) => sub(1, a), [randomTensor([3], dt, 14)]);
    }
  });

  it('div: both arguments, broadcast and 0-d', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => div(a, b), [randomTensor([2, 3], dt, 20), awayFromZero([3], dt, 21)]);
      gradcheck((a, b) => div(a, b), [randomTensor([2, 1, 2], dt, 22), awayFromZero([], dt, 23)]);
      gradcheck((a, b) => div(a, b), [randomTensor([], dt, 24), awayFromZero([3, 2], dt, 25)]);
    }
  });

  it('pow: base and exponent, JS-number exponent and base, complex', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => pow(a, b), [awayFromZero([2, 3], dt, 30), randomTensor([3], dt, 31)]);
      gradcheck((a) => pow(a, 3), [randomTensor([2, 2], dt, 32)]);
      gradcheck((a) => pow(a, 0.5), [awayFromZero([4], dt, 33)]);
      gradcheck((b) => pow(2.5, b), [randomTensor([3], dt, 34)]);
      gradcheck((b) => pow({ re: 1.2, im: 0.4 }, b), [randomTensor([3], dt, 35)]);
    }
    // real base, complex exponent: the base's gradient is the real part of the complex one
    gradcheck((a, b) => pow(a, b), [awayFromZero([3], 'float64', 36), randomTensor([3], 'complex128', 37)]);
    // negative real base with an integer exponent (the base's gradient is defined)
    gradcheck((a) => pow(a, 2), [tensor([-1.5, -0.25, 0.75])]);
  });

  it('pow at base 0: torch\'s masks (no NaN for exponent ≥ 0, zero base gradient for exponent 0)', () => {
    const [gb, ge] = grad((b: Tensor, e: Tensor) => sum(pow(b, e)))(tensor([0, 0, 0, 2]), tensor([2, 0, 1, 0]));
    expect(vals(gb)).toEqual([0, 0, 1, 0]);
    expect(vals(ge)).toEqual([0, 0, 0, Math.log(2)]);
    // complex: the mask holds for a real exponent ≥ 0 (torch), so no NaN at base 0
    const z0 = tensor([{ re: 0, im: 0 }, { re: 0, im: 0 }]);
    const [, gce] = grad((b: Tensor, e: Tensor) => real(sum(pow(b, e))))(z0, tensor([{ re: 2, im: 0 }, { re: 0, im: 0 }]));
    expect(gce.toArray()).toEqual([{ re: 0, im: 0 }, { re: 0, im: 0 }]);
    // base 0 and a negative exponent: +Inf as torch (a pole, not a silent finite value)
    const [gn] = grad((b: Tensor) => sum(pow(b, -1)))(tensor([0]));
    expect(vals(gn)).toEqual([-Infinity]);
  });

  it('minimum / maximum: both arguments, scalars, ties split 0.5 / 0.5 (torch)', () => {
    const a = randomTensor([2, 3], 'float64', 40), b = randomTensor([3], 'float64', 41);
    gradcheck((x, y) => maximum(x, y), [a, b]);
    gradcheck((x, y) => minimum(x, y), [a, b]);
    gradcheck((x) => maximum(x, 0.1), [a]);
    gradcheck((x) => minimum(-0.1, x), [a]);
    const [ga, gb] = grad((x: Tensor, y: Tensor) => sum(maximum(x, y)))(tensor([1, 2, 3]), tensor([1, 5, 0]));
    expect(vals(ga)).toEqual([0.5, 0, 1]);
    expect(vals(gb)).toEqual([0.5, 1, 0]);
    const [gc, gd] = grad((x: Tensor, y: Tensor) => sum(minimum(x, y)))(tensor([1, 2, 3]), tensor([1, 5, 0]));
    expect(vals(gc)).toEqual([0.5, 1, 0]);
    expect(vals(gd)).toEqual([0.5, 0, 1]);
    // relu: maximum(x, 0) at x = 0 also splits (torch's rule, x gets 0.5)
    const [gr] = grad((x: Tensor) => sum(maximum(x, 0)))(tensor([-1, 0, 2]));
    expect(vals(gr)).toEqual([0, 0.5, 1]);
  });
});

describe('autodiff: elementwise functions', () => {
  it('exp, sin, cos, tanh, sigmoid, expm1: real and complex, batch and 0-d', () => {
    for (const dt of DTS) {
      for (const f of [exp, sin, cos, tanh, sigmoid, expm1]) {
        gradcheck((a) => f(a), [randomTensor([2, 3], dt, 50)]);
        gradcheck((a) => f(a), [randomTensor([], dt, 51)]);
      }
    }
  });

  it('sqrt, log, log1p away from their branch points, real and complex', () => {
    for (const dt of DTS) {
      gradcheck((a) => sqrt(a), [awayFromZero([2, 3], dt, 60)]);
      gradcheck((a) => log(a), [awayFromZero([3], dt, 61)]);
      gradcheck((a) => log1p(a), [awayFromZero([2, 2], dt, 62)]);
    }
  });

  it('abs: sgn(x) (complex z/|z|), 0 gradient at 0 (torch)', () => {
    for (const dt of DTS) gradcheck((a) => abs(a), [awayFromZero([2, 3], dt, 70)]);
    gradcheck((a) => abs(a), [randomTensor([5], 'complex128', 71)]);
    gradcheck((a) => abs(a), [randomTensor([5], 'float64', 72)]);
    expect(vals(grad((a: Tensor) => sum(abs(a)))(tensor([-2, 0, 3]))[0])).toEqual([-1, 0, 1]);
    const z = tensor([{ re: 0, im: 0 }, { re: 3, im: 4 }]);
    const [gz] = grad((a: Tensor) => sum(abs(a)))(z);
    expect(gz.toArray()).toEqual([{ re: 0, im: 0 }, { re: 0.6, im: 0.8 }]);
  });

  it('sign: zero gradient for real x; complex sgn(z) = z/|z| has torch\'s sgn_backward, 0 at 0', () => {
    expect(vals(grad((a: Tensor) => sum(mul(sign(a), a)))(tensor([-2, 0, 3]))[0])).toEqual([-1, 0, 1]);
    gradcheck((a) => sign(a), [randomTensor([2, 3], 'complex128', 80)]);
    gradcheck((a) => sign(a), [randomTensor([], 'complex128', 81)]);
    const [g0] = grad((a: Tensor) => real(sum(mul(sign(a), { re: 1, im: 2 }))))(tensor([{ re: 0, im: 0 }]));
    expect(g0.toArray()).toEqual([{ re: 0, im: 0 }]);
  });

  it('conj, real, imag, angle: torch\'s complex rules; real inputs', () => {
    const z = randomTensor([2, 3], 'complex128', 90);
    gradcheck((a) => conj(a), [z]);
    gradcheck((a) => real(a), [z]);
    gradcheck((a) => imag(a), [z]);
    gradcheck((a) => angle(a), [z]);
    gradcheck((a) => mul(real(a), imag(a)), [z]);
    const x = randomTensor([3], 'float64', 91);
    gradcheck((a) => conj(a), [x]);
    gradcheck((a) => real(a), [x]);
    // imag and angle of a real tensor are constants: zero gradients
    expect(vals(grad((a: Tensor) => sum(add(imag(a), angle(a))))(tensor([-1, 2]))[0])).toEqual([0, 0]);
    // |z|² = z·conj(z) gives 2z; angle at 0 gives 0
    const [g] = grad((a: Tensor) => sum(real(mul(a, conj(a)))))(tensor([{ re: 1, im: -2 }]));
    expect(g.toArray()).toEqual([{ re: 2, im: -4 }]);
    const [ga] = grad((a: Tensor) => sum(angle(a)))(tensor([{ re: 0, im: 0 }, { re: 0, im: 2 }]));
    expect(ga.toArray()).toEqual([{ re: 0, im: 0 }, { re: -0.5, im: 0 }]);
  });
});

describe('autodiff: clamp, where, cast', () => {
  it('clamp with scalar bounds: the gradient passes where min ≤ x ≤ max (torch), bounds included', () => {
    gradcheck((a) => clamp(a, -0.2, 0.3), [randomTensor([3, 4], 'float64', 100)]);
    gradcheck((a) => clamp(a, null, 0.1), [randomTensor([6], 'float64', 101)]);
    gradcheck((a) => clamp(a, -0.1), [randomTensor([6], 'float64', 102)]);
    const [g] = grad((a: Tensor) => sum(clamp(a, 0, 1)))(tensor([-1, 0, 0.5, 1, 2]));
    expect(vals(g)).toEqual([0, 1, 1, 1, 0]);
  });

  it('clamp with tensor bounds: gradients for x, min and max, including min > max', () => {
    const x = randomTensor([2, 4], 'float64', 110);
    const lo = sub(randomTensor([4], 'float64', 111), 0.2), hi = add(randomTensor([2, 1], 'float64', 112), 0.2);
    gradcheck((a, b, c) => clamp(a, b, c), [x, lo, hi]);
    gradcheck((a, b) => clamp(a, b), [x, lo]);
    gradcheck((a, c) => clamp(a, null, c), [x, hi]);
    // min > max: the result is max, so max takes the gradient, x and min none
    const [gx, gmin, gmax] = grad((a: Tensor, b: Tensor, c: Tensor) => sum(clamp(a, b, c)))(
      tensor([0, 5, -5, 0.5]), tensor([1, 1, 1, 0]), tensor([0, 0, 0, 1]),
    );
    expect(vals(gx)).toEqual([0, 0, 0, 1]);
    expect(vals(gmin)).toEqual([0, 0, 0, 0]);
    expect(vals(gmax)).toEqual([1, 1, 1, 0]);
  });

  it('where: cond gets none; a and b broadcast, real and complex', () => {
    const cond = gt(randomTensor([2, 3], 'float64', 120), 0);
    for (const dt of DTS) {
      gradcheck((a, b) => where(cond, a, b), [randomTensor([3], dt, 121), randomTensor([2, 1], dt, 122)]);
      gradcheck((a) => where(cond, a, 0), [randomTensor([2, 3], dt, 123)]);
      gradcheck((b) => where([true, false, true], 1, b), [randomTensor([], dt, 124)]);
    }
    const c = tensor([1, -1, 0]);
    const [gc, ga] = grad((k: Tensor, a: Tensor) => sum(where(k, a, 0)))(c, tensor([5, 6, 7]));
    expect(vals(gc)).toEqual([0, 0, 0]);
    expect(vals(ga)).toEqual([1, 1, 0]);
  });

  it('cast: the gradient comes back in the input dtype (real part for real → complex)', () => {
    gradcheck((a) => mul(cast(a, 'complex128'), { re: 0.5, im: 2 }), [randomTensor([3], 'float64', 130)]);
    const x = tensor([1, 2, 3]);
    const [g] = grad((a: Tensor) => sum(mul(cast(a, 'float32'), tensor([1, 2, 4], { dtype: 'float32' }))))(x);
    expect(g.dtype).toBe('float64');
    expect(vals(g)).toEqual([1, 2, 4]);
    const [gi] = grad((a: Tensor) => sum(mul(cast(cast(a, 'int32'), 'float64'), a)))(tensor([1.5, 2.5]));
    expect(vals(gi)).toEqual([1, 2]); // the int32 round trip is a constant
    // float16 is storage only: a tracked tensor cast to it is refused, not silently cut
    expect(() => grad((a: Tensor) => sum(cast(cast(a, 'float16'), 'float32')))(x)).toThrow(/cast: .*float16/);
    expect(() => grad((a: Tensor) => sum(a))(cast(x, 'float16').cast('float32'))).not.toThrow();
  });
});

describe('autodiff: bool results of tracked tensors', () => {
  it('comparisons and logic of tracked tensors are constants (no rule needed)', () => {
    const [g] = grad((a: Tensor) => sum(where(logicalAnd(eq(a, 1), ne(a, 2)), mul(a, a), a)))(tensor([1, 2, 3]));
    expect(vals(g)).toEqual([2, 1, 1]);
  });
});

describe('autodiff: elementwise second derivatives', () => {
  it('gradcheck of the gradient (the rules are recorded by an outer tape)', () => {
    const d = (f: (a: Tensor) => Tensor) => (a: Tensor) => grad((b: Tensor) => sum(f(b)))(a)[0];
    for (const dt of DTS) {
      const x = awayFromZero([3], dt, 140);
      gradcheck(d((a) => real(mul(pow(a, 3), conj(a)))), [x]);
      gradcheck(d((a) => real(div(tanh(a), add(a, 1)))), [x]);
      gradcheck(d((a) => real(mul(sqrt(a), log(a)))), [x]);
      gradcheck(d((a) => abs(exp(a))), [x]);
    }
    gradcheck(d((a) => mul(sigmoid(a), maximum(a, 0.7))), [awayFromZero([4], 'float64', 141)]);
    gradcheck(d((a) => pow(a, a)), [awayFromZero([3], 'float64', 142)]);
  });
});
