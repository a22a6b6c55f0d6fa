// The browser entry ("browser" condition of package.json's "."; built by
// `npm run build:browser` into dist-browser/lapis.js): the same API as src/index.ts, with
// the CPU ops on the WebAssembly build of the native kernels. The .wasm sits beside the
// bundle and is fetched and instantiated here, before the importing module runs (top-level
// await), so every CPU op is synchronous as in Node. If it cannot be loaded the page still
// gets the module: CPU ops then throw a DeviceError with the reason and the GPU works, as in
// Node without an addon. Node-only modules are swapped for their .browser.ts siblings by
// vite.browser.config.ts.
import { instantiateWasmBackend } from './backend/wasm/instantiate.js';
import { setCpuBackend, setCpuBackendFailure } from './backend/cpu/load.browser.js';

// A literal `new URL(…, import.meta.url)`: bundlers that build a page from this file copy
// lapis.wasm along (vite-ignore: when building this bundle it is not an input but a sibling).
const wasmUrl = new URL(/* @vite-ignore */ './lapis.wasm', import.meta.url);

async function load(url: URL): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`fetching ${url.href} failed (${(e as Error).message})`);
  }
  if (!res.ok) throw new Error(`fetching ${url.href} failed (HTTP ${res.status}); serve lapis.wasm beside the bundle (docs/browser.md)`);
  let raw;
  try {
    raw = await instantiateWasmBackend(await res.arrayBuffer());
  } catch (e) {
    // e.g. a browser without WebAssembly SIMD (Safari before 16.4), or a file that is not the module
    throw new Error(`${url.href} did not compile or instantiate (${(e as Error).message})`);
  }
  setCpuBackend({ name: 'wasm', raw, where: url.href });
}

await load(wasmUrl).catch((e: unknown) => setCpuBackendFailure((e as Error).message));

export * from './index.js';
