// Initialises the GPU once per test file. No adapter is a failure (CI must run the GPU
// suite for real) unless LAPIS_ALLOW_NO_GPU=1, which turns GPU tests into loud skips.
// LAPIS_GPU_LIMITS=default creates the device with WebGPU's default limits (16 KiB of
// workgroup memory, 256 invocations per workgroup): the kernels must pick variants that fit.
import { appendFileSync, readdirSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { gpu } from '../../src/index.js';
import { pipelineStats } from '../../src/backend/gpu/program.js';

let initResult: Promise<{ ok: true } | { ok: false; reason: string }> | undefined;

function ensure(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const limits = process.env.LAPIS_GPU_LIMITS === 'default' ? 'default' as const : undefined;
  initResult ??= gpu.init(limits ? { limits } : {}).then(
    (info) => {
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
}

// LAPIS_TEST_PIPELINE_LOG=file: each GPU test appends the pipelines it compiled (count, and
// with LAPIS_GPU_DUMP_WGSL the new shader files): on a software adapter compiling them is
// nearly all of a test's time, so this says which tests cost what.
const pipelineLog = process.env.LAPIS_TEST_PIPELINE_LOG;
const dumpDir = process.env.LAPIS_GPU_DUMP_WGSL;
const listDump = (): Set<string> => {
  try { return new Set(readdirSync(dumpDir!)); } catch { return new Set(); }
};

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
