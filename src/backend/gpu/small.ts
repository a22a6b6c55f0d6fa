/// <reference types="@webgpu/types" />
// Shared plumbing of the batched small-matrix kernels (inv, trsm, lu): program caching,
// dtype checks, and the broadcast maps a kernel reads instead of materialised copies.
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { DTypeError, DeviceError } from '../../core/errors.js';
import { allocStorage, bufferOf, shareStorage } from './pool.js';
import { gpuDevice } from './device.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';
import { loadShader, dtypeDefines, type Defines, type GpuDType } from './preprocess.js';
import { cachedProgram, type GpuProgram, type ProgramDecl } from './program.js';

/**
 * The program for shaders/<file> with `defines` and the binding declaration `decl`
 * (cached by name + every define).
 */
export function smallProgram<D extends ProgramDecl>(
  name: string, file: string, entry: string, dtype: GpuDType, wg: number, extra: Defines, decl: D, workgroupBytes?: number,
): GpuProgram<D> {
  const defs: Defines = { ...dtypeDefines(dtype), ...extra, WG: wg };
  const key = `${dtype}|${Object.entries(defs).map(([k, v]) => `${k}=${v}`).join(',')}`;
  return cachedProgram(`${name}|${key}`, () => ({
    name, key, entryPoint: `${entry}_${defs.DTYPE}`, workgroupSize: [wg, 1, 1], workgroupBytes, decl,
    body: () => loadShader(file, defs),
  }));
}

/** float32 / complex64 only; the GPU tensor checks every entry does first. */
export function gpuFloatDType(t: Tensor, who: string, name: string): 'float32' | 'complex64' {
  requireGpu(t, who, name);
  if (t.dtype !== 'float32' && t.dtype !== 'complex64') {
    throw new DTypeError(`${who}: ${name} is ${t.dtype}; the GPU kernels take float32 or complex64`);
  }
  return t.dtype;
}

/** Floats per element. */
export const floatsPer = (dtype: string): number => (dtype === 'complex64' ? 2 : 1);

/** Matrices in a tensor's batch (product of the leading dims). */
export function batchCount(t: Tensor): number {
  let c = 1;
  for (const d of t.shape.slice(0, -2)) c *= d;
  return c;
}

/** An int32 GPU tensor (info) of the batch shape. */
export function infoTensor(batchShape: readonly number[], who: string): Tensor<'int32'> {
  return emptyGpu('int32', batchShape, who);
}

/**
 * The plan's broadcast map for one operand as a GPU int32 buffer (identity maps return
 * null: kernels then use the output index). Uploaded with a queue write, which the queue
 * orders before the dispatch that reads it.
 */
export function uploadIndex(idx: Int32Array | null, who: string): Tensor<'int32'> | null {
  if (!idx) return null;
  // Not emptyGpu: a queue write must not land in a buffer that pending commands still use.
  const t = Tensor.fromGpu('int32', [Math.max(1, idx.length)], allocStorage(Math.max(1, idx.length) * 4, who)) as Tensor<'int32'>;
  if (idx.length > 0) gpuDevice(who).queue.writeBuffer(bufferOf(t.gpuStorage()), 0, idx.buffer, idx.byteOffset, idx.byteLength);
  return t;
}

// Shared dummy buffers, so that repeated calls bind the same buffers and hit the
// bind-group cache. Two of them: one buffer may not be bound both read-only and writable
// in one dispatch, and a kernel may take a dummy map (read-only) and a dummy scratch
// (writable, never touched when unused) together.
const dummies: { read?: Tensor<'int32'>; write?: Tensor<'int32'> } = {};

function sharedDummy(kind: 'read' | 'write', who: string): Tensor<'int32'> {
  const d = dummies[kind];
  if (d) {
    try {
      bufferOf(d.gpuStorage()); // throws if its device was lost
      return Tensor.fromGpu('int32', [1], shareStorage(d.gpuStorage())) as Tensor<'int32'>;
    } catch {
      dummies[kind] = undefined; // its device was lost: make a new one
    }
  }
  const fresh = emptyGpu('int32', [1], who);
  dummies[kind] = fresh;
  return Tensor.fromGpu('int32', [1], shareStorage(fresh.gpuStorage())) as Tensor<'int32'>;
}

/** A one-word dummy binding for kernels whose optional map is absent (dispose it as usual). */
export function dummyIndex(who: string): Tensor<'int32'> {
  return sharedDummy('read', who);
}

/** A one-word dummy for a writable binding the kernel leaves untouched (dispose it as usual). */
export function dummyOutput(who: string): Tensor<'int32'> {
  return sharedDummy('write', who);
}

export function checkIndexRange(total: number, who: string): void {
  if (total > 0xffffffff) throw new DeviceError(`${who}: ${total} scalars exceed the kernels' 32-bit indexing`);
}

export type { BatchPlan };
export { allocStorage };
