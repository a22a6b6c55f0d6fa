// Composite ops with no GPU entry (pinv, matrixRank, lstsq, norm, cond) refuse a GPU tensor
// up front with a DeviceError naming the public function, from the registry lookup, instead
// of failing later inside dataSync. (lu, det and slogdet run on the GPU: lu-ops.test.ts.)
import { describe, expect } from 'vitest';
import { tensor, linalg, DeviceError, type Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

describe('composite ops of a GPU tensor', () => {
  gpuIt('pinv, matrixRank, lstsq, norm, cond: DeviceError naming the function', () => {
    const A = tensor([[4, 1], [2, 3]], { dtype: 'float32' }).to('gpu');
    const B = tensor([[1], [2]], { dtype: 'float32' }).to('gpu');
    const cases: Array<[string, () => Tensor | object]> = [
      ['pinv', () => linalg.pinv(A)],
      ['matrixRank', () => linalg.matrixRank(A)],
      ['lstsq', () => linalg.lstsq(A, B)],
      ['norm', () => linalg.norm(A)],
      ['norm', () => linalg.norm(A, 'nuc')],
      ['norm', () => linalg.norm(A, 1, { dim: 0 })],
      ['cond', () => linalg.cond(A)],
      ['cond', () => linalg.cond(A, 1)],
    ];
    for (const [who, f] of cases) {
      let err: unknown;
      try { f(); } catch (e) { err = e; }
      expect(err, who).toBeInstanceOf(DeviceError);
      expect((err as Error).message, who).toMatch(new RegExp(`^${who}: not available on gpu \\(available: .*float32 on cpu`));
    }
    A.dispose();
    B.dispose();
  });
});
