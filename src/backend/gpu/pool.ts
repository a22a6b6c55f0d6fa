/// <reference types="@webgpu/types" />
// Pooled GPU buffers. Allocations are rounded up to size buckets (four per power of
// two, so at most 25% slack) and go back to a free list on release; a cap bounds the
// bytes kept idle. A buffer released while recorded-but-unsubmitted commands may still
// use it is parked until the submit, so a later `queue.writeBuffer` into its next owner
// cannot overtake those commands.
import type { GpuStorage } from '../../core/tensor.js';
import { DeviceError } from '../../core/errors.js';
import { gpuDevice, gpuLimits, onDeviceReset } from './device.js';
import { hasPending, onAfterSubmit } from './queue.js';

const USAGE_STORAGE = 0x80 | 0x04 | 0x08; // STORAGE | COPY_SRC | COPY_DST
const MIN_BUCKET = 256;

export interface PoolStats {
  /** Bytes of buffers held by live tensors (bucket sizes). */
  bytesLive: number;
  /** Bytes of idle buffers kept for reuse. */
  bytesPooled: number;
  buffersLive: number;
  buffersPooled: number;
  /** Buffers created since start (a flat count in a loop means reuse works). */
  buffersCreated: number;
  /** Cap on `bytesPooled`. */
  maxPooledBytes: number;
}

/** Bucket size for a request: the next of 2^k·{1, 1.25, 1.5, 1.75} at or above it. */
export function bucketSize(bytes: number): number {
  if (bytes <= MIN_BUCKET) return MIN_BUCKET;
  const p = 2 ** Math.floor(Math.log2(bytes));
  const step = p / 4;
  return Math.ceil(bytes / step) * step;
}

class Allocation {
  refs = 1;
  constructor(readonly buffer: GPUBuffer, readonly size: number, readonly generation: number) {}
}

/** A tensor's handle on an allocation: `release()` drops this handle once. */
class PooledStorage implements GpuStorage {
  private released = false;
  constructor(private readonly alloc: Allocation, readonly byteLength: number) {}
  get buffer(): GPUBuffer {
    if (this.released) throw new DeviceError('gpu: the buffer was released (tensor disposed)');
    if (this.alloc.generation !== pool.generation) {
      throw new DeviceError('gpu: the tensor belongs to a GPU device that was lost or destroyed; its data is gone');
    }
    return this.alloc.buffer;
  }
  /** Another handle on the same buffer (a reshape shares storage). */
  share(byteLength = this.byteLength): PooledStorage {
    if (this.released) throw new DeviceError('gpu: the buffer was released (tensor disposed)');
    this.alloc.refs++;
    return new PooledStorage(this.alloc, byteLength);
  }
  release(): void {
    if (this.released) return;
    this.released = true;
    if (--this.alloc.refs === 0) pool.giveBack(this.alloc);
  }
}

class BufferPool {
  private free = new Map<number, GPUBuffer[]>();
  /** Idle buffers oldest first (Map keeps insertion order): the eviction order. */
  private idle = new Map<GPUBuffer, number>();
  /** Released while recorded commands may still use them, by bucket size (see `acquire`). */
  private parked = new Map<number, Allocation[]>();
  /** Bumped when the device goes away: allocations of older generations are dead. */
  generation = 0;
  /** Set by `gpu.memory({ maxPooledBytes })`; otherwise the cap follows the allocations. */
  userCap: number | undefined;
  /**
   * Default idle cap: 1 GiB, or twice the largest bucket handed out, whichever is larger, so
   * a loop over one large op keeps both its outputs (say a 1 GiB result and its info
   * buffer) instead of the two evicting each other and being re-created every call.
   */
  private autoCap = 1 << 30;
  get maxPooledBytes(): number { return this.userCap ?? this.autoCap; }
  bytesLive = 0;
  bytesPooled = 0;
  buffersLive = 0;
  buffersPooled = 0;
  buffersCreated = 0;

  /**
   * A buffer of at least `byteLength` bytes. `ordered`: the caller touches it only through
   * commands recorded into the shared encoder (a kernel output), never by a queue write or
   * a mapping; such a request may take a buffer released since the last submit, because
   * the encoder orders its new use after the commands that still use it (torch's caching
   * allocator reuses a freed block on the same stream the same way). A loop of calls
   * that dispose their results then writes one buffer over and over instead of cycling
   * through a fresh one per call until the submit (on an H200, 50 chunk solves per sync
   * ran 2× slower that way, and 16.7M-matrix inverses at 5 per sync piled up gigabytes).
   */
  acquire(byteLength: number, who: string, ordered = false): PooledStorage {
    const device = gpuDevice(who);
    const limits = gpuLimits(who);
    const size = bucketSize(Math.max(4, byteLength));
    if (byteLength > limits.maxBufferSize || byteLength > limits.maxStorageBufferBindingSize) {
      throw new DeviceError(
        `${who}: a GPU buffer of ${byteLength} bytes exceeds this adapter's limit (maxStorageBufferBindingSize ${limits.maxStorageBufferBindingSize}, maxBufferSize ${limits.maxBufferSize})`,
      );
    }
    if (2 * size > this.autoCap) this.autoCap = 2 * size;
    if (ordered) {
      const p = this.parked.get(size)?.pop();
      // Still counted live: the handle moves to the new owner.
      if (p) return new PooledStorage(new Allocation(p.buffer, size, this.generation), byteLength);
    }
    let buffer = this.free.get(size)?.pop();
    if (buffer) {
      this.idle.delete(buffer);
      this.bytesPooled -= size;
      this.buffersPooled--;
    } else {
      // A bucket past the adapter's buffer limit shrinks to the request itself.
      const real = size <= limits.maxBufferSize ? size : Math.ceil(byteLength / 4) * 4;
      buffer = device.createBuffer({ size: real, usage: USAGE_STORAGE });
      this.buffersCreated++;
    }
    this.bytesLive += size;
    this.buffersLive++;
    return new PooledStorage(new Allocation(buffer, size, this.generation), byteLength);
  }

  giveBack(a: Allocation): void {
    if (a.generation !== this.generation) return; // from a lost device: nothing to recycle
    if (hasPending()) {
      let list = this.parked.get(a.size);
      if (!list) this.parked.set(a.size, (list = []));
      list.push(a);
    } else this.recycle(a);
  }

  private recycle(a: Allocation): void {
    this.bytesLive -= a.size;
    this.buffersLive--;
    if (a.size > this.maxPooledBytes) {
      a.buffer.destroy();
      return;
    }
    // Evict the oldest idle buffers rather than the one just released: a loop over one
    // large size would otherwise destroy and re-create (and re-clear) it on every call.
    for (const [old, size] of this.idle) {
      if (this.bytesPooled + a.size <= this.maxPooledBytes) break;
      this.idle.delete(old);
      const list = this.free.get(size)!;
      list.splice(list.indexOf(old), 1);
      old.destroy();
      this.bytesPooled -= size;
      this.buffersPooled--;
    }
    let list = this.free.get(a.size);
    if (!list) this.free.set(a.size, (list = []));
    list.push(a.buffer);
    this.idle.set(a.buffer, a.size);
    this.bytesPooled += a.size;
    this.buffersPooled++;
  }

  afterSubmit(): void {
    const p = this.parked;
    this.parked = new Map();
    for (const list of p.values()) for (const a of list) this.recycle(a);
  }

  /** Destroys the idle buffers. */
  trim(): void {
    for (const list of this.free.values()) for (const b of list) b.destroy();
    this.free.clear();
    this.idle.clear();
    this.bytesPooled = 0;
    this.buffersPooled = 0;
  }

  reset(): void {
    this.free.clear();
    this.idle.clear();
    this.parked = new Map();
    this.generation++;
    this.bytesLive = this.bytesPooled = this.buffersLive = this.buffersPooled = 0;
  }

  stats(): PoolStats {
    return {
      bytesLive: this.bytesLive, bytesPooled: this.bytesPooled, buffersLive: this.buffersLive,
      buffersPooled: this.buffersPooled, buffersCreated: this.buffersCreated, maxPooledBytes: this.maxPooledBytes,
    };
  }
}

const pool = new BufferPool();
onAfterSubmit(() => pool.afterSubmit());
onDeviceReset(() => pool.reset());

/**
 * A pooled STORAGE|COPY_SRC|COPY_DST buffer of at least `byteLength` bytes (contents
 * undefined). `ordered`: only recorded commands will touch it (see `BufferPool.acquire`).
 */
export function allocStorage(byteLength: number, who: string, ordered = false): PooledStorage {
  return pool.acquire(byteLength, who, ordered);
}

/** Another handle on the same buffer (released separately). */
export function shareStorage(s: GpuStorage, byteLength?: number): GpuStorage {
  if (!(s instanceof PooledStorage)) throw new DeviceError('gpu: foreign GPU storage');
  return s.share(byteLength);
}

/** The GPUBuffer behind a tensor's storage. */
export function bufferOf(s: GpuStorage): GPUBuffer {
  return s.buffer as GPUBuffer;
}

export function poolStats(): PoolStats {
  return pool.stats();
}

/** Sets the cap on idle pooled bytes (default: 1 GiB or twice the largest allocation) and trims to it. */
export function setPoolCap(bytes: number): void {
  pool.userCap = bytes;
  if (pool.bytesPooled > bytes) pool.trim();
}

/** Frees every idle buffer. */
export function trimPool(): void {
  pool.trim();
}

export type { PooledStorage };
