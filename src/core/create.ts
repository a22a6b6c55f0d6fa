import { type DType, type Device, isComplex, isFloating, storageCtor, scalarsPerElement, DTYPES, INTEGRAL_DTYPES } from './dtype.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, fmtShape } from './errors.js';
import { checkArg, opt, readOptions, show } from './options.js';
import { sizeOf, checkShape } from './shape.js';
import { Tensor, inferShape, hasComplexLeaf } from './tensor.js';
import { type ComplexLike, isComplexLike } from '../complex/complex.js';
import { lookup } from '../backend/registry.js';
import { taping, gradCall, refuseTracked } from './grad.js';
import { halfFromFloat32, halfFromNumbers, halfToFloat32, halfToFloat64, toHalfBits } from './half.js';
import {
  type NumericTypedArray, type MathjsMatrixLike, type MlMatrixLike, type StridedLike,
  isNumericTypedArray, isMathjsMatrix, isMlMatrix, isStrided, typedArrayDtype, mathjsToNested, mlMatrixToData,
  gatherStrided, stridedDtype,
} from './interop.js';

type TypedArray = Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array;

export interface CreateOptions<D extends DType = DType> {
  dtype?: D;
  device?: Device;
}

/**
 * What every public function accepts for a tensor argument: a Tensor; a number, boolean or
 * {re, im} scalar; nested arrays; a bare typed array (1-D); `{ data, shape, dtype? }`; a
 * strided `{ data, shape, stride, offset }` (scijs ndarray); a mathjs Matrix; an ml-matrix Matrix.
 */
export type TensorLike =
  | Tensor
  | number
  | boolean
  | ComplexLike
  | readonly unknown[]
  | NumericTypedArray
  | { data: NumericTypedArray | readonly (number | boolean)[]; shape: readonly number[]; dtype?: DType }
  | StridedLike
  | MathjsMatrixLike
  | MlMatrixLike;

function checkDtype(d: unknown, who: string): asserts d is DType {
  if (!DTYPES.includes(d as DType)) {
    throw new DTypeError(`${who}: unknown dtype ${show(d)} (expected one of ${DTYPES.join(', ')})`);
  }
}

const CREATE_OPTIONS = { dtype: opt.dtype(), device: opt.device };

/** int32 storage takes integers in its range only: 1.5 or 2^31 would be silently changed. */
function checkInt32(v: number, who: string, at: number): void {
  if (!(Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) {
    throw new ArgumentError(`${who}: element ${at} is ${show(v)}, not an int32 value (an integer in [-2^31, 2^31 - 1])`);
  }
}

/**
 * Raw values stored as int32/uint32/bool must already be values of the type (1.5, -1 into
 * uint32 or 2 into bool would be silently changed); `cast` converts a tensor with rounding rules.
 */
function checkValue(v: number, d: DType, who: string, at: number): void {
  if (d === 'int32') checkInt32(v, who, at);
  else if (d === 'uint32') {
    if (!(Number.isInteger(v) && v >= 0 && v <= 4294967295)) {
      throw new ArgumentError(`${who}: element ${at} is ${show(v)}, not a uint32 value (an integer in [0, 2^32 - 1])`);
    }
  } else if (d === 'bool' && v !== 0 && v !== 1) {
    throw new ArgumentError(`${who}: element ${at} is ${show(v)}, not a bool value (true/false or 0/1); cast(t, 'bool') tests x ≠ 0`);
  }
}

/** The `data` of `{ data, shape }`: a numeric typed array, or an array of numbers (booleans count as 0/1). */
function checkData(data: unknown, d: DType, who: string): void {
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const x: unknown = data[i];
      if (typeof x !== 'number' && typeof x !== 'boolean') {
        throw new DTypeError(`${who}: data[${i}] is ${show(x)}, expected a number`);
      }
      checkValue(Number(x), d, who, i);
    }
    return;
  }
  if (!isNumericTypedArray(data)) throw new DTypeError(`${who}: data must be a numeric typed array or an array of numbers, got ${show(data)}`);
  if (d === 'int32' || d === 'uint32' || d === 'bool') {
    if (data instanceof storageCtor(d) && d !== 'bool') return;
    const a = data as unknown as ArrayLike<number>;
    for (let i = 0; i < a.length; i++) checkValue(Number(a[i]), d, who, i);
  }
}

/** A scijs dtype name (ndarray's `dtype` getter) that is not a lapis dtype: the data's type decides instead. */
const FOREIGN_DTYPE_NAMES = new Set(['array', 'generic', 'buffer', 'int8', 'int16', 'uint8', 'uint16', 'uint8_clamped', 'float16', 'bigint64', 'biguint64']);

/**
 * Stores flat data of a shape. The dtype is `given`, else: booleans only → bool, an array of
 * numbers → float64, a typed array → its own type (see interop.ts `typedArrayDtype`). A typed
 * array of the dtype's storage type is wrapped without a copy.
 */
function fromData(data: unknown, shape: unknown, given: DType | undefined, who: string): Tensor {
  checkShape(shape, who);
  if (given !== undefined) checkDtype(given, who);
  let d: DType;
  if (given) d = given;
  else if (Array.isArray(data)) d = data.length > 0 && data.every((x) => typeof x === 'boolean') ? 'bool' : 'float64';
  else if (isNumericTypedArray(data)) d = typedArrayDtype(data, who);
  else throw new DTypeError(`${who}: data must be a numeric typed array or an array of numbers, got ${show(data)}`);
  checkData(data, d, who);
  const C = storageCtor(d);
  const want = sizeOf(shape) * scalarsPerElement(d);
  const n = (data as ArrayLike<unknown>).length;
  if (n !== want) throw new ShapeError(`${who}: shape ${fmtShape(shape)} of ${d} needs ${want} scalars, data holds ${n}`);
  // float16 from a Uint16Array is its bits (the storage type, as for every dtype); from anything else, values rounded to half
  const arr = data instanceof C ? data
    : d === 'float16' ? halfFromNumbers(Array.isArray(data) ? data.map(Number) : data as ArrayLike<number>)
      : C.from(data as ArrayLike<number>);
  return Tensor.fromStorage(d, shape, arr as never);
}

/**
 * Builds a tensor from nested arrays (numbers or {re, im} complex values), a typed array
 * with a shape, or a scalar. Nested input is copied; a typed array of the dtype's storage
 * type is wrapped without a copy.
 *
 * Syntax: `tensor([[1, 2], [3, 4]])`, `tensor({ data: f64, shape: [2, 3] })`,
 * `tensor([[c(1, 2)]], { dtype: 'complex64', device: 'gpu' })`.
 * Throws: ShapeError for ragged input or a length/shape mismatch; DTypeError for an
 * unknown dtype or complex values into a real dtype.
 */
export function tensor<D extends DType = DType>(value: TensorLike, opts: CreateOptions<D> = {}): Tensor<D> {
  if (value instanceof Tensor && taping()) return trackedTensor(value, opts);
  const who = 'tensor';
  opts = readOptions(who, opts, CREATE_OPTIONS);
  let t: Tensor;
  // The dtype the value was read as came from the value itself: opts.dtype casts it afterwards.
  let cast = true;
  if (value instanceof Tensor) {
    if (value.isDisposed) throw new DeviceError(`${who}: the tensor was disposed`);
    t = value;
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    const d = opts.dtype ?? (typeof value === 'boolean' ? 'bool' : 'float64');
    if (!isComplex(d)) checkValue(Number(value), d, who, 0);
    t = Tensor.empty(d, []);
    (t.dataSync() as TypedArray)[0] = d === 'float16' ? toHalfBits(Number(value)) : Number(value);
    cast = false;
  } else if (isComplexLike(value)) {
    const d = opts.dtype ?? 'complex128';
    if (!isComplex(d)) throw new DTypeError(`${who}: a complex value cannot be stored as ${d}`);
    t = Tensor.empty(d, []);
    const s = t.dataSync() as Float64Array;
    s[0] = value.re; s[1] = value.im;
    cast = false;
  } else if (Array.isArray(value)) {
    t = fromNested(value, opts.dtype, who);
    cast = false;
  } else if (isNumericTypedArray(value)) {
    // A bare typed array is a 1-D tensor of its values (its own dtype; opts.dtype casts).
    t = fromData(value, [value.length], undefined, who);
  } else if (isMathjsMatrix(value)) {
    t = fromNested(mathjsToNested(value, who), opts.dtype, who);
    cast = false;
  } else if (isMlMatrix(value)) {
    const { data, shape } = mlMatrixToData(value, who);
    t = Tensor.fromStorage('float64', shape, data);
  } else if (isStrided(value)) {
    const own = value.dtype !== undefined && FOREIGN_DTYPE_NAMES.has(value.dtype) ? undefined : value.dtype;
    if (own !== undefined) checkDtype(own, who);
    const given = stridedDtype(value) ?? opts.dtype;
    const g = gatherStrided(value, given !== undefined && isComplex(given) ? 2 : 1, who);
    t = fromData(g.data, g.shape, given, who);
  } else if (typeof value === 'object' && value !== null && 'data' in value && 'shape' in value) {
    const { data, shape } = value as { data: unknown; shape: unknown; dtype?: DType };
    t = fromData(data, shape, (value as { dtype?: DType }).dtype ?? opts.dtype, who);
  } else {
    throw new ArgumentError(`${who}: cannot make a tensor from ${Object.prototype.toString.call(value)}`);
  }
  if (cast && opts.dtype && opts.dtype !== t.dtype) t = convertExact(t, opts.dtype, who);
  if (opts.device && opts.device !== t.device) t = t.to(opts.device);
  return t as Tensor<D>;
}

/**
 * `tensor(t, opts)` of a tensor under an open tape: a dtype conversion is recorded (its rule
 * casts the cotangent back); a device move is refused when t is tracked (the GPU → CPU copy
 * is asynchronous, and a recorded move would need one back in the backward).
 */
function trackedTensor<D extends DType>(value: Tensor, opts: CreateOptions<D>): Tensor<D> {
  const device = (opts as CreateOptions<D> | null | undefined)?.device;
  if (device !== undefined && device !== value.device) {
    refuseTracked('tensor', [value], `a move to ${String(device)} is not recorded: move the tensor before grad/valueAndGrad/vjp, or pass stopGradient(x)`);
  }
  return gradCall('tensor', tensor, [value, opts]) as Tensor<D>;
}

/** True when the nested array has at least one leaf and every leaf is a boolean (→ dtype bool). */
function allBoolLeaves(v: readonly unknown[]): boolean {
  let any = false;
  const rec = (x: unknown): boolean => {
    if (Array.isArray(x)) return x.every(rec);
    any = true;
    return typeof x === 'boolean';
  };
  return rec(v) && any;
}

function fromNested(value: readonly unknown[], dtype: DType | undefined, who: string): Tensor {
  const shape = inferShape(value, who);
  const cplx = hasComplexLeaf(value);
  const d: DType = dtype ?? (cplx ? 'complex128' : allBoolLeaves(value) ? 'bool' : 'float64');
  if (cplx && !isComplex(d)) throw new DTypeError(`${who}: complex values cannot be stored as ${d}`);
  // halves: read as float64, then each value rounded once
  if (d === 'float16') return castCpu(fromNested(value, 'float64', who), 'float16', who);
  const t = Tensor.empty(d, shape);
  const out = t.dataSync() as TypedArray;
  const k = scalarsPerElement(d);
  const exact = d === 'int32' || d === 'uint32' || d === 'bool';
  let i = 0;
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { for (const y of x) walk(y); return; }
    if (typeof x === 'number') { if (exact) checkValue(x, d, who, i); out[i * k] = x; i++; return; }
    if (typeof x === 'boolean') { out[i * k] = x ? 1 : 0; i++; return; }
    if (isComplexLike(x)) { out[i * k] = x.re; out[i * k + 1] = x.im; i++; return; }
    throw new DTypeError(`${who}: element ${i} is ${show(x)}, expected a number, boolean or {re, im}`);
  };
  walk(value);
  return t;
}

/**
 * The implicit conversion of `tensor(t, { dtype })` and of arguments: into int32/uint32/bool
 * only values of the target type pass (1.5 or 2 into bool is an ArgumentError, as for raw
 * data); rounding conversions are what `cast` is for.
 */
function convertExact(t: Tensor, to: DType, who: string): Tensor {
  if ((to === 'int32' || to === 'uint32' || to === 'bool') && t.device === 'cpu' && !isComplex(t.dtype)) {
    const src = t.dataSync();
    for (let i = 0; i < src.length; i++) checkValue(src[i], to, who, i);
  }
  return castCpu(t, to, who);
}

const INT_RANGE = { int32: [-2147483648, 2147483647], uint32: [0, 4294967295] } as const;

/**
 * Converts a tensor to another dtype with the registry `cast` rules (src/backend/ops.ts): real
 * → complex sets im = 0; float → int32/uint32 truncates toward zero, NaN → 0, saturating at
 * the range ends; int32 ↔ uint32 wraps (two's complement, numpy's astype); → bool is x ≠ 0
 * (complex: re ≠ 0 or im ≠ 0; NaN is true); bool → 0/1. complex → real is refused. CPU
 * tensors convert here (the same rules as native/src/elementwise/cast.cpp); other devices
 * go through their registered `cast` entry.
 */
export function castCpu(t: Tensor, to: DType, who = 'cast'): Tensor {
  if (t.dtype === to) return t;
  if (isComplex(t.dtype) && !isComplex(to) && to !== 'bool') {
    throw new DTypeError(`${who}: casting ${t.dtype} to ${to} would drop the imaginary part`);
  }
  if (t.device !== 'cpu') return lookup('cast', t.dtype, t.device, who)(t, to);
  if (t.dtype === 'float16' || to === 'float16') return castHalfCpu(t, to, who);
  const src = t.dataSync();
  const out = Tensor.empty(to, t.shape, who);
  const dst = out.dataSync();
  const n = t.size;
  if (to === 'bool') {
    const k = scalarsPerElement(t.dtype);
    for (let i = 0; i < n; i++) dst[i] = src[i * k] !== 0 || (k === 2 && src[i * k + 1] !== 0) ? 1 : 0;
  } else if (isComplex(to) && !isComplex(t.dtype)) {
    for (let i = 0; i < n; i++) dst[2 * i] = src[i];
  } else if ((to === 'int32' || to === 'uint32') && isFloating(t.dtype)) {
    const [lo, hi] = INT_RANGE[to];
    for (let i = 0; i < n; i++) {
      const v = src[i];
      dst[i] = v !== v ? 0 : v <= lo ? lo : v >= hi ? hi : Math.trunc(v);
    }
  } else {
    // typed-array set converts: float rounding, int32 ↔ uint32 modulo 2^32, bool as 0/1
    dst.set(src);
  }
  return out;
}

/**
 * castCpu with float16 on one side. To float16: float32 through its bits (the GPU cast's
 * integer rounding, bit for bit), anything else from its value rounded once. From float16:
 * float32/float64 exactly, then the float32 rules for the other dtypes.
 */
function castHalfCpu(t: Tensor, to: DType, who: string): Tensor {
  if (to === 'float16') {
    const src = t.dataSync();
    if (t.dtype === 'float32') return Tensor.fromStorage('float16', t.shape, halfFromFloat32(src as Float32Array));
    return Tensor.fromStorage('float16', t.shape, halfFromNumbers(src));
  }
  const h = t.dataSync() as Uint16Array;
  if (to === 'float64') return Tensor.fromStorage('float64', t.shape, halfToFloat64(h));
  const f = Tensor.fromStorage('float32', t.shape, halfToFloat32(h));
  return to === 'float32' ? f : castCpu(f, to, who);
}

/** Zeros of a shape. */
export function zeros<D extends DType = 'float64'>(shape: readonly number[], opts: CreateOptions<D> = {}): Tensor<D> {
  opts = readOptions('zeros', opts, CREATE_OPTIONS);
  const d = (opts.dtype ?? 'float64') as D;
  const t = Tensor.empty(d, shape, 'zeros');
  return (opts.device && opts.device !== 'cpu' ? t.to(opts.device) : t) as Tensor<D>;
}

/** The n×m identity (m defaults to n), optionally with batch dims: `eye(3, { batch: [10] })`. */
export function eye<D extends DType = 'float64'>(
  n: number,
  opts: CreateOptions<D> & { m?: number; batch?: readonly number[] } = {},
): Tensor<D> {
  opts = readOptions('eye', opts, { ...CREATE_OPTIONS, m: opt.int(0), batch: opt.any });
  checkArg('eye', 'n', n, opt.int(0));
  const m = opts.m ?? n;
  const batch = opts.batch === undefined ? [] : opts.batch;
  checkShape(batch, 'eye', 'option batch');
  const d = (opts.dtype ?? 'float64') as D;
  const t = Tensor.empty(d, [...batch, n, m], 'eye');
  const s = t.dataSync() as TypedArray;
  const k = scalarsPerElement(d);
  const count = sizeOf(batch);
  const one = d === 'float16' ? toHalfBits(1) : 1;
  for (let b = 0; b < count; b++) for (let i = 0; i < Math.min(n, m); i++) s[(b * n * m + i * m + i) * k] = one;
  return (opts.device && opts.device !== 'cpu' ? t.to(opts.device) : t) as Tensor<D>;
}

/**
 * A seeded generator (xoshiro128** state from splitmix32 of the seed) so tests and
 * benchmarks reproduce exactly across runs and platforms.
 */
export class Rng {
  private s0: number; private s1: number; private s2: number; private s3: number;
  constructor(seed = 0) {
    checkArg('Rng', 'seed', seed, opt.int());
    let x = seed >>> 0;
    const sm = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = sm(); this.s1 = sm(); this.s2 = sm(); this.s3 = sm();
  }
  private nextU32(): number {
    const r = Math.imul(((Math.imul(this.s1, 5) << 7) | (Math.imul(this.s1, 5) >>> 25)), 9) >>> 0;
    const t = (this.s1 << 9) >>> 0;
    this.s2 ^= this.s0; this.s3 ^= this.s1; this.s1 ^= this.s2; this.s0 ^= this.s3;
    this.s2 = (this.s2 ^ t) >>> 0;
    this.s3 = ((this.s3 << 11) | (this.s3 >>> 21)) >>> 0;
    return r;
  }
  /** Uniform in [0, 1) with 53 random bits. */
  uniform(): number {
    return ((this.nextU32() >>> 5) * 67108864 + (this.nextU32() >>> 6)) / 9007199254740992;
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    let u = 0;
    while (u === 0) u = this.uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.uniform());
  }
}

/** Standard normal entries from a seed (complex: re and im each N(0, 1/2)). */
export function randn<D extends DType = 'float64'>(
  shape: readonly number[],
  opts: CreateOptions<D> & { seed?: number } = {},
): Tensor<D> {
  opts = readOptions('randn', opts, { ...CREATE_OPTIONS, seed: opt.int() });
  const d = (opts.dtype ?? 'float64') as D;
  if ((INTEGRAL_DTYPES as readonly DType[]).includes(d)) {
    throw new DTypeError(`randn: dtype ${d} cannot hold normal samples; use a float dtype`);
  }
  // halves: float32 samples (the same draws), rounded to half
  if (d === 'float16') return castCpu(randn(shape, { ...opts, dtype: 'float32', device: 'cpu' }), 'float16', 'randn').to(opts.device ?? 'cpu') as Tensor<D>;
  const t = Tensor.empty(d, shape, 'randn');
  const rng = new Rng(opts.seed ?? 0);
  const s = t.dataSync() as TypedArray;
  const scale = isComplex(d) ? Math.SQRT1_2 : 1;
  for (let i = 0; i < s.length; i++) s[i] = rng.normal() * scale;
  return (opts.device && opts.device !== 'cpu' ? t.to(opts.device) : t) as Tensor<D>;
}

/** Coerces an argument of a public function into a tensor, naming it in errors. */
export function asTensor(v: TensorLike, who: string, name: string, dtype?: DType): Tensor {
  try {
    if (v instanceof Tensor) {
      if (v.isDisposed) throw new DeviceError(`${who}: ${name}: the tensor was disposed`);
      return dtype && dtype !== v.dtype && v.device === 'cpu' ? convertExact(v, dtype, who) : v;
    }
    return tensor(v, dtype ? { dtype } : {});
  } catch (e) {
    if (e instanceof Error && !e.message.startsWith(who)) e.message = `${who}: ${name}: ${e.message.replace(/^tensor: /, '')}`;
    throw e;
  }
}

/** Checks a tensor is a (batch of) matrix: at least 2 dims. */
export function requireMatrix(t: Tensor, who: string, name: string): void {
  if (t.ndim < 2) throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape)}, expected a matrix or a batch of matrices`);
}

export function requireSquare(t: Tensor, who: string, name: string): void {
  requireMatrix(t, who, name);
  if (t.rows !== t.cols) {
    throw new ShapeError(`${who}: ${name} is ${fmtShape(t.shape.slice(-2))}, expected square`);
  }
}
