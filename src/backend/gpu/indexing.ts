/// <reference types="@webgpu/types" />
// GPU entries of the shape and indexing ops (shaders/indexing): stridedCopy, triangle,
// concat, take, put. Same registry ops and signatures as the CPU entries (src/backend/ops.ts).
// The kernels move raw bits, so one kernel per element width serves every dtype of that
// width: 'b32' (float32, int32, uint32, bool: one u32 per element) and 'b64' (complex64).
import { Tensor } from '../../core/tensor.js';
import type { DType } from '../../core/dtype.js';
import { ArgumentError, DTypeError, DeviceError } from '../../core/errors.js';
import type { StridedView } from '../ops.js';
import { register } from '../registry.js';
import { runProgram, cachedProgram, type GpuProgram, type ProgramDecl } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { bufferOf } from './pool.js';
import { emptyGpu, requireGpu, gpuBytesPerElement } from './tensor-ops.js';

/** Every GPU dtype: the kernels copy bits, so uint32 and bool come free. */
export const INDEXING_GPU_DTYPES: readonly DType[] = ['float32', 'complex64', 'int32', 'uint32', 'bool'];

/** Element width of a kernel variant: 4-byte words or complex64's 8 bytes. */
export type Width = 'b32' | 'b64';
const widthOf = (dtype: DType): Width => (gpuBytesPerElement(dtype) === 8 ? 'b64' : 'b32');

const WG = 256;
const PER = 4;
const TILE = WG * PER;
/** Dims the strided kernels take in their uniforms (more: one dispatch per outer index). */
export const MAX_UNIFORM_DIMS = 16;
/** The transpose pattern takes the tiled kernel from this size of both matrix dims (its tile is 32×32). */
export const TILED_MIN = 32;

const DIMS_UNIFORMS = {
  dims0: 'vec4u', dims1: 'vec4u', dims2: 'vec4u', dims3: 'vec4u',
  strides0: 'vec4u', strides1: 'vec4u', strides2: 'vec4u', strides3: 'vec4u',
} as const;
const GENERAL_UNIFORMS = { total: 'u32', ndim: 'u32', offset: 'u32', out_base: 'u32', conj: 'u32', ...DIMS_UNIFORMS } as const;
const TILED_UNIFORMS = {
  total: 'u32', ndim: 'u32', offset: 'u32', conj: 'u32', rows: 'u32', cols: 'u32', ld: 'u32', tiles_c: 'u32', tiles_per_mat: 'u32',
  ...DIMS_UNIFORMS,
} as const;

type E = 'u32' | 'vec2u';
interface StridedDecl<U extends ProgramDecl['uniforms']> { inputs: { x: E }; outputs: { out: E }; uniforms: U }
type GeneralDecl = StridedDecl<typeof GENERAL_UNIFORMS>;
type TiledDecl = StridedDecl<typeof TILED_UNIFORMS>;
type TriangleDecl = StridedDecl<{ total: 'u32'; m: 'u32'; n: 'u32'; k: 'i32'; upper: 'u32' }>;
type ConcatDecl = StridedDecl<{ total: 'u32'; cols: 'u32'; ld: 'u32'; dst_off: 'u32' }>;
interface CopyWordsDecl { inputs: { src: 'u32' | 'vec4u' }; outputs: { dst: 'u32' | 'vec4u' }; uniforms: { n: 'u32'; src_off: 'u32'; dst_off: 'u32' } }
const INDEX_UNIFORMS = { total: 'u32', size: 'u32', unsigned: 'u32' } as const;
type IndexUniforms = typeof INDEX_UNIFORMS;
interface TakeDecl { inputs: { x: E; index: 'i32' }; outputs: { out: E; status: 'atomic<u32>' }; uniforms: IndexUniforms }
interface PutStoreDecl {
  inputs: { index: 'i32'; vals: E }; outputs: { out: E; winner: 'atomic<u32>'; status: 'atomic<u32>' }; uniforms: IndexUniforms & { phase: 'u32' };
}
interface PutAccDecl {
  inputs: { index: 'i32'; vals: 'u32' }; outputs: { out: 'atomic<u32>'; status: 'atomic<u32>' }; uniforms: IndexUniforms & { mode: 'u32' };
}

function program<D extends ProgramDecl>(
  file: string, entry: string, w: Width, extra: Defines, decl: D, wgSize: [number, number, number] = [WG, 1, 1], workgroupBytes?: number,
): GpuProgram<D> {
  const defs: Defines = {
    ...dtypeDefines(w === 'b64' ? 'complex64' : 'float32'), E: w === 'b64' ? 'vec2u' : 'u32', W: w, WORDS: w === 'b64' ? 2 : 1,
    WG, PER, TILE, ...extra,
  };
  const key = `${w}|${Object.entries(extra).map(([k, v]) => `${k}=${v}`).join(',')}|wg${WG}x${PER}`;
  return cachedProgram(`indexing.${file}|${key}`, () => ({
    name: `indexing.${file}`, key, entryPoint: `${entry}_${w}`, workgroupSize: wgSize, workgroupBytes, decl,
    body: () => loadShader(`indexing/${file}.wgsl`, defs),
  }));
}

const el = (w: Width): E => (w === 'b64' ? 'vec2u' : 'u32');

/** The strided-copy kernel: GENERAL (one thread per element) or TILED (the transpose pattern). */
export function stridedCopyProgram(w: Width, tiled: false): GpuProgram<GeneralDecl>;
export function stridedCopyProgram(w: Width, tiled: true): GpuProgram<TiledDecl>;
export function stridedCopyProgram(w: Width, tiled: boolean): GpuProgram<GeneralDecl> | GpuProgram<TiledDecl> {
  const io = { inputs: { x: el(w) }, outputs: { out: el(w) } };
  return tiled
    ? program('strided_copy', 'strided_copy_tiled', w, { TILED: true }, { ...io, uniforms: TILED_UNIFORMS }, [32, 8, 1], 1056 * (w === 'b64' ? 8 : 4))
    : program('strided_copy', 'strided_copy_general', w, { TILED: false }, { ...io, uniforms: GENERAL_UNIFORMS });
}

export function triangleProgram(w: Width): GpuProgram<TriangleDecl> {
  return program('triangle', 'triangle', w, {}, {
    inputs: { x: el(w) }, outputs: { out: el(w) }, uniforms: { total: 'u32', m: 'u32', n: 'u32', k: 'i32', upper: 'u32' },
  } as TriangleDecl);
}

export function concatProgram(w: Width): GpuProgram<ConcatDecl> {
  return program('concat', 'concat', w, {}, {
    inputs: { x: el(w) }, outputs: { out: el(w) }, uniforms: { total: 'u32', cols: 'u32', ld: 'u32', dst_off: 'u32' },
  } as ConcatDecl);
}

/** Contiguous word copy: one u32 (vec4: false) or one vec4<u32> (vec4: true) per unit, PER units per thread. */
export function copyWordsProgram(vec4: boolean): GpuProgram<CopyWordsDecl> {
  const t = vec4 ? 'vec4u' : 'u32';
  return program('copy_words', 'copy_words', 'b32', { VEC: vec4 ? 4 : 1 }, {
    inputs: { src: t }, outputs: { dst: t }, uniforms: { n: 'u32', src_off: 'u32', dst_off: 'u32' },
  } as CopyWordsDecl);
}

export function takeProgram(w: Width): GpuProgram<TakeDecl> {
  return program('take', 'take', w, {}, {
    inputs: { x: el(w), index: 'i32' }, outputs: { out: el(w), status: 'atomic<u32>' }, uniforms: INDEX_UNIFORMS,
  } as TakeDecl);
}

export function putProgram(w: Width, accumulate: false): GpuProgram<PutStoreDecl>;
export function putProgram(w: Width, accumulate: true): GpuProgram<PutAccDecl>;
export function putProgram(w: Width, accumulate: boolean): GpuProgram<PutStoreDecl> | GpuProgram<PutAccDecl> {
  return accumulate
    ? program('put', 'put_accumulate', w, { ACCUMULATE: true, VARIANT: 'accumulate' }, {
      inputs: { index: 'i32', vals: 'u32' }, outputs: { out: 'atomic<u32>', status: 'atomic<u32>' }, uniforms: { ...INDEX_UNIFORMS, mode: 'u32' },
    } as PutAccDecl)
    : program('put', 'put_store', w, { ACCUMULATE: false, VARIANT: 'store' }, {
      inputs: { index: 'i32', vals: el(w) }, outputs: { out: el(w), winner: 'atomic<u32>', status: 'atomic<u32>' },
      uniforms: { ...INDEX_UNIFORMS, phase: 'u32' },
    } as PutStoreDecl);
}

function check32(n: number, who: string): void {
  if (n > 0xffffffff) throw new DeviceError(`${who}: ${n} elements exceed the GPU kernels' 32-bit indexing`);
}

/**
 * Carries the inputs' deferred checks (e.g. luSolve's pivot status) to `out`, then `own`
 * (this op's index check): every one runs, so each status buffer is read and released,
 * and the first failure is thrown.
 */
function carryChecks(out: Tensor, inputs: readonly Tensor[], own?: () => Promise<void>): Tensor {
  const checks = inputs.map((t) => t.pendingCheck()).filter((c): c is () => Promise<void> => c !== undefined);
  if (own) checks.push(own);
  if (checks.length === 1) out.setCheck(checks[0]);
  else if (checks.length > 1) {
    out.setCheck(async () => {
      let first: unknown;
      for (const c of checks) {
        try { await c(); } catch (e) { first ??= e; }
      }
      if (first !== undefined) throw first;
    });
  }
  return out;
}

/**
 * Records a contiguous copy of `bytes` (a multiple of 4, as are both offsets) from src to
 * dst, ordered after the dispatches so far. A kernel, not copyBufferToBuffer: Dawn's
 * buffer copy measured ~840 GB/s on the H200 against ~3.5 TB/s for a vec4 copy kernel
 * (and a copy would end the open compute pass). vec4 units when both word offsets are
 * multiples of 4, the last words < 4 by the word kernel; otherwise words throughout.
 */
function copyBytes(src: Tensor, srcByte: number, dst: Tensor, dstByte: number, bytes: number, who: string): void {
  if (bytes === 0) return;
  if (srcByte % 4 !== 0 || dstByte % 4 !== 0 || bytes % 4 !== 0) {
    throw new DeviceError(`${who}: internal: copy of ${bytes} bytes at byte offsets ${srcByte} → ${dstByte} is not in whole 4-byte words`);
  }
  const s = src.gpuStorage(), d = dst.gpuStorage();
  if (bufferOf(s) === bufferOf(d)) {
    // One buffer cannot be bound read-only and writable in one dispatch.
    commandEncoder(who).copyBufferToBuffer(bufferOf(s), srcByte, bufferOf(d), dstByte, bytes);
    recordedCommand();
    return;
  }
  const words = bytes / 4, srcWord = srcByte / 4, dstWord = dstByte / 4;
  check32(Math.max(srcWord, dstWord) + words, who);
  let done = 0;
  if (srcWord % 4 === 0 && dstWord % 4 === 0 && words >= 4) {
    const n = Math.floor(words / 4);
    runProgram(copyWordsProgram(true), {
      inputs: { src: s }, outputs: { dst: d }, uniforms: { n, src_off: srcWord / 4, dst_off: dstWord / 4 }, workgroups: Math.ceil(n / TILE),
    });
    done = n * 4;
  }
  const n = words - done;
  if (n > 0) {
    runProgram(copyWordsProgram(false), {
      inputs: { src: s }, outputs: { dst: d }, uniforms: { n, src_off: srcWord + done, dst_off: dstWord + done }, workgroups: Math.ceil(n / TILE),
    });
  }
}

// ---------------------------------------------------------------- stridedCopy

/** A view with size-1 dims dropped and adjacent dims merged where the strides allow (same elements, same order). */
export function collapseView(view: StridedView): { dims: number[]; strides: number[] } {
  const dims: number[] = [], strides: number[] = [];
  for (let d = 0; d < view.shape.length; d++) {
    const n = view.shape[d], s = view.strides[d];
    if (n === 1) continue;
    const last = dims.length - 1;
    if (last >= 0 && strides[last] === s * n) {
      dims[last] *= n;
      strides[last] = s;
    } else {
      dims.push(n);
      strides.push(s);
    }
  }
  return { dims, strides };
}

/** The dims/strides uniforms (u32 words; negative strides as two's complement), innermost last. */
function dimsUniforms(dims: readonly number[], strides: readonly number[]) {
  const d = [...dims, ...new Array<number>(MAX_UNIFORM_DIMS - dims.length).fill(1)];
  const s = [...strides.map((v) => v >>> 0), ...new Array<number>(MAX_UNIFORM_DIMS - strides.length).fill(0)];
  const v4 = (v: number[], i: number) => [v[i], v[i + 1], v[i + 2], v[i + 3]] as const;
  return {
    dims0: v4(d, 0), dims1: v4(d, 4), dims2: v4(d, 8), dims3: v4(d, 12),
    strides0: v4(s, 0), strides1: v4(s, 4), strides2: v4(s, 8), strides3: v4(s, 12),
  };
}

/** Which path a view takes (tests assert the fast paths are reached). */
export type StridedPath = 'empty' | 'copy' | 'tiled' | 'general';

export function stridedPath(view: StridedView, complexConj: boolean): StridedPath {
  const { dims, strides } = collapseView(view);
  if (dims.some((n) => n === 0)) return 'empty';
  const r = dims.length;
  if (r === 0 || (r === 1 && strides[0] === 1)) return complexConj ? 'general' : 'copy';
  if (r >= 2 && r - 2 <= MAX_UNIFORM_DIMS && strides[r - 2] === 1 && strides[r - 1] !== 0
    && dims[r - 2] >= TILED_MIN && dims[r - 1] >= TILED_MIN) return 'tiled';
  return 'general';
}

function stridedCopy(x: Tensor, view: StridedView, conj: boolean): Tensor {
  const who = 'stridedCopy';
  requireGpu(x, who, 'x');
  const out = emptyGpu(x.dtype, view.shape, who);
  const w = widthOf(x.dtype);
  const doConj = conj && x.dtype === 'complex64';
  check32(Math.max(x.size, out.size), who);
  const path = stridedPath(view, doConj);
  if (path === 'empty') return carryChecks(out, [x]);
  const bpe = gpuBytesPerElement(x.dtype);
  if (path === 'copy') {
    copyBytes(x, view.offset * bpe, out, 0, out.size * bpe, who);
    return carryChecks(out, [x]);
  }
  let { dims, strides } = collapseView(view);
  if (dims.length === 0) { dims = [1]; strides = [1]; }
  const io = { inputs: { x: x.gpuStorage() }, outputs: { out: out.gpuStorage() } };
  const conjU = doConj ? 1 : 0;
  if (path === 'tiled') {
    const r = dims.length;
    const rows = dims[r - 2], cols = dims[r - 1];
    const tilesC = Math.ceil(cols / 32), tilesPerMat = Math.ceil(rows / 32) * tilesC;
    const batch = dims.slice(0, r - 2).reduce((a, b) => a * b, 1);
    const total = batch * tilesPerMat;
    check32(total, who);
    runProgram(stridedCopyProgram(w, true), {
      ...io, workgroups: total,
      uniforms: {
        total, ndim: r - 2, offset: view.offset >>> 0, conj: conjU, rows, cols, ld: strides[r - 1] >>> 0, tiles_c: tilesC, tiles_per_mat: tilesPerMat,
        ...dimsUniforms(dims.slice(0, r - 2), strides.slice(0, r - 2)),
      },
    });
    return carryChecks(out, [x]);
  }
  // General: the innermost MAX_UNIFORM_DIMS dims per dispatch, one dispatch per index of the rest.
  const split = Math.max(0, dims.length - MAX_UNIFORM_DIMS);
  const outer = dims.slice(0, split), inner = dims.slice(split);
  const innerSize = inner.reduce((a, b) => a * b, 1);
  const outerCount = outer.reduce((a, b) => a * b, 1);
  const u = dimsUniforms(inner, strides.slice(split));
  for (let o = 0; o < outerCount; o++) {
    let rem = o, off = view.offset;
    for (let d = split - 1; d >= 0; d--) {
      off += (rem % outer[d]) * strides[d];
      rem = Math.floor(rem / outer[d]);
    }
    runProgram(stridedCopyProgram(w, false), {
      ...io, workgroups: Math.ceil(innerSize / TILE),
      uniforms: { total: innerSize, ndim: inner.length, offset: off >>> 0, out_base: o * innerSize, conj: conjU, ...u },
    });
  }
  return carryChecks(out, [x]);
}

// ---------------------------------------------------------------- triangle, concat

function triangle(x: Tensor, upper: boolean, k: number): Tensor {
  const who = upper ? 'triu' : 'tril';
  requireGpu(x, who, 'x');
  if (x.ndim < 2) throw new ArgumentError(`${who}: x has ${x.ndim} dims, expected at least 2`);
  if (!Number.isInteger(k)) throw new ArgumentError(`${who}: k must be an integer, got ${k}`);
  const out = emptyGpu(x.dtype, x.shape, who);
  check32(x.size, who);
  if (x.size === 0) return carryChecks(out, [x]);
  const m = x.rows, n = x.cols;
  // j − i lies in [1 − m, n − 1]: a k past either end keeps all or nothing, so clamp it into i32
  const kc = Math.max(-0x80000000, -m - 1, Math.min(0x7fffffff, n + 1, k));
  runProgram(triangleProgram(widthOf(x.dtype)), {
    inputs: { x: x.gpuStorage() }, outputs: { out: out.gpuStorage() },
    uniforms: { total: x.size, m, n, k: kc, upper: upper ? 1 : 0 }, workgroups: Math.ceil(x.size / TILE),
  });
  return carryChecks(out, [x]);
}

function concat(xs: readonly Tensor[], dim: number): Tensor {
  const who = 'concat';
  if (xs.length === 0) throw new ArgumentError(`${who}: tensors: expected at least one tensor`);
  xs.forEach((t, i) => requireGpu(t, who, `tensors[${i}]`));
  const first = xs[0];
  const shape = [...first.shape];
  shape[dim] = xs.reduce((a, t) => a + t.shape[dim], 0);
  const out = emptyGpu(first.dtype, shape, who);
  check32(out.size, who);
  const outer = shape.slice(0, dim).reduce((a, b) => a * b, 1);
  const inner = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
  const ld = shape[dim] * inner;
  const bpe = gpuBytesPerElement(first.dtype);
  const w = widthOf(first.dtype);
  let off = 0;
  for (const t of xs) {
    const cols = t.shape[dim] * inner;
    if (t.size > 0) {
      // one slab: a plain buffer copy; otherwise one dispatch writes this input's columns of every row
      if (outer === 1) copyBytes(t, 0, out, off * bpe, t.size * bpe, who);
      else {
        runProgram(concatProgram(w), {
          inputs: { x: t.gpuStorage() }, outputs: { out: out.gpuStorage() },
          uniforms: { total: t.size, cols, ld, dst_off: off }, workgroups: Math.ceil(t.size / TILE),
        });
      }
    }
    off += cols;
  }
  return carryChecks(out, xs);
}

// ---------------------------------------------------------------- take, put

/** A zeroed one-word status (cleared by a recorded command, so it is ordered with the kernel). */
function statusWord(who: string): Tensor<'uint32'> {
  const s = emptyGpu('uint32', [1], who);
  commandEncoder(who).clearBuffer(bufferOf(s.gpuStorage()), 0, 4);
  recordedCommand();
  return s;
}

/** The deferred check of an index status word (~first bad position, 0: none). */
function indexCheck(status: Tensor<'uint32'>, who: string, size: number): () => Promise<void> {
  return async () => {
    let s: number;
    try {
      s = (await status.data())[0];
    } finally {
      status.dispose();
    }
    if (s !== 0) {
      const pos = ~s >>> 0;
      const valid = size === 0 ? 'x is empty' : `valid: −${size} … ${size - 1}`;
      throw new ArgumentError(`${who}: index entry ${pos} is out of range for x with ${size} element${size === 1 ? '' : 's'} (${valid})`);
    }
  };
}

/** int32 indices (negatives wrap) or, on the GPU, uint32 ones taken as unsigned (a cast to int32 would wrap 2^32 − 1 to −1). */
function indexKind(index: Tensor, who: string): number {
  requireGpu(index, who, 'index');
  if (index.dtype !== 'int32' && index.dtype !== 'uint32') throw new DTypeError(`${who}: index is ${index.dtype}, expected int32 or uint32`);
  return index.dtype === 'uint32' ? 1 : 0;
}

function take(x: Tensor, index: Tensor<'int32'>): Tensor {
  const who = 'take';
  requireGpu(x, who, 'x');
  const unsigned = indexKind(index, who);
  const out = emptyGpu(x.dtype, index.shape, who);
  check32(Math.max(x.size, index.size), who);
  if (index.size === 0) return carryChecks(out, [x, index]);
  const status = statusWord(who);
  runProgram(takeProgram(widthOf(x.dtype)), {
    inputs: { x: x.gpuStorage(), index: index.gpuStorage() }, outputs: { out: out.gpuStorage(), status: status.gpuStorage() },
    uniforms: { total: index.size, size: x.size, unsigned }, workgroups: Math.ceil(index.size / TILE),
  });
  return carryChecks(out, [x, index], indexCheck(status, who, x.size));
}

/** Accumulate mode of put.wgsl per dtype: 1 integer add, 2 logical or, 3 float add. */
const ACC_MODE: Partial<Record<DType, number>> = { int32: 1, uint32: 1, bool: 2, float32: 3, complex64: 3 };

function put(x: Tensor, index: Tensor<'int32'>, values: Tensor, accumulate: boolean): Tensor {
  const who = 'put';
  requireGpu(x, who, 'x');
  const unsigned = indexKind(index, who);
  requireGpu(values, who, 'values');
  if (values.size !== index.size) throw new ArgumentError(`${who}: values has ${values.size} elements, index ${index.size}`);
  const out = emptyGpu(x.dtype, x.shape, who);
  check32(Math.max(x.size, index.size), who);
  const bpe = gpuBytesPerElement(x.dtype);
  copyBytes(x, 0, out, 0, x.size * bpe, who);
  if (index.size === 0) return carryChecks(out, [x, index, values]);
  const status = statusWord(who);
  const w = widthOf(x.dtype);
  const io = { outputs: { out: out.gpuStorage(), status: status.gpuStorage() }, workgroups: Math.ceil(index.size / TILE) };
  if (accumulate) {
    runProgram(putProgram(w, true), {
      ...io, inputs: { index: index.gpuStorage(), vals: values.gpuStorage() },
      uniforms: { total: index.size, size: x.size, unsigned, mode: ACC_MODE[x.dtype]! },
    });
  } else {
    // the last writer of each element, then its store (a repeated index keeps its last value, as on the CPU)
    const winner = emptyGpu('uint32', [x.size], who);
    commandEncoder(who).clearBuffer(bufferOf(winner.gpuStorage()), 0, x.size * 4);
    recordedCommand();
    for (const phase of [0, 1]) {
      runProgram(putProgram(w, false), {
        ...io, outputs: { ...io.outputs, winner: winner.gpuStorage() }, inputs: { index: index.gpuStorage(), vals: values.gpuStorage() },
        uniforms: { total: index.size, size: x.size, unsigned, phase },
      });
    }
    winner.dispose();
  }
  return carryChecks(out, [x, index, values], indexCheck(status, who, x.size));
}

export function registerIndexingGpu(): void {
  register('stridedCopy', INDEXING_GPU_DTYPES, 'gpu', stridedCopy);
  register('triangle', INDEXING_GPU_DTYPES, 'gpu', triangle);
  register('concat', INDEXING_GPU_DTYPES, 'gpu', concat);
  register('take', INDEXING_GPU_DTYPES, 'gpu', take);
  register('put', INDEXING_GPU_DTYPES, 'gpu', put);
}
