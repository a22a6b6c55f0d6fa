// The everyday tensor API: elementwise arithmetic, reductions, shapes and indexing. Each
// function validates, promotes and broadcasts, then calls the registry (src/backend/ops.ts).
export * from './elementwise.js';
export * from './reduce.js';
export * from './indexing.js';
