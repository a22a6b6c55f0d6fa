// GPU entries of `reduce` (sum, prod, max, min, any, all) and `argReduce` (max/min with the
// first extremum's index) for float32, complex64, int32, uint32 and bool (shaders/reduce).
// A reduction is planned as passes over (outer, len, inner) views: adjacent dims merged,
// size-1 dims dropped, and each run of reduced dims that is not adjacent to another one
// reduced by its own pass (last run first). A pass is one dispatch, or two when its outputs
// are too few to fill the GPU: partials over splits of the reduced dim, then a pass over
// those. Everything is recorded into the shared encoder (no host round trip).
import { Tensor } from '../../core/tensor.js';
import type { DType } from '../../core/dtype.js';
import { ArgumentError, DTypeError, DeviceError, ShapeError } from '../../core/errors.js';
import { register } from '../registry.js';
import { reduceOutDtype, type ReduceOp } from '../ops.js';
import { runProgram, cachedProgram, type GpuProgram } from './program.js';
import { loadShader, type Defines } from './preprocess.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';
import { shareStorage } from './pool.js';

/**
 * Launch parameters (the H200 tune: docs/tensor-api.md "Reductions on the GPU").
 * wg: threads per workgroup (a power of two ≤ 256, the WebGPU default limit); unroll: 16-byte
 * loads (rows kernel) or elements (columns kernel) each thread issues before using them;
 * partials: the workgroups a pass aims at when its outputs are few (the reduced dim is split
 * that many ways, then a second dispatch folds the partials); minChunk: the fewest input
 * elements a split gets (smaller reductions stay one dispatch). maxCx: the most columns one
 * workgroup of the columns kernel covers (the rest of its threads walk the reduced dim).
 * shortRow: contiguous reductions shorter than this use the columns kernel with several rows
 * per workgroup (a lane group per row) instead of a workgroup per row.
 */
export interface ReduceParams {
  wg: number;
  unroll: number;
  partials: number;
  minChunk: number;
  maxCx: number;
  shortRow: number;
}

export const DEFAULT_REDUCE_PARAMS: Readonly<ReduceParams> = { wg: 256, unroll: 4, partials: 1024, minChunk: 16384, maxCx: 64, shortRow: 1024 };
let params: ReduceParams = { ...DEFAULT_REDUCE_PARAMS };

/** Sets launch parameters (tests force the two-pass path at small sizes; benchmarks tune); returns the previous ones. */
export function setReduceParams(p: Partial<ReduceParams>): ReduceParams {
  const prev = params;
  const next = { ...params, ...p };
  const pow2 = (v: number) => Number.isInteger(v) && v >= 1 && (v & (v - 1)) === 0;
  if (!pow2(next.wg) || next.wg > 1024 || !pow2(next.maxCx) || !Number.isInteger(next.unroll) || next.unroll < 1 || next.unroll > 16
    || !Number.isInteger(next.partials) || next.partials < 1 || !Number.isInteger(next.minChunk) || next.minChunk < 1
    || !Number.isInteger(next.shortRow) || next.shortRow < 0) {
    throw new ArgumentError(`setReduceParams: bad parameters ${JSON.stringify(p)}`);
  }
  params = next;
  return prev;
}

/** The kernel class of an op on a storage kind (shaders/reduce/ops.wgsl C_*), and its true-bits mask. */
type Cls = 'fsum' | 'fprod' | 'fmax' | 'fmin' | 'csum' | 'cprod' | 'isum' | 'iprod' | 'imax' | 'imin' | 'umax' | 'umin'
  | 'any' | 'all' | 'cany' | 'call';

function reduceClass(op: ReduceOp, d: DType, who: string): Cls {
  const c = d === 'complex64';
  switch (op) {
    case 'sum': case 'prod':
      if (d === 'float32') return op === 'sum' ? 'fsum' : 'fprod';
      if (c) return op === 'sum' ? 'csum' : 'cprod';
      return op === 'sum' ? 'isum' : 'iprod'; // int32, uint32, bool: wrapping u32 arithmetic has the same bits
    case 'max': case 'min':
      if (c) throw new DTypeError(`${who}: ${op} of complex64 is not defined (no ordering of complex numbers)`);
      if (d === 'float32') return op === 'max' ? 'fmax' : 'fmin';
      if (d === 'int32') return op === 'max' ? 'imax' : 'imin';
      return op === 'max' ? 'umax' : 'umin'; // uint32, bool
    case 'any': case 'all':
      if (c) return op === 'any' ? 'cany' : 'call';
      return op;
  }
}

/** Bits of a word that make it true: floats ignore the sign (−0 is false). */
const maskOf = (d: DType) => (d === 'float32' || d === 'complex64' ? 0x7fffffff : 0xffffffff);

// zero: always 0, an opaque operand that keeps compilers from folding Kahan's compensation (shaders/reduce/ops.wgsl)
const ROWS_UNIFORMS = { count: 'u32', len: 'u32', splits: 'u32', mask: 'u32', zero: 'u32' } as const;
// rstride, cstride, swap: the columns kernel's element strides and thread layout (shaders/reduce/reduce.wgsl)
const COLS_UNIFORMS = {
  count: 'u32', len: 'u32', inner: 'u32', splits: 'u32', blocks: 'u32', cx: 'u32', rstride: 'u32', cstride: 'u32', swap: 'u32',
  mask: 'u32', zero: 'u32',
} as const;
type RowsDecl = { inputs: { xv: 'vec4u'; xs: 'u32' | 'vec2u' }; outputs: { out: 'u32' | 'vec2u' }; uniforms: typeof ROWS_UNIFORMS };
type ColsDecl = { inputs: { xs: 'u32' | 'vec2u' }; outputs: { out: 'u32' | 'vec2u' }; uniforms: typeof COLS_UNIFORMS };

/** `f(k)` for k = 0 … n−1, joined: the unrolled statements of a kernel's main loop. */
const unrolled = (n: number, f: (k: number) => string) => Array.from({ length: n }, (_, k) => f(k)).join(' ');

function classDefines(cls: Cls, wg: number, unroll: number, rows: boolean): Defines {
  const complexIn = cls[0] === 'c';
  return {
    [`C_${cls.toUpperCase()}`]: true, CLS: cls, WG: wg, U: unroll, ROWS: rows,
    KAHAN: cls === 'fsum' || cls === 'csum',
    WORD: complexIn ? 'vec2u' : 'u32', VW: complexIn ? 2 : 4,
    LOADS: rows ? unrolled(unroll, (k) => `let w${k} = xv[i + ${k}u * G];`)
      : unrolled(unroll, (k) => `let w${k} = xs[base + (r + ${k}u * G) * p.rstride];`),
    PUSHES: rows ? unrolled(unroll, (k) => `pushv(&sv, &cv, liftv(w${k}));`) : unrolled(unroll, (k) => `push(&s1, &c1, lift(w${k}));`),
  };
}

const wordOf = (cls: Cls) => (cls[0] === 'c' ? 'vec2u' as const : 'u32' as const);
const outWordOf = (cls: Cls) => (cls === 'csum' || cls === 'cprod' ? 'vec2u' as const : 'u32' as const);

/** The rows kernel (inner = 1: vec4 loads along the reduced dim) of a class. */
export function reduceRowsProgram(cls: Cls, wg = params.wg, unroll = params.unroll): GpuProgram<RowsDecl> {
  return cachedProgram(`reduce.rows|${cls}|${wg}|${unroll}`, () => ({
    name: 'reduce.rows', key: `${cls}|wg${wg}|u${unroll}`, entryPoint: `reduce_rows_${cls}`,
    workgroupSize: [wg, 1, 1] as [number, number, number], workgroupBytes: wg * 8,
    decl: { inputs: { xv: 'vec4u', xs: wordOf(cls) }, outputs: { out: outWordOf(cls) }, uniforms: ROWS_UNIFORMS } as RowsDecl,
    body: () => loadShader('reduce/reduce.wgsl', classDefines(cls, wg, unroll, true)),
  }));
}

/** The columns kernel (inner > 1: each thread walks a column) of a class. */
export function reduceColsProgram(cls: Cls, wg = params.wg, unroll = params.unroll): GpuProgram<ColsDecl> {
  return cachedProgram(`reduce.cols|${cls}|${wg}|${unroll}`, () => ({
    name: 'reduce.cols', key: `${cls}|wg${wg}|u${unroll}`, entryPoint: `reduce_cols_${cls}`,
    workgroupSize: [wg, 1, 1] as [number, number, number], workgroupBytes: wg * 8,
    decl: { inputs: { xs: wordOf(cls) }, outputs: { out: outWordOf(cls) }, uniforms: COLS_UNIFORMS } as ColsDecl,
    body: () => loadShader('reduce/reduce.wgsl', classDefines(cls, wg, unroll, false)),
  }));
}

type ArgCls = 'fmax' | 'fmin' | 'imax' | 'imin' | 'umax' | 'umin';
const ARG_DECL = {
  inputs: { x: 'u32', ix: 'u32' }, outputs: { out: 'u32', oi: 'u32' },
  uniforms: {
    count: 'u32', len: 'u32', inner: 'u32', splits: 'u32', blocks: 'u32', cx: 'u32', rstride: 'u32', cstride: 'u32', swap: 'u32', has_idx: 'u32',
  },
} as const;

/** The argReduce kernel (values and first indices) of a value class. */
export function argReduceProgram(cls: ArgCls, wg = params.wg, unroll = params.unroll): GpuProgram<typeof ARG_DECL> {
  return cachedProgram(`reduce.arg|${cls}|${wg}|${unroll}`, () => ({
    name: 'reduce.arg', key: `${cls}|wg${wg}|u${unroll}`, entryPoint: `arg_reduce_${cls}`,
    workgroupSize: [wg, 1, 1] as [number, number, number], workgroupBytes: wg * 8,
    decl: ARG_DECL,
    body: () => loadShader('reduce/arg_reduce.wgsl', {
      CLS: cls, WG: wg, U: unroll, FLOAT: cls[0] === 'f', SIGNED: cls[0] === 'i', MAX: cls.endsWith('max'),
      LOADS: unrolled(unroll, (k) => `let w${k} = x[base + (r + ${k}u * G) * p.rstride];`),
      UPDATES: unrolled(unroll, (k) => `{ let q = r + ${k}u * G; var iq = q; if (p.has_idx != 0u) { iq = ix[base + q * p.rstride]; } `
        + `let v = lift(w${k}); if (wins(v, iq, bv, bi)) { bv = v; bi = iq; } }`),
    }),
  }));
}

/** Every class, for the program snapshot test. */
export const REDUCE_CLASSES: readonly Cls[] = [
  'fsum', 'fprod', 'fmax', 'fmin', 'csum', 'cprod', 'isum', 'iprod', 'imax', 'imin', 'umax', 'umin', 'any', 'all', 'cany', 'call',
];
export const ARG_CLASSES: readonly ArgCls[] = ['fmax', 'fmin', 'imax', 'imin', 'umax', 'umin'];

// Indices are u32 in the kernels; head/tail arithmetic adds up to a grid's thread count.
const MAX_ELEMENTS = 2 ** 31;

/** One pass: reduce the middle dim of an (outer, len, inner) view. */
export interface ReducePass { outer: number; len: number; inner: number }

/**
 * The passes of a reduction of `dims` (sorted, unique) of `shape`, last run of reduced dims
 * first. Reduced dims of size 1 need no pass; with none left (or no dims), one pass of len 1
 * converts (sum of bool → int32, any → bool) and copies. An empty input with a non-empty
 * output is one pass of len 0 (the identity: sum 0, prod 1, all true).
 */
export function planReduce(shape: readonly number[], dims: readonly number[]): ReducePass[] {
  const size = shape.reduce((a, b) => a * b, 1);
  const outSize = shape.reduce((a, b, i) => (dims.includes(i) ? a : a * b), 1);
  if (outSize === 0) return [];
  if (size === 0) return [{ outer: outSize, len: 0, inner: 1 }];
  // runs of [extent, reduced?], merged across adjacent dims of one kind
  const runs: Array<[number, boolean]> = [];
  shape.forEach((n, i) => {
    if (n === 1) return;
    const r = dims.includes(i);
    const last = runs[runs.length - 1];
    if (last && last[1] === r) last[0] *= n;
    else runs.push([n, r]);
  });
  const passes: ReducePass[] = [];
  for (;;) {
    let k = -1;
    for (let i = runs.length - 1; i >= 0; i--) if (runs[i][1]) { k = i; break; }
    if (k < 0) break;
    const prod = (a: number, b: number) => runs.slice(a, b).reduce((p, r) => p * r[0], 1);
    passes.push({ outer: prod(0, k), len: runs[k][0], inner: prod(k + 1, runs.length) });
    runs.splice(k, 1);
    // the kept runs on either side of the removed one are now adjacent
    if (k > 0 && k < runs.length && !runs[k - 1][1] && !runs[k][1]) {
      runs[k - 1][0] *= runs[k][0];
      runs.splice(k, 1);
    }
  }
  if (passes.length === 0) passes.push({ outer: 1, len: 1, inner: size });
  return passes;
}

/** Splits of the reduced dim: enough workgroups to fill the GPU, none smaller than minChunk elements. */
function splitsFor(workgroups: number, elementsPerSplit1: number): number {
  if (workgroups >= params.partials) return 1;
  return Math.max(1, Math.min(Math.ceil(params.partials / workgroups), Math.floor(elementsPerSplit1 / params.minChunk)));
}

/** The next power of two ≥ v (v ≥ 1). */
const pow2Above = (v: number) => 2 ** Math.ceil(Math.log2(Math.max(1, v)));

/**
 * The columns kernel's layout of a pass: `cols` outputs per outer index, cx of them per
 * workgroup, element strides, swap. Columns (inner > 1): cx covers inner up to maxCx.
 * Short rows (inner = 1): the rows become columns (stride len), each gets a lane group of
 * about len / 16 lanes (coalesced along the row), WG / lanes rows per workgroup.
 */
function colsLayout(outer: number, len: number, inner: number) {
  const wg = params.wg;
  if (inner === 1) {
    const lanes = Math.min(wg, pow2Above(Math.ceil(len / 16)));
    return { outer: 1, cols: outer, cx: wg / lanes, rstride: 1, cstride: len, swap: 1 };
  }
  const cx = Math.min(pow2Above(inner), params.maxCx, wg);
  return { outer, cols: inner, cx, rstride: inner, cstride: 1, swap: 0 };
}

/**
 * Records one pass of class `cls` from x (dtype d, outer·len·inner elements) into a new
 * tensor of [outer·inner]; `split`: may it split the reduced dim (not in the pass that folds
 * partials, so a pass is at most two dispatches).
 */
function recordPass(x: Tensor, d: DType, cls: Cls, ps: ReducePass, outDtype: DType, who: string, split = true): Tensor {
  const { outer, len, inner } = ps;
  const mask = maskOf(d);
  if (inner === 1 && len >= params.shortRow) {
    const S = split ? splitsFor(outer, len) : 1;
    const part = emptyGpu(outDtype, [outer * S], who);
    runProgram(reduceRowsProgram(cls), {
      inputs: { xv: x.gpuStorage(), xs: x.gpuStorage() }, outputs: { out: part.gpuStorage() },
      uniforms: { count: outer * S, len, splits: S, mask, zero: 0 }, workgroups: outer * S,
    });
    if (S === 1) return part;
    const out = recordPass(part, outDtype, reduceClass(opOf(cls), outDtype, who), { outer, len: S, inner: 1 }, outDtype, who, false);
    part.dispose();
    return out;
  }
  const L = colsLayout(outer, len, inner);
  const blocks = Math.ceil(L.cols / L.cx);
  const S = split ? splitsFor(L.outer * blocks, len * Math.min(L.cx, L.cols)) : 1;
  // partials: (outer, S, cols) — for short rows (S, rows), the columns of the folding pass
  const part = emptyGpu(outDtype, [L.outer * S * L.cols], who);
  const count = L.outer * blocks * S;
  runProgram(reduceColsProgram(cls), {
    inputs: { xs: x.gpuStorage() }, outputs: { out: part.gpuStorage() },
    uniforms: { count, len, inner: L.cols, splits: S, blocks, cx: L.cx, rstride: L.rstride, cstride: L.cstride, swap: L.swap, mask, zero: 0 },
    workgroups: count,
  });
  if (S === 1) return part;
  const out = recordPass(part, outDtype, reduceClass(opOf(cls), outDtype, who), { outer: L.outer, len: S, inner: L.cols }, outDtype, who, false);
  part.dispose();
  return out;
}

function opOf(cls: Cls): ReduceOp {
  switch (cls) {
    case 'fsum': case 'csum': case 'isum': return 'sum';
    case 'fprod': case 'cprod': case 'iprod': return 'prod';
    case 'fmax': case 'imax': case 'umax': return 'max';
    case 'fmin': case 'imin': case 'umin': return 'min';
    case 'any': case 'cany': return 'any';
    case 'all': case 'call': return 'all';
  }
}

function outShape(shape: readonly number[], dims: readonly number[], keepDims: boolean): number[] {
  const out: number[] = [];
  shape.forEach((n, i) => {
    if (!dims.includes(i)) out.push(n);
    else if (keepDims) out.push(1);
  });
  return out;
}

function checkDims(x: Tensor, dims: readonly number[], who: string): void {
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i];
    if (!Number.isInteger(d) || d < 0 || d >= x.ndim || (i > 0 && d <= dims[i - 1])) {
      throw new ArgumentError(`${who}: dims [${dims.join(', ')}] must be sorted, unique and in [0, ${x.ndim})`);
    }
  }
  if (x.size >= MAX_ELEMENTS) throw new DeviceError(`${who}: ${x.size} elements exceed the GPU reduction's 32-bit indexing (at most 2^31 - 1)`);
}

function reduce(x: Tensor, op: ReduceOp, dims: readonly number[], keepDims: boolean): Tensor {
  const who = op;
  requireGpu(x, who, 'x');
  checkDims(x, dims, who);
  const outDtype = reduceOutDtype(op, x.dtype);
  reduceClass(op, x.dtype, who); // refuses max/min of complex before any work
  const shape = outShape(x.shape, dims, keepDims);
  const passes = planReduce(x.shape, dims);
  if (passes.length === 0) return carryCheck(x, emptyGpu(outDtype, shape, who));
  let cur = x;
  let d: DType = x.dtype;
  for (const ps of passes) {
    const next = recordPass(cur, d, reduceClass(op, d, who), ps, outDtype, who);
    if (cur !== x) cur.dispose();
    cur = next;
    d = outDtype;
  }
  // the last pass wrote [outer·inner]: the same buffer under the output's shape
  const out = Tensor.fromGpu(outDtype, shape, shareStorage(cur.gpuStorage()));
  cur.dispose();
  return carryCheck(x, out);
}

/**
 * x's deferred check (e.g. a GPU take's index check), carried to the outputs made from it;
 * run once however many outputs are read.
 */
function carryCheck<T extends Tensor>(x: Tensor, ...outs: T[]): T {
  const check = x.pendingCheck();
  if (check) {
    let done: Promise<void> | undefined;
    const once = () => (done ??= check());
    for (const o of outs) o.setCheck(once);
  }
  return outs[0];
}

function argClass(op: 'max' | 'min', d: DType, who: string): ArgCls {
  if (d === 'complex64') throw new DTypeError(`${who}: ${op} of complex64 is not defined (no ordering of complex numbers)`);
  const k = d === 'float32' ? 'f' : d === 'int32' ? 'i' : 'u';
  return `${k}${op}` as ArgCls;
}

function argReduce(x: Tensor, op: 'max' | 'min', dim: number, keepDims: boolean): { values: Tensor; indices: Tensor<'int32'> } {
  const who = op === 'max' ? 'argmax' : 'argmin';
  requireGpu(x, who, 'x');
  // a 0-d tensor reduces as one element along dim 0 (torch), giving 0-d results
  const xs = x.ndim === 0 ? [1] : x.shape;
  if (!(Number.isInteger(dim) && dim >= 0 && dim < xs.length)) throw new ArgumentError(`${who}: dim ${dim} is out of range for ${x.ndim} dims`);
  if (x.size >= MAX_ELEMENTS) throw new DeviceError(`${who}: ${x.size} elements exceed the GPU reduction's 32-bit indexing (at most 2^31 - 1)`);
  const cls = argClass(op, x.dtype, who);
  const shape = x.ndim === 0 ? [] : outShape(x.shape, [dim], keepDims);
  const len = xs[dim];
  const outer = xs.slice(0, dim).reduce((a, b) => a * b, 1);
  const inner = xs.slice(dim + 1).reduce((a, b) => a * b, 1);
  const values = emptyGpu(x.dtype, shape, who);
  const indices = emptyGpu('int32', shape, who);
  carryCheck(x, values, indices);
  if (outer * inner === 0) return { values, indices };
  if (len === 0) throw new ShapeError(`${who}: the reduced dim is empty`);
  const L = colsLayout(outer, len, inner);
  const prog = argReduceProgram(cls);
  // one pass of the kernel over (o, len', cols) with the layout's strides, or (second pass) plain columns
  const run = (src: Tensor, srcIdx: Tensor | null, n: number, splits: number, out: Tensor, oi: Tensor) => {
    const lay = srcIdx ? colsLayout(L.outer, n, L.cols) : L;
    const blocks = Math.ceil(lay.cols / lay.cx);
    const count = lay.outer * blocks * splits;
    runProgram(prog, {
      inputs: { x: src.gpuStorage(), ix: (srcIdx ?? src).gpuStorage() }, outputs: { out: out.gpuStorage(), oi: oi.gpuStorage() },
      uniforms: {
        count, len: n, inner: lay.cols, splits, blocks, cx: lay.cx, rstride: lay.rstride, cstride: lay.cstride, swap: lay.swap,
        has_idx: srcIdx ? 1 : 0,
      },
      workgroups: count,
    });
  };
  const S = splitsFor(L.outer * Math.ceil(L.cols / L.cx), len * Math.min(L.cx, L.cols));
  if (S === 1) {
    run(x, null, len, 1, values, indices);
    return { values, indices };
  }
  const pv = emptyGpu(x.dtype, [L.outer * S * L.cols], who);
  const pi = emptyGpu('int32', [L.outer * S * L.cols], who);
  run(x, null, len, S, pv, pi);
  run(pv, pi, S, 1, values, indices);
  pv.dispose();
  pi.dispose();
  return { values, indices };
}

export function registerReduceGpu(): void {
  register('reduce', ['float32', 'complex64', 'int32', 'uint32', 'bool'], 'gpu', reduce);
  register('argReduce', ['float32', 'int32', 'uint32', 'bool'], 'gpu', argReduce);
}
