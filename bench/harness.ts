// The benchmark harness: the suite registry that bench/suites/*.ts fill, the timing
// loops, and the pure functions that turn timings into tables, markdown and a chart.
// Everything here but `measureSync`/`measureAsync` is deterministic so that
// test/bench-harness.test.ts can check it on synthetic timings.

export type PeerName = 'numpy' | 'mathjs' | 'ml-matrix' | 'torch';

export interface PeerTarget {
  vs: PeerName;
  /** Which lapis timing the target compares: defaults to 'gpu' against torch, 'cpu' otherwise. */
  device?: 'cpu' | 'gpu';
  /** lapis time / peer time must be ≤ maxRatio. */
  maxRatio: number;
  /**
   * An absolute target instead (the issue gives a time, not a ratio): lapis time / `calls`
   * must be ≤ `max` milliseconds. `ratio` is then that time ÷ `max` (met at ≤ 1, the
   * `maxRatio` such targets carry), so tables and the chart treat both kinds alike.
   */
  perCallMs?: { max: number; calls: number };
}

/**
 * The lapis CPU rate (`flops` over its time) must reach `minFraction` of the machine's
 * measured FMA peak for the case's `peak` dtype. It reads as the other targets do: `ratio`
 * is lapis time ÷ the time at peak (1 / fraction), `maxRatio` is 1 / minFraction.
 */
export interface PeakTarget {
  vs: 'peak';
  minFraction: number;
}

export type BenchTarget = PeerTarget | PeakTarget;

/** The dtypes the peak probe measures: a complex GEMM runs on its real type's FMAs. */
export type PeakDType = 'float32' | 'float64';

/** One peak-probe figure: GFLOP/s of register-only FMAs on `threads` threads at once. */
export interface PeakFigure {
  dtype: PeakDType;
  threads: number;
  gflops: number;
}

/**
 * The order a suite's cases run in: those with in-process JavaScript peers after all others
 * (BenchCase.peers), each group in the suite's order. Results keep the suite's order.
 */
export function runOrder(cases: readonly Pick<BenchCase, 'peers'>[]): number[] {
  return [...cases.keys()].sort((a, b) => Number(!!cases[a].peers) - Number(!!cases[b].peers) || a - b);
}

let gpuOff = false;
/** run.ts's `--no-gpu`: the GPU suites' factories then build their cases without asking for an adapter. */
export function setGpuOff(off: boolean): void {
  gpuOff = off;
}
export function isGpuOff(): boolean {
  return gpuOff;
}

export interface JsPeers {
  mathjs?: () => void;
  mlMatrix?: () => void;
}

export interface BenchCase {
  name: string; // 'dgemm n=1024'
  flops?: number; // to print GFLOP/s
  lapis?: () => void; // lapis on the CPU, timed body (setup outside)
  gpu?: () => Promise<void>; // lapis on the GPU; must end with a sync
  /**
   * Checks the GPU result after the timing (throws if wrong; the time is then dropped).
   * After the timing, because reading back a gigabyte leaves the driver freeing its
   * staging memory for a while, which slowed the next half second of GPU calls 2–4×.
   * It may return accuracy figures (column title → value, e.g. a backward-error ratio):
   * they become columns of the case's table row (CaseResult.metrics). It is given the
   * GPU time just measured (ms per call) and the case's timing.
   */
  gpuCheck?: (gpuMs: number, timing: TimingOptions) => Promise<void | Record<string, number>>;
  /**
   * Runs after the lapis CPU timing, untimed, with that time (ms per call) and the case's
   * timing: the figures it returns become columns of the row like gpuCheck's (e.g. a second
   * timing the row compares with the first: a backward over its forward). Throwing adds a note.
   */
  lapisCheck?: (lapisMs: number, timing: TimingOptions) => void | Record<string, number>;
  /**
   * Makes the in-process JavaScript peers' timed bodies, importing their modules, when the case
   * runs. Once imported a module stays in the heap (mathjs: ~32 MB), and every later V8
   * collection of lapis's fresh results pays for it, so the run times these cases after all
   * of the suite's others (docs/decisions.md, "V8's own collector on two cores").
   */
  peers?: () => Promise<JsPeers>;
  /**
   * Makes the case's data, untimed, just before its first timing (after its thread count is
   * set); with it a suite need not hold every case's data at once, which a large
   * JavaScript/external footprint makes every V8 collection of fresh results pay for.
   */
  setup?: () => void;
  python?: { setup: string; stmt: string }; // numpy/scipy via the python3 on PATH (LAPIS_BENCH_PYTHON overrides)
  torch?: { setup: string; stmt: string }; // torch on CUDA, timed with cuda sync by the harness
  targets?: BenchTarget[]; // lapis time / peer time must be ≤ maxRatio
  /**
   * GEMM-bound cases: the FMA dtype whose measured peak (cpuPeakFlops, once per run and
   * thread count) the lapis CPU rate is shown against as "% of peak"; needs `flops`.
   */
  peak?: PeakDType;
  /**
   * This case's timing, over the run's (DEFAULT_TIMING or QUICK_TIMING): fewer samples
   * and a `budgetSeconds` for a case whose call takes a second, so the suite keeps within
   * its step's time limit. Applies to lapis, the GPU and the Python peers alike.
   */
  timing?: Partial<TimingOptions>;
  /**
   * Threads for this case instead of the run's: lapis runs it under setNumThreads(threads)
   * (restored after), numpy/scipy with OPENBLAS_NUM_THREADS/OMP_NUM_THREADS = threads. A
   * name ending in ` (t=N)` for two or more N makes a scaling table in the docs.
   */
  threads?: number;
}

export type SuiteFactory = () => BenchCase[] | Promise<BenchCase[]>;

const suites = new Map<string, SuiteFactory>();
const abouts = new Map<string, string>();

/**
 * Registers a benchmark suite under `name`; `factory` builds the cases lazily, so data
 * is only made for suites that run. Registering a name twice replaces the factory.
 * `about`: a paragraph printed under the suite's tables in docs/benchmarks.md (what
 * its accuracy columns mean, say).
 */
export function registerSuite(name: string, factory: SuiteFactory, about?: string): void {
  suites.set(name, factory);
  if (about) abouts.set(name, about);
  else abouts.delete(name);
}

/** The `about` paragraph a suite was registered with, if any. */
export function suiteAbout(name: string): string | undefined {
  return abouts.get(name);
}

/** The registered suites, in registration order. */
export function registeredSuites(): ReadonlyMap<string, SuiteFactory> {
  return suites;
}

// ---------------------------------------------------------------------------------------
// Statistics and timing

/** The median of `xs` (mean of the two middle values for an even count); NaN if empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

export interface TimingOptions {
  /** Seconds one measurement should take in all (samples × inner × per-call). */
  targetSeconds: number;
  /** A sample loops the body until it lasts at least this many seconds (timer resolution, call overhead). */
  minSampleSeconds: number;
  minSamples: number;
  maxSamples: number;
  /** Warm-up calls before the estimate (JIT, caches, pipeline compilation). */
  warmup: number;
  /** Past this many seconds per call, a single timed call is all we do. */
  slowCallSeconds: number;
  /** measureAsync: keep warming up for this long (after the first call) before timing. */
  warmSeconds?: number;
  /**
   * measureSync: calls under 50 ms keep warming up for this long. JS outputs are freed only
   * when V8 collects them, so a process's first fast calls write fresh pages (on the VM a
   * first-touch fault costs ~13 µs) until the first collections hand memory back; numpy
   * frees each result at once and is in that steady state from its first call.
   */
  syncWarmSeconds?: number;
  /**
   * Seconds one measurement may take, warm-up included: no call starts past it (the
   * warm-up's estimate stands when no sample was taken), and a first call that alone
   * outlasts it ends the measurement with an error (its time includes compilation and
   * setup: not a figure).
   */
  budgetSeconds?: number;
}

/** `base` with a case's own timing fields over it. */
export function caseTiming(base: TimingOptions, own?: Partial<TimingOptions>): TimingOptions {
  if (!own) return base;
  const o = { ...base };
  for (const [k, v] of Object.entries(own)) if (v !== undefined) (o as unknown as Record<string, number>)[k] = v;
  return o;
}

/** The error a measurement whose first call outlasted its budget ends with. */
export function overBudget(firstSeconds: number, budgetSeconds: number): Error {
  return new Error(`over the case's time budget: the first call took ${firstSeconds.toFixed(1)} s (budget ${budgetSeconds} s)`);
}

export const DEFAULT_TIMING: TimingOptions = {
  targetSeconds: 1,
  minSampleSeconds: 0.01,
  minSamples: 5,
  maxSamples: 50,
  warmup: 1,
  slowCallSeconds: 3,
  warmSeconds: 1,
  syncWarmSeconds: 0.3,
};

export const QUICK_TIMING: TimingOptions = {
  targetSeconds: 0.05,
  minSampleSeconds: 0.001,
  minSamples: 1,
  maxSamples: 3,
  warmup: 1,
  slowCallSeconds: 0.5,
};

export interface Plan {
  inner: number; // calls per sample
  samples: number;
}

/**
 * How many calls per sample and how many samples, from one call's estimated time: a
 * sample lasts at least `minSampleSeconds`, the whole measurement about
 * `targetSeconds`, within [minSamples, maxSamples]; very slow calls get one sample.
 */
export function planRepetitions(estimateSeconds: number, o: TimingOptions): Plan {
  const est = Math.max(estimateSeconds, 1e-9);
  if (est >= o.slowCallSeconds) return { inner: 1, samples: 1 };
  const inner = Math.max(1, Math.ceil(o.minSampleSeconds / est));
  const samples = Math.round(o.targetSeconds / (inner * est));
  return { inner, samples: Math.min(o.maxSamples, Math.max(o.minSamples, samples)) };
}

export interface Measurement {
  /** Median seconds per call. */
  seconds: number;
  samples: number;
  inner: number;
}

const now = (): number => performance.now() / 1000;

/** Warm-up, estimate, then the median per-call time over adaptive samples. */
export function measureSync(fn: () => void, o: TimingOptions = DEFAULT_TIMING): Measurement {
  let est = Infinity;
  const start = now();
  const budget = o.budgetSeconds ?? Infinity;
  for (let i = 0; i < Math.max(1, o.warmup); i++) {
    const t0 = now();
    fn();
    est = Math.min(est, now() - t0);
    if (est >= o.slowCallSeconds) return { seconds: est, samples: 1, inner: 1 };
    if (now() - start > budget) break;
  }
  const warmUntil = now() + (o.syncWarmSeconds ?? 0);
  while (est < 0.05 && now() < warmUntil && now() - start <= budget) {
    const t0 = now();
    fn();
    est = Math.min(est, now() - t0);
  }
  const plan = planRepetitions(est, o);
  const times: number[] = [];
  for (let s = 0; s < plan.samples; s++) {
    if (now() - start > budget) break;
    const t0 = now();
    for (let i = 0; i < plan.inner; i++) fn();
    times.push((now() - t0) / plan.inner);
  }
  if (!times.length) return { seconds: est, samples: 1, inner: 1 };
  return { seconds: median(times), inner: plan.inner, samples: times.length };
}

/** `measureSync` for a body that returns a promise (GPU work ending with a sync). */
export async function measureAsync(fn: () => Promise<void>, o: TimingOptions = DEFAULT_TIMING): Promise<Measurement> {
  let est = Infinity;
  // The first GPU call compiles pipelines and GPU cases build their data in it (16.7M
  // matrices take seconds): always warm up at least twice, and never let the first call
  // stand for the measurement (it did once, as a 3 s "inverse").
  // Then keep calling for warmSeconds: on the H200 every case's first ~0.3 s after its
  // setup ran 2–4× slow (clocks and the driver's staging memory settling, bench traces).
  const start = now();
  const budget = o.budgetSeconds ?? Infinity;
  let warmStart = now();
  for (let i = 0; i < Math.max(2, o.warmup) || (now() - warmStart < (o.warmSeconds ?? 0) && i < 1000); i++) {
    const t0 = now();
    await fn();
    const dt = now() - t0;
    if (i === 0) {
      warmStart = now();
      if (dt > budget) throw overBudget(dt, budget);
    }
    if (i > 0) est = i === 1 ? dt : Math.min(est, dt);
    if (i > 0 && est >= o.slowCallSeconds) return { seconds: est, samples: 1, inner: 1 };
    if (i > 0 && now() - start > budget) break;
  }
  const plan = planRepetitions(est, o);
  const times: number[] = [];
  for (let s = 0; s < plan.samples; s++) {
    if (now() - start > budget) break;
    const t0 = now();
    for (let i = 0; i < plan.inner; i++) await fn();
    times.push((now() - t0) / plan.inner);
  }
  if (!times.length) return { seconds: est, samples: 1, inner: 1 };
  if (process.env.LAPIS_BENCH_TRACE) {
    console.error(`  trace: est ${(est * 1e3).toFixed(3)} ms, ${times.length}×${plan.inner} calls, samples (ms): ${times.map((t) => (t * 1e3).toFixed(2)).join(' ')}`);
  }
  return { seconds: median(times), inner: plan.inner, samples: times.length };
}

// ---------------------------------------------------------------------------------------
// Results

export type ColumnName = 'lapis' | 'gpu' | PeerName;
export const COLUMNS: readonly ColumnName[] = ['lapis', 'gpu', 'numpy', 'mathjs', 'ml-matrix', 'torch'];
export const PEERS: readonly PeerName[] = ['numpy', 'mathjs', 'ml-matrix', 'torch'];

export interface TargetResult {
  vs: PeerName | 'peak';
  device: 'cpu' | 'gpu';
  /** lapis time ÷ reference time must be ≤ this (a peak target's is 1 / minFraction). */
  maxRatio: number;
  perCallMs?: { max: number; calls: number };
  /** A peak target's fraction of the peak to reach. */
  minFraction?: number;
  /** lapis time / peer time; null when either side was not measured. */
  ratio: number | null;
  met: boolean | null;
}

export interface CaseResult {
  name: string;
  flops?: number;
  /** Median milliseconds per call, by column; absent if not measured. */
  ms: Partial<Record<ColumnName, number>>;
  /** Why a column has no time (peer missing, error). */
  notes?: Partial<Record<ColumnName, string>>;
  targets: TargetResult[];
  /** Accuracy figures of the lapis GPU result (column title → value), from its gpuCheck. */
  metrics?: Record<string, number>;
  /** The peak the case's lapis CPU rate is read against, and that fraction (null: no lapis time). */
  peak?: PeakFigure & { fraction: number | null };
  /** The case's own thread count (BenchCase.threads); absent: the run's (MachineInfo.threads). */
  threads?: number;
  /** With `--rounds`: each interleaved round's median ms (lapis, then numpy, alternately); `ms` holds each side's best. */
  rounds?: { lapis: number[]; numpy: number[] };
}

export interface MachineInfo {
  host: string;
  cpu: string;
  cores: number;
  threads: number | null; // lapis numThreads()
  gemmKernel?: string | null;
  platform: string;
  arch: string;
  node: string;
  gpu?: string | null; // adapter description, or null
  gpuNote?: string; // why there is no GPU column
  python?: Record<string, string | null>; // numpy, scipy, openblas, torch, cuda device…
  peersAbsent?: string[]; // peers with cases but no interpreter: 'torch: no python3 with torch and CUDA'
  peak?: PeakFigure[]; // the FMA peak probe, float32 and float64 on 1 and numThreads() threads (and any a case used)
}

export interface SuiteResult {
  suite: string;
  host: string;
  date: string; // ISO
  quick: boolean;
  machine: MachineInfo;
  cases: CaseResult[];
  /** The suite's `about` paragraph (registerSuite), printed under its tables. */
  about?: string;
  /** Written while the suite was still running (a run stopped by a time limit leaves this). */
  incomplete?: boolean;
}

/** The lapis column a target compares. */
export function targetDevice(t: BenchTarget): 'cpu' | 'gpu' {
  if (t.vs === 'peak') return 'cpu';
  return t.device ?? (t.vs === 'torch' ? 'gpu' : 'cpu');
}

/** The fraction of `peakGflops` that `flops` in `ms` milliseconds reach; null without a time, flops or peak. */
export function peakFraction(flops: number | undefined, ms: number | undefined, peakGflops: number | undefined): number | null {
  if (!flops || ms === undefined || !(ms > 0) || !Number.isFinite(ms) || !(peakGflops! > 0)) return null;
  return flops / (ms * 1e-3) / 1e9 / peakGflops!;
}

/**
 * lapis/peer for each target of a case, with PASS (true) / MISS (false) / not measured (null).
 * `ofPeak`: the case's fraction of the FMA peak (peakFraction), for `vs: 'peak'` targets.
 */
export function evaluateTargets(targets: readonly BenchTarget[] | undefined, ms: CaseResult['ms'], ofPeak?: number | null): TargetResult[] {
  return (targets ?? []).map((t) => {
    const device = targetDevice(t);
    if (t.vs === 'peak') {
      const f = ofPeak ?? null;
      return { vs: 'peak', device, maxRatio: 1 / t.minFraction, minFraction: t.minFraction, ratio: f === null ? null : 1 / f, met: f === null ? null : f >= t.minFraction };
    }
    const mine = ms[device === 'gpu' ? 'gpu' : 'lapis'];
    if (t.perCallMs) {
      const r = mine !== undefined && Number.isFinite(mine) ? mine / t.perCallMs.calls / t.perCallMs.max : null;
      return { vs: t.vs, device, maxRatio: 1, perCallMs: t.perCallMs, ratio: r, met: r === null ? null : r <= 1 };
    }
    const peer = ms[t.vs];
    const ok = mine !== undefined && peer !== undefined && peer > 0 && Number.isFinite(mine) && Number.isFinite(peer);
    const ratio = ok ? mine! / peer! : null;
    return { vs: t.vs, device, maxRatio: t.maxRatio, ratio, met: ratio === null ? null : ratio <= t.maxRatio };
  });
}

// ---------------------------------------------------------------------------------------
// Formatting

/** A time in milliseconds, three significant digits, switching to µs/s where it reads better. */
export function fmtTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1) return `${sig(ms * 1000)} µs`;
  if (ms >= 10_000) return `${sig(ms / 1000)} s`;
  return `${sig(ms)} ms`;
}

function sig(x: number): string {
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/** A ratio lapis/peer: "0.81×", "1/412" style for tiny ratios would confuse; keep decimals. */
export function fmtRatio(r: number | null | undefined): string {
  if (r === null || r === undefined || !Number.isFinite(r)) return '—';
  if (r >= 100) return `${r.toFixed(0)}×`;
  if (r >= 0.1) return `${r.toFixed(2)}×`;
  // Big speed-ups read better as "1/N" (lapis N times faster).
  return `1/${(1 / r).toFixed(0)}`;
}

/** A fraction of the peak as a percentage: "87%". */
export function fmtPercent(f: number | null | undefined): string {
  if (f === null || f === undefined || !Number.isFinite(f)) return '—';
  return `${(f * 100).toFixed(0)}%`;
}

export function fmtGflops(flops: number | undefined, ms: number | undefined): string {
  if (!flops || ms === undefined || !(ms > 0)) return '';
  const g = flops / (ms * 1e-3) / 1e9;
  return g >= 1000 ? `${(g / 1000).toFixed(2)} TFLOP/s` : `${g.toFixed(1)} GFLOP/s`;
}

/** A target's limit: 1.3 stays 1.3, 1/300 prints as "1/300". */
export function fmtLimit(x: number): string {
  if (x > 0 && x < 0.1) return `1/${Math.round(1 / x)}`;
  return String(Number(x.toPrecision(3)));
}

/** The ratio columns a set of cases needs: lapis cpu vs each CPU peer, gpu vs torch (and others a target asks for). */
export function ratioColumns(cases: readonly CaseResult[]): Array<{ device: 'cpu' | 'gpu'; vs: PeerName }> {
  const out: Array<{ device: 'cpu' | 'gpu'; vs: PeerName }> = [];
  const add = (device: 'cpu' | 'gpu', vs: PeerName) => {
    if (!out.some((c) => c.device === device && c.vs === vs)) out.push({ device, vs });
  };
  for (const vs of PEERS) {
    const device = vs === 'torch' ? 'gpu' : 'cpu';
    const mine = device === 'gpu' ? 'gpu' : 'lapis';
    if (cases.some((c) => c.ms[mine] !== undefined && c.ms[vs] !== undefined)) add(device, vs);
  }
  // (a peak target has the "of peak" column instead)
  for (const c of cases) for (const t of c.targets) if (t.vs !== 'peak') add(t.device, t.vs);
  return out;
}

function ratioOf(c: CaseResult, device: 'cpu' | 'gpu', vs: PeerName): number | null {
  const mine = c.ms[device === 'gpu' ? 'gpu' : 'lapis'];
  const peer = c.ms[vs];
  return mine !== undefined && peer !== undefined && peer > 0 ? mine / peer : null;
}

function fmtTargets(c: CaseResult): string {
  return c.targets
    .map((t) => {
      const verdict = t.met === null ? 'n/a' : t.met ? 'PASS' : 'MISS';
      if (t.perCallMs) return `${verdict} ≤ ${t.perCallMs.max} ms per call`;
      if (t.vs === 'peak') return `${verdict} ≥ ${fmtPercent(t.minFraction)} of peak`;
      const who = t.device === 'gpu' && t.vs !== 'torch' ? `gpu/${t.vs}` : t.device === 'cpu' && t.vs === 'torch' ? `cpu/${t.vs}` : t.vs;
      return `${verdict} ${who} ≤ ${fmtLimit(t.maxRatio)}`;
    })
    .join('; ');
}

/** Columns that hold at least one time. */
function timeColumns(cases: readonly CaseResult[]): ColumnName[] {
  return COLUMNS.filter((col) => cases.some((c) => c.ms[col] !== undefined));
}

const COLUMN_TITLE: Record<ColumnName, string> = {
  lapis: 'lapis cpu',
  gpu: 'lapis gpu',
  numpy: 'numpy',
  mathjs: 'mathjs',
  'ml-matrix': 'ml-matrix',
  torch: 'torch',
};

/** An accuracy figure: three significant digits, exponent form outside [0.01, 1e4). */
export function fmtMetric(x: number | undefined): string {
  if (x === undefined) return '—';
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a < 0.01 || a >= 1e4) return x.toExponential(1);
  return String(Number(x.toPrecision(3)));
}

/** The metric titles of a set of cases, in first-seen order. */
function metricColumns(cases: readonly CaseResult[]): string[] {
  const out: string[] = [];
  for (const c of cases) for (const k of Object.keys(c.metrics ?? {})) if (!out.includes(k)) out.push(k);
  return out;
}

/** Header and rows of the result table, as strings (shared by the console and markdown forms). */
export function tableRows(cases: readonly CaseResult[], runThreads?: number | null): { header: string[]; rows: string[][] } {
  const cols = timeColumns(cases);
  // A threads column only when some case runs on other threads than the run's.
  const threaded = cases.some((c) => c.threads !== undefined && c.threads !== runThreads);
  const metrics = metricColumns(cases);
  const ratios = ratioColumns(cases);
  const hasFlops = cases.some((c) => c.flops);
  const cpuRate = hasFlops && cols.includes('lapis');
  const gpuRate = hasFlops && cols.includes('gpu');
  const ofPeak = cases.some((c) => c.peak);
  const header = [
    'case',
    ...(threaded ? ['threads'] : []),
    ...cols.map((c) => COLUMN_TITLE[c]),
    ...(cpuRate ? ['cpu rate'] : []),
    ...(ofPeak ? ['of peak'] : []),
    ...(gpuRate ? ['gpu rate'] : []),
    ...ratios.map((r) => `${r.device === 'gpu' ? 'gpu' : 'cpu'}÷${r.vs}`),
    ...metrics,
    'targets',
  ];
  const rows = cases.map((c) => [
    c.name,
    ...(threaded ? [String(c.threads ?? runThreads ?? '?')] : []),
    ...cols.map((col) => (c.ms[col] !== undefined ? fmtTime(c.ms[col]) : c.notes?.[col] ? 'err' : '—')),
    ...(cpuRate ? [fmtGflops(c.flops, c.ms.lapis)] : []),
    ...(ofPeak ? [c.peak ? fmtPercent(c.peak.fraction) : ''] : []),
    ...(gpuRate ? [fmtGflops(c.flops, c.ms.gpu)] : []),
    ...ratios.map((r) => fmtRatio(ratioOf(c, r.device, r.vs))),
    ...metrics.map((k) => fmtMetric(c.metrics?.[k])),
    fmtTargets(c),
  ]);
  return { header, rows };
}

/** A plain-text table for the console. */
export function formatTable(cases: readonly CaseResult[], runThreads?: number | null): string {
  const { header, rows } = tableRows(cases, runThreads);
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]) => r.map((cell, i) => cell + ' '.repeat(widths[i] - [...cell].length)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, '\\|');
}

/** A markdown table of the same content. */
export function markdownTable(cases: readonly CaseResult[], runThreads?: number | null): string {
  const { header, rows } = tableRows(cases, runThreads);
  const md = (r: string[]) => `| ${r.map(mdEscape).join(' | ')} |`;
  const align = header.map((_, i) => (i === 0 || i === header.length - 1 ? ' --- ' : ' ---: '));
  return [md(header), `|${align.join('|')}|`, ...rows.map(md)].join('\n');
}

const THREADS_SUFFIX = /\s*\(t=(\d+)\)$/;

export interface ScalingGroup {
  op: string;
  /** By thread count, ascending. */
  rows: Array<{ threads: number; c: CaseResult }>;
}

/**
 * The cases named `<op> (t=N)`, grouped by op (in first-seen order) with their thread
 * counts (the case's `threads`, else N); only ops measured on two or more counts.
 */
export function scalingGroups(cases: readonly CaseResult[]): ScalingGroup[] {
  const groups = new Map<string, ScalingGroup>();
  for (const c of cases) {
    const m = THREADS_SUFFIX.exec(c.name);
    if (!m) continue;
    const op = c.name.slice(0, m.index);
    const g = groups.get(op) ?? { op, rows: [] };
    g.rows.push({ threads: c.threads ?? Number(m[1]), c });
    groups.set(op, g);
  }
  const out = [...groups.values()].filter((g) => new Set(g.rows.map((r) => r.threads)).size >= 2);
  for (const g of out) g.rows.sort((a, b) => a.threads - b.threads);
  return out;
}

function fmtSpeedup(base: number | undefined, t: number | undefined): string {
  return base !== undefined && t !== undefined && t > 0 && Number.isFinite(base / t) ? `${(base / t).toFixed(1)}×` : '—';
}

/**
 * The scaling curves of scalingGroups as markdown: per op, threads × lapis time, numpy
 * time, their ratio and each side's speed-up over its fewest-threads time; '' if none.
 */
export function scalingTables(cases: readonly CaseResult[]): string {
  const groups = scalingGroups(cases);
  if (!groups.length) return '';
  const out = ['Scaling with the thread count (lapis and numpy on the same number of threads; speed-up over the fewest threads measured):'];
  for (const g of groups) {
    const first = g.rows[0].c.ms;
    out.push('', `**${mdEscape(g.op)}**`, '', '| threads | lapis cpu | numpy | cpu÷numpy | lapis speed-up | numpy speed-up |', '| ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const { threads, c } of g.rows) {
      const ratio = c.ms.lapis !== undefined && c.ms.numpy !== undefined && c.ms.numpy > 0 ? c.ms.lapis / c.ms.numpy : null;
      out.push(`| ${threads} | ${fmtTime(c.ms.lapis)} | ${fmtTime(c.ms.numpy)} | ${fmtRatio(ratio)} | ${fmtSpeedup(first.lapis, c.ms.lapis)} | ${fmtSpeedup(first.numpy, c.ms.numpy)} |`);
    }
  }
  return out.join('\n');
}

export function targetSummary(results: readonly SuiteResult[]): { met: number; missed: number; unmeasured: number } {
  let met = 0, missed = 0, unmeasured = 0;
  for (const r of results)
    for (const c of r.cases)
      for (const t of c.targets) {
        if (t.met === null) unmeasured++;
        else if (t.met) met++;
        else missed++;
      }
  return { met, missed, unmeasured };
}

/** "FMA peak float32: 103 GFLOP/s on 1 thread, 206 on 2; float64: …" (dtypes and thread counts in order). */
export function fmtPeaks(peaks: readonly PeakFigure[] | undefined): string {
  if (!peaks?.length) return '';
  const parts: string[] = [];
  for (const dtype of ['float32', 'float64'] as const) {
    const mine = peaks.filter((p) => p.dtype === dtype).sort((a, b) => a.threads - b.threads);
    if (!mine.length) continue;
    const each = mine.map((p, i) => `${p.gflops.toFixed(p.gflops >= 100 ? 0 : 1)}${i === 0 ? ' GFLOP/s' : ''} on ${p.threads}${i === 0 ? ` thread${p.threads === 1 ? '' : 's'}` : ''}`);
    parts.push(`${dtype}: ${each.join(', ')}`);
  }
  return `FMA peak ${parts.join('; ')}`;
}

function machineLine(m: MachineInfo): string {
  const parts = [
    `CPU: ${m.cpu} (${m.cores} cores; lapis threads ${m.threads ?? '?'}${m.gemmKernel ? `, ${m.gemmKernel} kernels` : ''})`,
    ...(m.peak?.length ? [fmtPeaks(m.peak)] : []),
    `GPU: ${m.gpu ?? `none${m.gpuNote ? ` (${m.gpuNote})` : ''}`}`,
    `Node ${m.node}, ${m.platform}-${m.arch}`,
  ];
  const py = m.python ?? {};
  const pyParts = Object.entries(py)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k} ${v}`);
  if (pyParts.length) parts.push(pyParts.join(', '));
  if (m.peersAbsent?.length) parts.push(`not measured: ${m.peersAbsent.join('; ')}`);
  return parts.join(' · ');
}

/** Results ordered by suite, then host. */
export function sortResults(results: readonly SuiteResult[]): SuiteResult[] {
  return [...results].sort((a, b) => a.suite.localeCompare(b.suite) || a.host.localeCompare(b.host));
}

/** docs/benchmarks.md: one section per (suite, machine), from every stored result. */
export function renderMarkdown(results: readonly SuiteResult[]): string {
  const sorted = sortResults(results);
  const s = targetSummary(sorted);
  const out: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run bench` from bench/results/*.json; edits here are overwritten. -->',
    '',
    'Each figure is the median time per call, measured by `npm run bench -- <suite>` with lapis and its peers',
    'in the same run on the same machine (numpy/scipy and torch in one Python process per suite, with',
    "OpenBLAS limited to lapis's thread count; a case with its own thread count runs both sides on it and",
    'shows it in a threads column). Ratios are lapis time ÷ peer time: below 1 lapis is faster;',
    '“1/N” means lapis is N times faster. A target “numpy ≤ 1.3” passes when the ratio is at most 1.3.',
    'Each side warms up first; a lapis call under 50 ms keeps warming for 0.3 s, since V8 frees results',
    "only when it collects them and a process's first fast calls write fresh pages (numpy frees each",
    'result at once). With `--rounds=N` lapis and numpy alternate case by case, N rounds each, and each',
    "side's best round stands (a machine whose speed drifts over minutes then slows both alike); such a",
    "file's cases keep every round's figure, and their peak is the best probe taken between the rounds.",
    'Each suite runs in a Node process of its own, so what one suite loads is not carried into the next.',
    'The JavaScript peers (mathjs, ml-matrix) run in the same process as lapis. Each is imported by the',
    "first case that times it, and those cases run after the rest of their suite: no other case carries",
    "mathjs's ~32 MB of JavaScript heap, which makes every collection of lapis's fresh results (and the",
    'marking threads beside its own) cost more (docs/decisions.md, "V8\'s own collector on two cores").',
    '',
    'Run: `npm run bench -- <suite…>` (all suites if none; `--list` names them, `--filter=text[|text…]` picks the cases naming any of them,',
    '`--rounds=N` interleaves the numpy peer, `--no-gpu`/`--no-python`/`--no-torch` leave columns out,',
    '`--docs` only rebuilds this page).',
    '`LAPIS_BENCH_HOST` names the machine in the file names, `LAPIS_NUM_THREADS` sets the threads of',
    'both lapis and OpenBLAS, `LAPIS_BENCH_PYTHON`/`LAPIS_BENCH_TORCH_PYTHON` pick the interpreters, and',
    '`LAPIS_BENCH_QUICK=1` is a smoke run whose files go to a temporary directory.',
    '',
    `Targets: ${s.met} met, ${s.missed} missed${s.unmeasured ? `, ${s.unmeasured} not measured (peer or device absent)` : ''}.`,
    '',
    '![ratios lapis ÷ peer, log scale](benchmarks.svg)',
    '',
  ];
  for (const r of sorted) {
    out.push(`## ${r.suite} — ${r.host}`, '');
    out.push(
      `Measured ${r.date.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}${r.quick ? ' (quick smoke run: few repetitions, not for claims)' : ''}` +
        `${r.incomplete ? ' (incomplete: the run stopped before its last case; cases without times were not reached)' : ''}.`,
      '',
    );
    out.push(machineLine(r.machine), '');
    out.push(markdownTable(r.cases, r.machine.threads), '');
    const scaling = scalingTables(r.cases);
    if (scaling) out.push(scaling, '');
    const errs = r.cases.flatMap((c) => Object.entries(c.notes ?? {}).map(([col, why]) => `- ${c.name}, ${col}: ${why}`));
    if (errs.length) out.push('Notes:', '', ...errs, '');
    if (r.about) out.push(r.about, '');
  }
  return out.join('\n').trimEnd() + '\n';
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A horizontal bar chart of every target's ratio (lapis ÷ peer) on a log scale, with the
 * target drawn as a tick: green bars met their target, red ones missed it.
 */
export function renderSvg(results: readonly SuiteResult[]): string {
  const bars: Array<{ label: string; ratio: number; max: number; met: boolean }> = [];
  for (const r of sortResults(results))
    for (const c of r.cases)
      for (const t of c.targets)
        if (t.ratio !== null && t.ratio > 0)
          bars.push({
            label: t.perCallMs
              ? `${r.suite}@${r.host}: ${c.name} (${t.device}) vs ${t.perCallMs.max} ms per call`
              : t.vs === 'peak'
                ? `${r.suite}@${r.host}: ${c.name} (${t.device}) vs ${fmtPercent(t.minFraction)} of peak`
                : `${r.suite}@${r.host}: ${c.name} (${t.device}) vs ${t.vs}`,
            ratio: t.ratio,
            max: t.maxRatio,
            met: !!t.met,
          });
  const lo = -4, hi = 1; // decades shown: 1e-4 … 1e1
  // Labels are right-aligned against the plot: size their column from the longest one
  // (about 6.3 px per character at 11 px sans-serif).
  const longest = Math.max(0, ...bars.map((b) => [...b.label].length));
  const labelW = Math.min(900, Math.max(200, Math.ceil(longest * 6.3) + 10));
  const plotW = 420, rowH = 18, top = 40, left = labelW + 10;
  const height = top + Math.max(1, bars.length) * rowH + 30;
  const width = left + plotW + 70;
  const x = (v: number) => left + ((Math.min(hi, Math.max(lo, Math.log10(v))) - lo) / (hi - lo)) * plotW;
  const o: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="16" font-size="13" font-weight="bold">lapis time ÷ peer time (log scale; left of 1 = lapis faster; tick = target)</text>`,
  ];
  for (let d = lo; d <= hi; d++) {
    const xx = x(10 ** d);
    o.push(`<line x1="${xx}" y1="${top - 6}" x2="${xx}" y2="${height - 24}" stroke="${d === 0 ? '#333' : '#ddd'}"/>`);
    o.push(`<text x="${xx}" y="${height - 10}" text-anchor="middle">${d >= 0 ? 10 ** d : `1/${10 ** -d}`}</text>`);
  }
  if (!bars.length) o.push(`<text x="${left}" y="${top + 12}">no targets measured yet</text>`);
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    const x0 = x(10 ** lo), x1 = x(b.ratio);
    o.push(`<text x="${labelW}" y="${y + 12}" text-anchor="end">${xmlEscape(b.label)}</text>`);
    o.push(`<rect x="${x0}" y="${y + 3}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${rowH - 6}" fill="${b.met ? '#3a9d5d' : '#d0453b'}"/>`);
    const xt = x(b.max);
    o.push(`<line x1="${xt}" y1="${y + 1}" x2="${xt}" y2="${y + rowH - 1}" stroke="black" stroke-width="2"/>`);
    o.push(`<text x="${Math.max(x1, xt) + 4}" y="${y + 12}">${xmlEscape(fmtRatio(b.ratio))}</text>`);
  });
  o.push('</svg>');
  return o.join('\n') + '\n';
}
