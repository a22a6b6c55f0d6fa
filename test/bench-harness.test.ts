import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  median,
  planRepetitions,
  measureSync,
  measureAsync,
  evaluateTargets,
  fmtTime,
  fmtRatio,
  fmtLimit,
  fmtGflops,
  formatTable,
  markdownTable,
  ratioColumns,
  renderMarkdown,
  renderSvg,
  runOrder,
  targetSummary,
  registerSuite,
  registeredSuites,
  suiteAbout,
  caseTiming,
  fmtMetric,
  tableRows,
  peakFraction,
  fmtPercent,
  fmtPeaks,
  scalingGroups,
  scalingTables,
  DEFAULT_TIMING,
  type CaseResult,
  type SuiteResult,
  type TimingOptions,
} from '../bench/harness.js';
import { cpu16Threads } from '../bench/suites/cpu16.js';

function caseResult(name: string, ms: CaseResult['ms'], targets: Parameters<typeof evaluateTargets>[0] = [], flops?: number): CaseResult {
  return { name, flops, ms, targets: evaluateTargets(targets, ms) };
}

function suiteResult(suite: string, host: string, cases: CaseResult[]): SuiteResult {
  return {
    suite,
    host,
    date: '2026-11-29T12:34:56.789Z',
    quick: false,
    machine: { host, cpu: 'Test CPU', cores: 2, threads: 2, gemmKernel: 'avx2', platform: 'linux', arch: 'x64', node: 'v20', gpu: null, gpuNote: 'no adapter', python: { numpy: '1.24.2', torch: null } },
    cases,
  };
}

describe('bench harness statistics', () => {
  it('median of odd, even and empty lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
  });

  it('median lies between min and max and ignores order', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 40 }), (xs) => {
        const m = median(xs);
        expect(m).toBeGreaterThanOrEqual(Math.min(...xs));
        expect(m).toBeLessThanOrEqual(Math.max(...xs));
        expect(median([...xs].reverse()) === m).toBe(true);
        // at least half the values are ≤ m and at least half ≥ m
        expect(xs.filter((x) => x <= m).length * 2).toBeGreaterThanOrEqual(xs.length);
        expect(xs.filter((x) => x >= m).length * 2).toBeGreaterThanOrEqual(xs.length);
      }),
    );
  });

  it('median is robust to one outlier among many samples', () => {
    const xs = [1.0, 1.01, 0.99, 1.02, 0.98, 1000];
    expect(median(xs)).toBeCloseTo(1.005, 12);
  });

  it('planRepetitions keeps within the sample bounds and the time budget', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-8, max: 10, noNaN: true }), (est) => {
        const o = DEFAULT_TIMING;
        const p = planRepetitions(est, o);
        expect(p.inner).toBeGreaterThanOrEqual(1);
        if (est >= o.slowCallSeconds) {
          expect(p).toEqual({ inner: 1, samples: 1 });
          return;
        }
        expect(p.samples).toBeGreaterThanOrEqual(o.minSamples);
        expect(p.samples).toBeLessThanOrEqual(o.maxSamples);
        // A sample is long enough to time, and only as many calls as needed for that.
        expect(p.inner * est).toBeGreaterThanOrEqual(o.minSampleSeconds * (1 - 1e-12));
        if (p.inner > 1) expect((p.inner - 1) * est).toBeLessThan(o.minSampleSeconds);
        // Unless clamped by minSamples, the total stays near the target.
        if (p.samples > o.minSamples && p.samples < o.maxSamples) {
          expect(p.samples * p.inner * est).toBeLessThan(o.targetSeconds * 1.5 + p.inner * est);
        }
      }),
    );
  });

  it('planRepetitions: 10 µs calls are grouped, 100 ms calls are not', () => {
    expect(planRepetitions(1e-5, DEFAULT_TIMING)).toEqual({ inner: 1000, samples: 50 });
    expect(planRepetitions(0.1, DEFAULT_TIMING)).toEqual({ inner: 1, samples: 10 });
  });

  const fast: TimingOptions = { targetSeconds: 0.01, minSampleSeconds: 0.001, minSamples: 3, maxSamples: 5, warmup: 1, slowCallSeconds: 1 };

  it('measureSync calls warm-up plus samples × inner times and reports a per-call time', () => {
    let calls = 0;
    const m = measureSync(() => {
      calls++;
      const t = performance.now();
      while (performance.now() - t < 0.2);
    }, fast);
    expect(calls).toBe(fast.warmup + m.samples * m.inner);
    expect(m.seconds).toBeGreaterThanOrEqual(0.0002 * 0.9);
    expect(m.seconds).toBeLessThan(0.05);
  });

  it('measureSync keeps warming a fast body for syncWarmSeconds before it samples, and not a slow one', () => {
    let calls = 0;
    let warmEnded = 0;
    const t0 = performance.now();
    const m = measureSync(() => {
      calls++;
      if (calls === 2) warmEnded = performance.now();  // the second call is the first warm-period one
    }, { ...fast, syncWarmSeconds: 0.05 });
    const total = performance.now() - t0;
    expect(warmEnded).toBeGreaterThan(0);
    expect(total).toBeGreaterThanOrEqual(50);
    expect(calls).toBeGreaterThan(fast.warmup + m.samples * m.inner);
    let slowCalls = 0;
    measureSync(() => {
      slowCalls++;
      const t = performance.now();
      while (performance.now() - t < 60);
    }, { ...fast, slowCallSeconds: 1, minSamples: 1, maxSamples: 1, targetSeconds: 0.001, syncWarmSeconds: 10 });
    expect(slowCalls).toBe(2);  // warm-up and one sample: a 60 ms body is not warmed for 10 s
  });

  it('measureSync stops after one call when the body is slow', () => {
    let calls = 0;
    const m = measureSync(() => {
      calls++;
      const t = performance.now();
      while (performance.now() - t < 30);
    }, { ...fast, slowCallSeconds: 0.02 });
    expect(calls).toBe(1);
    expect(m).toMatchObject({ samples: 1, inner: 1 });
    expect(m.seconds).toBeGreaterThanOrEqual(0.029);
  });

  it('measureAsync awaits every call', async () => {
    let done = 0;
    const m = await measureAsync(async () => {
      await new Promise((r) => setTimeout(r, 1));
      done++;
    }, fast);
    expect(done).toBe(2 + m.samples * m.inner); // at least two warm-ups for pipeline compilation
    expect(m.seconds).toBeGreaterThanOrEqual(0.0009);
  });
});

describe('bench harness targets and formatting', () => {
  it('evaluateTargets compares the right lapis column with the peer', () => {
    const ms = { lapis: 10, gpu: 2, numpy: 8, torch: 4, mathjs: 5000 };
    const t = evaluateTargets(
      [
        { vs: 'numpy', maxRatio: 1.3 },
        { vs: 'torch', maxRatio: 0.4 },
        { vs: 'mathjs', maxRatio: 1 / 300 },
        { vs: 'numpy', device: 'gpu', maxRatio: 1 },
        { vs: 'ml-matrix', maxRatio: 0.02 },
      ],
      ms,
    );
    expect(t.map((x) => x.device)).toEqual(['cpu', 'gpu', 'cpu', 'gpu', 'cpu']);
    expect(t[0].ratio).toBeCloseTo(10 / 8, 14);
    expect(t[0].met).toBe(true);
    expect(t[1].ratio).toBeCloseTo(0.5, 14);
    expect(t[1].met).toBe(false);
    expect(t[2].ratio).toBeCloseTo(10 / 5000, 14);
    expect(t[2].met).toBe(true);
    expect(t[3].ratio).toBeCloseTo(0.25, 14);
    expect(t[4]).toMatchObject({ ratio: null, met: null });
  });

  it('evaluateTargets: the ratio is exactly at the limit → met', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (mine, peer) => {
        const [t] = evaluateTargets([{ vs: 'numpy', maxRatio: mine / peer }], { lapis: mine, numpy: peer });
        expect(t.met).toBe(true);
        const [u] = evaluateTargets([{ vs: 'numpy', maxRatio: (mine / peer) * 0.999 }], { lapis: mine, numpy: peer });
        expect(u.met).toBe(false);
      }),
    );
  });

  it('formats times, ratios, limits and rates', () => {
    expect(fmtTime(0.0123)).toBe('12.3 µs');
    expect(fmtTime(37.04)).toBe('37.0 ms');
    expect(fmtTime(123.4)).toBe('123 ms');
    expect(fmtTime(12_345)).toBe('12.3 s');
    expect(fmtTime(undefined)).toBe('—');
    expect(fmtRatio(1.234)).toBe('1.23×');
    expect(fmtRatio(0.004)).toBe('1/250');
    expect(fmtRatio(null)).toBe('—');
    expect(fmtLimit(1.3)).toBe('1.3');
    expect(fmtLimit(1 / 300)).toBe('1/300');
    // dgemm n=1024 in 37 ms ≈ 58 GFLOP/s
    expect(fmtGflops(2 * 1024 ** 3, 37)).toBe('58.0 GFLOP/s');
    expect(fmtGflops(2 * 4096 ** 3, 5)).toBe('27.49 TFLOP/s');
    expect(fmtGflops(undefined, 5)).toBe('');
  });

  const cases = [
    caseResult('dgemm n=1024', { lapis: 40, numpy: 37, 'ml-matrix': 5000 }, [{ vs: 'numpy', maxRatio: 1.3 }], 2 * 1024 ** 3),
    caseResult('matmul 64 f64', { lapis: 0.02, mathjs: 9, 'ml-matrix': 0.5 }, [
      { vs: 'mathjs', maxRatio: 1 / 300 },
      { vs: 'ml-matrix', maxRatio: 1 / 50 },
    ]),
    caseResult('sgemm 4096 gpu', { gpu: 5, torch: 2.7 }, [{ vs: 'torch', maxRatio: 1.5 }]),
  ];

  it('ratioColumns lists the measured pairs and the targets', () => {
    expect(ratioColumns(cases)).toEqual([
      { device: 'cpu', vs: 'numpy' },
      { device: 'cpu', vs: 'mathjs' },
      { device: 'cpu', vs: 'ml-matrix' },
      { device: 'gpu', vs: 'torch' },
    ]);
  });

  it('the console table has one aligned row per case with verdicts', () => {
    const t = formatTable(cases).split('\n');
    expect(t).toHaveLength(2 + cases.length);
    expect(t[0]).toMatch(/^case\s+lapis cpu\s+lapis gpu\s+numpy\s+mathjs\s+ml-matrix\s+torch/);
    // 40/37 = 1.08 ≤ 1.3
    expect(t[2]).toContain('1.08×');
    expect(t[2]).toContain('PASS numpy ≤ 1.3');
    // 0.02/9 = 1/450 and 0.02/0.5 = 1/25: the second misses 1/50
    expect(t[3]).toContain('1/450');
    expect(t[3]).toContain('PASS mathjs ≤ 1/300');
    expect(t[3]).toContain('MISS ml-matrix ≤ 1/50');
    expect(t[4]).toContain('1.85×');
    expect(t[4]).toContain('MISS torch ≤ 1.5');
    // GFLOP/s for the CPU case: 2·1024³ / 40 ms
    expect(t[2]).toContain('53.7 GFLOP/s');
    // columns line up under their headers
    const col = (title: string) => [...t[0]].indexOf(title[0], [...t[0]].join('').indexOf(title));
    expect([...t[2]].slice(col('lapis cpu')).join('')).toMatch(/^40\.0 ms/);
    expect([...t[3]].slice(col('mathjs')).join('')).toMatch(/^9\.00 ms/);
    expect([...t[4]].slice(col('torch')).join('')).toMatch(/^2\.70 ms/);
  });

  it('the markdown table has a header, an alignment row and one row per case', () => {
    const md = markdownTable(cases).split('\n');
    expect(md).toHaveLength(2 + cases.length);
    const cols = md[0].split(' | ').length;
    for (const line of md) {
      expect(line.startsWith('|') && line.endsWith('|')).toBe(true);
      expect(line.split(/(?<!\\)\|/).length - 2).toBe(cols);
    }
    expect(md[1]).toMatch(/^\| --- \|( ---: \|)+ --- \|$/);
  });

  it('renderMarkdown has one section per suite and machine, sorted, with the target count', () => {
    const results = [
      suiteResult('matmul', 'h200', [cases[2]]),
      suiteResult('matmul', 'vm', cases.slice(0, 2)),
      suiteResult('lu', 'vm', [caseResult('lu n=64', { lapis: 0.05, numpy: 0.057 }, [{ vs: 'numpy', maxRatio: 1 }])]),
    ];
    const md = renderMarkdown(results);
    const heads = md.split('\n').filter((l) => l.startsWith('## '));
    expect(heads).toEqual(['## lu — vm', '## matmul — h200', '## matmul — vm']);
    const s = targetSummary(results);
    expect(s).toEqual({ met: 3, missed: 2, unmeasured: 0 });
    expect(md).toContain('Targets: 3 met, 2 missed.');
    expect(md).toContain('Measured 2026-11-29 12:34:56 UTC.');
    expect(md).toContain('numpy 1.24.2');
    expect(md).toContain('GPU: none (no adapter)');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('renderSvg draws one bar per measured target, coloured by verdict, and escapes labels', () => {
    const results = [suiteResult('m<&>', 'vm', cases)];
    const svg = renderSvg(results);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const measured = cases.flatMap((c) => c.targets).filter((t) => t.ratio !== null);
    const green = (svg.match(/fill="#3a9d5d"/g) ?? []).length;
    const red = (svg.match(/fill="#d0453b"/g) ?? []).length;
    expect(green + red).toBe(measured.length);
    expect(green).toBe(measured.filter((t) => t.met).length);
    expect(svg).toContain('m&lt;&amp;&gt;@vm');
    expect(svg).not.toContain('m<&>');
  });

  it('renderSvg with no results still gives a valid drawing', () => {
    const svg = renderSvg([]);
    expect(svg).toContain('no targets measured yet');
  });

  it('registerSuite stores a lazy factory by name', async () => {
    let built = 0;
    registerSuite('harness-test-suite', () => {
      built++;
      return [{ name: 'noop', lapis: () => {} }];
    });
    expect(built).toBe(0);
    const f = registeredSuites().get('harness-test-suite');
    expect(f).toBeDefined();
    const cs = await f!();
    expect(built).toBe(1);
    expect(cs.map((c) => c.name)).toEqual(['noop']);
  });

  it('runOrder puts the cases with JavaScript peers last, each group in the suite\'s order', () => {
    const peers = async () => ({ mathjs: () => {} });
    const cases = [{ peers }, {}, {}, { peers }, {}];
    expect(runOrder(cases)).toEqual([1, 2, 4, 0, 3]);
    expect(runOrder([{}, {}])).toEqual([0, 1]);
    expect(runOrder([])).toEqual([]);
  });
});

describe('bench harness table columns', () => {
  it('shows a rate column only for the devices measured', () => {
    const gpuOnly = [caseResult('sgemm 4096', { gpu: 5, torch: 2.7 }, [], 2 * 4096 ** 3)];
    const t = formatTable(gpuOnly).split('\n')[0];
    expect(t).toContain('gpu rate');
    expect(t).not.toContain('cpu rate');
    expect(t).not.toContain('lapis cpu');
  });
});

describe('bench harness per-case timing, budgets, accuracy columns', () => {
  const fast: TimingOptions = { targetSeconds: 0.01, minSampleSeconds: 0.001, minSamples: 3, maxSamples: 5, warmup: 1, slowCallSeconds: 1 };
  const spin = (ms: number) => {
    const t = performance.now();
    while (performance.now() - t < ms);
  };

  it('caseTiming lays a case\'s fields over the run\'s and skips undefined ones', () => {
    expect(caseTiming(DEFAULT_TIMING)).toBe(DEFAULT_TIMING);
    const t = caseTiming(DEFAULT_TIMING, { minSamples: 2, budgetSeconds: 25, maxSamples: undefined });
    expect(t).toEqual({ ...DEFAULT_TIMING, minSamples: 2, budgetSeconds: 25 });
    expect(DEFAULT_TIMING.budgetSeconds).toBeUndefined();
  });

  it('measureSync starts no sample past the budget but takes at least one', () => {
    let calls = 0;
    // 20 ms calls, 8 samples wanted, a 50 ms budget: warm-up and at most a few samples
    const m = measureSync(() => { calls++; spin(20); }, { ...fast, targetSeconds: 10, minSamples: 8, maxSamples: 8, budgetSeconds: 0.05 });
    expect(m.samples).toBeGreaterThanOrEqual(1);
    expect(m.samples).toBeLessThan(8);
    expect(calls).toBe(1 + m.samples * m.inner);
    expect(m.seconds).toBeGreaterThanOrEqual(0.019);
  });

  it('measureAsync keeps to the budget and reports the samples it took', async () => {
    let calls = 0;
    const m = await measureAsync(async () => { calls++; spin(20); }, { ...fast, targetSeconds: 10, minSamples: 8, maxSamples: 8, budgetSeconds: 0.1 });
    expect(m.samples).toBeGreaterThanOrEqual(1);
    expect(m.samples).toBeLessThan(8);
    expect(calls).toBe(2 + m.samples * m.inner);
  });

  it('measureAsync: a warm-up that uses the budget up reports its own estimate, no sample', async () => {
    let calls = 0;
    // a short first call and a second past the budget: the outcome does not hang on the
    // machine's load (a 30 ms spin against a 50 ms budget took 100 ms on a loaded CI runner)
    const m = await measureAsync(async () => { calls++; spin(calls === 1 ? 2 : 300); }, { ...fast, budgetSeconds: 0.2 });
    expect(calls).toBe(2);
    expect(m).toMatchObject({ samples: 1, inner: 1 });
    expect(m.seconds).toBeGreaterThanOrEqual(0.29);
  });

  it('measureAsync: a first call longer than the budget is an error, not a figure', async () => {
    let calls = 0;
    await expect(measureAsync(async () => { calls++; spin(30); }, { ...fast, budgetSeconds: 0.01 })).rejects.toThrow(/time budget: the first call took/);
    expect(calls).toBe(1);
  });

  it('fmtMetric: three significant digits, exponent form for tiny or huge values', () => {
    expect(fmtMetric(0.4127966)).toBe('0.413');
    expect(fmtMetric(12.34)).toBe('12.3');
    expect(fmtMetric(0.0033891)).toBe('3.4e-3');
    expect(fmtMetric(117000)).toBe('1.2e+5');
    expect(fmtMetric(0)).toBe('0');
    expect(fmtMetric(Infinity)).toBe('Infinity');
    expect(fmtMetric(undefined)).toBe('—');
  });

  it('accuracy figures become columns before the targets, — where a case has none', () => {
    const a = { ...caseResult('svd 1024', { gpu: 50, torch: 55.6 }, [{ vs: 'torch', maxRatio: 1 }]), metrics: { 'backward err': 0.41, orthogonality: 0.56 } };
    const b = { ...caseResult('svdvals 4096', { gpu: 300, torch: 400 }), metrics: { 'σ err': 0.02 } };
    const c = caseResult('plain', { gpu: 1 });
    const { header, rows } = tableRows([a, b, c]);
    expect(header.slice(-4)).toEqual(['backward err', 'orthogonality', 'σ err', 'targets']);
    expect(rows[0].slice(-4)).toEqual(['0.41', '0.56', '—', 'PASS torch ≤ 1']);
    expect(rows[1].slice(-4, -1)).toEqual(['—', '—', '0.02']);
    expect(rows[2].slice(-4, -1)).toEqual(['—', '—', '—']);
    // no metrics anywhere: no extra columns
    expect(tableRows([c]).header).toEqual(['case', 'lapis gpu', 'targets']);
  });

  it('renderMarkdown prints a suite\'s about paragraph and flags an incomplete run', () => {
    const r = { ...suiteResult('svd-gpu', 'h200', [caseResult('svd 1024', { gpu: 50 })]), about: 'Accuracy columns: ratios.', incomplete: true };
    const md = renderMarkdown([r]);
    expect(md).toContain('Accuracy columns: ratios.');
    expect(md).toContain('(incomplete: the run stopped before its last case');
    expect(renderMarkdown([suiteResult('svd-gpu', 'h200', [])])).not.toContain('incomplete');
  });

  it('registerSuite keeps the about paragraph by name', () => {
    registerSuite('harness-about-suite', () => [], 'About this suite.');
    expect(suiteAbout('harness-about-suite')).toBe('About this suite.');
    registerSuite('harness-about-suite', () => []);
    expect(suiteAbout('harness-about-suite')).toBeUndefined();
  });
});

describe('bench harness per-case thread counts', () => {
  const withThreads = (c: CaseResult, threads: number): CaseResult => ({ ...c, threads });

  it('a threads column appears only when some case runs on other threads than the run\'s', () => {
    const same = [withThreads(caseResult('a', { lapis: 1, numpy: 1 }), 2), caseResult('b', { lapis: 2, numpy: 2 })];
    expect(tableRows(same, 2).header).not.toContain('threads');
    expect(tableRows([caseResult('b', { lapis: 2 })]).header).not.toContain('threads');
    const mixed = [withThreads(caseResult('a (t=1)', { lapis: 1, numpy: 1 }), 1), caseResult('b', { lapis: 2, numpy: 2 })];
    const { header, rows } = tableRows(mixed, 2);
    expect(header.slice(0, 2)).toEqual(['case', 'threads']);
    // the case's own count, the run's where it has none
    expect(rows.map((r) => r[1])).toEqual(['1', '2']);
    expect(formatTable(mixed, 2).split('\n')[0]).toMatch(/^case\s+threads\s+lapis cpu/);
    expect(markdownTable(mixed, 2).split('\n')[2]).toMatch(/^\| a \(t=1\) \| 1 \| /);
  });

  it('scalingGroups groups `<op> (t=N)` cases by op, sorted by threads, two or more counts only', () => {
    const cases = [
      withThreads(caseResult('dgemm n=4096 (t=4)', { lapis: 50, numpy: 40 }), 4),
      caseResult('dgemm n=4096 (t=1)', { lapis: 200, numpy: 160 }),
      withThreads(caseResult('lu n=4096 (t=2)', { lapis: 30 }), 2),
      caseResult('plain case', { lapis: 1 }),
      withThreads(caseResult('dgemm n=4096 (t=2)', { lapis: 100, numpy: 80 }), 2),
    ];
    const g = scalingGroups(cases);
    expect(g.map((x) => x.op)).toEqual(['dgemm n=4096']);
    expect(g[0].rows.map((r) => r.threads)).toEqual([1, 2, 4]);
    expect(g[0].rows[1].c.name).toBe('dgemm n=4096 (t=2)');
    expect(scalingGroups([caseResult('x', { lapis: 1 })])).toEqual([]);
    expect(scalingTables([caseResult('x', { lapis: 1 })])).toBe('');
  });

  it('scalingTables: per op, threads × lapis, numpy, their ratio and each side\'s speed-up', () => {
    const cases = [1, 2, 4].map((t) => withThreads(caseResult(`qr 4096 (t=${t})`, { lapis: 400 / t, numpy: t === 4 ? undefined : 200 / (t === 2 ? 1.5 : 1) }), t));
    const md = scalingTables(cases).split('\n');
    expect(md).toContain('**qr 4096**');
    const rows = md.filter((l) => /^\| \d/.test(l));
    expect(rows).toEqual([
      '| 1 | 400 ms | 200 ms | 2.00× | 1.0× | 1.0× |',
      '| 2 | 200 ms | 133 ms | 1.50× | 2.0× | 1.5× |',
      '| 4 | 100 ms | — | — | 4.0× | — |',
    ]);
    const doc = renderMarkdown([suiteResult('cpu16', 'box', cases)]);
    expect(doc).toContain('Scaling with the thread count');
    expect(doc).toContain('| 2 | 200 ms | 133 ms | 1.50× | 2.0× | 1.5× |');
    expect(renderMarkdown([suiteResult('lu', 'box', [caseResult('lu', { lapis: 1 })])])).not.toContain('Scaling with');
  });

  it('cpu16Threads: the listed counts, sorted and deduplicated, within the machine\'s cores', () => {
    expect(cpu16Threads(undefined, 16)).toEqual([1, 2, 4, 8, 16]);
    expect(cpu16Threads('', 4)).toEqual([1, 2, 4]);
    expect(cpu16Threads('8, 2,2', 16)).toEqual([2, 8]);
    // none within the machine: its own count
    expect(cpu16Threads('32', 12)).toEqual([12]);
    expect(() => cpu16Threads('1,x', 4)).toThrow(/LAPIS_BENCH_THREADS/);
    expect(() => cpu16Threads('0', 4)).toThrow(/LAPIS_BENCH_THREADS/);
  });
});

describe('bench harness fraction of the FMA peak', () => {
  // dgemm n=1024 in 40 ms = 53.69 GFLOP/s against a 104 GFLOP/s peak (2 threads of 52)
  const flops = 2 * 1024 ** 3;
  const peak = { dtype: 'float64' as const, threads: 2, gflops: 104 };
  const withPeak = (name: string, ms: CaseResult['ms'], targets: Parameters<typeof evaluateTargets>[0] = []): CaseResult => {
    const fraction = peakFraction(flops, ms.lapis, peak.gflops);
    return { name, flops, ms, targets: evaluateTargets(targets, ms, fraction), peak: { ...peak, fraction } };
  };

  it('peakFraction is the rate over the peak; null without a time, flops or peak', () => {
    expect(peakFraction(flops, 40, 104)).toBeCloseTo(flops / 0.04 / 1e9 / 104, 14);
    expect(peakFraction(flops, undefined, 104)).toBeNull();
    expect(peakFraction(undefined, 40, 104)).toBeNull();
    expect(peakFraction(flops, 0, 104)).toBeNull();
    expect(peakFraction(flops, 40, 0)).toBeNull();
    expect(peakFraction(flops, Infinity, 104)).toBeNull();
  });

  it('a peak target passes at or above its fraction and reads as a time ratio', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1.5, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (f, min) => {
        const [t] = evaluateTargets([{ vs: 'peak', minFraction: min }], { lapis: 1 }, f);
        expect(t).toMatchObject({ vs: 'peak', device: 'cpu', minFraction: min, met: f >= min });
        expect(t.ratio).toBeCloseTo(1 / f, 12);
        expect(t.maxRatio).toBeCloseTo(1 / min, 12);
      }),
    );
    const [atLimit] = evaluateTargets([{ vs: 'peak', minFraction: 0.85 }], {}, 0.85);
    expect(atLimit.met).toBe(true);
    // no lapis time (or no peak measured): not measured, never a verdict
    const [none] = evaluateTargets([{ vs: 'peak', minFraction: 0.85 }], {}, null);
    expect(none).toMatchObject({ ratio: null, met: null });
    expect(evaluateTargets([{ vs: 'peak', minFraction: 0.85 }], { lapis: 3 })[0].met).toBeNull();
  });

  it('formats percentages and the machine\'s peaks', () => {
    expect(fmtPercent(0.5162)).toBe('52%');
    expect(fmtPercent(1)).toBe('100%');
    expect(fmtPercent(null)).toBe('—');
    expect(fmtPercent(NaN)).toBe('—');
    expect(fmtPeaks([
      { dtype: 'float64', threads: 2, gflops: 103.6 },
      { dtype: 'float32', threads: 1, gflops: 104.2 },
      { dtype: 'float64', threads: 1, gflops: 51.84 },
      { dtype: 'float32', threads: 2, gflops: 207.7 },
    ])).toBe('FMA peak float32: 104 GFLOP/s on 1 thread, 208 on 2; float64: 51.8 GFLOP/s on 1 thread, 104 on 2');
    expect(fmtPeaks([{ dtype: 'float32', threads: 16, gflops: 2500 }])).toBe('FMA peak float32: 2500 GFLOP/s on 16 threads');
    expect(fmtPeaks(undefined)).toBe('');
    expect(fmtPeaks([])).toBe('');
  });

  it('an "of peak" column after the cpu rate, a verdict per peak target, no ratio column for it', () => {
    const a = withPeak('dgemm n=1024', { lapis: 40, numpy: 37 }, [{ vs: 'numpy', maxRatio: 1.3 }, { vs: 'peak', minFraction: 0.85 }]);
    // the same flops in 55% of a's time: 52% / 0.55 = 94%
    const b = withPeak('dgemm n=1024 fast', { lapis: 40 * 0.55 }, [{ vs: 'peak', minFraction: 0.85 }]);
    const c = caseResult('dgemv n=1024', { lapis: 0.5, numpy: 0.4 }, [], 2 * 1024 ** 2);
    expect(ratioColumns([a, b, c])).toEqual([{ device: 'cpu', vs: 'numpy' }]);
    const { header, rows } = tableRows([a, b, c]);
    const at = header.indexOf('of peak');
    expect(at).toBe(header.indexOf('cpu rate') + 1);
    expect(rows.map((r) => r[at])).toEqual(['52%', '94%', '']);
    expect(rows[0].at(-1)).toBe('PASS numpy ≤ 1.3; MISS ≥ 85% of peak');
    expect(rows[1].at(-1)).toBe('PASS ≥ 85% of peak');
    expect(rows[2].at(-1)).toBe('');
    // no peak anywhere: no column
    expect(tableRows([c]).header).not.toContain('of peak');
    expect(formatTable([a, c]).split('\n')[0]).toMatch(/cpu rate\s+of peak/);
    expect(markdownTable([a, c]).split('\n')[2]).toContain('| 52% |');
  });

  it('the docs carry the machine\'s peaks, and the chart draws a peak target as lapis time ÷ time at peak', () => {
    const a = withPeak('dgemm n=1024', { lapis: 40 }, [{ vs: 'peak', minFraction: 0.85 }]);
    const r = suiteResult('matmul', 'vm', [a]);
    r.machine.peak = [{ dtype: 'float64', threads: 1, gflops: 52 }, { dtype: 'float64', threads: 2, gflops: 104 }];
    const md = renderMarkdown([r]);
    expect(md).toContain('FMA peak float64: 52.0 GFLOP/s on 1 thread, 104 on 2');
    expect(md).toContain('MISS ≥ 85% of peak');
    expect(md).toContain('Targets: 0 met, 1 missed.');
    const svg = renderSvg([r]);
    expect(svg).toContain('matmul@vm: dgemm n=1024 (cpu) vs 85% of peak');
    expect((svg.match(/fill="#d0453b"/g) ?? []).length).toBe(1);
    expect(svg).toContain(fmtRatio(1 / a.peak!.fraction!));
    // a result file written before the probe existed still renders
    expect(renderMarkdown([suiteResult('matmul', 'vm', [caseResult('x', { lapis: 1 })])])).not.toContain('FMA peak');
  });
});

// The bench's numpy peer is a python3 program: CI has python3 (and fails on any skip); a
// machine without one reports this test as skipped, by name.
const hasPython3 = !spawnSync('python3', ['--version']).error;

describe('bench/python_peer.py --serve (the interleaved rounds of --rounds)', () => {
  it.skipIf(!hasPython3)('(needs python3 on PATH) answers one line per case, runs a setup once until forgotten, and reports errors per case', () => {
    const setup = "import sys\nassert not hasattr(sys, '_lapis_serve_test'), 'setup ran twice'\nsys._lapis_serve_test = 1\nx = [0]";
    const c = { name: 'count', setup, stmt: 'x[0] += 1', timing: { targetSeconds: 0.01, minSamples: 1, maxSamples: 2 } };
    const lines = [
      { kind: 'info', timing: { targetSeconds: 0.01, minSampleSeconds: 0.001 } },
      c,
      c, // a second round: the kept namespace, so the assertion in setup does not run again
      { name: 'broken', setup: 'raise ValueError("no")', stmt: 'pass' },
      { forget: 'count' },
      c, // forgotten: the setup runs again and its assertion fails
    ];
    const r = spawnSync('python3', [join(__dirname, '..', 'bench', 'python_peer.py'), '--serve'], {
      input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(6);
    expect(out[0].info.python).toMatch(/^3\./);
    for (const i of [1, 2]) {
      expect(out[i].name).toBe('count');
      expect(out[i].seconds).toBeGreaterThan(0);
      expect(out[i].error).toBeUndefined();
    }
    expect(out[3]).toMatchObject({ name: 'broken', error: 'ValueError: no' });
    expect(out[4]).toEqual({});
    expect(out[5].error).toMatch(/setup ran twice/);
  });
});
