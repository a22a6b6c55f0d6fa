import { describe, it, expect } from 'vitest';
import { linalg, tensor } from '../src/index.js';

describe('smoke', () => {
  it('matmul 2×2', () => {
    const C = linalg.matmul([[1, 2], [3, 4]], [[5], [6]]);
    expect(C.toArray()).toEqual([[17], [39]]);
  });
  it('matmul broadcast', () => {
    const A = tensor({ data: new Float64Array(2 * 1 * 4), shape: [2, 1, 2, 2] });
    const B = tensor({ data: new Float64Array(3 * 4).fill(1), shape: [3, 2, 2] });
    expect(linalg.matmul(A, B).shape).toEqual([2, 3, 2, 2]);
  });
});
