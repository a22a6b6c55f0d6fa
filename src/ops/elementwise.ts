// Public elementwise functions of the tensor API (issue 13): validate, promote (torch's
// rules, src/ops/operands.ts), broadcast (numpy's rules), then call the registry's cast /
// unary / binary / where. Semantics (NaN, −0, integer wrap-around): docs/tensor-api.md.
import { type DType, isComplex } from '../core/dtype.js';
import { ArgumentError, DeviceError, DTypeError, ShapeError, fmtShape } from '../core/errors.js';
import { taping, gradCall, refuseTracked } from '../core/grad.js';
import { elementwiseLayout, elementwiseLayoutN } from '../core/broadcast.js';
import { checkArg, opt, readOptions } from '../core/options.js';
import { Tensor } from '../core/tensor.js';
import { lookup } from '../backend/registry.js';
import { binaryOutDtype, unaryOutDtype, type BinaryOp, type UnaryOp } from '../backend/ops.js';
import {
  castTo, commonDevice, promoteOperands, scalarKind, scalarTensor, toOperand, type JsScalar, type Operand,
} from './operands.js';

export type { Operand } from './operands.js';

// The least dtype category each op computes in (0 bool, 1 integer, 2 float): arithmetic on
// bool computes in int32, true division and float functions of integers in float32.
const BINARY_MIN_CATEGORY: Readonly<Record<BinaryOp, number>> = {
  add: 1, sub: 1, mul: 1, div: 2, pow: 1, minimum: 0, maximum: 0, eq: 0, ne: 0, lt: 0, le: 0, gt: 0, ge: 0,
  logicalAnd: 0, logicalOr: 0,
};
const UNARY_MIN_CATEGORY: Readonly<Record<UnaryOp, number>> = {
  neg: 1, abs: 1, sign: 1, sqrt: 2, exp: 2, log: 2, log1p: 2, expm1: 2, sin: 2, cos: 2, tanh: 2, sigmoid: 2,
  conj: 0, real: 0, imag: 0, angle: 2, logicalNot: 0,
};
/** Ops complex numbers have no meaning for (no total order). */
const NOT_COMPLEX = new Set<BinaryOp>(['minimum', 'maximum', 'lt', 'le', 'gt', 'ge']);

function binaryOp(op: BinaryOp, a: Operand, b: Operand, names: readonly [string, string] = ['a', 'b'], out?: Tensor): Tensor {
  const who = op;
  let ta: Tensor, tb: Tensor, dtype: DType;
  if (op === 'logicalAnd' || op === 'logicalOr') {
    // Truth values only: each operand becomes bool on its own (int32 with uint32 is fine here).
    const ts = [a, b].map((v, i) => (scalarKind(v) === null ? toOperand(v, who, names[i]) : null));
    const device = ts.some((t) => t !== null) ? commonDevice(ts, names, who) : 'cpu';
    [ta, tb] = [a, b].map((v, i) => {
      const t = ts[i];
      return t === null ? scalarTensor(v as JsScalar, 'bool', device, who, names[i]) : castTo(t, 'bool', who, names[i]);
    });
    dtype = 'bool';
  } else {
    ({ tensors: [ta, tb], dtype } = promoteOperands(who, [a, b], names, BINARY_MIN_CATEGORY[op]));
    if (isComplex(dtype) && NOT_COMPLEX.has(op)) {
      throw new DTypeError(`${who}: complex operands (${names[0]} and ${names[1]} promote to ${dtype}) have no ordering`);
    }
  }
  const L = elementwiseLayout(ta.shape, tb.shape, who, names);
  if (out) checkOut(out, ta.device, binaryOutDtype(op, dtype), L.shape, who);
  return lookup('binary', dtype, ta.device, who)(ta, tb, op, L, out);
}

function unaryOp(op: UnaryOp, x: Operand, out?: Tensor): Tensor {
  const who = op;
  const { tensors: [t] } = promoteOperands(who, [x], ['x'], UNARY_MIN_CATEGORY[op]);
  if (out) checkOut(out, t.device, unaryOutDtype(op, t.dtype), t.shape, who);
  return lookup('unary', t.dtype, t.device, who)(t, op, out);
}

/** Options of the elementwise functions. */
export interface ElementwiseOptions {
  /**
   * Where to write the result (numpy's and torch's `out=`): a tensor on the operands' device
   * with the result's dtype and shape (neither is converted). It is returned, so a loop can
   * reuse one output instead of allocating a new one each call; it may be an operand
   * (`add(a, b, { out: a })` updates a in place).
   */
  out?: Tensor;
}

const ELEMENTWISE_OPTIONS = { out: opt.check((v) => v instanceof Tensor, 'a Tensor') };

function outOf(who: string, opts: ElementwiseOptions | undefined): Tensor | undefined {
  return opts === undefined ? undefined : readOptions(who, opts, ELEMENTWISE_OPTIONS).out;
}

/**
 * A differentiable function called while a gradient tape is open: recorded as before
 * without `out`; with it, refused when an operand or out is differentiated (the write has
 * no gradient rule), else computed untracked into out.
 */
function taped(name: string, fn: Parameters<typeof gradCall<Tensor>>[1], args: readonly Operand[], opts: ElementwiseOptions | undefined): Tensor {
  const out = outOf(name, opts);
  if (out === undefined) return gradCall(name, fn, args);
  refuseTracked(name, [...args, out], `the out option writes in place; call ${name} without out (torch refuses out= for tensors that require grad)`);
  return args.length === 1 ? unaryOp(name as UnaryOp, args[0], out) : binaryOp(name as BinaryOp, args[0], args[1], name === 'pow' ? ['base', 'exponent'] : ['a', 'b'], out);
}

/** The checks on `out`, before any work: alive, the operands' device, the result's dtype and shape. */
function checkOut(out: Tensor, device: string, dtype: DType, shape: readonly number[], who: string): void {
  if (out.isDisposed) throw new DeviceError(`${who}: out was disposed`);
  if (out.device !== device) throw new DeviceError(`${who}: out is on ${out.device}, the operands are on ${device}`);
  out.alive(`${who}: out`);
  if (out.dtype !== dtype) {
    throw new DTypeError(`${who}: out is ${out.dtype}, the result is ${dtype} (out must have the result's dtype; it is not cast)`);
  }
  if (out.shape.length !== shape.length || out.shape.some((d, i) => d !== shape[i])) {
    throw new ShapeError(`${who}: out is ${fmtShape(out.shape)}, the result is ${fmtShape(shape)} (out must have the result's shape; it is not resized)`);
  }
}

// ---- arithmetic

/**
 * Elementwise sum `a + b`, broadcasting as numpy. Operands are tensors, nested arrays or
 * JS scalars (a number, boolean or Complex: a 0-d operand that only raises the dtype
 * category, torch's rule). int32/uint32 wrap around (two's complement); bool + bool computes in int32.
 *
 * Every unary and binary function takes `{ out }` last: the result is written into out (the
 * result's dtype and shape, the operands' device; an operand itself for in place) and
 * returned (docs/tensor-api.md).
 *
 * Syntax: `add(a, b)`, `add(a, b, { out })`
 * Example: `add([1, 2], 0.5)` → `[1.5, 2.5]` (float64)
 * Throws: ShapeError if the shapes do not broadcast; DTypeError for int32 with uint32;
 * DeviceError for tensors on different devices; ArgumentError for a scalar the dtype cannot hold.
 * See also: `sub`, `mul`, `div`, docs/tensor-api.md.
 */
export function add(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('add', add, [a, b], opts);
  return binaryOp('add', a, b, undefined, outOf('add', opts));
}

/**
 * Elementwise difference `a − b`, broadcasting as numpy; integers wrap around.
 *
 * Syntax: `sub(a, b)`
 * Example: `sub([3, 4], [1, 1])` → `[2, 3]`
 * Throws: ShapeError, DTypeError, DeviceError as `add`.
 * See also: `add`, `neg`.
 */
export function sub(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('sub', sub, [a, b], opts);
  return binaryOp('sub', a, b, undefined, outOf('sub', opts));
}

/**
 * Elementwise product `a · b`, broadcasting as numpy; integers wrap around.
 *
 * Syntax: `mul(a, b)`
 * Example: `mul([[1, 2], [3, 4]], [10, 100])` → `[[10, 200], [30, 400]]`
 * Throws: ShapeError, DTypeError, DeviceError as `add`.
 * See also: `div`, `linalg.matmul`.
 */
export function mul(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('mul', mul, [a, b], opts);
  return binaryOp('mul', a, b, undefined, outOf('mul', opts));
}

/**
 * Elementwise true division `a / b` (IEEE: x/0 = ±Inf, 0/0 = NaN). Integer and bool
 * operands divide in float32 (torch's rule), complex by Smith's algorithm (numpy's).
 *
 * Syntax: `div(a, b)`
 * Example: `div(tensor([1, 3], { dtype: 'int32' }), 2)` → `[0.5, 1.5]` (float32)
 * Throws: ShapeError, DTypeError, DeviceError as `add`.
 * See also: `mul`, `pow`.
 */
export function div(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('div', div, [a, b], opts);
  return binaryOp('div', a, b, undefined, outOf('div', opts));
}

/**
 * Elementwise power `base ^ exponent` (C's pow for real floats: pow(x, 0) = 1 even for NaN).
 * Integers: exact by squaring, wrapping around; a negative exponent gives the truncated
 * true value (1 for base 1, ±1 for base −1, else 0). Complex: numpy's rules (z^0 = 1).
 *
 * Syntax: `pow(base, exponent)`
 * Example: `pow([1, 2, 3], 2)` → `[1, 4, 9]`
 * Throws: ShapeError, DTypeError, DeviceError as `add`.
 * See also: `sqrt`, `exp`.
 */
export function pow(base: Operand, exponent: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('pow', pow, [base, exponent], opts);
  return binaryOp('pow', base, exponent, ['base', 'exponent'], outOf('pow', opts));
}

/**
 * Elementwise minimum; a NaN in either operand gives NaN (numpy's `minimum`, torch's).
 * Real and integral dtypes (bool: logical and).
 *
 * Syntax: `minimum(a, b)`
 * Example: `minimum([1, NaN, 3], 2)` → `[1, NaN, 2]`
 * Throws: DTypeError for complex operands (no ordering); ShapeError, DeviceError as `add`.
 * See also: `maximum`, `clamp`.
 */
export function minimum(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('minimum', minimum, [a, b], opts);
  return binaryOp('minimum', a, b, undefined, outOf('minimum', opts));
}

/**
 * Elementwise maximum; a NaN in either operand gives NaN (numpy's `maximum`, torch's).
 *
 * Syntax: `maximum(a, b)`
 * Example: `maximum([1, 5], [4, 2])` → `[4, 5]`
 * Throws: DTypeError for complex operands; ShapeError, DeviceError as `add`.
 * See also: `minimum`, `clamp`.
 */
export function maximum(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('maximum', maximum, [a, b], opts);
  return binaryOp('maximum', a, b, undefined, outOf('maximum', opts));
}

// ---- comparisons and logic (bool results)

/**
 * Elementwise `a == b` as a bool tensor (NaN equals nothing; complex: both parts equal).
 *
 * Syntax: `eq(a, b)`
 * Example: `eq([1, 2, NaN], [1, 3, NaN])` → `[true, false, false]`
 * Throws: ShapeError, DTypeError, DeviceError as `add`.
 * See also: `ne`, `lt`.
 */
export function eq(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('eq', a, b, undefined, outOf('eq', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise `a != b` as a bool tensor (true wherever either is NaN).
 *
 * Syntax: `ne(a, b)`
 * Example: `ne([1, 2], 1)` → `[false, true]`
 * Throws: ShapeError, DTypeError, DeviceError as `add`.
 * See also: `eq`.
 */
export function ne(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('ne', a, b, undefined, outOf('ne', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise `a < b` as a bool tensor (false with NaN; uint32 compares unsigned).
 *
 * Syntax: `lt(a, b)`
 * Example: `lt([1, 2, 3], 2)` → `[true, false, false]`
 * Throws: DTypeError for complex operands or int32 with uint32; ShapeError, DeviceError as `add`.
 * See also: `le`, `gt`, `ge`.
 */
export function lt(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('lt', a, b, undefined, outOf('lt', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise `a <= b` as a bool tensor.
 *
 * Syntax: `le(a, b)`
 * Example: `le([1, 2, 3], 2)` → `[true, true, false]`
 * Throws: DTypeError for complex operands or int32 with uint32; ShapeError, DeviceError as `add`.
 * See also: `lt`, `ge`.
 */
export function le(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('le', a, b, undefined, outOf('le', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise `a > b` as a bool tensor.
 *
 * Syntax: `gt(a, b)`
 * Example: `gt([1, 2, 3], 2)` → `[false, false, true]`
 * Throws: DTypeError for complex operands or int32 with uint32; ShapeError, DeviceError as `add`.
 * See also: `ge`, `lt`.
 */
export function gt(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('gt', a, b, undefined, outOf('gt', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise `a >= b` as a bool tensor.
 *
 * Syntax: `ge(a, b)`
 * Example: `ge([1, 2, 3], 2)` → `[false, true, true]`
 * Throws: DTypeError for complex operands or int32 with uint32; ShapeError, DeviceError as `add`.
 * See also: `gt`, `le`.
 */
export function ge(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('ge', a, b, undefined, outOf('ge', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise logical and of the truth values (x ≠ 0; NaN is true) of any dtypes.
 *
 * Syntax: `logicalAnd(a, b)`
 * Example: `logicalAnd([1, 0, 2], [true, true, false])` → `[true, false, false]`
 * Throws: ShapeError if the shapes do not broadcast; DeviceError for different devices.
 * See also: `logicalOr`, `logicalNot`, `where`.
 */
export function logicalAnd(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('logicalAnd', a, b, undefined, outOf('logicalAnd', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise logical or of the truth values (x ≠ 0) of any dtypes.
 *
 * Syntax: `logicalOr(a, b)`
 * Example: `logicalOr([1, 0, 0], [false, true, false])` → `[true, true, false]`
 * Throws: ShapeError if the shapes do not broadcast; DeviceError for different devices.
 * See also: `logicalAnd`, `logicalNot`.
 */
export function logicalOr(a: Operand, b: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return binaryOp('logicalOr', a, b, undefined, outOf('logicalOr', opts)) as Tensor<'bool'>;
}

/**
 * Elementwise logical not (x == 0) of any dtype, as a bool tensor.
 *
 * Syntax: `logicalNot(x)`
 * Example: `logicalNot([0, 1, NaN])` → `[true, false, false]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `logicalAnd`, `eq`.
 */
export function logicalNot(x: Operand, opts?: ElementwiseOptions): Tensor<'bool'> {
  return unaryOp('logicalNot', x, outOf('logicalNot', opts)) as Tensor<'bool'>;
}

// ---- unary arithmetic

/**
 * Elementwise negation (integers wrap: −(−2³¹) = −2³¹; uint32 wraps modulo 2³²; bool computes in int32).
 *
 * Syntax: `neg(x)`
 * Example: `neg([1, -2])` → `[-1, 2]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `sub`, `abs`.
 */
export function neg(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('neg', neg, [x], opts);
  return unaryOp('neg', x, outOf('neg', opts));
}

/**
 * Elementwise absolute value; of complex, |z| by hypot (real dtype, no overflow for large parts).
 * abs(−2³¹) in int32 wraps to −2³¹ (numpy's).
 *
 * Syntax: `abs(x)`
 * Example: `abs([c(3, 4)])` → `[5]` (float64)
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `sign`, `angle`.
 */
export function abs(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('abs', abs, [x], opts);
  return unaryOp('abs', x, outOf('abs', opts));
}

/**
 * Elementwise sign: −1, 0 or 1 (sign(±0) = +0, sign(NaN) = NaN, numpy's); of complex, z/|z| (0 at 0).
 *
 * Syntax: `sign(x)`
 * Example: `sign([-3, 0, 2])` → `[-1, 0, 1]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `abs`.
 */
export function sign(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('sign', sign, [x], opts);
  return unaryOp('sign', x, outOf('sign', opts));
}

/**
 * Elementwise square root (NaN for negative reals, sqrt(−0) = −0; complex: the principal
 * root). Integer input computes in float32.
 *
 * Syntax: `sqrt(x)`
 * Example: `sqrt([4, 2])` → `[2, 1.4142135623730951]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `pow`.
 */
export function sqrt(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('sqrt', sqrt, [x], opts);
  return unaryOp('sqrt', x, outOf('sqrt', opts));
}

/**
 * Elementwise e^x (complex: e^re·(cos im + i sin im)). Integer input computes in float32.
 *
 * Syntax: `exp(x)`, `exp(x, { out })`
 * Example: `exp([0, 1])` → `[1, 2.718281828459045]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `expm1`, `log`.
 */
export function exp(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('exp', exp, [x], opts);
  return unaryOp('exp', x, outOf('exp', opts));
}

/**
 * Elementwise natural logarithm (log 0 = −Inf, NaN for negative reals; complex: principal branch).
 *
 * Syntax: `log(x)`
 * Example: `log([1, Math.E])` → `[0, 1]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `log1p`, `exp`.
 */
export function log(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('log', log, [x], opts);
  return unaryOp('log', x, outOf('log', opts));
}

/**
 * Elementwise log(1 + x), accurate for small |x|.
 *
 * Syntax: `log1p(x)`
 * Example: `log1p([1e-10])` → `[9.9999999995e-11]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `log`, `expm1`.
 */
export function log1p(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('log1p', log1p, [x], opts);
  return unaryOp('log1p', x, outOf('log1p', opts));
}

/**
 * Elementwise e^x − 1, accurate for small |x|.
 *
 * Syntax: `expm1(x)`
 * Example: `expm1([1e-10])` → `[1.00000000005e-10]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `exp`, `log1p`.
 */
export function expm1(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('expm1', expm1, [x], opts);
  return unaryOp('expm1', x, outOf('expm1', opts));
}

/**
 * Elementwise sine (radians).
 *
 * Syntax: `sin(x)`
 * Example: `sin([0, Math.PI / 2])` → `[0, 1]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `cos`, `tanh`.
 */
export function sin(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('sin', sin, [x], opts);
  return unaryOp('sin', x, outOf('sin', opts));
}

/**
 * Elementwise cosine (radians).
 *
 * Syntax: `cos(x)`
 * Example: `cos([0, Math.PI])` → `[1, -1]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `sin`.
 */
export function cos(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('cos', cos, [x], opts);
  return unaryOp('cos', x, outOf('cos', opts));
}

/**
 * Elementwise hyperbolic tangent.
 *
 * Syntax: `tanh(x)`
 * Example: `tanh([0, Infinity])` → `[0, 1]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `sigmoid`.
 */
export function tanh(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('tanh', tanh, [x], opts);
  return unaryOp('tanh', x, outOf('tanh', opts));
}

/**
 * Elementwise logistic function 1 / (1 + e^−x), without overflow for large |x|.
 *
 * Syntax: `sigmoid(x)`
 * Example: `sigmoid([0, -Infinity])` → `[0.5, 0]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `tanh`, `exp`.
 */
export function sigmoid(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('sigmoid', sigmoid, [x], opts);
  return unaryOp('sigmoid', x, outOf('sigmoid', opts));
}

// ---- complex parts

/**
 * Elementwise complex conjugate (real dtypes: x itself, as a new tensor).
 *
 * Syntax: `conj(x)`
 * Example: `conj([c(1, 2)])` → `[1 - 2i]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `real`, `imag`, `Tensor.mH`.
 */
export function conj(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('conj', conj, [x], opts);
  return unaryOp('conj', x, outOf('conj', opts));
}

/**
 * Real parts (complex64 → float32, complex128 → float64; real dtypes: x itself, as a new tensor).
 *
 * Syntax: `real(x)`
 * Example: `real([c(1, 2)])` → `[1]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `imag`, `angle`.
 */
export function real(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('real', real, [x], opts);
  return unaryOp('real', x, outOf('real', opts));
}

/**
 * Imaginary parts (the real dtype; zeros of x's dtype for real input, numpy's).
 *
 * Syntax: `imag(x)`
 * Example: `imag([c(1, 2)])` → `[2]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `real`.
 */
export function imag(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('imag', imag, [x], opts);
  return unaryOp('imag', x, outOf('imag', opts));
}

/**
 * Elementwise argument atan2(im, re) in (−π, π]; of reals, 0 or π (angle(−0) = π, numpy's).
 * Integer input computes in float32.
 *
 * Syntax: `angle(x)`
 * Example: `angle([c(0, 1), -2])` → `[1.5707963267948966, 3.141592653589793]`
 * Throws: ArgumentError for an argument that is not a tensor or scalar.
 * See also: `abs`, `real`, `imag`.
 */
export function angle(x: Operand, opts?: ElementwiseOptions): Tensor {
  if (taping()) return taped('angle', angle, [x], opts);
  return unaryOp('angle', x, outOf('angle', opts));
}

// ---- clamp, where, cast

/**
 * Limits x to [min, max] elementwise: maximum(x, min), then minimum(·, max) (torch's
 * clamp: where min > max the result is max; a NaN in x or a bound gives NaN). Either
 * bound may be omitted (null/undefined), not both; bounds broadcast with x and take part
 * in the promotion.
 *
 * Syntax: `clamp(x, min?, max?)`
 * Example: `clamp([-2, 0.5, 3], 0, 1)` → `[0, 0.5, 1]`
 * Throws: ArgumentError when both bounds are missing; DTypeError for complex operands;
 * ShapeError, DeviceError as `add`.
 * See also: `minimum`, `maximum`.
 */
export function clamp(x: Operand, min?: Operand | null, max?: Operand | null): Tensor {
  if (taping()) return gradCall('clamp', clamp, [x, min, max]);
  const who = 'clamp';
  const hasMin = min !== undefined && min !== null, hasMax = max !== undefined && max !== null;
  if (!hasMin && !hasMax) throw new ArgumentError(`${who}: at least one of min and max must be given`);
  const values: Operand[] = [x], names = ['x'];
  if (hasMin) { values.push(min); names.push('min'); }
  if (hasMax) { values.push(max); names.push('max'); }
  const { tensors, dtype } = promoteOperands(who, values, names);
  if (isComplex(dtype)) throw new DTypeError(`${who}: complex operands (promoted to ${dtype}) have no ordering`);
  let out = tensors[0];
  const step = (op: 'maximum' | 'minimum', bound: Tensor, name: string): void => {
    const L = elementwiseLayout(out.shape, bound.shape, who, ['x', name]);
    out = lookup('binary', dtype, out.device, who)(out, bound, op, L);
  };
  if (hasMin) step('maximum', tensors[1], 'min');
  if (hasMax) step('minimum', tensors[hasMin ? 2 : 1], 'max');
  return out;
}

/**
 * Elementwise `cond ? a : b`, all three broadcast together (numpy's `where`). `cond` of any
 * dtype is read as its truth value (x ≠ 0); `a` and `b` promote as for `add`'s operands.
 *
 * Syntax: `where(cond, a, b)`
 * Example: `where([true, false], [1, 2], 0)` → `[1, 0]`
 * Throws: ShapeError if the shapes do not broadcast; DTypeError for int32 with uint32;
 * DeviceError for tensors on different devices.
 * See also: `logicalAnd`, `clamp`.
 */
export function where(cond: Operand, a: Operand, b: Operand): Tensor {
  if (taping()) return gradCall('where', where, [cond, a, b]);
  const who = 'where';
  const names = ['cond', 'a', 'b'];
  // Devices first: JS scalars are then made on the one device every tensor operand is on.
  const ts = [cond, a, b].map((v, i) => (scalarKind(v) === null ? toOperand(v, who, names[i]) : null));
  const device = commonDevice(ts, names, who);
  const c0 = ts[0] ?? scalarTensor(cond as JsScalar, 'bool', device, who, 'cond');
  const c = castTo(c0, 'bool', who, 'cond') as Tensor<'bool'>;
  const { tensors: [ta, tb], dtype } = promoteOperands(who, [ts[1] ?? a, ts[2] ?? b], ['a', 'b'], 0, device);
  const L = elementwiseLayoutN([c.shape, ta.shape, tb.shape], who, names);
  return lookup('where', dtype, device, who)(c, ta, tb, L);
}

/**
 * x converted to `dtype` (a new tensor; the same dtype returns x itself). Floats to
 * integers truncate toward zero, NaN → 0, saturating at the range ends; int32 ↔ uint32
 * wraps; to bool is x ≠ 0; bool to numbers is 0/1; real to complex sets im = 0.
 *
 * Syntax: `cast(x, dtype)`
 * Example: `cast([1.7, -1.7, NaN], 'int32')` → `[1, -1, 0]`
 * Complex to bool is z ≠ 0.
 * Throws: DTypeError for an unknown dtype or complex → real (take `real` or `abs` first);
 * ArgumentError for a tensor differentiated by grad/valueAndGrad/vjp cast to float16.
 * See also: `real`, `Tensor.dtype`.
 */
export function cast(x: Operand, dtype: DType): Tensor {
  if (taping()) {
    // float16 is storage only (never tracked): a silent cut of the gradient would be a wrong zero
    if (dtype === 'float16') refuseTracked('cast', [x], 'float16 is a storage dtype without gradients; differentiate in float32');
    return gradCall('cast', cast, [x, dtype]);
  }
  const who = 'cast';
  checkArg(who, 'dtype', dtype, opt.dtype());
  return castTo(toOperand(x, who, 'x'), dtype, who);
}
