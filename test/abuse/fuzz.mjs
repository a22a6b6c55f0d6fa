// Random-argument fuzzing of every public function (issue 10, "the project's own abuse
// suite"), CPU only. Each call must return, or throw one of the library's typed errors
// (ShapeError, DTypeError, DeviceError, ArgumentError, LinAlgError): never crash the
// process, hang, throw an engine error ("Cannot read properties of null") or a bare Error,
// or return a tensor whose shape or storage is inconsistent.
//
//   node test/abuse/fuzz.mjs <group|all|fn-name> [--seed S] [--runs N] [--only K] [--progress FILE]
//
// Cases are drawn with fast-check's `sample` from a seed derived from S and the function's
// name, so adding a function does not move the others' cases; `--only K` replays case K of
// one function. The last call started is kept in --progress (the parent prints it when this
// process dies or hangs). Output: one "FUZZ-RESULT {json}" line.
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { loadLib, isTyped, describeError } from './util.mjs';

const argv = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const target = argv[0] ?? 'all';
const seed = Number(flag('--seed', process.env.LAPIS_FC_SEED ?? 424242));
const runs = Number(flag('--runs', process.env.LAPIS_FUZZ_RUNS ?? 1000));
const only = flag('--only', undefined);
const progress = flag('--progress', undefined);
const SLOW_MS = Number(process.env.LAPIS_FUZZ_SLOW_MS ?? 5000);

// ---- generators --------------------------------------------------------------------------
const SPECIAL = [0, -0, 1, -1, 0.5, 2, NaN, Infinity, -Infinity, 5e-324, 2.2250738585072014e-308, 1e-310,
  1e-40, 1.4e-45, 1.1754943508222875e-38, 3.4e38, 1e38, 1e300, -1e308, 1.7976931348623157e308, 2 ** 31 - 1, 2 ** 53, 1e-300];
const value = fc.oneof({ weight: 3, arbitrary: fc.double({ min: -4, max: 4, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL) }, { weight: 1, arbitrary: fc.double() });
const GOOD_DIM = fc.integer({ min: 0, max: 6 });
const BAD_DIM = fc.constantFrom(-1, -7, 0.5, 2.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 60, 1e300, '3', null, undefined, true, {}, [2]);
const dim = fc.oneof({ weight: 12, arbitrary: GOOD_DIM }, { weight: 1, arbitrary: BAD_DIM });
const shapeArb = fc.oneof(
  { weight: 10, arbitrary: fc.array(dim, { minLength: 0, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 'abc', 5, {}, new Array(70).fill(1), [[2, 2]]) });
const DTYPE = fc.oneof({ weight: 10, arbitrary: fc.constantFrom('float32', 'float64', 'complex64', 'complex128', 'int32', 'float16') },
  { weight: 1, arbitrary: fc.constantFrom('bfloat16', 'Float64', null, 5, undefined, {}) });
const fill = fc.record({ kind: fc.constantFrom('random', 'const', 'mixed', 'integers'), v: value, seed: fc.nat() });
const junk = fc.constantFrom(null, undefined, 'abc', '', {}, [], [[]], [[], []], true, 7n, Symbol('s'), () => 1, new Map(), [1, [2]],
  new Int8Array(4), new Uint8Array(4), new DataView(new ArrayBuffer(8)), { data: null, shape: [1] }, { re: 1 });

/** A description of a tensor-like argument; built into a value per call (`build`). */
const tensorDesc = fc.oneof(
  { weight: 8, arbitrary: fc.record({ k: fc.constant('tensor'), shape: fc.array(GOOD_DIM, { minLength: 0, maxLength: 4 }), dtype: DTYPE, fill }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('raw'), shape: shapeArb, dtype: DTYPE, fill, len: fc.oneof(fc.constant(-1), fc.nat(40)),
    store: fc.constantFrom('Float64Array', 'Float32Array', 'Int32Array', 'array', 'strings', 'Uint8Array') }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('nested'), shape: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }), fill,
    ragged: fc.boolean(), complex: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('scalar'), v: value }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('junk'), v: junk }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constantFrom('disposed', 'detached', 'wrongStorage'), shape: fc.array(GOOD_DIM, { minLength: 2, maxLength: 3 }), dtype: DTYPE }) },
);
const KEYS = ['left', 'upper', 'unitriangular', 'adjoint', 'mode', 'fullMatrices', 'hermitian', 'atol', 'rtol', 'rcond', 'dim',
  'keepdim', 'base', 'dtype', 'device', 'm', 'batch', 'maxPooledBytes', 'trim', 'unknownOption', '__proto__'];
const optValue = fc.oneof(fc.boolean(), value, fc.constantFrom('reduced', 'complete', 'r', 'no', 'cpu', 'float32', null, [0, 1], [-1], {}, 'fro'));
const optsArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), optValue, { maxKeys: 3 }) },
  { weight: 1, arbitrary: junk });
const numArb = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: -3, max: 12 }) }, { weight: 2, arbitrary: value }, { weight: 1, arbitrary: junk });
const ordArb = fc.oneof(fc.constantFrom(undefined, 'fro', 'nuc', 1, -1, 2, -2, Infinity, -Infinity, 0, 3, 0.5, 'bogus', null), value);
/** A real tensor with a random small shape, or a bad one (for gdn.chunkedForward fields). */
const gdnInput = fc.record({
  q: tensorDesc, k: tensorDesc, v: tensorDesc, beta: tensorDesc, g: tensorDesc,
  chunkSize: fc.constantFrom(undefined, 16, 32, 64, 8, 16.5, '16', null),
  initialState: fc.option(tensorDesc, { nil: undefined }), device: fc.constantFrom(undefined, 'cpu', 'tpu', null),
  coherent: fc.record({ Bn: fc.integer({ min: 0, max: 2 }), H: fc.integer({ min: 0, max: 2 }), L: fc.integer({ min: 0, max: 40 }),
    dk: fc.integer({ min: 0, max: 5 }), dv: fc.integer({ min: 0, max: 5 }), dtype: fc.constantFrom('float32', 'float64'), g: value, beta: value }),
  useCoherent: fc.boolean(),
});

// ---- building argument values ------------------------------------------------------------
function dataFor(count, f, Ctor = Float64Array) {
  const a = new Ctor(Math.max(0, count));
  let s = (f.seed >>> 0) || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 31 - 1; };
  for (let i = 0; i < a.length; i++) {
    if (f.kind === 'const') a[i] = f.v;
    else if (f.kind === 'integers') a[i] = Math.round(4 * next());
    else a[i] = f.kind === 'mixed' && next() > 0.8 ? f.v : next();
  }
  return a;
}
const sizeOf = (shape) => shape.reduce((p, q) => p * q, 1);
const cplx = (d) => d === 'complex64' || d === 'complex128';

function build(lib, d) {
  switch (d.k) {
    case 'tensor': {
      const dt = typeof d.dtype === 'string' && ['float32', 'float64', 'complex64', 'complex128', 'int32'].includes(d.dtype) ? d.dtype : 'float64';
      const n = sizeOf(d.shape) * (cplx(dt) ? 2 : 1);
      const data = dataFor(n, dt === 'int32' ? { ...d.fill, kind: 'integers' } : d.fill,
        dt === 'int32' ? Int32Array : dt === 'float32' || dt === 'complex64' ? Float32Array : Float64Array);
      return lib.tensor({ data, shape: d.shape, dtype: dt });
    }
    case 'raw': {
      const n = Array.isArray(d.shape) && d.shape.every((x) => Number.isSafeInteger(x) && x >= 0) ? sizeOf(d.shape) * (cplx(d.dtype) ? 2 : 1) : 4;
      const len = d.len < 0 ? Math.min(n, 5000) : d.len;
      const base = dataFor(len, d.fill);
      const data = d.store === 'array' ? Array.from(base) : d.store === 'strings' ? Array.from(base, String)
        : new globalThis[d.store](base);
      return d.dtype === undefined ? { data, shape: d.shape } : { data, shape: d.shape, dtype: d.dtype };
    }
    case 'nested': {
      const vals = dataFor(sizeOf(d.shape) + 1, d.fill);
      let i = 0;
      const rec = (level) => {
        if (level === d.shape.length) {
          const x = vals[i++ % vals.length];
          return d.complex && i % 3 === 0 ? { re: x, im: -x } : x;
        }
        const n = d.ragged && level === d.shape.length - 1 && i % 2 ? d.shape[level] + 1 : d.shape[level];
        return Array.from({ length: n }, () => rec(level + 1));
      };
      return rec(0);
    }
    case 'scalar': return d.v;
    case 'junk': return d.v;
    case 'disposed': {
      const t = lib.zeros(d.shape);
      t.dispose();
      return t;
    }
    case 'detached': {
      const a = new Float64Array(sizeOf(d.shape));
      const t = lib.tensor({ data: a, shape: d.shape });
      structuredClone(a.buffer, { transfer: [a.buffer] });
      return t;
    }
    case 'wrongStorage': {
      // Tensor.fromStorage is public: storage shorter than the shape says must never be read past
      const n = sizeOf(d.shape);
      return lib.Tensor.fromStorage('float64', d.shape, new Float64Array(Math.max(0, n - 1)));
    }
  }
  throw new Error(`unknown descriptor ${d.k}`);
}

function buildGdn(lib, g) {
  if (!g.useCoherent) {
    const input = {};
    for (const key of ['q', 'k', 'v', 'beta', 'g']) input[key] = build(lib, g[key]);
    if (g.initialState) input.initialState = build(lib, g.initialState);
    if (g.chunkSize !== undefined) input.chunkSize = g.chunkSize;
    if (g.device !== undefined) input.device = g.device;
    return input;
  }
  const { Bn, H, L, dk, dv, dtype } = g.coherent;
  const C = dtype === 'float32' ? Float32Array : Float64Array;
  const mk = (shape, f) => lib.tensor({ data: dataFor(sizeOf(shape), f, C), shape, dtype });
  return {
    q: mk([Bn, H, L, dk], { kind: 'random', seed: 1 }), k: mk([Bn, H, L, dk], { kind: 'random', seed: 2 }),
    v: mk([Bn, H, L, dv], { kind: 'random', seed: 3 }), beta: mk([Bn, H, L], { kind: 'mixed', v: g.coherent.beta, seed: 4 }),
    g: mk([Bn, H, L], { kind: 'mixed', v: g.coherent.g, seed: 5 }), chunkSize: g.chunkSize ?? 16,
  };
}

// ---- the public surface ------------------------------------------------------------------
const T = tensorDesc, O = optsArb;
/** name → [group, argument arbitraries, call(lib, builtArgs)] (T descriptors are built first). */
const FUNCS = {
  'tensor': ['create', [fc.oneof(T, fc.record({ k: fc.constant('junk'), v: value })), O], (l, a) => l.tensor(...a)],
  'zeros': ['create', [fc.oneof({ weight: 5, arbitrary: shapeArb }, { weight: 1, arbitrary: junk }), O], (l, a) => l.zeros(...a)],
  'eye': ['create', [numArb, O], (l, a) => l.eye(...a)],
  'randn': ['create', [shapeArb, O], (l, a) => l.randn(...a)],
  'new Rng': ['create', [numArb], (l, a) => new l.Rng(...a)],
  'Tensor.reshape': ['create', [T, shapeArb], (l, [t, s]) => l.tensor(t).reshape(s)],
  'Tensor.to': ['create', [T, fc.constantFrom('cpu', 'gpu', 'tpu', null, undefined, 1)], (l, [t, d]) => l.tensor(t).to(d)],
  'Tensor.toArray': ['create', [T], (l, [t]) => l.tensor(t).toArray()],
  'Tensor.data': ['create', [T], (l, [t]) => l.tensor(t).data()],
  'Tensor.toString': ['create', [T], (l, [t]) => String(l.tensor(t))],
  'Tensor.fromStorage': ['create', [DTYPE, shapeArb, T], (l, [d, s, t]) => l.Tensor.fromStorage(d, s, t instanceof l.Tensor ? t.dataSync() : t)],
  'Complex.from': ['create', [fc.oneof(value, junk, fc.record({ re: value, im: value }))], (l, [z]) => l.Complex.from(z)],
  'fromMathjs': ['create', [fc.oneof(T, junk)], (l, [v]) => l.fromMathjs(v)],
  'toMathjs': ['create', [junk, fc.oneof(T, junk)], (l, [m, v]) => l.toMathjs(m, v)],
  'setNumThreads': ['create', [fc.constantFrom(-1, 0, 1, 2, 3, 1.5, NaN, Infinity, '2', null, undefined, 2 ** 31, 64)], (l, [n]) => {
    try { return l.setNumThreads(n); } finally { l.setNumThreads(2); }
  }],
  'numThreads': ['create', [], (l) => l.numThreads()],
  'gemmKernel': ['create', [], (l) => l.gemmKernel()],
  'gpu.info': ['create', [], (l) => l.gpu.info()],
  'gpu.memory': ['create', [O], (l, a) => l.gpu.memory(...a)],
  'gpu.sync': ['create', [], (l) => l.gpu.sync()],

  'linalg.matmul': ['products', [T, T], (l, a) => l.linalg.matmul(...a)],
  'linalg.norm': ['products', [T, ordArb, O], (l, a) => l.linalg.norm(...a)],
  'linalg.cond': ['products', [T, ordArb], (l, a) => l.linalg.cond(...a)],
  'linalg.det': ['products', [T], (l, a) => l.linalg.det(...a)],
  'linalg.slogdet': ['products', [T], (l, a) => l.linalg.slogdet(...a)],
  'linalg.qr': ['factor', [T, O], (l, a) => l.linalg.qr(...a)],
  'linalg.svd': ['factor', [T, O], (l, a) => l.linalg.svd(...a)],
  'linalg.svdEx': ['factor', [T, O], (l, a) => l.linalg.svdEx(...a)],
  'linalg.svdvals': ['factor', [T], (l, a) => l.linalg.svdvals(...a)],
  'linalg.pinv': ['factor', [T, O], (l, a) => l.linalg.pinv(...a)],
  'linalg.matrixRank': ['factor', [T, O], (l, a) => l.linalg.matrixRank(...a)],
  'linalg.lstsq': ['factor', [T, T, O], (l, a) => l.linalg.lstsq(...a)],
  'linalg.luFactor': ['solve', [T], (l, a) => l.linalg.luFactor(...a)],
  'linalg.luFactorEx': ['solve', [T], (l, a) => l.linalg.luFactorEx(...a)],
  'linalg.luFactorAsync': ['solve', [T], (l, a) => l.linalg.luFactorAsync(...a)],
  'linalg.lu': ['solve', [T], (l, a) => l.linalg.lu(...a)],
  'linalg.luSolve': ['solve', [T, T, T, O], (l, a) => l.linalg.luSolve(...a)],
  'linalg.luSolve (factored)': ['solve', [T, T, O], (l, [A, B, o]) => { const f = l.linalg.luFactorEx(A); return l.linalg.luSolve(f.LU, f.pivots, B, o); }],
  'linalg.solveTriangular': ['solve', [T, T, O], (l, a) => l.linalg.solveTriangular(...a)],
  'linalg.solveTriangularEx': ['solve', [T, T, O], (l, a) => l.linalg.solveTriangularEx(...a)],
  'linalg.solve': ['solve', [T, T, O], (l, a) => l.linalg.solve(...a)],
  'linalg.solveEx': ['solve', [T, T, O], (l, a) => l.linalg.solveEx(...a)],
  'linalg.solveAsync': ['solve', [T, T, O], (l, a) => l.linalg.solveAsync(...a)],
  'linalg.inv': ['solve', [T], (l, a) => l.linalg.inv(...a)],
  'linalg.invEx': ['solve', [T], (l, a) => l.linalg.invEx(...a)],
  'linalg.invAsync': ['solve', [T], (l, a) => l.linalg.invAsync(...a)],

  'frexp': ['special', [T], (l, a) => l.frexp(...a)],
  'heaviside': ['special', [T, T], (l, a) => l.heaviside(...a)],
  'logspace': ['special', [numArb, numArb, numArb, O], (l, a) => l.logspace(...a)],
  'special.laguerrePolynomialL': ['laguerre', [T, T], (l, a) => l.special.laguerrePolynomialL(...a)],
  'gdn.chunkSolve': ['special', [T, T], (l, a) => l.gdn.chunkSolve(...a)],
  'gdn.invUnitLower': ['special', [T], (l, a) => l.gdn.invUnitLower(...a)],
  'gdn.chunkedForward': ['special', [fc.oneof({ weight: 5, arbitrary: gdnInput }, { weight: 1, arbitrary: junk })],
    (l, [g]) => l.gdn.chunkedForward(g)],
};
export const GROUPS = [...new Set(Object.values(FUNCS).map((f) => f[0]))];

// ---- checking one call -------------------------------------------------------------------
function describeArg(v) {
  if (v && typeof v === 'object' && 'k' in v) return JSON.stringify(v, (k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : typeof x === 'bigint' ? `${x}n` : typeof x === 'symbol' ? String(x) : x));
  try {
    return typeof v === 'symbol' ? String(v) : typeof v === 'bigint' ? `${v}n` : typeof v === 'function' ? 'a function'
      : JSON.stringify(v, (k, x) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : typeof x === 'bigint' ? `${x}n` : x)) ?? String(v);
  } catch { return Object.prototype.toString.call(v); }
}

/** A returned value must be sane: tensors with non-negative integer shapes and matching storage. */
function checkReturned(lib, v, depth = 0) {
  if (v instanceof lib.Tensor) {
    if (!Array.isArray(v.shape) || !v.shape.every((x) => Number.isSafeInteger(x) && x >= 0)) return `a tensor of shape ${describeArg(v.shape)}`;
    if (v.device === 'cpu' && !v.isDisposed) {
      const want = sizeOf(v.shape) * (cplx(v.dtype) ? 2 : 1);
      const got = v.dataSync().length;
      if (got !== want) return `a ${v.dtype} tensor of shape [${v.shape}] holding ${got} scalars (expected ${want})`;
    }
    return null;
  }
  if (depth < 1 && v && typeof v === 'object' && !ArrayBuffer.isView(v) && !Array.isArray(v)) {
    for (const x of Object.values(v)) {
      const bad = checkReturned(lib, x, depth + 1);
      if (bad) return bad;
    }
  }
  return null;
}

async function runCase(lib, name, spec, descs) {
  const [, , call] = spec;
  let args;
  try {
    args = descs.map((d) => (d && typeof d === 'object' && 'useCoherent' in d ? buildGdn(lib, d)
      : d && typeof d === 'object' && 'k' in d ? build(lib, d) : d));
  } catch (e) {
    // a descriptor the library refuses at tensor(): that refusal is itself a checked call
    if (isTyped(lib, e)) return null;
    return `building the arguments threw ${describeError(e)}`;
  }
  const t0 = performance.now();
  let bad = null;
  try {
    const v = await call(lib, args);
    bad = checkReturned(lib, v);
    if (bad) bad = `returned ${bad}`;
  } catch (e) {
    if (!isTyped(lib, e)) bad = `threw ${describeError(e)}`;
  }
  const ms = performance.now() - t0;
  if (!bad && ms > SLOW_MS) bad = `took ${Math.round(ms)} ms`;
  return bad;
}

function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

async function main() {
  const lib = await loadLib();
  const names = Object.keys(FUNCS).filter((n) => target === 'all' || FUNCS[n][0] === target || n === target);
  if (names.length === 0) throw new Error(`fuzz: no group or function ${target} (groups: ${GROUPS.join(', ')})`);
  const failures = [], ms = {};
  let calls = 0, slowest = { ms: 0, call: '' };
  for (const name of names) {
    const spec = FUNCS[name];
    if (name === 'linalg.solveTriangularEx' && typeof lib.linalg.solveTriangularEx !== 'function') {
      failures.push({ fn: name, index: -1, problem: 'not exported', call: '' });
      continue;
    }
    const fnSeed = (seed ^ hash(name)) | 0;
    const cases = fc.sample(fc.tuple(...spec[1]), { seed: fnSeed, numRuns: only !== undefined ? Number(only) + 1 : runs });
    const byProblem = new Map();
    for (let i = only !== undefined ? Number(only) : 0; i < cases.length; i++) {
      const call = `${name}(${cases[i].map(describeArg).join(', ')})`;
      if (progress) writeFileSync(progress, `case ${i} of ${name} (seed ${seed}): ${call}\n`);
      calls++;
      const t0 = performance.now();
      const problem = await runCase(lib, name, spec, cases[i]);
      const dt = performance.now() - t0;
      ms[name] = (ms[name] ?? 0) + dt;
      if (dt > slowest.ms) slowest = { ms: Math.round(dt), call: call.slice(0, 300) };
      if (problem) {
        // one entry per kind of problem: numbers, shapes and object tags do not make a new kind
        const key = problem.replace(/\[object \w+\]|'[^']*'|[0-9.e+-]+/g, '#').slice(0, 120);
        const seen = byProblem.get(key);
        if (seen) seen.count++;
        else byProblem.set(key, { fn: name, index: i, problem, call: call.slice(0, 600), count: 1 });
      }
    }
    failures.push(...byProblem.values());
  }
  for (const k of Object.keys(ms)) ms[k] = Math.round(ms[k]);
  console.log(`FUZZ-RESULT ${JSON.stringify({ target, seed, runs, calls, failures, ms, slowest })}`);
}

await main();
