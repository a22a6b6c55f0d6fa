// `npm run bench -- [suite…] [--quick] [--filter=text[|text…]] [--rounds=N] [--no-python] [--no-torch] [--no-gpu] [--list] [--docs]`
//
// Loads every compiled suite in bench/suites/, runs the named ones (all if none), prints a
// table per suite, writes bench/results/<suite>-<host>.json and regenerates
// docs/benchmarks.md and docs/benchmarks.svg from every stored result.
// LAPIS_BENCH_QUICK=1 (or --quick) is a smoke run: few repetitions, and its files go to a
// temporary directory (LAPIS_BENCH_OUT overrides where results and docs are written).
// --docs only regenerates the docs from bench/results/*.json.
// --rounds=N (N ≥ 2) interleaves lapis and numpy case by case, N rounds each, and keeps each
// side's best round: a machine whose speed drifts over minutes then slows both alike.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as lapis from '../src/index.js';
import {
  DEFAULT_TIMING,
  QUICK_TIMING,
  caseTiming,
  evaluateTargets,
  formatTable,
  measureAsync,
  measureSync,
  peakFraction,
  registeredSuites,
  renderMarkdown,
  renderSvg,
  runOrder,
  setGpuOff,
  suiteAbout,
  type BenchCase,
  type CaseResult,
  type ColumnName,
  type JsPeers,
  type MachineInfo,
  type PeakDType,
  type PeakFigure,
  type SuiteResult,
  type TimingOptions,
} from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));

function findRoot(): string {
  let dir = here;
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bench'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

interface Args {
  suites: string[];
  quick: boolean;
  filter?: string;
  python: boolean;
  torch: boolean;
  gpu: boolean;
  list: boolean;
  docsOnly: boolean;
  /** ≥ 2: lapis and numpy interleaved case by case, this many rounds each (PeerServer). */
  rounds: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    suites: [],
    quick: process.env.LAPIS_BENCH_QUICK === '1',
    python: true,
    torch: true,
    gpu: true,
    list: false,
    docsOnly: false,
    rounds: 1,
  };
  for (const s of argv) {
    if (s === '--quick') a.quick = true;
    else if (s === '--no-python') a.python = false;
    else if (s === '--no-torch') a.torch = false;
    else if (s === '--no-gpu') a.gpu = false;
    else if (s === '--list') a.list = true;
    else if (s === '--docs') a.docsOnly = true;
    else if (s.startsWith('--filter=')) a.filter = s.slice(9);
    else if (s.startsWith('--rounds=')) {
      a.rounds = Number(s.slice(9));
      if (!Number.isInteger(a.rounds) || a.rounds < 1 || a.rounds > 20) throw new Error(`bench: --rounds wants an integer 1…20, got ${s.slice(9)}`);
    }
    else if (s.startsWith('-')) throw new Error(`bench: unknown option ${s}`);
    else a.suites.push(s);
  }
  return a;
}

/** Imports every compiled suite beside this file, so a new suite needs no registration edit. */
async function loadSuites(): Promise<string[]> {
  const dir = join(here, 'suites');
  const failed: string[] = [];
  if (!existsSync(dir)) return failed;
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.js')) continue;
    try {
      await import(pathToFileURL(join(dir, f)).href);
    } catch (e) {
      failed.push(`${f}: ${(e as Error).message}`);
    }
  }
  return failed;
}

// --------------------------------------------------------------------------------------
// Peers in Python

function which(cmd: string): boolean {
  return spawnSync(cmd, ['-c', 'pass'], { stdio: 'ignore' }).status === 0;
}

function numpyPython(): string | null {
  // the python3 on PATH first: the newest numpy a user would install (issue 17), the system one after
  const cands = [process.env.LAPIS_BENCH_PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean) as string[];
  for (const c of cands) if (spawnSync(c, ['-c', 'import numpy'], { stdio: 'ignore' }).status === 0) return c;
  return null;
}

function torchPython(): string | null {
  const cands = [process.env.LAPIS_BENCH_TORCH_PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean) as string[];
  for (const c of cands) {
    if (!which(c)) continue;
    const r = spawnSync(c, ['-c', 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 3)'], { stdio: 'ignore' });
    if (r.status === 0) return c;
  }
  return null;
}

interface PyResult {
  info: Record<string, string | null>;
  results: Array<{ name: string; seconds?: number; error?: string }>;
}

type PyCase = { name: string; setup: string; stmt: string; timing?: Partial<TimingOptions> };

function peerEnv(threads: number | null): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // Forcing a core type or an L2 size makes OpenBLAS pick older, slower kernels: the peer gets its own choice.
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  if (threads) {
    // numpy/scipy get the same number of threads as lapis.
    for (const v of ['OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS']) env[v] = String(threads);
  }
  return env;
}

function runPython(py: string, kind: 'numpy' | 'torch', cases: PyCase[], timing: TimingOptions, threads: number | null): PyResult {
  const r = spawnSync(py, [join(findRoot(), 'bench', 'python_peer.py')], {
    input: JSON.stringify({ kind, timing, cases }),
    env: peerEnv(threads),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${py} bench/python_peer.py (${kind}) exited with ${r.status}`);
  return JSON.parse(r.stdout) as PyResult;
}

/** A numpy peer kept running (python_peer.py --serve) for interleaved rounds: one case per request. */
class PeerServer {
  private proc: ChildProcessByStdio<Writable, Readable, null>;
  private buf = '';
  private waiting: Array<(line: string) => void> = [];
  private failed: Error | null = null;
  info: Record<string, string | null> = {};

  private constructor(py: string, threads: number | null) {
    this.proc = spawn(py, [join(findRoot(), 'bench', 'python_peer.py'), '--serve'], { env: peerEnv(threads), stdio: ['pipe', 'pipe', 'inherit'] });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d: string) => {
      this.buf += d;
      for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        this.waiting.shift()?.(line);
      }
    });
    const fail = (why: string) => {
      this.failed = new Error(`${py} bench/python_peer.py --serve ${why}`);
      for (const w of this.waiting.splice(0)) w('');
    };
    this.proc.on('exit', (code) => fail(`exited with ${code}`));
    this.proc.on('error', (e) => fail(e.message));
  }

  static async start(py: string, threads: number | null, timing: TimingOptions): Promise<PeerServer> {
    const s = new PeerServer(py, threads);
    s.info = ((await s.ask({ kind: 'numpy', timing })) as { info: Record<string, string | null> }).info;
    return s;
  }

  private ask(req: unknown): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting.push((line) => (this.failed ? reject(this.failed) : resolve(JSON.parse(line))));
      this.proc.stdin.write(JSON.stringify(req) + '\n');
    });
  }

  /** One round of a case: its median time in seconds (the setup runs on the first round only). */
  async time(c: PyCase): Promise<number> {
    const r = (await this.ask(c)) as { seconds?: number; error?: string };
    if (r.seconds === undefined) throw new Error(r.error ?? 'failed');
    return r.seconds;
  }

  async forget(name: string): Promise<void> {
    await this.ask({ forget: name });
  }

  close(): void {
    this.proc.stdin.end();
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --------------------------------------------------------------------------------------
// lapis on the GPU, if the runtime is there

interface GpuState {
  ok: boolean;
  desc: string | null;
  note?: string;
}

function describeAdapter(v: unknown): string | null {
  if (!v || typeof v !== 'object') return typeof v === 'string' ? v : null;
  const o = v as Record<string, unknown>;
  const inner = (o.adapterInfo ?? o.info ?? o) as Record<string, unknown>;
  const parts = ['vendor', 'architecture', 'device', 'description', 'backend', 'adapterType']
    .map((k) => inner[k])
    .filter((x) => typeof x === 'string' && x.length > 0) as string[];
  if (!parts.length) return null;
  return [...new Set(parts)].join(' / ') + (inner.isSoftware === true ? ' (software)' : '');
}

async function initGpu(): Promise<GpuState> {
  const g = (lapis as unknown as { gpu?: Record<string, unknown> }).gpu;
  if (!g || typeof g.init !== 'function') return { ok: false, desc: null, note: 'this build has no lapis.gpu runtime' };
  try {
    const r = await (g.init as () => Promise<unknown>)();
    let desc = describeAdapter(r);
    for (const k of ['adapterInfo', 'info', 'describe']) {
      if (desc) break;
      const f = g[k];
      if (typeof f === 'function') desc = describeAdapter(await (f as () => unknown)());
      else if (f) desc = describeAdapter(f);
    }
    return { ok: true, desc: desc ?? 'WebGPU adapter' };
  } catch (e) {
    return { ok: false, desc: null, note: (e as Error).message.split('\n')[0] };
  }
}

// --------------------------------------------------------------------------------------

function safe<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}

// The FMA peak per (dtype, threads), measured once per run: the best of two probes (other
// processes on a shared machine only ever lower it). Null where the addon has no probe.
const peaks = new Map<string, PeakFigure | null>();
function peakOf(dtype: PeakDType, threads: number): PeakFigure | null {
  const key = `${dtype}:${threads}`;
  if (!peaks.has(key)) {
    const g = safe(() => Math.max(lapis.cpuPeakFlops(dtype, threads), lapis.cpuPeakFlops(dtype, threads)));
    peaks.set(key, g !== null && g > 0 ? { dtype, threads, gflops: g } : null);
  }
  return peaks.get(key)!;
}

async function runSuite(
  suite: string,
  cases: BenchCase[],
  ctx: { timing: TimingOptions; quick: boolean; host: string; py: string | null; torchPy: string | null; gpu: GpuState | null; threads: number | null; rounds: number },
  /** Called with the results so far (incomplete) after each case: a run stopped by a time limit keeps them. */
  progress?: (partial: SuiteResult) => void,
): Promise<SuiteResult> {
  const results: CaseResult[] = cases.map((c) => ({
    name: c.name, flops: c.flops, ms: {}, notes: {}, targets: [], ...(c.threads !== undefined ? { threads: c.threads } : {}),
  }));
  // Failures are printed after the case's progress line, not inside it.
  const pending: string[] = [];
  const note = (i: number, col: ColumnName, why: string) => {
    results[i].notes![col] = why;
    pending.push(`    ${col}: ${why}`);
  };
  const flush = () => {
    for (const p of pending.splice(0)) console.error(p);
  };
  let pyInfo: Record<string, string | null> = {};
  const absent: string[] = [];
  // The machine's peaks for its file (1 and the run's threads, and each peak case's), before any case runs.
  const runThreads = ctx.threads ?? 1;
  const peakThreads = [...new Set([1, runThreads, ...cases.filter((c) => c.peak).map((c) => c.threads ?? runThreads)])].sort((a, b) => a - b);
  const machinePeaks = peakThreads.flatMap((t) => (['float32', 'float64'] as const).map((d) => peakOf(d, t))).filter((p): p is PeakFigure => p !== null);

  // --rounds: numpy is timed beside lapis in the case loop, by one kept process per thread count.
  const interleave = ctx.rounds > 1 && ctx.py !== null;
  const servers = new Map<number | null, Promise<PeerServer>>();
  const serverFor = (threads: number | null) => {
    if (!servers.has(threads)) servers.set(threads, PeerServer.start(ctx.py!, threads, ctx.timing));
    return servers.get(threads)!;
  };
  for (const kind of ['numpy', 'torch'] as const) {
    const py = kind === 'numpy' ? ctx.py : ctx.torchPy;
    const idx = cases.map((c, i) => (c[kind === 'numpy' ? 'python' : 'torch'] ? i : -1)).filter((i) => i >= 0);
    if (!idx.length) continue;
    if (!py) {
      // Said once on the machine line, not on every case.
      absent.push(kind === 'numpy' ? 'numpy: no python3 with numpy' : 'torch: no python3 with torch and CUDA');
      continue;
    }
    if (kind === 'numpy' && interleave) continue;
    // One process per thread count: OpenBLAS reads its thread count from the environment at load.
    const groups = new Map<number | null, number[]>();
    for (const i of idx) {
      const t = cases[i].threads ?? ctx.threads;
      groups.set(t, [...(groups.get(t) ?? []), i]);
    }
    for (const [threads, group] of groups) {
      const on = threads !== ctx.threads ? ` on ${threads} thread(s)` : '';
      process.stderr.write(`  ${kind}: ${group.length} case(s)${on} in ${py}… `);
      try {
        const r = runPython(py, kind, group.map((i) => ({ name: cases[i].name, ...(kind === 'numpy' ? cases[i].python! : cases[i].torch!), timing: cases[i].timing })), ctx.timing, threads);
        if (kind === 'numpy' && !pyInfo.numpy) {
          process.stderr.write(`(numpy ${r.info.numpy ?? '?'}, scipy ${r.info.scipy ?? '?'}, BLAS ${r.info.openblas ?? '?'}) `);
        }
        pyInfo = { ...pyInfo, ...r.info };
        r.results.forEach((x, j) => {
          if (x.seconds !== undefined) results[group[j]].ms[kind] = x.seconds * 1e3;
          else note(group[j], kind, x.error ?? 'failed');
        });
        process.stderr.write('done\n');
      } catch (e) {
        process.stderr.write('failed\n');
        for (const i of group) note(i, kind, (e as Error).message);
      }
      flush();
    }
  }

  const snapshot = (incomplete: boolean): SuiteResult => {
    const cpus = os.cpus();
    const machine: MachineInfo = {
      host: ctx.host,
      cpu: cpus[0]?.model?.trim() ?? 'unknown',
      cores: os.availableParallelism?.() ?? cpus.length,
      threads: ctx.threads,
      gemmKernel: safe(() => lapis.gemmKernel()),
      platform: process.platform,
      arch: process.arch,
      node: process.version,
      gpu: ctx.gpu?.ok ? ctx.gpu.desc : null,
      ...(ctx.gpu && !ctx.gpu.ok && ctx.gpu.note ? { gpuNote: ctx.gpu.note } : {}),
      python: pyInfo,
      ...(absent.length ? { peersAbsent: absent } : {}),
      ...(machinePeaks.length ? { peak: machinePeaks } : {}),
    };
    const about = suiteAbout(suite);
    return {
      suite, host: ctx.host, date: new Date().toISOString(), quick: ctx.quick, machine, cases: results,
      ...(about ? { about } : {}), ...(incomplete ? { incomplete } : {}),
    };
  };

  const order = runOrder(cases);
  for (let step = 0; step < order.length; step++) {
    const i = order[step];
    const c = cases[i];
    const timing = caseTiming(ctx.timing, c.timing);
    const roundPeaks: number[] = []; // the peak probes between this case's rounds
    process.stderr.write(`  ${c.name}…`);
    // The case's own thread count for all of its lapis work, the run's again after it.
    const restore = c.threads !== undefined && c.threads !== ctx.threads ? ctx.threads : null;
    if (restore !== null) lapis.setNumThreads(c.threads!);
    try {
      if (c.setup) {
        try {
          c.setup();
        } catch (e) {
          note(i, 'lapis', `setup: ${(e as Error).message.split('\n')[0]}`);
        }
        (globalThis as { gc?: () => void }).gc?.();
      }
      if (interleave && c.python) {
        const server = await serverFor(c.threads ?? ctx.threads);
        if (!pyInfo.numpy) pyInfo = { ...pyInfo, ...server.info };
        const rounds: { lapis: number[]; numpy: number[] } = { lapis: [], numpy: [] };
        const pyCase = { name: c.name, ...c.python, timing: c.timing };
        try {
          for (let r = 0; r < ctx.rounds; r++) {
            if (c.lapis) {
              rounds.lapis.push(measureSync(c.lapis, timing).seconds * 1e3);
              (globalThis as { gc?: () => void }).gc?.();
              // The peak of this minute, beside the rate it is read against.
              if (c.peak) roundPeaks.push(safe(() => lapis.cpuPeakFlops(c.peak!, c.threads ?? runThreads)) ?? 0);
            }
            rounds.numpy.push((await server.time(pyCase)) * 1e3);
            // OpenBLAS's threads spin for a while after a call; let them sleep before lapis runs.
            await pause(150);
          }
          await server.forget(c.name);
        } catch (e) {
          note(i, rounds.numpy.length < rounds.lapis.length ? 'numpy' : 'lapis', (e as Error).message.split('\n')[0]);
        }
        if (rounds.lapis.length) results[i].ms.lapis = Math.min(...rounds.lapis);
        if (rounds.numpy.length) results[i].ms.numpy = Math.min(...rounds.numpy);
        results[i].rounds = rounds;
      }
      let peers: JsPeers = {};
      if (c.peers) {
        try {
          peers = await c.peers();
        } catch (e) {
          note(i, 'mathjs', `peers: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      const sync: Array<[ColumnName, (() => void) | undefined]> = [
        ...(interleave && c.python ? [] : [['lapis', c.lapis] as [ColumnName, (() => void) | undefined]]),
        ['mathjs', peers.mathjs],
        ['ml-matrix', peers.mlMatrix],
      ];
      for (const [col, fn] of sync) {
        if (!fn) continue;
        try {
          results[i].ms[col] = measureSync(fn, timing).seconds * 1e3;
        } catch (e) {
          note(i, col, (e as Error).message.split('\n')[0]);
        }
        (globalThis as { gc?: () => void }).gc?.();
      }
      if (c.lapisCheck && results[i].ms.lapis !== undefined) {
        try {
          const metrics = c.lapisCheck(results[i].ms.lapis!, timing);
          if (metrics && Object.keys(metrics).length) results[i].metrics = { ...results[i].metrics, ...metrics };
        } catch (e) {
          note(i, 'lapis', (e as Error).message.split('\n')[0]);
        }
        (globalThis as { gc?: () => void }).gc?.();
      }
      if (c.gpu) {
        // Without an adapter the machine line says why; no per-case note.
        if (ctx.gpu?.ok) {
          try {
            const ms = (await measureAsync(c.gpu, timing)).seconds * 1e3;
            if (c.gpuCheck) {
              const metrics = await c.gpuCheck(ms, timing);
              if (metrics && Object.keys(metrics).length) results[i].metrics = { ...results[i].metrics, ...metrics };
              // Reading back a gigabyte leaves the driver releasing its staging memory for a
              // while (the next case's first ~0.3 s ran 2–4× slow on the H200): let it finish.
              await new Promise((r) => setTimeout(r, 2000));
            }
            results[i].ms.gpu = ms;
          } catch (e) {
            note(i, 'gpu', (e as Error).message.split('\n')[0]);
          }
        }
      }
    } finally {
      if (restore !== null) lapis.setNumThreads(restore);
    }
    let ofPeak: number | null = null;
    if (c.peak) {
      const best = Math.max(0, ...roundPeaks);
      const p = best > 0 ? { dtype: c.peak, threads: c.threads ?? runThreads, gflops: best } : peakOf(c.peak, c.threads ?? runThreads);
      if (p) {
        ofPeak = peakFraction(c.flops, results[i].ms.lapis, p.gflops);
        results[i].peak = { ...p, fraction: ofPeak };
      }
    }
    results[i].targets = evaluateTargets(c.targets, results[i].ms, ofPeak);
    process.stderr.write(' done\n');
    flush();
    if (progress && step < order.length - 1) progress(snapshot(true));
  }
  for (const s of servers.values()) (await s.catch(() => null))?.close();
  for (const r of results) if (r.notes && !Object.keys(r.notes).length) delete r.notes;
  return snapshot(false);
}

function readResults(dir: string): SuiteResult[] {
  if (!existsSync(dir)) return [];
  const out: SuiteResult[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.json')) continue;
    try {
      out.push(JSON.parse(readFileSync(join(dir, f), 'utf8')) as SuiteResult);
    } catch (e) {
      console.error(`bench: skipping ${f}: ${(e as Error).message}`);
    }
  }
  return out;
}

function writeDocs(outRoot: string): void {
  const stored = readResults(join(outRoot, 'bench', 'results'));
  const docs = join(outRoot, 'docs');
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, 'benchmarks.md'), renderMarkdown(stored));
  writeFileSync(join(docs, 'benchmarks.svg'), renderSvg(stored));
  console.error(`wrote ${join(docs, 'benchmarks.md')} and benchmarks.svg (${stored.length} result file(s))`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.docsOnly) {
    // Regenerate docs/benchmarks.{md,svg} from the stored results, running nothing.
    writeDocs(process.env.LAPIS_BENCH_OUT ?? findRoot());
    return;
  }
  const failed = await loadSuites();
  for (const f of failed) console.error(`bench: could not load suite ${f}`);
  const all = registeredSuites();
  if (args.list) {
    console.log([...all.keys()].join('\n'));
    return;
  }
  const names = args.suites.length ? args.suites : [...all.keys()];
  const unknown = names.filter((n) => !all.has(n));
  if (unknown.length) throw new Error(`bench: no suite named ${unknown.join(', ')} (have: ${[...all.keys()].join(', ') || 'none'})`);
  if (!names.length) throw new Error('bench: no suites found in bench/suites/');

  const timing = args.quick ? QUICK_TIMING : DEFAULT_TIMING;
  // Suites read it to keep a small subset of their cases in a smoke run.
  if (args.quick) process.env.LAPIS_BENCH_QUICK = '1';
  const host = (process.env.LAPIS_BENCH_HOST || os.hostname()).replace(/[^A-Za-z0-9._-]/g, '_');
  const outRoot = process.env.LAPIS_BENCH_OUT ?? (args.quick ? join(os.tmpdir(), 'lapis-bench-quick') : findRoot());
  if (names.length > 1) {
    // Each suite in a process of its own: what one suite leaves behind (a peer module such as
    // mathjs in the heap, the JIT's and the GPU device's state) would otherwise be carried
    // into the suites after it, and their figures would depend on the order they ran in.
    const options = process.argv.slice(2).filter((s) => s.startsWith('-'));
    for (const n of names) {
      const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1], n, ...options], {
        stdio: 'inherit',
        env: { ...process.env, LAPIS_BENCH_OUT: outRoot, LAPIS_BENCH_DOCS: '0' },
      });
      if (r.status !== 0) {
        console.error(`bench: suite ${n} ended with ${r.status ?? r.signal}`);
        process.exitCode = 1;
      }
    }
    writeDocs(outRoot);
    return;
  }

  const threads = safe(() => lapis.numThreads());
  const py = args.python ? numpyPython() : null;

  console.error(
    `bench: host ${host}, lapis threads ${threads ?? '?'}, python ${py ?? 'none'}` +
      `${args.quick ? ', QUICK (results to ' + outRoot + ')' : ''}`,
  );
  // The GPU and torch are looked for once, when the first suite that needs them runs;
  // each suite's data is made just before it runs and dropped after.
  let gpu: GpuState | null | undefined = args.gpu ? undefined : { ok: false, desc: null, note: '--no-gpu' };
  setGpuOff(!args.gpu);
  let torchPy: string | null | undefined = args.torch ? undefined : null;

  const resultsDir = join(outRoot, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  for (const n of names) {
    console.error(`suite ${n}:`);
    let cases = await all.get(n)!();
    if (args.filter) {
      const any = args.filter.split('|');
      cases = cases.filter((c) => any.some((f) => c.name.includes(f)));
    }
    if (gpu === undefined && cases.some((c) => c.gpu)) {
      gpu = await initGpu();
      console.error(`  gpu: ${gpu.ok ? gpu.desc : `none (${gpu.note})`}`);
    }
    if (torchPy === undefined && cases.some((c) => c.torch)) {
      torchPy = torchPython();
      console.error(`  torch: ${torchPy ?? 'none (no python3 with torch and CUDA)'}`);
    }
    const file = join(resultsDir, `${n}-${host}.json`);
    const save = (r: SuiteResult) => writeFileSync(file, JSON.stringify(r, null, 2) + '\n');
    const r = await runSuite(n, cases, { timing, quick: args.quick, host, py, torchPy: torchPy ?? null, gpu: gpu ?? null, threads, rounds: args.rounds }, save);
    cases = [];
    (globalThis as { gc?: () => void }).gc?.();
    console.log(`\n${n} on ${host}\n${formatTable(r.cases, threads)}\n`);
    save(r);
    console.error(`wrote ${file}`);
  }
  // A suite run as one of several leaves the docs to the run that started it.
  if (process.env.LAPIS_BENCH_DOCS !== '0') writeDocs(outRoot);
  if (failed.length) process.exitCode = 1;
}

main().then(
  () => {
    // The WebGPU device keeps the event loop alive; the run is over.
    process.exit(process.exitCode ?? 0);
  },
  (e) => {
    console.error((e as Error).stack ?? String(e));
    process.exit(1);
  },
);
