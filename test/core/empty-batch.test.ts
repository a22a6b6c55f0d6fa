// Zero-size batches with broadcasting (issue 10 item 15): torch returns an empty result of
// the broadcast shape; the planner must give every op a consistent empty plan instead of
// index maps that disagree with the operand counts.
import { describe, expect, it } from 'vitest';
import { linalg, gdn, zeros, eye, Tensor } from '../../src/index.js';
import { planBatch } from '../../src/core/batch.js';

const int32 = (shape: number[]) => zeros(shape, { dtype: 'int32' });

describe('empty broadcast batches (CPU)', () => {
  it('planBatch: an empty broadcast batch has no maps and reads no matrix', () => {
    const p = planBatch(zeros([0, 3, 2]), zeros([2, 4]), 't');
    expect(p).toMatchObject({ batchShape: [0], count: 0, aIdx: null, bIdx: null, aCount: 0, bCount: 0 });
    const q = planBatch(zeros([0, 1, 3, 2]), zeros([5, 2, 4]), 't');
    expect(q.batchShape).toEqual([0, 5]);
    expect(q.count).toBe(0);
  });

  const cases: Array<[string, () => Tensor | Tensor[], number[][]]> = [
    ['matmul (0,3,2)·(2,4)', () => linalg.matmul(zeros([0, 3, 2]), zeros([2, 4])), [[0, 3, 4]]],
    ['matmul (3,2)·(0,2,4)', () => linalg.matmul(zeros([3, 2]), zeros([0, 2, 4])), [[0, 3, 4]]],
    ['matmul (0,1,3,2)·(5,2,4)', () => linalg.matmul(zeros([0, 1, 3, 2]), zeros([5, 2, 4])), [[0, 5, 3, 4]]],
    ['matmul vector (0,3,2)·(2)', () => linalg.matmul(zeros([0, 3, 2]), zeros([2])), [[0, 3]]],
    ['solve (0,3,3),(3,2)', () => linalg.solve(zeros([0, 3, 3]), zeros([3, 2])), [[0, 3, 2]]],
    ['solve (3,3),(0,3,2) left=false', () => linalg.solve(eye(3), zeros([0, 2, 3]), { left: false }), [[0, 2, 3]]],
    ['solveEx (0,3,3),(3,2)', () => { const r = linalg.solveEx(zeros([0, 3, 3]), zeros([3, 2])); return [r.result, r.info]; },
      [[0, 3, 2], [0]]],
    ['luSolve (0,3,3),(3,2)', () => linalg.luSolve(zeros([0, 3, 3]), int32([0, 3]), zeros([3, 2])), [[0, 3, 2]]],
    ['luSolve (3,3),(0,3,2) adjoint', () => linalg.luSolve(eye(3), tensorPiv(), zeros([0, 3, 2]),
      { adjoint: true }), [[0, 3, 2]]],
    ['solveTriangular (0,3,3),(3,2)', () => linalg.solveTriangular(zeros([0, 3, 3]), zeros([3, 2]), { upper: true }), [[0, 3, 2]]],
    ['solveTriangular (3,3),(0,2,3) left=false', () =>
      linalg.solveTriangular(eye(3), zeros([0, 2, 3]), { upper: false, left: false }), [[0, 2, 3]]],
    ['lstsq (0,4,3),(4,2)', () => { const r = linalg.lstsq(zeros([0, 4, 3]), zeros([4, 2])); return [r.solution, r.rank, r.singularValues]; },
      [[0, 3, 2], [0], [0, 3]]],
    ['gdn.chunkSolve (0,4,4),(4,8)', () => gdn.chunkSolve(zeros([0, 4, 4]), zeros([4, 8])), [[0, 4, 8]]],
    ['gdn.chunkSolve (4,4),(2,0,4,8)', () => gdn.chunkSolve(zeros([4, 4]), zeros([2, 0, 4, 8])), [[2, 0, 4, 8]]],
  ];
  for (const [name, run, shapes] of cases) {
    it(`${name} → empty result of the broadcast shape`, () => {
      const out = run();
      const ts = Array.isArray(out) ? out : [out];
      expect(ts.map((t) => [...t.shape])).toEqual(shapes);
      for (const t of ts) expect(t.dataSync().length).toBe(0);
    });
  }
});

function tensorPiv(): Tensor {
  const p = int32([3]);
  p.dataSync().set([1, 2, 3]);
  return p;
}
