// The everyday tensor API: elementwise arithmetic, reductions, shapes and indexing. Each
// function validates, promotes and broadcasts, then calls the registry (src/backend/ops.ts).
export * from './elementwise.js';
export * from './reduce.js';
export * from './indexing.js';
// Tensor methods (A.add(B), A.mT, A.sum()): installed on Tensor.prototype for their side effect.
import './methods.js';
