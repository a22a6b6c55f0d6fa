// The WebAssembly CPU backend (docs/wasm.md): instantiates build/wasm/lapis.wasm, the
// native kernels and native/binding compiled by Emscripten against the Node-API shim of
// native/binding/wasm, and returns its exports as the addon's raw functions (same names, same
// `.options`, same argument checks and error messages), so src/backend/cpu/binding.ts
// wraps either one the same way. No `node:` imports: the browser bundle uses this file.
//
// The shim's napi_values are handles into `values`, a table that lives for one call. A
// typed array argument is copied into the wasm heap when the binding first reads it (once
// per call, however many arguments name the same array), and after the call the arrays
// passed as the export's outputs (./outputs.ts) are copied back; inputs are neither scanned
// nor copied back. The heap may grow during any call, so heap views are made afresh after
// each call into wasm.
//
// The threaded build (build/wasm/lapis-mt.wasm) runs on a shared memory, and its pool
// threads on workers that src/backend/wasm/threads.ts starts; the caller's thread runs the
// bindings, the copies and its share of the kernels, as with the single-thread build.
import { DeviceError } from '../../core/errors.js';
import { WASM_OUTPUTS } from './outputs.js';
import { emscriptenRuntimeImports, ThreadHost, type ThreadExports, type WasmThreadOptions } from './threads.js';

export type { PoolWorker, SpawnPoolWorker, WasmThreadOptions } from './threads.js';

/** A function as the addon exports it: positional arguments, and its option names ("dtype,A,…") in `options`. */
export type WasmRawFunction = ((...args: unknown[]) => unknown) & { options?: unknown };

export interface WasmBackendOptions {
  /** Environment variables the kernels read (LAPIS_KERNELS, LAPIS_NUM_THREADS); none by default. */
  env?: Record<string, string>;
  /** The most memory the module's heap may grow to, in bytes (default and at most 4 GiB). */
  maximumMemoryBytes?: number;
  /** For the threaded build (lapis-mt.wasm), how to start its pool's workers; it refuses to load without. */
  threads?: WasmThreadOptions;
  /** Threaded build: workers to start and load before the module is handed out (instantiateWasmBackend only; a browser needs them). */
  prestartWorkers?: number;
}

/** Whether the module is the threaded build (it imports Emscripten's pthread runtime). */
export function isThreadedWasmModule(module: WebAssembly.Module): boolean {
  return WebAssembly.Module.imports(module).some((i) => i.module === 'env' && i.name === '__pthread_create_js');
}

const hosts = new WeakMap<object, ThreadHost>();

/** The workers behind a threaded backend's functions (null for the single-thread build): for tests and shutdown. */
export function wasmThreadHost(raw: Record<string, WasmRawFunction>): ThreadHost | null {
  return hosts.get(raw) ?? null;
}

const PAGE = 65536;
const MAX_PAGES = 65536;
// The heap the module starts with (scripts/build-wasm.mjs links for 16 MiB).
const INITIAL_PAGES = 256;

type TypedArray =
  | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array
  | Float64Array | BigInt64Array | BigUint64Array;

// napi_typedarray_type's order (native/binding/wasm/napi.h).
const TYPED_ARRAY_CODES: [new (n: number) => TypedArray, number][] = [
  [Int8Array, 0], [Uint8Array, 1], [Uint8ClampedArray, 2], [Int16Array, 3], [Uint16Array, 4], [Int32Array, 5],
  [Uint32Array, 6], [Float32Array, 7], [Float64Array, 8], [BigInt64Array, 9], [BigUint64Array, 10],
];

function typedArrayCode(v: unknown): number {
  if (!ArrayBuffer.isView(v) || v instanceof DataView) return -1;
  for (const [ctor, code] of TYPED_ARRAY_CODES) if (v instanceof ctor) return code;
  return -1;
}

// napi_valuetype's order.
function typeCode(v: unknown): number {
  switch (typeof v) {
    case 'undefined': return 0;
    case 'boolean': return 2;
    case 'number': return 3;
    case 'string': return 4;
    case 'symbol': return 5;
    case 'function': return 7;
    case 'bigint': return 9;
    default: return v === null ? 1 : 6;
  }
}

interface WasmExports {
  memory?: WebAssembly.Memory;
  malloc(bytes: number): number;
  free(ptr: number): void;
  lapis_wasm_count(): number;
  lapis_wasm_name(i: number): number;
  lapis_wasm_options(i: number): number;
  lapis_wasm_call(i: number, first: number, argc: number): number;
  /** Threaded build: completes the async calls whose work the runner thread finished. */
  lapis_wasm_async_complete?: () => number;
  _initialize?: () => void;
  __wasm_call_ctors?: () => void;
}

interface Staged {
  js: TypedArray;
  ptr: number;
  bytes: number;
  /** Passed as one of the call's outputs: copied back after the call. */
  out: boolean;
}

// Handle of a call's first argument: 0 is no value, 1 and 2 undefined and null (napi_shim.cpp).
const FIRST_ARG = 3;

/** The CPU backend's raw functions from the module's bytes (compiled and instantiated asynchronously, as a page must). */
export async function instantiateWasmBackend(
  wasmBinary: ArrayBuffer | Uint8Array,
  options: WasmBackendOptions = {},
): Promise<Record<string, WasmRawFunction>> {
  const module = await WebAssembly.compile(bytesOf(wasmBinary));
  const rt = new Runtime(module, options);
  const instance = await WebAssembly.instantiate(module, rt.imports());
  if (rt.host && options.prestartWorkers) await rt.host.prestart(options.prestartWorkers);
  rt.attach(instance);
  return rt.functions();
}

/** The same, synchronously (Node compiles modules of any size on its main thread; a browser's main thread does not). */
export function instantiateWasmBackendSync(
  wasmBinary: ArrayBuffer | Uint8Array,
  options: WasmBackendOptions = {},
): Record<string, WasmRawFunction> {
  const module = new WebAssembly.Module(bytesOf(wasmBinary));
  const rt = new Runtime(module, options);
  rt.attach(new WebAssembly.Instance(module, rt.imports()));
  return rt.functions();
}

function bytesOf(b: ArrayBuffer | Uint8Array): Uint8Array<ArrayBuffer> {
  // A Uint8Array (perhaps over a shared or resizable buffer) is copied: compile wants stable bytes.
  return b instanceof Uint8Array ? new Uint8Array(b) : new Uint8Array(b);
}

class Runtime {
  private readonly values: unknown[] = [undefined, undefined, null];  // 0: no value; 1, 2 fixed (napi_shim.cpp)
  private readonly staged = new Map<TypedArray, Staged>();
  // The running call's outputs by argument position (1: output), or null where the export
  // is not in ./outputs.ts and every staged array is compared with its heap copy instead.
  private callOutputs: Uint8Array | null = null;
  private pending: Error | null = null;
  // napi_refs (persistent ids: an async call's outputs outlive the call's value table).
  private readonly refs = new Map<number, unknown>();
  private nextRef = 1;
  // The promises of async calls not yet settled, by deferred id, with the op's name.
  private readonly deferreds = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void; name: string }>();
  private nextDeferred = 1;
  // Keeps Node's event loop alive while async calls are in flight (the workers are unref'd).
  private keepAlive: ReturnType<typeof setInterval> | null = null;
  private callName = '';
  // Inside lapis_wasm_async_complete: every array staged is an output being filled.
  private completing = false;
  // The deferred of the promise the running call created (0: none).
  private callDeferred = 0;
  // Threaded build: the heap copies of an in-flight async call's outputs, by its deferred,
  // kept from the call to its completion, which copies the results through them: completing
  // needs no heap then, where a failed allocation could only end the instance.
  private readonly reserved = new Map<number, Staged[]>();
  // The deferred whose completion runs now (napi_shim.cpp says before each).
  private completingDeferred = 0;
  private memory!: WebAssembly.Memory;
  private ex!: WasmExports;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();
  private readonly envBytes: Uint8Array[];
  private broken: string | null = null;
  // Why the module trapped on this thread, when it asked to (abort(), exit()).
  private aborted: string | null = null;
  readonly host: ThreadHost | null = null;
  private readonly shared: boolean;
  private readonly maximumBytes: number = MAX_PAGES * PAGE;

  constructor(
    private readonly module: WebAssembly.Module,
    options: WasmBackendOptions,
  ) {
    this.shared = isThreadedWasmModule(module);
    if (this.shared && !options.threads) {
      throw new Error('lapis wasm: this is the threaded build (lapis-mt.wasm), which needs workers (the threads option); load lapis.wasm where there are none');
    }
    if (this.shared && typeof SharedArrayBuffer === 'undefined') {
      throw new Error('lapis wasm: the threaded build needs SharedArrayBuffer (a cross-origin isolated page); load lapis.wasm here');
    }
    const maxBytes = options.maximumMemoryBytes ?? MAX_PAGES * PAGE;
    let maximum = Math.max(INITIAL_PAGES, Math.min(MAX_PAGES, Math.floor(maxBytes / PAGE)));
    // An engine without guard regions (a 32-bit browser) reserves the maximum up front:
    // where that fails, a smaller ceiling is the most the heap could reach anyway.
    for (;;) {
      try {
        this.memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum, shared: this.shared });
        this.maximumBytes = maximum * PAGE;
        break;
      } catch (e) {
        if (maximum > INITIAL_PAGES) {
          maximum = Math.max(INITIAL_PAGES, maximum >> 1);
          continue;
        }
        // 64-bit V8 reserves about 10 GiB of address space per memory (its guard regions).
        throw new RangeError(
          `lapis: the WebAssembly backend cannot reserve its memory (${e instanceof Error ? e.message : String(e)}); under an address-space limit (ulimit -v) Node needs --disable-wasm-trap-handler (Node 22 and later)`,
        );
      }
    }
    this.envBytes = Object.entries(options.env ?? {}).map(([k, v]) => this.encoder.encode(`${k}=${v}\0`));
    if (this.shared) {
      const env = Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`);
      this.host = new ThreadHost(module, this.memory, env, options.threads!, this.maximumBytes);
    }
  }

  private u8(): Uint8Array {
    return new Uint8Array(this.memory.buffer);
  }
  private view(): DataView {
    return new DataView(this.memory.buffer);
  }
  // TextDecoder refuses views of a SharedArrayBuffer: the threaded build's strings are copied out.
  private str(ptr: number, len: number): string {
    const u8 = this.u8();
    return this.decoder.decode(this.shared ? u8.slice(ptr, ptr + len) : u8.subarray(ptr, ptr + len));
  }
  private cstr(ptr: number): string {
    const u8 = this.u8();
    let end = ptr;
    while (u8[end] !== 0) end++;
    return this.decoder.decode(this.shared ? u8.slice(ptr, end) : u8.subarray(ptr, end));
  }
  private push(v: unknown): number {
    this.values.push(v);
    return this.values.length - 1;
  }

  imports(): WebAssembly.Imports {
    const lapis = {
      type_of: (h: number) => typeCode(this.values[h]),
      number: (h: number) => this.values[h] as number,
      boolean: (h: number) => (this.values[h] ? 1 : 0),
      typed_array: (h: number, out: number) => this.stage(h, out),
      is_array: (h: number) => (Array.isArray(this.values[h]) ? 1 : 0),
      array_length: (h: number) => (this.values[h] as unknown[]).length,
      element: (h: number, i: number) => this.push((this.values[h] as unknown[])[i]),
      string: (ptr: number, len: number) => this.push(this.str(ptr, len)),
      double: (d: number) => this.push(d),
      object: () => this.push({}),
      array: () => this.push([]),
      set_named: (o: number, key: number, len: number, v: number) => {
        (this.values[o] as Record<string, unknown>)[this.str(key, len)] = this.values[v];
      },
      set_element: (a: number, i: number, v: number) => {
        (this.values[a] as unknown[])[i] = this.values[v];
      },
      error: (kind: number, msg: number) => this.push(makeError(kind, String(this.values[msg]))),
      promise: (deferredOut: number) => {
        const id = this.nextDeferred++;
        const p = new Promise((resolve, reject) => {
          this.deferreds.set(id, { resolve, reject, name: this.callName });
        });
        this.callDeferred = id;
        this.view().setUint32(deferredOut, id, true);
        return this.push(p);
      },
      settle: (d: number, ok: number, v: number) => {
        const s = this.deferreds.get(d);
        if (!s) return;
        this.deferreds.delete(d);
        if (ok) s.resolve(this.values[v]);
        else s.reject(this.values[v]);
      },
      ref: (h: number) => {
        const id = this.nextRef++;
        this.refs.set(id, this.values[h]);
        return id;
      },
      deref: (id: number) => (this.refs.has(id) ? this.push(this.refs.get(id)) : 0),
      unref: (id: number) => {
        this.refs.delete(id);
      },
      completing: (d: number) => {
        this.completingDeferred = d;
      },
      // Only pool threads call it (their worker posts 'async'); here it means the same.
      async_done: () => {
        setTimeout(() => this.completeAsync(), 0);
      },
      throw: (kind: number, ptr: number, len: number) => {
        this.pending = makeError(kind, this.str(ptr, len));
      },
    };
    const clockNs = () => BigInt(Math.round((globalThis.performance?.now() ?? Date.now()) * 1e6));
    const wasi = {
      // Kernels print nothing; a stray write (libc++ abort message) goes to the console.
      fd_write: (fd: number, iovs: number, n: number, written: number) => {
        const v = this.view();
        let total = 0;
        let text = '';
        for (let i = 0; i < n; i++) {
          const ptr = v.getUint32(iovs + 8 * i, true);
          const len = v.getUint32(iovs + 8 * i + 4, true);
          text += this.str(ptr, len);
          total += len;
        }
        (fd === 2 ? console.error : console.log)(`lapis wasm: ${text.replace(/\n$/, '')}`);
        v.setUint32(written, total, true);
        return 0;
      },
      fd_close: () => 0,
      fd_seek: () => 70,  // ESPIPE: no files
      proc_exit: (code: number) => {
        throw new Error(`lapis wasm: the module exited with code ${code}`);
      },
      environ_sizes_get: (count: number, size: number) => {
        const v = this.view();
        v.setUint32(count, this.envBytes.length, true);
        v.setUint32(size, this.envBytes.reduce((s, b) => s + b.length, 0), true);
        return 0;
      },
      environ_get: (ptrs: number, buf: number) => {
        for (const b of this.envBytes) {
          this.view().setUint32(ptrs, buf, true);
          this.u8().set(b, buf);
          ptrs += 4;
          buf += b.length;
        }
        return 0;
      },
      // One clock for all ids: the thread's CPU time is its wall time on the one thread.
      clock_time_get: (_id: number, _precision: bigint, out: number) => {
        this.view().setBigUint64(out, clockNs(), true);
        return 0;
      },
      clock_res_get: (_id: number, out: number) => {
        this.view().setBigUint64(out, 1000n, true);
        return 0;
      },
    };
    const env: Record<string, unknown> = {
      memory: this.memory,
      emscripten_notify_memory_growth: () => {},
      ...(this.host
        ? {
          ...emscriptenRuntimeImports(() => this.memory, this.maximumBytes, (reason) => {
            this.aborted = reason;
          }),
          ...this.host.imports(typeof (globalThis as { document?: unknown }).document !== 'undefined'),
        }
        : {}),
    };
    const provided: Record<string, Record<string, unknown>> = { lapis, wasi_snapshot_preview1: wasi, env };
    const imports: Record<string, Record<string, unknown>> = {};
    for (const imp of WebAssembly.Module.imports(this.module)) {
      const value = provided[imp.module]?.[imp.name];
      if (value === undefined) {
        throw new Error(`lapis wasm: the module imports ${imp.module}.${imp.name}, which instantiate.ts does not provide (a build from another Emscripten?)`);
      }
      (imports[imp.module] ??= {})[imp.name] = value;
    }
    return imports as WebAssembly.Imports;
  }

  attach(instance: WebAssembly.Instance): void {
    this.ex = instance.exports as unknown as WasmExports;
    if (this.ex.memory) this.memory = this.ex.memory;
    this.host?.attach(instance.exports as unknown as ThreadExports);
    if (this.host) {
      this.host.onAsyncDone = () => this.completeAsync();
      this.host.onCrash = (reason) => {
        if (!this.broken) {
          this.broken = reason;
          this.host?.retire(reason);
        }
        this.failAsync(reason);
      };
    }
    // The C++ static constructors: each binding file registers its exports (the threaded
    // build's also make this the main thread: its pthread struct and TLS).
    (this.ex._initialize ?? this.ex.__wasm_call_ctors)?.();
  }

  // napi_get_typedarray_info of handle h: the heap copy of a typed array (made once per
  // call). Writes {type, length, pointer}; 0 when it is no typed array, 2 when the heap
  // cannot hold it. An argument in an output position marks its array as an output.
  private stage(h: number, out: number): number {
    const v = this.values[h];
    const code = typedArrayCode(v);
    if (code < 0) return 0;
    const js = v as TypedArray;
    let s = this.staged.get(js);
    if (!s && this.completing) s = this.takeReserved(js);
    if (!s) {
      const bytes = js.byteLength;
      const ptr = this.ex.malloc(Math.max(bytes, 8));
      if (ptr === 0) return 2;
      if (bytes > 0) this.u8().set(new Uint8Array(js.buffer, js.byteOffset, bytes), ptr);
      s = { js, ptr, bytes, out: false };
      this.staged.set(js, s);
    }
    const outputs = this.callOutputs;
    if (this.completing || (outputs !== null && h >= FIRST_ARG && outputs[h - FIRST_ARG] === 1)) s.out = true;
    const dv = this.view();
    dv.setUint32(out, code, true);
    dv.setUint32(out + 4, js.length, true);
    dv.setUint32(out + 8, s.ptr, true);
    return 1;
  }

  // An async call left in flight (threaded build): its outputs' heap copies are kept for its
  // completion instead of being copied back (the kernel has not run) and freed.
  private reserveOutputs(deferred: number): void {
    const kept: Staged[] = [];
    for (const [js, s] of this.staged) {
      if (!s.out || s.bytes === 0) continue;
      kept.push(s);
      this.staged.delete(js);
    }
    if (kept.length > 0) this.reserved.set(deferred, kept);
  }

  // During a completion: the copy kept for this output of the call being completed, when it still fits the array.
  private takeReserved(js: TypedArray): Staged | undefined {
    const kept = this.reserved.get(this.completingDeferred);
    const at = kept?.findIndex((s) => s.js === js && s.bytes === js.byteLength) ?? -1;
    if (at < 0) return undefined;
    const s = kept!.splice(at, 1)[0]!;
    if (s.bytes > 0) this.u8().set(new Uint8Array(js.buffer, js.byteOffset, s.bytes), s.ptr);
    this.staged.set(js, s);
    return s;
  }

  // Frees the kept copies of calls that have settled (a rejection copies no outputs).
  private releaseReserved(): void {
    for (const [d, kept] of this.reserved) {
      if (this.deferreds.has(d)) continue;
      for (const s of kept) this.ex.free(s.ptr);
      this.reserved.delete(d);
    }
  }

  // After a call: the outputs are copied back (or, for an export missing from ./outputs.ts,
  // the staged arrays whose heap copy changed), then every copy is freed.
  private finish(): void {
    const u8 = this.u8();
    const back: Staged[] = [];
    for (const s of this.staged.values()) {
      if (s.bytes === 0 || s.js.byteLength !== s.bytes) continue;
      if (this.callOutputs !== null || this.completing ? s.out : differs(u8, s.ptr, s.js, s.bytes)) back.push(s);
    }
    for (const s of back) new Uint8Array(s.js.buffer, s.js.byteOffset, s.bytes).set(u8.subarray(s.ptr, s.ptr + s.bytes));
    for (const s of this.staged.values()) this.ex.free(s.ptr);
    this.staged.clear();
    this.values.length = FIRST_ARG;
  }

  functions(): Record<string, WasmRawFunction> {
    const out: Record<string, WasmRawFunction> = {};
    const n = this.ex.lapis_wasm_count();
    for (let i = 0; i < n; i++) {
      const name = this.cstr(this.ex.lapis_wasm_name(i));
      const options = this.cstr(this.ex.lapis_wasm_options(i));
      const outputs = outputPositions(name, options);
      const fn: WasmRawFunction = (...args: unknown[]) => this.call(i, name, args, outputs);
      fn.options = options;
      out[name] = fn;
    }
    if (this.host) hosts.set(out, this.host);
    return out;
  }

  private call(i: number, name: string, args: unknown[], outputs: Uint8Array | null): unknown {
    if (this.broken) throw new DeviceError(`${name}: the WebAssembly backend stopped after an earlier trap (${this.broken})`);
    if (this.values.length !== FIRST_ARG) throw new Error(`${name}: the WebAssembly backend was re-entered during a call`);
    for (const a of args) this.values.push(a);
    this.callOutputs = outputs;
    this.callName = name;
    this.callDeferred = 0;
    let result: unknown;
    try {
      result = this.values[this.ex.lapis_wasm_call(i, FIRST_ARG, args.length)];
    } catch (e) {
      throw this.trapped(name, e);
    }
    if (this.callDeferred !== 0 && this.deferreds.has(this.callDeferred)) {
      // A call that threw after making its promise never hands it out: nothing will settle it.
      if (this.pending) this.deferreds.delete(this.callDeferred);
      else this.reserveOutputs(this.callDeferred);
    }
    this.finish();
    this.holdEventLoop();
    const err = this.pending;
    if (err) {
      this.pending = null;
      throw err;
    }
    return result;
  }

  // A trap (unreachable, stack overflow, here or on a pool thread the call waited for)
  // leaves the module's stack, heap and pool in an unknown state: the instance is retired,
  // its workers ended, and the async calls in flight rejected.
  private trapped(name: string, e: unknown): DeviceError {
    const poolThread = this.host?.crashed === true;
    const what = this.aborted ?? (e instanceof Error ? e.message : String(e));
    this.broken = poolThread ? 'a pool thread trapped (its worker logs the trap on the console)' : what;
    this.staged.clear();
    this.values.length = FIRST_ARG;
    this.completing = false;
    this.host?.retire(this.broken);
    this.failAsync(this.broken);
    return new DeviceError(`${name}: the WebAssembly backend trapped: ${this.broken}`);
  }

  // Threaded build, on the JS thread (from the runner's message): settles the finished async
  // calls and copies their outputs into their arrays, before any reaction to their promises runs.
  private completeAsync(): void {
    if (this.broken || !this.ex.lapis_wasm_async_complete) return;
    this.callOutputs = null;
    this.completing = true;
    try {
      this.ex.lapis_wasm_async_complete();
    } catch (e) {
      this.trapped('async call', e);
      return;
    }
    this.finish();
    this.completing = false;
    this.completingDeferred = 0;
    this.releaseReserved();
    this.holdEventLoop();
  }

  // Rejects every async call in flight (their work died with a trap).
  private failAsync(reason: string): void {
    for (const d of this.deferreds.values()) d.reject(new DeviceError(`${d.name}: the WebAssembly backend trapped: ${reason}`));
    this.deferreds.clear();
    this.holdEventLoop();
  }

  // An async call in flight keeps the process alive, as the addon's libuv work does; none, none.
  private holdEventLoop(): void {
    if (this.deferreds.size > 0 && this.keepAlive === null) {
      this.keepAlive = setInterval(() => {}, 1e9);
    } else if (this.deferreds.size === 0 && this.keepAlive !== null) {
      clearInterval(this.keepAlive);
      this.keepAlive = null;
    }
  }
}

// An export's output positions (1 where its declared option is in ./outputs.ts), or null
// when the table does not know the export.
function outputPositions(name: string, options: string): Uint8Array | null {
  const outs = Object.hasOwn(WASM_OUTPUTS, name) ? WASM_OUTPUTS[name]! : null;
  if (outs === null) return null;
  const names = options.split(',').filter((o) => o !== '');
  const mask = new Uint8Array(names.length);
  for (const o of outs) {
    const at = names.indexOf(o);
    if (at < 0) throw new Error(`lapis wasm: ${name} declares no option ${o} (src/backend/wasm/outputs.ts and the module disagree: a stale build?)`);
    mask[at] = 1;
  }
  return mask;
}

function makeError(kind: number, message: string): Error {
  return kind === 2 ? new RangeError(message) : kind === 1 ? new TypeError(message) : new Error(message);
}

// Whether the heap copy at ptr differs from js's bytes (a word at a time where both allow it).
function differs(u8: Uint8Array, ptr: number, js: TypedArray, bytes: number): boolean {
  if (ptr % 4 === 0 && js.byteOffset % 4 === 0 && bytes % 4 === 0) {
    const a = new Int32Array(u8.buffer, ptr, bytes / 4);
    const b = new Int32Array(js.buffer, js.byteOffset, bytes / 4);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return true;
    return false;
  }
  const b = new Uint8Array(js.buffer, js.byteOffset, bytes);
  for (let i = 0; i < bytes; i++) if (u8[ptr + i] !== b[i]) return true;
  return false;
}
