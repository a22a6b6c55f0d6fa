import {
  type DType, type Device, type StorageOf, isComplex, scalarsPerElement, storageCtor, bytesPerScalar,
} from './dtype.js';
import { DeviceError, DTypeError, ShapeError, fmtShape } from './errors.js';
import { checkArg, opt, show } from './options.js';
import { sizeOf, checkShape } from './shape.js';
import { Complex, isComplexLike } from '../complex/complex.js';
import { lookup } from '../backend/registry.js';
import { formatTensor, formatTensorMeta } from './format.js';
import { fromHalfBits } from './half.js';
import { taping, gradCall, refuseTracked } from './grad.js';

/**
 * A GPU allocation as the core sees it: the GPU backend owns the real GPUBuffer and
 * returns it to its pool on `release()`.
 */
export interface GpuStorage {
  readonly buffer: unknown;
  /** Bytes of tensor data (the buffer itself may be larger: pool buckets). */
  readonly byteLength: number;
  release(): void;
}

type Storage<D extends DType> = StorageOf<D>;

/** An empty view cannot tell a detached buffer by its length; any access throws then (Node 20 has no `detached`). */
function isDetached(a: { at(i: number): unknown }): boolean {
  try {
    a.at(0);
    return false;
  } catch {
    return true;
  }
}

/* GPU tensors dropped without dispose() still give their buffer back to the pool. */
const gpuFinalizer = new FinalizationRegistry<GpuStorage>((s) => s.release());

/**
 * A dense row-major tensor: batch dims…, then (m, n) for matrices. Complex dtypes store
 * interleaved (re, im) scalars. CPU tensors own a typed array; GPU tensors own a pooled
 * buffer (call `dispose()` in hot loops; a FinalizationRegistry is only a safety net).
 */
export class Tensor<D extends DType = DType> {
  readonly dtype: D;
  readonly shape: readonly number[];
  readonly device: Device;
  private _cpu: Storage<D> | undefined;
  private _gpu: GpuStorage | undefined;
  private _disposed = false;
  /**
   * Deferred numerical check of a GPU result (LinAlgError for a singular member): GPU
   * work is asynchronous, so the throwing variants report at the first read, as CUDA does.
   */
  private _check: (() => Promise<void>) | undefined;
  /** Scalars the storage must hold (shape is frozen), so alive() on every storage read does not recount them. */
  private readonly _scalars: number;

  private constructor(dtype: D, shape: readonly number[], device: Device, cpu?: Storage<D>, gpu?: GpuStorage) {
    this.dtype = dtype;
    this.shape = Object.freeze([...shape]);
    this.device = device;
    this._scalars = sizeOf(this.shape) * scalarsPerElement(dtype);
    this._cpu = cpu;
    this._gpu = gpu;
    if (gpu) gpuFinalizer.register(this, gpu, this);
  }

  /** Wraps CPU storage without copying. The array length must match the shape. */
  static fromStorage<D extends DType>(dtype: D, shape: readonly number[], data: Storage<D>): Tensor<D> {
    checkArg('tensor', 'dtype', dtype, opt.dtype());
    checkShape(shape, 'tensor');
    const want = sizeOf(shape) * scalarsPerElement(dtype);
    const C = storageCtor(dtype);
    if (!(data instanceof C)) {
      throw new DTypeError(`tensor: ${dtype} needs a ${C.name}, got ${data?.constructor?.name ?? typeof data}`);
    }
    if (data.length !== want) {
      throw new ShapeError(
        `tensor: shape ${fmtShape(shape)} of ${dtype} needs ${want} scalars, the array holds ${data.length}`,
      );
    }
    return new Tensor(dtype, shape, 'cpu', data);
  }

  /** Wraps a GPU allocation (GPU backend use). */
  static fromGpu<D extends DType>(dtype: D, shape: readonly number[], storage: GpuStorage): Tensor<D> {
    checkShape(shape, 'tensor');
    return new Tensor(dtype, shape, 'gpu', undefined, storage);
  }

  /** Allocates zeroed CPU storage (`who` names the caller in errors). */
  static empty<D extends DType>(dtype: D, shape: readonly number[], who = 'tensor'): Tensor<D> {
    checkArg(who, 'dtype', dtype, opt.dtype());
    checkShape(shape, who);
    const C = storageCtor(dtype);
    return new Tensor(dtype, shape, 'cpu', allocate(() => new C(sizeOf(shape) * scalarsPerElement(dtype)), dtype, shape, who) as Storage<D>);
  }

  /**
   * Allocates CPU storage without zeroing it, for outputs a kernel overwrites completely.
   * Zero-filling a fresh typed array costs as much as a 64×64 GEMM; Node's unsafe
   * allocation skips it (elsewhere this falls back to a zeroed array).
   */
  static uninit<D extends DType>(dtype: D, shape: readonly number[]): Tensor<D> {
    checkShape(shape, 'tensor');
    const C = storageCtor(dtype);
    const n = sizeOf(shape) * scalarsPerElement(dtype);
    const B = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array } }).Buffer;
    if (!B || n === 0) return new Tensor(dtype, shape, 'cpu', allocate(() => new C(n), dtype, shape, 'tensor') as Storage<D>);
    const bytes = allocate(() => B.allocUnsafeSlow(n * C.BYTES_PER_ELEMENT), dtype, shape, 'tensor');
    return new Tensor(dtype, shape, 'cpu', new C(bytes.buffer as ArrayBuffer, bytes.byteOffset, n) as Storage<D>);
  }

  get ndim(): number { return this.shape.length; }
  /** Number of elements (a complex number counts once). */
  get size(): number { return sizeOf(this.shape); }
  get isDisposed(): boolean { return this._disposed; }
  /** Rows and columns of the trailing matrix. */
  get rows(): number { return this.shape[this.shape.length - 2] ?? 1; }
  get cols(): number { return this.shape[this.shape.length - 1] ?? 1; }
  /** Leading (batch) dims. */
  get batchShape(): number[] { return this.shape.slice(0, -2); }

  /** @internal Throws DeviceError naming `who` when the tensor was disposed. */
  alive(who: string): void {
    if (this._disposed) throw new DeviceError(`${who}: the tensor was disposed`);
    // A transferred (detached) or shrunk resizable buffer leaves the view shorter than the shape.
    if (this._cpu && (this._cpu.length !== this._scalars || (this._cpu.length === 0 && isDetached(this._cpu)))) {
      throw new DeviceError(`${who}: the tensor's ArrayBuffer was detached (transferred) or resized; its data is gone`);
    }
  }

  /**
   * The CPU storage itself (no copy). Throws for GPU tensors: use `await data()`.
   * float16: the Uint16Array of IEEE binary16 bits (`fromHalfBits` in src/core/half.ts reads them).
   */
  dataSync(): Storage<D> {
    this.alive('dataSync');
    if (this.device !== 'cpu') {
      throw new DeviceError('dataSync: the tensor lives on the GPU; use `await t.data()` or `t.to("cpu")` after reading');
    }
    return this._cpu!;
  }

  /** The data on the host, from any device. For GPU tensors this is a copy. float16: the bits, as `dataSync`. */
  async data(): Promise<Storage<D>> {
    this.alive('data');
    if (this._check) {
      const c = this._check;
      this._check = undefined;
      await c();
    }
    if (this.device === 'cpu') return this._cpu!;
    const download = lookup('download', this.dtype, 'gpu', 'data');
    return (await download(this)) as Storage<D>;
  }

  /** The GPU allocation (GPU backend use). */
  gpuStorage(): GpuStorage {
    this.alive('gpuStorage');
    if (!this._gpu) throw new DeviceError('gpuStorage: the tensor is on the CPU');
    return this._gpu;
  }

  /** Attaches a deferred numerical check (GPU backend use). */
  setCheck(check: () => Promise<void>): this {
    // Runs once however many tensors carry it (a result and its input may both be read):
    // later reads see the same outcome instead of re-reading a status buffer already freed.
    // A second check chains after the first (replacing it would drop a pending error).
    let outcome: Promise<void> | undefined;
    const prev = this._check;
    this._check = prev ? () => (outcome ??= prev().then(check)) : () => (outcome ??= check());
    return this;
  }

  /**
   * Drops the deferred check of contents that an op has just overwritten in place without
   * reading them (GPU backend use: an `out` argument); the check concerned the old contents.
   */
  dropCheck(): this {
    this._check = undefined;
    return this;
  }

  /** The deferred check not yet run, for a tensor derived from this one to carry (GPU backend use). */
  pendingCheck(): (() => Promise<void>) | undefined {
    return this._check;
  }

  /**
   * Copies to `device`. To the GPU: needs `await gpu.init()` first (device creation is
   * asynchronous in WebGPU). From the GPU use `await toAsync('cpu')`.
   */
  to(device: Device): Tensor<D> {
    checkArg('to', 'device', device, opt.device);
    this.alive('to');
    if (device === this.device) return this;
    refuseTracked('to', [this], 'move the arguments to one device before differentiating');
    if (device === 'gpu') return lookup('upload', this.dtype, 'gpu', 'to')(this) as Tensor<D>;
    throw new DeviceError('to: reading a GPU tensor is asynchronous; use `await t.toAsync("cpu")`');
  }

  async toAsync(device: Device): Promise<Tensor<D>> {
    checkArg('toAsync', 'device', device, opt.device);
    this.alive('toAsync');
    if (device === this.device) return this;
    refuseTracked('toAsync', [this], 'move the arguments to one device before differentiating');
    if (device === 'gpu') return this.to('gpu');
    const d = await this.data();
    return new Tensor(this.dtype, this.shape, 'cpu', (d === this._cpu ? d.slice() : d) as Storage<D>);
  }

  /**
   * Same storage, new shape (CPU: no copy). One dim may be −1: it is inferred from the
   * size, as in torch (`t.reshape([-1, 4])`). Throws ShapeError for a shape that is not
   * an array of non-negative integers (besides the one −1) or holds a different size.
   */
  reshape(shape: readonly number[]): Tensor<D> {
    if (taping()) return gradCall('reshape', (x: Tensor<D>, s: readonly number[]) => x.reshape(s), [this, shape]);
    this.alive('reshape');
    shape = inferReshape(shape, this.shape);
    if (this.device === 'cpu') return new Tensor(this.dtype, shape, 'cpu', this._cpu);
    return lookup('reshape', this.dtype, 'gpu', 'reshape')(this, shape) as Tensor<D>;
  }

  /**
   * Nested arrays: numbers, `Complex` for complex dtypes, booleans for bool (as torch's and
   * numpy's tolist(); `tensor()` reads them back as bool). CPU only; see `toArrayAsync`.
   */
  toArray(): NestedArray {
    return nest(this.dataSync(), this.shape, this.dtype);
  }

  /** `toArray()` for any device (GPU tensors are read first), every dtype. */
  async toArrayAsync(): Promise<NestedArray> {
    return nest(await this.data(), this.shape, this.dtype);
  }

  /** Frees the storage now (GPU buffers go back to the pool). Safe to call twice. */
  dispose(): void {
    if (this._disposed) return;
    this._disposed = true;
    if (this._gpu) {
      gpuFinalizer.unregister(this);
      this._gpu.release();
      this._gpu = undefined;
    }
    this._cpu = undefined;
  }

  /** Bytes of the data. */
  get byteLength(): number {
    return this.size * scalarsPerElement(this.dtype) * bytesPerScalar(this.dtype);
  }

  /**
   * The values as torch prints them (`tensor([[1.0000, 2.5000],\n        [3.0000, 4.0000]],
   * dtype=float32)`, src/core/format.ts). A GPU tensor cannot be read synchronously: its
   * metadata and a pointer to `await t.toStringAsync()`. Never throws.
   */
  toString(): string {
    if (this._disposed) return formatTensorMeta(this.shape, this.dtype, this.device, 'disposed');
    if (this.device !== 'cpu') {
      return formatTensorMeta(this.shape, this.dtype, this.device, 'on the GPU: await t.toStringAsync()');
    }
    try {
      return formatTensor(this.dataSync(), this.shape, this.dtype, this.device);
    } catch (e) {
      return formatTensorMeta(this.shape, this.dtype, this.device, (e as Error).message.replace(/^\w+: /, ''));
    }
  }

  /** `toString()` with the values, from any device (GPU tensors are read first). */
  async toStringAsync(): Promise<string> {
    return formatTensor(await this.data(), this.shape, this.dtype, this.device);
  }

  /** Node's `util.inspect` and `console.log` print what `toString()` does. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

export type NestedArray = number | boolean | Complex | NestedArray[];

/** `shape` with its one −1 (if any) resolved against `from`; checked to hold the same size. */
function inferReshape(shape: readonly number[], from: readonly number[]): number[] {
  if (!Array.isArray(shape)) throw new ShapeError(`reshape: shape must be an array of integers, got ${show(shape)}`);
  const size = sizeOf(from);
  const free = shape.indexOf(-1);
  if (free >= 0 && shape.indexOf(-1, free + 1) >= 0) throw new ShapeError(`reshape: shape ${show(shape)} has more than one -1`);
  const out = [...shape];
  if (free >= 0) {
    out[free] = 1;
    checkShape(out, 'reshape');
    const rest = sizeOf(out);
    if (rest === 0 || size % rest !== 0) {
      throw new ShapeError(`reshape: cannot view ${fmtShape(from)} (${size} elements) as ${show(shape)}`);
    }
    out[free] = size / rest;
  }
  checkShape(out, 'reshape');
  if (sizeOf(out) !== size) throw new ShapeError(`reshape: cannot view ${fmtShape(from)} as ${fmtShape(out)}`);
  return out;
}

/** Runs an allocation; the engine's RangeError (too long, out of memory) becomes a ShapeError naming the shape. */
function allocate<T>(f: () => T, dtype: DType, shape: readonly number[], who: string): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new ShapeError(`${who}: cannot allocate ${fmtShape(shape)} of ${dtype} (${sizeOf(shape)} elements): ${e.message}`);
  }
}

function nest(data: ArrayLike<number>, shape: readonly number[], dtype: DType): NestedArray {
  const cplx = isComplex(dtype);
  const k = cplx ? 2 : 1;
  const bool = dtype === 'bool', half = dtype === 'float16';
  const rec = (dim: number, off: number): NestedArray => {
    if (dim === shape.length) {
      return cplx ? new Complex(data[off * k], data[off * k + 1]) : bool ? data[off] !== 0 : half ? fromHalfBits(data[off]) : data[off];
    }
    const out: NestedArray[] = [];
    const stride = sizeOf(shape.slice(dim + 1));
    for (let i = 0; i < shape[dim]; i++) out.push(rec(dim + 1, off + i * stride));
    return out;
  };
  return rec(0, 0);
}

/** Shape of a nested array, checking it is rectangular. */
export function inferShape(v: unknown, who = 'tensor'): number[] {
  const shape: number[] = [];
  let cur: unknown = v;
  while (Array.isArray(cur)) {
    shape.push(cur.length);
    if (cur.length === 0) break;
    cur = cur[0];
  }
  const check = (x: unknown, d: number): void => {
    if (d === shape.length) {
      if (Array.isArray(x)) throw new ShapeError(`${who}: ragged nested array (too deep at depth ${d})`);
      return;
    }
    if (!Array.isArray(x) || x.length !== shape[d]) {
      throw new ShapeError(`${who}: ragged nested array: expected length ${shape[d]} at depth ${d}`);
    }
    for (const y of x) check(y, d + 1);
  };
  check(v, 0);
  return shape;
}

/** True when any leaf is complex-like. */
export function hasComplexLeaf(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasComplexLeaf);
  return isComplexLike(v);
}
