/**
 * linalg.matmul(A, B, { out }) on the CPU: the product lands in out's own storage (the same
 * typed array, written by the addon), equal bit for bit to the call without out, for every
 * dtype, batched, broadcast and vector shapes, small and large products; out sharing
 * storage with A or B gives the same answer; each bad out is a typed error naming it and
 * leaves out untouched; under grad, out is refused for differentiated tensors.
 */
import { describe, it, expect } from 'vitest';
import {
  linalg, randn, zeros, sum, grad, Tensor, ShapeError, DTypeError, DeviceError, ArgumentError,
} from '../../src/index.js';
import type { FloatDType } from '../../src/core/dtype.js';

const DTYPES: FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];

/** An out tensor filled with NaN (the product must overwrite every element). */
function nanOut(shape: number[], dtype: FloatDType): Tensor {
  const t = zeros(shape, { dtype });
  (t.dataSync() as Float32Array | Float64Array).fill(NaN);
  return t;
}

/** Runs matmul with a fresh NaN-filled out and checks it against the plain call, bit for bit. */
function checkOut(A: Tensor, B: Tensor): Tensor {
  const want = linalg.matmul(A, B);
  const out = nanOut([...want.shape], want.dtype as FloatDType);
  const storage = out.dataSync();
  const got = linalg.matmul(A, B, { out });
  expect(got).toBe(out);
  expect(out.dataSync()).toBe(storage);
  expect(out.shape).toEqual(want.shape);
  expect(Array.from(storage)).toEqual(Array.from(want.dataSync()));
  return out;
}

describe('matmul out: results', () => {
  it('equals the call without out, bit for bit, for every dtype (batched, broadcast, small and packed sizes)', () => {
    const shapes: Array<[number[], number[]]> = [
      [[3, 4], [4, 5]],
      [[7, 8, 8], [7, 8, 8]],
      [[2, 1, 3, 4], [5, 4, 2]],
      [[6, 5], [3, 5, 7]],
      [[3, 70, 40], [40, 90]],
      [[1, 1], [1, 1]],
    ];
    for (const dtype of DTYPES) {
      let seed = 1;
      for (const [sa, sb] of shapes) checkOut(randn(sa, { dtype, seed: seed++ }), randn(sb, { dtype, seed: seed++ }));
    }
  });

  it('the method form A.matmul(B, { out }) writes out too', () => {
    const A = randn([5, 3], { seed: 41 }), B = randn([3, 4], { seed: 42 });
    const out = nanOut([5, 4], 'float64');
    expect(A.matmul(B, { out })).toBe(out);
    expect(Array.from(out.dataSync())).toEqual(Array.from(linalg.matmul(A, B).dataSync()));
  });

  it('vector operands: out has the reduced shape', () => {
    for (const dtype of DTYPES) {
      const v = randn([4], { dtype, seed: 3 }), w = randn([4], { dtype, seed: 4 });
      expect(checkOut(v, w).shape).toEqual([]);
      expect(checkOut(v, randn([2, 4, 3], { dtype, seed: 5 })).shape).toEqual([2, 3]);
      expect(checkOut(randn([2, 1, 3, 4], { dtype, seed: 6 }), w).shape).toEqual([2, 1, 3]);
      expect(checkOut(randn([5, 4], { dtype, seed: 7 }), w).shape).toEqual([5]);
    }
  });

  it('mixed dtypes: out has the promoted dtype', () => {
    const A = randn([3, 4], { dtype: 'float32', seed: 1 }), B = randn([4, 2], { dtype: 'complex128', seed: 2 });
    expect(checkOut(A, B).dtype).toBe('complex128');
    expect(checkOut(A, randn([4, 2], { dtype: 'float64', seed: 3 })).dtype).toBe('float64');
  });

  it('nested arrays as operands; k = 0 writes zeros; empty batches leave out empty', () => {
    const out = nanOut([2, 1], 'float64');
    expect(linalg.matmul([[1, 2], [3, 4]], [[5], [6]], { out }).toArray()).toEqual([[17], [39]]);
    const z = nanOut([2, 3], 'float64');
    linalg.matmul(zeros([2, 0]), zeros([0, 3]), { out: z });
    expect(Array.from(z.dataSync())).toEqual([0, 0, 0, 0, 0, 0]);
    const e = zeros([0, 2, 3]);
    expect(linalg.matmul(zeros([0, 2, 4]), zeros([4, 3]), { out: e })).toBe(e);
  });

  it('reuses out across calls (the loop the option is for)', () => {
    const out = zeros([50, 8, 8]);
    for (let i = 0; i < 5; i++) {
      const A = randn([50, 8, 8], { seed: 10 + i }), B = randn([50, 8, 8], { seed: 20 + i });
      linalg.matmul(A, B, { out });
      expect(Array.from(out.dataSync())).toEqual(Array.from(linalg.matmul(A, B).dataSync()));
    }
  });

  it('a method call without options and an empty options object are the plain product', () => {
    const A = randn([3, 3], { seed: 1 });
    expect(Array.from(linalg.matmul(A, A, {}).dataSync())).toEqual(Array.from(A.matmul(A).dataSync()));
    expect(Array.from(linalg.matmul(A, A, { out: undefined }).dataSync())).toEqual(Array.from(A.matmul(A).dataSync()));
  });
});

describe('matmul out: sharing storage with an operand', () => {
  it('out is A, out is B, out is both: the answer of the call without out', () => {
    for (const dtype of DTYPES) {
      for (const n of [4, 120]) {
        const A = randn([3, n, n], { dtype, seed: 1 }), B = randn([3, n, n], { dtype, seed: 2 });
        const AB = Array.from(linalg.matmul(A, B).dataSync()), AA = Array.from(linalg.matmul(A, A).dataSync());
        const a1 = randn([3, n, n], { dtype, seed: 1 }), b1 = randn([3, n, n], { dtype, seed: 2 });
        expect(linalg.matmul(a1, b1, { out: a1 })).toBe(a1);
        expect(Array.from(a1.dataSync())).toEqual(AB);
        const a2 = randn([3, n, n], { dtype, seed: 1 }), b2 = randn([3, n, n], { dtype, seed: 2 });
        linalg.matmul(a2, b2, { out: b2 });
        expect(Array.from(b2.dataSync())).toEqual(AB);
        const a3 = randn([3, n, n], { dtype, seed: 1 });
        linalg.matmul(a3, a3, { out: a3 });
        expect(Array.from(a3.dataSync())).toEqual(AA);
      }
    }
  });

  // Sizes where an in-place product goes wrong (the GEMM overwrites rows or vector entries it still reads).
  it('out a reshape of B (a matrix-vector product) and out a view of a broadcast operand', () => {
    const n = 64;
    const A = randn([n, n], { seed: 3 }), b = randn([n, 1], { seed: 4 });
    const want = Array.from(linalg.matmul(A, b.reshape([n])).dataSync());
    const out = b.reshape([n]);
    linalg.matmul(A, b.reshape([n]), { out });
    expect(Array.from(out.dataSync())).toEqual(want);
    expect(Array.from(b.dataSync())).toEqual(want);
    // A broadcast over B's batch: out (2, 120, 120) cannot be A (120, 120), but can be B
    const A2 = randn([120, 120], { seed: 5 }), B2 = randn([2, 120, 120], { seed: 6 });
    const want2 = Array.from(linalg.matmul(A2, B2).dataSync());
    linalg.matmul(A2, B2, { out: B2 });
    expect(Array.from(B2.dataSync())).toEqual(want2);
  });

  it('partial overlap: out and A are different windows of one buffer', () => {
    const n = 120, nn = n * n;
    const buf = new Float64Array(3 * nn);
    const src = randn([3 * nn], { seed: 7 }).dataSync() as Float64Array;
    buf.set(src);
    const A = Tensor.fromStorage('float64', [n, n], buf.subarray(0, nn));
    const B = randn([n, n], { seed: 8 });
    const want = Array.from(linalg.matmul(Tensor.fromStorage('float64', [n, n], src.slice(0, nn)), B).dataSync());
    const out = Tensor.fromStorage('float64', [n, n], buf.subarray(nn / 2, nn / 2 + nn));
    linalg.matmul(A, B, { out });
    expect(Array.from(out.dataSync())).toEqual(want);
    // disjoint windows of one buffer: written in place, the rest of the buffer untouched
    buf.set(src);
    const far = Tensor.fromStorage('float64', [n, n], buf.subarray(nn + 1, 2 * nn + 1));
    linalg.matmul(A, B, { out: far });
    expect(Array.from(far.dataSync())).toEqual(want);
    expect(Array.from(buf.subarray(0, nn + 1))).toEqual(Array.from(src.subarray(0, nn + 1)));
    expect(Array.from(buf.subarray(2 * nn + 1))).toEqual(Array.from(src.subarray(2 * nn + 1)));
  });
});

describe('matmul out: bad out', () => {
  const A = randn([2, 3, 4], { seed: 1 }), B = randn([4, 5], { seed: 2 });

  /** The error, and out left as it was. */
  function refused(out: Tensor, cls: new (...a: never[]) => Error, re: RegExp, a: Tensor = A, b: Tensor = B): void {
    const before = out.isDisposed ? [] : Array.from(out.dataSync());
    let err: unknown;
    try { linalg.matmul(a, b, { out }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(cls);
    expect((err as Error).message).toMatch(re);
    if (!out.isDisposed) expect(Array.from(out.dataSync())).toEqual(before);
  }

  it('wrong shape: ShapeError naming out (no resize, no broadcast)', () => {
    refused(zeros([2, 3, 4]), ShapeError, /matmul: out is 2×3×4, the product is 2×3×5/);
    refused(zeros([3, 5]), ShapeError, /out is 3×5/);
    refused(zeros([1, 3, 5]), ShapeError, /out is 1×3×5/);
    refused(zeros([30]), ShapeError, /out is 30/);
    refused(zeros([1]), ShapeError, /out is 1, the product is a scalar/, randn([4]), randn([4]));
    refused(zeros([3, 1]), ShapeError, /out is 3×1, the product is 3/, randn([3, 4]), randn([4]));
  });

  it('wrong dtype: DTypeError naming out (no cast), also against the promoted dtype', () => {
    refused(zeros([2, 3, 5], { dtype: 'float32' }), DTypeError, /matmul: out is float32, the product is float64/);
    refused(zeros([2, 3, 5], { dtype: 'complex128' }), DTypeError, /out is complex128/);
    refused(zeros([2, 3, 5], { dtype: 'float32' }), DTypeError, /out is float32, the product is float64/,
      randn([2, 3, 4], { dtype: 'float32' }), B);
  });

  it('disposed out: DeviceError; not a tensor or an unknown option: ArgumentError', () => {
    const d = zeros([2, 3, 5]);
    d.dispose();
    refused(d, DeviceError, /matmul: out was disposed/);
    expect(() => linalg.matmul(A, B, { out: [[1]] as unknown as Tensor })).toThrow(ArgumentError);
    expect(() => linalg.matmul(A, B, { out: [[1]] as unknown as Tensor })).toThrow(/option out must be a Tensor/);
    expect(() => linalg.matmul(A, B, { outt: zeros([2, 3, 5]) } as never)).toThrow(/unknown option 'outt'/);
    expect(() => linalg.matmul(A, B, null as never)).toThrow(ArgumentError);
  });

  it('a detached out buffer: DeviceError naming out', () => {
    const buf = new ArrayBuffer(2 * 3 * 5 * 8);
    const out = Tensor.fromStorage('float64', [2, 3, 5], new Float64Array(buf));
    structuredClone(buf, { transfer: [buf] });
    expect(() => linalg.matmul(A, B, { out })).toThrow(DeviceError);
    expect(() => linalg.matmul(A, B, { out })).toThrow(/matmul: out: the tensor's ArrayBuffer was detached/);
  });

  it('operand errors come first, as without out', () => {
    refused(zeros([2, 3, 5]), ShapeError, /inner dims 4 ≠ 3/, A, randn([3, 5]));
    refused(zeros([2, 3, 5], { dtype: 'float16' }), DTypeError, /float16 is a storage dtype/,
      zeros([2, 3, 4], { dtype: 'float16' }), zeros([4, 5], { dtype: 'float16' }));
  });
});

describe('matmul out: under grad', () => {
  it('refused when A, B or out is differentiated; allowed on constants', () => {
    const B = randn([3, 3], { seed: 2 });
    const out = zeros([3, 3]);
    const f = (x: Tensor) => sum(linalg.matmul(x, B, { out }));
    expect(() => grad(f)(randn([3, 3], { seed: 1 }))).toThrow(ArgumentError);
    expect(() => grad(f)(randn([3, 3], { seed: 1 }))).toThrow(/matmul: not differentiable .* the out option writes in place/);
    // out itself the differentiated tensor
    expect(() => grad((o: Tensor) => { linalg.matmul(B, B, { out: o }); return sum(o); })(zeros([3, 3]))).toThrow(/out option/);
    // constants only: the product is written, and the gradient of the rest is right
    const C = zeros([3, 3]);
    const [g] = grad((x: Tensor) => { linalg.matmul(B, B, { out: C }); return sum(linalg.matmul(x, C)); })(randn([3, 3], { seed: 4 }));
    expect(Array.from(C.dataSync())).toEqual(Array.from(linalg.matmul(B, B).dataSync()));
    // d/dx sum(x·C) = 1·Cᵀ: row i of the gradient is the row sums of C
    const c = C.toArray() as number[][];
    const rowSums = c.map((r) => r.reduce((s, v) => s + v, 0));
    for (const row of g.toArray() as number[][]) row.forEach((v, j) => expect(v).toBeCloseTo(rowSums[j], 12));
  });
});
