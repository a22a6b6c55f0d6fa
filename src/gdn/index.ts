// lapis/gdn: the Gated DeltaNet chunk solver and a chunked gated-delta-rule forward pass
// built on it (docs/gdn.md has the derivation). Three registry stages: gdnChunkSystems
// (CPU), a batched unit-lower solveTriangular (CPU or GPU; src/backend/gpu/trsm.ts picks
// the GPU kernel), gdnStatePass (CPU).
import { asTensor, type TensorLike } from '../core/create.js';
import { Tensor } from '../core/tensor.js';
import { planBatch } from '../core/batch.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, fmtShape } from '../core/errors.js';
import { lookup } from '../backend/registry.js';
import { registerAll } from '../backend/registerAll.js';
import { readOptions, opt } from '../core/options.js';

function realFloat(t: Tensor, who: string, name: string): void {
  if (t.dtype !== 'float32' && t.dtype !== 'float64') {
    throw new DTypeError(`${who}: ${name} is ${t.dtype}; expected float32 or float64`);
  }
}

function chunkOperands(A: TensorLike, B: TensorLike, who: string): { a: Tensor; b: Tensor } {
  const a = asTensor(A, who, 'A');
  const b = asTensor(B, who, 'B', a.dtype);
  realFloat(a, who, 'A');
  if (a.ndim < 2 || a.rows !== a.cols) throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}, expected (…, C, C)`);
  if (b.ndim < 2 || b.rows !== a.rows) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape)} and B is ${fmtShape(b.shape)}: B must be (…, ${a.rows}, k)`);
  }
  if (b.dtype !== a.dtype) throw new DTypeError(`${who}: A is ${a.dtype} and B is ${b.dtype}; they must match`);
  if (b.device !== a.device) throw new DeviceError(`${who}: A is on ${a.device} and B on ${b.device}; move one of them`);
  return { a, b };
}

/**
 * Solves (I + tril(A, −1))·X = B for a batch of chunks: A holds a chunk's coefficients
 * in its strict lower triangle (the diagonal and upper part are never read, NaN allowed),
 * B its right-hand sides. Batch dims broadcast, e.g. A (batch, head, chunk, C, C) and
 * B (batch, head, chunk, C, k). On the GPU, float32 with C ∈ {16, 32, 64} and k ≥ 8
 * runs on the unit-lower kernels (four right-hand sides per thread when k is a multiple
 * of 4, one otherwise); other shapes on the general one.
 *
 * Syntax: `gdn.chunkSolve(A, B)`
 * Example: `const X = gdn.chunkSolve(A.to('gpu'), B.to('gpu'))` with A (2, 8, 16, 64, 64), B (2, 8, 16, 64, 128)
 * Throws: ShapeError if A is not (…, C, C) or B not (…, C, k) or the batches do not
 * broadcast; DTypeError for complex or mismatched dtypes (float64 on the GPU);
 * DeviceError if A and B are on different devices.
 * See also: `gdn.invUnitLower`, `linalg.solveTriangular`, `gdn.chunkedForward`.
 */
export function chunkSolve(A: TensorLike, B: TensorLike): Tensor {
  const who = 'gdn.chunkSolve';
  const { a, b } = chunkOperands(A, B, who);
  const plan = planBatch(a, b, who);
  return lookup('solveTriangular', a.dtype, a.device, who)(
    a, b, plan, { upper: false, unitriangular: true }).X;
}

/**
 * The explicit T = (I + tril(A, −1))⁻¹: the inverse of the unit lower triangular matrix
 * whose strict lower triangle is that of A (diagonal and upper part of A are ignored).
 * T is unit lower triangular (exact zeros above the diagonal, ones on it). Chunked
 * delta-rule code uses it as the "WY" factor: W = T·diag(β)·K, U = T·diag(β)·V.
 * Computed as `chunkSolve(A, I)` with the identity broadcast over the batch.
 *
 * Syntax: `gdn.invUnitLower(A)`
 * Example: `gdn.invUnitLower([[0, 0], [0.5, 0]])` → `[[1, 0], [-0.5, 1]]`
 * Throws: ShapeError if A is not (…, C, C); DTypeError for complex input.
 * See also: `gdn.chunkSolve`.
 */
export function invUnitLower(A: TensorLike): Tensor {
  const who = 'gdn.invUnitLower';
  const a = asTensor(A, who, 'A');
  realFloat(a, who, 'A');
  if (a.ndim < 2 || a.rows !== a.cols) throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}, expected (…, C, C)`);
  const C = a.rows;
  const eye = a.dtype === 'float32' ? new Float32Array(C * C) : new Float64Array(C * C);
  for (let i = 0; i < C; i++) eye[i * C + i] = 1;
  let I = Tensor.fromStorage(a.dtype, [C, C], eye as never) as Tensor;
  if (a.device === 'gpu') I = I.to('gpu');
  const X = chunkSolve(a, I);
  if (a.device === 'gpu') I.dispose();
  return X;
}

export interface ChunkedForwardInput {
  /** Queries (batch, heads, length, dk). */
  q: TensorLike;
  /** Keys (batch, heads, length, dk); usually L2-normalised. */
  k: TensorLike;
  /** Values (batch, heads, length, dv). */
  v: TensorLike;
  /** Write strengths β (batch, heads, length), usually in (0, 1). */
  beta: TensorLike;
  /** Log decays g (batch, heads, length), ≤ 0: the state is scaled by exp(g_t) at step t. */
  g: TensorLike;
  /** Chunk length C (16, 32 or 64; default 64). The length need not be a multiple. */
  chunkSize?: number;
  /** Initial state S₀ (batch, heads, dk, dv); zeros by default. */
  initialState?: TensorLike;
  /** Where the batched chunk solves run (default 'cpu'); the rest runs on the CPU. */
  device?: 'cpu' | 'gpu';
}

export interface ChunkedForwardOutput {
  /** Outputs o_t = S_tᵀ·q_t, (batch, heads, length, dv). */
  o: Tensor;
  /** S after the last step, (batch, heads, dk, dv). */
  finalState: Tensor;
}

function cpuData(t: Tensor): Float32Array | Float64Array {
  return t.dataSync() as Float32Array | Float64Array;
}

/** "[1, 0, 7]": a flat index of `shape` as a multi-index, for messages. */
function multiIndex(flat: number, shape: readonly number[]): string {
  const idx: number[] = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(flat % shape[d]);
    flat = Math.floor(flat / shape[d]);
  }
  return `[${idx.join(', ')}]`;
}

/**
 * NaN/±Inf in an input would come out as an all-NaN result with no error; a log decay
 * g > 0 grows the state without bound (exp of the cumulative sum overflows to the same
 * NaNs), so both are refused, naming the first offending element.
 */
function checkValues(t: Tensor, d: Float32Array | Float64Array, who: string, name: string, logGate: boolean): void {
  for (let i = 0; i < d.length; i++) {
    const x = d[i];
    if (logGate ? !(x <= 0 && x > -Infinity) : !Number.isFinite(x)) {
      throw new ArgumentError(`${who}: ${name}${multiIndex(i, t.shape)} is ${x}; ` +
        (logGate ? 'log decays must be finite and ≤ 0 (the state is scaled by exp(g))' : 'inputs must be finite'));
    }
  }
}

/**
 * The gated delta rule S_t = exp(g_t)·(I − β_t·k_t·k_tᵀ)·S_{t−1} + β_t·k_t·v_tᵀ,
 * o_t = S_tᵀ·q_t, evaluated chunk by chunk: every chunk's (I + A)·[U | W] = [β·V | β·Γ·K]
 * is solved in ONE batched `chunkSolve` over (batch, head, chunk), then a short
 * sequential pass carries the state across chunks (docs/gdn.md).
 *
 * Syntax: `await gdn.chunkedForward({ q, k, v, beta, g, chunkSize, initialState, device })`
 * Example: `const { o, finalState } = await gdn.chunkedForward({ q, k, v, beta, g, chunkSize: 64, device: 'gpu' })`
 * Throws: ShapeError for inconsistent shapes; ArgumentError for a chunk size other
 * than 16, 32 or 64, for a log decay g that is positive or not finite, or NaN/±Inf in q,
 * k, v, beta or initialState (naming the first such element), for an input that is not
 * an object or has an unknown key; DTypeError for complex input or float64 with device 'gpu'.
 * See also: `gdn.chunkSolve`, `gdn.invUnitLower`.
 */
export async function chunkedForward(input: ChunkedForwardInput): Promise<ChunkedForwardOutput> {
  const who = 'gdn.chunkedForward';
  input = readOptions(who, input, {
    q: opt.any, k: opt.any, v: opt.any, beta: opt.any, g: opt.any, chunkSize: opt.oneOf(16, 32, 64), initialState: opt.any,
    device: opt.device,
  }, 'input');
  const C = input.chunkSize ?? 64;
  if (C !== 16 && C !== 32 && C !== 64) throw new ArgumentError(`${who}: chunkSize must be 16, 32 or 64, got ${C}`);
  const q = asTensor(input.q, who, 'q');
  realFloat(q, who, 'q');
  const dtype = q.dtype as 'float32' | 'float64';
  const k = asTensor(input.k, who, 'k', dtype), v = asTensor(input.v, who, 'v', dtype);
  const beta = asTensor(input.beta, who, 'beta', dtype), g = asTensor(input.g, who, 'g', dtype);
  for (const [t, name] of [[q, 'q'], [k, 'k'], [v, 'v'], [beta, 'beta'], [g, 'g']] as const) {
    if (t.device !== 'cpu') throw new DeviceError(`${who}: ${name} must be a CPU tensor (the solves move to the GPU with device: 'gpu')`);
    if (t.dtype !== dtype) throw new DTypeError(`${who}: ${name} is ${t.dtype}, q is ${dtype}`);
  }
  if (q.ndim !== 4) throw new ShapeError(`${who}: q is ${fmtShape(q.shape)}, expected (batch, heads, length, dk)`);
  const [Bn, H, L, dk] = q.shape;
  if (k.ndim !== 4 || k.shape[0] !== Bn || k.shape[1] !== H || k.shape[2] !== L || k.shape[3] !== dk) {
    throw new ShapeError(`${who}: k is ${fmtShape(k.shape)}, expected ${fmtShape(q.shape)} like q`);
  }
  if (v.ndim !== 4 || v.shape[0] !== Bn || v.shape[1] !== H || v.shape[2] !== L) {
    throw new ShapeError(`${who}: v is ${fmtShape(v.shape)}, expected (${Bn}, ${H}, ${L}, dv)`);
  }
  const dv = v.shape[3];
  for (const [t, name] of [[beta, 'beta'], [g, 'g']] as const) {
    if (t.ndim !== 3 || t.shape[0] !== Bn || t.shape[1] !== H || t.shape[2] !== L) {
      throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape)}, expected (${Bn}, ${H}, ${L})`);
    }
  }
  let S0: Tensor | null = null;
  if (input.initialState !== undefined) {
    const s = asTensor(input.initialState, who, 'initialState', dtype);
    if (s.ndim !== 4 || s.shape[0] !== Bn || s.shape[1] !== H || s.shape[2] !== dk || s.shape[3] !== dv) {
      throw new ShapeError(`${who}: initialState is ${fmtShape(s.shape)}, expected (${Bn}, ${H}, ${dk}, ${dv})`);
    }
    S0 = s;
    checkValues(s, cpuData(s), who, 'initialState', false);
  }
  checkValues(q, cpuData(q), who, 'q', false);
  checkValues(k, cpuData(k), who, 'k', false);
  checkValues(v, cpuData(v), who, 'v', false);
  checkValues(beta, cpuData(beta), who, 'beta', false);
  checkValues(g, cpuData(g), who, 'g', true);
  const sys = lookup('gdnChunkSystems', dtype, 'cpu', who)(k, v, beta, g, C);
  let At = sys.A, Rt = sys.rhs;
  if (input.device === 'gpu') {
    At = At.to('gpu');
    Rt = Rt.to('gpu');
  }
  const Xt = chunkSolve(At, Rt);
  // The state pass runs on the host: GPU solutions come back in one read.
  const X = input.device === 'gpu' ? Tensor.fromStorage(dtype, Xt.shape, (await Xt.data()) as never) as Tensor : Xt;
  if (input.device === 'gpu') {
    At.dispose();
    Rt.dispose();
    Xt.dispose();
  }
  return lookup('gdnStatePass', dtype, 'cpu', who)(X, q, k, sys.gamma, C, S0);
}

// `lapis/gdn` is a package entry of its own: it fills the registry (once) like src/index.ts.
registerAll();
