/// <reference types="@webgpu/types" />
// One program object per shader variant, declared once: its storage bindings and uniform
// fields. The WGSL binding declarations and the uniform struct are generated from that
// declaration and prepended to the shader body; the uniform values are packed from it by
// name. One cache holds the programs (by name and key) and one their pipelines; the
// dispatcher records into the shared command encoder (queue.ts).
import type { GpuStorage } from '../../core/tensor.js';
import { ArgumentError, DeviceError } from '../../core/errors.js';
import { gpuDevice, gpuLimits, onDeviceReset, type GpuLimits } from './device.js';
import { recordDispatch, flush, onBeforeSubmit, onAfterSubmit } from './queue.js';
import { bufferOf } from './pool.js';
import { writeDumpFile } from './host.js';
import {
  LAYOUT, STORAGE_TYPES, IDENT, uniformLayout, wgslPreamble,
  type ProgramDecl, type StorageType, type UniformValues, type UniformSlotLayout,
} from './declare.js';

export { uniformLayout, wgslPreamble };
export type { ProgramDecl, StorageType, UniformType, UniformValue, UniformValues } from './declare.js';

/** One dispatch: buffers and uniform values by their declared names. */
export interface RunOptions<D extends ProgramDecl> {
  inputs: { readonly [K in keyof D['inputs']]: GpuStorage };
  outputs: { readonly [K in keyof D['outputs']]: GpuStorage };
  uniforms: UniformValues<D['uniforms']>;
  /** A linear count (folded past the per-dimension limit) or an explicit 3-D grid. */
  workgroups: number | [number, number, number];
}

/** What a kernel module gives `defineProgram`. */
export interface ProgramSpec<D extends ProgramDecl> {
  name: string;
  /** Cache key: everything the source depends on (dtype, tile sizes, variant). */
  key: string;
  entryPoint: string;
  workgroupSize: [number, number, number];
  /** Bytes of workgroup memory the variant declares, when known: checked against the device's limit. */
  workgroupBytes?: number;
  decl: D;
  /** The preprocessed WGSL body, without binding declarations (called once per key). */
  body(): string;
}

/** A compute shader variant (build with `defineProgram` / `cachedProgram`). */
export interface GpuProgram<D extends ProgramDecl = ProgramDecl> extends ProgramSpec<D> {
  /** The generated binding declarations and uniform struct. */
  readonly preamble: string;
  /** The full WGSL: the preamble, then the body. */
  source(): string;
  /** @internal names in binding order and the uniform layout, computed once. */
  readonly layout: ProgramLayout;
}

interface ProgramLayout {
  inputs: readonly string[];
  outputs: readonly string[];
  uniforms: readonly UniformSlotLayout[];
  /** Bytes of the packed uniform struct (0: no uniform binding). */
  uniformBytes: number;
}

function layoutOf(decl: ProgramDecl, who: string): ProgramLayout {
  const names = (r: Readonly<Record<string, StorageType>>) => {
    for (const [n, t] of Object.entries(r)) {
      if (!IDENT.test(n)) throw new ArgumentError(`${who}: bad binding name "${n}"`);
      if (!STORAGE_TYPES.has(t)) throw new ArgumentError(`${who}: binding ${n} has unknown element type ${String(t)}`);
    }
    return Object.keys(r);
  };
  const inputs = names(decl.inputs), outputs = names(decl.outputs);
  const dup = [...inputs, ...outputs].find((n, i, all) => all.indexOf(n) !== i || n === 'p');
  if (dup) throw new ArgumentError(`${who}: binding name ${dup} is used twice (or is "p", the uniform struct's name)`);
  const u = uniformLayout(decl.uniforms, who);
  return { inputs, outputs, uniforms: u.fields, uniformBytes: u.bytes };
}

/** A program object from its spec (uncached: kernels use `cachedProgram`). */
export function defineProgram<D extends ProgramDecl>(spec: ProgramSpec<D>): GpuProgram<D> {
  const layout = layoutOf(spec.decl, spec.name);
  const preamble = wgslPreamble(spec.decl);
  return { ...spec, layout, preamble, source: () => preamble + spec.body() };
}

// The one program cache: every kernel module gets its program objects here, by an id
// that holds everything the source depends on.
const programs = new Map<string, GpuProgram>();

/** The cached program for `id`, made by `make` on first use. */
export function cachedProgram<D extends ProgramDecl>(id: string, make: () => ProgramSpec<D>): GpuProgram<D> {
  let p = programs.get(id);
  if (!p) {
    p = defineProgram(make()) as unknown as GpuProgram;
    programs.set(id, p);
  }
  return p as unknown as GpuProgram<D>;
}

/** Program objects made so far (tests: a loop of calls must not grow it). */
export function programCount(): number {
  return programs.size;
}

/** Packs uniform values by name into the layout of the declaration's struct. */
export function packUniforms<U extends ProgramDecl['uniforms']>(uniforms: U, values: UniformValues<U>, who = 'packUniforms'): ArrayBuffer {
  const { fields, bytes } = uniformLayout(uniforms, who);
  return packFields(fields, bytes, values as Record<string, number | readonly number[]>, who);
}

function packFields(fields: readonly UniformSlotLayout[], bytes: number, values: Record<string, number | readonly number[]>, who: string): ArrayBuffer {
  const given = Object.keys(values);
  if (given.length !== fields.length || fields.some((f) => values[f.name] === undefined)) {
    throw new ArgumentError(`${who}: uniforms {${given.join(', ')}} differ from the declaration {${fields.map((f) => f.name).join(', ')}}`);
  }
  const buf = new ArrayBuffer(bytes);
  const dv = new DataView(buf);
  for (const f of fields) {
    const l = LAYOUT[f.type];
    const v0 = values[f.name];
    const vals = typeof v0 === 'number' ? [v0] : v0;
    if (vals.length !== l.n) throw new ArgumentError(`${who}: uniform ${f.name} (${f.type}) needs ${l.n} values, got ${vals.length}`);
    for (let j = 0; j < l.n; j++) {
      const v = vals[j], o = f.offset + 4 * j;
      if (l.kind === 'f') dv.setFloat32(o, v, true);
      else {
        if (!Number.isInteger(v)) throw new ArgumentError(`${who}: uniform ${f.name} must be an integer, got ${v}`);
        if (l.kind === 'u') {
          if (v < 0 || v > 0xffffffff) throw new ArgumentError(`${who}: uniform ${f.name} = ${v} does not fit u32`);
          dv.setUint32(o, v, true);
        } else {
          if (v < -0x80000000 || v > 0x7fffffff) throw new ArgumentError(`${who}: uniform ${f.name} = ${v} does not fit i32`);
          dv.setInt32(o, v, true);
        }
      }
    }
  }
  return buf;
}

/** The storages of one group of bindings in declaration order; throws unless the names match. */
function storagesOf(names: readonly string[], given: Readonly<Record<string, GpuStorage>>, what: string, who: string, out: GpuStorage[]): void {
  let n = 0, found = 0;
  for (const k in given) if (given[k] !== undefined) n++;
  for (const name of names) {
    const s = given[name];
    if (s === undefined) break;
    out.push(s);
    found++;
  }
  if (n !== names.length || found !== names.length) {
    throw new ArgumentError(`${who}: ${what} {${Object.keys(given).join(', ')}} differ from the declaration {${names.join(', ')}}`);
  }
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

// ---------------------------------------------------------------- WGSL dump (debugging)

let dumpDir: string | undefined | null = null; // null: LAPIS_GPU_DUMP_WGSL not read yet

/** Writes every compiled program's WGSL under `dir` (undefined: stop). `gpu.init({ dumpWgsl })`. */
export function setWgslDumpDir(dir: string | undefined): void {
  dumpDir = dir;
}

function dumpSource(p: GpuProgram, code: string): void {
  if (dumpDir === null) dumpDir = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.LAPIS_GPU_DUMP_WGSL || undefined;
  if (!dumpDir) return;
  // FNV-1a of the key: keys of generated kernels run to kilobytes, too long for a file name.
  let h = 0x811c9dc5;
  for (let i = 0; i < p.key.length; i++) h = Math.imul(h ^ p.key.charCodeAt(i), 0x01000193) >>> 0;
  const file = `${p.name.replace(/[^\w.-]/g, '_')}-${h.toString(16).padStart(8, '0')}.wgsl`;
  try {
    writeDumpFile(dumpDir, file, `// ${p.name} ${p.key.length > 300 ? `${p.key.slice(0, 300)}…` : p.key}\n// entry point ${p.entryPoint}\n${code}`);
  } catch (e) {
    throw new DeviceError(`${p.name}: writing the WGSL dump ${file} under ${dumpDir} failed (${(e as Error).message})`);
  }
}

// ---------------------------------------------------------------- pipelines

interface Cached {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
  /** Distinguishes layouts in bind-group cache keys. */
  id: number;
}

// Pipelines by program object (no string key built per call: measurable in loops of small
// calls), and by name|key|entry for program objects made outside the program cache.
const pipelines = new Map<string, Cached>();
let byProgram = new WeakMap<GpuProgram, Cached>();
let compiled = 0;

function pipelineFor(device: GPUDevice, p: GpuProgram): Cached {
  const hit = byProgram.get(p);
  if (hit) return hit;
  const k = `${p.name}|${p.key}|${p.entryPoint}`;
  let c = pipelines.get(k);
  if (c) {
    byProgram.set(p, c);
    return c;
  }
  checkFits(p, gpuLimits(p.name));
  const { inputs, outputs, uniformBytes } = p.layout;
  const entries: GPUBindGroupLayoutEntry[] = [];
  for (let i = 0; i < inputs.length; i++) entries.push({ binding: i, visibility: 4, buffer: { type: 'read-only-storage' } });
  for (let i = 0; i < outputs.length; i++) entries.push({ binding: inputs.length + i, visibility: 4, buffer: { type: 'storage' } });
  if (uniformBytes) entries.push({ binding: inputs.length + outputs.length, visibility: 4, buffer: { type: 'uniform' } });
  const layout = device.createBindGroupLayout({ label: p.name, entries });
  const code = p.source();
  dumpSource(p, code);
  const module = device.createShaderModule({ label: `${p.name} ${p.key}`, code });
  const pipeline = device.createComputePipeline({
    label: `${p.name} ${p.key}`,
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: p.entryPoint },
  });
  c = { pipeline, layout, id: pipelines.size + 1 };
  pipelines.set(k, c);
  byProgram.set(p, c);
  compiled++;
  return c;
}

/** Pipelines compiled so far (a flat count in a loop means the cache works). */
export function pipelineStats(): { cached: number; compiled: number; programs: number } {
  return { cached: pipelines.size, compiled, programs: programs.size };
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
 * Records one dispatch of `program` (compiling its pipeline on first use), its buffers
 * and uniform values given by their declared names (tsc checks them against the
 * declaration; a mismatch that gets past it, e.g. through a cast, is an ArgumentError).
 * Nothing runs until the next flush: a host read, `gpu.sync()`, or a full batch.
 */
export function runProgram<D extends ProgramDecl>(program: GpuProgram<D>, run: RunOptions<D>): void {
  const who = program.name;
  const L = program.layout;
  const storages: GpuStorage[] = [];
  storagesOf(L.inputs, run.inputs as Readonly<Record<string, GpuStorage>>, 'inputs', who, storages);
  storagesOf(L.outputs, run.outputs as Readonly<Record<string, GpuStorage>>, 'outputs', who, storages);
  const ubytes = L.uniformBytes ? packFields(L.uniforms, L.uniformBytes, run.uniforms as Record<string, number | readonly number[]>, who) : undefined;
  if (!ubytes && Object.keys(run.uniforms).length) throw new ArgumentError(`${who}: uniforms given to a program that declares none`);
  const device = gpuDevice(who);
  const limits = gpuLimits(who);
  const grid = typeof run.workgroups === 'number'
    ? foldWorkgroups(run.workgroups, limits.maxComputeWorkgroupsPerDimension)
    : run.workgroups;
  if (grid.some((g) => !Number.isInteger(g) || g < 0 || g > limits.maxComputeWorkgroupsPerDimension)) {
    throw new DeviceError(`${who}: workgroup grid ${grid.join('×')} exceeds the device limit ${limits.maxComputeWorkgroupsPerDimension}`);
  }
  if (grid[0] * grid[1] * grid[2] === 0) return;
  const cached = pipelineFor(device, program as unknown as GpuProgram);
  // The key first; the entry objects only on a cache miss.
  const buffers: GPUBuffer[] = [];
  let key = `${cached.id}`;
  for (const st of storages) {
    const buffer = bufferOf(st);
    buffers.push(buffer);
    key += `|${bufferId(buffer)}:${bindingSize(st)}`;
  }
  let slot: { buffer: GPUBuffer; offset: number } | undefined;
  if (ubytes) {
    slot = uniformSlot(device, ubytes, limits.minUniformBufferOffsetAlignment);
    key += `|u${bufferId(slot.buffer)}:${slot.offset}:${ubytes.byteLength}`;
  }
  const entries = (): GPUBindGroupEntry[] => {
    const e: GPUBindGroupEntry[] = storages.map((st, i) => ({ binding: i, resource: { buffer: buffers[i], offset: 0, size: bindingSize(st) } }));
    if (slot) e.push({ binding: e.length, resource: { buffer: slot.buffer, offset: slot.offset, size: ubytes!.byteLength } });
    return e;
  };
  recordDispatch(who, cached.pipeline, cachedBindGroup(device, cached, entries, key), grid[0], grid[1], grid[2]);
}

/** Bind groups in the cache (tests check a loop of identical calls stops creating them). */
export function bindGroupStats(): { cached: number } {
  return { cached: bindGroups.size };
}
