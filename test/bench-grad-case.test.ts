import { describe, it, expect } from 'vitest';
import { add, eq, randn, sum, Tensor } from '../src/index.js';
import { gradCall, taping } from '../src/core/grad.js';
import { cotangentOf, gradCpuCase, missingRule } from '../bench/grad-case.js';
import { QUICK_TIMING } from '../bench/harness.js';

// an op recorded under a name no rule has: what a function whose rule has not landed looks like
function ruleless(x: Tensor): Tensor {
  if (taping()) return gradCall('bench-test-ruleless', ruleless, [x]);
  return add(x, 1);
}

describe('bench/grad-case', () => {
  it('missingRule: null for a recorded op, a reason for a missing rule or a missing hook', () => {
    const x = randn([3, 4], { seed: 1 });
    expect(missingRule('add', (a) => add(a, 2), [x])).toBeNull();
    expect(missingRule('bench-test-ruleless', ruleless, [x])).toBe('no gradient rule for bench-test-ruleless yet');
    // a function that never passes its input to a recorded op: nothing is recorded
    expect(missingRule('fresh', () => randn([2], { seed: 8 }), [x])).toMatch(/^fresh records nothing under a tape/);
  });

  it('cotangentOf mirrors the value: random tensors for float leaves, null for int and bool ones', () => {
    const v = { a: randn([2, 3], { seed: 2 }), b: [eq(randn([2], { seed: 3 }), 0), randn([4], { dtype: 'complex128', seed: 4 })] };
    const c = cotangentOf(v, 5) as { a: Tensor; b: [null, Tensor] };
    expect(c.a.shape).toEqual([2, 3]);
    expect(c.a.dtype).toBe('float64');
    expect(c.b[0]).toBeNull();
    expect(c.b[1].dtype).toBe('complex128');
    expect(c.b[1].shape).toEqual([4]);
  });

  it('gradCpuCase: the lapis call runs, lapisCheck gives the pullback time and the ratio; a missing rule throws its reason', () => {
    const ok = gradCpuCase({ name: 'sum', op: 'sum', inputs: () => [randn([50, 50], { seed: 6 })], f: (x) => sum(x, { dim: 1 }) });
    ok.lapis!();
    const m = ok.lapisCheck!(0.5, QUICK_TIMING) as Record<string, number>;
    expect(m['pullback ms']).toBeGreaterThan(0);
    expect(m['bwd ÷ fwd']).toBeCloseTo(m['pullback ms'] / 0.5, 12);
    const missing = gradCpuCase({ name: 'ruleless', op: 'bench-test-ruleless', inputs: () => [randn([2], { seed: 7 })], f: (x) => ruleless(x) });
    expect(() => missing.lapis!()).toThrow('no gradient rule for bench-test-ruleless yet');
  });
});
