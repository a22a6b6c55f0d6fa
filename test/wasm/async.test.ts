// `async: true` on the WebAssembly backend (docs/wasm.md "Threads"): on the threaded build
// (lapis-mt.wasm) the work runs on a thread of its own and the JS thread stays free; results
// equal the synchronous ones, several calls in flight each settle, a sync call while one runs
// is right, failures reject as the sync call throws, and a trap on the async thread rejects
// with a DeviceError. On lapis.wasm the work runs inside the call and a Promise still comes
// back. Needs `npm run build:wasm` and `npm run build:wasm -- --threads` (CI fails without).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// LAPIS_TEST_WASM_DIR: another build's directory (`npm run build:wasm -- --out=DIR`).
const dir = process.env.LAPIS_TEST_WASM_DIR ?? `${root}build/wasm`;
const single = `${dir}/lapis.wasm`;
const threaded = `${dir}/lapis-mt.wasm`;
const built = existsSync(single) && existsSync(threaded);

describe('wasm async artifacts', () => {
  it('build/wasm/lapis.wasm and lapis-mt.wasm exist', () => {
    if (!process.env.CI && !built) console.warn('test/wasm/async: a wasm build is missing; the async tests are skipped');
    expect(built || !process.env.CI).toBe(true);
  });
});

type Lapis = typeof import('../../src/index.js');

async function lapisOn(wasm: string, threads: number): Promise<Lapis> {
  vi.stubEnv('LAPIS_CPU_BACKEND', 'wasm');
  vi.stubEnv('LAPIS_WASM', wasm);
  vi.stubEnv('LAPIS_NUM_THREADS', String(threads));
  vi.resetModules();
  const binding = await import('../../src/backend/cpu/binding.js');
  const lapis = await import('../../src/index.js');
  binding.cpuBackend();
  expect(binding.cpuBackend()).toBe('wasm');
  return lapis;
}

const data = (t: { dataSync(): unknown }) => t.dataSync() as Float64Array;

function relErr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0, n = 0;
  for (let i = 0; i < a.length; i++) {
    d += (a[i]! - b[i]!) ** 2;
    n += b[i]! ** 2;
  }
  return Math.sqrt(d / Math.max(n, 1e-300));
}

// n×n row-major with a dominant diagonal, from a fixed seed.
function wellConditioned(n: number, seed: number): Float64Array {
  const A = new Float64Array(n * n);
  let s = seed;
  for (let i = 0; i < n * n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    A[i] = s / 2147483648 - 0.5;
  }
  for (let i = 0; i < n; i++) A[i * n + i]! += n;
  return A;
}

// max |A·X − I| over the first `rows` rows.
function identityError(A: Float64Array, X: Float64Array, n: number, rows: number): number {
  let worst = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < n; j++) {
      let t = 0;
      for (let k = 0; k < n; k++) t += A[i * n + k]! * X[k * n + j]!;
      worst = Math.max(worst, Math.abs(t - (i === j ? 1 : 0)));
    }
  }
  return worst;
}

async function errorOf(f: () => unknown): Promise<string> {
  try {
    await f();
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
  return 'no error';
}

describe.skipIf(!built)('async calls on the threaded wasm build', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('a long solve runs off the JS thread: timers fire meanwhile, and the result equals the sync one', async () => {
    const l = await lapisOn(threaded, 2);
    const A = l.randn([1024, 1024], { seed: 1, dtype: 'float64' });
    const B = l.randn([1024, 64], { seed: 2, dtype: 'float64' });
    let settled = false;
    const p = l.linalg.solveAsync(A, B).then((X) => {
      settled = true;
      return X;
    });
    let ticks = 0;
    let ticksBeforeSettled = 0;
    const timer = setInterval(() => {
      ticks++;
      if (!settled) ticksBeforeSettled = ticks;
    }, 1);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);  // the call returned before the work was done
    const X = await p;
    clearInterval(timer);
    expect(ticksBeforeSettled).toBeGreaterThan(0);
    expect(relErr(data(X), data(l.linalg.solve(A, B)))).toBeLessThan(1e-13);
  }, 120_000);

  it('several calls in flight each settle with their own result, and sync calls meanwhile are right', async () => {
    const l = await lapisOn(threaded, 2);
    const A = l.randn([400, 400], { seed: 3, dtype: 'float64' });
    const M = l.randn([300, 300], { seed: 4, dtype: 'float64' });
    const Bs = [5, 6, 7, 8].map((s) => l.randn([400, 8], { seed: s, dtype: 'float64' }));
    const want = {
      solves: Bs.map((B) => data(l.linalg.solve(A, B))),
      inv: data(l.linalg.inv(M)),
      lu: data(l.linalg.luFactor(A).LU),
      mm: data(l.linalg.matmul(M, M)),
    };
    const solves = Bs.map((B) => l.linalg.solveAsync(A, B));
    const inv = l.linalg.invAsync(M);
    const lu = l.linalg.luFactorAsync(A);
    // Sync calls while the async ones queue and run: they share the pool and the heap.
    for (let i = 0; i < 5; i++) expect(relErr(data(l.linalg.matmul(M, M)), want.mm)).toBeLessThan(1e-14);
    const [got, gotInv, gotLu] = await Promise.all([Promise.all(solves), inv, lu]);
    got.forEach((X, i) => expect(relErr(data(X), want.solves[i]!), `solve ${i}`).toBeLessThan(1e-13));
    expect(relErr(data(gotInv), want.inv)).toBeLessThan(1e-13);
    expect(relErr(data(gotLu.LU), want.lu)).toBeLessThan(1e-14);
  }, 120_000);

  it('a failing call rejects with the error the sync call throws', async () => {
    const l = await lapisOn(threaded, 2);
    const Z = l.zeros([64, 64], { dtype: 'float64' });
    const B = l.randn([64, 2], { seed: 13, dtype: 'float64' });
    const sync = await errorOf(() => l.linalg.solve(Z, B));
    expect(sync).toMatch(/^LinAlgError: /);
    expect((await errorOf(() => l.linalg.solveAsync(Z, B))).replace('solveAsync', 'solve')).toBe(sync);
    expect(await errorOf(() => l.linalg.invAsync(Z))).toBe((await errorOf(() => l.linalg.inv(Z))).replace(/\binv\b/, 'invAsync'));
    // The backend keeps working after a rejection.
    const I = l.eye(3, { dtype: 'float64' });
    const b = l.randn([3, 1], { seed: 14, dtype: 'float64' });
    expect(Array.from(data(await l.linalg.solveAsync(I, b)))).toEqual(Array.from(data(b)));
  }, 60_000);

  it('out of heap inside async work rejects with the sync call\'s RangeError, and the instance goes on', async () => {
    const { instantiateWasmBackend, wasmThreadHost } = await import('../../src/backend/wasm/instantiate.js');
    const { nodeThreadOptions } = await import('../../src/backend/wasm/node.js');
    const load = (mib: number) => instantiateWasmBackend(readFileSync(threaded), {
      threads: nodeThreadOptions, env: { LAPIS_NUM_THREADS: '2' }, maximumMemoryBytes: mib * 2 ** 20,
    });
    const invOn = (raw: Awaited<ReturnType<typeof load>>) => (n: number, A: Float64Array, async: boolean) => {
      const names = String(raw.inv!.options).split(',');
      const X = new Float64Array(n * n);
      const o: Record<string, unknown> = { dtype: 1, A, X, info: new Int32Array(1), count: 1, n, async };
      return { result: raw.inv!(...names.map((k) => o[k])), X };
    };
    const n = 1024;
    const big = wellConditioned(n, 21);
    // The sync call's error where the heap cannot hold its work (its arrays are not copied, so it needs less than the async call).
    let syncError: unknown = null;
    try {
      invOn(await load(30))(n, big, false);
    } catch (e) {
      syncError = e;
    }
    expect(syncError).toBeInstanceOf(RangeError);
    expect((syncError as Error).message).toBe('inv: out of memory for a 1024×1024 float64 matrix');
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
    try {
      // 36 MiB: no heap for the runner thread's stack, so the work runs in the call; 40 and
      // 42 MiB: the runner thread starts, and the kernel's workspace does not fit there.
      for (const [mib, threadsRunning] of [[36, 1], [40, 2], [42, 2]] as const) {
        const raw = await load(mib);
        const inv = invOn(raw);
        // The arguments fit (no throw at the call): what runs out of heap is the work.
        const pending = inv(n, big, true).result;
        expect(pending, `${mib} MiB`).toBeInstanceOf(Promise);
        const asyncError = await (pending as Promise<unknown>).then(() => null, (e: unknown) => e);
        expect(asyncError, `${mib} MiB`).toBeInstanceOf(RangeError);
        expect((asyncError as Error).message, `${mib} MiB`).toBe((syncError as Error).message);
        expect(wasmThreadHost(raw)!.counts().running, `${mib} MiB: pool thread and runner`).toBe(threadsRunning);
        // The same instance goes on: the sync call fits here, and small async and sync calls are right.
        const s = inv(n, big, false);
        expect(s.result).toBeUndefined();
        expect(identityError(big, s.X, n, 8), `${mib} MiB sync 1024`).toBeLessThan(1e-13);
        const m = 160;
        const A = wellConditioned(m, 22);
        const a = inv(m, A, true);
        await a.result;
        expect(identityError(A, a.X, m, m), `${mib} MiB async`).toBeLessThan(1e-13);
        const b = inv(m, A, false);
        expect(relErr(b.X, a.X), `${mib} MiB sync`).toBeLessThan(1e-15);
      }
      // 48 MiB: the work fits; completing it copies the results through the heap copies of
      // the outputs kept since the call, so it needs no new heap (it did: std::terminate).
      const c = invOn(await load(48))(n, big, true);
      await c.result;
      expect(identityError(big, c.X, n, 8), '48 MiB async 1024').toBeLessThan(1e-13);
      expect(errors.join('\n')).not.toMatch(/pool thread failed/);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);

  it('a trap on the async thread rejects with a DeviceError and retires the instance', async () => {
    const { instantiateWasmBackend } = await import('../../src/backend/wasm/instantiate.js');
    const { nodeThreadOptions } = await import('../../src/backend/wasm/node.js');
    const { DeviceError } = await import('../../src/core/errors.js');
    // The workers run the real worker program, but their `lapis.async_done` import is a wasm
    // function that executes `unreachable`: the async thread traps as soon as its work is done.
    const trapping = `{ const Instance = WebAssembly.Instance;
      const trap = new Instance(new WebAssembly.Module(new Uint8Array([0,97,115,109,1,0,0,0,1,4,1,96,0,0,3,2,1,0,7,5,1,1,116,0,0,10,5,1,3,0,0,11]))).exports.t;
      WebAssembly.Instance = function (module, imports) {
        if (imports.lapis) imports.lapis.async_done = trap;
        return new Instance(module, imports);
      }; }\n`;
    const threads = { ...nodeThreadOptions, spawn: (source: string) => nodeThreadOptions.spawn(trapping + source) };
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
    try {
      const raw = await instantiateWasmBackend(readFileSync(threaded), { threads, env: { LAPIS_NUM_THREADS: '1' } });
      const names = String(raw.inv!.options).split(',');
      const o: Record<string, unknown> = {
        dtype: 1, A: new Float64Array([2, 0, 0, 2]), X: new Float64Array(4), info: new Int32Array(1), count: 1, n: 2, async: true,
      };
      const p = raw.inv!(...names.map((k) => o[k])) as Promise<unknown>;
      expect(p).toBeInstanceOf(Promise);
      const t0 = performance.now();
      const error = await p.then(() => null, (e: unknown) => e);
      expect(performance.now() - t0).toBeLessThan(30_000);
      expect(error).toBeInstanceOf(DeviceError);
      expect((error as Error).message).toBe('inv: the WebAssembly backend trapped: a pool thread trapped (its worker logs the trap on the console)');
      expect(() => raw.numThreads!(null)).toThrow(/^numThreads: the WebAssembly backend stopped after an earlier trap/);
      expect(errors.join('\n')).toMatch(/lapis wasm: a pool thread failed: RuntimeError: unreachable/);
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});

describe.skipIf(!built)('async calls on the single-thread wasm build', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('return a Promise of the sync result (the work runs inside the call)', async () => {
    const l = await lapisOn(single, 1);
    const A = l.randn([128, 128], { seed: 11, dtype: 'float64' });
    const B = l.randn([128, 4], { seed: 12, dtype: 'float64' });
    const p = l.linalg.solveAsync(A, B);
    expect(p).toBeInstanceOf(Promise);
    expect(relErr(data(await p), data(l.linalg.solve(A, B)))).toBeLessThan(1e-15);
    const Z = l.zeros([8, 8], { dtype: 'float64' });
    const sync = await errorOf(() => l.linalg.solve(Z, Z));
    expect(sync).toMatch(/^LinAlgError: /);
    expect((await errorOf(() => l.linalg.solveAsync(Z, Z))).replace('solveAsync', 'solve')).toBe(sync);
  }, 60_000);
});
