// The abuse scenarios (issue 10): each runs alone in a child process (child.mjs), so a
// crash or hang takes down only that child and the parent (scenarios.test.ts) reports it.
// A scenario returns a short note when the library behaved (refused with a typed error,
// reported a status, or gave the right answer, checked here in float64), and throws a
// Verdict for a wrong outcome. Options: timeoutMs (default 60 s), ulimitKb (`ulimit -v`).
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import {
  fail, isTyped, describeError, outcome, expectTyped, typedOrRight, randomArray, EPS, solveRatio,
  invRatio, luRatio, allFinite, anyNaN, sameShape, matvec, normInf,
} from './util.mjs';

const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));

function runWorker(task, extra = {}) {
  return new Worker(WORKER, { workerData: { task, ...extra }, env: process.env });
}

function exited(w) {
  return new Promise((resolve, reject) => {
    w.once('error', reject);
    w.once('exit', resolve);
  });
}

function waitMessage(w, type) {
  return new Promise((resolve, reject) => {
    const on = (m) => { if (m?.type === type) { w.off('message', on); resolve(m); } };
    w.on('message', on);
    w.once('error', reject);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tensorOf(lib, data, shape) {
  return lib.tensor({ data, shape });
}

/** A well-conditioned random n×n matrix: random plus n on the diagonal. */
function wellConditioned(n, seed, Ctor = Float64Array) {
  const a = randomArray(n * n, seed, Ctor);
  for (let i = 0; i < n; i++) a[i * n + i] += n;
  return a;
}

/**
 * Detaches a typed array's buffer and frees the memory now: the transferred copy is dropped
 * and collected (children run with --expose-gc), so a kernel still reading it faults.
 */
function detachAndCollect(a) {
  structuredClone(a.buffer, { transfer: [a.buffer] });
  globalThis.gc?.();
}

/** The result of an async op on input `data`, raced by `mutate` right after the call starts. */
async function raced(lib, what, start, mutate) {
  const p = outcome(start); // the call starts synchronously up to its first await
  mutate();
  const r = await p;
  if ('error' in r) {
    if (!isTyped(lib, r.error)) fail(`${what}: rejected with ${describeError(r.error)}, not a typed error`);
    return { note: `${what}: refused (${r.error.name})` };
  }
  return { value: r.value };
}

export const scenarios = {
  // ---- bad shapes and dtypes (items 12, 16, 17) -------------------------------------------
  'shapes: reshape refuses negative, fractional, NaN, huge and non-array shapes': {
    async run(lib) {
      const t = lib.zeros([4, 4]);
      for (const s of [[-2, -8], [0.5, 32], [NaN, 16], [Infinity], [2 ** 53, 2], '16', null, [16, '1'], [1, 2, 3]]) {
        await expectTyped(lib, `reshape(${JSON.stringify(s)})`, () => t.reshape(s));
      }
      for (const s of [[-1, 2], [2.5], [2 ** 40, 2 ** 40], {}, 'abc']) {
        await expectTyped(lib, `zeros(${JSON.stringify(s)})`, () => lib.zeros(s));
        await expectTyped(lib, `tensor({ data: [], shape: ${JSON.stringify(s)} })`, () => lib.tensor({ data: [], shape: s }));
      }
      return 'all refused with typed errors';
    },
  },
  'shapes: bad data (strings, objects, BigInt arrays) is refused at tensor()': {
    async run(lib) {
      await expectTyped(lib, "tensor({ data: ['1', '2'] })", () => lib.tensor({ data: ['1', '2'], shape: [2] }));
      await expectTyped(lib, 'tensor([[1, "x"]])', () => lib.tensor([[1, 'x']]));
      await expectTyped(lib, 'tensor([[1, 2], [3]])', () => lib.tensor([[1, 2], [3]]));
      await expectTyped(lib, 'tensor(BigInt64Array)', () => lib.tensor({ data: new BigInt64Array(2), shape: [2] }));
      await expectTyped(lib, 'tensor(null)', () => lib.tensor(null));
      await expectTyped(lib, 'tensor(undefined)', () => lib.tensor(undefined));
      await expectTyped(lib, "tensor(1, { dtype: 'bfloat16' })", () => lib.tensor(1, { dtype: 'bfloat16' }));
      return 'refused';
    },
  },
  'shapes: a SharedArrayBuffer tensor is refused or works': {
    async run(lib) {
      const n = 4;
      const sab = new SharedArrayBuffer(n * n * 8);
      const a = new Float64Array(sab);
      a.set(wellConditioned(n, 3));
      const r = await outcome(() => lib.tensor({ data: a, shape: [n, n] }));
      if ('error' in r) {
        if (!isTyped(lib, r.error)) fail(`tensor(SharedArrayBuffer): ${describeError(r.error)}`);
        return 'refused at tensor()';
      }
      const notes = [];
      notes.push(await typedOrRight(lib, 'inv', () => lib.linalg.inv(r.value), (X) => {
        const q = invRatio(a, X.dataSync(), n, EPS.float64);
        if (!(q < 30)) fail(`inv of a SharedArrayBuffer tensor: ratio ${q}`);
      }));
      notes.push(await typedOrRight(lib, 'solveAsync', () => lib.linalg.solveAsync(r.value, lib.tensor([[1], [2], [3], [4]])), (X) => {
        const q = solveRatio(a, X.dataSync(), Float64Array.from([1, 2, 3, 4]), n, 1, EPS.float64);
        if (!(q < 30)) fail(`solveAsync of a SharedArrayBuffer tensor: ratio ${q}`);
      }));
      if (notes.some((s) => !s.endsWith('right answer')) && notes.some((s) => s.endsWith('right answer'))) {
        fail(`accepted by tensor() but refused by some ops only: ${notes.join('; ')}`);
      }
      return notes.join('; ');
    },
  },
  'options: null, non-object, non-boolean and unknown options are typed errors': {
    async run(lib) {
      const A = lib.tensor([[2, 1], [1, 3]]), B = lib.tensor([[1], [2]]);
      const L = lib.linalg;
      const calls = {
        'pinv(A, null)': () => L.pinv(A, null),
        "pinv(A, { hermitian: 'no' })": () => L.pinv(A, { hermitian: 'no' }),
        'pinv(A, { rtol: NaN })': () => L.pinv(A, { rtol: NaN }),
        'pinv(A, { atol: -1 })': () => L.pinv(A, { atol: -1 }),
        'matrixRank(A, 5)': () => L.matrixRank(A, 5),
        'svd(A, null)': () => L.svd(A, null),
        'svd(A, { fullMatrices: 1 })': () => L.svd(A, { fullMatrices: 1 }),
        "qr(A, { mode: 'thin' })": () => L.qr(A, { mode: 'thin' }),
        'qr(A, null)': () => L.qr(A, null),
        'solve(A, B, null)': () => L.solve(A, B, null),
        "solve(A, B, { left: 'yes' })": () => L.solve(A, B, { left: 'yes' }),
        'solveTriangular(A, B, null)': () => L.solveTriangular(A, B, null),
        'solveTriangular(A, B, {})': () => L.solveTriangular(A, B, {}),
        'lstsq(A, B, null)': () => L.lstsq(A, B, null),
        "lstsq(A, B, { rcond: 'x' })": () => L.lstsq(A, B, { rcond: 'x' }),
        'luSolve(LU, piv, B, null)': () => { const f = L.luFactor(A); return L.luSolve(f.LU, f.pivots, B, null); },
        'luSolve(LU, [1.5, 2], B)': () => L.luSolve(L.luFactor(A).LU, [1.5, 2], B),
        'luSolve(LU, [1000, -5], B)': () => L.luSolve(L.luFactor(A).LU, [1000, -5], B),
        'luSolve(LU, [0, 1], B) (0-based)': () => L.luSolve(L.luFactor(A).LU, [0, 1], B),
        "norm(A, 'bogus')": () => L.norm(A, 'bogus'),
        'norm(A, 2, null)': () => L.norm(A, 2, null),
        'gpu.memory({ maxPooledBytes: NaN })': () => lib.gpu.memory({ maxPooledBytes: NaN }),
        'gpu.memory(null)': () => lib.gpu.memory(null),
        "logspace(0, 1, 2.5)": () => lib.logspace(0, 1, 2.5),
        "logspace(0, 1, 3, { base: 'e' })": () => lib.logspace(0, 1, 3, { base: 'e' }),
        'logspace(0, 1, 3, null)': () => lib.logspace(0, 1, 3, null),
        "tensor(1, { device: 'tpu' })": () => lib.tensor(1, { device: 'tpu' }),
        'setNumThreads(-1)': () => lib.setNumThreads(-1),
        'setNumThreads(1.5)': () => lib.setNumThreads(1.5),
        "setNumThreads('2')": () => lib.setNumThreads('2'),
        'gdn.chunkedForward(null)': () => lib.gdn.chunkedForward(null),
      };
      for (const [what, f] of Object.entries(calls)) await expectTyped(lib, what, f);
      return `${Object.keys(calls).length} calls refused with typed errors`;
    },
  },
  'zero-size batches broadcast to empty results (item 15)': {
    async run(lib) {
      const L = lib.linalg, z = lib.zeros;
      sameShape(L.matmul(z([0, 3, 2]), z([2, 4])), [0, 3, 4], 'matmul(0×3×2, 2×4)');
      sameShape(L.matmul(z([2, 3]), z([0, 3, 4])), [0, 2, 4], 'matmul(2×3, 0×3×4)');
      sameShape(L.solve(z([0, 3, 3]), z([3, 2])), [0, 3, 2], 'solve(0×3×3, 3×2)');
      sameShape(L.inv(z([0, 3, 3])), [0, 3, 3], 'inv(0×3×3)');
      sameShape(L.det(z([0, 2, 2])), [0], 'det(0×2×2)');
      const f = L.luFactor(z([0, 3, 3]));
      sameShape(L.luSolve(f.LU, f.pivots, z([3, 1])), [0, 3, 1], 'luSolve(0×3×3, 3×1)');
      sameShape(L.solveTriangular(z([0, 3, 3]), z([3, 2]), { upper: true }), [0, 3, 2], 'solveTriangular(0×3×3, 3×2)');
      sameShape(L.lstsq(z([0, 4, 3]), z([4, 2])).solution, [0, 3, 2], 'lstsq(0×4×3, 4×2)');
      sameShape(lib.gdn.chunkSolve(z([0, 16, 16]), z([16, 8])), [0, 16, 8], 'gdn.chunkSolve(0×16×16, 16×8)');
      sameShape(L.svdvals(z([0, 3, 2])), [0, 2], 'svdvals(0×3×2)');
      const d = L.det(z([0, 0])).dataSync()[0];
      if (d !== 1) fail(`det of a 0×0 matrix is ${d}, expected 1`);
      return 'empty results of the broadcast shape';
    },
  },

  // ---- lifetimes (item 17) ---------------------------------------------------------------
  'lifetimes: every use of a disposed tensor is a DeviceError, dispose twice is harmless': {
    async run(lib) {
      const t = lib.tensor([[4, 1], [1, 3]]);
      t.dispose();
      t.dispose();
      const uses = {
        dataSync: () => t.dataSync(), data: () => t.data(), toArray: () => t.toArray(),
        reshape: () => t.reshape([4]), "to('cpu')": () => t.to('cpu'), 'tensor(t)': () => lib.tensor(t),
        inv: () => lib.linalg.inv(t), invAsync: () => lib.linalg.invAsync(t), matmul: () => lib.linalg.matmul(t, t),
        svd: () => lib.linalg.svd(t), 'solve(A, disposed)': () => lib.linalg.solve(lib.eye(2), t),
        frexp: () => lib.frexp(t),
      };
      for (const [what, f] of Object.entries(uses)) await expectTyped(lib, `disposed ${what}`, f, lib.DeviceError);
      return 'DeviceError each time';
    },
  },
  'lifetimes: dispose while an async call runs': {
    async run(lib) {
      const n = 400, a = wellConditioned(n, 5);
      const A = tensorOf(lib, a.slice(), [n, n]);
      const r = await raced(lib, 'invAsync then dispose', () => lib.linalg.invAsync(A), () => A.dispose());
      if (r.note) return r.note;
      const q = invRatio(a, r.value.dataSync(), n, EPS.float64);
      if (!(q < 30)) fail(`invAsync with its input disposed mid-call: ratio ${q}`);
      return 'right answer';
    },
  },
  'lifetimes: a tensor on a detached buffer is refused': {
    async run(lib) {
      const a = new Float64Array([4, 1, 1, 3]);
      const A = tensorOf(lib, a, [2, 2]);
      structuredClone(a.buffer, { transfer: [a.buffer] });
      for (const [what, f] of Object.entries({
        inv: () => lib.linalg.inv(A), invAsync: () => lib.linalg.invAsync(A), det: () => lib.linalg.det(A),
        matmul: () => lib.linalg.matmul(A, A), svd: () => lib.linalg.svd(A), toArray: () => A.toArray(),
      })) await expectTyped(lib, `detached ${what}`, f);
      return 'typed errors';
    },
  },

  // ---- async races (item 1) ---------------------------------------------------------------
  'async: transfer the input buffer during luFactorAsync and invAsync (batch of 64 160×160)': {
    async run(lib) {
      // a batch is read matrix by matrix while the call runs: the late ones after the transfer
      const n = 160, count = 64, notes = [];
      for (const op of ['luFactorAsync', 'invAsync']) {
        const a = new Float64Array(count * n * n);
        for (let b = 0; b < count; b++) a.set(wellConditioned(n, 300 + b), b * n * n);
        const orig = a.slice();
        const A = tensorOf(lib, a, [count, n, n]);
        const r = await raced(lib, op, () => lib.linalg[op](A), () => detachAndCollect(a));
        if (r.note) { notes.push(r.note); continue; }
        for (let b = 0; b < count; b++) {
          const Ab = orig.subarray(b * n * n, (b + 1) * n * n);
          const q = op === 'invAsync'
            ? invRatio(Ab, r.value.dataSync().subarray(b * n * n, (b + 1) * n * n), n, EPS.float64)
            : luRatio(Ab, r.value.LU.dataSync().subarray(b * n * n, (b + 1) * n * n), r.value.pivots.dataSync().subarray(b * n, (b + 1) * n), n, EPS.float64);
          if (!(q < 30)) fail(`${op} with its buffer transferred mid-call: matrix ${b} has ratio ${q}`);
        }
        notes.push(`${op}: right answer (input copied)`);
      }
      return notes.join(', ');
    },
  },
  'async: shrink a resizable input buffer during solveAsync (batch of 64 160×160)': {
    async run(lib) {
      const n = 160, count = 64, bytes = count * n * n * 8;
      const ab = new ArrayBuffer(bytes, { maxByteLength: bytes });
      const a = new Float64Array(ab);
      for (let b = 0; b < count; b++) a.set(wellConditioned(n, 400 + b), b * n * n);
      const orig = a.slice(), B = randomArray(count * n, 23);
      const made = await outcome(() => tensorOf(lib, a, [count, n, n]));
      if ('error' in made) {
        if (!isTyped(lib, made.error)) fail(`tensor(resizable): ${describeError(made.error)}`);
        return 'refused at tensor()';
      }
      const r = await raced(lib, 'solveAsync', () => lib.linalg.solveAsync(made.value, tensorOf(lib, B, [count, n, 1])), () => {
        ab.resize(8);
        globalThis.gc?.();
      });
      if (r.note) return r.note;
      const X = r.value.dataSync();
      for (let b = 0; b < count; b++) {
        const q = solveRatio(orig.subarray(b * n * n, (b + 1) * n * n), X.subarray(b * n, (b + 1) * n), B.subarray(b * n, (b + 1) * n), n, 1, EPS.float64);
        if (!(q < 30)) fail(`solveAsync with its input shrunk mid-call: system ${b} has ratio ${q}`);
      }
      return 'right answer (input copied)';
    },
  },
  'async: transfer B during solveAsync': {
    async run(lib) {
      const n = 900, a = wellConditioned(n, 24), b = randomArray(n * 2, 25), bOrig = b.slice();
      const r = await raced(lib, 'solveAsync', () => lib.linalg.solveAsync(tensorOf(lib, a, [n, n]), tensorOf(lib, b, [n, 2])),
        () => detachAndCollect(b));
      if (r.note) return r.note;
      const q = solveRatio(a, r.value.dataSync(), bOrig, n, 2, EPS.float64);
      if (!(q < 30)) fail(`solveAsync with B transferred mid-call: ratio ${q}`);
      return 'right answer';
    },
  },
  'async: mutating the inputs after invAsync/solveAsync start does not change the result': {
    async run(lib) {
      // async calls copy their inputs when they start (docs): a later write is not seen
      const n = 160, count = 48;
      const a = new Float64Array(count * n * n);
      for (let b = 0; b < count; b++) a.set(wellConditioned(n, 500 + b), b * n * n);
      const orig = a.slice(), B = randomArray(count * n, 27), bOrig = B.slice();
      const A = tensorOf(lib, a, [count, n, n]);
      const double = (x) => { for (let i = 0; i < x.length; i++) x[i] *= 2; };
      const ri = await raced(lib, 'invAsync', () => lib.linalg.invAsync(A), () => double(a));
      a.set(orig);
      const rs = await raced(lib, 'solveAsync', () => lib.linalg.solveAsync(A, tensorOf(lib, B, [count, n, 1])), () => { double(a); double(B); });
      for (const r of [ri, rs]) if (r.note) fail(`${r.note}: an async call must not refuse plain inputs`);
      const X = ri.value.dataSync(), Y = rs.value.dataSync();
      for (let b = 0; b < count; b++) {
        const Ab = orig.subarray(b * n * n, (b + 1) * n * n);
        const q1 = invRatio(Ab, X.subarray(b * n * n, (b + 1) * n * n), n, EPS.float64);
        if (!(q1 < 30)) fail(`invAsync, input doubled after the call started: matrix ${b} is not inv(A) (ratio ${q1})`);
        const q2 = solveRatio(Ab, Y.subarray(b * n, (b + 1) * n), bOrig.subarray(b * n, (b + 1) * n), n, 1, EPS.float64);
        if (!(q2 < 30)) fail(`solveAsync, inputs doubled after the call started: system ${b} is not A⁻¹b (ratio ${q2})`);
      }
      return 'results of the inputs at the call';
    },
  },

  // ---- workers and the thread pool (items 2, 4) --------------------------------------------
  'workers: terminate() with invAsync in flight': {
    async run(lib) {
      for (let round = 0; round < 3; round++) {
        const w = runWorker('asyncLoop', { n: 500 });
        await waitMessage(w, 'started');
        await sleep(30 + 40 * round);
        await w.terminate();
      }
      const n = 50, a = wellConditioned(n, 31);
      const q = invRatio(a, (await lib.linalg.invAsync(tensorOf(lib, a, [n, n]))).dataSync(), n, EPS.float64);
      if (!(q < 30)) fail(`inv after the terminated workers: ratio ${q}`);
      return 'main thread alive and right';
    },
  },
  'workers: process.exit() in a worker with async calls in flight': {
    async run(lib) {
      for (let round = 0; round < 3; round++) {
        const w = runWorker('exitMidCall', { n: 500, delay: 20 * round });
        const code = await exited(w);
        if (code !== 7) fail(`worker exit code ${code}, expected 7`);
      }
      const n = 40, a = wellConditioned(n, 32);
      const q = invRatio(a, lib.linalg.inv(tensorOf(lib, a, [n, n])).dataSync(), n, EPS.float64);
      if (!(q < 30)) fail(`inv after the exiting workers: ratio ${q}`);
      return 'main thread alive and right';
    },
  },
  'workers: two workers running inv in a loop, and the main thread too': {
    timeoutMs: 90_000,
    async run(lib) {
      const ws = [runWorker('invLoop', { n: 96, iters: 150, seed: 1 }), runWorker('invLoop', { n: 128, iters: 100, seed: 2 })];
      const done = ws.map((w) => waitMessage(w, 'done'));
      const n = 64;
      for (let i = 0; i < 100; i++) {
        const a = wellConditioned(n, 100 + i);
        const q = invRatio(a, lib.linalg.inv(tensorOf(lib, a, [n, n])).dataSync(), n, EPS.float64);
        if (!(q < 30)) fail(`main-thread inv ${i}: ratio ${q}`);
      }
      for (const m of await Promise.all(done)) if (m.bad) fail(`worker: ${m.bad}`);
      await Promise.all(ws.map((w) => w.terminate()));
      return 'all inverses right, no deadlock';
    },
  },
  'threads: setNumThreads flips during async solves and inverses': {
    async run(lib) {
      const L = lib.linalg, count = 256, n = 8;
      const A = wellConditioned(n, 41), stack = new Float64Array(count * n * n), B = randomArray(count * n, 42);
      for (let b = 0; b < count; b++) stack.set(wellConditioned(n, 1000 + b), b * n * n);
      const At = tensorOf(lib, stack, [count, n, n]), Bt = tensorOf(lib, B, [count, n, 1]);
      let stop = false, bad = '';
      const loop = async (useInv) => {
        for (let it = 0; it < 60 && !bad; it++) {
          const X = (await (useInv ? L.invAsync(At) : L.solveAsync(At, Bt))).dataSync();
          const b = it % count, Ab = stack.subarray(b * n * n, (b + 1) * n * n);
          const q = useInv ? invRatio(Ab, X.subarray(b * n * n, (b + 1) * n * n), n, EPS.float64)
            : solveRatio(Ab, X.subarray(b * n, (b + 1) * n), B.subarray(b * n, (b + 1) * n), n, 1, EPS.float64);
          if (!(q < 30)) bad = `${useInv ? 'invAsync' : 'solveAsync'} iteration ${it}: ratio ${q}`;
        }
      };
      const flipper = (async () => {
        for (let i = 0; !stop; i++) { lib.setNumThreads(1 + (i % 2)); await sleep(0); }
      })();
      await Promise.all([loop(true), loop(false), loop(true), loop(false)]);
      stop = true;
      await flipper;
      if (bad) fail(bad);
      const q = invRatio(A, L.inv(tensorOf(lib, A, [n, n])).dataSync(), n, EPS.float64);
      if (!(q < 30)) fail(`inv after the flips: ratio ${q}`);
      return 'no deadlock, answers right';
    },
  },
  'threads: a worker flips setNumThreads while the main thread factors': {
    timeoutMs: 90_000,
    async run(lib) {
      const w = runWorker('flipThreads', { ms: 1500 });
      const n = 160;
      const end = Date.now() + 1500;
      for (let i = 0; Date.now() < end; i++) {
        const a = wellConditioned(n, 200 + i);
        const f = await lib.linalg.luFactorAsync(tensorOf(lib, a.slice(), [n, n]));
        const q = luRatio(a, f.LU.dataSync(), f.pivots.dataSync(), n, EPS.float64);
        if (!(q < 30)) fail(`luFactorAsync ${i}: ratio ${q}`);
      }
      await exited(w);
      return 'no deadlock';
    },
  },

  // ---- allocation failure (item 3) ---------------------------------------------------------
  'memory: qr, svd, pinv, lstsq of a 2^22×12 matrix under ulimit -v 2 GB': {
    ulimitKb: 2_000_000,
    timeoutMs: 120_000,
    async run(lib) {
      const m = 2 ** 22, n = 12, L = lib.linalg;
      const made = await outcome(() => lib.zeros([m, n]));
      if ('error' in made) fail(`could not even create the input under the limit: ${describeError(made.error)}`);
      const A = made.value;
      const notes = [];
      // the contract: a typed error (the registry names the op in the engine's bare
      // RangeError of a failed allocation, which came from wherever the limit struck)
      const allocOk = () => (e) => e instanceof Error && isTyped(lib, e);
      for (const [what, f, check] of [
        ['qr', () => L.qr(A), (r) => { if (anyNaN(r.R.dataSync())) fail('qr: NaN in R'); }],
        ['svd', () => L.svd(A), (r) => { if (anyNaN(r.S.dataSync())) fail('svd: NaN in S'); }],
        ['pinv', () => L.pinv(A), (r) => { if (anyNaN(r.dataSync())) fail('pinv: NaN'); }],
        ['lstsq', () => L.lstsq(A, lib.zeros([m, 1])), (r) => { if (anyNaN(r.solution.dataSync())) fail('lstsq: NaN'); }],
        ['luFactorAsync', () => L.luFactorAsync(A), (r) => { if (anyNaN(r.LU.dataSync().subarray(0, 144))) fail('lu: NaN'); }],
      ]) {
        const r = await outcome(f);
        if ('error' in r) {
          if (!allocOk(what)(r.error)) fail(`${what} under a memory limit: ${describeError(r.error)} (want a typed error naming the op)`);
          notes.push(`${what}: ${r.error.name}`);
        } else {
          check(r.value);
          notes.push(`${what}: ok`);
        }
      }
      return notes.join(', ');
    },
  },

  // ---- numerical edge cases (items 5-11, 18, 19) --------------------------------------------
  'numerics: float32 SVD and QR at subnormal scale (1e-45 … 1e-38)': {
    async run(lib) {
      const L = lib.linalg, notes = [];
      for (const scale of [1e-45, 1e-42, 1e-40, 1e-39, 1e-38]) {
        const base = [1, 2, 3, 5, 4, 7];
        const a32 = Float32Array.from(base, (x) => x * scale);
        const exact = Float64Array.from(a32); // the float32 values, exactly
        const A = lib.tensor({ data: a32, shape: [3, 2] });
        // reference: the float64 SVD of the same (exactly representable) values
        const ref = L.svdvals(lib.tensor({ data: exact.map((x) => x / scale), shape: [3, 2] })).dataSync();
        const r = L.svdEx(A);
        const info = r.info.dataSync()[0];
        const S = r.S.dataSync(), U = r.U.dataSync();
        if (info === 0) {
          if (!allFinite(S) || !allFinite(U)) fail(`svdEx float32 at scale ${scale}: info 0 with S=[${S}] and non-finite U`);
          for (let i = 0; i < 2; i++) {
            const want = ref[i] * scale;
            // backward stable: error ≤ c·eps·S_max, plus a few steps of the subnormal grid (2^-149)
            const tol = 16 * 2 ** -24 * ref[0] * scale + 4 * 2 ** -149;
            if (!(Math.abs(S[i] - want) <= tol)) fail(`svdEx float32 at scale ${scale}: S[${i}] = ${S[i]}, expected ${want}`);
          }
        } else notes.push(`svd ${scale}: info ${info}`);
        const q = await outcome(() => L.qr(A));
        if ('error' in q) {
          if (!isTyped(lib, q.error)) fail(`qr float32 at scale ${scale}: ${describeError(q.error)}`);
          notes.push(`qr ${scale}: ${q.error.name}`);
        } else {
          const Q = q.value.Q.dataSync(), R = q.value.R.dataSync();
          if (!allFinite(Q) || !allFinite(R)) fail(`qr float32 at scale ${scale}: non-finite Q or R (Q=[${Q}])`);
          for (let i = 0; i < 3; i++) for (let j = 0; j < 2; j++) {
            let s = 0;
            for (let k = 0; k < 2; k++) s += Q[i * 2 + k] * R[k * 2 + j];
            if (!(Math.abs(s - exact[i * 2 + j]) <= 64 * 2 ** -24 * normInf(exact) + 8 * 2 ** -149)) {
              fail(`qr float32 at scale ${scale}: (Q·R)[${i},${j}] = ${s}, A = ${exact[i * 2 + j]}`);
            }
          }
        }
      }
      return notes.length ? notes.join(', ') : 'right at every scale';
    },
  },
  'numerics: lstsq at subnormal scale (float64 ~1e-310)': {
    async run(lib) {
      const s = 1e-310;
      const base = [1, 2, 3, 4, 5, 7, 2, 9, 1, 8, 8, 2];
      const A = Float64Array.from(base, (x) => x * s);
      const xTrue = [1, -2, 3];
      const b = matvec(A, 4, 3, xTrue); // subnormal too
      const r = lib.linalg.lstsq(lib.tensor({ data: A, shape: [4, 3] }), lib.tensor({ data: b, shape: [4, 1] }));
      const x = r.solution.dataSync(), rank = r.rank.dataSync()[0];
      if (anyNaN(x)) fail(`lstsq at 1e-310: NaN solution with rank ${rank}`);
      if (rank === 3) {
        // b holds rounding at the subnormal grid (~5e-324 absolute, i.e. ~5e-14 relative)
        for (let i = 0; i < 3; i++) if (!(Math.abs(x[i] - xTrue[i]) < 1e-9)) fail(`lstsq at 1e-310: x = [${x}], expected [${xTrue}]`);
        return 'right answer, full rank';
      }
      return `rank ${rank} reported`;
    },
  },
  'numerics: column-graded SVD (scales 1e-150 … 1e150): converges or reports; pinv never NaN silently': {
    async run(lib) {
      const L = lib.linalg, notes = [];
      for (const n of [10, 64]) {
        const a = randomArray(n * n, 50 + n);
        for (let j = 0; j < n; j++) {
          const c = 10 ** (-150 + (300 * j) / (n - 1));
          for (let i = 0; i < n; i++) a[i * n + j] *= c;
        }
        const A = lib.tensor({ data: a, shape: [n, n] });
        const r = L.svdEx(A);
        const info = r.info.dataSync()[0], S = r.S.dataSync();
        if (info === 0) {
          if (!allFinite(S)) fail(`svdEx ${n}×${n} graded: info 0, non-finite S`);
          for (let i = 1; i < n; i++) if (!(S[i] <= S[i - 1])) fail(`svdEx ${n}×${n} graded: S not sorted at ${i}`);
        } else notes.push(`svdEx ${n}: info ${info}`);
        const p = await outcome(() => L.pinv(A));
        if ('error' in p) {
          if (!isTyped(lib, p.error)) fail(`pinv graded: ${describeError(p.error)}`);
          notes.push(`pinv ${n}: ${p.error.name}`);
        } else if (anyNaN(p.value.dataSync())) fail(`pinv ${n}×${n} graded: NaN in the result without an error`);
      }
      return notes.length ? notes.join(', ') : 'converged, pinv finite';
    },
  },
  'numerics: solveTriangular with an exact zero on the diagonal raises (item 8)': {
    async run(lib) {
      const L = lib.linalg;
      const U = lib.tensor([[2, 1, 1], [0, 0, 3], [0, 0, 4]]), B = lib.tensor([[1], [2], [3]]);
      const e = await expectTyped(lib, 'solveTriangular(upper, zero pivot)', () => L.solveTriangular(U, B, { upper: true }), lib.LinAlgError);
      if (e.info !== 2) fail(`solveTriangular: LinAlgError info ${e.info}, expected 2 (the first zero diagonal, 1-based)`);
      if (typeof L.solveTriangularEx !== 'function') fail('linalg.solveTriangularEx is missing');
      const r = L.solveTriangularEx(U, B, { upper: true });
      if (r.info.dataSync()[0] !== 2) fail(`solveTriangularEx info ${r.info.dataSync()[0]}, expected 2`);
      // unit diagonal (the GDN path) ignores the stored zeros
      const X = L.solveTriangular(lib.tensor([[0, 0], [3, 0]]), lib.tensor([[1], [1]]), { upper: false, unitriangular: true }).dataSync();
      if (X[0] !== 1 || X[1] !== -2) fail(`unit lower solve: [${X}], expected [1, -2]`);
      return 'LinAlgError info 2';
    },
  },
  'numerics: overflow inside elimination (1e308 entries): right answer or an honest status (item 11)': {
    async run(lib) {
      const L = lib.linalg, notes = [];
      const A = [[1e308, 1e308], [1e308, -1e308]];
      const b = [[1e308], [0]];
      const s = L.solveEx(A, b);
      const info = s.info.dataSync()[0], x = s.result.dataSync();
      if (info === 0) {
        if (!(Math.abs(x[0] - 0.5) < 1e-14 && Math.abs(x[1] - 0.5) < 1e-14)) fail(`solve: x = [${x}] with info 0, expected [0.5, 0.5]`);
      } else if (info === -1) fail('solveEx reports info −1 ("NaN/Inf in the input") for a finite input');
      else notes.push(`solveEx info ${info}`);
      notes.push(await typedOrRight(lib, 'inv', () => L.inv(A), (X) => {
        const d = X.dataSync(), w = [5e-309, 5e-309, 5e-309, -5e-309];
        for (let i = 0; i < 4; i++) if (!(Math.abs(d[i] - w[i]) <= 1e-14 * 5e-309 + 5e-323)) fail(`inv: [${d}], expected [${w}]`);
      }));
      notes.push(await typedOrRight(lib, 'slogdet', () => L.slogdet(A), (r) => {
        const sign = r.sign.dataSync()[0], la = r.logabsdet.dataSync()[0], want = Math.log(2) + 616 * Math.log(10);
        if (sign !== -1 || !(Math.abs(la - want) < 1e-12 * want)) fail(`slogdet: sign ${sign}, logabsdet ${la}, expected −1, ${want}`);
      }));
      // 5×5: finite input must never be reported as non-finite
      const n = 5, a5 = randomArray(n * n, 61).map((v) => v * 1e308);
      const s5 = L.solveEx(lib.tensor({ data: a5, shape: [n, n] }), lib.tensor({ data: new Float64Array(n).fill(1e307), shape: [n, 1] }));
      const i5 = s5.info.dataSync()[0];
      if (i5 === 0) {
        const q = solveRatio(a5, s5.result.dataSync(), new Float64Array(n).fill(1e307), n, 1, EPS.float64);
        if (!(q < 30)) fail(`solveEx 5×5 at 1e308: info 0, ratio ${q}`);
      } else if (i5 === -1) fail('solveEx 5×5 of finite 1e308-scale input reports info −1 ("NaN/Inf in the input")');
      else notes.push(`5×5 info ${i5}`);
      return notes.join(', ');
    },
  },
  'numerics: exactly singular float32 8×8 (duplicated row) is flagged': {
    async run(lib) {
      const L = lib.linalg, n = 8;
      const a = randomArray(n * n, 71, Float32Array);
      for (let j = 0; j < n; j++) a[5 * n + j] = a[2 * n + j];
      const A = lib.tensor({ data: a, shape: [n, n] });
      // identical rows get identical updates; when one becomes the pivot row the other's
      // multiplier is exactly 1 and it becomes exactly zero: an exact zero pivot, any rounding
      const info = L.luFactorEx(A).info.dataSync()[0];
      if (!(info > 0)) fail(`luFactorEx of a float32 matrix with a duplicated row: info ${info}, expected > 0`);
      await expectTyped(lib, 'inv of it', () => L.inv(A), lib.LinAlgError);
      const s = L.solveEx(A, lib.tensor({ data: new Float32Array(n).fill(1), shape: [n, 1] }));
      if (s.info.dataSync()[0] !== info) fail(`solveEx info ${s.info.dataSync()[0]}, luFactorEx info ${info}`);
      return `info ${info}, inv raised`;
    },
  },
  'numerics: NaN and Inf input is reported or propagated, never finite garbage': {
    async run(lib) {
      const L = lib.linalg;
      for (const bad of [NaN, Infinity, -Infinity]) {
        const a = wellConditioned(4, 81);
        a[5] = bad;
        const A = lib.tensor({ data: a, shape: [4, 4] });
        const s = L.svdEx(A);
        if (s.info.dataSync()[0] === 0 && allFinite(s.S.dataSync())) fail(`svdEx with ${bad}: info 0 and finite S`);
        await expectTyped(lib, `svd with ${bad}`, () => L.svd(A), lib.LinAlgError);
        await expectTyped(lib, `matrixRank with ${bad}`, () => L.matrixRank(A), lib.LinAlgError);
        for (const [what, f] of [
          ['pinv', () => L.pinv(A)], ['inv', () => L.inv(A)], ['solve', () => L.solve(A, lib.tensor([[1], [1], [1], [1]]))],
          ['det', () => L.det(A)], ['lstsq', () => L.lstsq(A, lib.tensor([[1], [1], [1], [1]])).solution],
          ['qr', () => L.qr(A).R], ['norm', () => L.norm(A)], ['cond', () => L.cond(A)],
        ]) {
          const r = await outcome(f);
          if ('error' in r) {
            if (!isTyped(lib, r.error)) fail(`${what} with ${bad}: ${describeError(r.error)}`);
          } else if (allFinite(r.value.dataSync()) && what !== 'cond') fail(`${what} with ${bad}: all-finite result without an error`);
        }
      }
      return 'reported or propagated';
    },
  },
  'numerics: huge (1e300) and tiny (1e-300) scales keep relative accuracy': {
    async run(lib) {
      const L = lib.linalg, n = 8;
      const base = wellConditioned(n, 91);
      const ref = L.svdvals(lib.tensor({ data: base, shape: [n, n] })).dataSync();
      for (const s of [1e300, 1e-300, 2 ** 1000, 2 ** -1000]) {
        const a = base.map((x) => x * s);
        const S = L.svdvals(lib.tensor({ data: a, shape: [n, n] })).dataSync();
        for (let i = 0; i < n; i++) {
          if (!(Math.abs(S[i] / s - ref[i]) <= 64 * n * EPS.float64 * ref[0])) fail(`svdvals at scale ${s}: S[${i}]/s = ${S[i] / s}, expected ${ref[i]}`);
        }
        const b = randomArray(n, 92).map((x) => x * s);
        const X = L.solve(lib.tensor({ data: a, shape: [n, n] }), lib.tensor({ data: b, shape: [n, 1] })).dataSync();
        const q = solveRatio(a, X, b, n, 1, EPS.float64);
        if (!(q < 30)) fail(`solve at scale ${s}: ratio ${q}`);
      }
      return 'relative accuracy kept';
    },
  },
  'numerics: laguerrePolynomialL(x, 2^31 − 1) is fast and bounded (item 18)': {
    timeoutMs: 30_000,
    async run(lib) {
      const xs = [0.5, 1, 3];
      const t0 = Date.now();
      const r = await outcome(() => lib.special.laguerrePolynomialL(xs, [2 ** 31 - 1, 2 ** 31 - 1, 1e6]));
      const ms = Date.now() - t0;
      if (ms > 5000) fail(`laguerrePolynomialL with n = 2^31 − 1 took ${ms} ms for 3 elements`);
      if ('error' in r) {
        if (!isTyped(lib, r.error)) fail(`laguerrePolynomialL: ${describeError(r.error)}`);
        return `refused (${r.error.name}) in ${ms} ms`;
      }
      const v = r.value.dataSync();
      // |L_n(x)| ≤ e^{x/2} for x ≥ 0 (Szegő 7.21.3)
      for (let i = 0; i < 3; i++) if (!(Math.abs(v[i]) <= Math.exp(xs[i] / 2) * (1 + 1e-12))) fail(`L_n(${xs[i]}) = ${v[i]} exceeds e^{x/2}`);
      return `bounded, ${ms} ms`;
    },
  },
  'numerics: gdn.chunkedForward with a positive log-gate is refused or finite (item 19)': {
    async run(lib) {
      const Bn = 1, H = 1, Lt = 20, dk = 4, dv = 3;
      const mk = (shape, seed, f = (x) => x) => lib.tensor({ data: randomArray(shape.reduce((p, q) => p * q, 1), seed).map(f), shape });
      const input = {
        q: mk([Bn, H, Lt, dk], 1), k: mk([Bn, H, Lt, dk], 2), v: mk([Bn, H, Lt, dv], 3),
        beta: mk([Bn, H, Lt], 4, (x) => 0.5 + 0.4 * x), g: mk([Bn, H, Lt], 5, (x) => 40 + x), chunkSize: 16,
      };
      const r = await outcome(() => lib.gdn.chunkedForward(input));
      if ('error' in r) {
        if (!isTyped(lib, r.error)) fail(`chunkedForward(g > 0): ${describeError(r.error)}`);
        return `refused (${r.error.name})`;
      }
      if (anyNaN(r.value.o.dataSync()) || anyNaN(r.value.finalState.dataSync())) fail('chunkedForward with g > 0: NaN output without an error');
      return 'finite output';
    },
  },
};

