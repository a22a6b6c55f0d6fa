import type { DType, Device } from '../core/dtype.js';
import { DTypeError, DeviceError } from '../core/errors.js';

/**
 * (op, dtype, device) → implementation. Public functions validate, then call `lookup` and
 * the entry they get; they never branch on the device themselves. Entries are added only
 * by the backends' register functions, called once from `registerAll.ts`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Impl = (...args: any[]) => any;

const table = new Map<string, Impl>();
const key = (op: string, dtype: DType, device: Device) => `${op}|${dtype}|${device}`;

export function register(op: string, dtypes: readonly DType[], device: Device, impl: Impl): void {
  for (const d of dtypes) table.set(key(op, d, device), impl);
}

export function has(op: string, dtype: DType, device: Device): boolean {
  return table.has(key(op, dtype, device));
}

/** The implementation, or a typed error that says which dtype/device pairs exist. */
export function lookup<F extends Impl = Impl>(op: string, dtype: DType, device: Device, who = op): F {
  const f = table.get(key(op, dtype, device));
  if (f) return f as F;
  if (device === 'gpu' && (dtype === 'float64' || dtype === 'complex128')) {
    throw new DTypeError(
      `${who}: ${dtype} is not supported on the GPU (WGSL has no f64); use float32/complex64 or move the tensor to the CPU`,
    );
  }
  const others = [...table.keys()].filter((k) => k.startsWith(`${op}|`)).map((k) => k.split('|').slice(1).join(' on '));
  if (others.length === 0) throw new DeviceError(`${who}: no implementation registered for ${dtype} on ${device}`);
  const sameDevice = others.filter((o) => o.endsWith(` on ${device}`));
  if (sameDevice.length > 0) {
    throw new DTypeError(`${who}: dtype ${dtype} is not supported on ${device} (supported: ${sameDevice.join(', ')})`);
  }
  throw new DeviceError(`${who}: not available on ${device} (available: ${others.join(', ')})`);
}

/** Every registered (op, dtype, device), for docs and tests. */
export function entries(): Array<{ op: string; dtype: DType; device: Device }> {
  return [...table.keys()].map((k) => {
    const [op, dtype, device] = k.split('|');
    return { op, dtype: dtype as DType, device: device as Device };
  });
}
