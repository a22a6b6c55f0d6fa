/** Shapes that do not fit the operation: "solve: A is 3×4, expected square". */
export class ShapeError extends RangeError {
  override name = 'ShapeError';
}

/** A dtype the operation or device cannot take (float64 on the GPU, say). */
export class DTypeError extends TypeError {
  override name = 'DTypeError';
}

/**
 * No GPU adapter, a tensor on the wrong device, or a disposed tensor (every use of a
 * disposed tensor, in any op or method, is this error: its storage is gone).
 */
export class DeviceError extends Error {
  override name = 'DeviceError';
}

/**
 * Any other bad argument: options that are null or not an object, an unknown option key,
 * a boolean option that is not a boolean (`{ hermitian: 'no' }` is refused, not read as
 * true), NaN or a non-integer where an integer is required, a non-integer into int32
 * storage (pivots 1.5), a value out of its documented range. Never coerced.
 */
export class ArgumentError extends TypeError {
  override name = 'ArgumentError';
}

/**
 * A numerical failure reported by a non-`Ex` function: LAPACK's `info` for one batch
 * element (k > 0: pivot k is exactly zero, or the iteration did not converge; for
 * non-finite input see the function's docs).
 */
export class LinAlgError extends Error {
  override name = 'LinAlgError';
  constructor(
    message: string,
    /** Flat index of the failing matrix in the batch. */
    readonly batchIndex: number,
    /** The LAPACK-style status of that matrix. */
    readonly info: number,
  ) {
    super(message);
  }
}

/** "3×4", "2×3×4": how every message prints a shape. */
export function fmtShape(shape: readonly number[]): string {
  return shape.length === 0 ? 'a scalar' : shape.join('×');
}
