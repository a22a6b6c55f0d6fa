// Outputs of the CPU entries (elementwise, reduce, indexing, special). Opt-in
// (LAPIS_HOST_CACHE=1): large ones come from the addon's cache of host blocks
// (native/binding/host_alloc.cpp), which stay mapped and faulted between outputs, instead of
// a fresh Buffer (an mmap, a fault per 4 KiB, an munmap at GC). Off by default: Node returns
// a collected block only between event-loop turns, so a synchronous loop of ops gains nothing
// and holds up to 256 MiB of dead outputs (docs/decisions.md). The outputs' ArrayBuffers are
// external: postMessage/structuredClone with a transfer list copies them instead of detaching.
import { scalarsPerElement, storageCtor, type DType, type StorageOf } from '../../core/dtype.js';
import { Tensor } from '../../core/tensor.js';
import { native } from './binding.js';

/** Outputs below this size stay ordinary Buffers (Node's allocator is fast there). */
export const HOST_CACHE_MIN_BYTES = 1 << 20;

let enabled = typeof process !== 'undefined' && process.env?.LAPIS_HOST_CACHE === '1';

/** Turns the output cache on or off (tests, experiments); returns the previous setting. */
export function setHostCache(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** An uninitialised CPU tensor for a kernel to overwrite completely. */
export function hostOutput<D extends DType>(dtype: D, shape: readonly number[]): Tensor<D> {
  if (enabled) {
    let n = scalarsPerElement(dtype);
    for (const d of shape) n *= d;
    const C = storageCtor(dtype);
    const bytes = n * C.BYTES_PER_ELEMENT;
    if (bytes >= HOST_CACHE_MIN_BYTES && Number.isSafeInteger(bytes)) {
      // null: external buffers refused (V8 sandbox), memory short, or the live bound reached
      const buffer = native().allocHost({ bytes });
      if (buffer) return Tensor.fromStorage(dtype, shape, new C(buffer, 0, n) as StorageOf<D>);
    }
  }
  return Tensor.uninit(dtype, shape);
}
