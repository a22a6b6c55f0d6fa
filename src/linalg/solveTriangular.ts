import '../backend/registerAll.js';
import { readOptions, opt } from '../core/options.js';
import { ShapeError, ArgumentError, fmtShape } from '../core/errors.js';
import { requireMatrix, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import type { OpSignatures } from '../backend/ops.js';
import { requireSquareMatrix } from './lu.js';
import { coerceOperands, leftOption, transposeOf } from './solve.js';

export interface SolveTriangularOptions {
  /** Required (as in torch): which triangle of A holds the matrix. The other is never read. */
  upper: boolean;
  /** true (default): A·X = B; false: X·A = B. */
  left?: boolean;
  /** true: the diagonal is taken as ones and never read. Default false. */
  unitriangular?: boolean;
}

/**
 * Solves a triangular system A·X = B (or X·A = B with `left: false`) by blocked
 * substitution (torch.linalg.solve_triangular). Only the triangle named by `upper` is
 * read, and not the diagonal when `unitriangular`: the rest may hold anything, NaN
 * included. A zero on the diagonal gives Inf/NaN in X, as in LAPACK's trsm.
 *
 * Syntax: `linalg.solveTriangular(A, B, { upper, left, unitriangular })`
 * Example: `solveTriangular([[2, 0], [1, 1]], [[2], [3]], { upper: false })` → `[[1], [2]]`
 * Throws: ArgumentError if `upper` is missing; ShapeError if A is not square or B does not
 * fit; DeviceError if A and B are on different devices.
 * See also: `solve`, `luSolve`.
 */
export function solveTriangular(A: TensorLike, B: TensorLike, opts: SolveTriangularOptions): Tensor {
  const who = 'solveTriangular';
  readOptions(who, opts, { upper: opt.bool, left: opt.bool, unitriangular: opt.bool });
  if (typeof opts !== 'object' || opts === null || typeof opts.upper !== 'boolean') {
    throw new ArgumentError(`${who}: the option upper (boolean) is required: solveTriangular(A, B, { upper: true })`);
  }
  const left = leftOption(opts, who);
  const unit = opts.unitriangular ?? false;
  if (typeof unit !== 'boolean') throw new ArgumentError(`${who}: unitriangular must be a boolean`);
  let { a, b } = coerceOperands(A, B, who);
  requireSquareMatrix(a, who, 'A');
  requireMatrix(b, who, 'B');
  const n = a.rows;
  if ((left ? b.rows : b.cols) !== n) {
    throw new ShapeError(`${who}: A is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(b.shape.slice(-2))}: ` +
      `${left ? 'rows' : 'columns'} of B must be ${n}`);
  }
  let upper = opts.upper;
  // X·A = B  ⇔  Aᵀ·Xᵀ = Bᵀ, and Aᵀ has the other triangle.
  if (!left) {
    a = transposeOf(a, false, who);
    b = transposeOf(b, false, who);
    upper = !upper;
  }
  const plan = planBatch(a, b, who);
  const X = lookup<OpSignatures['solveTriangular']>('solveTriangular', a.dtype, a.device, who)(a, b, plan,
    { upper, unitriangular: unit });
  return left ? X : transposeOf(X, false, who);
}
