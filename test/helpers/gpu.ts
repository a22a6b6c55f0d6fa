// Initialises the GPU once per test file. No adapter is a failure (CI must run the GPU
// suite for real) unless LAPIS_ALLOW_NO_GPU=1, which turns GPU tests into loud skips.
// LAPIS_GPU_LIMITS=default creates the device with WebGPU's default limits (16 KiB of
// workgroup memory, 256 invocations per workgroup): the kernels must pick variants that fit.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gpu } from '../../src/index.js';
import { pipelineStats } from '../../src/backend/gpu/program.js';
import { gpuDevice } from '../../src/backend/gpu/device.js';

// Dawn's Node binding polls for finished GPU work by re-queuing a native callback through
// the global setImmediate for as long as any promise is pending: a busy loop on the main
// thread. On a software adapter (lavapipe compiles and runs shaders on the CPU) that loop
// takes a core from the compiler; after 2 ms of polling, each further poll waits 1 ms.
let politePolling = false, burstStart = 0, lastPoll = 0;
const nativeSetImmediate = globalThis.setImmediate;
const isNative = (fn: unknown) => typeof fn === 'function' && Function.prototype.toString.call(fn).endsWith('{ [native code] }');
globalThis.setImmediate = Object.assign(function setImmediate(this: unknown, fn: (...a: unknown[]) => void, ...args: unknown[]) {
  if (politePolling && isNative(fn)) {
    const now = performance.now();
    if (now - lastPoll > 20) burstStart = now;
    lastPoll = now;
    if (now - burstStart > 2) return setTimeout(fn, 1, ...args) as unknown as NodeJS.Immediate;
  }
  return nativeSetImmediate(fn, ...args);
}, nativeSetImmediate) as typeof setImmediate;

let initResult: Promise<{ ok: true } | { ok: false; reason: string }> | undefined;

function ensure(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const limits = process.env.LAPIS_GPU_LIMITS === 'default' ? 'default' as const : undefined;
  initResult ??= gpu.init(limits ? { limits } : {}).then(
    (info) => {
      if (info.isSoftware) politePolling = true;
      if (pipelineLog) timePipelines();
      if (limits && info.limitsMode !== limits) {
        return { ok: false as const, reason: `LAPIS_GPU_LIMITS=${limits} but the device was created with ${info.limitsMode} limits` };
      }
      return { ok: true as const };
    },
    (e: unknown) => ({ ok: false as const, reason: (e as Error).message }),
  );
  return initResult;
}

const allowNoGpu = process.env.LAPIS_ALLOW_NO_GPU === '1';
let noGpu = false;

/**
 * Call at the top of a GPU test file. Without an adapter the first test fails with the
 * reason, unless LAPIS_ALLOW_NO_GPU=1 (never set in CI): then every GPU test prints
 * "skipped: no adapter" and returns.
 */
export function useGpu(): void {
  beforeAll(async () => {
    const r = await ensure();
    if (!r.ok) {
      if (!allowNoGpu) throw new Error(`GPU tests need a WebGPU adapter: ${r.reason}`);
      noGpu = true;
    }
  });
  if (pipelineLog) afterAll(() => logThreads());
}

// The CPU seconds of each thread of this process (Linux): the main thread (JavaScript and
// Dawn's polling) against lavapipe's (the shader compiles and the dispatches).
function logThreads(): void {
  let tasks: string[];
  try { tasks = readdirSync('/proc/self/task'); } catch { return; }
  const rows: string[] = [];
  for (const t of tasks) {
    try {
      const st = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const name = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      const cpu = (Number(f[11]) + Number(f[12])) / 100;
      if (cpu >= 0.5) rows.push(`${t === String(process.pid) ? 'main' : name}:${cpu.toFixed(1)}s`);
    } catch { /* the thread ended */ }
  }
  const test = expect.getState().testPath?.replace(/.*\/test\//, 'test/');
  appendFileSync(pipelineLog!, `threads\t${test}\t${rows.join(' ')}\n`);
}

// LAPIS_TEST_PIPELINE_LOG=file: each GPU test appends the pipelines it compiled (count, and
// with LAPIS_GPU_DUMP_WGSL the new shader files): on a software adapter compiling them is
// nearly all of a test's time, so this says which tests cost what.
const pipelineLog = process.env.LAPIS_TEST_PIPELINE_LOG;
const dumpDir = process.env.LAPIS_GPU_DUMP_WGSL;
const listDump = (): Set<string> => {
  try { return new Set(readdirSync(dumpDir!)); } catch { return new Set(); }
};

// With the log on, each submit is timed to its completion (lavapipe compiles a pipeline on
// its first dispatch, in the queue): one `submit` line per submit that used new pipelines,
// with their labels, says which variants cost most.
function timePipelines(): void {
  const device = gpuDevice('test pipeline log');
  const create = device.createComputePipeline.bind(device);
  let fresh: string[] = [];
  device.createComputePipeline = (desc) => {
    fresh.push((desc.label ?? '').slice(0, 200).replace(/\s+/g, ' '));
    return create(desc);
  };
  const queue = device.queue, submit = queue.submit.bind(queue);
  let lastDone = 0;
  queue.submit = (buffers) => {
    const t0 = performance.now(), labels = fresh, test = expect.getState().testPath?.replace(/.*\/test\//, 'test/');
    fresh = [];
    submit(buffers);
    if (labels.length) {
      void queue.onSubmittedWorkDone().then(() => {
        const t1 = performance.now(), dt = t1 - Math.max(t0, lastDone);
        lastDone = t1;
        appendFileSync(pipelineLog!, `submit\t${test}\t${(dt / 1000).toFixed(2)}s\t${labels.length}\t${labels.join(' ; ')}\n`);
      });
    } else {
      void queue.onSubmittedWorkDone().then(() => { lastDone = performance.now(); });
    }
  };
}

/** `it` for GPU tests: with LAPIS_ALLOW_NO_GPU=1 and no adapter, logs and returns. */
export function gpuIt(name: string, fn: () => Promise<void> | void, timeout?: number): void {
  it(name, async () => {
    if (noGpu) {
      console.warn(`skipped: no adapter (${name})`);
      return;
    }
    if (!pipelineLog) {
      await fn();
      return;
    }
    const before = pipelineStats().compiled, files = dumpDir ? listDump() : new Set<string>(), t0 = performance.now();
    await fn();
    const added = dumpDir ? [...listDump()].filter((f) => !files.has(f)) : [];
    const test = expect.getState().testPath?.replace(/.*\/test\//, 'test/');
    appendFileSync(pipelineLog, `${test}\t${name}\t${pipelineStats().compiled - before}\t${((performance.now() - t0) / 1000).toFixed(1)}s\t${added.join(' ')}\n`);
  }, timeout);
}
