// Shapes, views and indexing on the CPU (src/ops/indexing.ts over the native stridedCopy,
// triangle, concat, take and put): every function and dtype against a plain-JS model that
// indexes a flat list of elements by multi-index arithmetic (numpy's slice rules written
// out as an enumeration), trace against mathjs, the typed errors, and composition: each
// function applied to every other's output.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { create, all } from 'mathjs';
import {
  Tensor, tensor, flatten, squeeze, unsqueeze, expand, broadcastTo, transpose, permute, adjoint, matrixTranspose,
  diagonal, triu, tril, trace, slice, concat, stack, split, take, put, ArgumentError, ShapeError, DTypeError, DeviceError,
  type SliceSpec,
} from '../../src/index.js';
import type { DType } from '../../src/core/dtype.js';

const math = create(all, { absTol: 0, relTol: 1e-12 });
const DTYPES: DType[] = ['float32', 'float64', 'complex64', 'complex128', 'int32', 'uint32', 'bool'];
const RUNS = 12;

// ---------------------------------------------------------------- the model

/** A tensor as the model sees it: shape and one scalar tuple per element ([x] or [re, im]). */
interface Ref {
  dtype: DType;
  shape: number[];
  el: number[][];
}

const cplx = (d: DType) => d === 'complex64' || d === 'complex128';
const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

function unravel(f: number, shape: readonly number[]): number[] {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = f % shape[d];
    f = Math.floor(f / shape[d]);
  }
  return idx;
}

function ravel(idx: readonly number[], shape: readonly number[]): number {
  let f = 0;
  for (let d = 0; d < shape.length; d++) f = f * shape[d] + idx[d];
  return f;
}

/** The model tensor of `shape` whose element at each multi-index is `at(idx)`. */
function gen(dtype: DType, shape: number[], at: (idx: number[]) => number[]): Ref {
  const el: number[][] = [];
  for (let f = 0; f < size(shape); f++) el.push(at(unravel(f, shape)));
  return { dtype, shape, el };
}

function refOf(t: Tensor): Ref {
  const s = t.dataSync();
  const k = cplx(t.dtype) ? 2 : 1;
  const el: number[][] = [];
  for (let i = 0; i < t.size; i++) el.push(k === 2 ? [s[2 * i], s[2 * i + 1]] : [s[i]]);
  return { dtype: t.dtype, shape: [...t.shape], el };
}

/** Exact agreement: dtype, shape and every scalar bit for bit (NaN, −0 included). */
function expectSame(t: Tensor, r: Ref, what = ''): void {
  const got = refOf(t);
  expect(got.dtype, what).toBe(r.dtype);
  expect(got.shape, what).toEqual(r.shape);
  for (let i = 0; i < r.el.length; i++) {
    for (let c = 0; c < r.el[i].length; c++) {
      if (!Object.is(got.el[i][c], r.el[i][c])) {
        expect.fail(`${what} element ${i} (${unravel(i, r.shape)}) component ${c}: got ${got.el[i][c]}, expected ${r.el[i][c]}`);
      }
    }
  }
}

const zero = (d: DType) => (cplx(d) ? [0, 0] : [0]);
const conjEl = (e: number[]) => (e.length === 2 ? [e[0], -e[1]] : e);
const norm = (d: number, n: number) => (d < 0 ? d + n : d);

function permuteRef(r: Ref, perm: number[], conj = false): Ref {
  return gen(r.dtype, perm.map((p) => r.shape[p]), (idx) => {
    const src = new Array<number>(perm.length);
    perm.forEach((p, i) => { src[p] = idx[i]; });
    const e = r.el[ravel(src, r.shape)];
    return conj ? conjEl(e) : e;
  });
}

function swapLast(n: number): number[] {
  const p = [...Array(n).keys()];
  [p[n - 2], p[n - 1]] = [p[n - 1], p[n - 2]];
  return p;
}

/** numpy's slice of range(n) as an explicit list (Python's list[start:stop:step]). */
function pySlice(n: number, start: number | null, stop: number | null, step: number): number[] {
  const adj = (v: number | null, dflt: number, lo: number, hi: number) => {
    if (v === null) return dflt;
    if (v < 0) v += n;
    return Math.min(hi, Math.max(lo, v));
  };
  const out: number[] = [];
  if (step > 0) {
    const a = adj(start, 0, 0, n), b = adj(stop, n, 0, n);
    for (let i = a; i < b; i += step) out.push(i);
  } else {
    const a = adj(start, n - 1, -1, n - 1), b = adj(stop, -1, -1, n - 1);
    for (let i = a; i > b; i += step) out.push(i);
  }
  return out;
}

type Sel = { kind: 'index'; i: number } | { kind: 'range'; start: number | null; stop: number | null; step: number };

/** Per dim: the indices kept (a range) or the one index (dropped dim); missing trailing dims whole. */
function sliceRef(r: Ref, sels: Sel[]): Ref {
  const lists: { idx: number[]; keep: boolean }[] = r.shape.map((n, d) => {
    const s = sels[d];
    if (!s) return { idx: [...Array(n).keys()], keep: true };
    if (s.kind === 'index') return { idx: [norm(s.i, n)], keep: false };
    return { idx: pySlice(n, s.start, s.stop, s.step), keep: true };
  });
  const shape = lists.filter((l) => l.keep).map((l) => l.idx.length);
  return gen(r.dtype, shape, (idx) => {
    let k = 0;
    const src = lists.map((l) => (l.keep ? l.idx[idx[k++]] : l.idx[0]));
    return r.el[ravel(src, r.shape)];
  });
}

function diagonalRef(r: Ref, offset: number, d1: number, d2: number): Ref {
  const a = norm(d1, r.shape.length), b = norm(d2, r.shape.length);
  const rest = r.shape.map((_, i) => i).filter((i) => i !== a && i !== b);
  let len = 0;
  const ia = (k: number) => k + Math.max(0, -offset), ib = (k: number) => k + Math.max(0, offset);
  while (ia(len) < r.shape[a] && ib(len) < r.shape[b]) len++;
  return gen(r.dtype, [...rest.map((i) => r.shape[i]), len], (idx) => {
    const src = new Array<number>(r.shape.length);
    rest.forEach((i, j) => { src[i] = idx[j]; });
    const k = idx[idx.length - 1];
    src[a] = ia(k);
    src[b] = ib(k);
    return r.el[ravel(src, r.shape)];
  });
}

function triRef(r: Ref, upper: boolean, k: number): Ref {
  return gen(r.dtype, r.shape, (idx) => {
    const i = idx[idx.length - 2], j = idx[idx.length - 1];
    const keep = upper ? j - i >= k : j - i <= k;
    return keep ? r.el[ravel(idx, r.shape)] : zero(r.dtype);
  });
}

function expandRef(r: Ref, shape: number[]): Ref {
  const lead = shape.length - r.shape.length;
  const out = shape.map((n, d) => (n === -1 ? r.shape[d - lead] : n));
  return gen(r.dtype, out, (idx) => r.el[ravel(r.shape.map((n, d) => (n === 1 ? 0 : idx[d + lead])), r.shape)]);
}

function concatRef(rs: Ref[], dim: number): Ref {
  const shape = [...rs[0].shape];
  shape[dim] = rs.reduce((s, r) => s + r.shape[dim], 0);
  return gen(rs[0].dtype, shape, (idx) => {
    let at = idx[dim];
    for (const r of rs) {
      if (at < r.shape[dim]) {
        const src = [...idx];
        src[dim] = at;
        return r.el[ravel(src, r.shape)];
      }
      at -= r.shape[dim];
    }
    throw new Error('unreachable');
  });
}

function reshapeRef(r: Ref, shape: number[]): Ref {
  return { dtype: r.dtype, shape, el: r.el };
}

function takeRef(r: Ref, index: number[], shape: number[]): Ref {
  const n = r.el.length;
  return { dtype: r.dtype, shape, el: index.map((i) => r.el[norm(i, n)]) };
}

/** a + b in the dtype's arithmetic (float32 rounds, integers wrap, bool is or). */
function addEl(d: DType, a: number[], b: number[]): number[] {
  switch (d) {
    case 'float32': case 'complex64': return a.map((x, i) => Math.fround(x + b[i]));
    case 'int32': return [(a[0] + b[0]) | 0];
    case 'uint32': return [(a[0] + b[0]) >>> 0];
    case 'bool': return [a[0] || b[0] ? 1 : 0];
    default: return a.map((x, i) => x + b[i]);
  }
}

function putRef(r: Ref, index: number[], values: number[][], accumulate: boolean): Ref {
  const el = r.el.map((e) => [...e]);
  index.forEach((i, k) => {
    const j = norm(i, el.length);
    el[j] = accumulate ? addEl(r.dtype, el[j], values[k]) : values[k];
  });
  return { dtype: r.dtype, shape: r.shape, el };
}

// ---------------------------------------------------------------- random tensors

/** Deterministic scalars of the dtype from a seed: specials (NaN, ±0, ±Inf) among floats, full ranges for integers. */
function makeTensor(dtype: DType, shape: number[], seed: number): Tensor {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
  const n = size(shape) * (cplx(dtype) ? 2 : 1);
  const specials = [Number.NaN, -0, 0, Infinity, -Infinity];
  const t = Tensor.empty(dtype, shape);
  const a = t.dataSync();
  for (let i = 0; i < n; i++) {
    const u = next();
    switch (dtype) {
      case 'int32': a[i] = u | 0; break;
      case 'uint32': a[i] = u; break;
      case 'bool': a[i] = u & 1; break;
      default: a[i] = u % 17 === 0 ? specials[u % 5] : ((u % 2001) - 1000) / 8;
    }
  }
  return t;
}

const dims = (minRank: number, maxRank: number, maxDim = 4, minDim = 0) =>
  fc.array(fc.integer({ min: minDim, max: maxDim }), { minLength: minRank, maxLength: maxRank });
const seedArb = fc.integer({ min: 1, max: 2 ** 31 - 1 });

// ---------------------------------------------------------------- properties per dtype

describe.each(DTYPES)('indexing %s', (dtype) => {
  it('flatten / squeeze / unsqueeze share storage and reshape as numpy', () => {
    fc.assert(fc.property(dims(0, 5, 3), seedArb, fc.nat(), (shape, seed, pick) => {
      const x = makeTensor(dtype, shape, seed);
      const r = refOf(x);
      const nd = Math.max(shape.length, 1);
      const a = pick % nd, b = a + ((pick >> 4) % (nd - a));
      const f = flatten(x, a, b - nd);
      const want = shape.length === 0 ? [1] : [...shape.slice(0, a), size(shape.slice(a, b + 1)), ...shape.slice(b + 1)];
      expectSame(f, reshapeRef(r, want), 'flatten');
      expect(f.dataSync()).toBe(x.dataSync());
      expectSame(squeeze(x), reshapeRef(r, shape.filter((n) => n !== 1)), 'squeeze');
      if (shape.length > 0) {
        const d = pick % shape.length;
        expectSame(squeeze(x, d - shape.length), reshapeRef(r, shape.filter((n, i) => i !== d || n !== 1)), 'squeeze(dim)');
      }
      const u = pick % (shape.length + 1);
      const uz = unsqueeze(x, u);
      expectSame(uz, reshapeRef(r, [...shape.slice(0, u), 1, ...shape.slice(u)]), 'unsqueeze');
      expect(uz.dataSync()).toBe(x.dataSync());
      expectSame(unsqueeze(x, -1), reshapeRef(r, [...shape, 1]), 'unsqueeze(-1)');
    }), { numRuns: RUNS });
  });

  it('permute and transpose follow the permuted multi-index (rank 0–5)', () => {
    const arb = dims(0, 5).chain((shape) => fc.tuple(
      fc.constant(shape), seedArb,
      fc.array(fc.double({ noNaN: true }), { minLength: shape.length, maxLength: shape.length }),
      fc.nat(), fc.nat(), fc.boolean(),
    ));
    fc.assert(fc.property(arb, ([shape, seed, keys, i0, i1, neg]) => {
      const x = makeTensor(dtype, shape, seed);
      const r = refOf(x);
      const perm = [...shape.keys()].sort((a, b) => keys[a] - keys[b] || a - b);
      expectSame(permute(x, neg ? perm.map((p) => p - shape.length) : perm), permuteRef(r, perm), 'permute');
      if (shape.length === 0) return;
      const a = i0 % shape.length, b = i1 % shape.length;
      const p = [...shape.keys()];
      [p[a], p[b]] = [p[b], p[a]];
      expectSame(transpose(x, neg ? a - shape.length : a, b), permuteRef(r, p), 'transpose');
      if (shape.length >= 2) {
        expectSame(transpose(x), permuteRef(r, swapLast(shape.length)), 'transpose()');
        expectSame(matrixTranspose(x), permuteRef(r, swapLast(shape.length)), 'matrixTranspose');
        expectSame(adjoint(x), permuteRef(r, swapLast(shape.length), true), 'adjoint');
      }
    }), { numRuns: RUNS });
  });

  it('large transposes and permutations (the tiled and threaded paths) match the model', () => {
    for (const shape of [[3, 67, 45], [130, 257], [2, 300, 200]]) {
      const x = makeTensor(dtype, shape, 7);
      const r = refOf(x);
      expectSame(matrixTranspose(x), permuteRef(r, swapLast(shape.length)), `mT ${shape}`);
      expectSame(adjoint(x), permuteRef(r, swapLast(shape.length), true), `mH ${shape}`);
      const rev = [...shape.keys()].reverse();
      expectSame(permute(x, rev), permuteRef(r, rev), `permute ${shape}`);
    }
  });

  it('slice follows numpy slice rules for every spec form (negative steps, out-of-range bounds, "...")', () => {
    const bound = (n: number) => fc.option(fc.integer({ min: -n - 3, max: n + 3 }), { nil: null });
    const selArb = (n: number): fc.Arbitrary<{ sel: Sel; form: number }> => fc.oneof(
      ...(n > 0 ? [fc.tuple(fc.integer({ min: -n, max: n - 1 }), fc.integer({ min: 0, max: 1 }))
        .map(([i, form]) => ({ sel: { kind: 'index', i } as Sel, form }))] : []),
      fc.tuple(bound(n), bound(n), fc.integer({ min: -4, max: 4 }).filter((s) => s !== 0), fc.integer({ min: 0, max: 3 }))
        .map(([start, stop, step, form]) => ({ sel: { kind: 'range', start, stop, step } as Sel, form })),
    );
    const arb = dims(0, 5, 5).chain((shape) => fc.tuple(
      fc.constant(shape), seedArb, fc.nat({ max: shape.length }).chain((k) =>
        fc.tuple(...shape.slice(0, k).map((n) => selArb(n)))), fc.boolean(),
    ));
    fc.assert(fc.property(arb, ([shape, seed, sels, ellipsis]) => {
      const x = makeTensor(dtype, shape, seed);
      const specs: SliceSpec[] = sels.map(({ sel, form }) => {
        if (sel.kind === 'index') return form === 0 ? sel.i : `${sel.i}`;
        const { start, stop, step } = sel;
        const str = (v: number | null) => (v === null ? '' : `${v}`);
        if (form === 0) return `${str(start)}:${str(stop)}:${step}`;
        if (form === 1) return step === 1 ? `${str(start)}:${str(stop)}` : { start, stop, step };
        if (form === 2) return start === null && stop === null && step === 1 ? null : { start, stop, step };
        return { ...(start === null ? {} : { start }), ...(stop === null ? {} : { stop }), ...(step === 1 ? {} : { step }) };
      });
      const want = sliceRef(refOf(x), sels.map((s) => s.sel));
      expectSame(slice(x, ...specs), want, `slice ${JSON.stringify(specs)}`);
      if (ellipsis) {
        // '...' standing for the trailing whole dims, then again in front of the last spec
        expectSame(slice(x, ...specs, '...'), want, 'slice with trailing ...');
        if (specs.length === shape.length && shape.length > 0) {
          expectSame(slice(x, '...', ...specs.slice(1)), sliceRef(refOf(x), [
            { kind: 'range', start: null, stop: null, step: 1 }, ...sels.slice(1).map((s) => s.sel),
          ]), 'slice with leading ...');
        }
      }
    }), { numRuns: RUNS * 2 });
  });

  it('diagonal over any two dims and offsets', () => {
    const arb = dims(2, 4).chain((shape) => fc.tuple(
      fc.constant(shape), seedArb, fc.integer({ min: -5, max: 5 }),
      fc.integer({ min: -shape.length, max: shape.length - 1 }), fc.integer({ min: -shape.length, max: shape.length - 1 }),
    ).filter(([, , , a, b]) => norm(a, shape.length) !== norm(b, shape.length)));
    fc.assert(fc.property(arb, ([shape, seed, offset, d1, d2]) => {
      const x = makeTensor(dtype, shape, seed);
      expectSame(diagonal(x, { offset, dim1: d1, dim2: d2 }), diagonalRef(refOf(x), offset, d1, d2), 'diagonal');
      expectSame(diagonal(x, { offset }), diagonalRef(refOf(x), offset, -2, -1), 'diagonal default dims');
    }), { numRuns: RUNS });
  });

  it('triu / tril for every k (batched)', () => {
    fc.assert(fc.property(dims(2, 4), seedArb, fc.integer({ min: -7, max: 7 }), (shape, seed, k) => {
      const x = makeTensor(dtype, shape, seed);
      expectSame(triu(x, k), triRef(refOf(x), true, k), `triu ${k}`);
      expectSame(tril(x, k), triRef(refOf(x), false, k), `tril ${k}`);
    }), { numRuns: RUNS });
    const big = makeTensor(dtype, [3, 80, 90], 3);
    expectSame(triu(big, 2), triRef(refOf(big), true, 2), 'triu large');
    expectSame(tril(big, -1e12), triRef(refOf(big), false, -1e12), 'tril far below');
    expectSame(triu(big), triRef(refOf(big), true, 0), 'triu default k');
  });

  it('expand / broadcastTo repeat size-1 dims and add leading dims', () => {
    const arb = dims(0, 4, 3).chain((shape) => fc.tuple(
      fc.constant(shape), seedArb, dims(0, 2, 3),
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: shape.length, maxLength: shape.length }),
    ));
    fc.assert(fc.property(arb, ([shape, seed, lead, grow]) => {
      const x = makeTensor(dtype, shape, seed);
      const target = [...lead, ...shape.map((n, i) => (n === 1 ? grow[i] : grow[i] === 0 ? -1 : n))];
      expectSame(expand(x, target), expandRef(refOf(x), target), `expand ${target}`);
      const plain = target.map((n, i) => (n === -1 ? shape[i - lead.length] : n));
      expectSame(broadcastTo(x, plain), expandRef(refOf(x), plain), 'broadcastTo');
    }), { numRuns: RUNS });
  });

  it('concat, stack and split round-trip', () => {
    const arb = dims(1, 4, 3).chain((shape) => fc.tuple(
      fc.constant(shape), fc.nat({ max: shape.length - 1 }), fc.array(fc.tuple(fc.nat({ max: 3 }), seedArb), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 1, max: 4 }),
    ));
    fc.assert(fc.property(arb, ([shape, dim, parts, chunk]) => {
      const xs = parts.map(([n, seed]) => {
        const s = [...shape];
        s[dim] = n;
        return makeTensor(dtype, s, seed);
      });
      const c = concat(xs, dim - shape.length);
      expectSame(c, concatRef(xs.map(refOf), dim), 'concat');
      const back = split(c, parts.map(([n]) => n), dim);
      expect(back.length).toBe(xs.length);
      back.forEach((b, i) => expectSame(b, refOf(xs[i]), `split part ${i}`));
      // chunks of a fixed size: all full but the last (torch.split), concatenating back to c
      const chunks = split(c, chunk, dim);
      const n = c.shape[dim];
      expect(chunks.length).toBe(Math.max(1, Math.ceil(n / chunk)));
      chunks.forEach((t, i) => expect(t.shape[dim]).toBe(n === 0 ? 0 : Math.min(chunk, n - i * chunk)));
      expectSame(concat(chunks, dim), refOf(c), 'concat of chunks');
      // stack: a new dim at every position, each slice of it one input
      const same = parts.map(([, seed]) => makeTensor(dtype, shape, seed));
      for (let d = 0; d <= shape.length; d++) {
        const st = stack(same, d);
        expect(st.shape).toEqual([...shape.slice(0, d), same.length, ...shape.slice(d)]);
        same.forEach((t, i) => expectSame(slice(st, ...Array<SliceSpec>(d).fill(null), i), refOf(t), `stack dim ${d} item ${i}`));
      }
    }), { numRuns: RUNS });
  });

  it('take / put (negative indices, duplicates, accumulate)', () => {
    const arb = dims(0, 3, 4, 1).chain((shape) => {
      const n = size(shape);
      return fc.tuple(
        fc.constant(shape), seedArb, fc.array(fc.integer({ min: -n, max: n - 1 }), { minLength: 0, maxLength: 12 }), seedArb,
        fc.boolean(), fc.boolean(),
      );
    });
    fc.assert(fc.property(arb, ([shape, seed, index, vseed, asTensor, accumulate]) => {
      const x = makeTensor(dtype, shape, seed);
      const idx = asTensor ? tensor({ data: Int32Array.from(index), shape: [index.length] }) : index;
      expectSame(take(x, idx), takeRef(refOf(x), index, [index.length]), 'take');
      if (index.length % 2 === 0 && index.length > 0) {
        const m = tensor({ data: Int32Array.from(index), shape: [2, index.length / 2] });
        expectSame(take(x, m), takeRef(refOf(x), index, [2, index.length / 2]), 'take 2-d index');
      }
      const v = makeTensor(dtype, [index.length], vseed);
      const want = putRef(refOf(x), index, refOf(v).el, accumulate);
      expectSame(put(x, idx, v, { accumulate }), want, `put accumulate=${accumulate}`);
      expectSame(x, refOf(makeTensor(dtype, shape, seed)), 'put leaves x alone');
    }), { numRuns: RUNS });
    // every duplicate counts with accumulate; a scalar value broadcasts to index's size
    const x = makeTensor(dtype, [5], 9);
    const one = dtype === 'bool' ? true : cplx(dtype) ? { re: 1, im: 2 } : 1;
    const oneEl = cplx(dtype) ? [1, 2] : [1];
    const dup = [1, 1, 1, -4, 3];
    expectSame(put(x, dup, one, { accumulate: true }), putRef(refOf(x), dup, dup.map(() => oneEl), true), 'put scalar accumulate');
    expectSame(put(x, dup, one), putRef(refOf(x), dup, dup.map(() => oneEl), false), 'put scalar');
  });

  it('trace is the batched diagonal sum in sum\'s dtype', () => {
    fc.assert(fc.property(dims(2, 4, 4), seedArb, (shape, seed) => {
      const x = makeTensor(dtype, shape, seed);
      const t = trace(x);
      const d = diagonalRef(refOf(x), 0, -2, -1);
      const len = d.shape[d.shape.length - 1];
      const outDtype: DType = dtype === 'bool' ? 'int32' : dtype;
      expect(t.dtype).toBe(outDtype);
      expect([...t.shape]).toEqual(shape.slice(0, -2));
      const got = refOf(t).el;
      for (let b = 0; b < got.length; b++) {
        let acc = zero(outDtype);
        let mag = 0;
        for (let k = 0; k < len; k++) {
          const e = d.el[b * len + k];
          acc = outDtype === 'int32' || outDtype === 'uint32' ? addEl(outDtype, acc, e) : acc.map((a, c) => a + e[c]);
          mag += e.reduce((s, v) => s + Math.abs(v), 0);
        }
        for (let c = 0; c < acc.length; c++) {
          if (Number.isNaN(acc[c]) || !Number.isFinite(mag)) {
            // NaN or Inf among the terms: NaN/Inf agree in kind, not in summation order
            expect(Number.isFinite(got[b][c])).toBe(Number.isFinite(acc[c]));
          } else if (outDtype === 'float32' || outDtype === 'complex64') {
            expect(Math.abs(got[b][c] - acc[c])).toBeLessThanOrEqual(4 * len * 2 ** -23 * mag);
          } else {
            expect(got[b][c]).toBe(acc[c]);
          }
        }
      }
    }), { numRuns: RUNS });
  });
});

// ---------------------------------------------------------------- cross-dtype and reference checks

describe('indexing references', () => {
  it('trace agrees with mathjs.trace', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), seedArb, (n, seed) => {
      const A = makeTensor('int32', [n, n], seed).toArray() as number[][];
      const M = A.map((row) => row.map((v) => v % 1000));
      expect(trace(M).toArray()).toBe(math.trace(M));
      expect(trace(tensor(M, { dtype: 'float32' })).toArray()).toBe(math.trace(M));
    }), { numRuns: RUNS });
  });

  it('slice examples as numpy prints them', () => {
    const v = tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // numpy: a[1:5], a[::2], a[::-1], a[-3:], a[8:2:-3], a[-100:100], a[5:1]
    expect(slice(v, '1:5').toArray()).toEqual([1, 2, 3, 4]);
    expect(slice(v, '::2').toArray()).toEqual([0, 2, 4, 6, 8]);
    expect(slice(v, '::-1').toArray()).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(slice(v, '-3:').toArray()).toEqual([7, 8, 9]);
    expect(slice(v, '8:2:-3').toArray()).toEqual([8, 5]);
    expect(slice(v, { start: -100, stop: 100 }).toArray()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(slice(v, '5:1').toArray()).toEqual([]);
    expect(slice(v, { start: -1, step: -(2 ** 53 - 1) }).toArray()).toEqual([9]);
    expect(slice(tensor([[1, 2], [3, 4], [5, 6]]), `::${2 ** 53 - 1}`).toArray()).toEqual([[1, 2]]);
    const A = tensor([[1, 2, 3], [4, 5, 6]]);
    expect(slice(A, 1).toArray()).toEqual([4, 5, 6]);
    expect(slice(A, '...', -1).toArray()).toEqual([3, 6]);
    expect(slice(A, ':', '::-2').toArray()).toEqual([[3, 1], [6, 4]]);
    expect(slice(A, -1, 0).toArray()).toBe(4);
  });

  it('concat and stack promote dtypes; put casts values to x\'s dtype', () => {
    const i = tensor([1, 2], { dtype: 'int32' });
    const f = tensor([0.5], { dtype: 'float32' });
    const c = concat([i, f]);
    expect(c.dtype).toBe('float32');
    expect(Array.from(c.dataSync())).toEqual([1, 2, 0.5]);
    const b = tensor([true, false]);
    expect(stack([b, i]).dtype).toBe('int32');
    const p = put(tensor([0, 0, 0], { dtype: 'int32' }), [2], tensor([7], { dtype: 'float64' }));
    expect(p.dtype).toBe('int32');
    expect(Array.from(p.dataSync())).toEqual([0, 0, 7]);
    expect(() => concat([i, tensor([1], { dtype: 'uint32' })])).toThrow(DTypeError);
    // JS data counts like a JS scalar: its category only (integers keep int32, fractions make float32)
    expect(concat([i, [3, 4]]).dtype).toBe('int32');
    expect(Array.from(concat([i, [1.5]]).dataSync())).toEqual([1, 2, 1.5]);
    expect(concat([i, [1.5]]).dtype).toBe('float32');
    expect(concat([f, [[2]].flat()]).dtype).toBe('float32');
    expect(concat([[1, 2], [3]]).dtype).toBe('float64');
    expect(() => put(tensor([0, 0]), [0], tensor([{ re: 1, im: 1 }]))).toThrow(DTypeError);
  });

  it('uint32 index tensors and values broadcast to index\'s shape', () => {
    const x = tensor([10, 20, 30, 40]);
    expect(take(x, tensor({ data: Uint32Array.of(3, 0), shape: [2] })).toArray()).toEqual([40, 10]);
    const idx = tensor({ data: Int32Array.of(0, 1, 2, 3), shape: [2, 2] });
    expect(put(x, idx, [[1, 2]]).toArray()).toEqual([1, 2, 1, 2]);
    expect(put(x, idx, [5, 6, 7, 8]).toArray()).toEqual([5, 6, 7, 8]);
  });
});

// ---------------------------------------------------------------- errors

describe('indexing errors name the function and the argument', () => {
  const x = tensor([[1, 2, 3], [4, 5, 6]]);
  const cases: [string, () => unknown, new (...a: never[]) => Error, RegExp][] = [
    ['transpose dim', () => transpose(x, 0, 2), ArgumentError, /^transpose: dim1 is 2, out of range/],
    ['transpose 1-d default', () => transpose([1, 2]), ArgumentError, /^transpose: dim0/],
    ['permute short', () => permute(x, [0]), ArgumentError, /^permute: dims/],
    ['permute repeat', () => permute(x, [1, -1]), ArgumentError, /^permute: dims .* twice/],
    ['permute non-int', () => permute(x, [0, 1.5]), ArgumentError, /^permute: dims\[1\] must be an integer/],
    ['flatten order', () => flatten(x, 1, 0), ArgumentError, /^flatten: startDim/],
    ['squeeze dim', () => squeeze(x, 2), ArgumentError, /^squeeze: dim is 2/],
    ['unsqueeze dim', () => unsqueeze(x, 4), ArgumentError, /^unsqueeze: dim is 4/],
    ['expand size', () => expand(x, [3, 3]), ShapeError, /^expand: x \(2×3\) cannot be expanded/],
    ['expand rank', () => expand(x, [3]), ShapeError, /^expand: shape/],
    ['expand -1 lead', () => expand(x, [-1, 2, 3]), ArgumentError, /^expand: .*−1/],
    ['broadcastTo', () => broadcastTo([1, 2], [3]), ShapeError, /^broadcastTo:/],
    ['adjoint 1-d', () => adjoint([1, 2]), ShapeError, /^adjoint: x/],
    ['matrixTranspose 0-d', () => matrixTranspose(3), ShapeError, /^matrixTranspose: x/],
    ['diagonal same dims', () => diagonal(x, { dim1: 0, dim2: -2 }), ArgumentError, /^diagonal: dim1 and dim2/],
    ['diagonal offset', () => diagonal(x, { offset: 0.5 }), ArgumentError, /^diagonal: option offset/],
    ['diagonal option', () => diagonal(x, { off: 1 } as never), ArgumentError, /^diagonal: unknown option 'off'/],
    ['triu 1-d', () => triu([1, 2]), ShapeError, /^triu: x/],
    ['tril k', () => tril(x, 1.5), ArgumentError, /^tril: k must be an integer/],
    ['trace 1-d', () => trace([1, 2]), ShapeError, /^trace: x/],
    ['slice step 0 string', () => slice(x, '::0'), ArgumentError, /^slice: spec 0 .*step 0/],
    ['slice step 0 object', () => slice(x, ':', { step: 0 }), ArgumentError, /^slice: spec 1 has step 0/],
    ['slice index', () => slice(x, 0, 3), ArgumentError, /^slice: index 3 \(spec 1\) is out of range for dim 1 of size 3/],
    ['slice negative index', () => slice(x, -3), ArgumentError, /^slice: index -3 \(spec 0\) is out of range for dim 0/],
    ['slice too many', () => slice(x, 0, 0, 0), ArgumentError, /^slice: 3 specs for a 2-d tensor/],
    ['slice two ellipses', () => slice(x, '...', '...'), ArgumentError, /^slice: at most one '\.\.\.'/],
    ['slice bad string', () => slice(x, '1:2:3:4'), ArgumentError, /^slice: spec 0 is '1:2:3:4'/],
    ['slice bad string 2', () => slice(x, 'a:'), ArgumentError, /^slice: spec 0/],
    ['slice bad object', () => slice(x, { begin: 1 } as never), ArgumentError, /^slice: unknown option 'begin' in spec 0/],
    ['slice non-int', () => slice(x, 0.5), ArgumentError, /^slice: spec 0 must be an integer/],
    ['concat empty', () => concat([]), ArgumentError, /^concat: xs must be a non-empty array/],
    ['concat shapes', () => concat([x, [[1, 2]]], 1), ShapeError, /^concat: xs\[0\] is 2×3 and xs\[1\] is 1×2/],
    ['concat 0-d', () => concat([1, 2]), ShapeError, /^concat: xs\[0\] is a scalar/],
    ['concat dim', () => concat([x, x], 2), ArgumentError, /^concat: dim is 2/],
    ['stack shapes', () => stack([x, [1, 2, 3]]), ShapeError, /^stack: xs\[0\] is 2×3 and xs\[1\] is 3/],
    ['stack dim', () => stack([x, x], 4), ArgumentError, /^stack: dim is 4/],
    ['split sum', () => split(x, [1, 1], 1), ShapeError, /^split: the sizes \[1, 1\] sum to 2, but dim 1/],
    ['split size 0', () => split(x, 0), ArgumentError, /^split: sizeOrSections must be an integer ≥ 1/],
    ['split negative', () => split(x, [3, -1], 1), ArgumentError, /^split: sizeOrSections\[1\]/],
    ['split 0-d', () => split(3, 1), ShapeError, /^split: x is a scalar/],
    ['take range', () => take(x, [6]), ArgumentError, /^take: index 6 \(entry 0\) is out of range for x with 6 elements/],
    ['take negative range', () => take(x, [0, -7]), ArgumentError, /^take: index -7 \(entry 1\)/],
    ['take float index', () => take(x, tensor([0.0])), DTypeError, /^take: index is float64/],
    ['take non-integer', () => take(x, [0.5]), ArgumentError, /^take: index entry 0 is 0.5/],
    ['take empty x', () => take(tensor({ data: new Float64Array(0), shape: [0] }), [0]), ArgumentError, /^take: index 0/],
    ['put range', () => put(x, [0, 9], [1, 2]), ArgumentError, /^put: index 9 \(entry 1\)/],
    ['put values', () => put(x, [0, 1], [1, 2, 3]), ShapeError, /^put: values \(3\) neither broadcast/],
    ['put option', () => put(x, [0], 1, { accumulate: 1 } as never), ArgumentError, /^put: option accumulate must be a boolean/],
  ];
  for (const [name, f, E, msg] of cases) {
    it(name, () => {
      let err: unknown;
      try { f(); } catch (e) { err = e; }
      expect(err, name).toBeInstanceOf(E);
      expect((err as Error).message).toMatch(msg);
    });
  }

  it('a disposed tensor is a DeviceError', () => {
    const t = tensor([1, 2]);
    t.dispose();
    expect(() => slice(t, 0)).toThrow(DeviceError);
    expect(() => take([1, 2], t)).toThrow(DeviceError);
  });
});

// ---------------------------------------------------------------- composition

/** Each function with fixed arguments that fit any input of rank ≥ minRank (and size > 0 where needed). */
interface Step {
  name: string;
  minRank: number;
  needsElements?: boolean;
  lib: (t: Tensor) => Tensor;
  ref: (r: Ref) => Ref;
}

const STEPS: Step[] = [
  { name: 'flatten', minRank: 2, lib: (t) => flatten(t, 0, 1), ref: (r) => reshapeRef(r, [r.shape[0] * r.shape[1], ...r.shape.slice(2)]) },
  { name: 'unsqueeze', minRank: 0, lib: (t) => unsqueeze(t, 1 <= t.ndim ? 1 : 0), ref: (r) => {
    const d = 1 <= r.shape.length ? 1 : 0;
    return reshapeRef(r, [...r.shape.slice(0, d), 1, ...r.shape.slice(d)]);
  } },
  { name: 'squeeze', minRank: 0, lib: (t) => squeeze(t), ref: (r) => reshapeRef(r, r.shape.filter((n) => n !== 1)) },
  { name: 'transpose', minRank: 2, lib: (t) => transpose(t, 0, -1), ref: (r) => {
    const p = [...r.shape.keys()];
    [p[0], p[p.length - 1]] = [p[p.length - 1], p[0]];
    return permuteRef(r, p);
  } },
  { name: 'permute', minRank: 1, lib: (t) => permute(t, [...t.shape.keys()].reverse()), ref: (r) => permuteRef(r, [...r.shape.keys()].reverse()) },
  { name: 'adjoint', minRank: 2, lib: adjoint, ref: (r) => permuteRef(r, swapLast(r.shape.length), true) },
  { name: 'matrixTranspose', minRank: 2, lib: matrixTranspose, ref: (r) => permuteRef(r, swapLast(r.shape.length)) },
  { name: 'diagonal', minRank: 2, lib: (t) => diagonal(t, { offset: -1, dim1: 0, dim2: -1 }), ref: (r) => diagonalRef(r, -1, 0, -1) },
  { name: 'triu', minRank: 2, lib: (t) => triu(t, 1), ref: (r) => triRef(r, true, 1) },
  { name: 'tril', minRank: 2, lib: (t) => tril(t, -1), ref: (r) => triRef(r, false, -1) },
  { name: 'expand', minRank: 0, lib: (t) => expand(t, [2, ...t.shape]), ref: (r) => expandRef(r, [2, ...r.shape]) },
  { name: 'broadcastTo', minRank: 0, lib: (t) => broadcastTo(unsqueeze(t, 0), [2, ...t.shape]), ref: (r) => expandRef(reshapeRef(r, [1, ...r.shape]), [2, ...r.shape]) },
  { name: 'slice', minRank: 1, lib: (t) => slice(t, '::-1', ...(t.ndim > 1 ? ['1:'] : [])), ref: (r) => sliceRef(r, [
    { kind: 'range', start: null, stop: null, step: -1 }, ...(r.shape.length > 1 ? [{ kind: 'range', start: 1, stop: null, step: 1 } as Sel] : []),
  ]) },
  { name: 'slice index', minRank: 1, needsElements: true, lib: (t) => slice(t, '...', -1), ref: (r) => {
    const sels: Sel[] = r.shape.map(() => ({ kind: 'range', start: null, stop: null, step: 1 }));
    sels[r.shape.length - 1] = { kind: 'index', i: -1 };
    return sliceRef(r, sels);
  } },
  { name: 'concat', minRank: 1, lib: (t) => concat([t, t], -1), ref: (r) => concatRef([r, r], r.shape.length - 1) },
  { name: 'stack', minRank: 0, lib: (t) => stack([t, t], t.ndim), ref: (r) => concatRef([reshapeRef(r, [...r.shape, 1]), reshapeRef(r, [...r.shape, 1])], r.shape.length) },
  { name: 'split', minRank: 1, lib: (t) => split(t, 2, 0)[0], ref: (r) => sliceRef(r, [{ kind: 'range', start: 0, stop: 2, step: 1 }]) },
  { name: 'trace', minRank: 2, lib: trace, ref: (r) => {
    const d = diagonalRef(r, 0, -2, -1);
    const len = d.shape[d.shape.length - 1];
    const dt: DType = r.dtype === 'bool' ? 'int32' : r.dtype;
    return gen(dt, d.shape.slice(0, -1), (idx) => {
      let acc = zero(dt);
      for (let k = 0; k < len; k++) acc = addEl(dt, acc, d.el[ravel([...idx, k], d.shape)]);
      return acc;
    });
  } },
  { name: 'take', minRank: 0, needsElements: true, lib: (t) => take(t, [0, -1, 0]), ref: (r) => takeRef(r, [0, -1, 0], [3]) },
  { name: 'put', minRank: 0, needsElements: true, lib: (t) => put(t, [-1, 0, -1], t.size > 0 ? take(t, [0, 0, 0]) : t, { accumulate: true }),
    ref: (r) => putRef(r, [-1, 0, -1], [r.el[0], r.el[0], r.el[0]], true) },
];

describe('composition: every function accepts every other\'s output', () => {
  it.each(DTYPES)('%s: g(f(x)) for every pair (f, g)', (dtype) => {
    const x = makeTensor(dtype, [3, 2, 4], 11);
    let checked = 0;
    for (const f of STEPS) {
      const fx = f.lib(x);
      const fr = f.ref(refOf(x));
      expectSame(fx, fr, f.name);
      for (const g of STEPS) {
        if (fx.ndim < g.minRank || (g.needsElements && fx.size === 0)) continue;
        expectSame(g.lib(fx), g.ref(fr), `${g.name}(${f.name}(x))`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(STEPS.length * (STEPS.length - 4));
  });
});
