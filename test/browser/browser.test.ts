// The browser build in a real browser: builds dist-browser's bundle and a page from it,
// opens the page in headless Chromium (Debian's, through playwright-core) and runs the
// cases of ./cases.ts there — the WebAssembly CPU backend and WebGPU (SwiftShader, or
// Vulkan through lavapipe). Without Chromium or build/wasm/lapis.wasm the suite is skipped
// with the reason, and fails in CI (process.env.CI). LAPIS_BROWSER_REPORT=file.json writes
// the adapter, timings and sizes there; LAPIS_BROWSER_BENCH=<host> writes them as a bench
// result, bench/results/browser-<host>.json, which `npm run bench -- --docs` shows in
// docs/benchmarks.md.
import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES, GPU_CASES, type CaseResult } from './cases.js';
import { BUNDLE, ROOT, WASM, buildBundle, buildPage, close, launch, missingPrerequisite, serve, tempDir, type Launched } from './harness.js';

const missing = missingPrerequisite();
if (missing && process.env.CI) throw new Error(`browser tests: ${missing}`);
if (missing) console.warn(`skipped: browser tests: ${missing}`);

describe.skipIf(missing !== undefined)('browser build in Chromium', () => {
  let launched: Launched;
  let server: { url: string; server: import('node:http').Server };
  const dirs: string[] = [];
  const report: Report = { date: new Date().toISOString(), cases: {} };

  beforeAll(async () => {
    const pages = tempDir('lapis-pages-');
    dirs.push(pages);
    const bundleMs = await buildBundle();
    const suiteMs = await buildPage(join(pages, 'suite'));
    const exampleMs = await buildPage(join(pages, 'example'), join(ROOT, 'examples', 'browser', 'vite.config.ts'));
    const js = readFileSync(join(BUNDLE, 'lapis.js'));
    const wasm = readFileSync(WASM);
    report.bundle = {
      jsBytes: js.length, jsGzipBytes: gzipSync(js, { level: 9 }).length,
      wasmBytes: wasm.length, wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
      buildMs: Math.round(bundleMs), suitePageBuildMs: Math.round(suiteMs), examplePageBuildMs: Math.round(exampleMs),
    };
    server = await serve(pages);
    launched = await launch(`${server.url}suite/`);
    await launched.page.waitForFunction(() => 'lapisSuite' in window, null, { timeout: 60_000 }).catch((e: Error) => {
      throw new Error(`the page did not load lapis: ${e.message}\n${launched.log.join('\n')}`);
    });
    report.chromium = { version: launched.context.browser()?.version() ?? (await launched.page.evaluate(() => navigator.userAgent)), launchMs: Math.round(launched.launchMs) };
    report.adapter = { flags: launched.adapterFlags ?? null, ...launched.adapter };
    console.log(`browser tests: bundle ${JSON.stringify(report.bundle)}; adapter ${JSON.stringify(report.adapter)}`);
  });

  afterAll(async () => {
    if (launched) await close(launched);
    server?.server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    if (process.env.LAPIS_BROWSER_REPORT) writeFileSync(process.env.LAPIS_BROWSER_REPORT, `${JSON.stringify(report, null, 2)}\n`);
    if (process.env.LAPIS_BROWSER_BENCH) {
      const file = join(ROOT, 'bench', 'results', `browser-${process.env.LAPIS_BROWSER_BENCH}.json`);
      writeFileSync(file, `${JSON.stringify(benchResult(report, process.env.LAPIS_BROWSER_BENCH), null, 2)}\n`);
    }
  });

  it('the page implements exactly the cases of cases.ts', async () => {
    expect(await launched.page.evaluate(() => (window as unknown as { lapisSuite: { names: string[] } }).lapisSuite.names)).toEqual(CASES);
  });

  it('the bundle imports no Node module and reads no shader from disk', async () => {
    const js = readFileSync(join(BUNDLE, 'lapis.js'), 'utf8');
    expect(js.match(/["'`]node:[a-z_/]+["'`]/g) ?? []).toEqual([]);
    expect(js.match(/readFileSync|createRequire|process\.dlopen/g) ?? []).toEqual([]);
    // the package's one copy of each .wasm (build/wasm/, which the Node loader reads), none in dist-browser/
    expect(js.match(/new URL\("\.\.\/build\/wasm\/lapis\.wasm",import\.meta\.url\)/g) ?? []).toHaveLength(1);
    expect(js.match(/new URL\("\.\.\/build\/wasm\/lapis-mt\.wasm",import\.meta\.url\)/g) ?? []).toHaveLength(1);
    expect(readdirSync(BUNDLE).filter((f) => f.endsWith('.wasm'))).toEqual([]);
    // the page's bundler found that expression and copied the file along
    expect(readdirSync(join(dirs[0], 'suite', 'assets')).some((f) => /^lapis-(?!mt-).*\.wasm$/.test(f))).toBe(true);
    expect(readdirSync(join(dirs[0], 'suite', 'assets')).some((f) => /^lapis-mt-.*\.wasm$/.test(f))).toBe(true);
  });

  it('WebGPU gives an adapter under one of the flag sets', () => {
    expect(launched.adapterFlags, `no WebGPU adapter; page log:\n${launched.log.join('\n')}`).toBeDefined();
  });

  for (const name of CASES) {
    it(name, async () => {
      if ((GPU_CASES as readonly string[]).includes(name) && !launched.adapterFlags) throw new Error('no WebGPU adapter in Chromium');
      const r = await launched.page.evaluate((n) => (window as unknown as { lapisSuite: { run(n: string): Promise<CaseResult> } }).lapisSuite.run(n), name);
      (report.cases as Record<string, unknown>)[name] = r;
      if (r.info) console.log(`${name}: ${JSON.stringify(r.info)}`);
      expect(r.error, r.error).toBeUndefined();
      expect(r.checks.length).toBeGreaterThan(0);
      for (const c of r.checks) expect(c.value, `${c.what} = ${c.value} (at most ${c.max})`).toBeLessThanOrEqual(c.max);
    });
  }

  it('without lapis.wasm the page still loads: CPU ops throw a DeviceError with the reason, the GPU works', async () => {
    const page = await launched.context.newPage();
    try {
      await page.goto(`${server.url}nowasm/suite/`);
      await page.waitForFunction(() => 'lapisSuite' in window, null, { timeout: 60_000 });
      const r = await page.evaluate(() => (window as unknown as { lapisSuite: { withoutWasm(): Promise<{ cpuError: string; gpuInverse: number[] }> } }).lapisSuite.withoutWasm());
      expect(r.cpuError).toMatch(/^DeviceError \(DeviceError\): lapis: the WebAssembly CPU backend did not load: fetching \S+\.wasm failed \(HTTP 404\)/);
      // inv([[4, 7], [2, 6]]) = [[0.6, -0.7], [-0.2, 0.4]]
      const want = [0.6, -0.7, -0.2, 0.4];
      for (let i = 0; i < 4; i++) expect(Math.abs(r.gpuInverse[i] - want[i])).toBeLessThan(1e-6);
    } finally {
      await page.close();
    }
  });

  it('examples/browser runs: solve, pinv and SVD on the CPU, 100,000 4×4 inverses on the GPU', async () => {
    const page = await launched.context.newPage();
    const log: string[] = [];
    page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
    try {
      await page.goto(`${server.url}example/`);
      await page.waitForFunction(() => (window as unknown as { lapisExample?: { done: boolean } }).lapisExample?.done, null, { timeout: 120_000 });
      const r = await page.evaluate(() => (window as unknown as { lapisExample: { results: Record<string, number>; error?: string } }).lapisExample);
      const text = await page.locator('#out').textContent();
      report.example = { ...r, text };
      console.log(`examples/browser:\n${text}`);
      expect(r.error, `${r.error}\n${log.join('\n')}`).toBeUndefined();
      const names = Object.keys(r.results);
      expect(names.length).toBe(4);
      for (const name of names) {
        // relative residuals: float64 on the CPU, float32 on the GPU (a few hundred eps each)
        const bound = name.includes('GPU') ? 1e-5 : 1e-13;
        expect(r.results[name], `${name} = ${r.results[name]}`).toBeLessThan(bound);
      }
    } finally {
      await page.close();
    }
  });
});

type Report = Record<string, unknown> & { bundle?: Record<string, number>; cases: Record<string, CaseResult>; chromium?: { version: string; launchMs?: number }; adapter?: Record<string, unknown> };

const kB = (n: number | undefined) => `${((n ?? 0) / 1000).toFixed(1)} kB`;

/** The report as a bench SuiteResult (bench/harness.ts): one-shot latencies as GPU times, the sizes in its paragraph. */
function benchResult(report: Report, host: string): unknown {
  const latency = report.cases['gpu: init through navigator.gpu, first-call latency']?.info?.ms as Record<string, number> | undefined;
  const threads = report.cases['wasm: the CPU backend is the WebAssembly build']?.info?.numThreads as number | undefined;
  const row = (name: string, gpu: number | undefined) => ({ name, ms: gpu === undefined ? {} : { gpu }, targets: [] });
  const b = report.bundle ?? {};
  return {
    suite: 'browser',
    host,
    date: report.date,
    quick: false,
    machine: {
      host, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, threads: threads ?? null, gemmKernel: 'wasm simd128',
      platform: process.platform, arch: process.arch, node: process.version,
      gpu: `${String(report.adapter?.architecture ?? 'none')} through navigator.gpu in headless Chromium ${report.chromium?.version ?? ''} (flags: ${String(report.adapter?.flags)})`,
    },
    cases: [
      row('gpu.init() in the page', latency?.init),
      row('matmul 64×64 float32, first call (compiles its pipeline)', latency?.matmul64First),
      row('matmul 64×64 float32, second call', latency?.matmul64Second),
      row('inv 1000×4×4 float32, first call (compiles its pipeline)', latency?.inv4x4x1000First),
      row('inv 1000×4×4 float32, second call', latency?.inv4x4x1000Second),
    ],
    about:
      `One measurement each (not a median), by test/browser/browser.test.ts (LAPIS_BROWSER_BENCH=${host}): the time from the call to its data ` +
      `on the host, in headless Chromium on a software WebGPU adapter, so the first calls are mostly shader compilation. ` +
      `Bundle (npm run build:browser): dist-browser/lapis.js ${kB(b.jsBytes)} minified, ${kB(b.jsGzipBytes)} gzipped (gzip -9); ` +
      `lapis.wasm ${kB(b.wasmBytes)}, ${kB(b.wasmGzipBytes)} gzipped. Build ${b.buildMs} ms.`,
  };
}
