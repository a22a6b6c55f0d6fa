/// <reference types="@webgpu/types" />
// One program object per shader variant, a pipeline cache keyed by it, the uniform
// packer and the dispatcher. Dispatches are recorded into the shared command encoder
// (queue.ts) and submitted together.
import type { GpuStorage } from '../../core/tensor.js';
import { ArgumentError, DeviceError } from '../../core/errors.js';
import { gpuDevice, gpuLimits, onDeviceReset, type GpuLimits } from './device.js';
import { recordDispatch, flush, onBeforeSubmit, onAfterSubmit } from './queue.js';
import { bufferOf } from './pool.js';

/**
 * A compute shader variant. Bindings are fixed by convention: 0..n-1 the inputs
 * (`var<storage, read>`), then the outputs (`var<storage, read_write>`), then one
 * `var<uniform>` struct last when the run passes uniforms, all in `@group(0)`.
 */
export interface GpuProgram {
  name: string;
  /** Cache key: everything the source depends on (dtype, tile sizes, variant). */
  key: string;
  /** The preprocessed WGSL (called once per key). */
  source(): string;
  entryPoint: string;
  workgroupSize: [number, number, number];
  /** Bytes of workgroup memory the variant declares, when known: checked against the device's limit. */
  workgroupBytes?: number;
}

/**
 * Throws DeviceError naming the variant when its workgroup size or workgroup memory
 * exceeds the device's limits (callers pick variants that fit; this is the safety net
 * that turns a miss into a clear error instead of Dawn's pipeline validation message).
 */
export function checkFits(p: GpuProgram, limits: GpuLimits): void {
  const [x, y, z] = p.workgroupSize;
  const inv = x * y * z;
  const why = inv > limits.maxComputeInvocationsPerWorkgroup ? `${inv} invocations per workgroup (the device allows ${limits.maxComputeInvocationsPerWorkgroup})`
    : x > limits.maxComputeWorkgroupSizeX ? `workgroup size x = ${x} (the device allows ${limits.maxComputeWorkgroupSizeX})`
      : y > limits.maxComputeWorkgroupSizeY ? `workgroup size y = ${y} (the device allows ${limits.maxComputeWorkgroupSizeY})`
        : (p.workgroupBytes ?? 0) > limits.maxComputeWorkgroupStorageSize
          ? `${p.workgroupBytes} bytes of workgroup memory (the device allows ${limits.maxComputeWorkgroupStorageSize})` : '';
  if (why) throw new DeviceError(`${p.name}: the kernel variant ${p.key} needs ${why}`);
}

export type UniformType = 'u32' | 'i32' | 'f32' | 'vec2u' | 'vec2f' | 'vec4u' | 'vec4f';

export interface UniformField {
  name: string;
  type: UniformType;
  value: number | readonly number[];
}

export interface RunOptions {
  inputs: GpuStorage[];
  outputs: GpuStorage[];
  uniforms?: UniformField[];
  /** A linear count (folded past the per-dimension limit) or an explicit 3-D grid. */
  workgroups: number | [number, number, number];
}

// WGSL host-shareable layout: size and alignment of each uniform member type.
const LAYOUT: Record<UniformType, { size: number; align: number; n: number; kind: 'u' | 'i' | 'f' }> = {
  u32: { size: 4, align: 4, n: 1, kind: 'u' },
  i32: { size: 4, align: 4, n: 1, kind: 'i' },
  f32: { size: 4, align: 4, n: 1, kind: 'f' },
  vec2u: { size: 8, align: 8, n: 2, kind: 'u' },
  vec2f: { size: 8, align: 8, n: 2, kind: 'f' },
  vec4u: { size: 16, align: 16, n: 4, kind: 'u' },
  vec4f: { size: 16, align: 16, n: 4, kind: 'f' },
};

/**
 * Packs fields as the WGSL struct with the same members in the same order would lay
 * them out (each member at its alignment; the struct rounded up to 16 bytes, the
 * uniform address space's rule for struct sizes).
 */
export function packUniforms(fields: readonly UniformField[]): ArrayBuffer {
  let off = 0;
  const places: number[] = [];
  for (const f of fields) {
    const l = LAYOUT[f.type];
    if (!l) throw new ArgumentError(`packUniforms: unknown type ${String(f.type)} for ${f.name}`);
    off = Math.ceil(off / l.align) * l.align;
    places.push(off);
    off += l.size;
  }
  const buf = new ArrayBuffer(Math.max(16, Math.ceil(off / 16) * 16));
  const dv = new DataView(buf);
  fields.forEach((f, i) => {
    const l = LAYOUT[f.type];
    const vals = typeof f.value === 'number' ? [f.value] : f.value;
    if (vals.length !== l.n) throw new ArgumentError(`packUniforms: ${f.name} (${f.type}) needs ${l.n} values, got ${vals.length}`);
    vals.forEach((v, j) => {
      const o = places[i] + 4 * j;
      if (l.kind === 'f') dv.setFloat32(o, v, true);
      else {
        if (!Number.isInteger(v)) throw new ArgumentError(`packUniforms: ${f.name} must be an integer, got ${v}`);
        if (l.kind === 'u') {
          if (v < 0 || v > 0xffffffff) throw new ArgumentError(`packUniforms: ${f.name} = ${v} does not fit u32`);
          dv.setUint32(o, v, true);
        } else {
          if (v < -0x80000000 || v > 0x7fffffff) throw new ArgumentError(`packUniforms: ${f.name} = ${v} does not fit i32`);
          dv.setInt32(o, v, true);
        }
      }
    });
  });
  return buf;
}

/**
 * A 3-D grid holding at least `n` workgroups with each dimension ≤ `maxDim`, close to
 * `n` (the waste is under one row). Shaders rebuild the linear id with
 * `linear_workgroup_id` (shaders/common/linear_id.wgsl) and skip ids ≥ n.
 */
export function foldWorkgroups(n: number, maxDim = 65535): [number, number, number] {
  if (!Number.isInteger(n) || n < 0) throw new ArgumentError(`foldWorkgroups: bad count ${n}`);
  if (n <= maxDim) return [n, 1, 1];
  const rows = Math.ceil(n / maxDim);
  if (rows <= maxDim) return [Math.ceil(n / rows), rows, 1];
  const planes = Math.ceil(n / (maxDim * maxDim));
  if (planes > maxDim) throw new DeviceError(`foldWorkgroups: ${n} workgroups exceed the device's 3-D grid`);
  const perPlane = Math.ceil(n / planes);
  const r = Math.ceil(perPlane / maxDim);
  return [Math.ceil(perPlane / r), r, planes];
}

interface Cached {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
  /** Distinguishes layouts in bind-group cache keys. */
  id: number;
}

const pipelines = new Map<string, Cached>();
let compiled = 0;

// Per program object, the pipelines by binding signature: a lookup without building the
// string key (measurable in loops of small calls). Cleared with the device.
let byProgram = new WeakMap<GpuProgram, Map<number, Cached>>();

function pipelineFor(device: GPUDevice, p: GpuProgram, nIn: number, nOut: number, uniform: boolean): Cached {
  const sig = (nIn * 64 + nOut) * 2 + (uniform ? 1 : 0);
  let mine = byProgram.get(p);
  const hit = mine?.get(sig);
  if (hit) return hit;
  const k = `${p.name}|${p.key}|${p.entryPoint}|${nIn}|${nOut}|${uniform ? 1 : 0}`;
  let c = pipelines.get(k);
  if (!mine) byProgram.set(p, (mine = new Map()));
  if (c) {
    mine.set(sig, c);
    return c;
  }
  checkFits(p, gpuLimits(p.name));
  const entries: GPUBindGroupLayoutEntry[] = [];
  for (let i = 0; i < nIn; i++) entries.push({ binding: i, visibility: 4, buffer: { type: 'read-only-storage' } });
  for (let i = 0; i < nOut; i++) entries.push({ binding: nIn + i, visibility: 4, buffer: { type: 'storage' } });
  if (uniform) entries.push({ binding: nIn + nOut, visibility: 4, buffer: { type: 'uniform' } });
  const layout = device.createBindGroupLayout({ label: p.name, entries });
  const module = device.createShaderModule({ label: `${p.name} ${p.key}`, code: p.source() });
  const pipeline = device.createComputePipeline({
    label: `${p.name} ${p.key}`,
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: p.entryPoint },
  });
  c = { pipeline, layout, id: pipelines.size + 1 };
  pipelines.set(k, c);
  mine.set(sig, c);
  compiled++;
  return c;
}

/** Pipelines compiled so far (a flat count in a loop means the cache works). */
export function pipelineStats(): { cached: number; compiled: number } {
  return { cached: pipelines.size, compiled };
}

// Uniforms of all dispatches in one submit share a ring buffer: written into a host
// copy while recording, uploaded by one writeBuffer just before the submit. The queue
// orders that write after earlier submits, so the ring is reused at once.
const RING_BYTES = 1 << 18;
let ring: GPUBuffer | undefined;
const ringHost = new Uint8Array(RING_BYTES);
let ringUsed = 0;

onBeforeSubmit(() => {
  if (ring && ringUsed > 0) gpuDevice('flush').queue.writeBuffer(ring, 0, ringHost, 0, ringUsed);
});
onAfterSubmit(() => { ringUsed = 0; });
onDeviceReset(() => {
  pipelines.clear();
  byProgram = new WeakMap();
  bindGroups.clear();
  ring = undefined;
  ringUsed = 0;
});

// Bind groups are cached by (layout, buffers, uniform slot): creating one costs ~30 µs in
// Dawn's Node binding, more than recording the dispatch. A loop of identical calls hits
// the cache: its outputs cycle through the same pooled buffers, and the i-th dispatch of
// a submit gets the same uniform-ring offset every time (the ring is refilled before each
// submit, so a cached group bound to it reads that submit's values). A key holding a
// destroyed buffer is never looked up again (ids are not reused) and ages out.
const BIND_GROUP_CACHE = 2048;
const bindGroups = new Map<string, GPUBindGroup>();
const bufferIds = new WeakMap<GPUBuffer, number>();
let nextBufferId = 1;

function bufferId(b: GPUBuffer): number {
  let id = bufferIds.get(b);
  if (id === undefined) bufferIds.set(b, (id = nextBufferId++));
  return id;
}

function cachedBindGroup(device: GPUDevice, c: Cached, entries: () => GPUBindGroupEntry[], key: string): GPUBindGroup {
  // First in, first out: a hot entry evicted by 2,048 newer ones costs one re-creation,
  // cheaper than re-ordering the map on every hit.
  let bg = bindGroups.get(key);
  if (bg) return bg;
  bg = device.createBindGroup({ layout: c.layout, entries: entries() });
  if (bindGroups.size >= BIND_GROUP_CACHE) bindGroups.delete(bindGroups.keys().next().value!);
  bindGroups.set(key, bg);
  return bg;
}

function uniformSlot(device: GPUDevice, bytes: ArrayBuffer, align: number): { buffer: GPUBuffer; offset: number } {
  if (bytes.byteLength > RING_BYTES) throw new DeviceError('runProgram: uniforms too large');
  ring ??= device.createBuffer({ label: 'lapis uniforms', size: RING_BYTES, usage: 0x40 | 0x08 /* UNIFORM | COPY_DST */ });
  let offset = Math.ceil(ringUsed / align) * align;
  if (offset + bytes.byteLength > RING_BYTES) {
    flush();
    offset = 0;
  }
  ringHost.set(new Uint8Array(bytes), offset);
  ringUsed = offset + bytes.byteLength;
  return { buffer: ring, offset };
}

function bindingSize(s: GpuStorage): number {
  // 16: the smallest binding an array<vec4f> accepts (buffers are at least 256 bytes).
  return Math.max(16, Math.ceil(s.byteLength / 4) * 4);
}

/**
 * Records one dispatch of `program` (compiling its pipeline on first use). Nothing
 * runs until the next flush: a host read, `gpu.sync()`, or a full batch.
 */
export function runProgram(program: GpuProgram, run: RunOptions): void {
  const who = program.name;
  const device = gpuDevice(who);
  const limits = gpuLimits(who);
  const grid = typeof run.workgroups === 'number'
    ? foldWorkgroups(run.workgroups, limits.maxComputeWorkgroupsPerDimension)
    : run.workgroups;
  if (grid.some((g) => !Number.isInteger(g) || g < 0 || g > limits.maxComputeWorkgroupsPerDimension)) {
    throw new DeviceError(`${who}: workgroup grid ${grid.join('×')} exceeds the device limit ${limits.maxComputeWorkgroupsPerDimension}`);
  }
  if (grid[0] * grid[1] * grid[2] === 0) return;
  const uniform = run.uniforms !== undefined;
  const cached = pipelineFor(device, program, run.inputs.length, run.outputs.length, uniform);
  // The key first; the entry objects only on a cache miss.
  const storages = run.outputs.length ? [...run.inputs, ...run.outputs] : run.inputs;
  const buffers: GPUBuffer[] = [];
  let key = `${cached.id}`;
  for (const st of storages) {
    const buffer = bufferOf(st);
    buffers.push(buffer);
    key += `|${bufferId(buffer)}:${bindingSize(st)}`;
  }
  let slot: { buffer: GPUBuffer; offset: number } | undefined;
  let ubytes = 0;
  if (uniform) {
    const bytes = packUniforms(run.uniforms!);
    slot = uniformSlot(device, bytes, limits.minUniformBufferOffsetAlignment);
    ubytes = bytes.byteLength;
    key += `|u${bufferId(slot.buffer)}:${slot.offset}:${ubytes}`;
  }
  const entries = (): GPUBindGroupEntry[] => {
    const e: GPUBindGroupEntry[] = storages.map((st, i) => ({ binding: i, resource: { buffer: buffers[i], offset: 0, size: bindingSize(st) } }));
    if (slot) e.push({ binding: e.length, resource: { buffer: slot.buffer, offset: slot.offset, size: ubytes } });
    return e;
  };
  recordDispatch(who, cached.pipeline, cachedBindGroup(device, cached, entries, key), grid[0], grid[1], grid[2]);
}

/** Bind groups in the cache (tests check a loop of identical calls stops creating them). */
export function bindGroupStats(): { cached: number } {
  return { cached: bindGroups.size };
}
