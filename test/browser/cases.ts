// The browser suite's cases, by name: test/browser/browser.test.ts makes one test of each,
// and the page (page/suite.ts) refuses to load unless it implements exactly these.
export const WASM_CASES = [
  'wasm: the CPU backend is the WebAssembly build',
  'wasm: solve float64 and float32, batched, backward error',
  'wasm: lu and luFactor, ‖A − P·L·U‖',
  'wasm: qr reduced, ‖A − Q·R‖ and ‖QᵀQ − I‖',
  'wasm: svd, ‖A − U·S·Vh‖, orthogonal factors, sorted values',
  'wasm: pinv of a rank-deficient matrix, the four Penrose conditions',
  'wasm: complex128 solve, backward error',
  'wasm: errors are typed (ShapeError, LinAlgError, DTypeError, ArgumentError)',
  'wasm: threads: a cross-origin isolated page gets the threaded build, right on every thread count',
] as const;

export const GPU_CASES = [
  'gpu: init through navigator.gpu, first-call latency',
  'gpu: matmul float32 against the CPU',
  'gpu: 20000 batched 4×4 inverses, ‖A·X − I‖',
  'gpu: solve 64×64 with 8 right-hand sides against the CPU',
  'gpu: svd 24×16 against the CPU singular values',
  'gpu: errors are typed (float64 on the GPU, dumpWgsl in a browser)',
] as const;

export const CASES: readonly string[] = [...WASM_CASES, ...GPU_CASES];

/** One measured quantity of a case and its bound (value ≤ max passes). */
export interface Check {
  what: string;
  value: number;
  max: number;
}

/** What the page returns for a case. */
export interface CaseResult {
  checks: Check[];
  /** Anything worth reporting (adapter, timings). */
  info?: Record<string, unknown>;
  /** An unexpected exception: `${name}: ${message}`. */
  error?: string;
  ms: number;
}
