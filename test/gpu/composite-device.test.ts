// The composite ops (pinv, matrixRank, lstsq, norm, cond) run on a GPU tensor through their
// GPU registry entries: results stay on the GPU (no host read inside the call) and agree with
// the CPU; mixed devices are refused with a DeviceError naming the function; lstsq promotes
// GPU operands of different dtypes on the GPU.
import { describe, expect } from 'vitest';
import { tensor, linalg, DeviceError, type Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

const values = async (t: Tensor) => Array.from((await t.toAsync('cpu')).dataSync() as ArrayLike<number>);

describe('composite ops of a GPU tensor', () => {
  gpuIt('pinv, matrixRank, lstsq, norm, cond: GPU results equal to the CPU', async () => {
    const a = tensor([[4, 1], [2, 3]], { dtype: 'float32' }), b = tensor([[1], [2]], { dtype: 'float32' });
    const A = a.to('gpu'), B = b.to('gpu');
    const cases: Array<[string, () => Tensor, () => Tensor]> = [
      ['pinv', () => linalg.pinv(A), () => linalg.pinv(a)],
      ['matrixRank', () => linalg.matrixRank(A), () => linalg.matrixRank(a)],
      ['lstsq', () => linalg.lstsq(A, B).solution, () => linalg.lstsq(a, b).solution],
      ['lstsq gels', () => linalg.lstsq(A, B, { driver: 'gels' }).solution, () => linalg.lstsq(a, b).solution],
      ['norm', () => linalg.norm(A), () => linalg.norm(a)],
      ['norm nuc', () => linalg.norm(A, 'nuc'), () => linalg.norm(a, 'nuc')],
      ['norm 1 dim 0', () => linalg.norm(A, 1, { dim: 0 }), () => linalg.norm(a, 1, { dim: 0 })],
      ['cond', () => linalg.cond(A), () => linalg.cond(a)],
      ['cond 1', () => linalg.cond(A, 1), () => linalg.cond(a, 1)],
    ];
    for (const [what, g, c] of cases) {
      const got = g();
      expect(got.device, what).toBe('gpu');
      const want = c();
      expect(got.shape, what).toEqual(want.shape);
      const gv = await values(got), wv = Array.from(want.dataSync() as ArrayLike<number>);
      gv.forEach((v, i) => expect(Math.abs(v - wv[i]), what).toBeLessThanOrEqual(1e-5 * Math.abs(wv[i]) + 1e-6));
    }
    A.dispose();
    B.dispose();
  });

  gpuIt('lstsq: mixed devices → DeviceError; GPU operands of two dtypes promote on the GPU', async () => {
    const A = tensor([[1, 0], [0, 1], [1, 1]], { dtype: 'float32' }).to('gpu');
    let err: unknown;
    try { linalg.lstsq(A, tensor([[1], [2], [3]], { dtype: 'float32' })); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as Error).message).toMatch(/^lstsq: A is on gpu, B is on cpu/);
    const B = tensor([[1], [2], [3]], { dtype: 'complex64' }).to('gpu');
    const r = linalg.lstsq(A, B, { driver: 'gels' });
    expect(r.solution.dtype).toBe('complex64');
    expect(r.solution.device).toBe('gpu');
    const x = await values(r.solution);
    expect(Math.abs(x[0] - 1) + Math.abs(x[1]) + Math.abs(x[2] - 2) + Math.abs(x[3])).toBeLessThan(1e-5);
  });
});
