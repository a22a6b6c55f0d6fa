// Elementwise ops of the tensor API on the CPU against numpy in the same run (numpy runs
// these single-threaded; lapis uses the native thread pool): add and mul of 10M float32 and
// float64 elements, a broadcast add (1000×1000 + 1000, float64), exp of 10M float32, and
// exp, expm1, log, log1p, sin, cos, tanh and sigmoid (scipy.special.expit) of 1M float32 and
// float64 elements; add (10M) and exp (1M) also into a reused output (`out`, numpy's out=).
// Both sides build the same golden-ratio data; the result allocation is timed on both.
import { registerSuite, type BenchCase } from '../harness.js';
import { add, mul, exp, expm1, log, log1p, sin, cos, tanh, sigmoid, tensor, type Tensor } from '../../src/index.js';

const N = 10_000_000;

/** Deterministic data both sides build the same way: a golden-ratio sequence scaled to [lo, hi). */
function golden(n: number, lo: number, hi: number, C: Float64ArrayConstructor | Float32ArrayConstructor, phase = 0): Float64Array | Float32Array {
  const a = new C(n);
  for (let i = 0; i < n; i++) { const f = ((i + phase) * 0.6180339887498949) % 1; a[i] = lo + (hi - lo) * f; }
  return a;
}
const pyGolden = (n: number, lo: number, hi: number, dt: string, phase = 0) =>
  `np.asarray(${lo} + (${hi} - ${lo}) * np.mod((np.arange(${n}, dtype=np.float64) + ${phase}) * 0.6180339887498949, 1.0), dtype=${dt})`;

/** Spot-checks a result against its definition, so a fast wrong kernel cannot post a figure. */
function check(what: string, got: Tensor, want: (i: number) => number): void {
  const g = got.dataSync() as Float32Array | Float64Array;
  for (let s = 0; s < 1024; s++) {
    const i = Math.floor(((s * 0.7548776662466927) % 1) * g.length);
    const w = want(i);
    if (!(Math.abs(g[i] - w) <= 1e-6 * Math.abs(w))) throw new Error(`tensor bench: ${what} at ${i} is ${g[i]}, expected ${w}`);
  }
}

function cases(): BenchCase[] {
  const out: BenchCase[] = [];
  const within = (r: number) => [{ vs: 'numpy' as const, maxRatio: r }];
  for (const [dt, C, np] of [['float32', Float32Array, 'np.float32'], ['float64', Float64Array, 'np.float64']] as const) {
    const ha = golden(N, -100, 100, C), hb = golden(N, -1, 1, C, 7);
    const a = tensor({ data: ha, shape: [N] }), b = tensor({ data: hb, shape: [N] });
    const setup = `a = ${pyGolden(N, -100, 100, np)}\nb = ${pyGolden(N, -1, 1, np, 7)}`;
    const round = dt === 'float32' ? Math.fround : (x: number) => x;
    out.push({
      name: `add ${dt} n=10M`,
      lapis: () => { add(a, b); },
      python: { setup, stmt: 'np.add(a, b)' },
      targets: within(1.2),
    });
    out.push({
      name: `mul ${dt} n=10M`,
      lapis: () => { mul(a, b); },
      python: { setup, stmt: 'np.multiply(a, b)' },
      targets: within(1.2),
    });
    // Into a reused output (numpy's out=): no fresh 40/80 MB result for V8 to collect.
    const into = tensor({ data: new C(N), shape: [N] });
    out.push({
      name: `add ${dt} n=10M into out`,
      lapis: () => { add(a, b, { out: into }); },
      python: { setup: `${setup}\no = np.empty_like(a)`, stmt: 'np.add(a, b, out=o)' },
      targets: within(1.2),
    });
    check(`add ${dt}`, add(a, b), (i) => round(ha[i] + hb[i]));
    check(`mul ${dt}`, mul(a, b), (i) => round(ha[i] * hb[i]));
  }
  {
    const m = 1000, n = 1000;
    const hA = golden(m * n, -100, 100, Float64Array), hr = golden(n, -1, 1, Float64Array, 3);
    const A = tensor({ data: hA, shape: [m, n] }), r = tensor({ data: hr, shape: [n] });
    out.push({
      name: 'broadcast add float64 1000×1000 + 1000',
      lapis: () => { add(A, r); },
      python: {
        setup: `A = ${pyGolden(m * n, -100, 100, 'np.float64')}.reshape(${m}, ${n})\nr = ${pyGolden(n, -1, 1, 'np.float64', 3)}`,
        stmt: 'np.add(A, r)',
      },
      targets: within(1.5),
    });
    check('broadcast add', add(A, r), (i) => hA[i] + hr[i % n]);
  }
  {
    const hx = golden(N, -20, 20, Float32Array);
    const x = tensor({ data: hx, shape: [N] });
    out.push({
      name: 'exp float32 n=10M',
      lapis: () => { exp(x); },
      python: { setup: `x = ${pyGolden(N, -20, 20, 'np.float32')}`, stmt: 'np.exp(x)' },
    });
    check('exp', exp(x), (i) => Math.fround(Math.exp(hx[i])));
  }
  const M = 1_000_000;
  const expit = (v: number) => (v >= 0 ? 1 / (1 + Math.exp(-v)) : Math.exp(v) / (1 + Math.exp(v)));
  for (const [dt, C, np] of [['float32', Float32Array, 'np.float32'], ['float64', Float64Array, 'np.float64']] as const) {
    // x in [−20, 20) for the functions of the whole line, p in [1e-3, 1e3) for the logarithms.
    const hx = golden(M, -20, 20, C), hp = golden(M, 1e-3, 1e3, C);
    const x = tensor({ data: hx, shape: [M] }), p = tensor({ data: hp, shape: [M] });
    const round = dt === 'float32' ? Math.fround : (v: number) => v;
    const setup = `import scipy.special\nx = ${pyGolden(M, -20, 20, np)}\np = ${pyGolden(M, 1e-3, 1e3, np)}`;
    for (const [op, fn, py, ref, onP] of [
      ['exp', exp, 'np.exp(x)', Math.exp, false],
      ['expm1', expm1, 'np.expm1(x)', Math.expm1, false],
      ['log', log, 'np.log(p)', Math.log, true],
      ['log1p', log1p, 'np.log1p(p)', Math.log1p, true],
      ['sin', sin, 'np.sin(x)', Math.sin, false],
      ['cos', cos, 'np.cos(x)', Math.cos, false],
      ['tanh', tanh, 'np.tanh(x)', Math.tanh, false],
      ['sigmoid', sigmoid, 'scipy.special.expit(x)', expit, false],
    ] as const) {
      const arg = onP ? p : x, h = onP ? hp : hx;
      out.push({ name: `${op} ${dt} n=1M`, lapis: () => { fn(arg); }, python: { setup, stmt: py }, targets: within(1.2) });
      check(`${op} ${dt}`, fn(arg), (i) => round(ref(h[i])));
    }
    const into = tensor({ data: new C(M), shape: [M] });
    out.push({
      name: `exp ${dt} n=1M into out`, lapis: () => { exp(x, { out: into }); },
      python: { setup: `${setup}\no = np.empty_like(x)`, stmt: 'np.exp(x, out=o)' }, targets: within(1.2),
    });
    check(`exp ${dt} into out`, exp(x, { out: into }), (i) => round(Math.exp(hx[i])));
  }
  return out;
}

registerSuite('tensor', () => cases());
