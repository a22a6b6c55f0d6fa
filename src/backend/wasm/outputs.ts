// Which options of each export the kernel writes: the arrays its binding passes through
// `Call::out` (native/binding/async_work.hpp). The wasm runtime (instantiate.ts) copies only
// these back from the heap after a call, and never scans or copies back an input.
// test/wasm/outputs.test.ts reads native/binding/*.cpp and fails when this table and the
// bindings' `io.out` calls disagree; an export missing here falls back to comparing every
// staged array with its heap copy after the call.
export const WASM_OUTPUTS: Readonly<Record<string, readonly string[]>> = {
  numThreads: [],
  threadStats: [],
  gemmKernel: [],
  cpuPeakFlops: [],
  elementwiseOpNames: [],
  matmul: ['C'],
  luFactor: ['LU', 'pivots', 'info'],
  luSolve: ['X'],
  solve: ['X', 'info'],
  solveTriangular: ['X', 'info'],
  inv: ['X', 'info'],
  slogdet: ['sign', 'logabs', 'det'],
  qr: ['Q', 'R'],
  svd: ['S', 'U', 'Vh', 'info'],
  cast: ['out'],
  unary: ['out'],
  binary: ['out'],
  where: ['out'],
  frexp: ['mantissa', 'exponent'],
  heaviside: ['out'],
  laguerrePolynomialL: ['out'],
  logspace: ['out'],
  stridedCopy: ['out'],
  triangle: ['out'],
  concat: ['out'],
  take: ['out'],
  put: ['out'],
  reduce: ['out'],
  argReduce: ['values', 'indices'],
  gdnForward: ['o', 'finalState', 'status'],
  gdnBackward: ['dq', 'dk', 'dv', 'dbeta', 'dg', 'dInitialState', 'status'],
  gdnRecurrentStep: ['o', 'newState', 'status'],
};
