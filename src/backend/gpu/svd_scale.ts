// Exact power-of-two scaling for the GPU SVD family (shaders/svd/scale.wgsl): every float
// word is handled as u32 bits, so subnormal inputs scale exactly on GPUs that flush
// subnormal arithmetic. Both functions record into the shared encoder; no host reads.
import { Tensor } from '../../core/tensor.js';
import { ArgumentError, ShapeError } from '../../core/errors.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { gpuFloatDType, batchCount, floatsPer, dummyIndex, checkIndexRange, infoTensor } from './small.js';

const WG = 64;
/** Elementwise ldexp: words per thread. */
const PER = 4;
/** At most this many workgroups share one matrix's max (the apply pass reduces their maxima). */
const MAX_CHUNKS = 1024;
/** Words one workgroup takes at least per matrix before another is added. */
const MIN_WORDS_PER_CHUNK = WG * 16;

const SCALE_DECLS = {
  max: { inputs: { A: 'u32' }, outputs: { part: 'u32' }, uniforms: { count: 'u32', words: 'u32', chunks: 'u32' } },
  apply: {
    inputs: { A: 'u32', part: 'u32' }, outputs: { t: 'u32', exps: 'i32', info: 'i32' },
    uniforms: { count: 'u32', words: 'u32', chunks: 'u32' },
  },
  ldexp: {
    inputs: { X: 'u32', exps: 'i32', info: 'i32' }, outputs: { out: 'u32' },
    uniforms: { total: 'u32', group: 'u32', sign: 'i32', has_info: 'u32' },
  },
} as const;

function scaleProgram<K extends keyof typeof SCALE_DECLS>(kind: K) {
  const define = { max: 'SCALE_MAX', apply: 'SCALE_APPLY', ldexp: 'LDEXP' }[kind];
  const entry = { max: 'scale_max_u32', apply: 'scale_apply_u32', ldexp: 'ldexp_u32' }[kind];
  return cachedProgram(`svd.scale.${kind}|wg${WG}`, () => ({
    name: `svd.scale.${kind}`, key: `u32|wg${WG}|per${PER}`, entryPoint: entry,
    workgroupSize: [WG, 1, 1] as [number, number, number], decl: SCALE_DECLS[kind],
    body: () => loadShader('svd/scale.wgsl', { [define]: true, WG, PER }),
  }));
}

/** Every program of this module (for the preamble snapshot test). */
export function svdScalePrograms() {
  return [scaleProgram('max'), scaleProgram('apply'), scaleProgram('ldexp')];
}

/**
 * Per matrix of A (…, m, n): t = 2^−e·A exactly (max|t| in [0.5, 1), complex64: the max over
 * real and imaginary parts; zero matrices e = 0), exps int32 (batch shape) = e, info int32
 * (batch shape) = −1 where A holds NaN/Inf (t is 0 there). Two dispatches for the whole batch.
 */
export function scaleToRangeGpu(A: Tensor, who: string): { t: Tensor; exps: Tensor<'int32'>; info: Tensor<'int32'> } {
  const dtype = gpuFloatDType(A, who, 'A');
  if (A.ndim < 2) throw new ShapeError(`${who}: A must have at least 2 dims, got shape [${A.shape.join(', ')}]`);
  const batchShape = A.shape.slice(0, -2);
  const count = batchCount(A);
  const words = A.rows * A.cols * floatsPer(dtype);
  checkIndexRange(count * words, who);
  const t = emptyGpu(dtype, A.shape, who);
  const exps = infoTensor(batchShape, who);
  const info = infoTensor(batchShape, who);
  if (count === 0) return { t, exps, info };
  const chunks = Math.max(1, Math.min(MAX_CHUNKS, Math.floor(words / MIN_WORDS_PER_CHUNK)));
  const part = emptyGpu('uint32', [count * chunks], who);
  try {
    const uniforms = { count, words, chunks };
    // empty matrices (words = 0) skip the max pass: e = 0, info = 0
    if (words > 0) {
      runProgram(scaleProgram('max'), {
        inputs: { A: A.gpuStorage() }, outputs: { part: part.gpuStorage() }, uniforms, workgroups: count * chunks,
      });
    }
    runProgram(scaleProgram('apply'), {
      inputs: { A: words > 0 ? A.gpuStorage() : part.gpuStorage(), part: part.gpuStorage() },
      outputs: { t: t.gpuStorage(), exps: exps.gpuStorage(), info: info.gpuStorage() },
      uniforms, workgroups: count * chunks,
    });
  } finally {
    part.dispose();
  }
  return { t, exps, info };
}

/**
 * x·2^(sign·e_g) exactly, where g is X's matrix (exps of shape X.shape[:−2]) or row
 * (exps of shape X.shape[:−1], e.g. S (…, k) with exps (…)): exps' shape must lead X's.
 * Overflows to ±Inf and underflows through the subnormals with round-to-nearest-even; NaN
 * where info_g = −1 when info (exps' shape) is given. One dispatch.
 */
export function ldexpBatchGpu(X: Tensor, exps: Tensor<'int32'>, sign: 1 | -1, who: string, info?: Tensor<'int32'>): Tensor {
  const dtype = gpuFloatDType(X, who, 'X');
  if (exps.dtype !== 'int32') throw new ArgumentError(`${who}: exps must be int32, got ${exps.dtype}`);
  const lead = X.shape.slice(0, exps.ndim);
  if (exps.ndim > X.ndim || lead.some((d, i) => d !== exps.shape[i])) {
    throw new ShapeError(`${who}: exps of shape [${exps.shape.join(', ')}] does not lead X's shape [${X.shape.join(', ')}]`);
  }
  if (info && (info.dtype !== 'int32' || info.shape.length !== exps.ndim || info.shape.some((d, i) => d !== exps.shape[i]))) {
    throw new ShapeError(`${who}: info must be int32 of exps' shape [${exps.shape.join(', ')}]`);
  }
  if (sign !== 1 && sign !== -1) throw new ArgumentError(`${who}: sign must be 1 or -1, got ${String(sign)}`);
  const out = emptyGpu(dtype, X.shape, who);
  const total = X.size * floatsPer(dtype);
  checkIndexRange(total, who);
  if (total === 0) return out;
  const group = total / Math.max(1, exps.size);
  const dummy = info ? null : dummyIndex(who);
  try {
    runProgram(scaleProgram('ldexp'), {
      inputs: { X: X.gpuStorage(), exps: exps.gpuStorage(), info: (info ?? dummy!).gpuStorage() },
      outputs: { out: out.gpuStorage() },
      uniforms: { total, group, sign, has_info: info ? 1 : 0 },
      workgroups: Math.ceil(total / (WG * PER)),
    });
  } finally {
    dummy?.dispose();
  }
  return out;
}
