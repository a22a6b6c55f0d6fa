// Operand coercion shared by every public function of the tensor API (src/ops): JS values
// to tensors, torch's type promotion across tensor and scalar operands, device agreement,
// and dtype conversion through the registry's `cast` (so it works on either device).
import { type DType, type Device, categoryOf, isComplex, resultType, resultTypeWithScalar } from '../core/dtype.js';
import { ArgumentError, DTypeError, DeviceError } from '../core/errors.js';
import { asTensor, type TensorLike } from '../core/create.js';
import { Tensor } from '../core/tensor.js';
import { toHalfBits } from '../core/half.js';
import { isComplexLike, type ComplexLike } from '../complex/complex.js';
import { lookup } from '../backend/registry.js';

/** What the tensor API takes as an operand: anything `tensor()` accepts, or a JS scalar. */
export type Operand = TensorLike | boolean | ComplexLike;

/** The kind of a JS scalar for promotion (`resultTypeWithScalar`). */
export type ScalarKind = 'bool' | 'int' | 'float' | 'complex';

/** A number, boolean or {re, im} (not a tensor, array or `{ data, shape }`). */
export type JsScalar = number | boolean | ComplexLike;

/** The kind of a JS scalar (an integer-valued number, −0 included, is 'int'), or null for anything else. */
export function scalarKind(v: unknown): ScalarKind | null {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (!(v instanceof Tensor) && isComplexLike(v) && !('shape' in (v as object))) return 'complex';
  return null;
}

/** A scalar's dtype when no tensor operand decides it (as `tensor()`: number → float64, boolean → bool, complex → complex128). */
function lonelyScalarDtype(k: ScalarKind): DType {
  return k === 'bool' ? 'bool' : k === 'complex' ? 'complex128' : 'float64';
}

/**
 * A 0-d tensor of dtype `d` holding the JS scalar `v`, on `device`. An integer scalar that
 * int32/uint32 cannot hold is an ArgumentError (numpy 2 refuses it too; no silent wrap).
 */
export function scalarTensor(v: JsScalar, d: DType, device: Device, who: string, name: string): Tensor {
  const t = Tensor.empty(d, [], who);
  const s = t.dataSync();
  if (typeof v === 'boolean') {
    s[0] = v ? 1 : 0;
  } else if (typeof v === 'number') {
    if (d === 'int32' && !(v >= -2147483648 && v <= 2147483647)) {
      throw new ArgumentError(`${who}: ${name} is ${v}, outside int32's range [-2^31, 2^31 - 1]`);
    }
    if (d === 'uint32' && !(v >= 0 && v <= 4294967295)) {
      throw new ArgumentError(`${who}: ${name} is ${v}, outside uint32's range [0, 2^32 - 1]`);
    }
    if (d === 'bool') s[0] = v !== 0 ? 1 : 0;
    else s[0] = d === 'float16' ? toHalfBits(v) : v; // float16 storage is bits
  } else if (d === 'bool') {
    s[0] = v.re !== 0 || v.im !== 0 ? 1 : 0;
  } else {
    if (!isComplex(d)) throw new DTypeError(`${who}: ${name} is complex but the operation computes in ${d}`);
    s[0] = v.re;
    s[1] = v.im;
  }
  return device === 'cpu' ? t : t.to(device);
}

/**
 * One operand as a tensor: tensors pass through (a disposed one is a DeviceError), arrays
 * and `{ data, shape }` go through `tensor()`, and a JS scalar becomes a 0-d CPU tensor of
 * its own dtype (number → float64, boolean → bool, complex → complex128).
 */
export function toOperand(v: Operand, who: string, name: string): Tensor {
  const k = scalarKind(v);
  if (k !== null) return scalarTensor(v as JsScalar, lonelyScalarDtype(k), 'cpu', who, name);
  if (v === null || v === undefined) throw new ArgumentError(`${who}: ${name} is ${String(v)}, expected a tensor or a scalar`);
  return asTensor(v as TensorLike, who, name);
}

/** The device every tensor operand is on; tensors on different devices are a DeviceError naming both. */
export function commonDevice(tensors: readonly (Tensor | null)[], names: readonly string[], who: string): Device {
  let dev: Device = 'cpu', first = -1;
  tensors.forEach((t, i) => {
    if (t === null) return;
    if (first < 0) { dev = t.device; first = i; return; }
    if (t.device !== dev) {
      throw new DeviceError(`${who}: ${names[first]} is on ${dev} but ${names[i]} is on ${t.device}; move one with .to()`);
    }
  });
  return dev;
}

/**
 * The dtype operands compute in (torch's promotion): the tensor operands' common type by
 * `resultType` (int32 with uint32 is a DTypeError naming both), raised by each JS scalar's
 * category (`resultTypeWithScalar`); operands that are all scalars promote their
 * `tensor()` dtypes.
 */
export function promotedDtype(
  who: string, tensors: readonly (Tensor | null)[], kinds: readonly (ScalarKind | null)[], names: readonly string[],
): DType {
  let d: DType | null = null, from = -1;
  tensors.forEach((t, i) => {
    if (t === null) return;
    if (d === null) { d = t.dtype; from = i; return; }
    const r: DType | null = resultType(d, t.dtype);
    if (r === null) {
      throw new DTypeError(
        `${who}: ${names[from]} is ${d} and ${names[i]} is ${t.dtype}; they have no common dtype without int64 (cast one of them)`,
      );
    }
    d = r;
  });
  if (d === null) {
    // Only scalars: promote their default dtypes like tensors.
    let s: DType | null = null;
    for (const k of kinds) if (k !== null) s = s === null ? lonelyScalarDtype(k) : resultType(s, lonelyScalarDtype(k));
    return s ?? 'float64';
  }
  let out: DType = d;
  for (const k of kinds) if (k !== null) out = resultTypeWithScalar(out, k);
  return out;
}

/**
 * `t` converted to `to` through the registry's `cast` (either device). Same dtype returns
 * `t`; complex → real is a DTypeError (it would drop the imaginary part); complex → bool is z ≠ 0.
 */
export function castTo(t: Tensor, to: DType, who: string, name = 'x'): Tensor {
  if (t.dtype === to) return t;
  if (isComplex(t.dtype) && !isComplex(to) && to !== 'bool') {
    throw new DTypeError(`${who}: ${name} is ${t.dtype}; casting it to ${to} would drop the imaginary part (take real() or abs() first)`);
  }
  return lookup('cast', t.dtype, t.device, who)(t, to);
}

export interface Promoted {
  /** The operands as tensors of `dtype` on `device`, in the order given (scalars are 0-d). */
  tensors: Tensor[];
  dtype: DType;
  device: Device;
}

/**
 * Operands of an elementwise op made tensors of one dtype on one device: tensors and
 * array-likes keep their device (different devices → DeviceError), JS scalars become 0-d
 * tensors on that device, everything cast to the promoted dtype (`promotedDtype`).
 * `minCategory` raises the result for ops that need it (1: bool arithmetic computes in
 * int32; 2: float functions of integers compute in float32). `deviceHint`: where the
 * operands go when all of them are JS scalars.
 */
export function promoteOperands(
  who: string, values: readonly Operand[], names: readonly string[], minCategory = 0, deviceHint: Device = 'cpu',
): Promoted {
  const kinds = values.map((v) => scalarKind(v));
  const tensors = values.map((v, i) => (kinds[i] === null ? toOperand(v, who, names[i]) : null));
  const device = tensors.some((t) => t !== null) ? commonDevice(tensors, names, who) : deviceHint;
  let dtype = promotedDtype(who, tensors, kinds, names);
  if (categoryOf(dtype) < minCategory) dtype = minCategory === 1 ? 'int32' : 'float32';
  const out = values.map((v, i) => {
    const t = tensors[i];
    if (t === null) return scalarTensor(v as JsScalar, dtype, device, who, names[i]);
    return castTo(t, dtype, who, names[i]);
  });
  return { tensors: out, dtype, device };
}
