import { checkArg, opt } from '../../core/options.js';
import { loadCpuBackend, type CpuBackendName } from './load.js';
import { DeviceError } from '../../core/errors.js';
import type { AnyStorage, DTypeCode } from '../../core/dtype.js';
import type { Tensor } from '../../core/tensor.js';

export type { DTypeCode };

/** A float typed array: float32/complex64 (interleaved) or float64/complex128 data. */
export type FloatArray = Float32Array | Float64Array;

/** The storage of a float tensor (registry entries are registered for FLOAT_DTYPES only; the addon re-checks the element type against `dtype`). */
export function floats(t: Tensor): FloatArray {
  return t.dataSync() as FloatArray;
}

/** Op codes of the native solvers: op(A) = A, Aᵀ, Aᴴ. */
export type OpCode = 0 | 1 | 2;

/**
 * Batch fields of a binary op over broadcast batches: output matrix b reads A's matrix
 * aIdx[b] and B's matrix bIdx[b]; a null map means b itself (then that operand holds
 * exactly the output's count of matrices). See BatchPlan in src/core/batch.ts.
 */
export interface BatchMaps {
  aIdx: Int32Array | null;
  bIdx: Int32Array | null;
  aCount: number;
  bCount: number;
}

/**
 * A native call that runs now (`async: false`, returns once done) or on a libuv thread
 * (`async: true`, returns a Promise; the inputs are copied when the call starts).
 */
export interface MaybeAsync<O> {
  (o: O & { async: false }): void;
  (o: O & { async: true }): Promise<void>;
  (o: O & { async: boolean }): void | Promise<void>;
}

/**
 * The native addon: every function it exports (native/binding/*.cpp, `Export e_…`), each
 * taking one options object. Every field is required — one that may be absent in meaning
 * is passed as null — so a misspelt or missing field is a TypeError naming it at run time,
 * and a compile error here. Arrays are zero-copy views; dims are element counts, complex
 * arrays interleaved. test/hardening/addon-contract.test.ts checks the addon against this.
 */
export interface Addon {
  /** Pool size; `n` a number sets it first (1..256). */
  numThreads(o: { n: number | null }): number;
  /** The active GEMM micro-kernel family: "avx512", "avx2", "neon", "portable", or "wasm128" on the WebAssembly backend. */
  gemmKernel(): string;
  /** The CPU budget's counters (lapis::thread_stats); `reset` starts a new peak. */
  threadStats(o: { reset: boolean }): ThreadStats;
  /** GFLOP/s of a register-only FMA loop, dtype float32 (0) or float64 (1), on `threads` (1..256) threads of its own for ~`seconds`. */
  cpuPeakFlops(o: { dtype: 0 | 1; threads: number; seconds: number }): number;
  /**
   * C[b] = op(A[aIdx[b]]) · op(B[bIdx[b]]); op(A) m×k, op(B) k×n, C m×n per matrix, `batch`
   * output matrices. opA/opB: 0 as stored (A m×k, B k×n), 1 transposed, 2 conjugate-transposed
   * (A stored k×m, B n×k; read through swapped strides, no copy).
   */
  matmul(o: {
    dtype: DTypeCode; A: FloatArray; B: FloatArray; C: FloatArray; batch: number; m: number; k: number; n: number;
    opA: OpCode; opB: OpCode;
  } & BatchMaps): void;
  /** getrf on `count` m×n matrices: LU and 1-based pivots (count·min(m, n)), info per matrix. */
  luFactor: MaybeAsync<{
    dtype: DTypeCode; A: FloatArray; LU: FloatArray; pivots: Int32Array; info: Int32Array; count: number; m: number; n: number;
  }>;
  /** op(A)·X = B from getrf's factors (n×n, pivots n each), B and X n×k. */
  luSolve: MaybeAsync<{
    dtype: DTypeCode; LU: FloatArray; pivots: Int32Array; B: FloatArray; X: FloatArray; count: number; n: number; k: number;
    op: OpCode;
  } & BatchMaps>;
  /** A·X = B with A n×n, B and X n×k; info per system (LAPACK gesv). */
  solve: MaybeAsync<{
    dtype: DTypeCode; A: FloatArray; B: FloatArray; X: FloatArray; info: Int32Array; count: number; n: number; k: number;
  } & BatchMaps>;
  /** op(A)·X = B, A triangular (`upper` names op(A)'s triangle; `unit`: diagonal taken as 1). `info` (or null): first exactly zero diagonal entry. */
  solveTriangular: MaybeAsync<{
    dtype: DTypeCode; A: FloatArray; B: FloatArray; X: FloatArray; info: Int32Array | null; count: number; n: number;
    k: number; op: OpCode; upper: boolean; unit: boolean;
  } & BatchMaps>;
  /** Inverses of `count` n×n matrices; info per matrix (NaN-filled where singular). */
  inv: MaybeAsync<{ dtype: DTypeCode; A: FloatArray; X: FloatArray; info: Int32Array; count: number; n: number }>;
  /** sign and (or null) det of the dtype, logabs of its real dtype, per n×n matrix. */
  slogdet(o: {
    dtype: DTypeCode; A: FloatArray; sign: FloatArray; logabs: FloatArray; det: FloatArray | null; count: number; n: number;
  }): void;
  /** Householder QR per m×n matrix; mode 0 reduced (Q m×k), 1 complete (Q m×m), 2 R only (Q null). */
  qr(o: {
    dtype: DTypeCode; A: FloatArray; Q: FloatArray | null; R: FloatArray; batch: number; m: number; n: number; mode: 0 | 1 | 2;
  }): void;
  /** Singular values (descending, real array), U and Vh (null without computeUV), info per matrix. */
  svd(o: {
    dtype: DTypeCode; A: FloatArray; S: FloatArray; U: FloatArray | null; Vh: FloatArray | null; info: Int32Array;
    batch: number; m: number; n: number; computeUV: boolean; fullMatrices: boolean;
  }): void;
  /** out = x converted from dtype `from` to `to` (complex → real refused; semantics: the registry's `cast`). */
  cast(o: { from: DTypeCode; to: DTypeCode; x: AnyStorage; out: AnyStorage }): void;
  /** out = op(x) elementwise, op a UNARY_OP_CODES code; out has unaryOutDtype's array type. */
  unary(o: { dtype: DTypeCode; op: number; x: AnyStorage; out: AnyStorage }): void;
  /** out = a ∘ b over a broadcast layout (strides as doubles), op a BINARY_OP_CODES code; out: binaryOutDtype's array type. */
  binary(o: {
    dtype: DTypeCode; op: number; a: AnyStorage; b: AnyStorage; out: AnyStorage; shape: Float64Array; aStrides: Float64Array;
    bStrides: Float64Array;
  }): void;
  /** out = cond ? a : b over a three-operand broadcast layout; cond a Uint8Array of 0/1. */
  where(o: {
    dtype: DTypeCode; cond: Uint8Array; a: AnyStorage; b: AnyStorage; out: AnyStorage; shape: Float64Array;
    condStrides: Float64Array; aStrides: Float64Array; bStrides: Float64Array;
  }): void;
  /** The elementwise op names in native code order: table 0 unary, 1 binary (the contract test compares the TS tables). */
  elementwiseOpNames(o: { table: 0 | 1 }): string[];
  /** x = mantissa · 2^exponent (real dtypes). */
  frexp(o: { dtype: DTypeCode; x: FloatArray; mantissa: FloatArray; exponent: Int32Array }): void;
  /** Heaviside step of x with `values` at 0, broadcast by the layout (strides as doubles). */
  heaviside(o: {
    dtype: DTypeCode; x: FloatArray; values: FloatArray; out: FloatArray; shape: Float64Array; xStrides: Float64Array;
    valuesStrides: Float64Array;
  }): void;
  /** Laguerre polynomial L_n(x), broadcast by the layout (n in x's dtype). */
  laguerrePolynomialL(o: {
    dtype: DTypeCode; x: FloatArray; n: FloatArray; out: FloatArray; shape: Float64Array; xStrides: Float64Array;
    nStrides: Float64Array;
  }): void;
  /** base^(start + i·(end − start)/(steps − 1)) into `out` (float32, float64 or int32: torch's rounding). */
  logspace(o: { dtype: DTypeCode; out: FloatArray | Int32Array; steps: number; start: number; end: number; base: number }): void;
  /** out = x[offset + Σ i_d·strides[d]] over `shape` (element units, strides may be 0 or negative; every reachable offset checked). */
  stridedCopy(o: {
    dtype: DTypeCode; x: AnyStorage; out: AnyStorage; shape: Float64Array; strides: Float64Array; offset: number; conj: boolean;
  }): void;
  /** triu (upper) or tril of `count` m×n matrices: entries with j − i < k (upper) or j − i > k (lower) zeroed. */
  triangle(o: { dtype: DTypeCode; x: AnyStorage; out: AnyStorage; count: number; m: number; n: number; upper: boolean; k: number }): void;
  /** `outer` rows of out, each the rows of the parts (sizes[p] elements of xs[p]) one after the other. */
  concat(o: { dtype: DTypeCode; xs: AnyStorage[]; out: AnyStorage; outer: number; sizes: Float64Array }): void;
  /** out[i] = x[index[i]] (indices in [0, x's length), checked). */
  take(o: { dtype: DTypeCode; x: AnyStorage; index: Int32Array; out: AnyStorage }): void;
  /** out = x, then out[index[i]] = values[i] (accumulate: +=, duplicates summed; bool: or). */
  put(o: { dtype: DTypeCode; x: AnyStorage; index: Int32Array; values: AnyStorage; out: AnyStorage; accumulate: boolean }): void;
  /**
   * op over the n dim of x seen as (outer, n, inner): op 0 sum, 1 prod, 2 max, 3 min, 4 any, 5 all. out (outer·inner):
   * Uint8Array for any/all, Int32Array for sum/prod of bool, else x's array type. Floating sums pairwise.
   */
  reduce(o: { dtype: DTypeCode; op: number; x: AnyStorage; out: AnyStorage; outer: number; n: number; inner: number }): void;
  /** max (op 0) or min (op 1) over the n dim of (outer, n, inner) and the first index of it (NaN wins); real and integral dtypes, n ≥ 1. */
  argReduce(o: {
    dtype: DTypeCode; op: number; x: AnyStorage; values: AnyStorage; indices: Int32Array; outer: number; n: number; inner: number;
  }): void;
  /**
   * Gated DeltaNet chunked forward (native/src/gdn): o (v's shape), finalState (seqs·vHeads·keyDim·valueDim), status
   * (seqs·vHeads: 0 ok, 1 non-finite input, 2 bad log decay). layout 0 'bthd', 1 'bhtd'; sequence n is batch row
   * (varlen ? 0 : n), time seqStart[n] … + seqLen[n]; initialState null for zeros.
   */
  gdnForward(o: GdnNativeProblem & {
    dtype: DTypeCode; q: FloatArray; k: FloatArray; v: FloatArray; beta: FloatArray; g: FloatArray; initialState: FloatArray | null;
    o: FloatArray; finalState: FloatArray; status: Int32Array;
  }): void;
  /** Gradients of Σ dO⊙o + Σ dFinal⊙finalState (dFinal null: zero); dInitialState given exactly when initialState is. */
  gdnBackward(o: GdnNativeProblem & {
    dtype: DTypeCode; q: FloatArray; k: FloatArray; v: FloatArray; beta: FloatArray; g: FloatArray; initialState: FloatArray | null;
    dO: FloatArray; dFinal: FloatArray | null; dq: FloatArray; dk: FloatArray; dv: FloatArray; dbeta: FloatArray; dg: FloatArray;
    dInitialState: FloatArray | null; status: Int32Array;
  }): void;
  /** One Gated DeltaNet token for `seqs` sequences: q, k (seqs, heads, keyDim), v, o (seqs, vHeads, valueDim), beta, g (seqs, vHeads). */
  gdnRecurrentStep(o: {
    dtype: DTypeCode; state: FloatArray; q: FloatArray; k: FloatArray; v: FloatArray; beta: FloatArray; g: FloatArray; o: FloatArray;
    newState: FloatArray; status: Int32Array; seqs: number; heads: number; vHeads: number; keyDim: number; valueDim: number;
    scale: number; qkL2norm: boolean;
  }): void;
}

/** The dims of a Gated DeltaNet call as gdnForward/gdnBackward take them (GdnPlan in src/backend/ops.ts). */
export interface GdnNativeProblem {
  batch: number; time: number; heads: number; vHeads: number; keyDim: number; valueDim: number; layout: 0 | 1; varlen: boolean;
  chunk: 16 | 32 | 64; scale: number; qkL2norm: boolean; seqStart: Int32Array; seqLen: Int32Array;
}

let addon: Addon | undefined;
let backendName: CpuBackendName = 'native';

/** A function as the addon exports it: its option names ("dtype,A,…"), declared once in native/binding, ride along. */
export type RawFunction = ((...args: unknown[]) => unknown) & { options?: unknown };

const expectsOne = (name: string) => `${name}: expects one options object`;

/**
 * One specialised wrapper per function, so each field read is an inline-cached load; null
 * where code generation is off (a page whose Content-Security-Policy lacks 'unsafe-eval').
 */
function specialised(name: string, names: readonly string[], fn: RawFunction): RawFunction | null {
  try {
    return new Function('fn', 'TypeError', `return function ${name}(o) {
      if (arguments.length !== 1 || typeof o !== 'object' || o === null) throw new TypeError(${JSON.stringify(expectsOne(name))});
      return fn(${names.map((n) => `o.${n}`).join(', ')});
    };`)(fn, TypeError) as RawFunction;
  } catch (e) {
    if (e instanceof EvalError) return null;
    throw e;
  }
}

/** The same contract without code generation: the fields read by name in a loop. */
function generic(name: string, names: readonly string[], fn: RawFunction): RawFunction {
  const count = names.length;
  return function (this: unknown, o: unknown) {
    if (arguments.length !== 1 || typeof o !== 'object' || o === null) throw new TypeError(expectsOne(name));
    const args = new Array<unknown>(count);
    for (let i = 0; i < count; i++) args[i] = (o as Record<string, unknown>)[names[i]!];
    return fn(...args);
  } as RawFunction;
}

/**
 * The Addon from the raw exports: each function becomes a wrapper that checks for one
 * options object and passes its fields as arguments in the order the binding declared them
 * (`fn.options`), where Opts reads each by name. Plain JS property reads, since napi
 * named-property reads from C++ cost more than a whole tiny solve (docs/decisions.md).
 */
function wrapAddon(raw: Record<string, RawFunction>): Addon {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(raw)) {
    const options = typeof fn.options === 'string' ? fn.options.split(',').filter((o) => o !== '') : null;
    if (!options || !options.every((o) => /^[A-Za-z_]\w*$/.test(o))) {
      throw new DeviceError(`lapis: the native addon's ${name} declares no valid option names (a stale build? run \`npm run build:native\`)`);
    }
    const names = options;
    const wrapper = specialised(name, names, fn) ?? generic(name, names, fn);
    wrapper.options = Object.freeze([...names]);
    out[name] = names.length === 0 ? Object.assign((...args: unknown[]) => fn(...args), { options: wrapper.options }) : wrapper;
  }
  return out as unknown as Addon;
}

/** The CPU backend's functions, loaded once (./load.ts picks the build: `LAPIS_ADDON` overrides the path, e.g. to test a build with the portable kernels). */
export function native(): Addon {
  if (!addon) {
    const loaded = loadCpuBackend();
    addon = wrapAddon(loaded.raw);
    backendName = loaded.name;
  }
  return addon;
}

/** Which CPU backend serves the CPU ops: the native addon, or the WebAssembly build of the same kernels. */
export function cpuBackend(): CpuBackendName {
  native();
  return backendName;
}

/** The option names each native function declares (native/binding, `Export e(…, {names})`), for the contract test. */
export function nativeOptionNames(name: keyof Addon): readonly string[] {
  return (native()[name] as unknown as { options: readonly string[] }).options;
}

/** Threads the native kernels use (LAPIS_NUM_THREADS at start-up, or the core count). */
export function numThreads(): number {
  return native().numThreads({ n: null });
}

export function setNumThreads(n: number): number {
  checkArg('setNumThreads', 'n', n, opt.int(1, 256));
  return native().numThreads({ n });
}

/**
 * The native CPU budget (native/include/lapis/parallel.hpp): `budget` slots (numThreads),
 * `busy` threads inside kernels now, `peak` the most at once since the last reset,
 * `regions` parallel regions run, `joins` pool helpers that joined one, `waits` calls that
 * waited for a slot, `yields` async calls that handed theirs to a sync call.
 */
export interface ThreadStats {
  budget: number;
  busy: number;
  peak: number;
  regions: number;
  joins: number;
  waits: number;
  yields: number;
}

/**
 * The CPU budget's counters; `reset` starts a new peak from the threads busy now.
 * @internal for tests (test/hardening/thread-budget.test.ts); not exported from src/index.ts.
 */
export function _threadStats(reset = false): ThreadStats {
  return native().threadStats({ reset });
}

/** The active GEMM micro-kernel family: "avx512", "avx2", "neon", "portable", or "wasm128" on the WebAssembly backend. */
export function gemmKernel(): string {
  return native().gemmKernel();
}

/**
 * The machine's measured FMA peak in GFLOP/s: a register-only multiply-add loop built for
 * the kernel family gemmKernel() names, on `threads` threads at once (default numThreads();
 * its own threads, not the pool's) for about a quarter of a second, 2 flops per FMA lane.
 * Blocks the calling thread meanwhile. GEMM rates read as a fraction of it (docs/gemm.md).
 */
export function cpuPeakFlops(dtype: 'float32' | 'float64', threads?: number): number {
  checkArg('cpuPeakFlops', 'dtype', dtype, opt.oneOf('float32', 'float64'));
  if (threads !== undefined) checkArg('cpuPeakFlops', 'threads', threads, opt.int(1, 256));
  return native().cpuPeakFlops({ dtype: dtype === 'float64' ? 1 : 0, threads: threads ?? numThreads(), seconds: 0.25 });
}
