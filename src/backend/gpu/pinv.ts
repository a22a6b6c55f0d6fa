/// <reference types="@webgpu/types" />
// GPU entries of pinv and matrixRank (float32, complex64), and the pieces lstsq shares: the
// registry's svd on the matrix scaled by a power of two (svd_scale.ts, as gelsd scales), the
// rank threshold and 1/σ weights in small float-word kernels (shaders/pinv/), and
// X = V·diag(w)·Uᴴ as one GEMM over adjoint views of Vh and U·diag(w) (no transposed copies).
// Everything is recorded into the shared encoder: no host reads.
import type { Tensor } from '../../core/tensor.js';
import { epsOf } from '../../core/dtype.js';
import { lookup, register } from '../registry.js';
import type { RankTolerance } from '../ops.js';
import { runProgram } from './program.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, batchCount, floatsPer, checkIndexRange, infoTensor } from './small.js';
import { gemmGpu } from './gemm.js';
import { zeroInfo } from './lu.js';
import { scaleToRangeGpu, ldexpBatchGpu } from './svd_scale.js';

const WG = 64;
const NAN_BITS = 0x7fc00000;
const THRESHOLD_UNIFORMS = { atol_m: 'f32', atol_e: 'i32', rtol: 'f32' } as const;

const DECLS = {
  weights: {
    inputs: { S: 'f32', exps: 'i32', sinfo: 'i32', vinfo: 'i32' }, outputs: { U: 'f32' },
    uniforms: { total: 'u32', c2: 'u32', m: 'u32', k: 'u32', nan_bits: 'u32', ...THRESHOLD_UNIFORMS },
  },
  rank: {
    inputs: { S: 'f32', exps: 'i32', sinfo: 'i32', vinfo: 'i32' }, outputs: { rank: 'i32', info: 'i32' },
    uniforms: { count: 'u32', k: 'u32', zero_bad: 'u32', ...THRESHOLD_UNIFORMS },
  },
  hermitian: { inputs: { A: 'f32' }, outputs: { H: 'f32' }, uniforms: { total: 'u32', c2: 'u32', n: 'u32' } },
} as const;

/** The float-word kernels of shaders/pinv/ (one variant each: float32 and complex64 alike). */
export function pinvProgram<K extends keyof typeof DECLS>(kind: K) {
  return smallProgram(`pinv.${kind}`, `pinv/${kind}.wgsl`, kind, 'float32', WG, {}, DECLS[kind]);
}

/** Threshold uniforms: atol as mantissa and exponent (scaled per matrix in the kernel), rtol. */
export interface Threshold { atol_m: number; atol_e: number; rtol: number }

/** torch's rule (src/backend/cpu/pinv.ts rankThreshold): rtol defaults to max(m, n)·eps, or 0 with a positive atol. */
export function thresholdOf(tol: { atol?: number; rtol?: number }, m: number, n: number, dtype: string): Threshold {
  const atol = tol.atol ?? 0;
  const rtol = tol.rtol ?? (atol > 0 ? 0 : epsOf(dtype as 'float32') * Math.max(m, n));
  if (!(atol > 0)) return { atol_m: 0, atol_e: 0, rtol };
  const e = Math.floor(Math.log2(atol));
  const h = Math.trunc(-e / 2);
  return { atol_m: atol * 2 ** h * 2 ** (-e - h), atol_e: e, rtol };
}

/** The Hermitian matrices of A's lower triangles (square A). */
export function hermitianGpu(A: Tensor, who: string): Tensor {
  const H = emptyGpu(A.dtype, A.shape, who);
  const c2 = floatsPer(A.dtype), total = A.size * c2;
  if (total === 0) return H;
  checkIndexRange(total, who);
  runProgram(pinvProgram('hermitian'), {
    inputs: { A: A.gpuStorage() }, outputs: { H: H.gpuStorage() },
    uniforms: { total, c2, n: A.rows }, workgroups: Math.ceil(total / WG),
  });
  return H;
}

/** Rank above the threshold and the merged status (−1 from the scaling, else the SVD's) per matrix. */
export function rankGpu(S: Tensor, exps: Tensor<'int32'>, sinfo: Tensor<'int32'>, vinfo: Tensor<'int32'>,
  thr: Threshold, k: number, zeroBad: boolean, who: string): { rank: Tensor<'int32'>; info: Tensor<'int32'> } {
  const batch = sinfo.shape;
  const rank = infoTensor(batch, who), info = infoTensor(batch, who);
  const count = sinfo.size;
  if (count === 0) return { rank, info };
  runProgram(pinvProgram('rank'), {
    inputs: { S: S.gpuStorage(), exps: exps.gpuStorage(), sinfo: sinfo.gpuStorage(), vinfo: vinfo.gpuStorage() },
    outputs: { rank: rank.gpuStorage(), info: info.gpuStorage() },
    uniforms: { count, k, zero_bad: zeroBad ? 1 : 0, ...thr }, workgroups: Math.ceil(count / WG),
  });
  return { rank, info };
}

/** U (…, m, k) ← U·diag(w) in place: w = 1/σ above the threshold, else 0; NaN where a status is non-zero. */
export function weightColumnsGpu(U: Tensor, S: Tensor, exps: Tensor<'int32'>, sinfo: Tensor<'int32'>, vinfo: Tensor<'int32'>,
  thr: Threshold, who: string): void {
  const c2 = floatsPer(U.dtype), total = U.size * c2;
  if (total === 0) return;
  checkIndexRange(total, who);
  runProgram(pinvProgram('weights'), {
    inputs: { S: S.gpuStorage(), exps: exps.gpuStorage(), sinfo: sinfo.gpuStorage(), vinfo: vinfo.gpuStorage() },
    outputs: { U: U.gpuStorage() },
    uniforms: { total, c2, m: U.rows, k: U.cols, nan_bits: NAN_BITS, ...thr }, workgroups: Math.ceil(total / WG),
  });
}

/** The registry's GPU svd (thin). */
export function svdGpuOp(A: Tensor, computeUV: boolean, who: string) {
  return lookup('svd', A.dtype, 'gpu', who)(A, { computeUV, fullMatrices: false });
}

function pinvGpu(A: Tensor, tol: RankTolerance): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'pinv';
  const dtype = gpuFloatDType(A, who, 'A');
  const a = tol.hermitian ? hermitianGpu(A, who) : A;
  const m = a.rows, n = a.cols, k = Math.min(m, n), batch = a.batchShape, count = batchCount(a);
  if (count === 0 || k === 0) {
    if (a !== A) a.dispose();
    return { X: emptyGpu(dtype, [...batch, n, m], who), info: zeroInfo(batch) };
  }
  // The pseudo-inverse of 2^−e·A, then times 2^−e: 1/σ stays finite near under/overflow.
  const sc = scaleToRangeGpu(a, who);
  if (a !== A) a.dispose();
  const { U, S, Vh, info: vinfo } = svdGpuOp(sc.t, true, who);
  sc.t.dispose();
  const thr = thresholdOf(tol, m, n, dtype);
  const { rank, info } = rankGpu(S, sc.exps, sc.info, vinfo, thr, k, false, who);
  rank.dispose();
  weightColumnsGpu(U!, S, sc.exps, sc.info, vinfo, thr, who);
  // X = V·diag(w)·Uᴴ = Vhᴴ·(U·diag(w))ᴴ: both adjoints are GEMM operand modes.
  const X = emptyGpu(dtype, [...batch, n, m], who);
  gemmGpu(who, {
    dtype, m: n, n: m, k, batch: count,
    A: { s: Vh!.gpuStorage(), offset: 0, ld: n, stride: k * n }, opA: 'C',
    B: { s: U!.gpuStorage(), offset: 0, ld: k, stride: m * k }, opB: 'C',
    C: { s: X.gpuStorage(), offset: 0, ld: m, stride: n * m },
  });
  const out = ldexpBatchGpu(X, sc.exps, -1, who);
  for (const t of [X, U!, S, Vh!, vinfo, sc.exps, sc.info]) t.dispose();
  return { X: out, info };
}

function matrixRankGpu(A: Tensor, tol: RankTolerance): { rank: Tensor<'int32'>; info: Tensor<'int32'> } {
  const who = 'matrixRank';
  const dtype = gpuFloatDType(A, who, 'A');
  const a = tol.hermitian ? hermitianGpu(A, who) : A;
  const m = a.rows, n = a.cols, k = Math.min(m, n), batch = a.batchShape;
  if (batchCount(a) === 0 || k === 0) {
    if (a !== A) a.dispose();
    return { rank: zeroInfo(batch), info: zeroInfo(batch) };
  }
  // As pinv: σ of 2^−e·A, so σ near the subnormals keep their digits for the comparison.
  const sc = scaleToRangeGpu(a, who);
  if (a !== A) a.dispose();
  const { S, info: vinfo, U, Vh } = svdGpuOp(sc.t, false, who);
  U?.dispose();
  Vh?.dispose();
  sc.t.dispose();
  const r = rankGpu(S, sc.exps, sc.info, vinfo, thresholdOf(tol, m, n, dtype), k, false, who);
  for (const t of [S, vinfo, sc.exps, sc.info]) t.dispose();
  return r;
}

export function registerPinvGpu(): void {
  register('pinv', ['float32', 'complex64'], 'gpu', pinvGpu);
  register('matrixRank', ['float32', 'complex64'], 'gpu', matrixRankGpu);
}

