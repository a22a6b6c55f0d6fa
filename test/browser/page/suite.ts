// The browser suite: runs in Chromium against the built bundle (imported as 'lapis', which
// test/browser/harness.ts aliases to dist-browser/lapis.js when it builds this page).
// test/browser/browser.test.ts calls window.lapisSuite.run(name) for each case of ../cases.ts.
import {
  linalg, tensor, randn, gpu, cpuBackend, numThreads, setNumThreads, ShapeError, DTypeError, LinAlgError, ArgumentError, DeviceError,
  type Tensor,
} from 'lapis';
import { CASES, type CaseResult, type Check } from '../cases.js';
import { mm, mmc, tr, fro, eye, item, EPS64, EPS32, type Arr } from './check.js';

type Case = () => Promise<Omit<CaseResult, 'ms'>>;

async function host(t: Tensor): Promise<Float64Array> {
  return Float64Array.from(await t.data() as ArrayLike<number>);
}

const eps = (dtype: string) => (dtype === 'float32' || dtype === 'complex64' ? EPS32 : EPS64);

/** A well-conditioned n×n matrix: normal entries plus √n on the diagonal. */
function conditioned(n: number, dtype: 'float32' | 'float64', seed: number, batch: number[] = []): Tensor {
  const A = randn([...batch, n, n], { dtype: 'float64', seed });
  const a = A.dataSync() as Float64Array;
  for (let b = 0; b < a.length / (n * n); b++) for (let i = 0; i < n; i++) a[b * n * n + i * n + i] += Math.sqrt(n);
  return dtype === 'float64' ? A : tensor(A, { dtype });
}

/** ‖A·X − B‖ / (‖A‖·‖X‖·n·eps), the largest over a batch of n×n A and n×k X, B. */
function solveRatio(A: Arr, X: Arr, B: Arr, n: number, k: number, e: number): number {
  let worst = 0;
  for (let b = 0; b < A.length / (n * n); b++) {
    const a = item(A, b, n * n), x = item(X, b, n * k);
    const r = fro(mm(a, x, n, n, k), item(B, b, n * k)) / (fro(a) * fro(x) * n * e);
    worst = Math.max(worst, r);
  }
  return worst;
}

/** Runs f, expecting it to throw an instance of `cls` whose message names `who`. */
function expectThrow(what: string, f: () => unknown, cls: new (...a: never[]) => Error, who: string): Check {
  try {
    f();
  } catch (e) {
    const ok = e instanceof cls && (e as Error).message.includes(who);
    if (!ok) throw new Error(`${what}: threw ${(e as Error).name}: ${(e as Error).message}; expected a ${cls.name} naming ${who}`);
    return { what: `${what} → ${(e as Error).name}`, value: 0, max: 0 };
  }
  throw new Error(`${what}: did not throw`);
}

async function expectReject(what: string, f: () => Promise<unknown>, cls: new (...a: never[]) => Error, who: string): Promise<Check> {
  try {
    await f();
  } catch (e) {
    const ok = e instanceof cls && (e as Error).message.includes(who);
    if (!ok) throw new Error(`${what}: threw ${(e as Error).name}: ${(e as Error).message}; expected a ${cls.name} naming ${who}`);
    return { what: `${what} → ${(e as Error).name}`, value: 0, max: 0 };
  }
  throw new Error(`${what}: did not throw`);
}

const gpuInfo: Record<string, unknown> = {};

const cases: Record<string, Case> = {
  'wasm: the CPU backend is the WebAssembly build': async () => {
    const name = cpuBackend();
    if (name !== 'wasm') throw new Error(`cpuBackend() is ${name}`);
    return {
      checks: [{ what: 'cpuBackend() is wasm', value: 0, max: 0 }],
      info: { numThreads: numThreads(), crossOriginIsolated, hardwareConcurrency: navigator.hardwareConcurrency },
    };
  },

  // This page is served cross-origin isolated (harness.ts), so src/browser.ts loads lapis-mt.wasm
  // and starts hardwareConcurrency − 1 Web Workers; numThreads() above 1 is only possible there.
  'wasm: threads: a cross-origin isolated page gets the threaded build, right on every thread count': async () => {
    const cores = navigator.hardwareConcurrency;
    if (!crossOriginIsolated) throw new Error('the test page is not cross-origin isolated');
    if (cores < 2) throw new Error(`navigator.hardwareConcurrency is ${cores}: no second thread to test`);
    const checks: Check[] = [{ what: `numThreads() (${numThreads()}) − hardwareConcurrency (${cores})`, value: Math.abs(numThreads() - cores), max: 0 }];
    const n = 192;
    const A = randn([n, n], { seed: 31 }), B = randn([n, n], { seed: 32 });
    const a = A.dataSync() as Arr, b = B.dataSync() as Arr;
    const ref = mm(a, b, n, n, n);
    const results: Record<number, { lu: Float64Array; mat: Float64Array }> = {};
    for (const t of [cores, 1, 2]) {
      checks.push({ what: `setNumThreads(${t}) returns it`, value: Math.abs(setNumThreads(t) - t), max: 0 });
      const mat = Float64Array.from(linalg.matmul(A, B).dataSync() as Arr);
      checks.push({ what: `${t} threads: matmul ${n}×${n} ‖C − AB‖/(‖A‖‖B‖·n·eps)`, value: fro(mat, ref) / (fro(a) * fro(b) * n * EPS64), max: 1 });
      const { P, L, U } = linalg.lu(A);
      const lu = Float64Array.from(U.dataSync() as Arr);
      const PLU = mm(P.dataSync() as Arr, mm(L.dataSync() as Arr, lu, n, n, n), n, n, n);
      checks.push({ what: `${t} threads: lu ${n}×${n} ‖A − PLU‖/(‖A‖·n·eps)`, value: fro(a, PLU) / (fro(a) * n * EPS64), max: 30 });
      results[t] = { lu, mat };
    }
    checks.push({ what: 'U on 2 threads against 1, relative', value: fro(results[2].lu, results[1].lu) / fro(results[1].lu), max: 1e-12 });
    setNumThreads(cores);
    return { checks, info: { numThreads: numThreads(), hardwareConcurrency: cores, crossOriginIsolated } };
  },

  'wasm: solve float64 and float32, batched, backward error': async () => {
    const checks: Check[] = [];
    for (const dtype of ['float64', 'float32'] as const) {
      for (const [n, k, batch] of [[1, 1, []], [7, 3, []], [64, 5, []], [129, 2, []], [4, 2, [50]]] as Array<[number, number, number[]]>) {
        const A = randn([...batch, n, n], { dtype, seed: n + k });
        const B = randn([...batch, n, k], { dtype, seed: 1000 + n });
        const X = linalg.solve(A, B);
        checks.push({ what: `${dtype} n=${n} k=${k} batch=[${batch}] ‖AX−B‖/(‖A‖‖X‖·n·eps)`, value: solveRatio(A.dataSync() as Arr, X.dataSync() as Arr, B.dataSync() as Arr, n, k, eps(dtype)), max: 30 });
      }
    }
    // one thread in the page: the async variant runs the same kernel and settles at once
    const A = randn([40, 40], { seed: 3 }), B = randn([40, 2], { seed: 4 });
    checks.push({ what: 'max |solveAsync − solve|', value: fro(await host(await linalg.solveAsync(A, B)), linalg.solve(A, B).dataSync() as Arr), max: 0 });
    return { checks };
  },

  'wasm: lu and luFactor, ‖A − P·L·U‖': async () => {
    const checks: Check[] = [];
    for (const [m, n] of [[33, 33], [100, 100], [40, 25], [25, 40]]) {
      const A = randn([m, n], { seed: m * n });
      const { P, L, U } = linalg.lu(A);
      const k = Math.min(m, n);
      const PLU = mm(P.dataSync() as Arr, mm(L.dataSync() as Arr, U.dataSync() as Arr, m, k, n), m, m, n);
      const a = A.dataSync() as Arr;
      checks.push({ what: `${m}×${n} ‖A − PLU‖/(‖A‖·n·eps)`, value: fro(a, PLU) / (fro(a) * Math.max(m, n) * EPS64), max: 30 });
      if (m === n) {
        const { info } = linalg.luFactorEx(A);
        checks.push({ what: `${m}×${n} luFactorEx info`, value: Math.abs((info.dataSync() as Int32Array)[0]), max: 0 });
      }
    }
    return { checks };
  },

  'wasm: qr reduced, ‖A − Q·R‖ and ‖QᵀQ − I‖': async () => {
    const checks: Check[] = [];
    for (const [m, n] of [[50, 30], [64, 64], [20, 35]]) {
      const A = randn([m, n], { seed: 7 * m + n });
      const { Q, R } = linalg.qr(A);
      const k = Math.min(m, n);
      const q = Q.dataSync() as Arr, a = A.dataSync() as Arr;
      checks.push({ what: `${m}×${n} ‖A − QR‖/(‖A‖·n·eps)`, value: fro(a, mm(q, R.dataSync() as Arr, m, k, n)) / (fro(a) * Math.max(m, n) * EPS64), max: 30 });
      checks.push({ what: `${m}×${n} ‖QᵀQ − I‖/(n·eps)`, value: fro(mm(tr(q, m, k), q, k, m, k), eye(k)) / (Math.max(m, n) * EPS64), max: 30 });
    }
    return { checks };
  },

  'wasm: svd, ‖A − U·S·Vh‖, orthogonal factors, sorted values': async () => {
    const checks: Check[] = [];
    for (const [m, n] of [[40, 24], [24, 40], [48, 48]]) {
      const A = randn([m, n], { seed: m + 3 * n });
      const { U, S, Vh } = linalg.svd(A, { fullMatrices: false });
      const k = Math.min(m, n);
      const u = U.dataSync() as Arr, s = S.dataSync() as Arr, vh = Vh.dataSync() as Arr, a = A.dataSync() as Arr;
      const US = Float64Array.from(u, (x, i) => x * s[i % k]);
      checks.push({ what: `${m}×${n} ‖A − U·S·Vh‖/(‖A‖·n·eps)`, value: fro(a, mm(US, vh, m, k, n)) / (fro(a) * Math.max(m, n) * EPS64), max: 30 });
      checks.push({ what: `${m}×${n} ‖UᵀU − I‖/(n·eps)`, value: fro(mm(tr(u, m, k), u, k, m, k), eye(k)) / (Math.max(m, n) * EPS64), max: 30 });
      checks.push({ what: `${m}×${n} ‖Vh·Vhᵀ − I‖/(n·eps)`, value: fro(mm(vh, tr(vh, k, n), k, n, k), eye(k)) / (Math.max(m, n) * EPS64), max: 30 });
      let unsorted = 0;
      for (let i = 1; i < k; i++) if (!(s[i] <= s[i - 1]) || s[i] < 0) unsorted++;
      checks.push({ what: `${m}×${n} singular values out of order or negative`, value: unsorted, max: 0 });
    }
    return { checks };
  },

  'wasm: pinv of a rank-deficient matrix, the four Penrose conditions': async () => {
    // 30×20 of rank 12: a product of 30×12 and 12×20 normal matrices.
    const m = 30, n = 20, r = 12;
    const A = linalg.matmul(randn([m, r], { seed: 5 }), randn([r, n], { seed: 6 }));
    const X = linalg.pinv(A);
    const a = A.dataSync() as Arr, x = X.dataSync() as Arr;
    const ax = mm(a, x, m, n, m), xa = mm(x, a, n, m, n);
    const scale = fro(a) * fro(x) * Math.max(m, n) * EPS64;
    return {
      checks: [
        { what: '‖A·X·A − A‖/(‖A‖²‖X‖·n·eps)', value: fro(mm(ax, a, m, m, n), a) / (fro(a) * scale), max: 30 },
        { what: '‖X·A·X − X‖/(‖A‖‖X‖²·n·eps)', value: fro(mm(xa, x, n, n, m), x) / (fro(x) * scale), max: 30 },
        { what: '‖A·X − (A·X)ᵀ‖/(‖A‖‖X‖·n·eps)', value: fro(ax, tr(ax, m, m)) / scale, max: 30 },
        { what: '‖X·A − (X·A)ᵀ‖/(‖A‖‖X‖·n·eps)', value: fro(xa, tr(xa, n, n)) / scale, max: 30 },
        { what: `matrixRank (expected ${r}) − ${r}`, value: Math.abs(Number((linalg.matrixRank(A).dataSync() as ArrayLike<number>)[0]) - r), max: 0 },
      ],
    };
  },

  'wasm: complex128 solve, backward error': async () => {
    const n = 40, k = 3;
    const A = randn([n, n], { dtype: 'complex128', seed: 11 });
    const B = randn([n, k], { dtype: 'complex128', seed: 12 });
    const X = linalg.solve(A, B);
    const a = A.dataSync() as Arr, x = X.dataSync() as Arr;
    return { checks: [{ what: `complex128 n=${n} ‖AX−B‖/(‖A‖‖X‖·n·eps)`, value: fro(mmc(a, x, n, n, k), B.dataSync() as Arr) / (fro(a) * fro(x) * n * EPS64), max: 30 }] };
  },

  'wasm: errors are typed (ShapeError, LinAlgError, DTypeError, ArgumentError)': async () => {
    const checks: Check[] = [];
    checks.push(expectThrow('solve of a 2×3 A', () => linalg.solve([[1, 2, 3], [4, 5, 6]], [[1], [2]]), ShapeError, 'solve'));
    checks.push(expectThrow('ShapeError is a RangeError', () => linalg.solve([[1, 2, 3], [4, 5, 6]], [[1], [2]]), RangeError, 'solve'));
    checks.push(expectThrow('inv of a singular matrix', () => linalg.inv([[1, 2], [2, 4]]), LinAlgError, 'inv'));
    checks.push(expectThrow('svd of int32', () => linalg.svd(tensor([[1, 2], [3, 4]], { dtype: 'int32' })), DTypeError, 'svd'));
    checks.push(expectThrow('qr with mode "thin"', () => linalg.qr([[1, 2], [3, 4]], { mode: 'thin' as 'r' }), ArgumentError, 'qr'));
    const { info } = linalg.invEx([[1, 2], [2, 4]]);
    checks.push({ what: 'invEx of a singular 2×2: info − 2', value: Math.abs((info.dataSync() as Int32Array)[0] - 2), max: 0 });
    return { checks };
  },

  'gpu: init through navigator.gpu, first-call latency': async () => {
    const t0 = performance.now();
    const info = await gpu.init();
    const tInit = performance.now() - t0;
    if (info.source !== 'navigator.gpu') throw new Error(`gpu.init used ${info.source}`);
    const A = randn([64, 64], { dtype: 'float32', seed: 1 });
    const time = async (f: () => Tensor) => {
      const s = performance.now();
      await f().data();
      return performance.now() - s;
    };
    const matmulFirst = await time(() => linalg.matmul(A.to('gpu'), A.to('gpu')));
    const matmulSecond = await time(() => linalg.matmul(A.to('gpu'), A.to('gpu')));
    const Ab = conditioned(4, 'float32', 2, [1000]);
    const invFirst = await time(() => linalg.inv(Ab.to('gpu')));
    const invSecond = await time(() => linalg.inv(Ab.to('gpu')));
    Object.assign(gpuInfo, {
      vendor: info.vendor, architecture: info.architecture, description: info.description, isSoftware: info.isSoftware,
      subnormals: info.subnormals, maxStorageBufferBindingSize: info.limits.maxStorageBufferBindingSize,
    });
    return {
      checks: [{ what: 'gpu.init ms', value: tInit, max: 60_000 }],
      info: {
        adapter: { ...gpuInfo },
        ms: { init: tInit, matmul64First: matmulFirst, matmul64Second: matmulSecond, inv4x4x1000First: invFirst, inv4x4x1000Second: invSecond },
      },
    };
  },

  'gpu: matmul float32 against the CPU': async () => {
    await gpu.init();
    const checks: Check[] = [];
    for (const [m, k, n, batch] of [[96, 80, 72, []], [1, 300, 1, []], [130, 65, 129, []], [16, 16, 16, [8]]] as Array<[number, number, number, number[]]>) {
      const A = randn([...batch, m, k], { dtype: 'float32', seed: m });
      const B = randn([...batch, k, n], { dtype: 'float32', seed: n + 1 });
      const C = await host(linalg.matmul(A.to('gpu'), B.to('gpu')));
      const ref = linalg.matmul(tensor(A, { dtype: 'float64' }), tensor(B, { dtype: 'float64' })).dataSync() as Arr;
      let worst = 0;
      for (let b = 0; b < C.length / (m * n); b++) {
        worst = Math.max(worst, fro(item(C, b, m * n), item(ref, b, m * n)) / (fro(item(A.dataSync() as Arr, b, m * k)) * fro(item(B.dataSync() as Arr, b, k * n)) * k * EPS32));
      }
      checks.push({ what: `${m}×${k}·${k}×${n} batch=[${batch}] ‖C − C_cpu‖/(‖A‖‖B‖·k·eps32)`, value: worst, max: 30 });
    }
    return { checks };
  },

  'gpu: 20000 batched 4×4 inverses, ‖A·X − I‖': async () => {
    await gpu.init();
    const checks: Check[] = [];
    for (const n of [2, 3, 4]) {
      const count = 20000;
      const A = randn([count, n, n], { dtype: 'float32', seed: 40 + n });
      const s = performance.now();
      const { inverse, info } = linalg.invEx(A.to('gpu'));
      const X = await host(inverse);
      const ms = performance.now() - s;
      const inf = await info.data() as Int32Array;
      const a = A.dataSync() as Arr;
      let worst = 0, singular = 0;
      for (let b = 0; b < count; b++) {
        if (inf[b] !== 0) { singular++; continue; }
        const ab = item(a, b, n * n), xb = item(X, b, n * n);
        worst = Math.max(worst, fro(mm(ab, xb, n, n, n), eye(n)) / (fro(ab) * fro(xb) * n * EPS32));
      }
      checks.push({ what: `${count}×${n}×${n} max ‖A·X − I‖/(‖A‖‖X‖·n·eps32) (${ms.toFixed(0)} ms)`, value: worst, max: 30 });
      checks.push({ what: `${count}×${n}×${n} matrices reported singular`, value: singular, max: 0 });
    }
    return { checks };
  },

  'gpu: solve 64×64 with 8 right-hand sides against the CPU': async () => {
    await gpu.init();
    const n = 64, k = 8;
    const A = conditioned(n, 'float32', 21);
    const B = randn([n, k], { dtype: 'float32', seed: 22 });
    const X = await host(linalg.solve(A.to('gpu'), B.to('gpu')));
    const Xcpu = linalg.solve(tensor(A, { dtype: 'float64' }), tensor(B, { dtype: 'float64' })).dataSync() as Arr;
    return {
      checks: [
        { what: '‖AX−B‖/(‖A‖‖X‖·n·eps32)', value: solveRatio(A.dataSync() as Arr, X, B.dataSync() as Arr, n, k, EPS32), max: 30 },
        // cond(A) is below 10 here, so the GPU's float32 solution agrees with the float64 one to a few eps32
        { what: '‖X − X_cpu‖/(‖X_cpu‖·n·eps32)', value: fro(X, Xcpu) / (fro(Xcpu) * n * EPS32), max: 30 },
      ],
    };
  },

  'gpu: svd 24×16 against the CPU singular values': async () => {
    await gpu.init();
    const m = 24, n = 16;
    const A = randn([m, n], { dtype: 'float32', seed: 31 });
    const S = await host(linalg.svdvals(A.to('gpu')));
    const Scpu = linalg.svdvals(tensor(A, { dtype: 'float64' })).dataSync() as Arr;
    return { checks: [{ what: 'max|S − S_cpu|/(S_max·n·eps32)', value: Math.max(...Array.from(S, (s, i) => Math.abs(s - Scpu[i]))) / (Scpu[0] * n * EPS32), max: 30 }] };
  },

  'gpu: errors are typed (float64 on the GPU, dumpWgsl in a browser)': async () => {
    await gpu.init();
    const checks: Check[] = [];
    checks.push(expectThrow('a float64 tensor moved to the GPU', () => tensor([[1, 2], [3, 4]]).to('gpu'), DTypeError, 'float64'));
    checks.push(await expectReject('gpu.init({ dumpWgsl })', () => gpu.init({ dumpWgsl: '/tmp/wgsl' }), ArgumentError, 'dumpWgsl'));
    const Ag = tensor([[1, 2], [3, 4]], { dtype: 'float32' }).to('gpu');
    checks.push(expectThrow('dataSync of a GPU tensor', () => Ag.dataSync(), DeviceError, 'dataSync'));
    const S = linalg.inv(tensor([[1, 2], [2, 4]], { dtype: 'float32' }).to('gpu'));
    checks.push(await expectReject('inv of a singular matrix on the GPU, at the read', () => S.data(), LinAlgError, 'inv'));
    return { checks };
  },
};

const missing = CASES.filter((c) => !(c in cases));
const extra = Object.keys(cases).filter((c) => !CASES.includes(c));
if (missing.length || extra.length) throw new Error(`suite.ts and cases.ts disagree: missing ${missing}, extra ${extra}`);

async function run(name: string): Promise<CaseResult> {
  const s = performance.now();
  try {
    const r = await cases[name]();
    return { ...r, ms: performance.now() - s };
  } catch (e) {
    const err = e as Error;
    return { checks: [], error: `${err?.name}: ${err?.message}\n${err?.stack ?? ''}`, ms: performance.now() - s };
  }
}

/** For a page served without lapis.wasm: the CPU's error, and a GPU inverse (no CPU op on the way). */
async function withoutWasm(): Promise<{ cpuError: string; gpuInverse: number[] }> {
  let cpuError = 'no error';
  try {
    cpuBackend();
  } catch (e) {
    cpuError = `${(e as Error).name}${e instanceof DeviceError ? ' (DeviceError)' : ''}: ${(e as Error).message}`;
  }
  await gpu.init();
  const A = tensor({ data: new Float32Array([4, 7, 2, 6]), shape: [2, 2] }).to('gpu');
  return { cpuError, gpuInverse: Array.from(await linalg.inv(A).data() as Float32Array) };
}

(window as unknown as { lapisSuite: unknown }).lapisSuite = { names: CASES, run, withoutWasm };
document.getElementById('log')!.textContent = 'lapis loaded';
