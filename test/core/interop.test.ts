// One test per input kind tensor() accepts from outside lapis (bare typed arrays, booleans,
// mathjs and ml-matrix matrices, scijs-ndarray-style strided objects), the dtypes they get,
// and the conversions back (toMlMatrix, toMathjs).
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { all, create } from 'mathjs';
import { Matrix, SymmetricMatrix, MatrixTransposeView, MatrixSubView } from 'ml-matrix';
import {
  tensor, zeros, eye, randn, Tensor, Complex, ArgumentError, DTypeError, ShapeError, DeviceError, toMathjs, toMlMatrix, linalg,
} from '../../src/index.js';
import { castCpu } from '../../src/core/create.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });

describe('bare typed arrays are 1-D tensors', () => {
  it('Float64Array → float64, wrapped without a copy', () => {
    const a = new Float64Array([1, 2.5, -3]);
    const t = tensor(a);
    expect(t.dtype).toBe('float64');
    expect(t.shape).toEqual([3]);
    expect(t.dataSync()).toBe(a);
  });

  it('Float32Array → float32', () => {
    const t = tensor(new Float32Array([0.5, 1]));
    expect(t.dtype).toBe('float32');
    expect(Array.from(t.dataSync())).toEqual([0.5, 1]);
  });

  it('Int32Array → int32 and Uint32Array → uint32, values intact', () => {
    const i = tensor(new Int32Array([-2147483648, 0, 7]));
    expect(i.dtype).toBe('int32');
    expect(i.toArray()).toEqual([-2147483648, 0, 7]);
    const u = tensor(new Uint32Array([4294967295, 0, 1]));
    expect(u.dtype).toBe('uint32');
    expect(u.toArray()).toEqual([4294967295, 0, 1]);
  });

  it('Uint8Array (bytes, not booleans) and the other small integer arrays → int32, exactly', () => {
    const u8 = tensor(new Uint8Array([0, 1, 200, 255]));
    expect(u8.dtype).toBe('int32');
    expect(u8.toArray()).toEqual([0, 1, 200, 255]);
    for (const [C, v] of [[Int8Array, [-128, 127]], [Int16Array, [-32768, 32767]], [Uint16Array, [0, 65535]], [Uint8ClampedArray, [0, 255]]] as const) {
      const t = tensor(new C([...v]));
      expect(t.dtype).toBe('int32');
      expect(t.toArray()).toEqual(v);
    }
  });

  it('BigInt arrays and DataView are refused with errors naming them', () => {
    expect(() => tensor(new BigInt64Array(2) as never)).toThrow(DTypeError);
    expect(() => tensor(new BigInt64Array(2) as never)).toThrow(/BigInt64Array/);
    expect(() => tensor(new BigUint64Array(2) as never)).toThrow(/BigUint64Array/);
    expect(() => tensor(new DataView(new ArrayBuffer(8)) as never)).toThrow(ArgumentError);
  });

  it('opts.dtype casts the values (real → complex keeps n elements)', () => {
    const t = tensor(new Float64Array([1, 2]), { dtype: 'complex128' });
    expect(t.shape).toEqual([2]);
    expect(Array.from(t.dataSync())).toEqual([1, 0, 2, 0]);
    expect(tensor(new Int32Array([3, -4]), { dtype: 'float32' }).toArray()).toEqual([3, -4]);
  });

  it('is accepted by ops (asTensor): matmul of typed arrays', () => {
    const r = linalg.matmul(tensor(new Float64Array([1, 2])).reshape([1, 2]), { data: new Float64Array([3, 4]), shape: [2, 1] });
    expect(r.toArray()).toEqual([[11]]);
  });
});

describe('bool and uint32 from JS values', () => {
  it('nested booleans → bool, scalars true/false, toArray gives booleans back', () => {
    const t = tensor([[true, false], [false, true]]);
    expect(t.dtype).toBe('bool');
    expect(t.dataSync()).toBeInstanceOf(Uint8Array);
    expect(Array.from(t.dataSync())).toEqual([1, 0, 0, 1]);
    expect(t.toArray()).toEqual([[true, false], [false, true]]);
    expect(tensor(t.toArray()).dtype).toBe('bool');
    const s = tensor(true);
    expect(s.dtype).toBe('bool');
    expect(s.shape).toEqual([]);
    expect(s.toArray()).toBe(true);
    expect(tensor(false, { dtype: 'float32' }).toArray()).toBe(0);
    // a mix of booleans and numbers is numeric (numpy: np.array([True, 2]) is an int array)
    expect(tensor([true, 2]).dtype).toBe('float64');
  });

  it('{ data, shape, dtype: bool | uint32 } checks the values are of the type', () => {
    const b = tensor({ data: new Uint8Array([1, 0, 1]), shape: [3], dtype: 'bool' });
    expect(b.toArray()).toEqual([true, false, true]);
    expect(() => tensor({ data: new Uint8Array([2]), shape: [1], dtype: 'bool' })).toThrow(ArgumentError);
    expect(() => tensor({ data: [0.5], shape: [1], dtype: 'bool' })).toThrow(/not a bool value/);
    const u = tensor({ data: [0, 4294967295], shape: [2], dtype: 'uint32' });
    expect(u.dataSync()).toBeInstanceOf(Uint32Array);
    expect(() => tensor({ data: [-1], shape: [1], dtype: 'uint32' })).toThrow(/not a uint32 value/);
    expect(() => tensor([[2 ** 32]], { dtype: 'uint32' })).toThrow(ArgumentError);
    expect(() => tensor(2, { dtype: 'bool' })).toThrow(ArgumentError);
  });

  it('zeros and eye for uint32 and bool; randn refuses integral dtypes', () => {
    expect(zeros([2], { dtype: 'uint32' }).dataSync()).toBeInstanceOf(Uint32Array);
    expect(eye(2, { dtype: 'bool' }).toArray()).toEqual([[true, false], [false, true]]);
    expect(eye(2, { dtype: 'uint32', m: 3 }).toArray()).toEqual([[1, 0, 0], [0, 1, 0]]);
    for (const d of ['int32', 'uint32', 'bool'] as const) expect(() => randn([2], { dtype: d })).toThrow(DTypeError);
  });

  it('castCpu follows the cast rules: truncation toward zero, NaN → 0, saturation, x ≠ 0 for bool', () => {
    const x = tensor([1.9, -1.9, NaN, 1e10, -1e10, -0, 0.25]);
    expect(castCpu(x, 'int32').toArray()).toEqual([1, -1, 0, 2147483647, -2147483648, 0, 0]);
    expect(castCpu(x, 'uint32').toArray()).toEqual([1, 0, 0, 4294967295, 0, 0, 0]);
    expect(castCpu(x, 'bool').toArray()).toEqual([true, true, true, true, true, false, true]);
    expect(castCpu(tensor([new Complex(0, 1), new Complex(0, 0)]), 'bool').toArray()).toEqual([true, false]);
    expect(castCpu(tensor([true, false]), 'float32').toArray()).toEqual([1, 0]);
    expect(castCpu(tensor([-1], { dtype: 'int32' }), 'uint32').toArray()).toEqual([4294967295]);
    expect(() => castCpu(tensor([new Complex(1, 1)]), 'int32')).toThrow(DTypeError);
    // the implicit conversion of tensor(t, { dtype }) stays exact
    expect(() => tensor(tensor([1.5]), { dtype: 'int32' })).toThrow(ArgumentError);
  });
});

describe('mathjs matrices', () => {
  it('a DenseMatrix of numbers → float64 with its shape', () => {
    const t = tensor(math.matrix([[1, 2, 3], [4, 5, 6]]) as never);
    expect(t.dtype).toBe('float64');
    expect(t.toArray()).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('complex entries → complex128; dtype option honoured', () => {
    const m = math.matrix([[math.complex(1, 2), 3], [math.complex(0, -1), 0]]);
    const t = tensor(m as never);
    expect(t.dtype).toBe('complex128');
    expect(Array.from(t.dataSync())).toEqual([1, 2, 3, 0, 0, -1, 0, 0]);
    expect(tensor(m as never, { dtype: 'complex64' }).dtype).toBe('complex64');
  });

  it('a SparseMatrix is converted to dense', () => {
    const t = tensor(math.sparse([[0, 2], [3, 0]]) as never);
    expect(t.toArray()).toEqual([[0, 2], [3, 0]]);
  });

  it('BigNumber entries become float64; units are refused by type', () => {
    expect(tensor(math.matrix([math.bignumber(1.5), math.fraction(1, 4)]) as never).toArray()).toEqual([1.5, 0.25]);
    expect(() => tensor(math.matrix([math.unit(1, 'm')]) as never)).toThrow(/Unit/);
  });

  it('is accepted wherever a tensor is (solve with mathjs inputs), and toMathjs round-trips', () => {
    const A = math.matrix([[4, 1], [2, 3]]);
    const b = math.matrix([[1], [2]]);
    const x = linalg.solve(A as never, b as never);
    const back = toMathjs(math, x.toArray()) as ReturnType<typeof math.matrix>;
    const r = math.subtract(math.multiply(A, back as never), b) as ReturnType<typeof math.matrix>;
    expect(Math.max(...(r.toArray().flat() as number[]).map(Math.abs))).toBeLessThan(1e-14);
    const z = tensor([[new Complex(1, -2)]]);
    expect(tensor(toMathjs(math, z.toArray()) as never).toArray()).toEqual(z.toArray());
  });
});

describe('ml-matrix matrices', () => {
  it('a Matrix → float64 [rows, columns]', () => {
    const t = tensor(new Matrix([[1, 2, 3], [4, 5, 6]]));
    expect(t.dtype).toBe('float64');
    expect(t.toArray()).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('views (transpose, sub-matrix) and SymmetricMatrix are read through get()', () => {
    const m = new Matrix([[1, 2, 3], [4, 5, 6]]);
    expect(tensor(new MatrixTransposeView(m)).toArray()).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(tensor(new MatrixSubView(m, 0, 1, 1, 2)).toArray()).toEqual([[2, 3], [5, 6]]);
    expect(tensor(new SymmetricMatrix([[1, 2], [2, 3]])).toArray()).toEqual([[1, 2], [2, 3]]);
  });

  it('is accepted by ops, and toMlMatrix round-trips (class or instance)', () => {
    const A = new Matrix([[2, 0], [1, 3]]);
    const d = linalg.det(A);
    expect(d.toArray()).toBe(6);
    fc.assert(fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer(), (m, n, seed) => {
      const t = randn([m, n], { seed });
      const M = toMlMatrix(t, Matrix);
      expect(M).toBeInstanceOf(Matrix);
      expect([M.rows, M.columns]).toEqual([m, n]);
      expect(tensor(M).toArray()).toEqual(t.toArray());
      expect(tensor(toMlMatrix(t, A)).toArray()).toEqual(t.toArray());
    }), { numRuns: 30 });
    expect(toMlMatrix(tensor([1, 2, 3]), Matrix).to2DArray()).toEqual([[1, 2, 3]]);
    expect(toMlMatrix([[1, 2]], Matrix).get(0, 1)).toBe(2);
  });

  it('toMlMatrix refuses complex, > 2 dims, GPU-less bad classes and disposed tensors', () => {
    expect(() => toMlMatrix(tensor([new Complex(1, 1)]), Matrix)).toThrow(DTypeError);
    expect(() => toMlMatrix(zeros([1, 1, 1]), Matrix)).toThrow(ShapeError);
    expect(() => toMlMatrix(zeros([1]), {} as never)).toThrow(ArgumentError);
    const t = zeros([1]);
    t.dispose();
    expect(() => toMlMatrix(t, Matrix)).toThrow(DeviceError);
  });
});

/** scijs ndarray keeps shape and stride behind getters on its prototype, offset as a field. */
class FakeNdarray {
  constructor(readonly data: Float64Array | number[], private readonly _shape: number[], private readonly _stride: number[], readonly offset: number) {}
  get shape(): number[] { return this._shape; }
  get stride(): number[] { return this._stride; }
  get dtype(): string { return Array.isArray(this.data) ? 'array' : 'float64'; }
}

/** Reference: element (i…) of a strided window. */
function refGather(data: ArrayLike<number>, shape: number[], stride: number[], offset: number): number[] {
  const out: number[] = [];
  const rec = (d: number, at: number): void => {
    if (d === shape.length) { out.push(data[at]); return; }
    for (let i = 0; i < shape[d]; i++) rec(d + 1, at + i * stride[d]);
  };
  rec(0, offset);
  return out;
}

describe('ndarray-style strided objects', () => {
  it('a transposed stride comes out as the transpose', () => {
    const data = new Float64Array([1, 2, 3, 4, 5, 6]); // a 2×3 row-major matrix
    const t = tensor({ data, shape: [3, 2], stride: [1, 3], offset: 0 });
    expect(t.shape).toEqual([3, 2]);
    expect(t.toArray()).toEqual([[1, 4], [2, 5], [3, 6]]);
    expect(t.dataSync()).not.toBe(data);
  });

  it('an offset and a negative stride (a reversed sub-range)', () => {
    const data = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(tensor({ data, shape: [3], stride: [-2], offset: 8 }).toArray()).toEqual([8, 6, 4]);
    const nd = new FakeNdarray(new Float64Array(data), [2, 2], [-5, 1], 6);
    const t = tensor(nd);
    expect(t.dtype).toBe('float64');
    expect(t.toArray()).toEqual([[6, 7], [1, 2]]);
  });

  it('stride without offset means offset 0; offset without stride means row-major', () => {
    expect(tensor({ data: [1, 2, 3, 4], shape: [2, 2], stride: [1, 2] }).toArray()).toEqual([[1, 3], [2, 4]]);
    expect(tensor({ data: [9, 1, 2], shape: [2], offset: 1 }).toArray()).toEqual([1, 2]);
  });

  it('matches a reference gather for random in-bounds windows (property)', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 0, maxLength: 3 }),
      fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 3, maxLength: 3 }),
      fc.nat(40),
      (shape, strideAll, slack) => {
        const stride = strideAll.slice(0, shape.length);
        let lo = 0, hi = 0;
        shape.forEach((n, d) => { if (n > 0) { const r = stride[d] * (n - 1); if (r < 0) lo += r; else hi += r; } });
        const offset = -lo + (slack % 3);
        const data = Float64Array.from({ length: offset + hi + 1 + (slack % 2) }, (_, i) => i * 1.5);
        const t = tensor({ data, shape, stride, offset });
        expect(t.shape).toEqual(shape);
        expect(Array.from(t.dataSync())).toEqual(refGather(data, shape, stride, offset));
      },
    ), { numRuns: 200 });
  });

  it('complex dtype: strides in elements over interleaved pairs', () => {
    const data = new Float32Array([1, 10, 2, 20, 3, 30, 4, 40]);
    const t = tensor({ data, shape: [2, 2], stride: [1, 2], offset: 0, dtype: 'complex64' });
    expect(Array.from(t.dataSync())).toEqual([1, 10, 3, 30, 2, 20, 4, 40]);
  });

  it('out-of-bounds stride or offset is an ArgumentError naming it, never a wrong read', () => {
    const data = new Float64Array(6);
    expect(() => tensor({ data, shape: [3, 2], stride: [1, 4], offset: 0 })).toThrow(ArgumentError);
    expect(() => tensor({ data, shape: [3, 2], stride: [1, 4], offset: 0 })).toThrow(/stride/);
    expect(() => tensor({ data, shape: [2], stride: [-1], offset: 0 })).toThrow(/stride/);
    expect(() => tensor({ data, shape: [2], stride: [1], offset: 6 })).toThrow(/offset/);
    expect(() => tensor({ data, shape: [2], stride: [1], offset: -1 })).toThrow(/offset/);
    expect(() => tensor({ data, shape: [2], stride: [1], offset: 0.5 })).toThrow(/offset/);
    expect(() => tensor({ data, shape: [2, 2], stride: [1], offset: 0 })).toThrow(/stride/);
    // an empty window reaches nothing: any offset is fine
    expect(tensor({ data, shape: [0, 3], stride: [1, 1], offset: 99 }).shape).toEqual([0, 3]);
  });
});

describe('Tensor inputs', () => {
  it('tensor(t) is t; a disposed tensor is refused', () => {
    const t = zeros([2]);
    expect(tensor(t)).toBe(t);
    t.dispose();
    expect(() => tensor(t)).toThrow(DeviceError);
    expect(Tensor.fromStorage('bool', [1], new Uint8Array([1])).toArray()).toEqual([true]);
  });
});
