// cpuPeakFlops: the measured FMA peak (native/src/peak) is a positive finite GFLOP/s figure
// for float32 and float64, on one thread, the default (numThreads()) and an explicit count,
// and bad arguments are ArgumentErrors naming the argument. How large the figure is, and
// how it scales with threads, is a timing: bench/suites/peak.ts measures that.
import { describe, expect, it } from 'vitest';
import { ArgumentError, cpuPeakFlops, numThreads } from '../../src/index.js';

describe('cpuPeakFlops', () => {
  it('float32 and float64, 1 thread, the default and 2 threads: positive and finite', () => {
    expect(numThreads()).toBeGreaterThanOrEqual(1);
    for (const dtype of ['float32', 'float64'] as const) {
      for (const g of [cpuPeakFlops(dtype, 1), cpuPeakFlops(dtype), cpuPeakFlops(dtype, 2)]) {
        expect(Number.isFinite(g), `${dtype}: ${g}`).toBe(true);
        expect(g, dtype).toBeGreaterThan(0);
      }
    }
  });

  it('refuses a dtype other than float32/float64 and threads outside the integers 1..256, by name', () => {
    for (const dtype of ['int32', 'complex64', 'float16', 'f32', null, undefined, 1]) {
      expect(() => cpuPeakFlops(dtype as never)).toThrow(ArgumentError);
      expect(() => cpuPeakFlops(dtype as never)).toThrow(/^cpuPeakFlops: dtype must be one of 'float32', 'float64'/);
    }
    for (const threads of [0, -1, 257, 1.5, NaN, Infinity, '2', null]) {
      expect(() => cpuPeakFlops('float64', threads as never)).toThrow(ArgumentError);
      expect(() => cpuPeakFlops('float64', threads as never)).toThrow(/^cpuPeakFlops: threads must be an integer in \[1, 256\]/);
    }
  });
});
