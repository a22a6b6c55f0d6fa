/// <reference types="@webgpu/types" />
// GPU entries of vectorNorm, matrixNorm and cond (float32, complex64): the p-norm sums in one
// kernel (shaders/norm/vector_norm.wgsl, a workgroup per reduced row, scaled by the row's
// max), the spectral orders from the registry's svd (svdvals) and the per-matrix
// combinations in shaders/norm/norm_post.wgsl; cond's inverse from the registry's inv.
// Everything is recorded into the shared encoder: no host reads.
import type { Tensor } from '../../core/tensor.js';
import { sizeOf } from '../../core/shape.js';
import { lookup, register } from '../registry.js';
import type { MatrixNormOrd } from '../ops.js';
import { runProgram } from './program.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, dummyIndex, checkIndexRange, allocStorage } from './small.js';

const WG = 64;

const VN_UNIFORMS = { rows: 'u32', len: 'u32', mode: 'u32', pw: 'f32', chunks: 'u32', clen: 'u32' } as const;
const VN_DECL = (T: 'f32' | 'vec2f') => ({ inputs: { X: T }, outputs: { out: 'f32' }, uniforms: VN_UNIFORMS } as const);
const VN_PART_DECL = (T: 'f32' | 'vec2f') => ({ inputs: { X: T }, outputs: { part: 'vec4f' }, uniforms: VN_UNIFORMS } as const);
const VN_COMBINE_DECL = { inputs: { part: 'vec4f' }, outputs: { out: 'f32' }, uniforms: VN_UNIFORMS } as const;

const POST_DECL = {
  inputs: { S: 'f32', info: 'i32', aux: 'f32', aux2: 'f32' }, outputs: { out: 'f32' },
  uniforms: { count: 'u32', k: 'u32', mode: 'u32' },
} as const;

/** One workgroup per row (WHOLE), or per chunk of a row (PART) then per row (COMBINE). */
export function vectorNormProgram(dtype: 'float32' | 'complex64') {
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return smallProgram('vector_norm', 'norm/vector_norm.wgsl', 'vector_norm', dtype, WG, { WHOLE: true }, VN_DECL(T), WG * 16);
}

export function vectorNormPartProgram(dtype: 'float32' | 'complex64') {
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return smallProgram('vector_norm_part', 'norm/vector_norm.wgsl', 'vector_norm_part', dtype, WG, { PART: true }, VN_PART_DECL(T), WG * 16);
}

export function vectorNormCombineProgram() {
  return smallProgram('vector_norm_combine', 'norm/vector_norm.wgsl', 'vector_norm_combine', 'float32', WG, { COMBINE: true }, VN_COMBINE_DECL, WG * 16);
}

/** Fewest elements a chunk of a long row gets (64 per thread). */
const MIN_CHUNK = 4096;
/** Workgroups a few long rows are spread over at most (enough to fill a large GPU). */
const CHUNK_TARGET = 1024;

export function normPostProgram() {
  return smallProgram('norm_post', 'norm/norm_post.wgsl', 'norm_post', 'float32', WG, {}, POST_DECL);
}

/** The kernel's mode for a vector order. */
function vnMode(ord: number): number {
  if (ord === Infinity) return 1;
  if (ord === -Infinity) return 2;
  if (ord === 0) return 3;
  if (ord === 2) return 4;
  if (ord === 1) return 5;
  return 0;
}

/** p-norms of the rows of the contiguous x viewed as (rows, len): a float32 (rows) tensor. */
function rowNorms(x: Tensor, rows: number, len: number, ord: number, who: string): Tensor {
  const dtype = gpuFloatDType(x, who, 'A');
  const out = emptyGpu('float32', [rows], who);
  if (rows === 0) return out;
  checkIndexRange(rows * len, who);
  const uniforms = { rows, len, mode: vnMode(ord), pw: Number.isFinite(ord) ? ord : 0, chunks: 1, clen: len };
  // Few long rows: one workgroup per row would leave a large GPU idle.
  const chunks = Math.min(Math.ceil(len / MIN_CHUNK), Math.max(1, Math.ceil(CHUNK_TARGET / rows)));
  if (chunks < 2) {
    runProgram(vectorNormProgram(dtype), { inputs: { X: x.gpuStorage() }, outputs: { out: out.gpuStorage() }, uniforms, workgroups: rows });
    return out;
  }
  const clen = Math.ceil(len / chunks);
  const u = { ...uniforms, chunks: Math.ceil(len / clen), clen };
  const part = allocStorage(rows * u.chunks * 16, who, true); // (max, min, Σ, NaN) per chunk
  try {
    runProgram(vectorNormPartProgram(dtype), { inputs: { X: x.gpuStorage() }, outputs: { part }, uniforms: u, workgroups: rows * u.chunks });
    runProgram(vectorNormCombineProgram(), { inputs: { part }, outputs: { out: out.gpuStorage() }, uniforms: u, workgroups: rows });
  } finally {
    part.release();
  }
  return out;
}

/** A contiguous copy of t with `dims` moved last (in that order), or t itself when they already are. */
function moveToEnd(t: Tensor, dims: readonly number[], who: string): Tensor {
  const nd = t.ndim;
  const kept = [...Array(nd).keys()].filter((d) => !dims.includes(d));
  const perm = [...kept, ...dims];
  if (perm.every((p, i) => p === i)) return t;
  const stride = new Array<number>(nd).fill(1);
  for (let i = nd - 2; i >= 0; i--) stride[i] = stride[i + 1] * t.shape[i + 1];
  return lookup('stridedCopy', t.dtype, 'gpu', who)(t, {
    shape: perm.map((p) => t.shape[p]), strides: perm.map((p) => stride[p]), offset: 0,
  }, false);
}

function reducedShape(shape: readonly number[], dims: readonly number[], keepdim: boolean): number[] {
  return keepdim ? shape.map((s, i) => (dims.includes(i) ? 1 : s)) : shape.filter((_, i) => !dims.includes(i));
}

function disposeIf(t: Tensor, keep: Tensor): void {
  if (t !== keep) t.dispose();
}

function vectorNormGpu(x: Tensor, ord: number, dims: readonly number[], keepdim: boolean): Tensor {
  const who = 'norm';
  gpuFloatDType(x, who, 'A');
  const moved = moveToEnd(x, dims, who);
  const len = sizeOf(dims.map((d) => x.shape[d]));
  const rows = sizeOf(reducedShape(x.shape, dims, false));
  const r = rowNorms(moved, rows, len, ord, who);
  disposeIf(moved, x);
  return r.reshape(reducedShape(x.shape, dims, keepdim));
}

/** Singular values (no vectors) of (…, m, n) through the registry's svd. */
function svdvals(A: Tensor, who: string): { S: Tensor; info: Tensor<'int32'> } {
  const { S, info, U, Vh } = lookup('svd', A.dtype, 'gpu', who)(A, { computeUV: false, fullMatrices: false });
  U?.dispose();
  Vh?.dispose();
  return { S, info };
}

function post(S: Tensor | null, info: Tensor<'int32'>, aux: Tensor | null, aux2: Tensor | null, count: number, k: number, mode: number, who: string): Tensor {
  const out = emptyGpu('float32', [count], who);
  if (count === 0) return out;
  const d = dummyIndex(who);
  runProgram(normPostProgram(), {
    inputs: {
      S: (S ?? d).gpuStorage(), info: info.gpuStorage(), aux: (aux ?? d).gpuStorage(), aux2: (aux2 ?? d).gpuStorage(),
    },
    outputs: { out: out.gpuStorage() },
    uniforms: { count, k, mode },
    workgroups: Math.ceil(count / WG),
  });
  d.dispose();
  return out;
}

/** Matrix norms of the contiguous (…, m, n) tensor t: float32 (count). */
function matrixNorms(t: Tensor, ord: MatrixNormOrd, who: string): Tensor {
  const m = t.rows, n = t.cols;
  const count = sizeOf(t.batchShape);
  if (ord === 'fro') return rowNorms(t, count, m * n, 2, who);
  if (ord === 1 || ord === -1 || ord === Infinity || ord === -Infinity) {
    // ±1: column sums (rows moved last), ±Infinity: row sums; then their max or min.
    const byCols = ord === 1 || ord === -1;
    const src = byCols ? moveToEnd(t, [t.ndim - 1, t.ndim - 2], who) : t;
    const sums = rowNorms(src, count * (byCols ? n : m), byCols ? m : n, 1, who);
    disposeIf(src, t);
    const r = rowNorms(sums, count, byCols ? n : m, ord > 0 ? Infinity : -Infinity, who);
    sums.dispose();
    return r;
  }
  // 2, −2, 'nuc': singular values; max |a| tells NaN from Inf input (info −1).
  const { S, info } = svdvals(t, who);
  const mx = ord === -2 ? null : rowNorms(t, count, m * n, Infinity, who);
  const r = post(S, info, mx, null, count, Math.min(m, n), ord === 2 ? 0 : ord === -2 ? 1 : 2, who);
  S.dispose();
  info.dispose();
  mx?.dispose();
  return r;
}

function matrixNormGpu(A: Tensor, ord: MatrixNormOrd, dims: readonly [number, number], keepdim: boolean): Tensor {
  const who = 'norm';
  gpuFloatDType(A, who, 'A');
  const moved = moveToEnd(A, dims, who);
  const kept = A.shape.filter((_, i) => !dims.includes(i));
  const mat = moved.reshape([...kept, A.shape[dims[0]], A.shape[dims[1]]]);
  const r = matrixNorms(mat, ord, who);
  disposeIf(moved, A);
  return r.reshape(reducedShape(A.shape, dims, keepdim));
}

function condGpu(A: Tensor, ord: MatrixNormOrd): Tensor {
  const who = 'cond';
  gpuFloatDType(A, who, 'A');
  const count = sizeOf(A.batchShape);
  let r: Tensor;
  if (ord === 2 || ord === -2) {
    const { S, info } = svdvals(A, who);
    r = post(S, info, null, null, count, Math.min(A.rows, A.cols), ord === 2 ? 3 : 4, who);
    S.dispose();
    info.dispose();
  } else {
    const { X, info } = lookup('inv', A.dtype, 'gpu', who)(A);
    const na = matrixNorms(A, ord, who), ni = matrixNorms(X, ord, who);
    r = post(null, info, na, ni, count, 0, 5, who);
    for (const t of [X, info, na, ni]) t.dispose();
  }
  return r.reshape(A.batchShape);
}

export function registerNormGpu(): void {
  register('vectorNorm', ['float32', 'complex64'], 'gpu', vectorNormGpu);
  register('matrixNorm', ['float32', 'complex64'], 'gpu', matrixNormGpu);
  register('cond', ['float32', 'complex64'], 'gpu', condGpu);
}
