// Reductions on the CPU: sum, mean, prod, max, min, any, all, argmax/argmin and
// max/minWithIndices against plain-JS reference loops (every dtype, every dims pattern:
// all, single, pairs, negative, keepDims both ways, 0-d and empty inputs), mathjs for the
// float64 full reductions, numpy's NaN/Inf/−0 rules, integer wrap-around, the float32
// accuracy of a 10 M sum, and the typed errors.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as math from 'mathjs';
import {
  sum, mean, prod, max, min, any, all, argmax, argmin, maxWithIndices, minWithIndices, Tensor, tensor,
  ArgumentError, DTypeError, ShapeError, type DType,
} from '../../src/index.js';
import { NATIVE_DTYPES as DTYPES, isComplex, scalarsPerElement, storageCtor, type NativeDType } from '../../src/core/dtype.js';

type Op = 'sum' | 'prod' | 'max' | 'min' | 'any' | 'all';
const FNS = { sum, prod, max, min, any, all } as const;
const EPS: Record<NativeDType, number> = {
  float32: 2 ** -23, complex64: 2 ** -23, float64: 2 ** -52, complex128: 2 ** -52, int32: 0, uint32: 0, bool: 0,
};

/** A value as the reference handles it: [re, im] (im 0 for real dtypes). */
type C = [number, number];

function sizeOf(shape: readonly number[]): number {
  return shape.reduce((p, s) => p * s, 1);
}

/** A tensor of `dtype` and `shape` from a seeded stream of small values (prod stays in range). */
function randomTensor(dtype: DType, shape: number[], rnd: () => number, special = false): Tensor {
  const n = sizeOf(shape) * scalarsPerElement(dtype);
  const C = storageCtor(dtype);
  const data = new C(n);
  const pool = [Number.NaN, Infinity, -Infinity, -0, 0];
  for (let i = 0; i < n; i++) {
    const u = rnd();
    if (dtype === 'bool') data[i] = u < 0.5 ? 1 : 0;
    else if (dtype === 'int32') data[i] = u < 0.1 ? (u < 0.05 ? 2147483647 : -2147483648) : Math.floor(u * 21) - 10;
    else if (dtype === 'uint32') data[i] = u < 0.1 ? 4294967295 : Math.floor(u * 21);
    else if (special && u < 0.15) data[i] = pool[Math.floor(rnd() * pool.length)];
    else data[i] = Math.round((rnd() * 3 - 1.5) * 64) / 64; // exact in float32
  }
  return Tensor.fromStorage(dtype, shape, data as never);
}

function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function valuesOf(t: Tensor): C[] {
  const d = t.dataSync();
  const out: C[] = [];
  const k = scalarsPerElement(t.dtype);
  for (let i = 0; i < t.size; i++) out.push([d[i * k], k === 2 ? d[i * k + 1] : 0]);
  return out;
}

/** Reference: op over the dims (sorted, unique) of x, in float64 / exact integer arithmetic. */
function reference(x: Tensor, op: Op, dims: number[], keepDims: boolean): { shape: number[]; vals: C[]; mags: number[] } {
  const shape = x.shape;
  const xs = valuesOf(x);
  const outShape: number[] = [];
  shape.forEach((s, d) => { if (!dims.includes(d)) outShape.push(s); else if (keepDims) outShape.push(1); });
  const keptDims = shape.map((_, d) => d).filter((d) => !dims.includes(d));
  const strides = shape.map((_, d) => sizeOf(shape.slice(d + 1)));
  const nOut = sizeOf(keptDims.map((d) => shape[d]));
  const nRed = sizeOf(dims.map((d) => shape[d]));
  const vals: C[] = [];
  const mags: number[] = [];
  for (let o = 0; o < nOut; o++) {
    let base = 0, rem = o;
    for (let k = keptDims.length - 1; k >= 0; k--) {
      const d = keptDims[k];
      base += (rem % shape[d]) * strides[d];
      rem = Math.floor(rem / shape[d]);
    }
    const items: C[] = [];
    for (let r = 0; r < nRed; r++) {
      let off = base, rr = r;
      for (let k = dims.length - 1; k >= 0; k--) {
        const d = dims[k];
        off += (rr % shape[d]) * strides[d];
        rr = Math.floor(rr / shape[d]);
      }
      items.push(xs[off]);
    }
    mags.push(items.reduce((p, [re, im]) => p + Math.abs(re) + Math.abs(im), 0));
    vals.push(combine(op, x.dtype, items));
  }
  return { shape: outShape, vals, mags };
}

function combine(op: Op, dtype: DType, items: C[]): C {
  const int = dtype === 'int32', uint = dtype === 'uint32', bool = dtype === 'bool';
  const nz = ([re, im]: C) => re !== 0 || im !== 0; // NaN !== 0: true
  switch (op) {
    case 'sum': {
      if (int || uint || bool) {
        let a = 0;
        for (const [v] of items) a = (a + v) | 0;
        return [uint ? a >>> 0 : a, 0];
      }
      return items.reduce<C>((a, [re, im]) => [a[0] + re, a[1] + im], [0, 0]);
    }
    case 'prod': {
      if (int || uint || bool) {
        let a = 1;
        for (const [v] of items) a = Math.imul(a, v);
        return [uint ? a >>> 0 : a, 0];
      }
      if (!isComplex(dtype)) return [items.reduce((a, [re]) => a * re, 1), 0];
      return items.reduce<C>((a, [re, im]) => [a[0] * re - a[1] * im, a[0] * im + a[1] * re], [1, 0]);
    }
    case 'max': case 'min': {
      let m = items[0][0];
      for (const [v] of items) {
        if (Number.isNaN(v) || Number.isNaN(m)) { m = Number.NaN; continue; }
        if (op === 'max' ? v > m : v < m) m = v;
      }
      return [m, 0];
    }
    case 'any': return [items.some(nz) ? 1 : 0, 0];
    case 'all': return [items.every(nz) ? 1 : 0, 0];
  }
}

function close(got: number, want: number, tol: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (got === want) return true;
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= tol;
}

function checkReduce(x: Tensor, op: Op, dims: number[], keepDims: boolean, dimArg: number | number[] | undefined): void {
  const got = FNS[op](x, { dim: dimArg, keepDims });
  const ref = reference(x, op, dims, keepDims);
  const label = `${op} ${x.dtype} ${JSON.stringify(x.shape)} dim=${JSON.stringify(dimArg)} keepDims=${keepDims}`;
  expect(got.shape, label).toEqual(ref.shape);
  const wantDtype = op === 'any' || op === 'all' ? 'bool' : (op === 'sum' || op === 'prod') && x.dtype === 'bool' ? 'int32' : x.dtype;
  expect(got.dtype, label).toBe(wantDtype);
  const gv = valuesOf(got);
  const n = sizeOf(dims.map((d) => x.shape[d]));
  const eps = EPS[x.dtype as NativeDType];
  gv.forEach(([re, im], i) => {
    const [wr, wi] = ref.vals[i];
    // Summation error bound: a few ulps of the magnitude sum (pairwise is tighter); products: n ulps.
    const tol = op === 'sum' ? 4 * eps * ref.mags[i] : op === 'prod' ? 2 * (n + 1) * eps * Math.hypot(wr, wi) : 0;
    expect(close(re, wr, tol) && close(im, wi, tol), `${label} at ${i}: got ${re},${im} want ${wr},${wi}`).toBe(true);
  });
}

/** Shapes of 0–4 dims of 0–4 entries (mostly non-empty) and a dims choice for them. */
const shapeArb = fc.array(fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.constant(0) }), {
  minLength: 0, maxLength: 4,
});

function pickDims(nd: number, rnd: () => number): { dims: number[]; arg: number | number[] | undefined } {
  const mode = Math.floor(rnd() * 4);
  if (mode === 0 || nd === 0) return { dims: Array.from({ length: nd }, (_, i) => i), arg: undefined };
  const chosen = Array.from({ length: nd }, (_, i) => i).filter(() => rnd() < 0.5);
  if (chosen.length === 0) chosen.push(Math.floor(rnd() * nd));
  // negative spellings and any order
  const arg = chosen.map((d) => (rnd() < 0.5 ? d - nd : d)).sort(() => rnd() - 0.5);
  if (mode === 1 && chosen.length === 1) return { dims: chosen, arg: arg[0] };
  return { dims: chosen, arg };
}

describe('reductions: every op × dtype × dims pattern against reference loops', () => {
  for (const op of ['sum', 'prod', 'max', 'min', 'any', 'all'] as Op[]) {
    for (const dtype of DTYPES) {
      if ((op === 'max' || op === 'min') && isComplex(dtype)) continue;
      it(`${op} ${dtype}`, () => {
        fc.assert(fc.property(shapeArb, fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (shape, seed, keepDims) => {
          const rnd = mulberry(seed);
          const x = randomTensor(dtype, shape, rnd, true);
          const { dims, arg } = pickDims(shape.length, rnd);
          if ((op === 'max' || op === 'min') && dims.some((d) => shape[d] === 0)) {
            expect(() => FNS[op](x, { dim: arg, keepDims })).toThrow(ShapeError);
            return;
          }
          checkReduce(x, op, dims, keepDims, arg);
        }), { numRuns: 60 });
      });
    }
  }

  it('every single dim and every pair of dims of a 4-d tensor, all ops, keepDims both ways', () => {
    const rnd = mulberry(7);
    const x = randomTensor('float64', [3, 2, 4, 5], rnd, true);
    const xi = randomTensor('int32', [3, 2, 4, 5], rnd);
    for (let a = 0; a < 4; a++) {
      for (const keepDims of [false, true]) {
        for (const op of ['sum', 'prod', 'max', 'min', 'any', 'all'] as Op[]) {
          checkReduce(x, op, [a], keepDims, a);
          checkReduce(xi, op, [a], keepDims, a - 4);
          for (let b = a + 1; b < 4; b++) checkReduce(x, op, [a, b], keepDims, [b, a - 4]);
        }
      }
    }
  });

  it('larger shapes take the blocked and parallel paths (long rows, long columns, middle dims)', () => {
    const rnd = mulberry(11);
    for (const [shape, dims] of [
      [[70000], [0]], [[3, 40000], [1]], [[9000, 3], [0]], [[5000, 2, 3], [0, 2]], [[3, 300, 300], [1]], [[2, 5000, 7], [1]],
      [[300, 300], [0, 1]], [[10, 9000], [0]],
    ] as [number[], number[]][]) {
      const xf = randomTensor('float32', shape, rnd);
      const xi = randomTensor('int32', shape, rnd);
      const xc = randomTensor('complex128', shape, rnd);
      for (const op of ['sum', 'max', 'min', 'any', 'all'] as Op[]) {
        checkReduce(xf, op, dims, false, dims);
        checkReduce(xi, op, dims, true, dims);
      }
      checkReduce(xc, 'sum', dims, false, dims);
      checkReduce(xi, 'prod', dims, false, dims);
    }
  });

  it('0-d input: every op returns a 0-d tensor of the element (dim 0 and −1 name the tensor itself)', () => {
    const x = tensor(-2.5);
    expect(sum(x).shape).toEqual([]);
    expect(sum(x).dataSync()[0]).toBe(-2.5);
    expect(prod(x, { dim: 0 }).dataSync()[0]).toBe(-2.5);
    expect(max(x, { dim: -1, keepDims: true }).shape).toEqual([]);
    expect(any(x).dtype).toBe('bool');
    expect(any(x).dataSync()[0]).toBe(1);
    expect(argmax(x).shape).toEqual([]);
    expect(argmax(x).dataSync()[0]).toBe(0);
    const w = maxWithIndices(x, 0);
    expect(w.values.shape).toEqual([]);
    expect(w.values.dataSync()[0]).toBe(-2.5);
    expect(mean(x).dataSync()[0]).toBe(-2.5);
  });

  it('empty reductions: sum 0, prod 1, any false, all true, mean NaN; max/min/argmax of an empty dim are ShapeErrors', () => {
    for (const dtype of DTYPES) {
      const x = Tensor.empty(dtype, [2, 0, 3]);
      expect(Array.from(sum(x, { dim: 1 }).dataSync())).toEqual(new Array(6 * scalarsPerElement(dtype)).fill(0));
      const p = prod(x, { dim: [1] });
      expect(p.shape).toEqual([2, 3]);
      expect(valuesOf(p)).toEqual(new Array(6).fill([1, 0]));
      expect(Array.from(any(x, { dim: 1 }).dataSync())).toEqual([0, 0, 0, 0, 0, 0]);
      expect(Array.from(all(x, { dim: 1 }).dataSync())).toEqual([1, 1, 1, 1, 1, 1]);
      expect(sum(x).shape).toEqual([]);
      expect(sum(x, { dim: 0 }).shape).toEqual([0, 3]);
      if (!isComplex(dtype)) {
        expect(() => max(x, { dim: 1 }), dtype).toThrow(ShapeError);
        expect(() => min(x), dtype).toThrow(ShapeError);
        expect(() => argmax(x), dtype).toThrow(ShapeError);
        expect(() => argmin(x, { dim: 1 }), dtype).toThrow(ShapeError);
        expect(() => maxWithIndices(x, -2), dtype).toThrow(ShapeError);
        // reducing a non-empty dim of an empty tensor is fine: an empty result
        expect(max(x, { dim: 2 }).shape).toEqual([2, 0]);
        expect(argmax(x, { dim: 0 }).shape).toEqual([0, 3]);
      }
    }
    expect(Number.isNaN(mean(Tensor.empty('float64', [0])).dataSync()[0])).toBe(true);
  });
});

describe('reductions: mathjs on float64 full reductions', () => {
  it('sum, prod, max, min, mean of float64 vectors match mathjs', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -256, max: 256 }).map((i) => i / 64 + (i % 7) * 1e-9), { minLength: 1, maxLength: 300 }), (v) => {
      const x = tensor(v);
      const s = math.sum(v) as number;
      expect(Math.abs(sum(x).dataSync()[0] - s)).toBeLessThanOrEqual(4 * 2 ** -52 * v.reduce((p, a) => p + Math.abs(a), 0));
      expect(max(x).dataSync()[0]).toBe(math.max(v));
      expect(min(x).dataSync()[0]).toBe(math.min(v));
      const m = math.mean(v) as number;
      expect(Math.abs(mean(x).dataSync()[0] - m)).toBeLessThanOrEqual(8 * 2 ** -52 * v.reduce((p, a) => p + Math.abs(a), 0) / v.length + 1e-300);
      const short = v.slice(0, 20);
      const pr = math.prod(short) as number;
      expect(Math.abs(prod(tensor(short)).dataSync()[0] - pr)).toBeLessThanOrEqual(42 * 2 ** -52 * Math.abs(pr));
    }), { numRuns: 60 });
  });

  it('mean along dims matches mathjs mean of each slice; integral input gives float32', () => {
    const A = [[1, 2, 4], [3, 5, 9]];
    expect(Array.from(mean(A, { dim: 0 }).dataSync())).toEqual([0, 1, 2].map((j) => math.mean(A[0][j], A[1][j])));
    expect(Array.from(mean(A, { dim: 1 }).dataSync())).toEqual(A.map((r) => math.mean(r)));
    const xi = Tensor.fromStorage('int32', [4], Int32Array.of(1, 2, 4, 2147483647));
    const m = mean(xi);
    expect(m.dtype).toBe('float32');
    expect(m.dataSync()[0]).toBe(Math.fround(Math.fround(Math.fround(2147483647) + 7) / 4));
    const mb = mean(Tensor.fromStorage('bool', [2, 2], Uint8Array.of(1, 0, 1, 1)), { dim: 1 });
    expect(mb.dtype).toBe('float32');
    expect(Array.from(mb.dataSync())).toEqual([0.5, 1]);
    const mc = mean(Tensor.fromStorage('complex128', [2], Float64Array.of(1, 2, 3, -4)));
    expect(mc.dtype).toBe('complex128');
    expect(Array.from(mc.dataSync())).toEqual([2, -1]);
  });
});

describe('reductions: numpy NaN / Inf / −0 rules', () => {
  const f = (v: number[], dtype: DType = 'float64') =>
    Tensor.fromStorage(dtype, [v.length], dtype === 'float32' ? Float32Array.from(v) : Float64Array.from(v));
  for (const dtype of ['float32', 'float64'] as DType[]) {
    it(`${dtype}: max/min propagate NaN anywhere in long and short rows and columns`, () => {
      for (const n of [1, 7, 8, 9, 100, 40000, 70000]) {
        for (const at of [0, Math.floor(n / 2), n - 1]) {
          const v = Array.from({ length: n }, (_, i) => i % 13);
          v[at] = Number.NaN;
          expect(Number.isNaN(max(f(v, dtype)).dataSync()[0]), `max n=${n} at=${at}`).toBe(true);
          expect(Number.isNaN(min(f(v, dtype)).dataSync()[0]), `min n=${n} at=${at}`).toBe(true);
          expect(argmax(f(v, dtype)).dataSync()[0]).toBe(at);
          expect(argmin(f(v, dtype)).dataSync()[0]).toBe(at);
          // two NaNs: the first one's index
          if (at < n - 1) {
            v[n - 1] = Number.NaN;
            expect(argmax(f(v, dtype)).dataSync()[0]).toBe(at);
          }
        }
      }
      // along a non-inner dim (the column kernel)
      const x = Tensor.fromStorage(dtype, [4, 2], (dtype === 'float32' ? Float32Array : Float64Array).from([1, 5, NaN, 2, 7, NaN, 0, 9]));
      expect(Array.from(max(x, { dim: 0 }).dataSync()).map(String)).toEqual(['NaN', 'NaN']);
      expect(Array.from(argmax(x, { dim: 0 }).dataSync())).toEqual([1, 2]);
      expect(Array.from(argmin(x, { dim: 0 }).dataSync())).toEqual([1, 2]);
      const w = minWithIndices(x, 0, { keepDims: true });
      expect(w.values.shape).toEqual([1, 2]);
      expect(Array.from(w.indices.dataSync())).toEqual([1, 2]);
    });

    it(`${dtype}: sums of ±Inf as IEEE, NaN propagates through sum and prod, −0 rules`, () => {
      expect(sum(f([Infinity, 1, 2], dtype)).dataSync()[0]).toBe(Infinity);
      expect(Number.isNaN(sum(f([Infinity, -Infinity], dtype)).dataSync()[0])).toBe(true);
      expect(Number.isNaN(prod(f([0, Infinity], dtype)).dataSync()[0])).toBe(true);
      expect(Number.isNaN(sum(f([1, NaN, 2], dtype)).dataSync()[0])).toBe(true);
      // numpy: sum starts from +0, so a sum of −0s is +0; prod of a −0 is −0
      expect(Object.is(sum(f([-0, -0], dtype)).dataSync()[0], 0)).toBe(true);
      expect(Object.is(prod(f([-0], dtype)).dataSync()[0], -0)).toBe(true);
      // max/min of ±0 return a zero (its sign is unspecified, as in numpy); argmax gives the first
      expect(max(f([-0, 0], dtype)).dataSync()[0] === 0).toBe(true);
      expect(min(f([0, -0], dtype)).dataSync()[0] === 0).toBe(true);
      expect(argmax(f([-0, 0], dtype)).dataSync()[0]).toBe(0);
      expect(argmax(f([0, -0], dtype)).dataSync()[0]).toBe(0);
      expect(max(f([-Infinity, -Infinity], dtype)).dataSync()[0]).toBe(-Infinity);
      expect(argmax(f([-Infinity, -Infinity], dtype)).dataSync()[0]).toBe(0);
      expect(argmin(f([Infinity, 3, Infinity], dtype)).dataSync()[0]).toBe(1);
      expect(any(f([0, NaN], dtype)).dataSync()[0]).toBe(1);
      expect(all(f([-0, 1], dtype)).dataSync()[0]).toBe(0);
    });
  }

  it('complex: any/all look at both parts; sum keeps the parts apart', () => {
    const c = Tensor.fromStorage('complex64', [3], Float32Array.of(0, 1, 0, 0, NaN, 0));
    expect(Array.from(any(c, { dim: 0 }).dataSync())).toEqual([1]);
    expect(Array.from(all(c).dataSync())).toEqual([0]);
    const s = sum(Tensor.fromStorage('complex128', [2], Float64Array.of(1, 2, NaN, 0))).dataSync();
    expect(Number.isNaN(s[0])).toBe(true);
    expect(s[1]).toBe(2);
  });
});

describe('reductions: integers wrap, bool sums count', () => {
  it('int32 and uint32 sums and products wrap modulo 2^32', () => {
    const i = Tensor.fromStorage('int32', [2, 2], Int32Array.of(2147483647, 1, 2147483647, 2));
    expect(Array.from(sum(i, { dim: 1 }).dataSync())).toEqual([-2147483648, -2147483647]);
    expect(Array.from(prod(Tensor.fromStorage('int32', [3], Int32Array.of(65536, 65536, -3) )).dataSync())).toEqual([0]);
    expect(Array.from(prod(Tensor.fromStorage('int32', [2], Int32Array.of(65537, 65537))).dataSync())).toEqual([Math.imul(65537, 65537)]);
    const u = Tensor.fromStorage('uint32', [2], Uint32Array.of(4294967295, 2));
    expect(Array.from(sum(u).dataSync())).toEqual([1]);
    expect(sum(u).dtype).toBe('uint32');
    expect(Array.from(max(u).dataSync())).toEqual([4294967295]);
    expect(Array.from(argmax(u).dataSync())).toEqual([0]);
    expect(Array.from(min(Tensor.fromStorage('int32', [2], Int32Array.of(-2147483648, 5))).dataSync())).toEqual([-2147483648]);
  });

  it('sum of bool counts in int32; prod of bool is int32; max/min of bool stay bool', () => {
    const b = Tensor.fromStorage('bool', [100000], Uint8Array.from({ length: 100000 }, (_, i) => (i % 3 === 0 ? 1 : 0)));
    const s = sum(b);
    expect(s.dtype).toBe('int32');
    expect(s.dataSync()[0]).toBe(33334);
    expect(prod(b).dtype).toBe('int32');
    expect(prod(b).dataSync()[0]).toBe(0);
    expect(max(b).dtype).toBe('bool');
    expect(max(b).dataSync()[0]).toBe(1);
    expect(argmax(b).dataSync()[0]).toBe(0);
    expect(argmin(b).dataSync()[0]).toBe(1);
  });
});

describe('reductions: argmax / argmin / withIndices against references', () => {
  for (const dtype of ['float32', 'float64', 'int32', 'uint32', 'bool'] as DType[]) {
    it(`${dtype}: first index of the extremum, dim or flattened, keepDims both ways`, () => {
      fc.assert(fc.property(shapeArb, fc.integer({ min: 0, max: 2 ** 31 }), fc.boolean(), (shape, seed, keepDims) => {
        const rnd = mulberry(seed);
        const x = randomTensor(dtype, shape, rnd, true);
        const nd = shape.length;
        const dim = nd === 0 || rnd() < 0.25 ? undefined : Math.floor(rnd() * nd) - (rnd() < 0.5 ? nd : 0);
        const empty = dim === undefined ? x.size === 0 : shape[dim < 0 ? dim + nd : dim] === 0;
        for (const op of ['max', 'min'] as const) {
          const fn = op === 'max' ? argmax : argmin;
          if (empty) {
            expect(() => fn(x, { dim, keepDims })).toThrow(ShapeError);
            continue;
          }
          const got = fn(x, { dim, keepDims });
          expect(got.dtype).toBe('int32');
          const d = dim === undefined ? 0 : dim < 0 ? dim + nd : dim;
          const fshape = dim === undefined ? [x.size] : x.shape;
          const outer = sizeOf(fshape.slice(0, d)), n = fshape[d] ?? 1, inner = sizeOf(fshape.slice(d + 1));
          const xs = valuesOf(x).map((c) => c[0]);
          const want: number[] = [];
          const wantVals: number[] = [];
          for (let o = 0; o < outer; o++) {
            for (let j = 0; j < inner; j++) {
              let bi = 0;
              for (let r = 1; r < n; r++) {
                const v = xs[(o * n + r) * inner + j], m = xs[(o * n + bi) * inner + j];
                if (Number.isNaN(m)) break;
                if (Number.isNaN(v) || (op === 'max' ? v > m : v < m)) bi = r;
              }
              want.push(bi);
              wantVals.push(xs[(o * n + bi) * inner + j]);
            }
          }
          expect(Array.from(got.dataSync())).toEqual(want);
          const wantShape = dim === undefined ? (keepDims ? shape.map(() => 1) : [])
            : nd === 0 ? [] : shape.map((s, i) => (i === d ? 1 : s)).filter((_, i) => keepDims || i !== d);
          expect(got.shape).toEqual(wantShape);
          if (dim !== undefined) {
            const w = (op === 'max' ? maxWithIndices : minWithIndices)(x, dim, { keepDims });
            expect(w.values.dtype).toBe(dtype);
            expect(w.values.shape).toEqual(wantShape);
            expect(Array.from(w.indices.dataSync())).toEqual(want);
            expect(Array.from(w.values.dataSync()).map(String)).toEqual(wantVals.map(String));
          }
        }
      }), { numRuns: 80 });
    });
  }

  it('argmax of long rows across block boundaries and of long columns', () => {
    const n = 200000;
    const v = new Float32Array(n).map((_, i) => (i * 7919) % 1000);
    v[131072 + 5] = 5000;
    v[190000] = 5000;
    expect(argmax(tensor({ data: v, shape: [n] })).dataSync()[0]).toBe(131077);
    expect(argmin(tensor({ data: v, shape: [n] })).dataSync()[0]).toBe(0);
    const r = maxWithIndices(tensor({ data: v, shape: [2, n / 2] }), 1);
    expect(Array.from(r.indices.dataSync())).toEqual([v.subarray(0, n / 2).indexOf(Math.max(...v.subarray(0, 1000 * 0 + n / 2))), 131077 - n / 2]);
    const cols = maxWithIndices(tensor({ data: v, shape: [n / 4, 4] }), 0);
    for (let j = 0; j < 4; j++) {
      let bi = 0;
      for (let r2 = 1; r2 < n / 4; r2++) if (v[r2 * 4 + j] > v[bi * 4 + j]) bi = r2;
      expect(cols.indices.dataSync()[j]).toBe(bi);
      expect(cols.values.dataSync()[j]).toBe(v[bi * 4 + j]);
    }
  });
});

describe('reductions: float32 accuracy', () => {
  it('a 10 M float32 sum with a large mean is within 1e-6 of the float64 reference (numpy-grade pairwise)', () => {
    const n = 10_000_000;
    const rnd = mulberry(3);
    const v = new Float32Array(n);
    let ref = 0;
    for (let i = 0; i < n; i++) {
      v[i] = 1000 + rnd();
      ref += v[i];
    }
    const got = sum(tensor({ data: v, shape: [n] })).dataSync()[0];
    expect(Math.abs(got - ref) / ref).toBeLessThanOrEqual(1e-6);
    // along the first dim of a (10000, 1000) view of the same values: the column kernel's pairwise rows
    const cols = sum(tensor({ data: v, shape: [10000, 1000] }), { dim: 0 }).dataSync();
    for (const j of [0, 1, 499, 999]) {
      let r = 0;
      for (let i = 0; i < 10000; i++) r += v[i * 1000 + j];
      expect(Math.abs(cols[j] - r) / r).toBeLessThanOrEqual(1e-6);
    }
  }, 60_000);

  it('results do not depend on the thread count', async () => {
    const { setNumThreads, numThreads } = await import('../../src/index.js');
    const before = numThreads();
    const rnd = mulberry(5);
    const x = randomTensor('float32', [3, 300001], rnd);
    const y = randomTensor('float64', [5000, 3, 40], rnd);
    try {
      setNumThreads(1);
      const a = [sum(x, { dim: 1 }), sum(x), sum(y, { dim: 0 }), sum(y, { dim: [0, 2] })].map((t) => Array.from(t.dataSync()));
      setNumThreads(3);
      const b = [sum(x, { dim: 1 }), sum(x), sum(y, { dim: 0 }), sum(y, { dim: [0, 2] })].map((t) => Array.from(t.dataSync()));
      expect(b).toEqual(a);
    } finally {
      setNumThreads(before);
    }
  });
});

describe('reductions: typed errors', () => {
  const x = tensor([[1, 2], [3, 4]]);
  it('bad dims and options', () => {
    expect(() => sum(x, { dim: 2 })).toThrow(ArgumentError);
    expect(() => sum(x, { dim: -3 })).toThrow(/sum: dim is -3, out of range/);
    expect(() => sum(x, { dim: [0, -2] })).toThrow(new ArgumentError('sum: dim -2 is repeated in [0, -2]'));
    expect(() => mean(x, { dim: [1, 1] })).toThrow(ArgumentError);
    expect(() => prod(x, { dim: 0.5 })).toThrow(/prod: option dim must be an integer or an array of integers/);
    expect(() => max(x, { dim: '0' as never })).toThrow(ArgumentError);
    expect(() => any(x, { keepDims: 1 as never })).toThrow(/any: option keepDims must be a boolean/);
    expect(() => all(x, { axis: 0 } as never)).toThrow(/all: unknown option 'axis'/);
    expect(() => sum(x, null as never)).toThrow(ArgumentError);
    expect(() => argmax(x, { dim: [0] as never })).toThrow(/argmax: option dim must be an integer/);
    expect(() => argmin(x, { dim: 5 })).toThrow(/argmin: dim is 5, out of range/);
    expect(() => maxWithIndices(x, undefined as never)).toThrow(/maxWithIndices: dim must be an integer/);
    expect(() => minWithIndices(x, 0, { dim: 1 } as never)).toThrow(/minWithIndices: unknown option 'dim'/);
    expect(() => sum(undefined as never)).toThrow(ArgumentError);
  });
  it('complex max/min/argmax are DTypeErrors naming the function', () => {
    const c = Tensor.fromStorage('complex128', [2], Float64Array.of(1, 2, 3, 4));
    expect(() => max(c)).toThrow(DTypeError);
    expect(() => min(c, { dim: 0 })).toThrow(/^min: x is complex128/);
    expect(() => argmax(c)).toThrow(/^argmax: x is complex128/);
    expect(() => maxWithIndices(c, 0)).toThrow(DTypeError);
  });
  it('dim: [] reduces nothing (numpy), keeping the op\'s output dtype', () => {
    const b = Tensor.fromStorage('bool', [2], Uint8Array.of(1, 0));
    const s = sum(b, { dim: [] });
    expect(s.dtype).toBe('int32');
    expect(s.shape).toEqual([2]);
    expect(Array.from(s.dataSync())).toEqual([1, 0]);
  });
});
