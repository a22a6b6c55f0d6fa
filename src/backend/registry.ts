import type { DType, Device } from '../core/dtype.js';
import { DTypeError, DeviceError, ShapeError } from '../core/errors.js';
import type { OpName, OpSignatures } from './ops.js';

/**
 * (op, dtype, device) → implementation, typed by ops.ts: `register('svd', …, impl)` only
 * compiles when impl has OpSignatures['svd'], and `lookup('svd', …)` returns that type.
 * Public functions validate, then call `lookup` and the entry they get; they never branch
 * on the device themselves. The package entry fills the default registry once
 * (registerAll.ts); a `new Registry()` is for tests.
 */
export class Registry {
  // op → device → dtype → OpSignatures[op] (register is the only writer): lookup runs on every
  // call of every op, and three Map reads of constant (hash-cached) strings cost a tenth of
  // building and hashing one "op|dtype|device" key.
  private readonly byOp = new Map<string, Map<string, Map<string, unknown>>>();

  register<K extends OpName>(op: K, dtypes: readonly DType[], device: Device, impl: OpSignatures[K]): void {
    impl = namingOutOfMemory(op, impl);
    let byDevice = this.byOp.get(op);
    if (!byDevice) this.byOp.set(op, (byDevice = new Map()));
    let byDtype = byDevice.get(device);
    if (!byDtype) byDevice.set(device, (byDtype = new Map()));
    for (const d of dtypes) byDtype.set(d, impl);
  }

  has<K extends OpName>(op: K, dtype: DType, device: Device): boolean {
    return this.byOp.get(op)?.get(device)?.has(dtype) ?? false;
  }

  /**
   * The implementation, or a typed error naming `who` (the public function): DTypeError
   * for float16 (storage only: moves and cast), float64 on the GPU or a dtype the device lacks, DeviceError for an op the device
   * does not implement (say pinv of a GPU tensor), before any work starts.
   */
  lookup<K extends OpName>(op: K, dtype: DType, device: Device, who: string = op): OpSignatures[K] {
    const f = this.byOp.get(op)?.get(device)?.get(dtype);
    if (f !== undefined) return f as OpSignatures[K];
    if (this.byOp.size === 0) {
      throw new DeviceError(`${who}: no backend is registered; import lapis (src/index.ts) or lapis/gdn, whose entry registers them`);
    }
    if (dtype === 'float16') {
      throw new DTypeError(
        `${who}: float16 is a storage dtype (no ${op} kernel on the ${device.toUpperCase()}); cast the input to float32 first (x.cast('float32'))`,
      );
    }
    if (device === 'gpu' && (dtype === 'float64' || dtype === 'complex128')) {
      throw new DTypeError(
        `${who}: ${dtype} is not supported on the GPU (WGSL has no f64); use float32/complex64 or move the tensor to the CPU`,
      );
    }
    const others = this.entries().filter((e) => e.op === op).map((e) => `${e.dtype} on ${e.device}`);
    if (others.length === 0) throw new DeviceError(`${who}: no implementation registered for ${dtype} on ${device}`);
    const sameDevice = others.filter((o) => o.endsWith(` on ${device}`));
    if (sameDevice.length > 0) {
      throw new DTypeError(`${who}: dtype ${dtype} is not supported on ${device} (supported: ${sameDevice.join(', ')})`);
    }
    throw new DeviceError(`${who}: not available on ${device} (available: ${others.join(', ')})`);
  }

  /** Every registered (op, dtype, device), for docs and tests. */
  entries(): Array<{ op: OpName; dtype: DType; device: Device }> {
    const out: Array<{ op: OpName; dtype: DType; device: Device }> = [];
    for (const [op, byDevice] of this.byOp) {
      for (const [device, byDtype] of byDevice) {
        for (const dtype of byDtype.keys()) out.push({ op: op as OpName, dtype: dtype as DType, device: device as Device });
      }
    }
    return out;
  }
}

/** A message that already names its op ("luFactor: out of memory for a …", the addon's). */
const NAMED = /^[A-Za-z][\w.]*: /;

/**
 * impl, with a bare RangeError (the engine's "Array buffer allocation failed" from a `new
 * Float64Array` deep in a kernel's JavaScript, or the addon's) turned into a ShapeError that
 * keeps a message naming its op or names the entry's, thrown or rejected: running out of
 * memory is a typed error naming the operation.
 */
function namingOutOfMemory<K extends OpName>(op: K, impl: OpSignatures[K]): OpSignatures[K] {
  const name = (e: unknown): unknown =>
    e instanceof RangeError && e.constructor === RangeError
      ? new ShapeError(NAMED.test(e.message) ? e.message : `${op}: cannot allocate (${e.message})`, { cause: e })
      : e;
  const f = impl as unknown as (...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    let r: unknown;
    try {
      r = f.apply(this, args);
    } catch (e) {
      throw name(e);
    }
    return r instanceof Promise ? r.catch((e: unknown) => { throw name(e); }) : r;
  };
  return wrapped as unknown as OpSignatures[K];
}

/** The registry every public function uses. */
export const registry = new Registry();

export function register<K extends OpName>(op: K, dtypes: readonly DType[], device: Device, impl: OpSignatures[K]): void {
  registry.register(op, dtypes, device, impl);
}

export function has<K extends OpName>(op: K, dtype: DType, device: Device): boolean {
  return registry.has(op, dtype, device);
}

export function lookup<K extends OpName>(op: K, dtype: DType, device: Device, who?: string): OpSignatures[K] {
  return registry.lookup(op, dtype, device, who);
}

export function entries(): Array<{ op: OpName; dtype: DType; device: Device }> {
  return registry.entries();
}
