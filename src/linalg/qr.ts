import { readOptions, opt } from '../core/options.js';
import { ArgumentError, DTypeError } from '../core/errors.js';
import { asTensor, requireMatrix, type TensorLike } from '../core/create.js';
import { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { taping, gradCall } from '../core/grad.js';

export type QrMode = 'reduced' | 'complete' | 'r';

export interface QrOptions {
  /** 'reduced' (default): Q m×k, R k×n; 'complete': Q m×m, R m×n; 'r': R only (k = min(m, n)). */
  mode?: QrMode;
}

export interface QrResult {
  /** Orthonormal (unitary) columns; for mode 'r' an empty tensor of shape [0], as torch. */
  Q: Tensor;
  /** Upper triangular (trapezoidal); its diagonal is real, of either sign (LAPACK's convention). */
  R: Tensor;
}

const MODES: readonly QrMode[] = ['reduced', 'complete', 'r'];

/**
 * QR decomposition A = Q·R by blocked Householder reflections (compact WY, GEMM-rich),
 * of a matrix or a batch; tall, square and wide; real or complex (Q unitary).
 *
 * Syntax: `linalg.qr(A, { mode })` → `{ Q, R }`
 * Example: `const { Q, R } = linalg.qr([[3, 1], [4, 2]]);` — `matmul(Q, R)` ≈ A, Qᵀ·Q = I.
 * Throws: ShapeError if A is not (a batch of) matrices; ArgumentError for an unknown mode;
 * DTypeError for int32 input or an unsupported dtype/device.
 * Gradients (docs/autodiff.md): every mode for m ≥ n except 'complete' with m > n (Q's last
 * m − n columns are any basis of the complement: ArgumentError when a gradient reaches Q);
 * m < n in every mode. Mode 'r' recomputes Q in the backward. A must have full rank.
 * See also: `svd`, `lstsq`, `solveTriangular`.
 */
export function qr(A: TensorLike, opts: QrOptions = {}): QrResult {
  if (taping()) return gradCall('qr', qr, [A, opts]);
  const who = 'qr';
  opts = readOptions(who, opts, { mode: opt.oneOf('reduced', 'complete', 'r') });
  const mode = opts.mode ?? 'reduced';
  if (!MODES.includes(mode)) {
    throw new ArgumentError(`${who}: mode must be 'reduced', 'complete' or 'r', got ${String(mode)}`);
  }
  const a = asTensor(A, who, 'A');
  requireMatrix(a, who, 'A');
  if (a.dtype === 'int32') throw new DTypeError(`${who}: A is int32; QR needs a floating dtype`);
  const r = lookup('qr', a.dtype, a.device, who)(a, mode);
  return { Q: r.Q ?? Tensor.empty(a.dtype, [0]), R: r.R };
}
