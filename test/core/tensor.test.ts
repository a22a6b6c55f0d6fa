import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { all, create } from 'mathjs';
import {
  tensor, zeros, eye, randn, Rng, Tensor, Complex, ShapeError, DTypeError, DeviceError, fromMathjs, toMathjs,
} from '../../src/index.js';
import { broadcastShapes, broadcastIndex } from '../../src/core/shape.js';
import { planBatch } from '../../src/core/batch.js';
import { Registry } from '../../src/backend/registry.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });

describe('Tensor construction', () => {
  it('builds from nested numbers, row-major, float64 by default', () => {
    const t = tensor([[1, 2, 3], [4, 5, 6]]);
    expect(t.dtype).toBe('float64');
    expect(t.shape).toEqual([2, 3]);
    expect(Array.from(t.dataSync())).toEqual([1, 2, 3, 4, 5, 6]);
    expect(t.toArray()).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('stores complex values interleaved and reads them back as Complex', () => {
    const t = tensor([[new Complex(1, 2), { re: 3, im: -4 }]], { dtype: 'complex64' });
    expect(t.dataSync()).toBeInstanceOf(Float32Array);
    expect(Array.from(t.dataSync())).toEqual([1, 2, 3, -4]);
    const back = t.toArray() as Complex[][];
    expect(back[0][1].re).toBe(3);
    expect(back[0][1].im).toBe(-4);
  });

  it('infers complex128 when any leaf is complex, and promotes reals in it', () => {
    const t = tensor([[1, new Complex(0, 1)]]);
    expect(t.dtype).toBe('complex128');
    expect(Array.from(t.dataSync())).toEqual([1, 0, 0, 1]);
  });

  it('wraps a typed array of the right storage type without copying', () => {
    const data = new Float32Array([1, 2, 3, 4, 5, 6]);
    const t = tensor({ data, shape: [3, 2] });
    expect(t.dtype).toBe('float32');
    expect(t.dataSync()).toBe(data);
  });

  it('round-trips any shape through typed arrays (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('float32', 'float64', 'complex64', 'complex128' as const),
      (shape, dtype) => {
        const t = randn(shape, { dtype, seed: 7 });
        const u = tensor({ data: t.dataSync().slice(), shape, dtype });
        expect(Array.from(u.dataSync())).toEqual(Array.from(t.dataSync()));
        expect(u.size).toBe(shape.reduce((a, b) => a * b, 1));
      },
    ));
  });

  it('rejects ragged input, wrong lengths and unknown dtypes with typed errors', () => {
    expect(() => tensor([[1, 2], [3]])).toThrow(ShapeError);
    expect(() => tensor({ data: new Float64Array(5), shape: [2, 3] })).toThrow(/needs 6 scalars, data holds 5/);
    expect(() => tensor([[1]], { dtype: 'bfloat16' as never })).toThrow(DTypeError);
    expect(() => tensor([[new Complex(1, 1)]], { dtype: 'float64' })).toThrow(DTypeError);
    expect(() => tensor([['a']] as never)).toThrow(DTypeError);
  });

  it('eye, zeros and batched eye', () => {
    expect(eye(2).toArray()).toEqual([[1, 0], [0, 1]]);
    expect(eye(2, { m: 3 }).toArray()).toEqual([[1, 0, 0], [0, 1, 0]]);
    const b = eye(2, { batch: [2], dtype: 'complex64' });
    expect(Array.from(b.dataSync())).toEqual([1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0]);
    expect(Array.from(zeros([2, 2]).dataSync())).toEqual([0, 0, 0, 0]);
  });

  it('randn is reproducible from its seed and roughly standard normal', () => {
    const a = randn([1000], { seed: 42 }).dataSync();
    const b = randn([1000], { seed: 42 }).dataSync();
    expect(Array.from(a)).toEqual(Array.from(b));
    const c = randn([1000], { seed: 43 }).dataSync();
    expect(Array.from(a)).not.toEqual(Array.from(c));
    const big = randn([20000], { seed: 1 }).dataSync();
    let mean = 0, sq = 0;
    for (const x of big) { mean += x; sq += x * x; }
    mean /= big.length; sq /= big.length;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(sq - 1)).toBeLessThan(0.05);
    const u = new Rng(3);
    for (let i = 0; i < 1000; i++) { const x = u.uniform(); expect(x >= 0 && x < 1).toBe(true); }
  });

  it('reshape is a view on the CPU and checks sizes', () => {
    const t = tensor([[1, 2, 3], [4, 5, 6]]);
    const r = t.reshape([3, 2]);
    expect(r.dataSync()).toBe(t.dataSync());
    expect(() => t.reshape([4, 2])).toThrow(ShapeError);
  });

  it('dispose makes further use a DeviceError and is idempotent', () => {
    const t = tensor([[1]]);
    t.dispose();
    t.dispose();
    expect(t.isDisposed).toBe(true);
    expect(() => t.dataSync()).toThrow(DeviceError);
  });

  it('Tensor.fromStorage checks the array type and length', () => {
    expect(() => Tensor.fromStorage('float32', [2], new Float64Array(2) as never)).toThrow(DTypeError);
    expect(() => Tensor.fromStorage('complex64', [2], new Float32Array(2))).toThrow(ShapeError);
  });
});

describe('broadcasting plans', () => {
  it('broadcasts batch dims like torch', () => {
    expect(broadcastShapes([2, 1], [3], 'op')).toEqual([2, 3]);
    expect(() => broadcastShapes([2], [3], 'solve')).toThrow(/solve: batch dims of A \(2\) and B \(3\) do not broadcast/);
  });

  it('index maps agree with explicit index arithmetic (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 0, maxLength: 3 }),
      fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      (out, ones) => {
        const src = out.map((d, i) => (ones[i] ? 1 : d));
        const idx = broadcastIndex(src, out);
        const total = out.reduce((a, b) => a * b, 1);
        expect(idx.length).toBe(total);
        for (let f = 0; f < total; f++) {
          let rem = f, off = 0, stride = 1;
          const coords: number[] = [];
          for (let i = out.length - 1; i >= 0; i--) { coords[i] = rem % out[i]; rem = Math.floor(rem / out[i]); }
          for (let i = out.length - 1; i >= 0; i--) { off += (src[i] === 1 ? 0 : coords[i]) * stride; stride *= src[i]; }
          expect(idx[f]).toBe(off);
        }
      },
    ));
  });

  it('planBatch drops identity maps', () => {
    const A = zeros([2, 3, 2, 2]);
    const B = zeros([3, 2, 2]);
    const p = planBatch(A, B, 'op');
    expect(p.batchShape).toEqual([2, 3]);
    expect(p.aIdx).toBeNull();
    expect(Array.from(p.bIdx!)).toEqual([0, 1, 2, 0, 1, 2]);
  });
});

describe('registry', () => {
  it('says which dtype/device pairs exist', () => {
    const r = new Registry();
    const det = (A: Tensor) => A;
    r.register('det', ['float32'], 'cpu', det);
    const A = Tensor.empty('float32', [2, 2]);
    expect(r.lookup('det', 'float32', 'cpu')(A)).toBe(A);
    expect(() => r.lookup('det', 'float64', 'cpu')).toThrow(/float64 is not supported on cpu \(supported: float32 on cpu\)/);
    expect(() => r.lookup('det', 'float64', 'gpu')).toThrow(DTypeError);
    expect(() => r.lookup('det', 'float64', 'gpu')).toThrow(/WGSL has no f64/);
    expect(() => r.lookup('svd', 'float32', 'cpu')).toThrow(DeviceError);
  });
});

describe('mathjs interop', () => {
  it('converts mathjs matrices with Complex entries both ways', () => {
    const M = math.matrix([[math.complex(1, 2), 3], [0, math.complex(0, -1)]]);
    const t = tensor(fromMathjs(M) as never);
    expect(t.dtype).toBe('complex128');
    expect(Array.from(t.dataSync())).toEqual([1, 2, 3, 0, 0, 0, 0, -1]);
    const back = toMathjs(math, t.toArray()) as ReturnType<typeof math.matrix>;
    expect(math.deepEqual(back as never, M as never)).toBe(true);
  });

  it('Complex arithmetic matches mathjs (property)', () => {
    const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    fc.assert(fc.property(finite, finite, finite, finite, (a, b, c, d) => {
      fc.pre(Math.hypot(c, d) > 1e-3);
      const z = new Complex(a, b), w = new Complex(c, d);
      const ref = math.divide(math.complex(a, b), math.complex(c, d)) as { re: number; im: number };
      const q = z.div(w);
      const scale = Math.hypot(ref.re, ref.im) + 1e-300;
      expect(Math.hypot(q.re - ref.re, q.im - ref.im) / scale).toBeLessThan(1e-14);
      const p = z.mul(w);
      expect(p.re).toBeCloseTo(a * c - b * d, 6);
    }));
  });
});

describe('detached or resized storage', () => {
  it('a tensor whose ArrayBuffer was transferred is a DeviceError in every op, not a bare RangeError', async () => {
    const { linalg } = await import('../../src/index.js');
    const data = new Float64Array([4, 1, 2, 3]);
    const A = tensor({ data, shape: [2, 2] });
    structuredClone(data.buffer, { transfer: [data.buffer] });
    expect(() => A.dataSync()).toThrow(DeviceError);
    expect(() => A.toArray()).toThrow(/detached/);
    expect(() => linalg.inv(A)).toThrow(DeviceError);
    expect(() => linalg.solve(A, [[1], [2]])).toThrow(DeviceError);
  });
  it('a tensor on a shrunk resizable ArrayBuffer is a DeviceError', async () => {
    const { linalg } = await import('../../src/index.js');
    const buf = new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer)(32, { maxByteLength: 64 });
    const A = tensor({ data: new Float64Array(buf, 0, 4), shape: [2, 2] });
    (buf as ArrayBuffer & { resize(n: number): void }).resize(8);
    expect(() => linalg.det(A)).toThrow(DeviceError);
  });
});

describe('detached empty storage', () => {
  it('an empty tensor whose ArrayBuffer was transferred is a DeviceError too', () => {
    const data = new Float32Array(0);
    const A = tensor({ data, shape: [2, 0] });
    structuredClone(data.buffer, { transfer: [data.buffer] });
    expect(() => A.dataSync()).toThrow(DeviceError);
  });
});
