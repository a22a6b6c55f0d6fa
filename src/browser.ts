// The browser entry ("browser" condition of package.json's "."; built by
// `npm run build:browser` into dist-browser/lapis.js): the same API as src/index.ts, with
// the CPU ops on the WebAssembly build of the native kernels. The .wasm is the package's
// build/wasm/ copy (the one the Node loader reads too), fetched and instantiated here before
// the importing module runs (top-level await), so every CPU op is synchronous as in Node. If it cannot be loaded the page still
// gets the module: CPU ops then throw a DeviceError with the reason and the GPU works, as in
// Node without an addon. Node-only modules are swapped for their .browser.ts siblings by
// vite.browser.config.ts. A cross-origin isolated page gets the threaded build
// (lapis-mt.wasm), its pool threads on Web Workers started here; other pages get lapis.wasm.
import { instantiateWasmBackend, type PoolWorker, type WasmThreadOptions } from './backend/wasm/instantiate.js';
import { setCpuBackend, setCpuBackendFailure } from './backend/cpu/load.browser.js';

// A literal `new URL(…, import.meta.url)`: bundlers that build a page from this file copy
// lapis.wasm along (vite-ignore: when building this bundle it is not an input but a file
// the bundle fetches). src/ and dist-browser/ are both one level below the package root.
const wasmUrl = new URL(/* @vite-ignore */ '../build/wasm/lapis.wasm', import.meta.url);
const wasmThreadedUrl = new URL(/* @vite-ignore */ '../build/wasm/lapis-mt.wasm', import.meta.url);

// The pool's workers run a program given as text (threads.ts), from a Blob URL: no file to serve.
function spawnWebWorker(source: string): PoolWorker {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const w = new Worker(url);
  URL.revokeObjectURL(url);
  return {
    post: (m) => w.postMessage(m),
    onMessage: (h) => {
      w.onmessage = (e) => h(e.data);
    },
    terminate: () => w.terminate(),
  };
}

const cores = Math.max(1, Math.min(256, globalThis.navigator?.hardwareConcurrency ?? 1));
const threadOptions: WasmThreadOptions = {
  spawn: spawnWebWorker,
  // A page's thread may not Atomics.wait (it spins); lapis imported in a worker may.
  canBlock: typeof (globalThis as { document?: unknown }).document === 'undefined',
  startsWhileBlocked: false,
  hardwareConcurrency: cores,
};

async function load(url: URL, threaded = false): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`fetching ${url.href} failed (${(e as Error).message})`);
  }
  if (!res.ok) throw new Error(`fetching ${url.href} failed (HTTP ${res.status}); serve the package's build/wasm/ at ../build/wasm/ from the bundle (docs/browser.md)`);
  let raw;
  try {
    // The pool (std::thread::hardware_concurrency() threads) gets its workers now: a worker
    // started during a call would not run before the page's thread is free again.
    raw = await instantiateWasmBackend(await res.arrayBuffer(), threaded ? { threads: threadOptions, prestartWorkers: cores - 1 } : {});
  } catch (e) {
    // e.g. a browser without WebAssembly SIMD (Safari before 16.4), or a file that is not the module
    throw new Error(`${url.href} did not compile or instantiate (${(e as Error).message})`);
  }
  setCpuBackend({ name: 'wasm', raw, where: url.href });
}

const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true && typeof SharedArrayBuffer !== 'undefined';
await (isolated
  ? load(wasmThreadedUrl, true).catch((e: unknown) => {
    console.warn(`lapis: the threaded WebAssembly backend did not load (${(e as Error).message}); the CPU ops run on one thread`);
    return load(wasmUrl);
  })
  : load(wasmUrl)
).catch((e: unknown) => setCpuBackendFailure((e as Error).message));

export * from './index.js';
