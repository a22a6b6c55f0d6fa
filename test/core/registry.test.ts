// The registry's contract: entries typed by ops.ts (test/types/registry.test.ts checks the
// types), typed errors for a missing (op, dtype, device), and the package entry registering
// every backend once, composite ops included.
import { describe, it, expect } from 'vitest';
import { DeviceError, DTypeError, ShapeError, Tensor } from '../../src/index.js';
import { Registry, entries, lookup } from '../../src/backend/registry.js';
import { planBatch } from '../../src/core/batch.js';
import type { OpName } from '../../src/backend/ops.js';

describe('registry', () => {
  it('an op registered only on the CPU: lookup on the GPU is a DeviceError naming the caller', () => {
    const r = new Registry();
    const pinv = (A: Tensor) => ({ X: A, info: Tensor.empty('int32', []) as Tensor<'int32'> });
    r.register('pinv', ['float32', 'float64'], 'cpu', pinv);
    const A = Tensor.empty('float64', [2, 2]);
    expect(r.lookup('pinv', 'float64', 'cpu')(A, { hermitian: false }).X).toBe(A);
    expect(r.has('pinv', 'float32', 'gpu')).toBe(false);
    expect(() => r.lookup('pinv', 'float32', 'gpu', 'linalg.pinv')).toThrow(DeviceError);
    expect(() => r.lookup('pinv', 'float32', 'gpu', 'linalg.pinv'))
      .toThrow(/^linalg\.pinv: not available on gpu \(available: float32 on cpu, float64 on cpu\)$/);
    expect(() => r.lookup('pinv', 'complex64', 'cpu')).toThrow(DTypeError);
  });

  it("the engine's bare RangeError of a failed allocation becomes a ShapeError naming the op, thrown or rejected", async () => {
    const r = new Registry();
    const oom = () => { throw new RangeError('Array buffer allocation failed'); };
    r.register('pinv', ['float64'], 'cpu', oom);
    r.register('luFactorAsync', ['float64'], 'cpu', () => Promise.reject(new RangeError('Array buffer allocation failed')));
    r.register('qr', ['float64'], 'cpu', () => { throw new RangeError('qr: out of memory for a 4194304×12 float64 matrix'); });
    r.register('svd', ['float64'], 'cpu', () => { throw new ShapeError('tensor: cannot allocate 2×2'); });
    r.register('det', ['float64'], 'cpu', () => { throw new TypeError('not memory'); });
    const A = Tensor.empty('float64', [2, 2]);
    const caught = (f: () => unknown) => { try { f(); } catch (e) { return e as Error; } throw new Error('no throw'); };
    const e1 = caught(() => r.lookup('pinv', 'float64', 'cpu')(A, { hermitian: false }));
    expect(e1).toBeInstanceOf(ShapeError);
    expect(e1.message).toBe('pinv: cannot allocate (Array buffer allocation failed)');
    expect((e1.cause as Error).message).toBe('Array buffer allocation failed');
    await expect(r.lookup('luFactorAsync', 'float64', 'cpu')(A)).rejects.toThrow(/^luFactorAsync: cannot allocate \(Array buffer allocation failed\)$/);
    await expect(r.lookup('luFactorAsync', 'float64', 'cpu')(A)).rejects.toBeInstanceOf(ShapeError);
    r.register('luFactor', ['float64'], 'cpu', () => { throw new RangeError('luFactor: out of memory for a 4194304×12 float64 matrix'); });
    r.register('luSolve', ['float64'], 'cpu', () => { throw new RangeError('Invalid array length'); });
    // the addon names the op it ran (luFactor for luFactorAsync): that name stays
    r.register('invAsync', ['float64'], 'cpu', () => Promise.reject(new RangeError('inv: out of memory for a 8×8 float64 matrix')));
    await expect(r.lookup('invAsync', 'float64', 'cpu')(A)).rejects.toThrow(/^inv: out of memory for a 8×8 float64 matrix$/);
    expect(caught(() => r.lookup('luFactor', 'float64', 'cpu')(A)).message).toBe('luFactor: out of memory for a 4194304×12 float64 matrix');
    const e6 = caught(() => r.lookup('luSolve', 'float64', 'cpu')(A, Tensor.empty('int32', [2]) as Tensor<'int32'>, A, planBatch(A, A, 'luSolve'), false));
    expect(e6).toBeInstanceOf(ShapeError);
    expect(e6.message).toBe('luSolve: cannot allocate (Invalid array length)');
    const e3 = caught(() => r.lookup('qr', 'float64', 'cpu')(A, 'reduced'));
    expect(e3).toBeInstanceOf(ShapeError);
    expect(e3.message).toBe('qr: out of memory for a 4194304×12 float64 matrix');
    expect(caught(() => r.lookup('svd', 'float64', 'cpu')(A, { computeUV: false, fullMatrices: false })).message).toBe('tensor: cannot allocate 2×2');
    const e5 = caught(() => r.lookup('det', 'float64', 'cpu')(A));
    expect(e5).toBeInstanceOf(TypeError);
    expect(e5.message).toBe('not memory');
  });

  it('an empty registry says which entry registers the backends', () => {
    expect(() => new Registry().lookup('matmul', 'float32', 'cpu', 'matmul')).toThrow(/import lapis/);
  });

  it('the package entry registers the composite ops on the CPU and (float32, complex64) on the GPU', () => {
    const composite: OpName[] = ['pinv', 'matrixRank', 'lstsq', 'vectorNorm', 'matrixNorm', 'cond'];
    for (const op of composite) {
      for (const dtype of ['float32', 'float64', 'complex64', 'complex128'] as const) {
        expect(typeof lookup(op, dtype, 'cpu'), `${op} ${dtype}`).toBe('function');
      }
      expect(entries().filter((e) => e.op === op && e.device === 'gpu').map((e) => e.dtype).sort(), op).toEqual(['complex64', 'float32']);
      expect(() => lookup(op, 'float64', 'gpu', op), op).toThrow(DTypeError);
    }
    for (const op of ['gdnForward', 'gdnRecurrentStep', 'gdnBackward'] as const) {
      expect(entries().filter((e) => e.op === op).map((e) => `${e.dtype} on ${e.device}`).sort(), op)
        .toEqual(['float16 on gpu', 'float32 on cpu', 'float32 on gpu', 'float64 on cpu']);
    }
  });
});
