import { DTypeError } from './errors.js';

/**
 * Element types. Complex dtypes are interleaved (re, im) pairs in a real typed array.
 * float16 is a storage dtype (IEEE binary16 bits in a Uint16Array; src/core/half.ts):
 * creation, printing, moves between devices and `cast`, no arithmetic or linalg.
 */
export type DType = 'float16' | 'float32' | 'float64' | 'complex64' | 'complex128' | 'int32' | 'uint32' | 'bool';
/** The integer and boolean dtypes (no linalg; elementwise, reductions, indexing). */
export type IntegralDType = 'int32' | 'uint32' | 'bool';
export type FloatDType = 'float32' | 'float64' | 'complex64' | 'complex128';
export type RealDType = 'float32' | 'float64';
export type ComplexDType = 'complex64' | 'complex128';
export type Device = 'cpu' | 'gpu';

/** The typed array that backs each dtype (complex: two scalars per element). */
export type StorageOf<D extends DType> = D extends 'float32' | 'complex64'
  ? Float32Array
  : D extends 'float16'
    ? Uint16Array
  : D extends 'int32'
    ? Int32Array
    : D extends 'uint32'
      ? Uint32Array
      : D extends 'bool'
        ? Uint8Array
        : Float64Array;

/** Every backing array type (the union of StorageOf over DType). */
export type AnyStorage = Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array | Uint16Array;

/** Every dtype (what dtype options accept). */
export const DTYPES: readonly DType[] = ['float16', 'float32', 'float64', 'complex64', 'complex128', 'int32', 'uint32', 'bool'];
/** The dtypes the native addon holds (all but float16): what the CPU's generic ops register. */
/** The dtypes the native addon holds (every dtype but the storage-only float16). */
export type NativeDType = Exclude<DType, 'float16'>;
export const NATIVE_DTYPES: readonly NativeDType[] = ['float32', 'float64', 'complex64', 'complex128', 'int32', 'uint32', 'bool'];
/** The integer and boolean dtypes. */
export const INTEGRAL_DTYPES: readonly IntegralDType[] = ['int32', 'uint32', 'bool'];
/** The floating dtypes every linalg op is registered for on the CPU (not float16: a storage dtype). */
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

/**
 * Bytes per scalar of the CPU backing array (bool: one byte; the GPU stores bool as u32;
 * float16: two, packed two per u32 word on the GPU).
 */
export function bytesPerScalar(d: DType): 1 | 2 | 4 | 8 {
  if (d === 'bool') return 1;
  if (d === 'float16') return 2;
  return d === 'float64' || d === 'complex128' ? 8 : 4;
}

/**
 * True for float32/float64/complex64/complex128: the dtypes that compute. float16 is
 * floating too but storage only: see `isHalf`.
 */
export function isFloating(d: DType): d is FloatDType {
  return d === 'float32' || d === 'float64' || d === 'complex64' || d === 'complex128';
}

/** True for float16 (storage only: cast it to float32 to compute). */
export function isHalf(d: DType): d is 'float16' {
  return d === 'float16';
}

/** The real dtype with the same precision (complex64 → float32); float16 computes in float32. */
export function realOf(d: DType): RealDType {
  return d === 'float64' || d === 'complex128' ? 'float64' : 'float32';
}

/** The complex dtype with the same precision (float32 → complex64). */
export function complexOf(d: DType): ComplexDType {
  return d === 'float64' || d === 'complex128' ? 'complex128' : 'complex64';
}

/** Machine epsilon (spacing at 1, as numpy's finfo.eps) of the dtype's scalar (float16: 2^-10). */
export function epsOf(d: DType): number {
  if (d === 'float16') return 0.0009765625;
  return realOf(d) === 'float64' ? 2.220446049250313e-16 : 1.1920928955078125e-7;
}

export type StorageCtor =
  | Float32ArrayConstructor | Float64ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor | Uint8ArrayConstructor
  | Uint16ArrayConstructor;

export function storageCtor(d: DType): StorageCtor {
  if (d === 'float16') return Uint16Array;
  if (d === 'int32') return Int32Array;
  if (d === 'uint32') return Uint32Array;
  if (d === 'bool') return Uint8Array;
  return bytesPerScalar(d) === 8 ? Float64Array : Float32Array;
}

/** The dtype codes of the native addon (DTypeCode in native/binding/common.hpp). */
export type DTypeCode = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Small integer code shared with the native addon (native/binding/common.hpp). float16 has
 * none (the addon holds no halves; NATIVE_DTYPES): a DTypeError, never a wrong code.
 */
export function dtypeCode(d: DType): DTypeCode {
  switch (d) {
    case 'float16': throw new DTypeError('native: float16 is a storage dtype the native kernels do not take; cast it to float32 first');
    case 'float32': return 0;
    case 'float64': return 1;
    case 'complex64': return 2;
    case 'complex128': return 3;
    case 'int32': return 4;
    case 'uint32': return 5;
    case 'bool': return 6;
  }
}

/** The category of a dtype for promotion: bool < integer < floating < complex (torch's order). */
export function categoryOf(d: DType): 0 | 1 | 2 | 3 {
  if (d === 'bool') return 0;
  if (d === 'int32' || d === 'uint32') return 1;
  return isComplex(d) ? 3 : 2;
}

/**
 * The dtype two tensor operands compute in (torch's rules without int64): the higher
 * category wins, the wider float precision wins (int32 + float32 → float32, float32 +
 * complex128 → complex128, bool + x → x). int32 with uint32 has no common type without
 * int64: null (callers raise a DTypeError naming both).
 */
export function resultType(a: DType, b: DType): DType | null {
  if (a === b) return a;
  const ca = categoryOf(a), cb = categoryOf(b);
  if (ca === 0) return b;
  if (cb === 0) return a;
  if (ca === 1 && cb === 1) return null;
  if (ca === 1) return b;
  if (cb === 1) return a;
  return promote(a, b);
}

/**
 * The dtype of a tensor operand `t` combined with a JS scalar (torch's rule: a scalar only
 * raises the category): integral tensor + non-integer number → float32; bool tensor +
 * integer → int32; real tensor + complex scalar → the complex dtype of its precision
 * (integral → complex64). `scalar`: 'int' for an integer-valued number, 'float' for any
 * other number (NaN, ±Inf included), 'complex' for a Complex, 'bool' for a boolean.
 */
export function resultTypeWithScalar(t: DType, scalar: 'bool' | 'int' | 'float' | 'complex'): DType {
  const c = categoryOf(t);
  if (scalar === 'bool') return t;
  if (scalar === 'int') return c === 0 ? 'int32' : t;
  if (scalar === 'float') return c <= 1 ? 'float32' : t;
  if (c === 3) return t;
  return c === 2 ? complexOf(t) : 'complex64';
}

/** The common dtype of two floating operands (torch's promotion among the float/complex types). */
export function promote(a: DType, b: DType): DType {
  if (a === b) return a;
  const wide = realOf(a) === 'float64' || realOf(b) === 'float64';
  const cplx = isComplex(a) || isComplex(b);
  if (cplx) return wide ? 'complex128' : 'complex64';
  return wide ? 'float64' : 'float32';
}
