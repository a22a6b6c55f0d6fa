// Shapes are validated where they enter (issue 10 item 12): non-negative safe integers,
// at most 64 dims, a safe-integer size; reshape infers one −1 (torch) and refuses the rest.
import { describe, expect, it } from 'vitest';
import { tensor, zeros, eye, randn, ShapeError, DTypeError, ArgumentError, DeviceError, Tensor, linalg } from '../../src/index.js';

const bad: unknown[] = [[-2, -2], [0.5, 8], [NaN], [Infinity, 1], ['2', 2], [2 ** 53, 2], 5, '3', null, { length: 2 },
  new Array(65).fill(1), [2 ** 30, 2 ** 30]];

describe('shape validation', () => {
  for (const s of bad) {
    it(`zeros/randn/eye batch/tensor/reshape refuse ${JSON.stringify(s)?.slice(0, 40)} with a ShapeError naming the function`, () => {
      const cases: Array<[string, () => unknown]> = [
        ['zeros', () => zeros(s as number[])],
        ['randn', () => randn(s as number[])],
        ['eye', () => eye(2, { batch: s as number[] })],
        ['tensor', () => tensor({ data: new Float64Array(4), shape: s as number[] })],
        ['tensor', () => Tensor.fromStorage('float64', s as number[], new Float64Array(4))],
        ['reshape', () => zeros([4]).reshape(s as number[])],
      ];
      for (const [who, f] of cases) {
        let err: unknown;
        try { f(); } catch (e) { err = e; }
        expect(err, `${who} ${JSON.stringify(s)}`).toBeInstanceOf(ShapeError);
        expect((err as Error).message.startsWith(`${who}:`), (err as Error).message).toBe(true);
      }
    });
  }

  it('reshape: one −1 is inferred; two, or a size that does not divide, are refused', () => {
    expect(zeros([4, 3]).reshape([-1, 6]).shape).toEqual([2, 6]);
    expect(zeros([4, 3]).reshape([2, -1, 3]).shape).toEqual([2, 2, 3]);
    expect(zeros([0, 3]).reshape([-1, 3]).shape).toEqual([0, 3]);
    expect(() => zeros([4, 3]).reshape([-1, -1])).toThrow(ShapeError);
    expect(() => zeros([4, 3]).reshape([-1, 5])).toThrow(/reshape: cannot view 4×3/);
    expect(() => zeros([0, 3]).reshape([-1, 0])).toThrow(ShapeError);
    expect(() => zeros([4, 3]).reshape([5, 3])).toThrow(ShapeError);
  });

  it('a reshaped view with a bad shape never reaches an op (the [-2, -2] view of 4 elements)', () => {
    expect(() => linalg.matmul(zeros([4]).reshape([-2, -2]), eye(2))).toThrow(ShapeError);
  });

  it('allocations beyond what the engine can hold are a ShapeError, not an engine RangeError', () => {
    expect(() => zeros([2 ** 26, 2 ** 26])).toThrow(ShapeError);
    expect(() => zeros([2 ** 26, 2 ** 26])).toThrow(/^zeros: cannot allocate/);
  });
});

describe('tensor data and lifetimes', () => {
  it('strings, objects and bigints in data are refused (they became NaN)', () => {
    expect(() => tensor([['a']] as never)).toThrow(DTypeError);
    expect(() => tensor({ data: ['a'] as never, shape: [1] })).toThrow(/tensor: data\[0\] is 'a'/);
    expect(() => tensor({ data: [1, {}] as never, shape: [2] })).toThrow(DTypeError);
    expect(() => tensor({ data: new BigInt64Array(2) as never, shape: [2] })).toThrow(DTypeError);
  });

  it('int32 storage refuses non-integers and out-of-range values (no truncation)', () => {
    expect(() => tensor([1.5, 2], { dtype: 'int32' })).toThrow(ArgumentError);
    expect(() => tensor({ data: [2 ** 31], shape: [1], dtype: 'int32' })).toThrow(ArgumentError);
    expect(() => tensor({ data: new Float64Array([1, 2.5]), shape: [2], dtype: 'int32' })).toThrow(ArgumentError);
    expect(() => tensor(tensor([1, 0.25]), { dtype: 'int32' })).toThrow(ArgumentError);
    expect([...tensor([1, -2], { dtype: 'int32' }).dataSync()]).toEqual([1, -2]);
    expect(() => linalg.luSolve(eye(2), [1.5, 2], [[1], [1]])).toThrow(/^luSolve: pivots: element 0 is 1.5/);
  });

  it('a disposed tensor is a DeviceError in every op and in tensor()', () => {
    const t = eye(2);
    t.dispose();
    expect(() => linalg.inv(t)).toThrow(DeviceError);
    expect(() => linalg.inv(t)).toThrow(/^inv: A: the tensor was disposed/);
    expect(() => tensor(t)).toThrow(DeviceError);
    expect(() => t.reshape([4])).toThrow(DeviceError);
    expect(() => t.to('cpu')).toThrow(DeviceError);
  });

  it('devices other than cpu/gpu are refused by name', () => {
    expect(() => zeros([2]).to('tpu' as never)).toThrow(/^to: device must be one of 'cpu', 'gpu', got 'tpu'/);
    expect(() => zeros([2], { device: 'tpu' as never })).toThrow(ArgumentError);
  });
});
