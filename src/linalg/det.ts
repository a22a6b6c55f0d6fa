import { asTensor, requireSquare, tensor, type TensorLike } from '../core/create.js';
import type { Tensor } from '../core/tensor.js';
import { isComplex, realOf } from '../core/dtype.js';
import { lookup } from '../backend/registry.js';
import { INFO } from '../core/info.js';
import { taping, gradCall, claimSaveSlot } from '../core/grad.js';

/** @internal What a recorded det/slogdet keeps for its backward (CPU): the LU factors of A. */
export interface DetSaved { LU: Tensor; pivots: Tensor<'int32'> }

/**
 * det and slogdet from getrf's factors, computed here so a recorded call keeps the factors for
 * its backward (CPU only). null when the native kernel must run instead: a 0×0 or non-finite A
 * (its NaN conventions), or factors that overflow (it rescales).
 */
function fromLu(a: Tensor, who: string): { det: Tensor; sign: Tensor; logabsdet: Tensor; saved: DetSaved } | null {
  const n = a.rows;
  if (a.device !== 'cpu' || n === 0) return null;
  const src = a.dataSync() as Float32Array | Float64Array;
  for (let i = 0; i < src.length; i++) if (!Number.isFinite(src[i])) return null;
  const f = lookup('luFactor', a.dtype, 'cpu', who)(a);
  const info = f.info.dataSync() as Int32Array;
  if (info.some((v) => v === INFO.FACTOR_OVERFLOW)) return null;
  const lu = f.LU.dataSync() as Float32Array | Float64Array;
  const pv = f.pivots.dataSync() as Int32Array;
  const cx = isComplex(a.dtype), w = cx ? 2 : 1, count = info.length;
  const sgn = new Float64Array(count * w), logabs = new Float64Array(count), d = new Float64Array(count * w);
  for (let b = 0; b < count; b++) {
    let sr = 1, si = 0, la = 0;
    for (let i = 0; i < n; i++) if (pv[b * n + i] !== i + 1) sr = -sr;
    for (let i = 0; i < n; i++) {
      const q = (b * n * n + i * n + i) * w;
      if (cx) {
        const ur = lu[q], ui = lu[q + 1], m = Math.hypot(ur, ui);
        if (m === 0) { sr = 0; si = 0; la = -Infinity; break; }
        const [cr, ci] = [ur / m, ui / m];
        [sr, si] = [sr * cr - si * ci, sr * ci + si * cr];
        la += Math.log(m);
      } else {
        const u = lu[q];
        if (u === 0) { sr = 0; la = -Infinity; break; }
        if (u < 0) sr = -sr;
        la += Math.log(Math.abs(u));
      }
    }
    if (cx) {
      const m = Math.hypot(sr, si); // renormalised: n products of unit numbers drift by n·eps
      if (m > 0) { sr /= m; si /= m; }
      sgn[2 * b] = sr; sgn[2 * b + 1] = si;
      const e = Math.exp(la);
      d[2 * b] = sr * e; d[2 * b + 1] = si * e;
    } else {
      sgn[b] = sr;
      d[b] = sr === 0 ? 0 : sr * Math.exp(la);
    }
    logabs[b] = la;
  }
  const shape = [...a.batchShape];
  const mk = (data: Float64Array, dtype: typeof a.dtype) => tensor({ data: dtype === 'float32' || dtype === 'complex64' ? Float32Array.from(data) : data, shape, dtype });
  return {
    det: mk(d, a.dtype), sign: mk(sgn, a.dtype), logabsdet: mk(logabs, realOf(a.dtype)),
    saved: { LU: f.LU, pivots: f.pivots },
  };
}

/**
 * Determinant of a square matrix or a batch, from partial-pivoted LU. The product of the
 * pivots is scaled as it goes, so it overflows/underflows only if the determinant does.
 * NaN or Inf anywhere in A gives NaN (numpy gives 0 for some such inputs); a singular
 * matrix gives 0; the 0×0 matrix gives 1.
 *
 * Gradient: conj(det(A))·A⁻ᴴ = adj(A)ᴴ; at (numerically) singular A the CPU uses torch's SVD
 * formula, which stays the adjugate (rank n − 1 included); the GPU gives NaN there.
 *
 * Syntax: `linalg.det(A)` → tensor of the batch shape
 * Example: `det([[1, 2], [3, 4]])` → −2
 * Throws: ShapeError if A is not square; DTypeError/DeviceError where no kernel exists.
 * See also: `slogdet`, `luFactor`.
 */
export function det(A: TensorLike): Tensor {
  if (taping()) return gradCall('det', det, [A]);
  const a = asTensor(A, 'det', 'A');
  requireSquare(a, 'det', 'A');
  const slot = claimSaveSlot('det');
  const r = slot !== null ? fromLu(a, 'det') : null;
  if (r) {
    slot!.saved = r.saved;
    return r.det;
  }
  return lookup('det', a.dtype, a.device, 'det')(a);
}

/**
 * Sign and log of the absolute value of the determinant (torch.linalg.slogdet):
 * det = sign · exp(logabsdet), usable when det itself would overflow. sign is ±1 (real)
 * or a unit complex number (complex); a singular matrix gives sign 0 and logabsdet −Inf;
 * NaN/Inf input gives NaN for both; the 0×0 matrix gives (1, 0).
 *
 * Gradient: logabsdet's A⁻ᴴ and, for complex A, the sign's (torch's rule); NaN at singular A.
 *
 * Syntax: `linalg.slogdet(A)` → `{ sign, logabsdet }`
 * Example: `slogdet([[1e200, 0], [0, 1e200]]).logabsdet` → 921.03…
 * Throws: ShapeError if A is not square.
 * See also: `det`.
 */
export function slogdet(A: TensorLike): { sign: Tensor; logabsdet: Tensor } {
  if (taping()) return gradCall('slogdet', slogdet, [A]);
  const a = asTensor(A, 'slogdet', 'A');
  requireSquare(a, 'slogdet', 'A');
  const slot = claimSaveSlot('slogdet');
  const r = slot !== null ? fromLu(a, 'slogdet') : null;
  if (r) {
    slot!.saved = r.saved;
    return { sign: r.sign, logabsdet: r.logabsdet };
  }
  return lookup('slogdet', a.dtype, a.device, 'slogdet')(a);
}
