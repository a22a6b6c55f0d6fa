import { type DType, type Device, isComplex, storageCtor, scalarsPerElement, DTYPES } from './dtype.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, fmtShape } from './errors.js';
import { checkArg, opt, readOptions, show } from './options.js';
import { sizeOf, checkShape } from './shape.js';
import { Tensor, inferShape, hasComplexLeaf } from './tensor.js';
import { isComplexLike } from '../complex/complex.js';

type TypedArray = Float32Array | Float64Array | Int32Array;

export interface CreateOptions<D extends DType = DType> {
  dtype?: D;
  device?: Device;
}

/** What every public function accepts for a tensor argument. */
export type TensorLike =
  | Tensor
  | number
  | readonly unknown[]
  | { data: TypedArray | readonly number[]; shape: readonly number[]; dtype?: DType };

function defaultDtypeOfArray(a: TypedArray, complex: boolean): DType {
  if (a instanceof Int32Array) return 'int32';
  if (a instanceof Float32Array) return complex ? 'complex64' : 'float32';
  return complex ? 'complex128' : 'float64';
}

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

/** The `data` of `{ data, shape }`: a numeric typed array, or an array of numbers (booleans count as 0/1). */
function checkData(data: unknown, d: DType, who: string): void {
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const x: unknown = data[i];
      if (typeof x !== 'number' && typeof x !== 'boolean') {
        throw new DTypeError(`${who}: data[${i}] is ${show(x)}, expected a number`);
      }
      if (d === 'int32') checkInt32(Number(x), who, i);
    }
    return;
  }
  const numeric = ArrayBuffer.isView(data) && !(data instanceof DataView) &&
    !(data instanceof BigInt64Array) && !(data instanceof BigUint64Array);
  if (!numeric) throw new DTypeError(`${who}: data must be a numeric typed array or an array of numbers, got ${show(data)}`);
  if (d === 'int32' && !(data instanceof Int32Array)) {
    const a = data as unknown as ArrayLike<number>;
    for (let i = 0; i < a.length; i++) checkInt32(a[i], who, i);
  }
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
  const who = 'tensor';
  opts = readOptions(who, opts, CREATE_OPTIONS);
  let t: Tensor;
  if (value instanceof Tensor) {
    if (value.isDisposed) throw new DeviceError(`${who}: the tensor was disposed`);
    t = opts.dtype && opts.dtype !== value.dtype ? castCpu(value, opts.dtype, who) : value;
  } else if (typeof value === 'number') {
    const d = opts.dtype ?? 'float64';
    if (d === 'int32') checkInt32(value, who, 0);
    t = Tensor.empty(d, []);
    (t.dataSync() as TypedArray)[0] = value;
  } else if (isComplexLike(value)) {
    const d = opts.dtype ?? 'complex128';
    if (!isComplex(d)) throw new DTypeError(`${who}: a complex value cannot be stored as ${d}`);
    t = Tensor.empty(d, []);
    const s = t.dataSync() as Float64Array;
    s[0] = value.re; s[1] = value.im;
  } else if (Array.isArray(value)) {
    t = fromNested(value, opts.dtype, who);
  } else if (typeof value === 'object' && value !== null && 'data' in value && 'shape' in value) {
    const { data, shape } = value as { data: TypedArray | number[]; shape: number[]; dtype?: DType };
    checkShape(shape, who);
    const given = (value as { dtype?: DType }).dtype ?? opts.dtype;
    if (given !== undefined) checkDtype(given, who);
    let d: DType;
    if (given) d = given;
    else if (Array.isArray(data)) d = 'float64';
    else d = defaultDtypeOfArray(data as TypedArray, false);
    const C = storageCtor(d);
    const want = sizeOf(shape) * scalarsPerElement(d);
    checkData(data, d, who);
    if (data.length !== want) {
      throw new ShapeError(`${who}: shape ${fmtShape(shape)} of ${d} needs ${want} scalars, data holds ${data.length}`);
    }
    const arr = data instanceof C ? data : C.from(data as ArrayLike<number>);
    t = Tensor.fromStorage(d, shape, arr as never);
    if (opts.dtype && opts.dtype !== d) t = castCpu(t, opts.dtype, who);
  } else {
    throw new ArgumentError(`${who}: cannot make a tensor from ${Object.prototype.toString.call(value)}`);
  }
  if (opts.device && opts.device !== t.device) t = t.to(opts.device);
  return t as Tensor<D>;
}

function fromNested(value: readonly unknown[], dtype: DType | undefined, who: string): Tensor {
  const shape = inferShape(value, who);
  const cplx = hasComplexLeaf(value);
  const d: DType = dtype ?? (cplx ? 'complex128' : 'float64');
  if (cplx && !isComplex(d)) throw new DTypeError(`${who}: complex values cannot be stored as ${d}`);
  const t = Tensor.empty(d, shape);
  const out = t.dataSync() as TypedArray;
  const k = scalarsPerElement(d);
  let i = 0;
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) { for (const y of x) walk(y); return; }
    if (typeof x === 'number') { if (d === 'int32') checkInt32(x, who, i); out[i * k] = x; i++; return; }
    if (typeof x === 'boolean') { out[i * k] = x ? 1 : 0; i++; return; }
    if (isComplexLike(x)) { out[i * k] = x.re; out[i * k + 1] = x.im; i++; return; }
    throw new DTypeError(`${who}: element ${i} is ${show(x)}, expected a number or {re, im}`);
  };
  walk(value);
  return t;
}

/** Converts a CPU tensor to another dtype (real → complex sets im = 0; complex → real is refused). */
export function castCpu(t: Tensor, to: DType, who = 'cast'): Tensor {
  if (t.dtype === to) return t;
  if (isComplex(t.dtype) && !isComplex(to)) {
    throw new DTypeError(`${who}: casting ${t.dtype} to ${to} would drop the imaginary part`);
  }
  const src = t.dataSync();
  const out = Tensor.empty(to, t.shape);
  const dst = out.dataSync();
  if (isComplex(to) && !isComplex(t.dtype)) {
    for (let i = 0; i < src.length; i++) dst[2 * i] = src[i];
  } else if (to === 'int32' && t.dtype !== 'int32') {
    for (let i = 0; i < src.length; i++) checkInt32(src[i], who, i);
    dst.set(src);
  } else {
    dst.set(src);
  }
  return out;
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
  for (let b = 0; b < count; b++) for (let i = 0; i < Math.min(n, m); i++) s[(b * n * m + i * m + i) * k] = 1;
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
  if (d === 'int32') throw new DTypeError('randn: dtype int32 cannot hold normal samples; use a float dtype');
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
      return dtype && dtype !== v.dtype && v.device === 'cpu' ? castCpu(v, dtype, who) : v;
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
