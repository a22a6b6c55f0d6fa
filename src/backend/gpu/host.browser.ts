// The browser's version of ./host.ts (swapped in by vite.browser.config.ts): WebGPU is
// `navigator.gpu` or nothing, and there is no file system to dump WGSL into.
import { DeviceError } from '../../core/errors.js';
import type { WebgpuModule } from './host.js';

export type { WebgpuModule };

/** A page has no `webgpu` package: device.ts only asks when `navigator.gpu` is missing. */
export function importWebgpu(): Promise<WebgpuModule> {
  return Promise.reject(new DeviceError(
    'this browser has no navigator.gpu (WebGPU is off or unsupported; Chromium 113+, or Firefox and Safari with WebGPU enabled, and a secure context: https or localhost)',
  ));
}

/** Whether `gpu.init({ dumpWgsl })` can write files here. */
export const canDumpWgsl = false;

/** Never called: gpu.init refuses `dumpWgsl` where canDumpWgsl is false. */
export function writeDumpFile(dir: string): string {
  throw new DeviceError(`gpu: cannot write the WGSL dump to ${dir}: a browser has no file system`);
}
