// The pool threads of the threaded WebAssembly build (build/wasm/lapis-mt.wasm, docs/wasm.md):
// Emscripten's pthread runtime without its JS glue. The C++ pool (native/src/parallel) starts
// std::threads; each pthread_create reaches `__pthread_create_js`, which hands the thread to
// a worker (Node: worker_threads; browser: a Web Worker, cross-origin isolated pages only).
// The worker instantiates the same module on the same shared memory, sets its own stack
// (from the pthread struct) and TLS, and calls the thread's entry through the function
// table, as Emscripten's worker.js does. No `node:` imports: the browser bundle uses this file.

/** A worker as the host sees it: Node's worker_threads Worker and a Web Worker both fit behind it. */
export interface PoolWorker {
  post(message: unknown): void;
  onMessage(handler: (message: WorkerMessage) => void): void;
  terminate(): void;
}

/** Starts a worker that runs `source` (POOL_WORKER_SOURCE), or throws. */
export type SpawnPoolWorker = (source: string) => PoolWorker;

export interface WasmThreadOptions {
  /** Starts a worker (src/backend/wasm/node.ts: worker_threads; src/browser.ts: a Web Worker from a Blob). */
  spawn: SpawnPoolWorker;
  /** Whether this thread may block in Atomics.wait (false on a browser's main thread: it spins). */
  canBlock: boolean;
  /**
   * Whether a worker started now runs while this thread is busy in a call (Node: yes; a
   * browser starts a worker only when its page's thread returns to the event loop, so there
   * only the workers started beforehand, `prestart`, serve the pool).
   */
  startsWhileBlocked: boolean;
  /** What std::thread::hardware_concurrency() reports (the pool's size unless LAPIS_NUM_THREADS says). */
  hardwareConcurrency: number;
}

export type WorkerMessage =
  | { cmd: 'loaded' }
  | { cmd: 'cleanup'; ptr: number }
  | { cmd: 'queue' }
  | { cmd: 'async' }
  | { cmd: 'failed'; message: string };

// Offsets of the stack's top and size in struct pthread (Emscripten 3.1.6, wasm32), as its
// glue's establishStackSpace reads them; scripts/build-wasm.mjs checks the glue still does.
export const PTHREAD_STACK_OFFSET = 44;
export const PTHREAD_STACK_SIZE_OFFSET = 48;

// The most a size_t (wasm32) can say of the heap: 4 GiB less a page, as Emscripten's glue reports it.
const HEAP_MAX = 4294901760;

// A module whose one export, `t`, executes `unreachable`.
const TRAP_MODULE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 116, 0, 0, 10, 5, 1, 3, 0, 0, 11];
let trapExport: (() => void) | null = null;

/**
 * Traps the calling wasm code. abort() and exit() must end it this way: a JS error thrown
 * from an import is caught by C++ `catch (...)`, and std::terminate's handler, whose abort()
 * threw, called std::terminate again, until the JS stack overflowed.
 */
function trap(): never {
  trapExport ??= new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(TRAP_MODULE))).exports.t as () => void;
  trapExport();
  throw new Error('lapis wasm: the trap did not trap');
}

/**
 * Emscripten's runtime imports that any thread may call (the threaded build links against
 * its runtime, not WASI alone). `onAbort` hears why the module is about to trap.
 */
export function emscriptenRuntimeImports(
  memory: () => WebAssembly.Memory,
  maximumBytes: number,
  onAbort: (reason: string) => void,
): Record<string, unknown> {
  return {
    emscripten_get_heap_max: () => Math.min(maximumBytes, HEAP_MAX),
    abort: () => {
      onAbort('the module called abort()');
      trap();
    },
    exit: (code: number) => {
      onAbort(`the module exited with code ${code}`);
      trap();
    },
    // Referenced by Emscripten's proxying code; the kernels have no canvas.
    emscripten_webgl_create_context: () => 0,
    emscripten_set_canvas_element_size: () => -1,
    emscripten_get_now: () => performance.now(),
    emscripten_memcpy_big: (dest: number, src: number, n: number) => {
      new Uint8Array(memory().buffer).copyWithin(dest, src, src + n);
    },
    // The heap grows by what malloc asks for (an imported memory has no glue to overgrow it).
    emscripten_resize_heap: (requestedSigned: number) => {
      const requested = requestedSigned >>> 0;
      const m = memory();
      const cur = m.buffer.byteLength;
      if (requested <= cur) return 1;
      try {
        m.grow(Math.ceil((requested - cur) / 65536));
        return 1;
      } catch {
        return 0;
      }
    },
    setTempRet0: () => {},
    clock_gettime: (clock: number, tp: number) => writeTimespec(new Int32Array(memory().buffer), clock, tp),
  };
}

// clock_gettime as Emscripten 3.1.6's glue does it (a 32-bit time_t): CLOCK_REALTIME from
// Date.now(), every other clock (the thread-CPU one the bench reads included) from performance.now().
function writeTimespec(i32: Int32Array, clock: number, tp: number): number {
  const ms = clock === 0 ? Date.now() : performance.now();
  i32[tp >>> 2] = (ms / 1e3) | 0;
  i32[(tp + 4) >>> 2] = ((ms % 1e3) * 1e6) | 0;
  return 0;
}

/** What the host calls in the module. */
export interface ThreadExports {
  _emscripten_thread_init(ptr: number, isMainBrowserThread: number, isMainRuntimeThread: number, canBlock: number): void;
  _emscripten_thread_free_data(ptr: number): void;
  emscripten_tls_init(): number;
  emscripten_main_thread_process_queued_calls(): void;
}

/**
 * The main thread's side: the Emscripten runtime imports that start, clean up and count
 * threads, and the workers behind them (reused when a thread ends).
 */
export class ThreadHost {
  private ex!: ThreadExports;
  // Each worker: whether it has said it loaded the module, and the thread it runs (0: none).
  // A Node worker may be handed a thread before it loaded (its messages queue in order); the
  // main thread learns of 'loaded' only when its event loop runs.
  private readonly workers = new Map<PoolWorker, { loaded: boolean; thread: number }>();
  private failure: string | null = null;
  /**
   * Set on the main thread when a pool thread has crashed (a trap on its worker): the
   * worker sets the module's crash flag, which the main thread reads in its next futex wait
   * (at most a millisecond away: it waits in 1 ms slices), so a call waiting on the dead
   * thread ends in a trap instead of waiting for ever. Read by instantiate.ts.
   */
  crashed = false;
  /** Called when the async runner thread says an async call's work is done (instantiate.ts completes it). */
  onAsyncDone: (() => void) | null = null;
  /** Called when a worker running a thread fails (a trap): instantiate.ts rejects the async calls in flight. */
  onCrash: ((reason: string) => void) | null = null;

  constructor(
    private readonly module: WebAssembly.Module,
    private readonly memory: WebAssembly.Memory,
    private readonly env: string[],
    private readonly options: WasmThreadOptions,
    private readonly maximumBytes: number,
  ) {}

  attach(ex: ThreadExports): void {
    this.ex = ex;
  }

  /** Workers started, loaded and idle; resolves when `n` are ready (a browser must do this before a call blocks its thread). */
  async prestart(n: number): Promise<void> {
    const ready: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const w = this.start();
      ready.push(new Promise((resolve, reject) => {
        const check = () => {
          if (this.workers.get(w)?.loaded) resolve();
          else if (this.failure) reject(new Error(this.failure));
          else setTimeout(check, 5);
        };
        check();
      }));
    }
    await Promise.all(ready);
  }

  /** Workers: idle, still loading, and running a thread. */
  counts(): { workers: number; running: number } {
    let running = 0;
    for (const s of this.workers.values()) if (s.thread !== 0) running++;
    return { workers: this.workers.size, running };
  }

  /**
   * After a trap: no more threads, and every worker ended a moment later (time for a crashed
   * worker's message, already on its way, to be logged). The module must not be called again.
   */
  retire(reason: string): void {
    this.failure ??= reason;
    const t = setTimeout(() => this.terminate(), 100) as unknown as { unref?: () => void };
    t.unref?.();  // Node: the timer keeps no process alive
  }

  /** Ends every worker (their threads with them); the module must not be called afterwards. */
  terminate(): void {
    for (const w of this.workers.keys()) w.terminate();
    this.workers.clear();
  }

  private start(): PoolWorker {
    const w = this.options.spawn(POOL_WORKER_SOURCE);
    this.workers.set(w, { loaded: false, thread: 0 });
    w.onMessage((m) => this.onMessage(w, m));
    w.post({
      cmd: 'load', module: this.module, memory: this.memory, env: this.env, cores: this.options.hardwareConcurrency,
      maxBytes: this.maximumBytes,
    });
    return w;
  }

  private onMessage(w: PoolWorker, m: WorkerMessage): void {
    switch (m.cmd) {
      case 'loaded': {
        const s = this.workers.get(w);
        if (s) s.loaded = true;
        break;
      }
      case 'cleanup':  // a detached thread ended on w
        this.cleanup(m.ptr);
        break;
      case 'queue':
        this.ex.emscripten_main_thread_process_queued_calls();
        break;
      case 'async':
        this.onAsyncDone?.();
        break;
      case 'failed': {
        this.failure = `lapis wasm: a pool thread failed: ${m.message}`;
        console.error(this.failure);
        // A thread died with its work (a region's chunk, an async call): what waits for it never ends.
        if ((this.workers.get(w)?.thread ?? 0) !== 0) this.onCrash?.('a pool thread trapped (its worker logs the trap on the console)');
        break;
      }
    }
  }

  private cleanup(ptr: number): void {
    this.ex._emscripten_thread_free_data(ptr);
    for (const s of this.workers.values()) if (s.thread === ptr) s.thread = 0;
  }

  // Whether the pthread struct at ptr has a stack of its own (the worker reads the same fields).
  private hasStack(ptr: number): boolean {
    if (ptr === 0) return false;
    const u32 = new Uint32Array(this.memory.buffer);  // unsigned: a heap may pass 2 GiB
    const top = u32[(ptr + PTHREAD_STACK_OFFSET) >>> 2]!, size = u32[(ptr + PTHREAD_STACK_SIZE_OFFSET) >>> 2]!;
    return size > 0 && top > size;
  }

  private workerOf(ptr: number): PoolWorker | undefined {
    for (const [w, s] of this.workers) if (s.thread === ptr) return w;
    return undefined;
  }

  // A worker free to run a thread now, started if need be and possible.
  private free(): PoolWorker | undefined {
    for (const [w, s] of this.workers) {
      // A browser worker that has not loaded yet would not run before this call ends: a join would hang.
      if (s.thread === 0 && (s.loaded || this.options.startsWhileBlocked)) return w;
    }
    if (!this.options.startsWhileBlocked) return undefined;
    try {
      return this.start();
    } catch {
      return undefined;
    }
  }

  /** The `env` imports of Emscripten's pthread runtime, on the main thread. */
  imports(isMainBrowserThread: boolean): Record<string, unknown> {
    return {
      // The main thread keeps the TLS block the module's start function set up: a second one
      // (emscripten_tls_init, as the glue does) made every typed C++ catch miss (Node 20, em++ 3.1.6).
      __emscripten_init_main_thread_js: (tb: number) => {
        this.ex._emscripten_thread_init(tb, isMainBrowserThread ? 1 : 0, 1, this.options.canBlock ? 1 : 0);
      },
      // 6: EAGAIN, which std::thread throws as system_error and the pool runs with the threads it got.
      __pthread_create_js: (ptr: number, _attr: number, start: number, arg: number) => {
        if (this.failure) return 6;
        // Emscripten's pthread_create does not check its allocations: out of heap, the
        // thread's stack starts at address 0. Refused here (the struct freed), std::thread
        // throws and the caller runs without the thread, instead of a worker failing on it.
        if (!this.hasStack(ptr)) {
          if (ptr !== 0) this.ex._emscripten_thread_free_data(ptr);
          return 6;
        }
        const w = this.free();
        if (!w) return 6;
        this.workers.get(w)!.thread = ptr;
        w.post({ cmd: 'run', ptr, start, arg });
        return 0;
      },
      __emscripten_thread_cleanup: (ptr: number) => this.cleanup(ptr),
      _emscripten_default_pthread_stack_size: () => 2 * 1024 * 1024,
      _emscripten_notify_thread_queue: (target: number) => {
        this.workerOf(target)?.post({ cmd: 'queue' });
        return 1;
      },
      emscripten_num_logical_cores: () => this.options.hardwareConcurrency,
      emscripten_check_blocking_allowed: () => {},
      // Only emscripten_futex_wait calls it here, on seeing a pool thread's crash flag. It is
      // noreturn: returning runs the `unreachable` after the call, a trap that no C++ catch
      // intercepts (a thrown JS error was caught by catch (...) and the wait retried, until the
      // JS stack overflowed), so the call unwinds to instantiate.ts, which reports it.
      emscripten_unwind_to_js_event_loop: () => {
        this.crashed = true;
      },
      emscripten_receive_on_main_thread_js: () => {
        throw new Error('lapis wasm: a pool thread proxied a JS call to the main thread');
      },
    };
  }
}

// The worker's program (a string: it runs from a Blob URL in a browser and by `eval` in a
// Node worker, so it has no imports). Its imports for the module are the pure ones (clock,
// memcpy, heap growth, environ); anything that belongs to the main thread throws.
export const POOL_WORKER_SOURCE = `'use strict';
const nodePort = typeof process === 'object' && typeof require === 'function' ? require('worker_threads').parentPort : null;
const post = (m) => (nodePort ? nodePort.postMessage(m) : self.postMessage(m));
const on = (f) => (nodePort ? nodePort.on('message', f) : (self.onmessage = (e) => f(e.data)));
let ex = null;
let memory = null;
let envBytes = [];
// Why the thread trapped, when it asked to (abort, exit): a thrown error would be caught by C++ catch (...).
let aborted = null;
let trapExport = null;
function trap() {
  trapExport ??= new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([${TRAP_MODULE.join(',')}]))).exports.t;
  trapExport();
}
const u8 = () => new Uint8Array(memory.buffer);
const dv = () => new DataView(memory.buffer);
const text = (ptr, len) => new TextDecoder().decode(u8().slice(ptr, ptr + len));
function imports(module, cores, maxBytes) {
  const wasi = {
    fd_write(fd, iovs, n, written) {
      const v = dv();
      let total = 0, s = '';
      for (let i = 0; i < n; i++) {
        const p = v.getUint32(iovs + 8 * i, true), l = v.getUint32(iovs + 8 * i + 4, true);
        s += text(p, l);
        total += l;
      }
      console.error('lapis wasm (pool thread): ' + s.replace(/\\n$/, ''));
      v.setUint32(written, total, true);
      return 0;
    },
    fd_close: () => 0,
    fd_seek: () => 70,
    environ_sizes_get(count, size) {
      dv().setUint32(count, envBytes.length, true);
      dv().setUint32(size, envBytes.reduce((a, b) => a + b.length, 0), true);
      return 0;
    },
    environ_get(ptrs, buf) {
      for (const b of envBytes) {
        dv().setUint32(ptrs, buf, true);
        u8().set(b, buf);
        ptrs += 4;
        buf += b.length;
      }
      return 0;
    },
    clock_time_get(_id, _precision, out) {
      dv().setBigUint64(out, BigInt(Math.round(performance.now() * 1e6)), true);
      return 0;
    },
    clock_res_get(_id, out) {
      dv().setBigUint64(out, 1000n, true);
      return 0;
    },
  };
  const env = {
    memory,
    emscripten_get_now: () => performance.now(),
    emscripten_memcpy_big: (d, s, n) => void u8().copyWithin(d, s, s + n),
    emscripten_resize_heap(requested) {
      requested >>>= 0;
      const cur = memory.buffer.byteLength;
      if (requested <= cur) return 1;
      try {
        memory.grow(Math.ceil((requested - cur) / 65536));
        return 1;
      } catch {
        return 0;
      }
    },
    emscripten_num_logical_cores: () => cores,
    clock_gettime(clock, tp) {
      const ms = clock === 0 ? Date.now() : performance.now();
      const i32 = new Int32Array(memory.buffer);
      i32[tp >>> 2] = (ms / 1e3) | 0;
      i32[(tp + 4) >>> 2] = ((ms % 1e3) * 1e6) | 0;
      return 0;
    },
    emscripten_get_heap_max: () => Math.min(maxBytes, ${HEAP_MAX}),
    _emscripten_default_pthread_stack_size: () => 2 * 1024 * 1024,
    emscripten_check_blocking_allowed() {},
    setTempRet0() {},
    __pthread_create_js: () => 6,
    __emscripten_thread_cleanup: (ptr) => post({ cmd: 'cleanup', ptr }),
    _emscripten_notify_thread_queue: () => (post({ cmd: 'queue' }), 1),
    emscripten_unwind_to_js_event_loop() {
      throw 'unwind';
    },
    abort() {
      aborted = 'the module called abort()';
      trap();
    },
    exit(code) {
      aborted = 'the module exited with code ' + code;
      trap();
    },
  };
  // The async runner thread (napi_shim.cpp) says an item is done: the JS thread completes it.
  const lapis = { async_done: () => post({ cmd: 'async' }) };
  const provided = { env, wasi_snapshot_preview1: wasi, lapis };
  const out = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    const v = provided[imp.module] && provided[imp.module][imp.name];
    (out[imp.module] ??= {})[imp.name] = v !== undefined ? v : () => {
      throw new Error('lapis wasm: ' + imp.module + '.' + imp.name + ' called on a pool thread');
    };
  }
  return out;
}
on((m) => {
  try {
    if (m.cmd === 'load') {
      memory = m.memory;
      envBytes = m.env.map((s) => new TextEncoder().encode(s + '\\0'));
      ex = new WebAssembly.Instance(m.module, imports(m.module, m.cores, m.maxBytes)).exports;
      post({ cmd: 'loaded' });
    } else if (m.cmd === 'run') {
      ex._emscripten_thread_init(m.ptr, 0, 0, 1);
      const u32 = new Uint32Array(memory.buffer);
      const top = u32[(m.ptr + ${PTHREAD_STACK_OFFSET}) >>> 2], size = u32[(m.ptr + ${PTHREAD_STACK_SIZE_OFFSET}) >>> 2];
      if (!(size > 0 && top > size)) throw new Error('no stack in the pthread struct (top ' + top + ', size ' + size + ')');
      ex.emscripten_stack_set_limits(top, top - size);
      ex.stackRestore(top);
      ex.emscripten_tls_init();
      let result = 0;
      try {
        result = ex.__indirect_function_table.get(m.start)(m.arg);
      } catch (e) {
        if (e !== 'unwind') throw e;
      }
      ex._emscripten_thread_exit(result);
    } else if (m.cmd === 'queue') {
      ex.emscripten_current_thread_process_queued_calls();
    }
  } catch (e) {
    // The crash flag first: the main thread may be blocked in a wait on this thread, where
    // it reads the flag but no message.
    if (ex && ex._emscripten_thread_crashed) ex._emscripten_thread_crashed();
    post({ cmd: 'failed', message: (aborted ? aborted + ': ' : '') + String((e && e.stack) || e) });
  }
});
`;
