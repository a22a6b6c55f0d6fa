// Gradient checks of the reduction rules (src/autodiff/rules/reduce.ts): sum, mean, prod,
// max, min, maxWithIndices, minWithIndices over every dim option, keepDims, 0-d and complex;
// prod at zeros and max/min at ties have exact expected values (torch's).
import { describe, expect, it } from 'vitest';
import {
  sum, mean, prod, max, min, maxWithIndices, minWithIndices, mul, real, grad, vjp, tensor, Tensor,
} from '../../src/index.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';

type Opts = { dim?: number | number[]; keepDims?: boolean };
const OPTS: readonly (Opts | undefined)[] = [
  undefined, { dim: 0 }, { dim: -1, keepDims: true }, { dim: [0, 2] }, { dim: [2, 0], keepDims: true }, { dim: 1 }, { dim: [] },
];
// JSON drops the sign of −0 (a product with a zero factor may be −0)
const vals = (t: Tensor) => JSON.parse(JSON.stringify(t.toArray())) as unknown;

describe('autodiff: sum, mean, prod', () => {
  it('every dim option and keepDims, real and complex, and 0-d', () => {
    for (const dt of ['float64', 'complex128'] as const) {
      const x = randomTensor([2, 3, 4], dt, 1);
      for (const o of OPTS) {
        gradcheck((a) => sum(a, o), [x]);
        gradcheck((a) => mean(a, o), [x]);
        gradcheck((a) => prod(a, o), [x]);
      }
      const s = randomTensor([], dt, 2);
      for (const o of [undefined, { dim: 0 }, { dim: -1, keepDims: true }]) {
        gradcheck((a) => sum(a, o), [s]);
        gradcheck((a) => mean(a, o), [s]);
        gradcheck((a) => prod(a, o), [s]);
      }
    }
  });

  it('prod with one zero and with several zeros in a slice: no NaN, torch\'s values', () => {
    const x = tensor([[2, 0, 3, 4], [0, 5, 0, 1], [1, 2, 3, 4]]);
    const [g] = grad((a: Tensor) => sum(prod(a, { dim: 1 })))(x);
    expect(vals(g)).toEqual([[0, 24, 0, 0], [0, 0, 0, 0], [24, 12, 8, 6]]);
    // full product with one zero: only the zero gets Π of the others
    const [gf] = grad((a: Tensor) => prod(a))(tensor([3, 0, -2, 5, 0.5]));
    expect(vals(gf)).toEqual([0, -15, 0, 0, 0]);
    // prod is multilinear: central differences are exact at zeros too
    gradcheck((a) => prod(a, { dim: 1 }), [x]);
    gradcheck((a) => prod(a, { dim: 0, keepDims: true }), [x]);
    const zc = tensor([{ re: 0, im: 0 }, { re: 1, im: 2 }, { re: -0.5, im: 0.3 }]);
    gradcheck((a) => prod(a), [zc]);
  });

  it('prod over long slices (several doubling steps, lengths not powers of two)', () => {
    for (const n of [2, 5, 8, 13]) gradcheck((a) => prod(a, { dim: -1 }), [randomTensor([2, n], 'float64', 10 + n)]);
    gradcheck((a) => prod(a), [randomTensor([3, 3, 3], 'complex128', 30)], { directions: 3 });
  });

  it('empty reductions: mean and prod of an empty dim give empty gradients', () => {
    const e = tensor({ data: new Float64Array(0), shape: [3, 0] });
    const [gs] = grad((a: Tensor) => sum(prod(a, { dim: 1 })))(e);
    expect(gs.shape).toEqual([3, 0]);
    const [gm] = grad((a: Tensor) => sum(mul(sum(a, { dim: 1 }), 2)))(e);
    expect(gm.shape).toEqual([3, 0]);
  });

  it('second derivatives of prod and mean', () => {
    const d = (f: (a: Tensor) => Tensor) => (a: Tensor) => grad((b: Tensor) => f(b))(a)[0];
    gradcheck(d((a) => sum(prod(a, { dim: 1 }))), [randomTensor([2, 4], 'float64', 40)]);
    gradcheck(d((a) => sum(prod(a, { dim: 1 }))), [tensor([[1, 0, 2, 3], [0, 0, 1, 2]])]);
    gradcheck(d((a) => real(sum(mul(mean(a, { dim: 0 }), prod(a))))), [randomTensor([2, 2], 'complex128', 41)]);
  });
});

describe('autodiff: max, min', () => {
  it('every dim option and keepDims, 0-d (no ties: the extreme takes the gradient)', () => {
    const x = randomTensor([2, 3, 4], 'float64', 50);
    for (const o of OPTS) {
      gradcheck((a) => max(a, o), [x]);
      gradcheck((a) => min(a, o), [x]);
    }
    gradcheck((a) => max(a), [randomTensor([], 'float64', 51)]);
    gradcheck((a) => min(a, { dim: 0 }), [randomTensor([], 'float64', 52)]);
  });

  it('ties share the gradient evenly (torch\'s amax / evenly_distribute_backward)', () => {
    const x = tensor([[1, 3, 3], [2, 2, 2], [0, -1, 5]]);
    expect(vals(grad((a: Tensor) => max(a))(x)[0])).toEqual([[0, 0, 0], [0, 0, 0], [0, 0, 1]]);
    expect(vals(grad((a: Tensor) => sum(max(a, { dim: 1 })))(x)[0])).toEqual([[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3], [0, 0, 1]]);
    expect(vals(grad((a: Tensor) => sum(min(a, { dim: 0, keepDims: true })))(x)[0])).toEqual([[0, 0, 0], [0, 0, 1], [1, 1, 0]]);
    expect(vals(grad((a: Tensor) => min(a))(tensor([4, 1, 1, 1, 7]))[0])).toEqual([0, 1 / 3, 1 / 3, 1 / 3, 0]);
  });

  it('a NaN maximum sends the gradient to the NaN entries', () => {
    const [g] = grad((a: Tensor) => max(a))(tensor([1, NaN, 3]));
    expect(vals(g)).toEqual([0, 1, 0]);
  });

  it('maxWithIndices / minWithIndices: the gradient goes to the returned index (first of ties)', () => {
    const x = randomTensor([2, 3, 4], 'float64', 60);
    for (const dim of [0, 1, -1]) {
      for (const keepDims of [false, true]) {
        gradcheck((a) => maxWithIndices(a, dim, { keepDims }), [x]);
        gradcheck((a) => minWithIndices(a, dim, { keepDims }).values, [x]);
      }
    }
    gradcheck((a) => maxWithIndices(a, 0), [randomTensor([], 'float64', 61)]);
    gradcheck((a) => minWithIndices(a, -1, { keepDims: true }), [randomTensor([], 'float64', 62)]);
    const [g] = grad((a: Tensor) => sum(maxWithIndices(a, 1).values))(tensor([[1, 3, 3], [2, 2, 2]]));
    expect(vals(g)).toEqual([[0, 1, 0], [1, 0, 0]]);
    // a cotangent for the indices alone reaches nothing
    const { pullback } = vjp((a: Tensor) => minWithIndices(a, 0), tensor([1, 2]));
    expect(vals(pullback({ values: null, indices: null })[0])).toEqual([0, 0]);
  });

  it('second derivatives through max and maxWithIndices', () => {
    const d = (f: (a: Tensor) => Tensor) => (a: Tensor) => grad((b: Tensor) => f(b))(a)[0];
    gradcheck(d((a) => sum(mul(max(a, { dim: 1 }), max(a)))), [randomTensor([3, 4], 'float64', 70)]);
    gradcheck(d((a) => sum(mul(maxWithIndices(a, 0).values, minWithIndices(a, 1).values))), [randomTensor([3, 3], 'float64', 71)]);
  });
});

describe('prod: the CPU division path and its guards', () => {
  // JS product of the others, for each entry of a row
  const others = (row: number[]): number[] => row.map((_, k) => row.reduce((p, v, j) => (j === k ? p : p * v), 1));

  it('no zeros: out / x equals the product of the others to rounding (real and complex)', () => {
    const x = tensor([[1.5, -2, 0.25, 3], [0.5, 0.75, -1.25, 2]]);
    const [g] = grad((a: Tensor) => sum(prod(a, { dim: 1 })))(x);
    const want = (x.toArray() as number[][]).map(others);
    (g.toArray() as number[][]).forEach((r, i) => r.forEach((v, j) => expect(v).toBeCloseTo(want[i][j], 14)));
    gradcheck((a) => prod(a, { dim: -1 }), [randomTensor([2, 3], 'complex128', 81)]);
  });

  it('an overflowing or underflowing product falls back to the exact scans (no inf/inf, no 0/x)', () => {
    const [gBig] = grad((a: Tensor) => sum(prod(a)))(tensor([1e200, 1e200, 2]));
    expect(gBig.toArray()).toEqual([2e200, 2e200, Infinity]);
    const [gSmall] = grad((a: Tensor) => sum(prod(a)))(tensor([1e-200, 1e-200, 3]));
    expect(gSmall.toArray()).toEqual([3e-200, 3e-200, 0]);
  });
});
