// GPU reductions (src/backend/gpu/reduce.ts, shaders/reduce) through the public functions,
// against plain-JS references and the CPU backend: every op × GPU dtype × dims pattern (all,
// last, first, middle, non-adjacent, keepDims, 0-d, empty, size-1), NaN/Inf/−0, integer
// wrap-around, argmax/argmin's first-index and NaN rules, the two-pass path forced at small
// sizes, and a 10 M float32 sum against float64.
// The kernels are few (one per op class and layout), so the file compiles ~40 pipelines.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import fc from 'fast-check';
import {
  Tensor, ShapeError, DTypeError, sum, prod, max, min, any, all, argmax, argmin, maxWithIndices, minWithIndices, type DType,
} from '../../src/index.js';
import { reduceOutDtype, type ReduceOp } from '../../src/backend/ops.js';
import { setReduceParams, planReduce, DEFAULT_REDUCE_PARAMS } from '../../src/backend/gpu/reduce.js';
import { dispatchCount } from '../../src/backend/gpu/queue.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

type GD = 'float32' | 'complex64' | 'int32' | 'uint32' | 'bool';
const GPU_DTYPES: readonly GD[] = ['float32', 'complex64', 'int32', 'uint32', 'bool'];
const OPS: readonly ReduceOp[] = ['sum', 'prod', 'max', 'min', 'any', 'all'];
const EPS32 = 2 ** -23;

const REDUCERS = { sum, prod, max, min, any, all };
/** The public reduction `op` over `dims` (a 0-d tensor: its only reduction). */
function reduce(x: Tensor, op: ReduceOp, dims: readonly number[], keepDims: boolean): Tensor {
  return REDUCERS[op](x, { dim: x.ndim === 0 ? undefined : [...dims], keepDims });
}

const opsOf = (d: GD) => OPS.filter((op) => !(d === 'complex64' && (op === 'max' || op === 'min')));
const sizeOf = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** A seeded LCG in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

/**
 * Test data of n elements (complex interleaved): values that make each op meaningful —
 * float products near 1 (no overflow), zeros and −0 for any/all, a few repeated values so
 * max/min meet ties, full-range integers so sums and products wrap.
 */
function makeData(d: GD, op: ReduceOp, n: number, seed: number): Float32Array | Int32Array | Uint32Array | Uint8Array {
  const r = rng(seed);
  const truthy = op === 'any' || op === 'all';
  const real = () => {
    if (truthy) { const u = r(); return u < 0.3 ? 0 : u < 0.4 ? -0 : op === 'all' && u < 0.45 ? 0 : u * 4 - 2; }
    if (op === 'prod') return (0.9 + 0.2 * r()) * (r() < 0.5 ? -1 : 1) * (d === 'complex64' ? Math.SQRT1_2 : 1);
    return r() < 0.2 ? Math.round(r() * 4) : r() * 20 - 10;
  };
  switch (d) {
    case 'float32': return Float32Array.from({ length: n }, real);
    case 'complex64': return Float32Array.from({ length: 2 * n }, real);
    case 'int32': return Int32Array.from({ length: n }, () => (op === 'any' || op === 'all') && r() < 0.3 ? 0 : r() < 0.2 ? Math.round(r() * 6) - 3 : (r() * 2 ** 32) | 0);
    case 'uint32': return Uint32Array.from({ length: n }, () => (op === 'any' || op === 'all') && r() < 0.3 ? 0 : r() < 0.2 ? Math.round(r() * 6) : (r() * 2 ** 32) >>> 0);
    case 'bool': return Uint8Array.from({ length: n }, () => (r() < (op === 'all' ? 0.9 : op === 'any' ? 0.1 : 0.5) ? 1 : 0));
  }
}

function isTrue(d: GD, data: ArrayLike<number>, i: number): boolean {
  if (d === 'complex64') return data[2 * i] !== 0 || data[2 * i + 1] !== 0;
  const v = data[i];
  return v !== 0 && !Number.isNaN(v) ? true : Number.isNaN(v);
}

const nanMax = (a: number, b: number) => (Number.isNaN(a) ? a : Number.isNaN(b) ? b : a > b ? a : b);
const nanMin = (a: number, b: number) => (Number.isNaN(a) ? a : Number.isNaN(b) ? b : a < b ? a : b);

interface Ref { shape: number[]; values: number[]; absSum: number[] }

/** out[…] folded over the reduced dims in float64 (floats) or exact wrapping integer arithmetic. */
function reference(d: GD, data: ArrayLike<number>, shape: readonly number[], dims: readonly number[], op: ReduceOp, keep: boolean): Ref {
  const nd = shape.length;
  const kept = shape.map((_, i) => i).filter((i) => !dims.includes(i));
  const outShape: number[] = [];
  shape.forEach((n, i) => { if (!dims.includes(i)) outShape.push(n); else if (keep) outShape.push(1); });
  const outN = sizeOf(kept.map((i) => shape[i]));
  const w = d === 'complex64' ? 2 : 1;
  const acc: number[][] = Array.from({ length: outN }, () => {
    switch (op) {
      case 'sum': return w === 2 ? [0, 0] : [0];
      case 'prod': return w === 2 ? [1, 0] : [1];
      case 'max': return [d === 'float32' ? -Infinity : d === 'int32' ? -(2 ** 31) : 0];
      case 'min': return [d === 'float32' ? Infinity : d === 'int32' ? 2 ** 31 - 1 : d === 'uint32' ? 2 ** 32 - 1 : 1];
      case 'any': return [0];
      case 'all': return [1];
    }
  });
  const absSum = new Array<number>(outN).fill(0);
  const strides = new Array<number>(nd).fill(1);
  for (let i = nd - 2; i >= 0; i--) strides[i] = strides[i + 1] * shape[i + 1];
  const total = sizeOf(shape);
  const intKind = d === 'int32' || d === 'uint32' || d === 'bool';
  const wrap = (v: number) => (d === 'uint32' ? v >>> 0 : v | 0);
  for (let e = 0; e < total; e++) {
    let o = 0;
    for (const k of kept) o = o * shape[k] + (Math.floor(e / strides[k]) % shape[k]);
    const a = acc[o];
    const x = data[w * e], y = w === 2 ? data[w * e + 1] : 0;
    absSum[o] += Math.abs(x) + Math.abs(y);
    switch (op) {
      case 'sum':
        if (intKind) a[0] = wrap(a[0] + x); else { a[0] += x; if (w === 2) a[1] += y; }
        break;
      case 'prod':
        if (intKind) a[0] = d === 'uint32' ? Math.imul(a[0], x) >>> 0 : Math.imul(a[0], x);
        else if (w === 2) { const re = a[0] * x - a[1] * y; a[1] = a[0] * y + a[1] * x; a[0] = re; } else a[0] *= x;
        break;
      case 'max': a[0] = nanMax(a[0], x); break;
      case 'min': a[0] = nanMin(a[0], x); break;
      case 'any': a[0] = a[0] || isTrue(d, data, e) ? 1 : 0; break;
      case 'all': a[0] = a[0] && isTrue(d, data, e) ? 1 : 0; break;
    }
  }
  return { shape: outShape, values: acc.flat(), absSum };
}

const sameValue = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** Compares a GPU result with the reference: exact for integers, bool, max/min; float sums and products within error bounds. */
function expectClose(got: ArrayLike<number>, ref: Ref, d: GD, op: ReduceOp, len: number, label: string): void {
  const w = ref.values.length / Math.max(1, ref.absSum.length);
  expect(got.length, label).toBe(ref.values.length);
  const float = (d === 'float32' || d === 'complex64') && (op === 'sum' || op === 'prod');
  for (let i = 0; i < ref.values.length; i++) {
    const g = got[i], r = ref.values[i];
    if (!float || !Number.isFinite(r)) {
      if (!sameValue(g, r)) expect(g, `${label} [${i}]`).toBe(r);
      continue;
    }
    // sums: Σ|x|·(a few + log2 n)·eps; products of factors near 1: relative (n + 4)·eps per component
    const tol = op === 'sum'
      ? ref.absSum[Math.floor(i / w)] * (8 + Math.log2(len + 1)) * EPS32 + 1e-30
      : (len + 4) * 4 * EPS32 * Math.max(Math.abs(r), Math.abs(ref.values[i ^ (w - 1)] ?? 0)) + 1e-30;
    if (!(Math.abs(g - r) <= tol)) expect(Math.abs(g - r), `${label} [${i}] got ${g} want ${r} tol ${tol}`).toBeLessThanOrEqual(tol);
  }
}

function upload(d: GD, shape: readonly number[], data: Float32Array | Int32Array | Uint32Array | Uint8Array): Tensor {
  return Tensor.fromStorage(d as DType, shape, data as never).to('gpu');
}

/**
 * One GPU reduction through the public function, checked against the reference and against
 * the CPU backend on the same data (max/min of an empty dim: both refuse with a ShapeError).
 */
async function check(d: GD, op: ReduceOp, shape: readonly number[], dims: readonly number[], keep: boolean, seed: number): Promise<void> {
  const data = makeData(d, op, sizeOf(shape), seed);
  const host = Tensor.fromStorage(d as DType, shape, data as never);
  const x = host.to('gpu');
  const label = `${op} ${d} [${shape.join(',')}] dims [${dims.join(',')}]${keep ? ' keep' : ''}`;
  if ((op === 'max' || op === 'min') && dims.some((i) => shape[i] === 0)) {
    expect(() => reduce(x, op, dims, keep), label).toThrow(ShapeError);
    expect(() => reduce(host, op, dims, keep), label).toThrow(ShapeError);
    x.dispose();
    return;
  }
  const y = reduce(x, op, dims, keep);
  const ref = reference(d, data, shape, dims, op, keep);
  expect(y.device, label).toBe('gpu');
  expect(y.dtype, label).toBe(reduceOutDtype(op, d));
  expect([...y.shape], label).toEqual(ref.shape);
  const len = sizeOf(dims.map((i) => shape[i]));
  const got = await y.data();
  expectClose(got, ref, d, op, len, label);
  // the CPU backend's result, within the same bounds (exactly, for integers and max/min/any/all)
  const cpu = reduce(host, op, dims, keep);
  expect([...cpu.shape], label).toEqual(ref.shape);
  expectClose(got, { ...ref, values: Array.from(cpu.dataSync()) }, d, op, len, `${label} vs CPU`);
  x.dispose();
  y.dispose();
}

/** (shape, dims, keepDims): every layout the planner distinguishes. */
const PATTERNS: Array<[number[], number[], boolean]> = [
  [[3, 7, 13], [0, 1, 2], false], // all
  [[3, 7, 13], [2], false], // last (rows kernel; rows start unaligned)
  [[3, 7, 13], [0], false], // first (columns kernel)
  [[3, 7, 13], [1], false], // middle
  [[3, 7, 13], [1], true], // keepDims
  [[3, 7, 13], [0, 2], false], // two non-adjacent dims: two passes
  [[2, 3, 4, 5], [1, 3], true], // non-adjacent with keepDims
  [[], [], false], // 0-d
  [[3, 0, 5], [1], false], // empty reduced dim: the identity
  [[0, 4], [1], false], // empty output
  [[5, 1, 6], [1], true], // a reduced dim of size 1: a copy (and conversion)
  [[2, 9001], [1], false], // long rows: the unrolled vec4 loop, a head and a tail
  [[70, 3, 2], [0], false], // inner 6: 8 columns × 32 lanes
  [[40, 300], [0], false], // inner 300: several column blocks
];

describe('GPU reduce: every op × dtype × dims pattern', () => {
  for (const d of GPU_DTYPES) {
    gpuIt(`${d}: ${opsOf(d).join(', ')}`, async () => {
      let seed = 1;
      // contiguous reductions: short ones several rows per workgroup (default), and all on the rows kernel (shortRow 1)
      for (const shortRow of [DEFAULT_REDUCE_PARAMS.shortRow, 1]) {
        setReduceParams({ shortRow });
        try {
          for (const op of opsOf(d)) for (const [shape, dims, keep] of PATTERNS) await check(d, op, shape, dims, keep, seed++);
        } finally {
          setReduceParams(DEFAULT_REDUCE_PARAMS);
        }
      }
    }, 120_000);
  }

  gpuIt('random shapes, dims and keepDims (fast-check)', async () => {
    const arb = fc.record({
      shape: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 0, maxLength: 4 }),
      pick: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      keep: fc.boolean(),
      d: fc.constantFrom(...GPU_DTYPES),
      op: fc.constantFrom(...OPS),
      seed: fc.integer({ min: 1, max: 1e6 }),
    });
    await fc.assert(fc.asyncProperty(arb, async ({ shape, pick, keep, d, op, seed }) => {
      const o = d === 'complex64' && (op === 'max' || op === 'min') ? 'sum' : op;
      const dims = shape.map((_, i) => i).filter((i) => pick[i]);
      await check(d, o, shape, dims.length ? dims : shape.map((_, i) => i), keep, seed);
    }), { numRuns: 40 });
  }, 120_000);

  gpuIt("an input's deferred check (a GPU take's index check, say) goes with the results, run once", async () => {
    const x = upload('float32', [2, 3], Float32Array.from([1, 2, 3, 4, 5, 6]));
    let runs = 0;
    x.setCheck(async () => { runs++; throw new RangeError('deferred failure'); });
    await expect(sum(x, { dim: 1 }).data()).rejects.toThrow('deferred failure');
    const { values, indices } = maxWithIndices(x, 0);
    await expect(values.data()).rejects.toThrow('deferred failure');
    await expect(indices.data()).rejects.toThrow('deferred failure');
    expect(runs).toBe(1); // a check runs once however many tensors carry it (Tensor.setCheck)
  });

  gpuIt('max/min/argmax of complex64 are DTypeErrors', () => {
    const x = upload('complex64', [2], new Float32Array(4));
    expect(() => reduce(x, 'max', [0], false)).toThrow(DTypeError);
    expect(() => reduce(x, 'min', [0], false)).toThrow(DTypeError);
    expect(() => argmax(x)).toThrow(DTypeError);
  });
});

describe('GPU reduce: NaN, Inf, −0, wrap-around', () => {
  gpuIt('rows and columns: NaN propagates through max/min/sum (head, body, tail), Inf sums stay Inf', async () => {
    const n = 1037; // rows 1.. start unaligned: the first elements are a scalar head
    const a = new Float32Array(4 * n).map((_, i) => ((i * 7919) % 1000) / 100 - 5);
    a[0 * n + 5] = -Infinity; a[0 * n + 900] = Infinity; // row 0: ±Inf → sum NaN, max Inf, min −Inf
    a[1 * n + 0] = NaN; // row 1: NaN in the head
    a[2 * n + n - 1] = NaN; // row 2: NaN in the tail
    a[3 * n + 17] = Infinity; // row 3: +Inf alone → sum Inf (Kahan's compensation must not make it NaN)
    const t = new Float32Array(4 * n); // the transpose, reduced over dim 0 (columns kernel)
    for (let i = 0; i < 4; i++) for (let j = 0; j < n; j++) t[j * 4 + i] = a[i * n + j];
    const x = upload('float32', [4, n], a), xt = upload('float32', [n, 4], t);
    const finiteMin = Math.min(...Array.from(a.subarray(3 * n, 4 * n)));
    const want: Record<string, number[]> = {
      max: [Infinity, NaN, NaN, Infinity], min: [-Infinity, NaN, NaN, finiteMin],
      sum: [NaN, NaN, NaN, Infinity], any: [1, 1, 1, 1],
    };
    for (const op of ['max', 'min', 'sum', 'any'] as const) {
      for (const [src, dim] of [[x, 1], [xt, 0]] as const) {
        const got = Array.from(await reduce(src, op, [dim], false).data());
        want[op].forEach((v, i) => expect(sameValue(got[i], v), `${op} dim ${dim} [${i}]: ${got[i]} vs ${v}`).toBe(true));
      }
    }
    // a full reduction sees the NaN too, through both passes
    setReduceParams({ partials: 8, minChunk: 64 });
    try {
      expect(Number.isNaN((await reduce(x, 'max', [0, 1], false).data())[0])).toBe(true);
      expect((await reduce(x.reshape([4 * n]), 'max', [0], false).data())[0]).toBeNaN();
    } finally {
      setReduceParams(DEFAULT_REDUCE_PARAMS);
    }
  });

  gpuIt('any/all: NaN and subnormals are true, ±0 false; complex by either part', async () => {
    const f = upload('float32', [4, 2], Float32Array.from([-0, 0, NaN, 0, -0, 1e-45, 1, -2]));
    expect(Array.from(await reduce(f, 'any', [1], false).data())).toEqual([0, 1, 1, 1]);
    expect(Array.from(await reduce(f, 'all', [1], false).data())).toEqual([0, 0, 0, 1]);
    const c = upload('complex64', [3], Float32Array.from([-0, 0, 0, -2, 1e-45, 0]));
    expect(Array.from(await reduce(c, 'all', [0], false).data())).toEqual([0]);
    expect(Array.from(await reduce(c.reshape([3, 1]), 'any', [1], false).data())).toEqual([0, 1, 1]);
  });

  gpuIt('integer sums and products wrap; bool sums count in int32', async () => {
    const i32 = upload('int32', [3, 2], Int32Array.from([2 ** 31 - 1, 1, 65536, 65536, -(2 ** 31), -1]));
    expect(Array.from(await reduce(i32, 'sum', [1], false).data())).toEqual([-(2 ** 31), 131072, 2 ** 31 - 1]);
    expect(Array.from(await reduce(i32, 'prod', [1], false).data())).toEqual([2 ** 31 - 1, 0, -(2 ** 31)]);
    expect(Array.from(await reduce(i32, 'min', [0, 1], false).data())).toEqual([-(2 ** 31)]);
    const u32 = upload('uint32', [2, 2], Uint32Array.from([2 ** 32 - 1, 2, 2 ** 31, 3]));
    expect(Array.from(await reduce(u32, 'sum', [1], false).data())).toEqual([1, 2 ** 31 + 3]);
    expect(Array.from(await reduce(u32, 'max', [0], false).data())).toEqual([2 ** 32 - 1, 3]);
    const b = upload('bool', [3000], Uint8Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? 1 : 0)));
    const s = reduce(b, 'sum', [0], false);
    expect(s.dtype).toBe('int32');
    expect(Array.from(await s.data())).toEqual([1000]);
  });
});

/** First index of the extremum (NaN wins, numpy's rule) along `dim`, and the values. */
function argReference(data: ArrayLike<number>, shape: readonly number[], dim: number, op: 'max' | 'min'): { values: number[]; indices: number[] } {
  const len = shape[dim];
  const outer = sizeOf(shape.slice(0, dim)), inner = sizeOf(shape.slice(dim + 1));
  const values: number[] = [], indices: number[] = [];
  for (let o = 0; o < outer; o++) for (let j = 0; j < inner; j++) {
    let bi = 0, bv = data[o * len * inner + j];
    for (let r = 1; r < len && !Number.isNaN(bv); r++) {
      const v = data[(o * len + r) * inner + j];
      if (Number.isNaN(v) || (op === 'max' ? v > bv : v < bv)) { bv = v; bi = r; }
    }
    values.push(bv);
    indices.push(bi);
  }
  return { values, indices };
}

/** max/min with indices along `dim` through maxWithIndices/minWithIndices, against the reference and the CPU. */
async function checkArg(d: GD, op: 'max' | 'min', shape: number[], dim: number, keep: boolean, data: ArrayLike<number>): Promise<void> {
  const host = Tensor.fromStorage(d as DType, shape, data as never);
  const x = host.to('gpu');
  const f = op === 'max' ? maxWithIndices : minWithIndices;
  const { values, indices } = f(x, dim, { keepDims: keep });
  const label = `arg${op} ${d} [${shape.join(',')}] dim ${dim}${keep ? ' keep' : ''}`;
  const ref = argReference(data, shape.length ? shape : [1], dim, op);
  const want = shape.length === 0 ? [] : shape.map((n, i) => (i === dim ? 1 : n)).filter((_, i) => keep || i !== dim);
  expect([...values.shape], label).toEqual(want);
  expect(indices.device, label).toBe('gpu');
  expect(indices.dtype, label).toBe('int32');
  expect(values.dtype, label).toBe(d);
  const gv = Array.from(await values.data()), gi = Array.from(await indices.data());
  expect(gi, label).toEqual(ref.indices);
  ref.values.forEach((v, i) => { if (!sameValue(gv[i], v)) expect(gv[i], `${label} value [${i}]`).toBe(v); });
  const cpu = f(host, dim, { keepDims: keep });
  expect(gi, `${label} vs CPU`).toEqual(Array.from(cpu.indices.dataSync()));
  // and the flat index (no dim), as argmax/argmin give it
  const flat = (op === 'max' ? argmax : argmin)(x);
  expect(Array.from(await flat.data()), `${label} flat`).toEqual(Array.from((op === 'max' ? argmax : argmin)(host).dataSync()));
  x.dispose();
}

function argData(d: GD, n: number, seed: number): Float32Array | Int32Array | Uint32Array | Uint8Array {
  const r = rng(seed);
  switch (d) {
    case 'float32': return Float32Array.from({ length: n }, () => Math.round(r() * 8) - 4); // many ties
    case 'int32': return Int32Array.from({ length: n }, () => (r() < 0.5 ? Math.round(r() * 6) - 3 : (r() * 2 ** 32) | 0));
    case 'uint32': return Uint32Array.from({ length: n }, () => (r() < 0.5 ? Math.round(r() * 6) : (r() * 2 ** 32) >>> 0));
    default: return Uint8Array.from({ length: n }, () => (r() < 0.3 ? 1 : 0));
  }
}

describe('GPU argReduce: first extremum, NaN counts as the extremum', () => {
  const ARG_SHAPES: Array<[number[], number, boolean]> = [
    [[3, 7, 13], 0, false], [[3, 7, 13], 1, true], [[3, 7, 13], 2, false], [[2, 5000], 1, false], [[600, 3], 0, false], [[], 0, false],
  ];
  for (const d of ['float32', 'int32', 'uint32', 'bool'] as const) {
    gpuIt(`${d}: dims first, middle, last, keepDims, 0-d`, async () => {
      let seed = 100;
      for (const op of ['max', 'min'] as const) {
        for (const [shape, dim, keep] of ARG_SHAPES) await checkArg(d, op, shape, dim, keep, argData(d, sizeOf(shape), seed++));
      }
    }, 60_000);
  }

  gpuIt('NaN and ±Inf (float32)', async () => {
    const n = 2000;
    const a = Float32Array.from({ length: 3 * n }, (_, i) => Math.sin(i));
    a[0 * n + 1500] = NaN; a[0 * n + 700] = NaN; // row 0: the first NaN is at 700
    a[1 * n + 10] = Infinity; a[1 * n + 11] = -Infinity; a[1 * n + 1999] = Infinity; // row 1: first +Inf / −Inf
    for (const op of ['max', 'min'] as const) {
      await checkArg('float32', op, [3, n], 1, false, a);
      const t = new Float32Array(3 * n);
      for (let i = 0; i < 3; i++) for (let j = 0; j < n; j++) t[j * 3 + i] = a[i * n + j];
      await checkArg('float32', op, [n, 3], 0, true, t);
    }
    expect(Array.from(await argmax(upload('float32', [3, n], a), { dim: 1 }).data()).slice(0, 2)).toEqual([700, 10]);
  });
});

describe('GPU reduce: the two-pass path (thresholds forced small)', () => {
  beforeAll(() => { setReduceParams({ partials: 16, minChunk: 8 }); });
  afterAll(() => { setReduceParams(DEFAULT_REDUCE_PARAMS); });

  gpuIt('every op and dtype, rows and columns, split over workgroups then folded', async () => {
    let seed = 500;
    const shapes: Array<[number[], number[]]> = [[[5000], [0]], [[3, 1111], [1]], [[200, 3], [0]], [[7, 70, 5], [0, 2]], [[300, 40], [1]]];
    for (const shortRow of [DEFAULT_REDUCE_PARAMS.shortRow, 1]) {
      setReduceParams({ shortRow });
      // shortRow 1: short rows on the rows kernel, and the folding passes too
      const some = shortRow === 1 ? shapes.slice(3) : shapes;
      for (const d of GPU_DTYPES) for (const op of opsOf(d)) for (const [shape, dims] of some) await check(d, op, shape, dims, false, seed++);
    }
    setReduceParams({ shortRow: DEFAULT_REDUCE_PARAMS.shortRow });
  }, 120_000);

  gpuIt('a full reduction is two dispatches; argReduce splits too', async () => {
    const x = upload('float32', [4099], makeData('float32', 'sum', 4099, 9));
    const before = dispatchCount();
    const y = reduce(x, 'sum', [0], false);
    expect(dispatchCount() - before).toBe(2);
    await y.data();
    for (const d of ['float32', 'int32', 'uint32', 'bool'] as const) {
      for (const op of ['max', 'min'] as const) {
        await checkArg(d, op, [3, 3001], 1, false, argData(d, 9003, 7));
        await checkArg(d, op, [900, 2], 0, false, argData(d, 1800, 8));
        await checkArg(d, op, [700, 9], 1, true, argData(d, 6300, 9)); // short rows, several per workgroup
      }
    }
  }, 60_000);
});

describe('GPU reduce: the plan and a large sum', () => {
  gpuIt('planReduce merges adjacent dims and reduces non-adjacent runs last first', () => {
    expect(planReduce([3, 4, 5], [0, 1, 2])).toEqual([{ outer: 1, len: 60, inner: 1 }]);
    expect(planReduce([3, 4, 5, 6], [1, 2])).toEqual([{ outer: 3, len: 20, inner: 6 }]);
    expect(planReduce([3, 4, 5], [0, 2])).toEqual([{ outer: 12, len: 5, inner: 1 }, { outer: 1, len: 3, inner: 4 }]);
    expect(planReduce([2, 1, 5], [1])).toEqual([{ outer: 1, len: 1, inner: 10 }]);
    expect(planReduce([2, 0, 5], [1])).toEqual([{ outer: 10, len: 0, inner: 1 }]);
    expect(planReduce([0, 5], [1])).toEqual([]);
  });

  gpuIt('10 M float32 with a large mean: relative error ≤ 1e-6 against float64, in two dispatches', async () => {
    const n = 10_000_000;
    const r = rng(77);
    const a = new Float32Array(n);
    let exact = 0, abs = 0;
    for (let i = 0; i < n; i++) { a[i] = 1000 + (r() - 0.5) * 10; exact += a[i]; abs += Math.abs(a[i]); }
    const x = upload('float32', [n], a);
    const before = dispatchCount();
    const y = reduce(x, 'sum', [0], false);
    expect(dispatchCount() - before).toBeLessThanOrEqual(2);
    const got = (await y.data())[0];
    expect(Math.abs(got - exact) / abs).toBeLessThanOrEqual(1e-6);
    // column sums over 10⁴ rows, split over workgroups (default), and unsplit with one lane
    // per column: each thread's chain is then 10⁴ rows long, which only the compensated sum
    // keeps within 1e-6 (a plain float32 chain errs by ~2e-6 here)
    const w = 256;
    const c = upload('float32', [10_000, w], a.subarray(0, 10_000 * w));
    const cols = [3, 100, 255].map((j) => { let t = 0; for (let i = 0; i < 10_000; i++) t += a[i * w + j]; return t; });
    for (const [partials, maxCx] of [[DEFAULT_REDUCE_PARAMS.partials, DEFAULT_REDUCE_PARAMS.maxCx], [1, 256]]) {
      setReduceParams({ partials, maxCx });
      try {
        const zs = await reduce(c, 'sum', [0], false).data();
        [3, 100, 255].forEach((j, q) => expect(Math.abs(zs[j] - cols[q]) / cols[q], `partials ${partials} column ${j}`).toBeLessThanOrEqual(1e-6));
      } finally {
        setReduceParams(DEFAULT_REDUCE_PARAMS);
      }
    }
    c.dispose();
    x.dispose();
  }, 60_000);
});
