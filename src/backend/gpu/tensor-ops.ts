/// <reference types="@webgpu/types" />
// Moving tensors between host and GPU, reshape (a shared buffer) and transpose.
import { Tensor } from '../../core/tensor.js';
import type { DType } from '../../core/dtype.js';
import { DeviceError } from '../../core/errors.js';
import { lookup, register } from '../registry.js';
import { gpuDevice } from './device.js';
import { allocStorage, bufferOf, shareStorage } from './pool.js';
import { commandEncoder, recordedCommand, flush, checkErrors } from './queue.js';
import type { GpuDType } from './preprocess.js';

export const GPU_DTYPES: readonly GpuDType[] = ['float32', 'complex64', 'int32'];
/** Every dtype a GPU tensor may have (no f64 in WGSL; float16 packed two per u32 word). */
export const GPU_STORAGE_DTYPES: readonly DType[] = ['float16', 'float32', 'complex64', 'int32', 'uint32', 'bool'];

/**
 * A new GPU tensor with uninitialised contents, for a kernel to write (backend use): its
 * buffer may be one released since the last submit, so only recorded commands may write
 * it — not `queue.writeBuffer` (use `allocStorage` for uploads).
 */
export function emptyGpu<D extends DType>(dtype: D, shape: readonly number[], who: string): Tensor<D> {
  let n = 1;
  for (const d of shape) n *= d;
  return Tensor.fromGpu(dtype, shape, allocStorage(gpuByteLength(dtype, n), who, true));
}

/**
 * Bytes per element in a GPU buffer: complex64 8; everything else 4 (bool is one u32 per
 * element: WGSL has no 8-bit storage). Not float16 (two per word): see `gpuByteLength`.
 */
export function gpuBytesPerElement(dtype: DType): 4 | 8 {
  return dtype === 'complex64' ? 8 : 4;
}

/** Bytes of `n` elements in a GPU buffer: float16 two per u32 word (an odd count pads the last word), else n·gpuBytesPerElement. */
export function gpuByteLength(dtype: DType, n: number): number {
  return dtype === 'float16' ? Math.ceil(n / 2) * 4 : n * gpuBytesPerElement(dtype);
}

/** Throws unless `t` lives on the GPU (backend entries take tensors as given). */
export function requireGpu(t: Tensor, who: string, name: string): void {
  if (t.device !== 'gpu') throw new DeviceError(`${who}: ${name} is on ${t.device}, expected gpu`);
}

function upload(t: Tensor): Tensor {
  const who = 'to';
  const device = gpuDevice(who);
  const host = t.dataSync();
  // bool widens to one u32 per element; float16 pads an odd count to a whole word (writeBuffer copies 4-byte multiples)
  const src = t.dtype === 'bool' ? Uint32Array.from(host)
    : t.dtype === 'float16' && host.length % 2 === 1 ? padHalves(host as Uint16Array) : host;
  const out = Tensor.fromGpu(t.dtype, t.shape, allocStorage(src.byteLength, who));
  if (src.byteLength > 0) {
    // The buffer just left the pool, so no unsubmitted command reads it: a queue write
    // cannot overtake earlier work on it (pool.ts parks buffers until their submit).
    device.queue.writeBuffer(bufferOf(out.gpuStorage()), 0, src.buffer, src.byteOffset, src.byteLength);
  }
  return out;
}

function padHalves(h: Uint16Array): Uint16Array {
  const p = new Uint16Array(h.length + 1);
  p.set(h);
  return p;
}

async function download(t: Tensor): Promise<Float32Array | Int32Array | Uint32Array | Uint8Array | Uint16Array> {
  const who = 'data';
  const device = gpuDevice(who);
  const s = t.gpuStorage();
  const bytes = t.dtype === 'float16' ? t.size * 2 : t.size * gpuBytesPerElement(t.dtype);
  const out = t.dtype === 'float16' ? new Uint16Array(t.size) : t.dtype === 'int32' ? new Int32Array(bytes / 4)
    : t.dtype === 'uint32' || t.dtype === 'bool' ? new Uint32Array(bytes / 4) : new Float32Array(bytes / 4);
  if (bytes === 0) return t.dtype === 'bool' ? new Uint8Array(0) : out;
  const staging = device.createBuffer({ size: Math.ceil(bytes / 4) * 4, usage: 0x01 | 0x08 /* MAP_READ | COPY_DST */ });
  try {
    commandEncoder(who).copyBufferToBuffer(bufferOf(s), 0, staging, 0, staging.size);
    recordedCommand();
    flush();
    try {
      await staging.mapAsync(0x01 /* READ */);
    } catch (e) {
      checkErrors(who);
      throw new DeviceError(`${who}: reading the GPU buffer failed (${(e as Error).message})`);
    }
    checkErrors(who);
    new Uint8Array(out.buffer).set(new Uint8Array(staging.getMappedRange(), 0, bytes));
    staging.unmap();
  } finally {
    staging.destroy();
  }
  return t.dtype === 'bool' ? Uint8Array.from(out as Uint32Array, (v) => (v !== 0 ? 1 : 0)) : out;
}

function reshape(t: Tensor, shape: readonly number[]): Tensor {
  return Tensor.fromGpu(t.dtype, shape, shareStorage(t.gpuStorage()));
}

/**
 * Batched transpose (conj: adjoint) of the last two dims: the stridedCopy entry over the
 * swapped view, whose tiled path is the transpose kernel (and which carries deferred checks).
 */
function transpose(A: Tensor, conj: boolean): Tensor {
  const who = 'transpose';
  requireGpu(A, who, 'A');
  const nd = A.ndim;
  const strides = new Array<number>(nd);
  for (let d = nd - 1, acc = 1; d >= 0; d--) { strides[d] = acc; acc *= A.shape[d]; }
  [strides[nd - 2], strides[nd - 1]] = [strides[nd - 1], strides[nd - 2]];
  const shape = [...A.shape.slice(0, -2), A.cols, A.rows];
  return lookup('stridedCopy', A.dtype, 'gpu', who)(A, { shape, strides, offset: 0 }, conj);
}

export function registerTensorOpsGpu(): void {
  // Moves and reshapes take every dtype WGSL can hold: uint32 and bool (one u32 per element) too.
  register('upload', GPU_STORAGE_DTYPES, 'gpu', upload);
  register('download', GPU_STORAGE_DTYPES, 'gpu', download);
  register('reshape', GPU_STORAGE_DTYPES, 'gpu', reshape);
  register('transpose', GPU_DTYPES, 'gpu', transpose);
}
