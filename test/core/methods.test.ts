// Tensor methods (src/ops/methods.ts) are thin calls of the public functions: each one
// must give exactly what its function gives (dtype, shape, every bit of the data) and
// throw what it throws.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as lapis from '../../src/index.js';
import { tensor, randn, Tensor, Complex, ShapeError, linalg } from '../../src/index.js';

function expectSame(a: unknown, b: Tensor): void {
  expect(a).toBeInstanceOf(Tensor);
  const t = a as Tensor;
  expect(t.dtype).toBe(b.dtype);
  expect(t.shape).toEqual(b.shape);
  // toEqual compares with Object.is: NaN equals NaN, −0 differs from 0
  expect(Array.from(t.dataSync())).toEqual(Array.from(b.dataSync()));
}

type Fn = (...args: unknown[]) => Tensor;
const fn = (name: string): Fn => (lapis as unknown as Record<string, Fn>)[name];
const call = (t: Tensor, name: string, ...args: unknown[]): unknown =>
  (t as unknown as Record<string, (...a: unknown[]) => unknown>)[name](...args);

const BINARY = ['add', 'sub', 'mul', 'div', 'pow', 'minimum', 'maximum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr'];
const UNARY = ['neg', 'abs', 'sign', 'sqrt', 'exp', 'log', 'log1p', 'expm1', 'sin', 'cos', 'tanh', 'sigmoid', 'logicalNot'];
const COMPLEX_UNARY = ['conj', 'real', 'imag', 'angle', 'abs', 'neg', 'exp', 'sqrt'];

describe('elementwise methods equal their functions', () => {
  const x = tensor([[1.5, -2, 0], [NaN, 4, -0]]);
  const y = tensor([2, -1, 0.5]);

  it.each(BINARY)('x.%s(y) with broadcasting, and with a JS scalar', (name) => {
    expectSame(call(x, name, y), fn(name)(x, y));
    expectSame(call(x, name, 2), fn(name)(x, 2));
  });

  it.each(UNARY)('x.%s()', (name) => {
    expectSame(call(x, name), fn(name)(x));
  });

  it.each(COMPLEX_UNARY)('z.%s() on complex64', (name) => {
    const z = tensor([new Complex(1, -2), new Complex(-0.5, 3)], { dtype: 'complex64' });
    expectSame(call(z, name), fn(name)(z));
  });

  it('binary methods over dtypes and broadcast shapes (property)', () => {
    const dtypes = ['float32', 'float64', 'int32', 'uint32', 'bool'] as const;
    fc.assert(fc.property(
      fc.constantFrom(...BINARY), fc.constantFrom(...dtypes), fc.constantFrom(...dtypes),
      fc.constantFrom([[3], [3]], [[2, 3], [3]], [[2, 1], [1, 4]], [[], [2]]), fc.integer({ min: 0, max: 1000 }),
      (name, da, db, [sa, sb], seed) => {
        const mk = (shape: readonly number[], d: typeof dtypes[number], s: number): Tensor =>
          lapis.cast(lapis.mul(randn(shape, { seed: s }), 3), d);
        const a = mk(sa, da, seed), b = mk(sb, db, seed + 1);
        let want: Tensor | Error;
        try { want = fn(name)(a, b); } catch (e) { want = e as Error; }
        if (want instanceof Error) {
          expect(() => call(a, name, b)).toThrow(want.constructor as new () => Error);
        } else {
          expectSame(call(a, name, b), want);
        }
      },
    ), { numRuns: 60 });
  });

  it('clamp, cast and astype', () => {
    expectSame(x.clamp(-1, 1), lapis.clamp(x, -1, 1));
    expectSame(x.clamp(null, 0), lapis.clamp(x, null, 0));
    expectSame(x.cast('int32'), lapis.cast(x, 'int32'));
    expectSame(x.astype('bool'), lapis.cast(x, 'bool'));
    expect(() => x.clamp()).toThrow(lapis.ArgumentError);
  });

  it('where stays a function: x.gt(0) feeds it', () => {
    expectSame(lapis.where(x.gt(0), x, 0), lapis.where(lapis.gt(x, 0), x, 0));
    expect((x as unknown as Record<string, unknown>).where).toBeUndefined();
  });
});

describe('matmul, shape and indexing methods equal their functions', () => {
  const A = randn([2, 3, 4], { seed: 3 });
  const M = tensor([[1, 2, 3], [4, 5, 6]]);

  it('A.matmul(B) is linalg.matmul', () => {
    const B = randn([4, 2], { seed: 4 });
    expectSame(A.matmul(B), linalg.matmul(A, B));
    expectSame(M.matmul([[1], [0], [-1]]), linalg.matmul(M, [[1], [0], [-1]]));
  });

  it('flatten, squeeze, unsqueeze (shared storage), expand, broadcastTo', () => {
    expectSame(A.flatten(), lapis.flatten(A));
    expectSame(A.flatten(1), lapis.flatten(A, 1));
    const s = randn([1, 3, 1], { seed: 5 });
    expectSame(s.squeeze(), lapis.squeeze(s));
    expectSame(s.squeeze(0), lapis.squeeze(s, 0));
    expectSame(M.unsqueeze(-1), lapis.unsqueeze(M, -1));
    expectSame(s.expand([2, 3, 4]), lapis.expand(s, [2, 3, 4]));
    expectSame(M.broadcastTo([2, 2, 3]), lapis.broadcastTo(M, [2, 2, 3]));
  });

  it('transpose, permute, mT, mH, T', () => {
    expectSame(A.transpose(), lapis.transpose(A));
    expectSame(A.transpose(0, 2), lapis.transpose(A, 0, 2));
    expectSame(A.permute([2, 0, 1]), lapis.permute(A, [2, 0, 1]));
    expectSame(A.mT, lapis.matrixTranspose(A));
    const Z = tensor([[new Complex(1, 2), new Complex(3, -1)]]);
    expectSame(Z.mH, lapis.adjoint(Z));
    expectSame(M.T, lapis.transpose(M, 0, 1));
    expectSame(M.T, M.mT);
    expect(tensor([1, 2, 3]).T.toArray()).toEqual([1, 2, 3]);
    expect(tensor(5).T.toArray()).toBe(5);
    expect(() => A.T).toThrow(ShapeError);
  });

  it('diagonal, triu, tril, trace', () => {
    expectSame(A.diagonal(), lapis.diagonal(A));
    expectSame(A.diagonal({ offset: 1 }), lapis.diagonal(A, { offset: 1 }));
    expectSame(A.triu(), lapis.triu(A));
    expectSame(A.tril(-1), lapis.tril(A, -1));
    expectSame(M.trace(), lapis.trace(M));
  });

  it('slice, split, take, put', () => {
    expectSame(A.slice('...', '1:3'), lapis.slice(A, '...', '1:3'));
    expectSame(M.slice(-1, '::-1'), lapis.slice(M, -1, '::-1'));
    const parts = M.split(2, 1), want = lapis.split(M, 2, 1);
    expect(parts.length).toBe(want.length);
    parts.forEach((p, i) => expectSame(p, want[i]));
    expectSame(M.take([0, -1]), lapis.take(M, [0, -1]));
    expectSame(M.put([0, 5, 0], [1, 2, 3], { accumulate: true }), lapis.put(M, [0, 5, 0], [1, 2, 3], { accumulate: true }));
    expectSame(M.put([1], 9), lapis.put(M, [1], 9));
  });
});

describe('reduction methods equal their functions', () => {
  const A = tensor([[1.5, -2, 3], [NaN, 4, 0.25]]);
  const I = tensor([[1, -2, 3], [7, 4, 0]], { dtype: 'int32' });
  const B = tensor([[true, false, true], [true, true, true]]);

  it.each(['sum', 'prod', 'mean', 'max', 'min', 'any', 'all'])('x.%s(opts) over all dims, one dim, several dims with keepDims', (name) => {
    for (const x of [A, I, B]) {
      for (const opts of [undefined, { dim: 0 }, { dim: -1, keepDims: true }, { dim: [0, 1] }]) {
        let want: Tensor | Error;
        try { want = fn(name)(x, opts); } catch (e) { want = e as Error; }
        if (want instanceof Error) expect(() => call(x, name, opts)).toThrow(want.constructor as new () => Error);
        else expectSame(call(x, name, opts), want);
      }
    }
  });

  it('argmax, argmin, maxWithIndices, minWithIndices', () => {
    expectSame(I.argmax(), lapis.argmax(I));
    expectSame(A.argmin({ dim: 1, keepDims: true }), lapis.argmin(A, { dim: 1, keepDims: true }));
    const m = I.maxWithIndices(1), wm = lapis.maxWithIndices(I, 1);
    expectSame(m.values, wm.values);
    expectSame(m.indices, wm.indices);
    const n = A.minWithIndices(0, { keepDims: true }), wn = lapis.minWithIndices(A, 0, { keepDims: true });
    expectSame(n.values, wn.values);
    expectSame(n.indices, wn.indices);
  });

  it('A.sum() chains with elementwise methods', () => {
    expectSame(I.mul(2).sum({ dim: 0 }), lapis.sum(lapis.mul(I, 2), { dim: 0 }));
  });
});

describe('method plumbing', () => {
  it('methods are non-enumerable: spreading and printing a tensor are unchanged', () => {
    const t = tensor([1, 2]);
    expect(Object.keys(t)).not.toContain('add');
    expect(Object.keys(t)).not.toContain('mT');
    expect(Object.getOwnPropertyDescriptor(Tensor.prototype, 'add')?.enumerable).toBe(false);
  });

  it('errors name the function (the method is a plain call of it)', () => {
    expect(() => tensor([1, 2]).add(tensor([1, 2, 3]))).toThrow(/^add: /);
    const t = tensor([1]);
    t.dispose();
    expect(() => t.add(1)).toThrow(lapis.DeviceError);
  });
});
