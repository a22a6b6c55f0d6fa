import { asTensor, requireMatrix, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { has, lookup } from '../backend/registry.js';
import { INFO, raiseOnInfo } from '../core/info.js';
import { taping, gradCall, refuseTracked } from '../core/grad.js';

export interface LuFactorResult {
  /** L (strictly below the diagonal, unit diagonal implied) and U (on and above it), packed. */
  LU: Tensor;
  /** 1-based row interchanges (LAPACK/torch): row i was swapped with row pivots[i] − 1. */
  pivots: Tensor<'int32'>;
  /**
   * Per matrix: 0; k > 0 when U[k−1, k−1] is exactly zero; −2 (`INFO.FACTOR_OVERFLOW`,
   * CPU) when A is finite but its factors overflow (see docs/solvers.md). int32 of the
   * batch shape.
   */
  info: Tensor<'int32'>;
}

function prepare(A: TensorLike, who: string): Tensor {
  const a = asTensor(A, who, 'A');
  requireMatrix(a, who, 'A');
  return a;
}

const zeroPivot = (code: number) =>
  code > 0 ? `U[${code - 1}, ${code - 1}] is exactly zero; using it in luSolve would divide by zero`
    : code === INFO.FACTOR_OVERFLOW ? 'the LU factors of this finite matrix overflow (info −2); solve, inv and det ' +
      'equilibrate such matrices and handle them'
      : null;

/**
 * LU factorization with partial pivoting, P·A = L·U, of a matrix or a batch, any shape
 * m×n; numerical failures are returned in `info`, never thrown.
 *
 * Gradient: of the packed LU (its strict lower part is L's, the rest U's), square or
 * rectangular; NaN for the matrices with info ≠ 0 (U⁻¹ does not exist).
 *
 * Syntax: `linalg.luFactorEx(A)` → `{ LU, pivots, info }`
 * Example: `luFactorEx([[0, 1], [2, 3]]).pivots` → `[2, 2]`
 * Throws: ShapeError if A is not (a batch of) matrices; DTypeError for an unsupported dtype.
 * See also: `luFactor`, `lu`, `luSolve`.
 */
export function luFactorEx(A: TensorLike): LuFactorResult {
  if (taping()) return gradCall('luFactorEx', luFactorEx, [A]);
  const a = prepare(A, 'luFactorEx');
  return lookup('luFactor', a.dtype, a.device, 'luFactorEx')(a);
}

/**
 * LU factorization with partial pivoting (LAPACK getrf; torch.linalg.lu_factor). The
 * factorization runs to the end even when a pivot is exactly zero; this variant then
 * throws, `luFactorEx` returns the status instead.
 *
 * A finite A near the ends of the range is factored as 2^s·A (same pivots and L, U scaled
 * back); if U itself overflows, the status is −2 (`INFO.FACTOR_OVERFLOW`).
 *
 * Gradient: of the packed LU (strict lower part to L, the rest to U), square or rectangular.
 *
 * Syntax: `linalg.luFactor(A)` → `{ LU, pivots, info }`
 * Example: `const { LU, pivots } = luFactor(A); const X = luSolve(LU, pivots, B);`
 * Throws: LinAlgError naming the batch element and the zero pivot of U, or the overflow
 * of the factors (info −2); ShapeError if A is not a matrix (batch).
 * See also: `luFactorEx`, `luSolve`, `lu`, `luFactorAsync`.
 */
export function luFactor(A: TensorLike): LuFactorResult {
  if (taping()) return gradCall('luFactor', luFactor, [A]);
  const a = prepare(A, 'luFactor');
  const r = lookup('luFactor', a.dtype, a.device, 'luFactor')(a);
  raiseOnInfo(r.info, 'luFactor', a.ndim > 2, zeroPivot, [r.LU, r.pivots]);
  return r;
}

/**
 * `luFactor` off the JS thread (CPU: a libuv worker). A is copied when the call starts:
 * changing, transferring or shrinking its buffer afterwards does not affect the result.
 * Devices without an asynchronous entry run the synchronous op.
 *
 * Syntax: `await linalg.luFactorAsync(A)` → `{ LU, pivots, info }`
 * Example: `const { LU, pivots } = await luFactorAsync(randn([2000, 2000]));`
 * Throws (rejects): as `luFactor`.
 * See also: `luFactor`, `solveAsync`, `invAsync`.
 */
export async function luFactorAsync(A: TensorLike): Promise<LuFactorResult> {
  const who = 'luFactorAsync';
  refuseTracked(who, [A], 'call luFactor (synchronous) inside grad/valueAndGrad/vjp');
  const a = prepare(A, who);
  const r = has('luFactorAsync', a.dtype, a.device)
    ? await lookup('luFactorAsync', a.dtype, a.device, who)(a)
    : lookup('luFactor', a.dtype, a.device, who)(a);
  raiseOnInfo(r.info, who, a.ndim > 2, zeroPivot, [r.LU, r.pivots]);
  return r;
}

/**
 * The explicit factors of A = P·L·U (torch.linalg.lu), for square or rectangular A:
 * P (…, m, m) a permutation, L (…, m, k) unit lower trapezoidal, U (…, k, n) upper
 * trapezoidal, k = min(m, n). Singular A is fine (U then has a zero on its diagonal).
 *
 * Gradient: through L and U (P is piecewise constant); NaN where U has a zero on its diagonal.
 *
 * Syntax: `linalg.lu(A)` → `{ P, L, U }`
 * Example: `const { P, L, U } = lu([[1, 2], [3, 4], [5, 6]]);` (L is 3×2, U is 2×2)
 * Throws: ShapeError if A is not a matrix (batch).
 * See also: `luFactor`, `luSolve`.
 */
export function lu(A: TensorLike): { P: Tensor; L: Tensor; U: Tensor } {
  if (taping()) return gradCall('lu', lu, [A]);
  const a = prepare(A, 'lu');
  const r = lookup('luFactor', a.dtype, a.device, 'lu')(a);
  return lookup('luUnpack', a.dtype, a.device, 'lu')(r.LU, r.pivots);
}
