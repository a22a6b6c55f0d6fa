// Backward rules of matmul and the LU family (src/linalg: matmul, luFactor, lu, luSolve,
// solveTriangular, solve, inv, det, slogdet). Complex: torch's convention (docs/autodiff.md).
import { defineRule } from '../../core/grad.js';
import type { Tensor } from '../../core/tensor.js';
import { asTensor } from '../../core/create.js';
import { matmul } from '../../linalg/matmul.js';
import { H } from './util.js';

defineRule('matmul', {
  backward: ({ args: [A, B] }, g: Tensor) => {
    const a = asTensor(A as Tensor, 'matmul', 'A');
    const b = asTensor(B as Tensor, 'matmul', 'B');
    const aVec = a.ndim === 1, bVec = b.ndim === 1;
    const a2 = aVec ? a.reshape([1, a.shape[0]]) : a;
    const b2 = bVec ? b.reshape([b.shape[0], 1]) : b;
    let g2 = g;
    if (aVec && bVec) g2 = g.reshape([1, 1]);
    else if (aVec) g2 = g.reshape([...g.shape.slice(0, -1), 1, g.shape[g.ndim - 1]]);
    else if (bVec) g2 = g.reshape([...g.shape, 1]);
    let gA = matmul(g2, H(b2));
    let gB = matmul(H(a2), g2);
    if (aVec) gA = gA.reshape([...gA.shape.slice(0, -2), gA.shape[gA.ndim - 1]]);
    if (bVec) gB = gB.reshape(gB.shape.slice(0, -1));
    return [gA, gB];
  },
});
