// The browser's version of ./load.ts (swapped in by vite.browser.config.ts): a page has no
// native addon, so the CPU backend is the WebAssembly build, which the browser entry
// (src/browser.ts) instantiates before any op can run and hands over here.
import { DeviceError } from '../../core/errors.js';
import type { CpuBackendName, LoadedCpuBackend } from './load.js';

export type { CpuBackendName, LoadedCpuBackend };

let loaded: LoadedCpuBackend | undefined;

/** Sets the backend loadCpuBackend() returns (src/browser.ts, once the .wasm is instantiated). */
export function setCpuBackend(backend: LoadedCpuBackend): void {
  loaded = backend;
}

/** The CPU backend the browser entry instantiated, loaded once by native() in ./binding.ts. */
export function loadCpuBackend(): LoadedCpuBackend {
  if (!loaded) {
    throw new DeviceError("lapis: the WebAssembly CPU backend is not loaded; import lapis through its browser entry ('lapis' in a bundler, or dist-browser/lapis.js)");
  }
  return loaded;
}
