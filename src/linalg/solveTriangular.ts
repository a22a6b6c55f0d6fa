import { readOptions, opt } from '../core/options.js';
import { ShapeError, ArgumentError, fmtShape } from '../core/errors.js';
import { requireMatrix, requireSquare, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { raiseOnInfo } from '../core/info.js';
import { taping, gradCall } from '../core/grad.js';
import { coerceOperands, leftOption, transposeOf } from './solve.js';

export interface SolveTriangularOptions {
  /** Required (as in torch): which triangle of A holds the matrix. The other is never read. */
  upper: boolean;
  /** true (default): A·X = B; false: X·A = B. */
  left?: boolean;
  /** true: the diagonal is taken as ones and never read. Default false. */
  unitriangular?: boolean;
}

interface Prepared { a: Tensor; b: Tensor; left: boolean; upper: boolean; unit: boolean }

function prepare(A: TensorLike, B: TensorLike, opts: SolveTriangularOptions, who: string): Prepared {
  readOptions(who, opts, { upper: opt.bool, left: opt.bool, unitriangular: opt.bool });
  if (typeof opts !== 'object' || opts === null || typeof opts.upper !== 'boolean') {
    throw new ArgumentError(`${who}: the option upper (boolean) is required: ${who}(A, B, { upper: true })`);
  }
  const left = leftOption(opts, who);
  const unit = opts.unitriangular ?? false;
  if (typeof unit !== 'boolean') throw new ArgumentError(`${who}: unitriangular must be a boolean`);
  let { a, b } = coerceOperands(A, B, who);
  requireSquare(a, who, 'A');
  requireMatrix(b, who, 'B');
  const n = a.rows;
  if ((left ? b.rows : b.cols) !== n) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(b.shape.slice(-2))}: ` +
      `${left ? 'rows' : 'columns'} of B must be ${n}`);
  }
  let upper = opts.upper;
  // X·A = B  ⇔  Aᵀ·Xᵀ = Bᵀ, and Aᵀ has the other triangle (and the same diagonal).
  if (!left) {
    a = transposeOf(a, false, who);
    b = transposeOf(b, false, who);
    upper = !upper;
  }
  return { a, b, left, upper, unit };
}

function run(A: TensorLike, B: TensorLike, opts: SolveTriangularOptions, who: string, wantInfo: boolean) {
  const p = prepare(A, B, opts, who);
  const plan = planBatch(p.a, p.b, who);
  const r = lookup('solveTriangular', p.a.dtype, p.a.device, who)(p.a, p.b, plan,
    { upper: p.upper, unitriangular: p.unit, info: wantInfo });
  return { X: p.left ? r.X : transposeOf(r.X, false, who), info: r.info, batched: plan.batchShape.length > 0 };
}

const zeroDiagonal = (code: number) =>
  code > 0 ? `the triangular matrix is singular: its diagonal element A[${code - 1}, ${code - 1}] is exactly zero` : null;

/**
 * Solves a triangular system A·X = B (or X·A = B with `left: false`) by blocked
 * substitution (torch.linalg.solve_triangular), checking the diagonal as LAPACK's trtrs
 * does. Only the triangle named by `upper` is read, and not the diagonal when
 * `unitriangular`: the rest may hold anything, NaN included. Near-singular matrices are
 * not flagged (their X may be huge), as in LAPACK.
 *
 * Gradient: for A (only the triangle that is read; not the diagonal when unitriangular) and B.
 *
 * Syntax: `linalg.solveTriangular(A, B, { upper, left, unitriangular })`
 * Example: `solveTriangular([[2, 0], [1, 1]], [[2], [3]], { upper: false })` → `[[1], [2]]`
 * Throws: LinAlgError (batch element, first zero diagonal entry, info = its 1-based
 * index) if a diagonal entry is exactly zero — on the GPU at the first read of the
 * result; ArgumentError if `upper` is missing; ShapeError if A is not square or B does not
 * fit; DeviceError if A and B are on different devices.
 * See also: `solveTriangularEx`, `solve`, `luSolve`.
 */
export function solveTriangular(A: TensorLike, B: TensorLike, opts: SolveTriangularOptions): Tensor {
  if (taping()) return gradCall('solveTriangular', solveTriangular, [A, B, opts]);
  const who = 'solveTriangular';
  // unit diagonal: never singular, so no status is computed (the GDN fast path)
  const unit = typeof opts === 'object' && opts !== null && opts.unitriangular === true;
  const r = run(A, B, opts, who, !unit);
  if (r.info) raiseOnInfo(r.info, who, r.batched, zeroDiagonal, [r.X]);
  return r.X;
}

/**
 * `solveTriangular` returning the status per matrix instead of throwing (LAPACK's trtrs
 * info). info: 0 ok; k > 0 the diagonal entry A[k−1, k−1] is exactly zero, and that
 * matrix's X is NaN ("not computed"). Always 0 with `unitriangular: true`. An int32
 * tensor of the batch shape, on the device of the result.
 *
 * Syntax: `linalg.solveTriangularEx(A, B, { upper, left, unitriangular })` → `{ solution, info }`
 * Example: `solveTriangularEx([[1, 0], [1, 0]], [[1], [1]], { upper: false }).info` → 2
 * Throws: ArgumentError/ShapeError/DTypeError/DeviceError for bad arguments only.
 * See also: `solveTriangular`, `solveEx`.
 */
export function solveTriangularEx(
  A: TensorLike, B: TensorLike, opts: SolveTriangularOptions,
): { solution: Tensor; info: Tensor<'int32'> } {
  if (taping()) return gradCall('solveTriangularEx', solveTriangularEx, [A, B, opts]);
  const r = run(A, B, opts, 'solveTriangularEx', true);
  return { solution: r.X, info: r.info! };
}
