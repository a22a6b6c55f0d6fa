// Inputs from other libraries, recognised by duck typing (lapis depends on none of them):
// bare typed arrays, mathjs Matrix (Dense and Sparse), ml-matrix Matrix (and its views),
// scijs-ndarray-style { data, shape, stride, offset }. Each is turned into plain data that
// create.ts stores; `toMlMatrix` goes the other way (`toMathjs` is in src/complex/mathjs.ts).
import { type DType, DTYPES, isComplex } from './dtype.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError, fmtShape } from './errors.js';
import { show } from './options.js';
import { sizeOf, checkShape } from './shape.js';
import { asTensor, type TensorLike } from './create.js';
import { isComplexLike } from '../complex/complex.js';
import { halfToFloat64 } from './half.js';

/** The typed arrays `tensor()` takes as values (BigInt arrays and DataView are refused). */
export type NumericTypedArray =
  | Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array
  | Int8Array | Int16Array | Uint16Array | Uint8ClampedArray;

/** A mathjs Matrix (DenseMatrix or SparseMatrix): what the interop reads of it. */
export interface MathjsMatrixLike {
  size(): number[];
  toArray(): unknown;
  storage(): string;
}

/** An ml-matrix Matrix, one of its views (transpose, sub-matrix…) or a SymmetricMatrix. */
export interface MlMatrixLike {
  readonly rows: number;
  readonly columns: number;
  get(row: number, column: number): number;
}

/**
 * A scijs-ndarray-style strided window on flat data: element (i₀, i₁, …) is
 * `data[offset + Σ i_d·stride[d]]` (strides and offset in elements; a complex element,
 * stored as two scalars, counts once). Strides may be negative or 0.
 */
export interface StridedLike {
  data: NumericTypedArray | readonly (number | boolean)[];
  shape: readonly number[];
  stride?: readonly number[];
  offset?: number;
  /** A lapis dtype is honoured; other strings (scijs's 'array', 'uint8', …) are ignored. */
  dtype?: string;
}

/** The dtype a typed array is read as, or null when it must be converted (see `typedArrayDtype`). */
export function storageDtypeOf(a: ArrayBufferView): DType | null {
  if (a instanceof Float64Array) return 'float64';
  if (a instanceof Float32Array) return 'float32';
  if (a instanceof Int32Array) return 'int32';
  if (a instanceof Uint32Array) return 'uint32';
  return null;
}

/**
 * The dtype of a bare typed array: its own type for Float32/Float64/Int32/Uint32; the small
 * integer arrays (Int8, Int16, Uint8, Uint8Clamped, Uint16) become int32, exactly (a
 * Uint8Array is bytes, not booleans: `bool` would change every value above 1); Float16Array
 * becomes float32, exactly. BigInt64Array/BigUint64Array (no int64 in lapis) and DataView
 * are refused with a DTypeError naming the type.
 */
export function typedArrayDtype(a: ArrayBufferView, who: string): DType {
  const own = storageDtypeOf(a);
  if (own) return own;
  if (a instanceof Int8Array || a instanceof Int16Array || a instanceof Uint8Array ||
    a instanceof Uint8ClampedArray || a instanceof Uint16Array) return 'int32';
  const name = a?.constructor?.name ?? 'ArrayBufferView';
  if (name === 'Float16Array') return 'float32';
  throw new DTypeError(
    `${who}: a ${name} is not supported (lapis has float32, float64, int32, uint32 and bool storage, no 64-bit integers); ` +
    'convert it to a Float64Array or Int32Array first',
  );
}

export function isNumericTypedArray(v: unknown): v is NumericTypedArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

export function isMathjsMatrix(v: unknown): v is MathjsMatrixLike {
  const m = v as Partial<MathjsMatrixLike> | null;
  return typeof v === 'object' && m !== null && typeof m.size === 'function' &&
    typeof m.toArray === 'function' && typeof m.storage === 'function';
}

export function isMlMatrix(v: unknown): v is MlMatrixLike {
  const m = v as Partial<MlMatrixLike> & { to2DArray?: unknown } | null;
  return typeof v === 'object' && m !== null && typeof m.rows === 'number' && typeof m.columns === 'number' &&
    typeof m.get === 'function' && typeof m.to2DArray === 'function';
}

/** True for `{ data, shape }` objects that also carry a `stride` or an `offset` (getters count). */
export function isStrided(v: unknown): v is StridedLike {
  return typeof v === 'object' && v !== null && 'data' in v && 'shape' in v &&
    (('stride' in v && (v as StridedLike).stride !== undefined) || ('offset' in v && (v as StridedLike).offset !== undefined));
}

/**
 * A mathjs Matrix as nested arrays of numbers, booleans and {re, im} (SparseMatrix too:
 * converted to dense). BigNumber and Fraction entries become the nearest float64; other
 * entries (Unit, string) are refused with a DTypeError naming their type.
 */
export function mathjsToNested(m: MathjsMatrixLike, who: string): unknown[] {
  const conv = (x: unknown, at: () => string): unknown => {
    if (Array.isArray(x)) return x.map((y, i) => conv(y, () => `${at()}[${i}]`));
    if (typeof x === 'number' || typeof x === 'boolean' || isComplexLike(x)) return x;
    const o = x as { isBigNumber?: boolean; isFraction?: boolean; toNumber?: () => number; valueOf(): unknown; type?: string };
    if (o && o.isBigNumber === true && typeof o.toNumber === 'function') return o.toNumber();
    if (o && o.isFraction === true) return Number(o.valueOf());
    const kind = o && typeof o.type === 'string' ? `a mathjs ${o.type}` : show(x);
    throw new DTypeError(`${who}: mathjs matrix entry ${at()} is ${kind}, expected a number, boolean or complex`);
  };
  const arr = m.toArray();
  if (!Array.isArray(arr)) throw new ArgumentError(`${who}: the mathjs matrix's toArray() did not return an array`);
  return conv(arr, () => '') as unknown[];
}

/** An ml-matrix matrix (any view) as float64 data of shape [rows, columns], read through get(). */
export function mlMatrixToData(m: MlMatrixLike, who: string): { data: Float64Array; shape: number[] } {
  const shape = [m.rows, m.columns];
  checkShape(shape, who);
  const data = new Float64Array(m.rows * m.columns);
  for (let i = 0; i < m.rows; i++) {
    for (let j = 0; j < m.columns; j++) {
      const v = m.get(i, j);
      if (typeof v !== 'number') throw new DTypeError(`${who}: ml-matrix entry (${i}, ${j}) is ${show(v)}, expected a number`);
      data[i * m.columns + j] = v;
    }
  }
  return { data, shape };
}

/** The `dtype` field of a strided input if it names a lapis dtype (scijs names like 'array' are ignored). */
export function stridedDtype(v: StridedLike): DType | undefined {
  const d = v.dtype;
  return typeof d === 'string' && DTYPES.includes(d as DType) ? (d as DType) : undefined;
}

/**
 * Gathers a strided window into contiguous row-major scalars (the layout `tensor()` stores).
 * `k` scalars per element (2 for complex, interleaved). Every index the window reaches is
 * checked against `data` first: a stride or offset pointing outside is an ArgumentError
 * naming `stride`/`offset`, never a read of garbage.
 */
export function gatherStrided(
  v: StridedLike, k: 1 | 2, who: string,
): { data: unknown[] | NumericTypedArray; shape: number[] } {
  const { data } = v;
  checkShape(v.shape, who);
  const shape = [...v.shape];
  const n = shape.length;
  const rowMajor: number[] = new Array(n);
  for (let d = n - 1, s = 1; d >= 0; d--) { rowMajor[d] = s; s *= shape[d]; }
  const stride = v.stride === undefined ? rowMajor : v.stride;
  const offset = v.offset === undefined ? 0 : v.offset;
  if (!Array.isArray(stride) && !(ArrayBuffer.isView(stride) && !(stride instanceof DataView))) {
    throw new ArgumentError(`${who}: stride must be an array of integers (one per dim), got ${show(stride)}`);
  }
  const st = Array.from(stride as ArrayLike<number>);
  if (st.length !== n || !st.every((s) => Number.isSafeInteger(s))) {
    throw new ArgumentError(`${who}: stride ${show(stride)} must hold ${n} integers, one per dim of shape ${show(shape)}`);
  }
  if (!Number.isSafeInteger(offset)) throw new ArgumentError(`${who}: offset must be an integer, got ${show(offset)}`);
  if (!Array.isArray(data) && !isNumericTypedArray(data)) {
    throw new DTypeError(`${who}: data must be a numeric typed array or an array of numbers, got ${show(data)}`);
  }
  const len = Math.floor((data as ArrayLike<unknown>).length / k);
  const size = sizeOf(shape);
  if (size > 0) {
    let lo = offset, hi = offset;
    for (let d = 0; d < n; d++) {
      const reach = st[d] * (shape[d] - 1);
      if (reach < 0) lo += reach; else hi += reach;
    }
    if (lo < 0 || hi >= len) {
      const what = offset < 0 || offset >= len ? 'offset' : 'stride';
      throw new ArgumentError(
        `${who}: ${what} out of bounds: shape ${fmtShape(shape)} with stride [${st.join(', ')}] and offset ${offset} ` +
        `reaches elements ${lo}..${hi}, data holds ${len}`,
      );
    }
  }
  const src = data as ArrayLike<unknown>;
  const out: unknown[] = new Array(size * k);
  const idx = new Array<number>(n).fill(0);
  for (let flat = 0, at = offset; flat < size; flat++) {
    for (let c = 0; c < k; c++) out[flat * k + c] = src[at * k + c];
    // odometer step over the shape, moving `at` by the strides
    for (let d = n - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) { at += st[d]; break; }
      at -= st[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
  if (isNumericTypedArray(data)) {
    const C = data.constructor as unknown as { from(a: unknown[]): NumericTypedArray };
    return { data: C.from(out), shape };
  }
  return { data: out, shape };
}

/** An ml-matrix Matrix class, or any instance of it (the caller passes it: no runtime dependency). */
export type MlMatrixClass<M> = (new (rows: number, columns: number) => M) | M;

/**
 * Converts a real 1-D or 2-D CPU tensor (or anything `tensor()` takes) into an ml-matrix Matrix
 * of the class you pass (a 1-D tensor becomes one row). ml-matrix holds float64 real
 * values: complex tensors are refused; bool becomes 0/1.
 *
 * Syntax: `toMlMatrix(t, Matrix)` with `import { Matrix } from 'ml-matrix'`.
 * Example: `toMlMatrix(tensor([[1, 2], [3, 4]]), Matrix).get(1, 0)` → 3.
 * Throws: DTypeError for a complex tensor; ShapeError for more than 2 dims; DeviceError
 * for a GPU tensor (read it first: `await t.toAsync('cpu')`); ArgumentError when
 * MatrixClass is not an ml-matrix class or instance.
 * See also: `toMathjs`, `tensor` (which accepts ml-matrix matrices).
 */
export function toMlMatrix<M extends { set(row: number, column: number, value: number): unknown }>(
  t: TensorLike,
  MatrixClass: MlMatrixClass<M>,
): M {
  const who = 'toMlMatrix';
  const Ctor = (typeof MatrixClass === 'function' ? MatrixClass : (MatrixClass as { constructor?: unknown })?.constructor) as
    (new (rows: number, columns: number) => M) | undefined;
  if (typeof Ctor !== 'function' || typeof (Ctor.prototype as { set?: unknown })?.set !== 'function') {
    throw new ArgumentError(`${who}: MatrixClass must be ml-matrix's Matrix class (or a matrix instance), got ${show(MatrixClass)}`);
  }
  // asTensor comes from create.ts, which imports this file: used at call time only, so the cycle is harmless.
  const x = asTensor(t, who, 't');
  if (x.device !== 'cpu') throw new DeviceError(`${who}: t lives on the GPU; read it first with \`await t.toAsync('cpu')\``);
  if (isComplex(x.dtype)) throw new DTypeError(`${who}: t is ${x.dtype}; ml-matrix holds real numbers only`);
  const shape = x.shape;
  const data = x.dtype === 'float16' ? halfToFloat64(x.dataSync() as Uint16Array) : x.dataSync(); // float16 storage is bits
  if (shape.length > 2) throw new ShapeError(`${who}: t is ${fmtShape(shape)}; an ml-matrix Matrix has 2 dims`);
  const rows = shape.length === 2 ? shape[0] : 1;
  const cols = shape.length === 2 ? shape[1] : shape.length === 1 ? shape[0] : 1;
  const out = new Ctor(rows, cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out.set(i, j, data[i * cols + j]);
  return out;
}
