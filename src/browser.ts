// The browser entry ("browser" condition of package.json's "."; built by
// `npm run build:browser` into dist-browser/lapis.js): the same API as src/index.ts, with
// the CPU ops on the WebAssembly build of the native kernels. The .wasm sits beside the
// bundle and is fetched and instantiated here, before the importing module runs (top-level
// await), so every CPU op is synchronous as in Node. Node-only modules are swapped for
// their .browser.ts siblings by vite.browser.config.ts.
import { instantiateWasmBackend } from './backend/wasm/instantiate.js';
import { setCpuBackend } from './backend/cpu/load.browser.js';
import { DeviceError } from './core/errors.js';

// A literal `new URL(…, import.meta.url)`: bundlers that build a page from this file copy
// lapis.wasm along (vite-ignore: when building this bundle it is not an input but a sibling).
const wasmUrl = new URL(/* @vite-ignore */ './lapis.wasm', import.meta.url);

async function fetchWasm(url: URL): Promise<ArrayBuffer> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new DeviceError(`lapis: fetching the WebAssembly CPU backend ${url.href} failed (${(e as Error).message})`);
  }
  if (!res.ok) throw new DeviceError(`lapis: fetching the WebAssembly CPU backend ${url.href} failed (HTTP ${res.status})`);
  return res.arrayBuffer();
}

setCpuBackend({ name: 'wasm', raw: await instantiateWasmBackend(await fetchWasm(wasmUrl)), where: wasmUrl.href });

export * from './index.js';
