// The public `gpu` namespace: `await gpu.init()` before moving tensors to the GPU.
import { initGpu, gpuInfo, gpuAvailable, type GpuInfo, type GpuInitOptions } from './device.js';
import { gpuSync } from './queue.js';
import { setWgslDumpDir } from './program.js';
import { poolStats, setPoolCap, trimPool, type PoolStats } from './pool.js';
import { canDumpWgsl } from './host.js';
import { readOptions, opt } from '../../core/options.js';
import { ArgumentError } from '../../core/errors.js';

export type { GpuInfo, GpuInitOptions, PoolStats };

/**
 * Creates the WebGPU device (once). Needed before `tensor.to('gpu')`.
 *
 * Syntax: `await gpu.init({ powerPreference, forceSoftware, dawnFlags, limits, dumpWgsl })`
 * Example: `const info = await gpu.init(); console.log(info.description, info.subnormals)`;
 * `await gpu.init({ limits: 'default' })` takes WebGPU's default limits (also
 * LAPIS_GPU_LIMITS=default), to check that the kernels fit a small GPU;
 * `await gpu.init({ dumpWgsl: '/tmp/wgsl' })` writes each compiled kernel's WGSL there
 * (also LAPIS_GPU_DUMP_WGSL=/tmp/wgsl; docs/gpu-runtime.md).
 * Throws: DeviceError when no adapter is found, with what to install (Linux: a Vulkan
 * driver, e.g. Mesa's lavapipe in `mesa-vulkan-drivers`); ArgumentError for an unknown
 * option or a bad value (`limits: 'small'`; `dumpWgsl` in a browser). A later call returns the existing device's info.
 * See also: `gpu.available`, `gpu.info`.
 */
export function init(opts?: GpuInitOptions): Promise<GpuInfo> {
  try {
    readOptions('gpu.init', opts, {
      powerPreference: opt.oneOf('low-power', 'high-performance'), forceSoftware: opt.bool,
      dawnFlags: opt.array(opt.check((v) => typeof v === 'string', 'string')),
      limits: opt.oneOf('adapter', 'default'), dumpWgsl: opt.check((v) => typeof v === 'string' && v !== '', 'a folder name'),
    });
    if (opts?.dumpWgsl !== undefined) {
      if (!canDumpWgsl) throw new ArgumentError('gpu.init: dumpWgsl needs a file system (Node); a browser has none');
      setWgslDumpDir(opts.dumpWgsl);
    }
  } catch (e) {
    return Promise.reject(e);
  }
  return initGpu(opts);
}

/**
 * The adapter (vendor, architecture, description, software or not) and limits, or
 * undefined before `gpu.init()`.
 *
 * Syntax: `gpu.info()`
 * Example: `gpu.info()?.isSoftware` → true on lavapipe
 * Throws: nothing.
 * See also: `gpu.init`.
 */
export function info(): GpuInfo | undefined {
  return gpuInfo();
}

/**
 * Whether a GPU device can be created (creates it on success).
 *
 * Syntax: `await gpu.available()`
 * Example: `const device = (await gpu.available()) ? 'gpu' : 'cpu'`
 * Throws: nothing.
 * See also: `gpu.init`.
 */
export function available(): Promise<boolean> {
  return gpuAvailable();
}

/**
 * Submits recorded GPU work and waits until it has finished (benchmarks, timing).
 * Reads (`await t.data()`) do this on their own.
 *
 * Syntax: `await gpu.sync()`
 * Example: `linalg.matmul(A, B); await gpu.sync()`
 * Throws: DeviceError if the GPU is not initialised or reported a validation error.
 * See also: `gpu.memory`.
 */
export function sync(): Promise<void> {
  return gpuSync();
}

/**
 * Buffer-pool statistics: bytes held by live tensors and idle bytes kept for reuse.
 * Options: `{ maxPooledBytes }` sets the idle cap (default: 1 GiB or twice the largest
 * allocation); `{ trim: true }` frees idle buffers.
 *
 * Syntax: `gpu.memory()`, `gpu.memory({ trim: true })`
 * Example: `gpu.memory().bytesLive` stays flat in a loop that disposes its tensors
 * Throws: nothing.
 * See also: `Tensor.dispose`.
 */
export function memory(opts: { maxPooledBytes?: number; trim?: boolean } = {}): PoolStats {
  opts = readOptions('gpu.memory', opts, { maxPooledBytes: opt.num({ min: 0, finite: false }), trim: opt.bool });
  if (opts.maxPooledBytes !== undefined) setPoolCap(opts.maxPooledBytes);
  if (opts.trim) trimPool();
  return poolStats();
}
