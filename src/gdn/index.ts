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
import { planGdn, raiseOnGdnStatus } from './plan.js';
import { taping, gradCall, refuseTracked, claimSaveSlot } from '../core/grad.js';
import { planForward, chunkedBackwardFrom } from './chunked.js';

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
 * Gradients (grad/valueAndGrad/vjp): B̄ = (I + L)⁻ᵀ·X̄ and Ā = −tril(B̄·Xᵀ, −1) (the diagonal
 * and upper part, never read, get zeros); second derivatives too.
 * See also: `gdn.invUnitLower`, `linalg.solveTriangular`, `gdn.chunkedForward`.
 */
export function chunkSolve(A: TensorLike, B: TensorLike): Tensor {
  if (taping()) return gradCall('gdn.chunkSolve', chunkSolve, [A, B]);
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
 * On the GPU, float32 with C ∈ {16, 32, 64} runs the batched inverse kernel
 * (shaders/gdn/inv_unit_lower.wgsl); other shapes and the CPU solve against the identity.
 *
 * Syntax: `gdn.invUnitLower(A)`
 * Example: `gdn.invUnitLower([[0, 0], [0.5, 0]])` → `[[1, 0], [-0.5, 1]]`
 * Throws: ShapeError if A is not (…, C, C); DTypeError for complex input.
 * Gradients: Ā = −tril(Tᵀ·T̄·Tᵀ, −1); second derivatives too.
 * See also: `gdn.chunkSolve`.
 */
export function invUnitLower(A: TensorLike): Tensor {
  if (taping()) return gradCall('gdn.invUnitLower', invUnitLower, [A]);
  const who = 'gdn.invUnitLower';
  const a = asTensor(A, who, 'A');
  realFloat(a, who, 'A');
  if (a.ndim < 2 || a.rows !== a.cols) throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}, expected (…, C, C)`);
  return lookup('invUnitLower', a.dtype, a.device, who)(a);
}

export interface ChunkedForwardInput {
  /** Queries (batch, time, heads, dk); (batch, heads, time, dk) with layout 'bhtd'. */
  q: TensorLike;
  /** Keys, shaped like q. */
  k: TensorLike;
  /** Values (batch, time, vHeads, dv); vHeads a multiple of heads (grouped value heads). */
  v: TensorLike;
  /** Write strengths β (batch, time, vHeads), usually in (0, 1). */
  beta: TensorLike;
  /** Log decays g (batch, time, vHeads), finite and ≤ 0: the state is scaled by exp(g_t) at step t. */
  g: TensorLike;
  /** 'bthd' (default, flash-linear-attention's) or 'bhtd' (heads before time). */
  layout?: 'bthd' | 'bhtd';
  /** o_t = S_tᵀ·(scale·q_t); default dk^−½. */
  scale?: number;
  /** Divide q and k by sqrt(Σx² + 1e-6) per token and head inside the kernels (default false). */
  qkL2norm?: boolean;
  /** Initial states (sequences, vHeads, dk, dv); zeros by default. float32 for float16 inputs. */
  initialState?: TensorLike;
  /**
   * Packed variable-length sequences: N + 1 offsets on the time axis (host array or CPU tensor),
   * batch must be 1. Each sequence runs alone, from its own initial state.
   */
  cuSeqlens?: ArrayLike<number> | Tensor;
  /** Chunk length C (16, 32 or 64; default 64). Sequence lengths need not be multiples. */
  chunkSize?: 16 | 32 | 64;
}

export interface ChunkedForwardOutput {
  /** Outputs o_t = S_tᵀ·(scale·q_t), shaped and typed like v. */
  o: Tensor;
  /** S after each sequence's last token, (sequences, vHeads, dk, dv); float32 for float16 inputs. */
  finalState: Tensor;
}

/**
 * The gated delta rule S_t = exp(g_t)·(I − β_t·k_t·k_tᵀ)·S_{t−1} + β_t·k_t·v_tᵀ,
 * o_t = S_tᵀ·(scale·q_t), evaluated chunk by chunk (the WY form of flash-linear-attention's
 * `chunk_gated_delta_rule`, docs/gdn.md) on the device of the inputs: native kernels on the
 * CPU (float32, float64), WGSL kernels recorded into one submission on the GPU (float32,
 * float16 storage with float32 arithmetic). Returns at once on the GPU; no host reads.
 *
 * Syntax: `gdn.chunkedForward({ q, k, v, beta, g, layout, scale, qkL2norm, initialState, cuSeqlens, chunkSize })`
 * Example: `const { o, finalState } = gdn.chunkedForward({ q, k, v, beta, g })` with q, k (4, 4096, 16, 128) on the GPU
 * Throws: ShapeError for inconsistent shapes; DTypeError for other dtypes or mixed dtypes;
 * DeviceError for mixed devices or a GPU cuSeqlens; ArgumentError for a bad option, bad
 * cuSeqlens, and (on the CPU now, on the GPU at the first read of o or finalState) for a log
 * decay g that is > 0 or not finite, or NaN/±Inf in q, k, v, beta or initialState, naming the
 * sequence and value head.
 * Gradients (grad/valueAndGrad/vjp) for q, k, v, beta, g and initialState run
 * `gdn.chunkedBackward` (on the GPU from the stages the recorded forward kept); first order only.
 * See also: `gdn.recurrentStep`, `gdn.chunkedBackward`, `gdn.chunkSolve`.
 */
export function chunkedForward(input: ChunkedForwardInput): ChunkedForwardOutput {
  if (taping()) return gradCall('gdn.chunkedForward', chunkedForward, [input]);
  const who = 'gdn.chunkedForward';
  const { x, plan } = planForward(input, who);
  // recorded for a gradient: the backend may keep its stages for the backward (GPU)
  const slot = claimSaveSlot(who);
  const r = lookup('gdnForward', x.q.dtype, x.q.device, who)(x, plan, slot !== null);
  raiseOnGdnStatus(r.status, plan, who, [r.o, r.finalState]);
  if (slot && r.saved) slot.saved = r.saved;
  return { o: r.o, finalState: r.finalState };
}

export interface ChunkedBackwardGrads {
  /** ∂L/∂o, shaped like o. */
  dO: TensorLike;
  /** ∂L/∂finalState (sequences, vHeads, dk, dv); zero when omitted. */
  dFinalState?: TensorLike;
}

export interface ChunkedBackwardOutput {
  dq: Tensor;
  dk: Tensor;
  dv: Tensor;
  dbeta: Tensor;
  dg: Tensor;
  /** Present when the input had an initial state. */
  dInitialState?: Tensor;
}

/**
 * Gradients of a loss L through `chunkedForward(input)`, given ∂L/∂o (and ∂L/∂finalState):
 * ∂L/∂q, ∂L/∂k, ∂L/∂v, ∂L/∂β, ∂L/∂g (in their inputs' shapes) and ∂L/∂initialState. The
 * forward is recomputed inside (nothing is saved between the calls). With qkL2norm the
 * gradients are those of the raw q and k (through the normalisation).
 *
 * Syntax: `gdn.chunkedBackward(input, { dO, dFinalState })`
 * Example: `const { dq, dk, dv, dbeta, dg } = gdn.chunkedBackward({ q, k, v, beta, g }, { dO })`
 * Throws: as `chunkedForward`; ShapeError/DTypeError/DeviceError when dO or dFinalState do not
 * match o or finalState; ArgumentError on a tensor that grad/valueAndGrad/vjp differentiates
 * (differentiate chunkedForward instead).
 * See also: `gdn.chunkedForward`.
 */
export function chunkedBackward(input: ChunkedForwardInput, grads: ChunkedBackwardGrads): ChunkedBackwardOutput {
  refuseTracked('gdn.chunkedBackward', [input, grads], 'differentiate gdn.chunkedForward instead (its gradient rule runs this backward)');
  return chunkedBackwardFrom(input, grads);
}

export interface RecurrentStepOptions {
  /** o = Sᵀ·(scale·q); default dk^−½. */
  scale?: number;
  /** L2-normalise q and k first, as chunkedForward's qkL2norm. */
  qkL2norm?: boolean;
}

/**
 * One token of the gated delta rule for a batch of sequences (decoding):
 * S ← exp(g)·(I − β·k·kᵀ)·S + β·k·vᵀ, o = Sᵀ·(scale·q), the same arithmetic as the chunked
 * form (chunkedForward's finalState equals T of these steps). On the device of the inputs.
 *
 * Syntax: `gdn.recurrentStep(state, q, k, v, beta, g, { scale, qkL2norm })` → `{ o, state }`
 * Example: `({ o, state } = gdn.recurrentStep(state, q, k, v, beta, g))` with q, k (B, H, dk), v (B, HV, dv), beta, g (B, HV), state (B, HV, dk, dv)
 * Throws: ShapeError, DTypeError, DeviceError for inconsistent arguments; ArgumentError as
 * `chunkedForward` for non-finite inputs or a log decay g > 0 (on the GPU at the first read).
 * Gradients for state, q, k, v, beta and g (written with public ops: second derivatives too).
 * See also: `gdn.chunkedForward`.
 */
export function recurrentStep(
  state: TensorLike, q: TensorLike, k: TensorLike, v: TensorLike, beta: TensorLike, g: TensorLike,
  opts: RecurrentStepOptions = {},
): { o: Tensor; state: Tensor } {
  if (taping()) return gradCall('gdn.recurrentStep', recurrentStep, [state, q, k, v, beta, g, opts]);
  const who = 'gdn.recurrentStep';
  opts = readOptions(who, opts, { scale: opt.num(), qkL2norm: opt.bool });
  // A step is a length-1 'bthd' sequence: (B, H, d) → (B, 1, H, d).
  const t4 = (x: TensorLike, name: string, dtype?: Tensor['dtype']): Tensor => {
    const t = asTensor(x, who, name, dtype);
    if (t.ndim !== 3) throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape)}, expected (batch, heads, dim)`);
    return t;
  };
  const t3 = (x: TensorLike, name: string, dtype?: Tensor['dtype']): Tensor => {
    const t = asTensor(x, who, name, dtype);
    if (t.ndim !== 2) throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape)}, expected (batch, vHeads)`);
    return t;
  };
  const qt = t4(q, 'q');
  const kt = t4(k, 'k', qt.dtype), vt = t4(v, 'v', qt.dtype), bt = t3(beta, 'beta', qt.dtype), gt = t3(g, 'g', qt.dtype);
  const view = (t: Tensor): Tensor => t.reshape([t.shape[0], 1, ...t.shape.slice(1)]) as Tensor;
  const { x, plan } = planGdn(
    { q: view(qt), k: view(kt), v: view(vt), beta: view(bt), g: view(gt), initialState: state },
    { layout: 'bthd', chunk: 16, scale: opts.scale, qkL2norm: opts.qkL2norm ?? false }, who);
  // the (B, 1, …) views only served the checks; on the GPU each holds a reference to its buffer
  if (qt.device === 'gpu') for (const t of [x.q, x.k, x.v, x.beta, x.g]) t.dispose();
  if (!x.initialState) throw new ArgumentError(`${who}: state is missing`);
  const r = lookup('gdnRecurrentStep', qt.dtype, qt.device, who)(x.initialState, qt, kt, vt, bt, gt, plan);
  raiseOnGdnStatus(r.status, plan, who, [r.o, r.state]);
  return { o: r.o, state: r.state };
}

// `lapis/gdn` is a package entry of its own: it fills the registry (once) like src/index.ts.
registerAll();
