/** Element types. Complex dtypes are interleaved (re, im) pairs in a real typed array. */
export type DType = 'float32' | 'float64' | 'complex64' | 'complex128' | 'int32';
export type FloatDType = 'float32' | 'float64' | 'complex64' | 'complex128';
export type RealDType = 'float32' | 'float64';
export type ComplexDType = 'complex64' | 'complex128';
export type Device = 'cpu' | 'gpu';

/** The typed array that backs each dtype (complex: two scalars per element). */
export type StorageOf<D extends DType> = D extends 'float32' | 'complex64'
  ? Float32Array
  : D extends 'int32'
    ? Int32Array
    : Float64Array;

export const DTYPES: readonly DType[] = ['float32', 'float64', 'complex64', 'complex128', 'int32'];
/** The floating dtypes every linalg op is registered for on the CPU. */
export const FLOAT_DTYPES: readonly FloatDType[] = ['float32', 'float64', 'complex64', 'complex128'];
/** The real floating dtypes (elementwise special functions, norms' outputs). */
export const REAL_DTYPES: readonly RealDType[] = ['float32', 'float64'];
/** The floating dtypes WGSL can hold (no f64): what GPU linalg entries register. */
export const GPU_FLOAT_DTYPES: readonly FloatDType[] = ['float32', 'complex64'];

export function isComplex(d: DType): d is ComplexDType {
  return d === 'complex64' || d === 'complex128';
}

/** Scalars per element: 2 for complex, 1 otherwise. */
export function scalarsPerElement(d: DType): 1 | 2 {
  return isComplex(d) ? 2 : 1;
}

/** Bytes per scalar of the backing array. */
export function bytesPerScalar(d: DType): 4 | 8 {
  return d === 'float64' || d === 'complex128' ? 8 : 4;
}

/** The real dtype with the same precision (complex64 → float32). */
export function realOf(d: DType): RealDType {
  return d === 'float64' || d === 'complex128' ? 'float64' : 'float32';
}

/** The complex dtype with the same precision (float32 → complex64). */
export function complexOf(d: DType): ComplexDType {
  return d === 'float64' || d === 'complex128' ? 'complex128' : 'complex64';
}

/** Machine epsilon (spacing at 1, as numpy's finfo.eps) of the dtype's scalar. */
export function epsOf(d: DType): number {
  return realOf(d) === 'float64' ? 2.220446049250313e-16 : 1.1920928955078125e-7;
}

export function storageCtor(d: DType): Float32ArrayConstructor | Float64ArrayConstructor | Int32ArrayConstructor {
  if (d === 'int32') return Int32Array;
  return bytesPerScalar(d) === 8 ? Float64Array : Float32Array;
}

/** The dtype codes of the native addon (DTypeCode in native/binding/common.hpp). */
export type DTypeCode = 0 | 1 | 2 | 3 | 4;

/** Small integer code shared with the native addon (native/binding/common.hpp). */
export function dtypeCode(d: DType): DTypeCode {
  switch (d) {
    case 'float32': return 0;
    case 'float64': return 1;
    case 'complex64': return 2;
    case 'complex128': return 3;
    case 'int32': return 4;
  }
}

/** The common dtype of two operands (torch's promotion among the float/complex types). */
export function promote(a: DType, b: DType): DType {
  if (a === b) return a;
  const wide = realOf(a) === 'float64' || realOf(b) === 'float64';
  const cplx = isComplex(a) || isComplex(b);
  if (cplx) return wide ? 'complex128' : 'complex64';
  return wide ? 'float64' : 'float32';
}
