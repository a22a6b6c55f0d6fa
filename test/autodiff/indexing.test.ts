// Gradients of the shape and indexing ops (src/autodiff/rules/indexing.ts) and of
// tensor(t, { dtype }): gradcheck (central differences, float64 and complex128) on every
// option variant, batch dims, and the cases where an element is read several times (take)
// or written several times (put: last writer / accumulate); property tests over shapes;
// second derivatives through the rules; the refused device move.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Tensor, tensor, flatten, squeeze, unsqueeze, expand, broadcastTo, transpose, permute, adjoint, matrixTranspose,
  diagonal, triu, tril, trace, slice, concat, stack, split, take, put, sum, mul, grad, vjp, ArgumentError,
} from '../../src/index.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';

const DTS = ['float64', 'complex128'] as const;
const r = (shape: number[], dt: (typeof DTS)[number], seed: number) => randomTensor(shape, dt, seed);

describe('gradients of the storage-sharing reshapes', () => {
  it('flatten: default, startDim/endDim (negative), a 0-d tensor', () => {
    for (const dt of DTS) {
      gradcheck((a) => flatten(a), [r([2, 3, 2], dt, 1)]);
      gradcheck((a) => flatten(a, 1), [r([2, 3, 2], dt, 2)]);
      gradcheck((a) => flatten(a, -3, -2), [r([2, 3, 2], dt, 3)]);
      gradcheck((a) => flatten(a), [r([], dt, 4)]);
    }
  });

  it('squeeze (all, one dim, a list with a negative dim, a dim that is not 1) and unsqueeze (negative dim)', () => {
    for (const dt of DTS) {
      gradcheck((a) => squeeze(a), [r([1, 3, 1, 2], dt, 5)]);
      gradcheck((a) => squeeze(a, 0), [r([1, 3, 1], dt, 6)]);
      gradcheck((a) => squeeze(a, [0, -1]), [r([1, 3, 1], dt, 7)]);
      gradcheck((a) => squeeze(a, 1), [r([1, 3, 1], dt, 8)]);
      gradcheck((a) => unsqueeze(a, -1), [r([2, 3], dt, 9)]);
      gradcheck((a) => unsqueeze(a, 1), [r([2, 3], dt, 10)]);
      gradcheck((a) => a.reshape([3, 2]), [r([2, 3], dt, 11)]);
    }
  });
});

describe('gradients of expand / broadcastTo (summed over the expanded dims)', () => {
  it('new leading dims, size-1 dims, −1 entries; real and complex', () => {
    for (const dt of DTS) {
      gradcheck((a) => expand(a, [2, 3, 4]), [r([3, 1], dt, 12)]);
      gradcheck((a) => expand(a, [2, -1, 4]), [r([1, 3, 1], dt, 13)]);
      gradcheck((a) => broadcastTo(a, [2, 3]), [r([3], dt, 14)]);
      gradcheck((a) => broadcastTo(a, [4, 2, 3]), [r([], dt, 15)]);
    }
  });

  it('the gradient of a broadcast input is the cotangent summed over the broadcast dims (exact)', () => {
    const [g] = grad((a: Tensor) => sum(mul(expand(a, [2, 3, 2]), tensor([[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]))))(
      tensor([[1], [2], [3]]),
    );
    expect(g.toArray()).toEqual([[1 + 2 + 7 + 8], [3 + 4 + 9 + 10], [5 + 6 + 11 + 12]]);
  });
});

describe('gradients of the transposes', () => {
  it('transpose (default, explicit, negative dims), permute (negative dims), matrixTranspose, batched', () => {
    for (const dt of DTS) {
      gradcheck((a) => transpose(a), [r([2, 3, 4], dt, 16)]);
      gradcheck((a) => transpose(a, 0, -1), [r([2, 3, 4], dt, 17)]);
      gradcheck((a) => transpose(a, 0, -1), [r([5], dt, 18)]);
      gradcheck((a) => permute(a, [2, 0, 1]), [r([2, 3, 4], dt, 19)]);
      gradcheck((a) => permute(a, [-1, 0, -2, 1]), [r([2, 1, 3, 2], dt, 20)]);
      gradcheck((a) => matrixTranspose(a), [r([2, 3, 4], dt, 21)]);
    }
  });

  it('adjoint: the conjugate transpose of the cotangent (complex: not the plain transpose)', () => {
    gradcheck((a) => adjoint(a), [r([2, 3, 2], 'complex128', 22)]);
    gradcheck((a) => adjoint(a), [r([3, 4], 'float64', 23)]);
    // L = Re Σ conj(W)·conj(xᵀ) gives x̄ = conj(Wᵀ) = adjoint(W)
    const W = r([3, 2], 'complex128', 24);
    const { pullback } = vjp((a: Tensor) => adjoint(a), r([2, 3], 'complex128', 25));
    expect(pullback(W)[0].toArray()).toEqual(adjoint(W).toArray());
  });
});

describe('gradients of diagonal, triu, tril, trace', () => {
  it('diagonal: offsets 0, +1, −2, beyond the matrix; dims (0, 2), (−1, 0); batched; non-square', () => {
    for (const dt of DTS) {
      gradcheck((a) => diagonal(a), [r([2, 3, 3], dt, 26)]);
      gradcheck((a) => diagonal(a, { offset: 1 }), [r([3, 4], dt, 27)]);
      gradcheck((a) => diagonal(a, { offset: -2 }), [r([2, 4, 3], dt, 28)]);
      gradcheck((a) => diagonal(a, { dim1: 0, dim2: 2 }), [r([3, 2, 4], dt, 29)]);
      gradcheck((a) => diagonal(a, { offset: 1, dim1: -1, dim2: 0 }), [r([4, 2, 3], dt, 30)]);
    }
    // an empty diagonal: a zero gradient of x's shape
    const [g] = grad((a: Tensor) => sum(diagonal(a, { offset: 5 })))(r([2, 3], 'float64', 31));
    expect(g.shape).toEqual([2, 3]);
    expect(g.toArray()).toEqual([[0, 0, 0], [0, 0, 0]]);
  });

  it('triu/tril with k = 0, ±1 and beyond the matrix; batched, non-square', () => {
    for (const dt of DTS) {
      for (const k of [0, 1, -1, 7, -9]) {
        gradcheck((a) => triu(a, k), [r([2, 3, 4], dt, 32 + k)]);
        gradcheck((a) => tril(a, k), [r([4, 3], dt, 50 + k)]);
      }
    }
  });

  it('trace: ḡ·I per matrix, square, rectangular, batched', () => {
    for (const dt of DTS) {
      gradcheck((a) => trace(a), [r([3, 3], dt, 60)]);
      gradcheck((a) => trace(a), [r([2, 3, 4], dt, 61)]);
      gradcheck((a) => trace(a), [r([2, 1, 4, 2], dt, 62)]);
    }
  });
});

describe('gradients of slice', () => {
  it('indices (negative), ranges, negative steps, ellipsis, objects, clamped bounds, empty selections', () => {
    for (const dt of DTS) {
      gradcheck((a) => slice(a, 1), [r([3, 4], dt, 70)]);
      gradcheck((a) => slice(a, -1, '1:3'), [r([3, 4], dt, 71)]);
      gradcheck((a) => slice(a, '::-1'), [r([5], dt, 72)]);
      gradcheck((a) => slice(a, '::-2', '3:0:-2'), [r([5, 4], dt, 73)]);
      gradcheck((a) => slice(a, '...', 0), [r([2, 3, 4], dt, 74)]);
      gradcheck((a) => slice(a, { start: -3, stop: null, step: 2 }, null, '-1:-3:-1'), [r([4, 2, 3], dt, 75)]);
      gradcheck((a) => slice(a, '1:100'), [r([3, 2], dt, 76)]);
      gradcheck((a) => slice(a, '5:', 0), [r([3, 2], dt, 77)]);
    }
  });

  it('exact: the cotangent lands at the sliced positions, zeros elsewhere', () => {
    const { pullback } = vjp((a: Tensor) => slice(a, '::-2'), tensor([1, 2, 3, 4, 5]));
    expect(pullback(tensor([10, 20, 30]))[0].toArray()).toEqual([30, 0, 20, 0, 10]);
  });
});

describe('gradients of concat, stack, split', () => {
  it('concat: several tensors, negative dim, JS data in the list (a constant), mixed dtypes', () => {
    for (const dt of DTS) {
      gradcheck((a, b, c) => concat([a, b, c], 1), [r([2, 1, 3], dt, 80), r([2, 3, 3], dt, 81), r([2, 2, 3], dt, 82)]);
      gradcheck((a, b) => concat([a, b], -1), [r([2, 3], dt, 83), r([2, 1], dt, 84)]);
      gradcheck((a) => concat([[[1, 2, 3]], a], 0), [r([2, 3], dt, 85)]);
    }
    // a float32 operand of a float64 concat gets a float32 gradient
    const [g32, g64] = grad((a: Tensor, b: Tensor) => sum(mul(concat([a, b]), tensor([1, 2, 3]))))(
      tensor([5], { dtype: 'float32' }), tensor([6, 7]),
    );
    expect(g32.dtype).toBe('float32');
    expect(g32.toArray()).toEqual([1]);
    expect(g64.toArray()).toEqual([2, 3]);
  });

  it('stack: dims 0, middle, −1', () => {
    for (const dt of DTS) {
      gradcheck((a, b) => stack([a, b]), [r([2, 3], dt, 86), r([2, 3], dt, 87)]);
      gradcheck((a, b, c) => stack([a, b, c], 1), [r([2, 3], dt, 88), r([2, 3], dt, 89), r([2, 3], dt, 90)]);
      gradcheck((a, b) => stack([a, b], -1), [r([3], dt, 91), r([3], dt, 92)]);
    }
  });

  it('split: by size, by sections (a zero section), negative dim, some chunks unused (zeros)', () => {
    for (const dt of DTS) {
      gradcheck((a) => split(a, 2, 1), [r([2, 5], dt, 93)]);
      gradcheck((a) => split(a, [1, 0, 3], -1), [r([2, 4], dt, 94)]);
      gradcheck((a) => split(a, 2)[1], [r([5, 2], dt, 95)]);
      gradcheck((a) => [split(a, [2, 1, 2])[2], split(a, [2, 1, 2])[0]], [r([5], dt, 96)]);
    }
    const [g] = grad((a: Tensor) => sum(split(a, 2)[1]))(tensor([1, 2, 3, 4, 5]));
    expect(g.toArray()).toEqual([0, 0, 1, 1, 0]);
  });
});

describe('gradients of take and put', () => {
  it('take: repeated and negative indices accumulate; multi-dim index; int32 index tensor', () => {
    for (const dt of DTS) {
      gradcheck((a) => take(a, [0, 5, 5, -1, 2]), [r([2, 3], dt, 100)]);
      gradcheck((a) => take(a, [[1, 1], [-4, 0]]), [r([4], dt, 101)]);
      gradcheck((a) => take(a, tensor([3, 3, 3], { dtype: 'int32' })), [r([2, 2], dt, 102)]);
    }
    const { pullback } = vjp((a: Tensor) => take(a, [1, 1, -1, 1]), tensor([0, 0, 0]));
    expect(pullback(tensor([1, 2, 4, 8]))[0].toArray()).toEqual([0, 11, 4]);
  });

  it('put without accumulate: x gets the cotangent with the written positions zeroed, values the last writer only', () => {
    for (const dt of DTS) {
      gradcheck((a, v) => put(a, [0, 4, -2], v), [r([2, 3], dt, 103), r([3], dt, 104)]);
      // repeated index 4: only its last writer (values[2]) reaches the output
      gradcheck((a, v) => put(a, [4, 1, 4, 0], v), [r([2, 3], dt, 105), r([4], dt, 106)]);
      gradcheck((a, v) => put(a, [[4, 1], [4, 1]], v), [r([6], dt, 107), r([2, 2], dt, 108)]);
    }
    const { pullback } = vjp((a: Tensor, v: Tensor) => put(a, [2, 0, 2], v), tensor([0, 0, 0]), tensor([0, 0, 0]));
    const [gx, gv] = pullback(tensor([1, 2, 3]));
    expect(gx.toArray()).toEqual([0, 2, 0]);
    expect(gv.toArray()).toEqual([0, 1, 3]);
  });

  it('put with accumulate: x gets the cotangent itself, every duplicate its position\'s cotangent', () => {
    for (const dt of DTS) {
      gradcheck((a, v) => put(a, [4, 1, 4, -1], v, { accumulate: true }), [r([2, 3], dt, 109), r([4], dt, 110)]);
    }
    const { pullback } = vjp(
      (a: Tensor, v: Tensor) => put(a, [2, 0, 2], v, { accumulate: true }), tensor([0, 0, 0]), tensor([0, 0, 0]),
    );
    const [gx, gv] = pullback(tensor([1, 2, 3]));
    expect(gx.toArray()).toEqual([1, 2, 3]);
    expect(gv.toArray()).toEqual([3, 1, 3]);
  });

  it('put: broadcast values (summed over the positions they reach), reshaped values, real values into complex x', () => {
    for (const dt of DTS) {
      gradcheck((a, v) => put(a, [[0, 1, 2], [3, 4, 5]], v), [r([6], dt, 111), r([1, 3], dt, 112)]);
      gradcheck((a, v) => put(a, [[0, 1, 2], [3, 4, 5]], v, { accumulate: true }), [r([6], dt, 113), r([], dt, 114)]);
      gradcheck((a, v) => put(a, [[0, 1], [2, 3]], v), [r([2, 3], dt, 115), r([4], dt, 116)]);
    }
    gradcheck((a, v) => put(a, [1, 3], v), [r([4], 'complex128', 117), r([2], 'float64', 118)]);
  });
});

describe('gradient of tensor(t, opts) of a tracked tensor', () => {
  it('a dtype conversion is recorded: real → complex, float32 → float64, identity', () => {
    gradcheck((a) => tensor(a, { dtype: 'complex128' }), [r([2, 3], 'float64', 120)]);
    gradcheck((a) => tensor(a), [r([2, 3], 'complex128', 121)]);
    gradcheck((a) => tensor(a, { dtype: 'float64', device: 'cpu' }), [r([3], 'float64', 122)]);
    const [g] = grad((a: Tensor) => sum(mul(tensor(a, { dtype: 'float64' }), tensor([0.1, 3]))))(tensor([1, 2], { dtype: 'float32' }));
    expect(g.dtype).toBe('float32');
    expect(Array.from(g.dataSync() as Float32Array)).toEqual([Math.fround(0.1), 3]);
  });

  it('a device move of a tracked tensor is refused; untracked tensors and other values are unaffected', () => {
    expect(() => grad((a: Tensor) => sum(tensor(a, { device: 'gpu' })))(tensor([1, 2]))).toThrow(ArgumentError);
    expect(() => grad((a: Tensor) => sum(tensor(a, { device: 'gpu' })))(tensor([1, 2]))).toThrow(/^tensor: /);
    const [g] = grad((a: Tensor) => sum(mul(a, tensor(tensor([3, 4]), { dtype: 'float64' }))))(tensor([1, 2]));
    expect(g.toArray()).toEqual([3, 4]);
  });
});

describe('second derivatives through the rules', () => {
  it('grad of grad of Σ take(x, i)³ is 6·count·x at the taken elements (take → put → take)', () => {
    const idx = [0, 2, 2];
    const cube = (a: Tensor) => sum(mul(mul(take(a, idx), take(a, idx)), take(a, idx)));
    const dx = (a: Tensor) => grad(cube)(a)[0];
    const x = tensor([1, 2, -3]);
    expect(dx(x).toArray()).toEqual([3, 0, 2 * 27]);
    const [h] = grad((a: Tensor) => sum(dx(a)))(x);
    expect(h.toArray()).toEqual([6, 0, 2 * 6 * -3]);
  });

  it('gradcheck of a first derivative through slice, diagonal, permute and concat', () => {
    const f = (a: Tensor) => sum(mul(mul(a, a), a));
    const inner = (a: Tensor) =>
      grad((b: Tensor) => f(concat([diagonal(permute(b, [1, 0, 2]), { offset: 1 }), slice(b, -1, '::-1')], -1)))(a)[0];
    gradcheck(inner, [r([2, 3, 3], 'float64', 130)]);
  });
});

describe('properties over shapes', () => {
  const shapeArb = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 3 });

  it('expand from a random broadcastable shape: gradcheck', () => {
    fc.assert(fc.property(shapeArb, fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), fc.integer({ min: 0, max: 2 }), (shape, ones, lead) => {
      const src = shape.map((n, i) => (ones[i] ? 1 : n));
      const target = [...Array.from({ length: lead }, (_, i) => i + 2), ...shape];
      gradcheck((a) => expand(a, target), [r(src, 'complex128', shape.length + lead)]);
    }), { numRuns: 8 });
  });

  it('permute by a random permutation: the gradient is the cotangent permuted back (exact)', () => {
    fc.assert(fc.property(shapeArb.chain((s) => fc.tuple(fc.constant(s), fc.shuffledSubarray(s.map((_, i) => i), { minLength: s.length }))), ([shape, perm]) => {
      const x = r(shape, 'float64', 7);
      const W = r(perm.map((p) => shape[p]), 'float64', 8);
      const { pullback } = vjp((a: Tensor) => permute(a, perm), x);
      const inv = new Array<number>(perm.length);
      perm.forEach((p, i) => { inv[p] = i; });
      expect(pullback(W)[0].toArray()).toEqual(permute(W, inv).toArray());
    }), { numRuns: 10 });
  });

  it('slice with random ranges and steps (either sign): the gradient scatters the cotangent back (gradcheck)', () => {
    const spec = fc.record({
      start: fc.option(fc.integer({ min: -4, max: 4 })), stop: fc.option(fc.integer({ min: -4, max: 4 })),
      step: fc.integer({ min: -3, max: 3 }).filter((s) => s !== 0),
    });
    fc.assert(fc.property(fc.array(spec, { minLength: 1, maxLength: 2 }), (specs) => {
      gradcheck((a) => slice(a, ...specs), [r([4, 3], 'float64', 9)]);
    }), { numRuns: 10 });
  });
});
