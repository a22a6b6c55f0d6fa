import { asTensor, requireSquare, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { has, lookup } from '../backend/registry.js';
import { raiseOnInfo } from '../core/info.js';
import { taping, gradCall, refuseTracked } from '../core/grad.js';

const singular = (code: number) =>
  code > 0 ? `the diagonal element ${code} of U is zero; the matrix is singular and has no inverse` : null;

function prepare(A: TensorLike, who: string): Tensor {
  const a = asTensor(A, who, 'A');
  requireSquare(a, who, 'A');
  return a;
}

/**
 * Inverses of square matrices with their status (torch.linalg.inv_ex). info: 0 ok;
 * k > 0 exact zero pivot k (inverse is NaN); −1 A holds NaN or Inf (inverse is NaN).
 * n ≤ 4 takes a batched closed-form kernel, larger n LU with partial pivoting.
 *
 * Syntax: `linalg.invEx(A)` → `{ inverse, info }`
 * Example: `invEx([[1, 2], [2, 4]]).info` → 2
 * Throws: ShapeError if A is not square; never for numerics.
 * See also: `inv`, `solve`.
 */
export function invEx(A: TensorLike): { inverse: Tensor; info: Tensor<'int32'> } {
  if (taping()) return gradCall('invEx', invEx, [A]);
  const a = prepare(A, 'invEx');
  const r = lookup('inv', a.dtype, a.device, 'invEx')(a);
  return { inverse: r.X, info: r.info };
}

/**
 * Inverse of a square matrix or a batch (torch.linalg.inv). Prefer `solve(A, B)` to
 * `matmul(inv(A), B)`: it is faster and more accurate. NaN/Inf in A gives NaN.
 *
 * Gradient: −A⁻ᴴ·Ḡ·A⁻ᴴ from the output (no second factorization); invEx: NaN where info ≠ 0.
 *
 * Syntax: `linalg.inv(A)`
 * Example: `inv([[4, 7], [2, 6]])` → `[[0.6, -0.7], [-0.2, 0.4]]`
 * Throws: LinAlgError (batch element, pivot) for an exactly singular matrix — on the GPU
 * at the first read of the result; ShapeError if A is not square.
 * See also: `invEx`, `invAsync`, `solve`, `det`.
 */
export function inv(A: TensorLike): Tensor {
  if (taping()) return gradCall('inv', inv, [A]);
  const a = prepare(A, 'inv');
  const r = lookup('inv', a.dtype, a.device, 'inv')(a);
  raiseOnInfo(r.info, 'inv', a.ndim > 2, singular, [r.X]);
  return r.X;
}

/**
 * `inv` off the JS thread (CPU: a libuv worker). A is copied when the call starts: changing,
 * transferring or shrinking its buffer afterwards does not affect the result.
 *
 * Syntax: `await linalg.invAsync(A)`
 * Example: `const Ai = await invAsync(randn([1500, 1500]));`
 * Throws (rejects): as `inv`.
 * See also: `inv`, `solveAsync`.
 */
export async function invAsync(A: TensorLike): Promise<Tensor> {
  const who = 'invAsync';
  refuseTracked(who, [A], 'call inv (synchronous) inside grad/valueAndGrad/vjp');
  const a = prepare(A, who);
  const r = has('invAsync', a.dtype, a.device)
    ? await lookup('invAsync', a.dtype, a.device, who)(a)
    : lookup('inv', a.dtype, a.device, who)(a);
  raiseOnInfo(r.info, who, a.ndim > 2, singular, [r.X]);
  return r.X;
}
