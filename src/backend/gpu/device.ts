/// <reference types="@webgpu/types" />
// The WebGPU adapter and device: one per process, created by `await gpu.init()`.
// Node gets WebGPU from the `webgpu` package (Dawn); a runtime with `navigator.gpu`
// (a browser, Deno) uses its own.
import { DeviceError } from '../../core/errors.js';

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
  limits: GpuLimits;
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
  let mod: { create: (o: string[]) => GPU; globals: object };
  try {
    mod = (await import('webgpu')) as unknown as typeof mod;
  } catch (e) {
    throw new DeviceError(`gpu.init: the \`webgpu\` package could not be loaded (${(e as Error).message}); run \`npm install webgpu\``);
  }
  // Dawn's constructors (GPUBufferUsage, …) are what WebGPU code expects as globals.
  for (const [k, v] of Object.entries(mod.globals)) {
    if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
  }
  return { gpu: mod.create(flags), source: 'webgpu', create: mod.create };
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
  const requiredLimits: Record<string, number> = {};
  for (const k of WANTED_LIMITS) {
    const v = (adapter.limits as unknown as Record<string, number>)[k];
    if (typeof v === 'number') requiredLimits[k] = v;
  }
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredLimits });
  } catch (e) {
    throw new DeviceError(`gpu.init: the adapter refused a device (${(e as Error).message})`);
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
    limits,
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
 * adapter's maximum storage-buffer, buffer and workgroup limits.
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
