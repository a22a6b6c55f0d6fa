// The browser's version of ./load.ts (swapped in by vite.browser.config.ts): a page has no
// native addon, so the CPU backend is the WebAssembly build, which the browser entry
// (src/browser.ts) instantiates before any op can run and hands over here.
import { DeviceError } from '../../core/errors.js';
import type { CpuBackendName, LoadedCpuBackend } from './load.js';

export type { CpuBackendName, LoadedCpuBackend };

let loaded: LoadedCpuBackend | undefined;
let failure: string | undefined;

/** Sets the backend loadCpuBackend() returns (src/browser.ts, once the .wasm is instantiated). */
export function setCpuBackend(backend: LoadedCpuBackend): void {
  loaded = backend;
  failure = undefined;
}

/** Records why the .wasm did not load: the page still loads, and the GPU works; CPU ops throw this (as in Node without an addon). */
export function setCpuBackendFailure(reason: string): void {
  failure = reason;
}

/** The CPU backend the browser entry instantiated, loaded once by native() in ./binding.ts. */
export function loadCpuBackend(): LoadedCpuBackend {
  if (failure !== undefined) throw new DeviceError(`lapis: the WebAssembly CPU backend did not load: ${failure}`);
  if (!loaded) {
    throw new DeviceError("lapis: the WebAssembly CPU backend is not loaded; import lapis through its browser entry ('lapis' in a bundler, or dist-browser/lapis.js)");
  }
  return loaded;
}
