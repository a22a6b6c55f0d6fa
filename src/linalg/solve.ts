import { readOptions, opt } from '../core/options.js';
import { promote } from '../core/dtype.js';
import { ShapeError, DeviceError, DTypeError, ArgumentError, fmtShape } from '../core/errors.js';
import { asTensor, castCpu, requireMatrix, requireSquare, zeros, type TensorLike } from '../core/create.js';
import { planBatch, type BatchPlan } from '../core/batch.js';
import type { Tensor } from '../core/tensor.js';
import { has, lookup } from '../backend/registry.js';
import { raiseOnInfo } from '../core/info.js';
import { taping, gradCall, refuseTracked, claimSaveSlot } from '../core/grad.js';

export interface SolveOptions {
  /** true (default): A·X = B. false: X·A = B. */
  left?: boolean;
}

/** @internal The operands of a binary solver, promoted to one dtype on one device. */
export function coerceOperands(A: TensorLike, B: TensorLike, who: string, bName = 'B'): { a: Tensor; b: Tensor } {
  let a = asTensor(A, who, 'A');
  let b = asTensor(B, who, bName);
  if (a.device !== b.device) throw new DeviceError(`${who}: A is on ${a.device}, ${bName} is on ${b.device}`);
  const dt = promote(a.dtype, b.dtype);
  if (a.dtype !== dt || b.dtype !== dt) {
    if (a.device !== 'cpu') {
      throw new DTypeError(`${who}: A is ${a.dtype} and ${bName} is ${b.dtype}; convert one before calling on the GPU`);
    }
    a = castCpu(a, dt, who);
    b = castCpu(b, dt, who);
  }
  return { a, b };
}

/** @internal Batched transpose (conj = adjoint) through the registry, on any device. */
export function transposeOf(t: Tensor, conj: boolean, who: string): Tensor {
  return lookup('transpose', t.dtype, t.device, who)(t, conj);
}

/** @internal Checks an options object and returns `left`. */
export function leftOption(opts: { left?: boolean } | undefined, who: string): boolean {
  const left = opts?.left ?? true;
  if (typeof left !== 'boolean') throw new ArgumentError(`${who}: left must be a boolean, got ${String(left)}`);
  return left;
}

interface Prepared {
  a: Tensor; b: Tensor; left: boolean; vec: boolean; outShape: (X: Tensor) => Tensor;
}

function prepare(A: TensorLike, B: TensorLike, opts: SolveOptions, who: string): Prepared {
  opts = readOptions(who, opts, { left: opt.bool });
  const left = leftOption(opts, who);
  let { a, b } = coerceOperands(A, B, who);
  requireSquare(a, who, 'A');
  const n = a.rows;
  if (b.ndim === 0) throw new ShapeError(`${who}: B is a scalar, expected a vector or a matrix`);
  // torch's rule: B is a (batch of) vector(s) if it is 1-D, or has exactly A's batch dims + n.
  const vec = b.ndim === 1 || (b.ndim === a.ndim - 1 && b.shape.every((d, i) => d === a.shape[i]));
  const vshape = b.shape;
  if (vec) b = left ? b.reshape([...b.shape, 1]) : b.reshape([...b.shape.slice(0, -1), 1, b.shape[b.ndim - 1]]);
  requireMatrix(b, who, 'B');
  if ((left ? b.rows : b.cols) !== n) {
    throw new ShapeError(
      `${who}: A is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(vec ? vshape : b.shape.slice(-2))}: ` +
      `${left ? 'rows of B' : 'columns of B'} must be ${n}`,
    );
  }
  if (!left) {
    a = transposeOf(a, false, who);
    b = transposeOf(b, false, who);
  }
  const outShape = (X: Tensor): Tensor => {
    let x = left ? X : transposeOf(X, false, who);
    if (vec) x = x.reshape(left ? x.shape.slice(0, -1) : [...x.shape.slice(0, -2), x.shape[x.ndim - 1]]);
    return x;
  };
  return { a, b, left, vec, outShape };
}

/**
 * @internal What a recorded solve/solveEx keeps for its backward: the LU factors of the matrix
 * it solved with (A, or Aᵀ when left is false), so the backward's Aᴴ solve does not factor again.
 */
export interface SolveSaved { LU: Tensor; pivots: Tensor<'int32'> }

function allFinite(t: Tensor): boolean {
  const d = t.dataSync() as Float32Array | Float64Array;
  for (let i = 0; i < d.length; i++) if (!Number.isFinite(d[i])) return false;
  return true;
}

/**
 * The registry's solve, or, when recorded on the CPU, getrf + getrs with the factors kept for
 * the backward. Only when that gives what the fused kernel gives (no zero pivot, no overflow,
 * finite X); otherwise the fused kernel runs (its NaN/info conventions) and nothing is kept.
 */
function solveKeeping(p: Prepared, plan: BatchPlan, who: string): { X: Tensor; info: Tensor<'int32'> } {
  const slot = claimSaveSlot(who);
  if (slot !== null && p.a.device === 'cpu' && p.a.rows > 0) {
    const f = lookup('luFactor', p.a.dtype, 'cpu', who)(p.a);
    if ((f.info.dataSync() as Int32Array).every((v) => v === 0)) {
      const X = lookup('luSolve', p.a.dtype, 'cpu', who)(f.LU, f.pivots, p.b, plan, false);
      if (allFinite(X)) {
        slot.saved = { LU: f.LU, pivots: f.pivots } satisfies SolveSaved;
        return { X, info: zeros(plan.batchShape, { dtype: 'int32' }) };
      }
    }
  }
  return lookup('solve', p.a.dtype, p.a.device, who)(p.a, p.b, plan);
}

const singular = (code: number) =>
  code > 0 ? `the matrix is singular: U[${code - 1}, ${code - 1}] of its LU factorization is exactly zero` : null;

/**
 * Solves A·X = B (or X·A = B with `left: false`) for square A, returning the status per
 * matrix instead of throwing. info: 0 ok; k > 0 exact zero pivot U[k−1, k−1] (X is NaN);
 * −1 A holds NaN or Inf (X is NaN). Batch dims broadcast; B may be a vector (torch's
 * rule); results of one matrix never depend on another.
 *
 * Syntax: `linalg.solveEx(A, B, { left })` → `{ result, info }`
 * Example: `solveEx([[2, 0], [0, 0]], [1, 1]).info` → 2 (as an int32 scalar tensor)
 * Throws: ShapeError/DTypeError/DeviceError for bad arguments only.
 * See also: `solve`, `luFactor`, `solveTriangular`.
 */
export function solveEx(A: TensorLike, B: TensorLike, opts: SolveOptions = {}): { result: Tensor; info: Tensor<'int32'> } {
  if (taping()) return gradCall('solveEx', solveEx, [A, B, opts]);
  const who = 'solveEx';
  const p = prepare(A, B, opts, who);
  const plan = planBatch(p.a, p.b, who);
  const r = solveKeeping(p, plan, who);
  return { result: p.outShape(r.X), info: r.info };
}

/**
 * Solves A·X = B (torch.linalg.solve): partial-pivoted LU, then two triangular solves.
 * `left: false` solves X·A = B. Batch dims of A and B broadcast ((2,1,n,n) with (3,n,k)
 * gives (2,3,n,k)); B may be a vector or a batch of vectors. NaN/Inf in A gives NaN in X.
 *
 * Gradient: for A and B (broadcast dims summed); a recorded call keeps its LU factors on the
 * CPU so the backward does not factor again. solveEx: NaN where info ≠ 0.
 *
 * Syntax: `linalg.solve(A, B, { left })`
 * Example: `solve([[3, 1], [1, 2]], [9, 8])` → `[2, 3]`
 * Throws: LinAlgError (batch element, zero pivot) if a matrix is exactly singular — on the
 * GPU at the first read of the result; ShapeError if A is not square or B does not fit;
 * DeviceError if A and B are on different devices.
 * See also: `solveEx`, `solveAsync`, `luSolve`, `inv`.
 */
export function solve(A: TensorLike, B: TensorLike, opts: SolveOptions = {}): Tensor {
  if (taping()) return gradCall('solve', solve, [A, B, opts]);
  const who = 'solve';
  const p = prepare(A, B, opts, who);
  const plan = planBatch(p.a, p.b, who);
  const r = solveKeeping(p, plan, who);
  const X = p.outShape(r.X);
  raiseOnInfo(r.info, who, plan.batchShape.length > 0, singular, [X]);
  return X;
}

/**
 * `solve` off the JS thread: on the CPU the work runs on a libuv worker and the event
 * loop stays free. A and B are copied when the call starts: changing, transferring or
 * shrinking their buffers afterwards does not affect the result.
 *
 * Syntax: `await linalg.solveAsync(A, B, { left })`
 * Example: `const X = await solveAsync(randn([2000, 2000]), randn([2000, 64]));`
 * Throws (rejects): as `solve`.
 * See also: `solve`, `luFactorAsync`, `invAsync`.
 */
export async function solveAsync(A: TensorLike, B: TensorLike, opts: SolveOptions = {}): Promise<Tensor> {
  const who = 'solveAsync';
  refuseTracked(who, [A, B], 'call solve (synchronous) inside grad/valueAndGrad/vjp');
  const p = prepare(A, B, opts, who);
  const plan = planBatch(p.a, p.b, who);
  const r = has('solveAsync', p.a.dtype, p.a.device)
    ? await lookup('solveAsync', p.a.dtype, p.a.device, who)(p.a, p.b, plan)
    : lookup('solve', p.a.dtype, p.a.device, who)(p.a, p.b, plan);
  const X = p.outShape(r.X);
  raiseOnInfo(r.info, who, plan.batchShape.length > 0, singular, [X]);
  return X;
}
