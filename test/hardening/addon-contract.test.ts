// The native boundary (issue 11 item 2): the functions the addon exports are exactly those
// of the Addon interface (src/backend/cpu/binding.ts), each declares (native/binding) the
// same option names as its signature, takes one options object, and reads every option by
// name: dropping or misspelling any one of them is a TypeError that names it, never a
// silent default or a read of the wrong argument.
import { describe, it, expect } from 'vitest';
import { native, nativeOptionNames, type Addon } from '../../src/backend/cpu/binding.js';

/** Every function of the Addon interface, checked both ways against `keyof Addon` by tsc. */
const ADDON_FUNCTIONS = [
  'numThreads', 'threadStats', 'gemmKernel', 'cpuPeakFlops', 'matmul', 'luFactor', 'luSolve', 'solve', 'solveTriangular', 'inv', 'slogdet', 'qr', 'svd',
  'frexp', 'heaviside', 'laguerrePolynomialL', 'logspace',
  'cast', 'unary', 'binary', 'where', 'elementwiseOpNames',
  'stridedCopy', 'triangle', 'concat', 'take', 'put',
  'reduce', 'argReduce',
  'gdnForward', 'gdnBackward', 'gdnRecurrentStep',
] as const satisfies readonly (keyof Addon)[];
type Unlisted = Exclude<keyof Addon, (typeof ADDON_FUNCTIONS)[number]>;
// A key added to Addon but not to the list makes this `false` and the line a type error.
const everyKeyListed: [Unlisted] extends [never] ? true : false = true;

type WithOptions = Exclude<keyof Addon, 'gemmKernel'>;
type OptionsOf<K extends WithOptions> = Parameters<Addon[K]>[0];

const f64 = (...v: number[]) => Float64Array.from(v);

/** A valid call of each function (2×2 float64 problems), every field present. */
function validOptions(): { [K in WithOptions]: OptionsOf<K> } {
  const A = () => f64(4, 3, 6, 3);
  const maps = { aIdx: null, bIdx: null, aCount: 1, bCount: 1 };
  const layout = { shape: f64(2), xStrides: f64(1), dtype: 1 as const };
  return {
    numThreads: { n: null },
    threadStats: { reset: false },
    cpuPeakFlops: { dtype: 1, threads: 1, seconds: 0.001 },
    matmul: { dtype: 1, A: A(), B: A(), C: new Float64Array(4), batch: 1, m: 2, k: 2, n: 2, ...maps, opA: 0, opB: 0 },
    luFactor: { dtype: 1, A: A(), LU: new Float64Array(4), pivots: new Int32Array(2), info: new Int32Array(1), count: 1, m: 2, n: 2, async: false },
    luSolve: {
      dtype: 1, LU: f64(6, 3, 2 / 3, 1), pivots: Int32Array.of(2, 2), B: f64(1, 2), X: new Float64Array(2), count: 1, n: 2, k: 1,
      op: 0, ...maps, async: false,
    },
    solve: { dtype: 1, A: A(), B: f64(1, 2), X: new Float64Array(2), info: new Int32Array(1), count: 1, n: 2, k: 1, ...maps, async: false },
    solveTriangular: {
      dtype: 1, A: A(), B: f64(1, 2), X: new Float64Array(2), info: new Int32Array(1), count: 1, n: 2, k: 1, ...maps, op: 0,
      upper: true, unit: false, async: false,
    },
    inv: { dtype: 1, A: A(), X: new Float64Array(4), info: new Int32Array(1), count: 1, n: 2, async: false },
    slogdet: { dtype: 1, A: A(), sign: new Float64Array(1), logabs: new Float64Array(1), det: new Float64Array(1), count: 1, n: 2 },
    qr: { dtype: 1, A: A(), Q: new Float64Array(4), R: new Float64Array(4), batch: 1, m: 2, n: 2, mode: 0 },
    svd: {
      dtype: 1, A: A(), S: new Float64Array(2), U: new Float64Array(4), Vh: new Float64Array(4), info: new Int32Array(1), batch: 1,
      m: 2, n: 2, computeUV: true, fullMatrices: false,
    },
    frexp: { dtype: 1, x: f64(3, 0.5), mantissa: new Float64Array(2), exponent: new Int32Array(2) },
    heaviside: { ...layout, x: f64(-1, 0), values: f64(0.5), out: new Float64Array(2), valuesStrides: f64(0) },
    laguerrePolynomialL: { ...layout, x: f64(0.5, 2), n: f64(3), out: new Float64Array(2), nStrides: f64(0) },
    logspace: { dtype: 1, out: new Float64Array(3), steps: 3, start: 0, end: 2, base: 10 },
    cast: { from: 1, to: 4, x: f64(1.5, -2), out: new Int32Array(2) },
    unary: { dtype: 1, op: 0, x: f64(1, -2), out: new Float64Array(2) },
    binary: { dtype: 1, op: 0, a: f64(1, 2), b: f64(3), out: new Float64Array(2), shape: f64(2), aStrides: f64(1), bStrides: f64(0) },
    where: {
      dtype: 1, cond: Uint8Array.of(1, 0), a: f64(1, 2), b: f64(3), out: new Float64Array(2), shape: f64(2), condStrides: f64(1),
      aStrides: f64(1), bStrides: f64(0),
    },
    elementwiseOpNames: { table: 0 },
    stridedCopy: { dtype: 1, x: A(), out: new Float64Array(4), shape: f64(2, 2), strides: f64(1, 2), offset: 0, conj: false },
    triangle: { dtype: 1, x: A(), out: new Float64Array(4), count: 1, m: 2, n: 2, upper: true, k: 0 },
    concat: { dtype: 1, xs: [f64(1, 2), f64(3)], out: new Float64Array(3), outer: 1, sizes: f64(2, 1) },
    take: { dtype: 1, x: A(), index: Int32Array.of(3, 0), out: new Float64Array(2) },
    put: { dtype: 1, x: A(), index: Int32Array.of(1, 1), values: f64(1, 2), out: new Float64Array(4), accumulate: true },
    reduce: { dtype: 1, op: 0, x: f64(1, 2, 3, 4), out: new Float64Array(2), outer: 2, n: 2, inner: 1 },
    argReduce: { dtype: 1, op: 0, x: f64(1, 4, 3, 2), values: new Float64Array(2), indices: new Int32Array(2), outer: 1, n: 2, inner: 2 },
    gdnForward: { ...gdnArrays(), o: new Float64Array(4), finalState: new Float64Array(4), status: new Int32Array(1), ...gdnProblem() },
    gdnBackward: {
      ...gdnArrays(), dO: f64(1, 1, 1, 1), dFinal: f64(1, 0, 0, 1), dq: new Float64Array(4), dk: new Float64Array(4), dv: new Float64Array(4),
      dbeta: new Float64Array(2), dg: new Float64Array(2), dInitialState: new Float64Array(4), status: new Int32Array(1), ...gdnProblem(),
    },
    gdnRecurrentStep: {
      dtype: 1, state: f64(1, 0, 0, 1), q: f64(1, 0), k: f64(0.6, 0.8), v: f64(2, 3), beta: f64(0.5), g: f64(-0.1), o: new Float64Array(2),
      newState: new Float64Array(4), status: new Int32Array(1), seqs: 1, heads: 1, vHeads: 1, keyDim: 2, valueDim: 2, scale: 1,
      qkL2norm: false,
    },
  };
}

/** One sequence of 2 tokens, one head, dk = dv = 2 ('bthd'), with an initial state. */
function gdnArrays() {
  return {
    dtype: 1 as const, q: f64(1, 0, 0, 1), k: f64(0.6, 0.8, 1, 0), v: f64(1, 2, 3, 4), beta: f64(0.5, 1), g: f64(-0.1, -0.2),
    initialState: f64(1, 0, 0, 1),
  };
}
function gdnProblem() {
  return {
    batch: 1, time: 2, heads: 1, vHeads: 1, keyDim: 2, valueDim: 2, layout: 0 as const, varlen: false, chunk: 16 as const,
    scale: 1, qkL2norm: false, seqStart: Int32Array.of(0), seqLen: Int32Array.of(2),
  };
}

// Calls an addon function with an options object of any shape (the point is to break it).
function call(name: WithOptions, o: unknown): unknown {
  return (native()[name] as unknown as (o: unknown) => unknown)(o);
}

describe('addon contract: the exported functions are the Addon interface', () => {
  it('the addon exports exactly ADDON_FUNCTIONS, all functions', () => {
    expect(everyKeyListed).toBe(true);
    const exported = Object.keys(native()).sort();
    expect(exported).toEqual([...ADDON_FUNCTIONS].sort());
    for (const name of ADDON_FUNCTIONS) expect(typeof native()[name], name).toBe('function');
  });

  it('each function declares the option names of its Addon signature, no more, no fewer', () => {
    for (const name of ADDON_FUNCTIONS) {
      const typed = name === 'gemmKernel' ? [] : Object.keys(validOptions()[name]);
      expect([...nativeOptionNames(name)].sort(), name).toEqual(typed.sort());
    }
  });

  it('each valid call succeeds and computes (so the rejections below come from the one broken field)', () => {
    const v = validOptions();
    expect(native().numThreads(v.numThreads)).toBeGreaterThanOrEqual(1);
    expect(['avx512', 'avx2', 'neon', 'portable', 'wasm128']).toContain(native().gemmKernel());
    native().luFactor(v.luFactor);
    expect(Array.from(v.luFactor.pivots)).toEqual([2, 2]);
    const lu = Array.from(v.luFactor.LU);
    for (const [i, want] of [6, 3, 2 / 3, 1].entries()) expect(lu[i]).toBeCloseTo(want, 14);
    native().solve(v.solve);
    // [[4, 3], [6, 3]]·x = [1, 2]: x = [1/2, −1/3]
    expect(v.solve.X[0]).toBeCloseTo(0.5, 14);
    expect(v.solve.X[1]).toBeCloseTo(-1 / 3, 14);
    native().slogdet(v.slogdet);
    expect(v.slogdet.det![0]).toBeCloseTo(-6, 13);
    native().logspace(v.logspace);
    for (const [i, want] of [1, 10, 100].entries()) expect(v.logspace.out[i] / want).toBeCloseTo(1, 14);
    for (const name of ADDON_FUNCTIONS) {
      if (name === 'gemmKernel') continue;
      const o = validOptions()[name];
      expect(() => call(name, o), name).not.toThrow();
    }
  });

  it('a call without one options object is a TypeError naming the function', () => {
    for (const name of ADDON_FUNCTIONS) {
      if (name === 'gemmKernel') continue;
      for (const bad of [[], [1], [null], [validOptions()[name], 1], ['x']]) {
        expect(() => (native()[name] as unknown as (...a: unknown[]) => unknown)(...bad), `${name}(${bad.length} args)`)
          .toThrow(new TypeError(`${name}: expects one options object`));
      }
    }
  });

  for (const name of ADDON_FUNCTIONS) {
    if (name === 'gemmKernel') continue;
    it(`${name}: a missing or misspelt option is a TypeError naming it`, () => {
      const fields = Object.keys(validOptions()[name]);
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) {
        const valid = validOptions()[name] as Record<string, unknown>;
        const { [field]: value, ...rest } = valid;
        const message = `${name}: option ${field} is missing`;
        expect(() => call(name, rest), `${name} without ${field}`).toThrow(new TypeError(message));
        // misspelt: the value under a near-miss name (wrong case, a typo)
        const misspelt = field === field.toLowerCase() ? `${field}s` : field.toLowerCase();
        expect(() => call(name, { ...rest, [misspelt]: value }), `${name} with ${misspelt}`).toThrow(new TypeError(message));
        // present but undefined reads as missing too
        expect(() => call(name, { ...rest, [field]: undefined }), `${name} ${field}: undefined`).toThrow(new TypeError(message));
      }
    });
  }

  it('the async variants reject a misspelt option synchronously, before any work is queued', () => {
    const v = validOptions();
    const { info: _info, ...rest } = v.inv;
    expect(() => call('inv', { ...rest, async: true, Info: _info })).toThrow(new TypeError('inv: option info is missing'));
    const { async: _a, ...noAsync } = v.luFactor;
    expect(() => call('luFactor', { ...noAsync, asyn: true })).toThrow(new TypeError('luFactor: option async is missing'));
  });
});

describe('addon contract: the GDN bindings check their dims before any kernel runs', () => {
  const fwd = () => validOptions().gdnForward;
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['heads 0', { heads: 0 }, /^gdnForward: bad dimension/],
    ['negative time', { time: -1 }, /^gdnForward: bad dimension/],
    ['vHeads not a multiple of heads', { heads: 2, vHeads: 3 }, /^gdnForward: vHeads must be a multiple of heads/],
    ['layout 2', { layout: 2 }, /^gdnForward: layout must be 0/],
    ['chunk 8', { chunk: 8 }, /^gdnForward: chunk must be 16, 32 or 64/],
    ['non-finite scale', { scale: NaN }, /^gdnForward: scale must be finite/],
    ['a sequence past the time axis', { seqLen: Int32Array.of(3) }, /^gdnForward: sequence 0 lies outside the time axis/],
    ['a negative sequence start', { seqStart: Int32Array.of(-1) }, /^gdnForward: sequence 0 lies outside/],
    ['seqStart and seqLen of different lengths', { seqStart: Int32Array.of(0, 0) }, /^gdnForward: seqStart and seqLen differ/],
    ['more sequences than batch rows', { seqStart: Int32Array.of(0, 0), seqLen: Int32Array.of(1, 1) }, /^gdnForward: one sequence per batch row/],
    ['packed sequences with batch 2', { varlen: true, batch: 2 }, /^gdnForward: packed sequences need batch 1/],
    ['q too short', { q: f64(1, 2, 3) }, /^gdnForward: q holds 3 elements, needs 4/],
    ['v too short for the value heads', { vHeads: 2 }, /^gdnForward: v holds 4 elements, needs 8/],
    ['finalState too short', { finalState: new Float64Array(3) }, /^gdnForward: finalState holds 3 elements, needs 4/],
    ['status too short', { status: new Int32Array(0) }, /^gdnForward: status holds 0 elements, needs 1/],
    ['float32 arrays with dtype float64', { o: new Float32Array(4) }, /^gdnForward: o has the wrong element type/],
  ];
  for (const [what, patch, msg] of bad) {
    it(`gdnForward: ${what}`, () => {
      expect(() => native().gdnForward({ ...fwd(), ...patch } as never)).toThrow(msg);
    });
  }

  it('dtype codes other than float32/float64 are refused; the computed values are the recurrence', () => {
    expect(() => native().gdnForward({ ...fwd(), dtype: 2 })).toThrow(new TypeError('gdnForward: this op takes float32 or float64 only'));
    const o = fwd();
    native().gdnForward(o);
    // S1 = e^{-0.1}(I − ½kkᵀ)I + ½k·v1ᵀ with k = (0.6, 0.8), v1 = (1, 2); o1 = S1ᵀ·(1, 0)
    const a = Math.exp(-0.1), S11 = a * (1 - 0.5 * 0.36) + 0.5 * 0.6, S12 = a * (-0.5 * 0.48) + 0.5 * 0.6 * 2;
    expect(o.o[0]).toBeCloseTo(S11, 14);
    expect(o.o[1]).toBeCloseTo(S12, 14);
    expect(Array.from(o.status)).toEqual([0]);
  });

  it('gdnBackward: dInitialState is given exactly when initialState is; bad dims as gdnForward', () => {
    const b = validOptions().gdnBackward;
    expect(() => native().gdnBackward({ ...b, dInitialState: null })).toThrow(/^gdnBackward: dInitialState must be given exactly when initialState is/);
    expect(() => native().gdnBackward({ ...b, initialState: null })).toThrow(/^gdnBackward: dInitialState must be given exactly when initialState is/);
    expect(() => native().gdnBackward({ ...b, chunk: 48 as never })).toThrow(/^gdnBackward: chunk must be 16, 32 or 64/);
    expect(() => native().gdnBackward({ ...b, dO: f64(1) })).toThrow(/^gdnBackward: dO holds 1 elements, needs 4/);
    expect(() => native().gdnBackward({ ...b, dFinal: f64(1) })).toThrow(/^gdnBackward: dFinal holds 1 elements, needs 4/);
    native().gdnBackward({ ...b, dFinal: null });
  });

  it('gdnRecurrentStep: bad dims and short arrays are refused', () => {
    const r = validOptions().gdnRecurrentStep;
    expect(() => native().gdnRecurrentStep({ ...r, heads: 0 })).toThrow(/^gdnRecurrentStep: bad dimension/);
    expect(() => native().gdnRecurrentStep({ ...r, vHeads: 3, heads: 2 })).toThrow(/^gdnRecurrentStep: vHeads must be a multiple/);
    expect(() => native().gdnRecurrentStep({ ...r, scale: Infinity })).toThrow(/^gdnRecurrentStep: scale must be finite/);
    expect(() => native().gdnRecurrentStep({ ...r, state: f64(1, 2, 3) })).toThrow(/^gdnRecurrentStep: state holds 3 elements, needs 4/);
    expect(() => native().gdnRecurrentStep({ ...r, g: new Float64Array(0) })).toThrow(/^gdnRecurrentStep: g holds 0 elements, needs 1/);
    const o = validOptions().gdnRecurrentStep;
    native().gdnRecurrentStep(o);
    expect(Array.from(o.status)).toEqual([0]);
    expect(o.newState.every(Number.isFinite)).toBe(true);
  });
});
