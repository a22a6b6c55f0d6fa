import { readOptions, opt } from '../core/options.js';
import { ShapeError, DTypeError, DeviceError, fmtShape } from '../core/errors.js';
import { asTensor, requireMatrix, requireSquare, type TensorLike } from '../core/create.js';
import { planBatch } from '../core/batch.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { coerceOperands, leftOption, transposeOf } from './solve.js';
import { ArgumentError } from '../core/errors.js';
import { taping, gradCall } from '../core/grad.js';

export interface LuSolveOptions {
  /** true (default): solve op(A)·X = B; false: X·op(A) = B. */
  left?: boolean;
  /** true: op(A) = Aᴴ (the conjugate transpose); false (default): op(A) = A. */
  adjoint?: boolean;
}

/**
 * Solves with an LU factorization from `luFactor` (torch.linalg.lu_solve): A·X = B, or
 * Aᴴ·X = B with `adjoint`, or X·A = B / X·Aᴴ = B with `left: false`. Batch dims of LU and
 * B broadcast. A singular factorization gives Inf/NaN in X (check `info` of `luFactorEx`).
 *
 * Gradient: for LU (the packed factors) and B, every option; none for pivots.
 *
 * Syntax: `linalg.luSolve(LU, pivots, B, { left, adjoint })`
 * Example: `const { LU, pivots } = luFactor(A); luSolve(LU, pivots, B, { adjoint: true })`
 * Throws: ShapeError if LU is not square, pivots do not match it or B does not fit;
 * RangeError for pivots outside 1..n; DTypeError if pivots are not int32.
 * See also: `luFactor`, `solve`.
 */
export function luSolve(LU: TensorLike, pivots: TensorLike, B: TensorLike, opts: LuSolveOptions = {}): Tensor {
  if (taping()) return gradCall('luSolve', luSolve, [LU, pivots, B, opts]);
  const who = 'luSolve';
  opts = readOptions(who, opts, { left: opt.bool, adjoint: opt.bool });
  const left = leftOption(opts, who);
  const adjoint = opts.adjoint ?? false;
  if (typeof adjoint !== 'boolean') throw new ArgumentError(`${who}: adjoint must be a boolean, got ${String(adjoint)}`);
  let { a, b } = coerceOperands(LU, B, who);
  requireSquare(a, who, 'LU');
  requireMatrix(b, who, 'B');
  const p = asTensor(pivots, who, 'pivots', 'int32');
  if (p.dtype !== 'int32') throw new DTypeError(`${who}: pivots must be int32, got ${p.dtype}`);
  if (p.device !== a.device) throw new DeviceError(`${who}: LU is on ${a.device}, pivots are on ${p.device}`);
  const n = a.rows;
  const lb = a.shape.slice(0, -2);
  if (p.ndim !== lb.length + 1 || p.shape[p.ndim - 1] !== n || !lb.every((d, i) => d === p.shape[i])) {
    throw new ShapeError(`${who}: pivots is ${fmtShape(p.shape)}, expected ${fmtShape([...lb, n])} for LU ${fmtShape(a.shape)}`);
  }
  if (p.device === 'cpu') {
    const pv = p.dataSync() as Int32Array;
    for (let i = 0; i < pv.length; i++) {
      if (pv[i] < 1 || pv[i] > n) {
        throw new ArgumentError(`${who}: pivots must be in 1..${n} (LAPACK's 1-based ipiv), found ${pv[i]} at pivots[${i}]`);
      }
    }
  }
  if ((left ? b.rows : b.cols) !== n) {
    throw new ShapeError(`${who}: LU is ${fmtShape(a.shape.slice(-2))} and B is ${fmtShape(b.shape.slice(-2))}: ` +
      `${left ? 'rows' : 'columns'} of B must be ${n}`);
  }
  // X·op(A) = B  ⇔  op(A)ᴴ·Xᴴ = Bᴴ
  if (!left) b = transposeOf(b, true, who);
  const adj = left ? adjoint : !adjoint;
  const plan = planBatch(a, b, who, ['LU', 'B']);
  const X = lookup('luSolve', a.dtype, a.device, who)(a, p as Tensor<'int32'>, b, plan, adj);
  return left ? X : transposeOf(X, true, who);
}
