// Helpers shared by the GPU suites (bench/suites/*-gpu.ts): seeded inputs, the error
// wrapper of a timed GPU call, and the timed-then-checked GPU case.
import { gpu, type Tensor } from '../src/index.js';
import type { BenchCase, BenchTarget, TimingOptions } from './harness.js';

/** Uniform(−1, 1) floats from a seeded LCG: fast enough for 100 M values (torch's side: torch.rand·2 − 1, same law). */
export function uniformFloats(count: number, seed: number): Float32Array {
  const a = new Float32Array(count);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2147483648 - 1;
  }
  return a;
}

/**
 * Runs a GPU case body; on failure flushes whatever the failing call recorded (so the next
 * case starts clean) and rethrows with the error's name in the message.
 */
export async function loudGpu<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    const err = e as Error;
    await gpu.sync().catch(() => undefined);
    throw new Error(`error: ${err.name ?? 'Error'}: ${err.message}`);
  }
}

/**
 * A GPU case: `setup` makes the data (on the first call, so only cases that run pay for
 * it), `run` records one call and returns its outputs, `check` verifies the outputs of the
 * last timed call on the host (not a further call: at large sizes a call takes seconds) and
 * returns the accuracy figures. Errors come out as "error: <ErrorClass>: <message>" in the
 * case's gpu note.
 */
export function gpuCase(spec: {
  name: string;
  targets?: BenchTarget[];
  /** Shorthand for one target: lapis ÷ torch on the GPU at most this. */
  target?: number;
  timing: Partial<TimingOptions>;
  torch?: { setup: string; stmt: string };
  setup: () => void;
  run: () => Tensor[];
  check: (outs: Tensor[]) => Promise<Record<string, number>>;
  teardown: () => void;
}): BenchCase {
  let ready = false;
  let last: Tensor[] | undefined;
  const drop = () => {
    for (const t of last ?? []) t.dispose();
    last = undefined;
  };
  return {
    name: spec.name,
    gpu: () => loudGpu(async () => {
      try {
        if (!ready) {
          spec.setup();
          ready = true;
        }
        drop();
        last = spec.run();
        await gpu.sync();
      } catch (e) {
        // no gpuCheck follows a failed timing: free the case's data now
        drop();
        spec.teardown();
        ready = false;
        throw e;
      }
    }),
    gpuCheck: () => loudGpu(async () => {
      try {
        return await spec.check(last ?? (last = spec.run()));
      } finally {
        drop();
        spec.teardown();
        ready = false;
      }
    }),
    torch: spec.torch,
    targets: spec.targets ?? (spec.target === undefined ? undefined : [{ vs: 'torch', device: 'gpu', maxRatio: spec.target }]),
    timing: spec.timing,
  };
}
