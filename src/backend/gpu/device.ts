/// <reference types="@webgpu/types" />
// The WebGPU adapter and device: one per process, created by `await gpu.init()`.
// Node gets WebGPU from the `webgpu` package (Dawn); a runtime with `navigator.gpu`
// (a browser, Deno) uses its own.
import { ArgumentError, DeviceError } from '../../core/errors.js';
import { wgslPreamble } from './declare.js';
import { importWebgpu, type WebgpuModule } from './host.js';

export interface GpuLimits {
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  maxComputeWorkgroupStorageSize: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupSizeX: number;
  maxComputeWorkgroupSizeY: number;
  maxComputeWorkgroupsPerDimension: number;
  maxStorageBuffersPerShaderStage: number;
  minUniformBufferOffsetAlignment: number;
  minStorageBufferOffsetAlignment: number;
}

export interface GpuInfo {
  vendor: string;
  architecture: string;
  description: string;
  device: string;
  /** A CPU implementation of Vulkan/WebGPU (lavapipe/llvmpipe, SwiftShader, WARP). */
  isSoftware: boolean;
  /** Where WebGPU came from: 'webgpu' (the npm package, Dawn) or 'navigator.gpu'. */
  source: 'webgpu' | 'navigator.gpu';
  /** Flags given to Dawn's `create()` (Node only). */
  dawnFlags: string[];
  /** 'adapter': the device was created with the adapter's largest limits; 'default': with WebGPU's defaults. */
  limitsMode: 'adapter' | 'default';
  limits: GpuLimits;
  /**
   * Whether float32 arithmetic keeps subnormal numbers (below 2⁻¹²⁶ ≈ 1.18e-38), probed at
   * init by a one-thread kernel. false: the adapter flushes them to zero (NVIDIA through
   * Vulkan, and GPUs generally may), so subnormal inputs and intermediates act as zero
   * (docs/gpu-portability.md).
   */
  subnormals: boolean;
  /**
   * Whether the adapter offers WebGPU's `subgroups` feature, and its subgroup sizes (0 when
   * it does not say). Not requested: no kernel uses it, and requesting it made every float32
   * kernel an order of magnitude slower on an H200 (docs/decisions.md).
   */
  subgroups: boolean;
  subgroupMinSize: number;
  subgroupMaxSize: number;
}

export interface GpuInitOptions {
  powerPreference?: 'low-power' | 'high-performance';
  /** Ask for a software (CPU) adapter, e.g. to test without a GPU. */
  forceSoftware?: boolean;
  /**
   * Extra flags for Dawn's `create()` in Node, e.g. `enable-dawn-features=disable_robustness`
   * (also read from LAPIS_DAWN_FLAGS, separated by spaces). Ignored with `navigator.gpu`.
   */
  dawnFlags?: string[];
  /**
   * 'adapter' (default): ask for the adapter's largest storage-buffer, buffer and workgroup
   * limits. 'default': create the device with WebGPU's default limits (16 KiB of workgroup
   * memory, 256 invocations per workgroup, 128 MiB storage bindings), what every WebGPU
   * implementation gives, to test that the kernels fit a small GPU (phones, some laptops).
   * Also read from LAPIS_GPU_LIMITS ('default' or 'adapter').
   */
  limits?: 'adapter' | 'default';
  /**
   * A folder: every kernel compiled from then on has its WGSL (the generated binding
   * declarations, then the shader body) written there as `<name>-<hash of key>.wgsl`, for
   * debugging. Also read from LAPIS_GPU_DUMP_WGSL.
   */
  dumpWgsl?: string;
}

interface State {
  /** Dawn tears its instance down when the object from `create()` is collected, device and all: keep it. */
  gpu: GPU;
  adapter: GPUAdapter;
  device: GPUDevice;
  info: GpuInfo;
}

let state: State | undefined;
let pending: Promise<GpuInfo> | undefined;
/** Why the last init failed, or why the device went away; quoted by `gpuDevice`. */
let failure: string | undefined;
let uncaptured: string | undefined;
const lostHooks: Array<() => void> = [];

// `process` is absent in browsers, where navigator.gpu is used instead.
const nodeProcess = (globalThis as { process?: { platform?: string; env?: Record<string, string | undefined> } }).process;
const platform = nodeProcess?.platform ?? 'browser';

const INSTALL_HINT =
  platform === 'linux'
    ? "install a Vulkan driver: your GPU vendor's, or Mesa's software driver (Debian/Ubuntu: `apt-get install mesa-vulkan-drivers libvulkan1`, which provides lavapipe)"
    : platform === 'win32'
      ? 'update the GPU driver (D3D12 is needed)'
      : platform === 'darwin'
        ? 'WebGPU needs Metal (macOS 11 or later)'
        : 'use a browser with WebGPU enabled';

/** Registers a callback run when the device is lost or re-created (pool and caches drop their objects). */
export function onDeviceReset(hook: () => void): void {
  lostHooks.push(hook);
}

function softwareName(s: string): boolean {
  return /llvmpipe|lavapipe|swiftshader|warp|software|microsoft basic render/i.test(s);
}

const WANTED_LIMITS: Array<keyof GpuLimits> = [
  'maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxComputeWorkgroupSizeY',
  'maxStorageBuffersPerShaderStage',
];

async function getGpu(flags: string[]): Promise<{ gpu: GPU; source: GpuInfo['source']; create?: (o: string[]) => GPU }> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return { gpu: nav.gpu, source: 'navigator.gpu' };
  let mod: WebgpuModule;
  try {
    mod = await importWebgpu();
  } catch (e) {
    if (e instanceof DeviceError) throw new DeviceError(`gpu.init: ${e.message}`);
    throw new DeviceError(`gpu.init: the \`webgpu\` package could not be loaded (${(e as Error).message}); run \`npm install webgpu\``);
  }
  // Dawn's constructors (GPUBufferUsage, …) are what WebGPU code expects as globals.
  for (const [k, v] of Object.entries(mod.globals)) {
    if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  }
  return { gpu: mod.create(flags), source: 'webgpu', create: mod.create };
}

// float32 subnormals through a multiply and an add, from run-time values (constants would
// be folded by the shader compiler, which keeps subnormals where the hardware may not).
export const PROBE_DECL = { inputs: {}, outputs: { io: 'f32' }, uniforms: {} } as const;
const PROBE = wgslPreamble(PROBE_DECL) + `
@compute @workgroup_size(1)
fn probe() {
  let tiny = io[0];  // 2^-126, the smallest normal
  let half = io[1];  // 0.5
  let sub = io[2];   // 2^-140, subnormal
  let one = io[3];   // 1.0
  io[0] = tiny * half;  // a subnormal result from normal operands
  io[1] = sub * one;    // a subnormal operand of a multiply
  io[2] = sub + sub;    // ... of an add
}`;

/** Whether the device's float32 arithmetic keeps subnormals (one thread, one round trip at init). */
async function probeSubnormals(device: GPUDevice): Promise<boolean> {
  const host = new Float32Array([2 ** -126, 0.5, 2 ** -140, 1]);
  device.pushErrorScope('validation');
  const io = device.createBuffer({ size: 16, usage: 0x80 | 0x04 | 0x08 /* STORAGE | COPY_SRC | COPY_DST */ });
  const rb = device.createBuffer({ size: 16, usage: 0x01 | 0x08 /* MAP_READ | COPY_DST */ });
  device.queue.writeBuffer(io, 0, host);
  const pipeline = device.createComputePipeline({
    layout: 'auto', compute: { module: device.createShaderModule({ code: PROBE }), entryPoint: 'probe' },
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: io } }] }));
  pass.dispatchWorkgroups(1);
  pass.end();
  enc.copyBufferToBuffer(io, 0, rb, 0, 16);
  device.queue.submit([enc.finish()]);
  const err = await device.popErrorScope();
  if (err) throw new Error(err.message);
  await rb.mapAsync(1 /* READ */);
  const r = new Float32Array(rb.getMappedRange().slice(0));
  rb.unmap();
  io.destroy();
  rb.destroy();
  return r[0] === 2 ** -127 && r[1] === 2 ** -140 && r[2] === 2 ** -139;
}

async function doInit(opts: GpuInitOptions): Promise<GpuInfo> {
  const flags = opts.dawnFlags ?? (nodeProcess?.env?.LAPIS_DAWN_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const { gpu, source, create } = await getGpu(flags);
  let adapter: GPUAdapter | null = null;
  let owner = gpu;
  try {
    adapter = await gpu.requestAdapter({
      powerPreference: opts.powerPreference ?? 'high-performance',
      forceFallbackAdapter: opts.forceSoftware ?? false,
    });
    if (!adapter && opts.forceSoftware && create) {
      // Dawn's fallback is SwiftShader, absent from most builds; lavapipe is the software adapter there.
      owner = create([...flags, 'adapter=llvmpipe']);
      adapter = await owner.requestAdapter();
    }
  } catch (e) {
    throw new DeviceError(`gpu.init: requesting a WebGPU adapter failed (${(e as Error).message}); ${INSTALL_HINT}`);
  }
  if (!adapter) {
    throw new DeviceError(`gpu.init: no WebGPU adapter found${opts.forceSoftware ? ' (software adapter requested)' : ''}; ${INSTALL_HINT}`);
  }
  const limitsMode = opts.limits ?? (nodeProcess?.env?.LAPIS_GPU_LIMITS || 'adapter');
  if (limitsMode !== 'adapter' && limitsMode !== 'default') {
    throw new ArgumentError(`gpu.init: limits must be 'adapter' or 'default', got ${JSON.stringify(limitsMode)}${opts.limits === undefined ? ' (from LAPIS_GPU_LIMITS)' : ''}`);
  }
  const requiredLimits: Record<string, number> = {};
  if (limitsMode === 'adapter') {
    for (const k of WANTED_LIMITS) {
      const v = (adapter.limits as unknown as Record<string, number>)[k];
      if (typeof v === 'number') requiredLimits[k] = v;
    }
  }
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits });
  } catch (e) {
    throw new DeviceError(`gpu.init: the adapter refused a device (${(e as Error).message})`);
  }
  let subnormals: boolean;
  try {
    subnormals = await probeSubnormals(device);
  } catch (e) {
    device.destroy();
    throw new DeviceError(`gpu.init: the subnormal probe kernel failed (${(e as Error).message})`);
  }
  const ai = adapter.info ?? ({} as GPUAdapterInfo);
  const lim = device.limits as unknown as Record<string, number>;
  const limits = {} as GpuLimits;
  for (const k of [...WANTED_LIMITS, 'maxComputeWorkgroupsPerDimension', 'minUniformBufferOffsetAlignment', 'minStorageBufferOffsetAlignment'] as Array<keyof GpuLimits>) {
    limits[k] = lim[k];
  }
  const info: GpuInfo = {
    vendor: ai.vendor ?? '',
    architecture: ai.architecture ?? '',
    description: ai.description ?? '',
    device: ai.device ?? '',
    isSoftware: Boolean((ai as { isFallbackAdapter?: boolean }).isFallbackAdapter)
      || softwareName(`${ai.vendor} ${ai.architecture} ${ai.description} ${ai.device}`),
    source,
    dawnFlags: source === 'webgpu' ? flags : [],
    limitsMode,
    limits,
    subnormals,
    subgroups: adapter.features.has('subgroups'),
    subgroupMinSize: (ai as { subgroupMinSize?: number }).subgroupMinSize ?? 0,
    subgroupMaxSize: (ai as { subgroupMaxSize?: number }).subgroupMaxSize ?? 0,
  };
  const s: State = { gpu: owner, adapter, device, info };
  device.lost.then((l) => {
    if (state !== s) return;
    failure = `the GPU device was lost (${l.reason}${l.message ? `: ${l.message}` : ''}); call \`await gpu.init()\` again`;
    state = undefined;
    for (const h of lostHooks) h();
  });
  device.onuncapturederror = (ev: GPUUncapturedErrorEvent) => {
    uncaptured ??= ev.error.message;
  };
  state = s;
  failure = undefined;
  return info;
}

/**
 * Creates the WebGPU device (once; later calls return the same info). Asks for the
 * adapter's maximum storage-buffer, buffer and workgroup limits, or WebGPU's defaults with
 * `limits: 'default'`; probes whether float32 subnormals survive arithmetic.
 * Throws: DeviceError with the reason when there is no adapter, and what to install.
 */
export function initGpu(opts: GpuInitOptions = {}): Promise<GpuInfo> {
  if (state) return Promise.resolve(state.info);
  if (!pending) {
    pending = doInit(opts).catch((e: unknown) => {
      failure = (e as Error).message;
      throw e;
    }).finally(() => { pending = undefined; });
  }
  return pending;
}

/** The device, for backend code. Throws DeviceError when `gpu.init()` has not run or failed. */
export function gpuDevice(who: string): GPUDevice {
  if (state) return state.device;
  if (failure) throw new DeviceError(`${who}: no GPU: ${failure.replace(/^gpu\.init: /, '')}`);
  throw new DeviceError(`${who}: the GPU is not initialised; call \`await gpu.init()\` first`);
}

/** Adapter description and limits, or undefined before `gpu.init()`. */
export function gpuInfo(): GpuInfo | undefined {
  return state?.info;
}

/** Limits of the live device (backend use). */
export function gpuLimits(who: string): GpuLimits {
  gpuDevice(who);
  return state!.info.limits;
}

/** True when a WebGPU device can be created (creates it). Never throws. */
export async function gpuAvailable(): Promise<boolean> {
  try {
    await initGpu();
    return true;
  } catch {
    return false;
  }
}

/** A validation error Dawn reported outside an error scope since the last call (then cleared). */
export function takeUncapturedError(): string | undefined {
  const e = uncaptured;
  uncaptured = undefined;
  return e;
}

/** Destroys the device (tests, shutdown). A later `gpu.init()` creates a new one. */
export function destroyGpu(): void {
  if (!state) return;
  const s = state;
  state = undefined;
  for (const h of lostHooks) h();
  s.device.destroy();
}
