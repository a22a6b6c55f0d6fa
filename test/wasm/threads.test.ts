// The threaded WebAssembly build (build/wasm/lapis-mt.wasm, docs/wasm.md "Threads"): the pool's
// threads on worker_threads over a shared memory. Results of multi-threaded GEMM, LU, QR and
// SVD against the single-thread build (lapis.wasm), numThreads()/setNumThreads(), pool
// threads that really join regions, and a process that exits by itself with its workers
// still parked. Needs `npm run build:wasm -- --threads` (and lapis.wasm): under CI their
// absence fails the suite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// LAPIS_TEST_WASM_DIR: another build's directory (`npm run build:wasm -- --out=DIR`, both variants).
const dir = process.env.LAPIS_TEST_WASM_DIR ?? `${root}build/wasm`;
const single = `${dir}/lapis.wasm`;
const threaded = `${dir}/lapis-mt.wasm`;
const built = existsSync(single) && existsSync(threaded);

describe('threaded wasm artifact', () => {
  it('build/wasm/lapis-mt.wasm exists (run `npm run build:wasm -- --threads`)', () => {
    if (!process.env.CI && !built) console.warn('test/wasm: build/wasm/lapis-mt.wasm or lapis.wasm is missing; the threaded wasm tests are skipped');
    expect(built || !process.env.CI).toBe(true);
  });
});

type Lapis = typeof import('../../src/index.js');
type Binding = typeof import('../../src/backend/cpu/binding.js');

// lapis on the given wasm build, in a fresh module graph (the backend is loaded once per graph).
async function lapisOn(wasm: string, threads?: number): Promise<{ lapis: Lapis; binding: Binding }> {
  vi.stubEnv('LAPIS_CPU_BACKEND', 'wasm');
  vi.stubEnv('LAPIS_WASM', wasm);
  if (threads === undefined) vi.stubEnv('LAPIS_NUM_THREADS', undefined as unknown as string);
  else vi.stubEnv('LAPIS_NUM_THREADS', String(threads));
  vi.resetModules();
  const binding = await import('../../src/backend/cpu/binding.js');
  const lapis = await import('../../src/index.js');
  binding.cpuBackend();  // loads it now, under these variables
  return { lapis, binding };
}

function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0, n = 0;
  for (let i = 0; i < a.length; i++) {
    d += (a[i]! - b[i]!) ** 2;
    n += b[i]! ** 2;
  }
  return Math.sqrt(d / Math.max(n, 1e-300));
}

const data = (t: { dataSync(): unknown }) => t.dataSync() as Float64Array;

// Every op below on one build; the inputs are the same seeded matrices.
function compute(l: Lapis) {
  const A = l.randn([256, 256], { seed: 7, dtype: 'float64' });
  const B = l.randn([256, 192], { seed: 8, dtype: 'float64' });
  const C = l.randn([160, 96], { seed: 9, dtype: 'float64' });
  const F = l.randn([64, 64], { seed: 10, dtype: 'float32' });
  const lu = l.linalg.lu(A);
  const qr = l.linalg.qr(A, { mode: 'reduced' });
  const svd = l.linalg.svd(C, { fullMatrices: false });
  return {
    matmul: data(l.linalg.matmul(A, B)),
    matmul32: data(l.linalg.matmul(F, F)),
    luL: data(lu.L), luU: data(lu.U),
    qrR: data(qr.R),
    svdS: data(svd.S),
    solve: data(l.linalg.solve(A, B)),
  };
}

describe.skipIf(!built)('threaded wasm build (Node, worker_threads)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('gives the single-thread build\'s results with 2 threads, and its pool threads join the work', async () => {
    const one = await lapisOn(single);
    expect(one.lapis.numThreads()).toBe(1);
    const ref = compute(one.lapis);

    const two = await lapisOn(threaded, 2);
    expect(two.binding.cpuBackend()).toBe('wasm');
    expect(two.lapis.numThreads()).toBe(2);
    two.binding._threadStats(true);
    const got = compute(two.lapis);
    for (const k of Object.keys(ref) as (keyof typeof ref)[]) {
      expect(got[k].length, k).toBe(ref[k].length);
      expect(relErr(got[k], ref[k]), k).toBeLessThan(k === 'matmul32' ? 1e-6 : 1e-12);
    }
    // A worker needs a moment to start and load the module; the caller does every chunk until then.
    const t0 = performance.now();
    let stats = two.binding._threadStats();
    while (stats.joins === 0 && performance.now() - t0 < 20_000) {
      two.lapis.linalg.matmul(two.lapis.randn([384, 384], { seed: 1, dtype: 'float64' }), two.lapis.randn([384, 384], { seed: 2, dtype: 'float64' }));
      stats = two.binding._threadStats();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(stats.budget).toBe(2);
    expect(stats.joins).toBeGreaterThan(0);
    expect(stats.peak).toBe(2);
  }, 120_000);

  it('numThreads follows LAPIS_NUM_THREADS and setNumThreads, down and up again', async () => {
    const { lapis } = await lapisOn(threaded, 3);
    expect(lapis.numThreads()).toBe(3);
    expect(lapis.setNumThreads(1)).toBe(1);
    expect(lapis.numThreads()).toBe(1);
    const A = lapis.randn([200, 200], { seed: 3, dtype: 'float64' });
    const x1 = data(lapis.linalg.solve(A, lapis.randn([200, 4], { seed: 4, dtype: 'float64' })));
    expect(lapis.setNumThreads(2)).toBe(2);
    const x2 = data(lapis.linalg.solve(A, lapis.randn([200, 4], { seed: 4, dtype: 'float64' })));
    expect(relErr(x2, x1)).toBeLessThan(1e-12);
  }, 60_000);

  it('a process on the threaded build exits by itself (its parked workers keep nothing alive)', () => {
    const script = `
      import('./src/index.js').then((l) => {
        const A = l.randn([300, 300], { seed: 1, dtype: 'float64' });
        const x = l.linalg.solve(A, l.randn([300, 2], { seed: 2, dtype: 'float64' }));
        console.log(JSON.stringify({ n: l.numThreads(), ok: Number.isFinite(x.dataSync()[0]) }));
      });`;
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', './test/hardening/fixtures/register.mjs', '-e', script], {
      cwd: root, encoding: 'utf8', timeout: 90_000,
      env: { ...process.env, LAPIS_CPU_BACKEND: 'wasm', LAPIS_WASM: threaded, LAPIS_NUM_THREADS: '2' },
    });
    expect(r.error, `${r.stderr}`).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toEqual({ n: 2, ok: true });
    expect(performance.now() - t0).toBeLessThan(90_000);
  }, 120_000);

  it('argument errors are the same TypeError/RangeError with the same text as lapis.wasm (typed C++ catches work)', async () => {
    const { instantiateWasmBackendSync } = await import('../../src/backend/wasm/instantiate.js');
    const { nodeThreadOptions } = await import('../../src/backend/wasm/node.js');
    const { readFileSync } = await import('node:fs');
    const errorOf = (file: string, name: string, args: unknown[]) => {
      const raw = instantiateWasmBackendSync(readFileSync(file), { threads: nodeThreadOptions });
      try {
        raw[name]!(...args);
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
      return 'no error';
    };
    for (const [name, args] of [['numThreads', [{}]], ['matmul', ['x']], ['luFactor', [1, new Float64Array(3), new Float64Array(4), new Int32Array(2), new Int32Array(1), 1, 2, 2, false]]] as [string, unknown[]][]) {
      const want = errorOf(single, name, args);
      expect(want).toMatch(/^(TypeError|RangeError): /);
      expect(errorOf(threaded, name, args), name).toBe(want);
    }
  });

  it('a pool thread that traps fails the call it helps with a DeviceError, retires the instance, and hangs nothing', async () => {
    const { instantiateWasmBackend, wasmThreadHost } = await import('../../src/backend/wasm/instantiate.js');
    const { nodeThreadOptions } = await import('../../src/backend/wasm/node.js');
    const { DeviceError } = await import('../../src/core/errors.js');
    const { readFileSync } = await import('node:fs');
    // The pool's workers run the real worker program, but their heap-growth import claims
    // success without growing: the helper's first GEMM packing buffers (thread-local, taken
    // from the top of a heap the caller's copies filled) lie past the end of memory, and its
    // first store there traps (memory access out of bounds) in the middle of the region the
    // caller waits on.
    const lying = `{ const Instance = WebAssembly.Instance;
      WebAssembly.Instance = function (module, imports) {
        imports.env.emscripten_resize_heap = () => 1;
        return new Instance(module, imports);
      }; }\n`;
    const threads = { ...nodeThreadOptions, spawn: (source: string) => nodeThreadOptions.spawn(lying + source) };
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
    try {
      // The worker loaded beforehand, so it joins the first region at once.
      const raw = await instantiateWasmBackend(readFileSync(threaded), { threads, env: { LAPIS_NUM_THREADS: '2' }, prestartWorkers: 1 });
      const n = 1024;
      const A = new Float64Array(n * n).fill(1);
      const C = new Float64Array(n * n);
      const t0 = performance.now();
      let error: unknown = null;
      try {
        raw.matmul!(1, A, A, C, 1, n, n, n, null, null, 1, 1, 0, 0);
      } catch (e) {
        error = e;
      }
      expect(performance.now() - t0).toBeLessThan(30_000);
      expect(error).toBeInstanceOf(DeviceError);
      expect((error as Error).message).toBe('matmul: the WebAssembly backend trapped: a pool thread trapped (its worker logs the trap on the console)');
      // Retired: every later call fails at once with the reason, and the workers are ended.
      expect(() => raw.numThreads!(null)).toThrow(/^numThreads: the WebAssembly backend stopped after an earlier trap \(a pool thread trapped/);
      const host = wasmThreadHost(raw)!;
      const t1 = performance.now();
      while ((host.counts().workers > 0 || !errors.some((e) => e.includes('memory access out of bounds'))) && performance.now() - t1 < 10_000) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(host.counts().workers).toBe(0);
      expect(errors.join('\n')).toMatch(/lapis wasm: a pool thread failed: RuntimeError: memory access out of bounds/);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);

  it('the single-thread build stays single-threaded (setNumThreads returns 1)', async () => {
    const { lapis } = await lapisOn(single, 4);
    expect(lapis.numThreads()).toBe(1);
    expect(lapis.setNumThreads(2)).toBe(1);
  });
});
