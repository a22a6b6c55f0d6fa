// The WebAssembly CPU backend (docs/wasm.md) on one thread, float64: LU, solve and matmul
// at n = 256 through the raw exports of build/wasm/lapis.wasm (SIMD128) and
// lapis-nosimd.wasm, against ml-matrix and mathjs, with the native addon's raw export on
// one thread timed on the same data in the same run (the `native ms` and `wasm/native`
// columns). Raw calls on both sides: the same boundary work (argument checks; for wasm the
// heap copies in and out), no public-API layer. Suite `wasm`; needs `npm run build:wasm`
// and `npm run build:wasm -- --no-simd`.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, all } from 'mathjs';
import { Matrix, LuDecomposition } from 'ml-matrix';
import { measureSync, registerSuite, type BenchCase } from '../harness.js';
import { instantiateWasmBackendSync, type WasmRawFunction } from '../../src/backend/wasm/instantiate.js';
import { randn } from '../../src/index.js';

type Raw = Record<string, WasmRawFunction>;

function root(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'native'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('bench wasm: cannot find the package root');
}

registerSuite(
  'wasm',
  () => {
    const base = root();
    const variants: [string, string][] = [['simd128', 'lapis.wasm'], ['no simd', 'lapis-nosimd.wasm']];
    const addonPath = process.env.LAPIS_ADDON ?? join(base, 'build', 'Release', 'lapis.node');
    const addon = createRequire(import.meta.url)(addonPath) as Raw;
    const n = 256;
    const A = randn([n, n], { dtype: 'float64', seed: 256 }).dataSync() as Float64Array;
    const B = randn([n, n], { dtype: 'float64', seed: 257 }).dataSync() as Float64Array;
    const b = randn([n, 1], { dtype: 'float64', seed: 258 }).dataSync() as Float64Array;
    const rows = (x: Float64Array, r: number, c: number) => Array.from({ length: r }, (_, i) => Array.from(x.subarray(i * c, (i + 1) * c)));
    const Arows = rows(A, n, n);
    const Brows = rows(B, n, n);
    const brows = rows(b, n, 1);
    const math = create(all, { absTol: 0, relTol: 1e-12 });
    const mA = new Matrix(Arows);
    const mB = new Matrix(Brows);
    const mb = new Matrix(brows);

    const LU = new Float64Array(n * n);
    const piv = new Int32Array(n);
    const info = new Int32Array(1);
    const X = new Float64Array(n);
    const C = new Float64Array(n * n);
    const calls = {
      lu: (r: Raw) => () => { r.luFactor!(1, A, LU, piv, info, 1, n, n, false); },
      solve: (r: Raw) => () => { r.solve!(1, A, b, X, info, 1, n, 1, null, null, 1, 1, false); },
      matmul: (r: Raw) => () => { r.matmul!(1, A, B, C, 1, n, n, n, null, null, 1, 1); },
    };
    // The addon's time on one thread, as extra columns of the wasm row.
    const nativeColumns = (call: () => void) => (wasmMs: number, timing: Parameters<typeof measureSync>[1]) => {
      const before = addon.numThreads!(null) as number;
      addon.numThreads!(1);
      try {
        const ms = measureSync(call, timing).seconds * 1e3;
        return { 'native ms': ms, 'wasm/native': wasmMs / ms };
      } finally {
        addon.numThreads!(before);
      }
    };

    const cases: BenchCase[] = [];
    for (const [label, file] of variants) {
      const path = join(base, 'build', 'wasm', file);
      if (!existsSync(path)) throw new Error(`bench wasm: ${path} is missing (npm run build:wasm${file.includes('nosimd') ? ' -- --no-simd' : ''})`);
      const raw = instantiateWasmBackendSync(readFileSync(path));
      cases.push(
        {
          name: `dgetrf n=${n} wasm ${label}`,
          flops: (2 / 3) * n ** 3,
          lapis: calls.lu(raw),
          lapisCheck: nativeColumns(calls.lu(addon)),
          peers: { mathjs: () => { math.lup(Arows); }, mlMatrix: () => { new LuDecomposition(mA); } },
          targets: [{ vs: 'ml-matrix', maxRatio: 0.2 }],
        },
        {
          name: `dgesv n=${n} k=1 wasm ${label}`,
          flops: (2 / 3) * n ** 3 + 2 * n * n,
          lapis: calls.solve(raw),
          lapisCheck: nativeColumns(calls.solve(addon)),
          peers: { mathjs: () => { math.lusolve(Arows, brows); }, mlMatrix: () => { new LuDecomposition(mA).solve(mb); } },
          targets: [{ vs: 'ml-matrix', maxRatio: 0.2 }],
        },
        {
          name: `dgemm n=${n} wasm ${label}`,
          flops: 2 * n ** 3,
          lapis: calls.matmul(raw),
          lapisCheck: nativeColumns(calls.matmul(addon)),
          peers: { mathjs: () => { math.multiply(Arows, Brows); }, mlMatrix: () => { mA.mmul(mB); } },
          targets: [{ vs: 'mathjs', maxRatio: 0.1 }],
        },
      );
    }
    return cases;
  },
  'The WebAssembly CPU backend on one thread (it has no other), float64, raw exports of build/wasm/lapis.wasm (simd128) and lapis-nosimd.wasm; `native ms` is the native addon on one thread on the same data in the same run, `wasm/native` the ratio (the issue 18 target: within 4×).',
);
