// Helpers shared by the GPU suites (bench/suites/*-gpu.ts): seeded inputs and the error
// wrapper of a timed GPU call.
import { gpu } from '../src/index.js';

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
