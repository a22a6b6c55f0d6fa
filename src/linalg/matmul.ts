import { promote, isComplex } from '../core/dtype.js';
import { ShapeError, DeviceError, DTypeError, ArgumentError, fmtShape } from '../core/errors.js';
import { taping, gradCall, refuseTracked } from '../core/grad.js';
import { readOptions, opt } from '../core/options.js';
import { asTensor, castCpu, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import type { MatOp } from '../backend/ops.js';

export interface MatmulOptions {
  /**
   * Where to write the product (numpy's and torch's `out=`): a dense tensor on the operands'
   * device with exactly the result's shape and (promoted) dtype. The call returns it.
   */
  out?: Tensor;
  /** Use Aᵀ (A's last two dims swapped) in place of A, read in place without a copy on the CPU and the GPU (TF's `transpose_a`). */
  transposeA?: boolean;
  /** Use Bᵀ in place of B (TF's `transpose_b`). */
  transposeB?: boolean;
  /** Use Aᴴ, the conjugate transpose (= Aᵀ for real dtypes), in place of A (TF's `adjoint_a`). */
  adjointA?: boolean;
  /** Use Bᴴ in place of B (TF's `adjoint_b`). */
  adjointB?: boolean;
}

// Built once: a schema made per call (a closure and five objects) is garbage on every product.
const OPTIONS = {
  out: opt.check((v) => v instanceof Tensor, 'a Tensor'),
  transposeA: opt.bool, transposeB: opt.bool, adjointA: opt.bool, adjointB: opt.bool,
};

/** How an operand is read: as stored, transposed, or conjugate-transposed (`adjoint`). */
export type MatmulOp = 'N' | 'T' | 'H';
type Op = MatmulOp;

/**
 * Matrix product with torch.matmul semantics: batch dims broadcast, a 1-D operand is a
 * vector (prepended/appended dim removed from the result).
 *
 * `transposeA`/`transposeB`/`adjointA`/`adjointB` (TensorFlow's tf.linalg.matmul and tfjs's
 * tf.matMul options): the product op(A)·op(B) over the last two dims, op being the transpose,
 * or the adjoint (conjugate transpose; the transpose for real dtypes). The GEMM reads the
 * stored matrices in place (the CPU through swapped strides, the GPU kernels' tile loads in
 * the stored layout, conjugating for the adjoint), so `matmul(A, B, { transposeA: true })`
 * copies nothing where `matmul(A.mT, B)` first materialises Aᵀ. The options apply to
 * matrices (…, r, c) only, not to a 1-D operand. Batch dims broadcast as without them.
 *
 * `out` (numpy's and torch's `out=`): the product is written into this tensor's storage,
 * which is returned, so a loop reuses one output instead of allocating a new one each call.
 * It must be on the operands' device, have the result's exact shape (the reduced shape for
 * vector operands) and its promoted dtype — never resized or cast. It may share storage
 * with A or B (`matmul(A, B, { out: A })`, or a reshape of either): the product then goes
 * to a temporary and is copied in, so the answer is that of the call without `out`.
 * Inside grad/valueAndGrad/vjp, `out` is refused when A, B or out is differentiated (an
 * in-place write has no gradient; torch refuses it too). The transpose and adjoint options
 * are differentiable.
 *
 * Syntax: `linalg.matmul(A, B)`, `linalg.matmul(A, B, { out })`,
 * `linalg.matmul(A, B, { transposeA, transposeB, adjointA, adjointB, out })`
 * Example: `matmul([[1, 2], [3, 4]], [[5], [6]])` → `[[17], [39]]`;
 * `matmul([[1, 3], [2, 4]], [[5], [6]], { transposeA: true })` → `[[17], [39]]` (Aᵀ·B);
 * `matmul(X, X, { adjointA: true })` → the Gram matrix Xᴴ·X;
 * `const C = zeros([1000, 8, 8]); for (…) matmul(A, B, { out: C })`
 * Throws: ShapeError if the inner dims of op(A) and op(B) differ ("Aᵀ is 3×5 and B is 4×2:
 * inner dims 5 ≠ 4"), the batch dims do not broadcast, or a transpose/adjoint option is
 * given for a 1-D operand; ArgumentError if an option is not a boolean, or transposeA and
 * adjointA (transposeB and adjointB) are both true; DeviceError if A and B are on different
 * devices; DTypeError for float64 on the GPU.
 * With `out`: ArgumentError if it is not a Tensor (or it is differentiated under grad);
 * DeviceError if it is disposed or on another device; DTypeError if its dtype is not the
 * result's; ShapeError if its shape is not the result's.
 * See also: `solve`, `luFactor`, `Tensor.mT`, `Tensor.mH`.
 */
export function matmul(A: TensorLike, B: TensorLike, opts?: MatmulOptions): Tensor {
  const who = 'matmul';
  if (taping()) {
    // Refused before recording: out's old value may be on the tape, and the write has no rule.
    const out = (opts as { out?: unknown } | null | undefined)?.out;
    if (out !== undefined) {
      refuseTracked(who, [A, B, out], 'the out option writes in place; call matmul(A, B) without out (torch refuses out= for tensors that require grad)');
    }
    return gradCall(who, matmul, opts === undefined ? [A, B] : [A, B, opts]);
  }
  const o = readOptions(who, opts, OPTIONS);
  const out = o.out;
  const opA = readOp(who, 'A', o.transposeA, o.adjointA), opB = readOp(who, 'B', o.transposeB, o.adjointB);
  let a = asTensor(A, who, 'A');
  let b = asTensor(B, who, 'B');
  if (a.device !== b.device) throw new DeviceError(`${who}: A is on ${a.device}, B is on ${b.device}`);
  if (a.ndim === 0 || b.ndim === 0) throw new ShapeError(`${who}: operands must have at least one dimension`);
  const aVec = a.ndim === 1, bVec = b.ndim === 1;
  if (aVec && opA !== 'N') throw vectorOp(who, 'A', a, opA);
  if (bVec && opB !== 'N') throw vectorOp(who, 'B', b, opB);
  if (aVec) a = a.reshape([1, a.shape[0]]);
  if (bVec) b = b.reshape([b.shape[0], 1]);
  const m = opA === 'N' ? a.rows : a.cols, k = opA === 'N' ? a.cols : a.rows;
  const k2 = opB === 'N' ? b.rows : b.cols, n = opB === 'N' ? b.cols : b.rows;
  if (k !== k2) {
    throw new ShapeError(`${who}: ${opName('A', opA)} is ${fmtShape([m, k])} and ${opName('B', opB)} is ${fmtShape([k2, n])}: inner dims ${k} ≠ ${k2}`);
  }
  const dt = promote(a.dtype, b.dtype);
  const plan = planBatch(a, b, who);
  const impl = lookup('matmul', dt, a.device, who);
  const shape = [...plan.batchShape];
  if (!aVec) shape.push(m);
  if (!bVec) shape.push(n);
  if (out !== undefined) checkOut(out, a.device, dt, shape, who);
  if (a.dtype !== dt) a = castCpu(a, dt, who);
  if (b.dtype !== dt) b = castCpu(b, dt, who);
  const complex = isComplex(dt);
  const C = impl(a, b, plan, m, k, n, out, opCode(opA, complex), opCode(opB, complex));
  if (out !== undefined) return out;
  return aVec || bVec ? C.reshape(shape) : C;
}

/** op(X) from X's transpose/adjoint options (matmul and its gradient rule); both true is refused. */
export function readOp(who: string, X: 'A' | 'B', transpose: boolean | undefined, adjoint: boolean | undefined): Op {
  if (transpose === true && adjoint === true) {
    throw new ArgumentError(`${who}: transpose${X} and adjoint${X} are both true; give one (adjoint${X} is the conjugate transpose)`);
  }
  return adjoint === true ? 'H' : transpose === true ? 'T' : 'N';
}

/** The addon's op code; the adjoint of a real matrix is its transpose. */
function opCode(op: Op, complex: boolean): MatOp {
  return op === 'N' ? 0 : op === 'T' || !complex ? 1 : 2;
}

/** `A`, `Aᵀ` or `Aᴴ`, as shape errors name an operand. */
function opName(X: string, op: Op): string {
  return op === 'N' ? X : op === 'T' ? `${X}ᵀ` : `${X}ᴴ`;
}

/** The error for a transpose/adjoint option on a 1-D operand. */
function vectorOp(who: string, X: string, t: Tensor, op: Op): ShapeError {
  const name = `${op === 'T' ? 'transpose' : 'adjoint'}${X}`;
  return new ShapeError(`${who}: ${name} needs a matrix, but ${X} is 1-D (length ${t.shape[0]}); ` +
    `reshape it to ${fmtShape([1, t.shape[0]])} or ${fmtShape([t.shape[0], 1])} first`);
}

/** The checks on `out`, before any work: alive, same device, the result's dtype and shape (no resize, no cast). */
function checkOut(out: Tensor, device: string, dtype: string, shape: readonly number[], who: string): void {
  if (out.isDisposed) throw new DeviceError(`${who}: out was disposed`);
  if (out.device !== device) throw new DeviceError(`${who}: out is on ${out.device}, A and B are on ${device}`);
  out.alive(`${who}: out`);
  if (out.dtype !== dtype) {
    throw new DTypeError(`${who}: out is ${out.dtype}, the product is ${dtype} (out must have the result's dtype; it is not cast)`);
  }
  if (out.shape.length !== shape.length || out.shape.some((d, i) => d !== shape[i])) {
    throw new ShapeError(`${who}: out is ${fmtShape(out.shape)}, the product is ${fmtShape(shape)} (out must have the result's shape; it is not resized)`);
  }
}
