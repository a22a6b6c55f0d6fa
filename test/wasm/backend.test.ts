// The WebAssembly CPU backend (docs/wasm.md): the same exports, option names and error
// messages as the native addon, async calls, errors from the kernels crossing the
// boundary, a heap too small for a call, and how loadCpuBackend picks the backend.
// Needs build/wasm/lapis.wasm (`npm run build:wasm`): under CI its absence fails the suite.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { instantiateWasmBackend, type WasmRawFunction } from '../../src/backend/wasm/instantiate.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// LAPIS_TEST_WASM_DIR: another build's directory (`npm run build:wasm -- --out=DIR`).
const artifact = `${process.env.LAPIS_TEST_WASM_DIR ?? `${root}build/wasm`}/lapis.wasm`;
const built = existsSync(artifact);
const addonPath = process.env.LAPIS_ADDON ?? `${root}build/Release/lapis.node`;
const haveAddon = existsSync(addonPath);

describe('wasm artifact', () => {
  it('build/wasm/lapis.wasm exists (run `npm run build:wasm`)', () => {
    // Outside CI a checkout without Emscripten skips the suite below, saying so; in CI it must be built.
    if (!process.env.CI && !built) console.warn('test/wasm: build/wasm/lapis.wasm is missing; the wasm tests are skipped (npm run build:wasm)');
    expect(built || !process.env.CI).toBe(true);
  });
});

const f64 = (...v: number[]) => Float64Array.from(v);
type Raw = Record<string, WasmRawFunction>;

async function load(opts: { maximumMemoryBytes?: number } = {}): Promise<Raw> {
  return instantiateWasmBackend(readFileSync(artifact), opts);
}

describe.skipIf(!built)('wasm backend: the addon contract at the raw level', () => {
  it('exports the addon functions with the same option names', async () => {
    const raw = await load();
    expect(Object.keys(raw).length).toBeGreaterThan(20);
    for (const fn of Object.values(raw)) expect(typeof fn.options).toBe('string');
    expect(raw.luFactor!.options).toBe('dtype,A,LU,pivots,info,count,m,n,async');
    if (haveAddon) {
      const addon = createRequire(import.meta.url)(addonPath) as Raw;
      expect(Object.keys(raw).sort()).toEqual(Object.keys(addon).sort());
      for (const name of Object.keys(addon)) expect(raw[name]!.options, name).toBe(addon[name]!.options);
    }
  });

  it('computes: luFactor and solve of a 2×2 system', async () => {
    const raw = await load();
    const LU = new Float64Array(4);
    const pivots = new Int32Array(2);
    const info = new Int32Array(1);
    expect(raw.luFactor!(1, f64(4, 3, 6, 3), LU, pivots, info, 1, 2, 2, false)).toBeUndefined();
    expect(Array.from(pivots)).toEqual([2, 2]);
    expect(LU[0]).toBe(6);
    const X = new Float64Array(2);
    raw.solve!(1, f64(4, 3, 6, 3), f64(1, 2), X, new Int32Array(1), 1, 2, 1, null, null, 1, 1, false);
    expect(X[0]).toBeCloseTo(0.5, 14);
    expect(X[1]).toBeCloseTo(-1 / 3, 14);
    // an input is not written back, and the same array passed twice is one heap copy
    const A = f64(1, 2, 3, 4);
    const out = new Float64Array(4);
    raw.binary!(1, 0, A, A, out, f64(4), f64(1), f64(1));
    expect(Array.from(out)).toEqual([2, 4, 6, 8]);
    expect(Array.from(A)).toEqual([1, 2, 3, 4]);
  });

  it('returns JS values: strings, arrays, objects, numbers', async () => {
    const raw = await load();
    const names = raw.elementwiseOpNames!(0) as string[];
    expect(Array.isArray(names)).toBe(true);
    expect(names.every((n) => typeof n === 'string' && n.length > 0)).toBe(true);
    expect(raw.numThreads!(null)).toBe(1);
    expect(raw.numThreads!(4)).toBe(1);  // one thread: no workers to start
    const stats = raw.threadStats!(false) as Record<string, number>;
    expect(stats.budget).toBe(1);
    expect(raw.gemmKernel!()).toBe('wasm128');  // the SIMD128 family (kernels_wasm.cpp)
  });

  it('argument errors are the addon\'s TypeError/RangeError, message for message', async () => {
    const raw = await load();
    const bad: [string, unknown[]][] = [
      ['luFactor', [1, f64(4, 3, 6, 3), new Float64Array(4), new Int32Array(2), new Int32Array(1), 1, 2, 2]],  // one short
      ['luFactor', [1, new Float32Array(4), new Float64Array(4), new Int32Array(2), new Int32Array(1), 1, 2, 2, false]],
      ['luFactor', [1, f64(4, 3, 6), new Float64Array(4), new Int32Array(2), new Int32Array(1), 1, 2, 2, false]],
      ['luFactor', [1, f64(4, 3, 6, 3), new Float64Array(4), new Int32Array(2), new Int32Array(1), 1.5, 2, 2, false]],
      ['luFactor', [1, f64(4, 3, 6, 3), new Float64Array(4), new Int32Array(2), new Int32Array(1), 1, 2, 2, 'no']],
      ['luFactor', [1, 'A', new Float64Array(4), new Int32Array(2), new Int32Array(1), 1, 2, 2, false]],
      ['take', [1, f64(1, 2), Int32Array.of(5), new Float64Array(1)]],
      ['cast', [1, 9, f64(1), new Int32Array(1)]],
    ];
    const addon = haveAddon ? (createRequire(import.meta.url)(addonPath) as Raw) : null;
    for (const [name, args] of bad) {
      let err: unknown;
      try {
        raw[name]!(...args);
      } catch (e) {
        err = e;
      }
      expect(err, name).toBeInstanceOf(Error);
      expect((err as Error).message, name).toMatch(new RegExp(`^${name}: `));
      if (addon) {
        let want: unknown;
        try {
          addon[name]!(...args);
        } catch (e) {
          want = e;
        }
        expect((err as Error).constructor, name).toBe((want as Error).constructor);
        expect((err as Error).message, name).toBe((want as Error).message);
      }
    }
    // the backend keeps working after errors
    const X = new Float64Array(2);
    raw.solve!(1, f64(4, 3, 6, 3), f64(1, 2), X, new Int32Array(1), 1, 2, 1, null, null, 1, 1, false);
    expect(X[0]).toBeCloseTo(0.5, 14);
  });

  it('async: true returns a Promise that resolves after the outputs are written', async () => {
    const raw = await load();
    const LU = new Float64Array(4);
    const pivots = new Int32Array(2);
    const p = raw.luFactor!(1, f64(4, 3, 6, 3), LU, pivots, new Int32Array(1), 1, 2, 2, true);
    expect(p).toBeInstanceOf(Promise);
    await expect(p).resolves.toBeUndefined();
    expect(Array.from(pivots)).toEqual([2, 2]);
    expect(LU[0]).toBe(6);
    // an argument error of an async call throws at once, as the addon's does
    expect(() => raw.luFactor!(1, f64(4, 3, 6), LU, pivots, new Int32Array(1), 1, 2, 2, true)).toThrow(RangeError);
  });

  it('a heap too small for a call is a RangeError naming the op, and the backend goes on', async () => {
    const raw = await load({ maximumMemoryBytes: 32 << 20 });
    const n = 2048;  // C: 2048² float64 = 32 MiB, more than the whole heap
    const A = new Float64Array(n);
    const B = new Float64Array(n);
    const C = new Float64Array(n * n);
    expect(() => raw.matmul!(1, A, B, C, 1, n, 1, n, null, null, 1, 1, 0, 0)).toThrow(RangeError);
    expect(() => raw.matmul!(1, A, B, C, 1, n, 1, n, null, null, 1, 1, 0, 0)).toThrow(/^matmul: out of memory/);
    // async: the inputs are staged before anything is queued, so (as in the addon) a heap too
    // small for them is thrown at once, not a rejection
    const LU = new Float64Array(n * n);
    expect(() => raw.luFactor!(1, new Float64Array(n * n), LU, new Int32Array(n), new Int32Array(1), 1, n, n, true))
      .toThrow(/^luFactor: out of memory for a 2048×2048 float64 matrix/);
    const X = new Float64Array(2);
    raw.solve!(1, f64(4, 3, 6, 3), f64(1, 2), X, new Int32Array(1), 1, 2, 1, null, null, 1, 1, false);
    expect(X[0]).toBeCloseTo(0.5, 14);
  });
});

describe.skipIf(!built)('loadCpuBackend: LAPIS_CPU_BACKEND', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  async function fresh() {
    vi.resetModules();
    const binding = await import('../../src/backend/cpu/binding.js');
    const index = await import('../../src/index.js');
    return { binding, index };
  }

  it('=wasm serves the CPU ops from WebAssembly, through the public API', async () => {
    vi.stubEnv('LAPIS_CPU_BACKEND', 'wasm');
    const { binding, index } = await fresh();
    expect(binding.cpuBackend()).toBe('wasm');
    const A = index.tensor([[4, 3], [6, 3]], { dtype: 'float64' });
    const x = index.linalg.solve(A, index.tensor([1, 2], { dtype: 'float64' }));
    const xs = x.toArray() as number[];
    expect(xs[0]).toBeCloseTo(0.5, 14);
    expect(xs[1]).toBeCloseTo(-1 / 3, 14);
  });

  it('unset: the native addon when it loads, else wasm with one line on stderr', async () => {
    vi.stubEnv('LAPIS_CPU_BACKEND', '');
    vi.stubEnv('LAPIS_ADDON', `${root}build/does-not-exist/lapis.node`);
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { binding } = await fresh();
    expect(binding.cpuBackend()).toBe('wasm');
    const lines = warn.mock.calls.map((c) => String(c[0]));
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatch(/native addon.*WebAssembly.*npm run build:native/s);
  });

  it.skipIf(!haveAddon)('unset, with an addon that loads: the addon, and nothing on stderr', async () => {
    vi.stubEnv('LAPIS_CPU_BACKEND', '');
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { binding } = await fresh();
    expect(binding.cpuBackend()).toBe('native');
    expect(warn).not.toHaveBeenCalled();
  });

  it('=native requires the addon: a missing one is an error, not a fallback', async () => {
    vi.stubEnv('LAPIS_CPU_BACKEND', 'native');
    vi.stubEnv('LAPIS_ADDON', `${root}build/does-not-exist/lapis.node`);
    const { binding } = await fresh();
    expect(() => binding.cpuBackend()).toThrow(/native addon/);
  });

  it('an unknown value is an error naming the variable', async () => {
    vi.stubEnv('LAPIS_CPU_BACKEND', 'gpu');
    const { binding } = await fresh();
    expect(() => binding.cpuBackend()).toThrow(/LAPIS_CPU_BACKEND/);
  });
});
