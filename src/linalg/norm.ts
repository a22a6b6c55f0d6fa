import { readOptions, opt } from '../core/options.js';
import { ArgumentError, DTypeError, ShapeError, fmtShape } from '../core/errors.js';
import { asTensor, requireSquare, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { taping, gradCall } from '../core/grad.js';

/** Matrix norm orders; vector norms take any number (Infinity, -Infinity, 0 included). */
export type NormOrd = number | 'fro' | 'nuc';

export interface NormOptions {
  /** One dim: vector norm along it; two dims: matrix norm over them. Default: see `norm`. */
  dim?: number | readonly [number, number];
  /** Keep the reduced dims as size 1. */
  keepdim?: boolean;
}

const MATRIX_ORDS: readonly NormOrd[] = ['fro', 'nuc', 1, -1, 2, -2, Infinity, -Infinity];

function normDim(d: number, nd: number, who: string): number {
  if (!Number.isInteger(d) || d < -nd || d >= nd) throw new ArgumentError(`${who}: dim ${d} is out of range for ${nd} dims`);
  return d < 0 ? d + nd : d;
}

/**
 * Vector and matrix norms with torch.linalg.norm semantics. Without `dim`: `ord`
 * undefined gives the 2-norm of all entries flattened; with `ord`, A must be 1-D (vector
 * norm) or 2-D (matrix norm). `dim` as one number takes vector norms along it, as a pair
 * matrix norms over those two dims. Vector orders: any number, ±Infinity, 0 (count of
 * non-zeros). Matrix orders: 'fro', 'nuc', 1, −1, 2, −2, Infinity, −Infinity. The result
 * has the real dtype; scaled sums keep 1e±300 entries from over/underflowing (1e±38 in
 * float32). Runs on the CPU or the GPU (float32, complex64; ±2 and 'nuc' through the GPU SVD).
 *
 * Syntax: `linalg.norm(A, ord?, { dim, keepdim })`
 * Example: `linalg.norm([[3, 0], [0, 4]], 2)` → `4`; `linalg.norm([3, 4])` → `5`
 * Throws: ArgumentError for an unknown order or an order that does not fit the dims
 * ('fro' on a vector, 3 on a matrix), a bad dim; ShapeError when `ord` is given without
 * `dim` for a tensor of more than 2 dims; DTypeError for int32.
 * Gradients (torch's): every order; at a zero vector/matrix the subgradient 0; ties of
 * max/min (±Infinity, ±1, ±2) share the gradient evenly; order 0 has gradient 0.
 * See also: `cond`, `svdvals`, `matrixRank`.
 */
export function norm(A: TensorLike, ord?: NormOrd, opts: NormOptions = {}): Tensor {
  if (taping()) return gradCall('norm', norm, [A, ord, opts]);
  const who = 'norm';
  opts = readOptions(who, opts, {
    dim: opt.check((v) => typeof v === 'number' || Array.isArray(v), 'a dim or a pair of dims'), keepdim: opt.bool,
  });
  const a = asTensor(A, who, 'A');
  if (a.dtype === 'int32') throw new DTypeError(`${who}: A is int32; norms need a floating dtype`);
  const nd = a.ndim;
  let dims: number[];
  if (opts.dim === undefined) {
    // The 2-norm of all entries: a vector norm over every dim.
    if (ord === undefined) return lookup('vectorNorm', a.dtype, a.device, who)(a, 2, [...a.shape.keys()], opts.keepdim ?? false);
    if (nd === 1) dims = [0];
    else if (nd === 2) dims = [0, 1];
    else throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}; with an order and no dim it must be 1-D or 2-D`);
  } else if (typeof opts.dim === 'number') {
    dims = [normDim(opts.dim, nd, who)];
  } else {
    if (opts.dim.length !== 2) throw new ArgumentError(`${who}: dim must be a number or a pair`);
    dims = [normDim(opts.dim[0], nd, who), normDim(opts.dim[1], nd, who)];
    if (dims[0] === dims[1]) throw new ArgumentError(`${who}: the two dims must differ`);
  }
  const matrix = dims.length === 2;
  const o: NormOrd = ord ?? (matrix ? 'fro' : 2);
  if (matrix && !MATRIX_ORDS.includes(o)) {
    throw new ArgumentError(`${who}: matrix norm order must be 'fro', 'nuc', ±1, ±2 or ±Infinity, got ${String(o)}`);
  }
  if (!matrix && (typeof o !== 'number' || Number.isNaN(o))) {
    throw new ArgumentError(`${who}: vector norm order must be a number, got ${String(o)}`);
  }
  if (matrix) return lookup('matrixNorm', a.dtype, a.device, who)(a, o, [dims[0], dims[1]], opts.keepdim ?? false);
  return lookup('vectorNorm', a.dtype, a.device, who)(a, o as number, dims, opts.keepdim ?? false);
}

/**
 * Condition number (torch.linalg.cond). p undefined, 2 or −2: σ_max/σ_min (σ_min/σ_max)
 * from the singular values, any shape. Other orders ('fro', 'nuc', ±1, ±Infinity):
 * ‖A‖_p·‖A⁻¹‖_p for square A, Infinity when A is singular. On the GPU too (float32, complex64).
 *
 * Syntax: `linalg.cond(A, p?)`
 * Example: `linalg.cond([[1, 0], [0, 1e-3]])` → `1000`
 * Throws: ShapeError for non-square A with an order other than ±2; ArgumentError for
 * an unknown order.
 * Gradient: ±2 through σ_max and σ_min (at a singular A, where cond is Infinity, it is
 * Inf/NaN); other orders through norm and inv (LinAlgError for a singular A).
 * See also: `norm`, `svdvals`, `matrixRank`.
 */
export function cond(A: TensorLike, p?: NormOrd): Tensor {
  if (taping()) return gradCall('cond', cond, [A, p]);
  const who = 'cond';
  const a = asTensor(A, who, 'A');
  if (a.ndim < 2) throw new ShapeError(`${who}: A is ${fmtShape(a.shape)}, expected a matrix or a batch of matrices`);
  if (a.dtype === 'int32') throw new DTypeError(`${who}: A is int32; cond needs a floating dtype`);
  const ord = p ?? 2;
  if (!MATRIX_ORDS.includes(ord)) throw new ArgumentError(`${who}: unknown order ${String(ord)}`);
  // ‖A‖·‖A⁻¹‖ needs the inverse; the spectral orders take any shape.
  if (ord !== 2 && ord !== -2) requireSquare(a, who, 'A');
  return lookup('cond', a.dtype, a.device, who)(a, ord);
}
