// Cases that time a differentiable op's forward and its reverse-mode pullback (issue 16's
// backward ÷ forward ratios), shared by bench/suites/grad-*.ts. The forward is the plain
// call (no tape); the pullback is vjp's, called repeatedly on one recorded forward with a
// fixed random cotangent, timed by the same harness loop after one warm-up. An op whose
// rule or gradCall hook has not landed gets no time: its row's note says which is missing.
import { gpu, randn, vjp, Tensor } from '../src/index.js';
import { Tape, pushTape, popTape, tensorLeaves, isPlainObject, differentiableDtype } from '../src/core/grad.js';
import { measureAsync, measureSync, type BenchCase, type TimingOptions } from './harness.js';
import { loudGpu } from './gpu-case.js';

export interface GradSpec {
  /** Row name, starting with the op's public name: 'sum dim=1 1000×1000'. */
  name: string;
  /** The rule the call records ('sum', 'gdn.chunkedForward'): checked before timing. */
  op: string;
  /** The differentiated inputs: made when the CPU case is built, at the GPU case's first call. */
  inputs: () => Tensor[];
  /** The op on those inputs; constants (indices, options, conditions) are closed over. */
  f: (...xs: Tensor[]) => unknown;
  timing?: Partial<TimingOptions>;
}

/** A random cotangent mirroring `value`: randn for each differentiable leaf, null for the others. */
export function cotangentOf(value: unknown, seed: number, depth = 0): unknown {
  if (value instanceof Tensor) {
    if (!differentiableDtype(value.dtype)) return null;
    return randn(value.shape, { dtype: value.dtype as 'float64', seed, device: value.device });
  }
  if (depth < 4 && Array.isArray(value)) return value.map((v, i) => cotangentOf(v, seed + 1 + i, depth + 1));
  if (depth < 4 && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v], i) => [k, cotangentOf(v, seed + 1 + i, depth + 1)]));
  }
  return null;
}

/**
 * Why `f(...xs)` cannot be timed backward yet ('no gradient rule for X yet', 'X records no
 * node …'), or null when it records `op` on a tape tracking xs.
 */
export function missingRule(op: string, f: (...xs: Tensor[]) => unknown, xs: readonly Tensor[]): string | null {
  const tape = new Tape();
  for (const x of xs) tape.track(x);
  pushTape(tape);
  let out: unknown;
  try {
    out = f(...xs);
  } catch (e) {
    const m = (e as Error).message;
    if (/no gradient rule/.test(m)) return `no gradient rule for ${op} yet`;
    throw e;
  } finally {
    popTape(tape);
  }
  for (const t of tensorLeaves(out)) if (!xs.includes(t)) t.dispose();
  if (!tape.nodes.some((n) => n.name === op)) return `${op} records nothing under a tape yet (no gradCall hook)`;
  return null;
}

/** Disposes the tensors of `v` except those in `keep` (a gradient may be the cotangent itself). */
export function disposeExcept(v: unknown, keep: readonly unknown[]): void {
  const kept = new Set<Tensor>(keep.flatMap((k) => tensorLeaves(k)));
  for (const t of tensorLeaves(v)) if (!kept.has(t)) t.dispose();
}

const figures = (fwdMs: number, bwdMs: number): Record<string, number> => ({ 'pullback ms': bwdMs, 'bwd ÷ fwd': bwdMs / fwdMs });

/**
 * A CPU case: the lapis column is the forward; the lapisCheck records the forward once under
 * vjp and times the pullback ('pullback ms', 'bwd ÷ fwd' columns).
 */
export function gradCpuCase(spec: GradSpec): BenchCase {
  // inputs and the rule check outside the timed calls (inputs may be shared between cases)
  const xs = spec.inputs();
  let why: string | null;
  try {
    why = missingRule(spec.op, spec.f, xs);
  } catch (e) {
    why = `the forward failed: ${(e as Error).message.split('\n')[0]}`;
  }
  return {
    name: spec.name,
    timing: spec.timing,
    lapis: () => {
      if (why) throw new Error(why);
      spec.f(...xs);
    },
    lapisCheck: (fwdMs, timing) => {
      const { value, pullback } = vjp(spec.f, ...xs);
      const cot = cotangentOf(value, 7);
      const grads = pullback(cot as never);
      if (grads.length !== xs.length) throw new Error(`${spec.name}: the pullback gave ${grads.length} gradients for ${xs.length} inputs`);
      const m = measureSync(() => { pullback(cot as never); }, timing);
      return figures(fwdMs, m.seconds * 1e3);
    },
  };
}

/**
 * A GPU case: the gpu column is the forward (outputs freed, then gpu.sync() ends each call);
 * the gpuCheck records one forward under vjp and times its pullback the same way (gradients
 * freed, gpu.sync()), then reads one more pullback's gradients: they must be finite.
 */
export function gradGpuCase(spec: GradSpec): BenchCase {
  let xs: Tensor[] | undefined;
  let last: unknown;
  const teardown = () => {
    disposeExcept(last, xs ?? []);
    for (const x of xs ?? []) x.dispose();
    xs = last = undefined;
  };
  return {
    name: spec.name,
    timing: spec.timing,
    gpu: () => loudGpu(async () => {
      try {
        if (!xs) {
          xs = spec.inputs();
          const why = missingRule(spec.op, spec.f, xs);
          await gpu.sync();
          if (why) throw new Error(why);
        }
        disposeExcept(last, xs);
        last = spec.f(...xs);
        await gpu.sync();
      } catch (e) {
        teardown();
        throw e;
      }
    }),
    gpuCheck: (fwdMs, timing) => loudGpu(async () => {
      try {
        disposeExcept(last, xs!);
        last = undefined;
        const { value, pullback } = vjp(spec.f, ...xs!);
        const cot = cotangentOf(value, 7);
        const keep = [...xs!, cot, value];
        (globalThis as { gc?: () => void }).gc?.();
        const m = await measureAsync(async () => {
          const gs = pullback(cot as never);
          await gpu.sync();
          disposeExcept(gs, keep);
        }, timing);
        // read after the timing: a read runs the deferred checks, after which a GPU
        // gdn.chunkedForward pullback cannot run again (its kept status buffer is freed)
        const grads = pullback(cot as never);
        if (grads.length !== xs!.length) throw new Error(`${spec.name}: the pullback gave ${grads.length} gradients for ${xs!.length} inputs`);
        for (const [i, g] of grads.entries()) {
          const d = await g.data();
          for (let j = 0; j < d.length; j++) {
            if (!Number.isFinite(d[j])) throw new Error(`${spec.name}: gradient ${i} holds ${d[j]} at ${j}`);
          }
        }
        disposeExcept(grads, keep);
        disposeExcept([value, cot], xs!);
        return figures(fwdMs, m.seconds * 1e3);
      } finally {
        teardown();
      }
    }),
  };
}
