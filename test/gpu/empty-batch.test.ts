// Zero-size broadcast batches on the GPU (issue 10 item 15): an empty result of the
// broadcast shape (and info of shape [0]), as on the CPU and in torch.
import { describe, expect } from 'vitest';
import { linalg, gdn, zeros, eye, Tensor } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();
const g = (shape: number[]) => zeros(shape, { dtype: 'float32' }).to('gpu');

describe('gpu: empty broadcast batches', () => {
  gpuIt('matmul, solve, solveEx, luSolve, solveTriangular, gdn.chunkSolve give empty results of the broadcast shape', async () => {
    const piv = zeros([0, 3], { dtype: 'int32' }).to('gpu');
    const I = eye(3, { dtype: 'float32' }).to('gpu');
    const ex = linalg.solveEx(g([0, 3, 3]), g([3, 2]));
    const outs: Array<[Tensor, number[]]> = [
      [linalg.matmul(g([0, 3, 2]), g([2, 4])), [0, 3, 4]],
      [linalg.matmul(g([3, 2]), g([0, 1, 2, 4])), [0, 1, 3, 4]],
      [linalg.solve(g([0, 3, 3]), g([3, 2])), [0, 3, 2]],
      [linalg.solve(I, g([0, 2, 3]), { left: false }), [0, 2, 3]],
      [ex.result, [0, 3, 2]],
      [ex.info, [0]],
      [linalg.luSolve(g([0, 3, 3]), piv, g([3, 2])), [0, 3, 2]],
      [linalg.solveTriangular(g([0, 3, 3]), g([3, 2]), { upper: true }), [0, 3, 2]],
      [linalg.solveTriangular(I, g([0, 2, 3]), { upper: false, left: false }), [0, 2, 3]],
      [gdn.chunkSolve(g([0, 16, 16]), g([16, 8])), [0, 16, 8]],
    ];
    for (const [t, shape] of outs) {
      expect(t.device).toBe('gpu');
      expect([...t.shape]).toEqual(shape);
      expect((await t.data()).length).toBe(0);
    }
  });
});
