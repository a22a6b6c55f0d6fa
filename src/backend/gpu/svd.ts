/// <reference types="@webgpu/types" />
// The GPU entry of the registry op `svd` (float32, complex64): QR-preconditioned one-sided
// Jacobi (docs/svd.md, GPU). Wide A is handled as Aᴴ. Small matrices take one workgroup
// each (svd_small.ts); larger ones are scaled by a power of two (svd_scale.ts), QR'd
// (qr.ts), and X = Rᴴ is orthogonalised by the small kernel when n fits it or by the
// blocked Jacobi (svd_jacobi.ts); shaders/svd/finalize.wgsl turns Y = X·W into σ, Vh and
// the permuted W; U = Q·W is a GEMM. Everything is recorded; no host reads.
import { Tensor } from '../../core/tensor.js';
import { ShapeError, fmtShape } from '../../core/errors.js';
import { register, lookup } from '../registry.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader, dtypeDefines } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { gpuFloatDType, batchCount, floatsPer, infoTensor, checkIndexRange, dummyIndex } from './small.js';
import { gemmGpu } from './gemm.js';
import { qrGpu } from './qr.js';
import { scaleToRangeGpu, ldexpBatchGpu } from './svd_scale.js';
import { svdSmallFits, svdSmallGpu } from './svd_small.js';
import { jacobiBlockedGpu, type JacobiParams } from './svd_jacobi.js';

type D = 'float32' | 'complex64';
type SvdOut = { U: Tensor | null; S: Tensor; Vh: Tensor | null; info: Tensor<'int32'> };

const WG = 64;
/** The completion kernel: one workgroup per matrix (WebGPU's default invocation limit). */
const COMPLETE_WG = 256;

const elem = (dtype: D) => (dtype === 'complex64' ? 'vec2f' as const : 'f32' as const);

const DECLS = {
  norms: (T: 'f32' | 'vec2f') => ({
    inputs: { Y: T }, outputs: { col: 'vec2u', sig: 'f32' },
    uniforms: { count: 'u32', n: 'u32', rows: 'u32', tiles: 'u32' },
  } as const),
  sort: () => ({
    inputs: { sig: 'f32', col: 'vec2u', exps: 'i32', sinfo: 'i32', jinfo: 'i32' },
    outputs: { perm: 'i32', S: 'f32', info: 'i32' },
    uniforms: { count: 'u32', n: 'u32', tiles: 'u32', has_jinfo: 'u32' },
  } as const),
  vh: (T: 'f32' | 'vec2f') => ({
    inputs: { Y: T, W: T, col: 'vec2u', perm: 'i32', info: 'i32', cinv: 'i32' },
    outputs: { Vh: T, Wp: T },
    uniforms: { count: 'u32', n: 'u32', tiles: 'u32', has_w: 'u32', mstride: 'u32', coff: 'u32' },
  } as const),
  complete: (T: 'f32' | 'vec2f') => ({
    inputs: { sig: 'f32', info: 'i32' }, outputs: { Vh: T, rn: 'f32', h: T },
    uniforms: { count: 'u32', n: 'u32' },
  } as const),
  keys: () => ({
    inputs: { t: 'u32' }, outputs: { key: 'u32' },
    uniforms: { count: 'u32', m: 'u32', n: 'u32', fp: 'u32', tiles: 'u32' },
  } as const),
  ranks: () => ({
    inputs: { key: 'u32' }, outputs: { inv: 'i32', rnk: 'i32' },
    uniforms: { count: 'u32', m: 'u32', n: 'u32', tiles: 'u32' },
  } as const),
  gather: (T: 'f32' | 'vec2f') => ({
    inputs: { src: T, src2: T, rmap: 'i32', cmap: 'i32', info: 'i32' }, outputs: { out: T },
    uniforms: {
      count: 'u32', rows: 'u32', cols: 'u32', ld: 'u32', sstride: 'u32', ld2: 'u32', s2stride: 'u32', c0: 'u32',
      mstride: 'u32', rmap_off: 'u32', cmap_off: 'u32', has_rmap: 'u32', has_cmap: 'u32', trans: 'u32', conj: 'u32', use_info: 'u32',
    },
  } as const),
  merge: () => ({
    inputs: { sinfo: 'i32', jinfo: 'i32' }, outputs: { info: 'i32' }, uniforms: { count: 'u32' },
  } as const),
};

function finalizeProgram<K extends 'norms' | 'vh' | 'complete' | 'gather'>(kind: K, dtype: D) {
  const defs = { ...dtypeDefines(dtype), [kind.toUpperCase()]: true, WG: kind === 'complete' ? COMPLETE_WG : WG };
  const file = kind === 'gather' ? 'svd/permute.wgsl' : 'svd/finalize.wgsl';
  const wg = kind === 'vh' ? 256 : (defs.WG as number);
  const decl = DECLS[kind](elem(dtype)) as ReturnType<(typeof DECLS)[K]>;
  return cachedProgram(`svd.${kind}|${dtype}|wg${wg}`, () => ({
    name: `svd.${kind}`, key: `${dtype}|wg${wg}`, entryPoint: `svd_${kind}_${defs.DTYPE}`,
    workgroupSize: [wg, 1, 1] as [number, number, number], decl,
    workgroupBytes: kind === 'vh' ? 256 * 4 * floatsPer(dtype) : kind === 'complete' ? COMPLETE_WG * 8 + 8 : undefined,
    body: () => loadShader(file, defs),
  }));
}

function plainProgram<K extends 'sort' | 'keys' | 'ranks' | 'merge'>(kind: K) {
  const entry = { sort: 'svd_sort_f32', keys: 'svd_keys_u32', ranks: 'svd_ranks_u32', merge: 'svd_merge_i32' }[kind];
  const file = kind === 'keys' || kind === 'ranks' ? 'svd/permute.wgsl' : 'svd/finalize.wgsl';
  const decl = DECLS[kind]() as ReturnType<(typeof DECLS)[K]>;
  return cachedProgram(`svd.${kind}|wg${WG}`, () => ({
    name: `svd.${kind}`, key: `wg${WG}`, entryPoint: entry, workgroupSize: [WG, 1, 1] as [number, number, number], decl,
    body: () => loadShader(file, { ...dtypeDefines('float32'), [kind.toUpperCase()]: true, WG }),
  }));
}

/** Every program of the finalize kernels (for the preamble snapshot test). */
export function svdFinalizePrograms() {
  const out = [];
  for (const dt of ['float32', 'complex64'] as const) {
    out.push(finalizeProgram('norms', dt), finalizeProgram('vh', dt), finalizeProgram('complete', dt), finalizeProgram('gather', dt));
  }
  out.push(plainProgram('sort'), plainProgram('keys'), plainProgram('ranks'), plainProgram('merge'));
  return out;
}

/** Internal knobs for tests: force the path X = Rᴴ takes, or the blocked Jacobi's parameters. */
export interface SvdGpuParams {
  /** 'auto' (default): the one-workgroup kernel for A itself or X when they fit, else the blocked Jacobi. */
  path?: 'auto' | 'qr-small' | 'qr-blocked';
  jacobi?: JacobiParams;
}

/** Row-major strides of a contiguous shape. */
function stridesOf(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length);
  for (let d = shape.length - 1, acc = 1; d >= 0; d--) { s[d] = acc; acc *= shape[d]; }
  return s;
}

/** Adjoint of the last two dims (stridedCopy over the swapped view, conjugating). */
function adjoint(A: Tensor, who: string): Tensor {
  return lookup('transpose', A.dtype, 'gpu', who)(A, true);
}

interface GatherArgs {
  src: Tensor; ld: number; sstride: number;
  /** columns ≥ c0 come from src2 (row-mapped, same column) */
  src2?: { t: Tensor; ld: number; stride: number; c0: number };
  maps?: Tensor<'int32'>; mstride?: number;
  rmapOff?: number; cmapOff?: number;
  trans?: boolean; conj?: boolean; info?: Tensor<'int32'>;
}

/** out (…, rows, cols) = src gathered through the sort maps (shaders/svd/permute.wgsl GATHER). */
function gather(dtype: D, batch: readonly number[], rows: number, cols: number, g: GatherArgs, who: string): Tensor {
  const out = emptyGpu(dtype, [...batch, rows, cols], who);
  const count = batch.reduce((a, b) => a * b, 1);
  const total = count * rows * cols;
  if (total === 0) return out;
  const dummy = dummyIndex(who);
  try {
    runProgram(finalizeProgram('gather', dtype), {
      inputs: {
        src: g.src.gpuStorage(), src2: (g.src2?.t ?? g.src).gpuStorage(), rmap: (g.maps ?? dummy).gpuStorage(),
        cmap: (g.maps ?? dummy).gpuStorage(), info: (g.info ?? dummy).gpuStorage(),
      },
      outputs: { out: out.gpuStorage() },
      uniforms: {
        count, rows, cols, ld: g.ld, sstride: g.sstride, ld2: g.src2?.ld ?? 0, s2stride: g.src2?.stride ?? 0,
        c0: g.src2?.c0 ?? cols, mstride: g.mstride ?? 0, rmap_off: g.rmapOff ?? 0, cmap_off: g.cmapOff ?? 0,
        has_rmap: g.rmapOff !== undefined ? 1 : 0, has_cmap: g.cmapOff !== undefined ? 1 : 0,
        trans: g.trans ? 1 : 0, conj: g.conj && dtype === 'complex64' ? 1 : 0, use_info: g.info ? 1 : 0,
      },
      workgroups: Math.ceil(total / WG),
    });
  } finally {
    dummy.dispose();
  }
  return out;
}

/** info = sinfo = −1 ? −1 : jinfo. */
function mergeInfo(sinfo: Tensor<'int32'>, jinfo: Tensor<'int32'>, who: string): Tensor<'int32'> {
  const info = infoTensor(sinfo.shape, who);
  runProgram(plainProgram('merge'), {
    inputs: { sinfo: sinfo.gpuStorage(), jinfo: jinfo.gpuStorage() }, outputs: { info: info.gpuStorage() },
    uniforms: { count: sinfo.size }, workgroups: Math.ceil(sinfo.size / WG),
  });
  return info;
}

/** Outputs of k = 0 (m or n zero) as the CPU gives them: S empty, U and Vh identities, info 0. */
function emptyK(dtype: D, batch: readonly number[], m: number, n: number, uv: boolean, full: boolean): SvdOut {
  const count = batch.reduce((a, b) => a * b, 1);
  const eye = (r: number, c: number) => {
    const t = Tensor.empty(dtype, [...batch, r, c]);
    const d = t.dataSync() as Float32Array;
    const fp = floatsPer(dtype);
    for (let b = 0; b < count; b++) for (let i = 0; i < Math.min(r, c); i++) d[(b * r * c + i * c + i) * fp] = 1;
    return t.to('gpu');
  };
  return {
    S: Tensor.empty('float32', [...batch, 0]).to('gpu'),
    U: uv ? eye(m, full ? m : 0) : null,
    Vh: uv ? eye(full ? n : 0, n) : null,
    info: Tensor.empty('int32', batch).to('gpu') as Tensor<'int32'>,
  };
}

/**
 * SVD of (…, m, n) float32/complex64 on the GPU, the contract of ops.ts `svd`: S (…, k)
 * descending ≥ 0, U (…, m, full ? m : k), Vh (…, full ? n : k, n), info 0 / −1 (NaN/Inf
 * in A: NaN outputs) / > 0 (Jacobi's sweep cap).
 */
export function svdGpu(A: Tensor, opts: { computeUV: boolean; fullMatrices: boolean }, params: SvdGpuParams = {}): SvdOut {
  const who = 'svd';
  const dtype = gpuFloatDType(A, who, 'A');
  if (A.ndim < 2) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected (…, m, n)`);
  const uv = opts.computeUV, full = uv && opts.fullMatrices;
  const batch = A.shape.slice(0, -2);
  const m = A.rows, n = A.cols, k = Math.min(m, n);
  const count = batchCount(A);
  if (k === 0 || count === 0) {
    if (k === 0) return emptyK(dtype, batch, m, n, uv, full);
    return {
      S: emptyGpu('float32', [...batch, k], who), info: infoTensor(batch, who),
      U: uv ? emptyGpu(dtype, [...batch, m, full ? m : k], who) : null,
      Vh: uv ? emptyGpu(dtype, [...batch, full ? n : k, n], who) : null,
    };
  }
  checkIndexRange(count * Math.max(m, n) * Math.max(m, n) * floatsPer(dtype), who);
  if (m >= n) return svdTall(A, dtype, uv, full, params, who);
  // Wide: Aᴴ = U₁·Σ·V₁ᴴ is tall, so A = V₁·Σ·U₁ᴴ: U = V₁ = (Vh₁)ᴴ, Vh = U₁ᴴ.
  const Ah = adjoint(A, who);
  try {
    const r = svdTall(Ah, dtype, uv, full, params, who);
    if (!uv) return r;
    const U = adjoint(r.Vh!, who), Vh = adjoint(r.U!, who);
    r.U!.dispose(); r.Vh!.dispose();
    return { U, S: r.S, Vh, info: r.info };
  } finally {
    Ah.dispose();
  }
}

/** m ≥ n ≥ 1, count ≥ 1. */
function svdTall(A: Tensor, dtype: D, uv: boolean, full: boolean, params: SvdGpuParams, who: string): SvdOut {
  const path = params.path ?? 'auto';
  const m = A.rows, n = A.cols;
  const batch = A.shape.slice(0, -2);
  const count = batchCount(A);
  if (path === 'auto' && svdSmallFits(m, n, dtype)) return svdSmallGpu(A, { computeUV: uv, fullMatrices: full }, who);

  const live: Tensor[] = [];
  const keep = <T extends Tensor | null>(t: T): T => { if (t) live.push(t); return t; };
  try {
    const { t, exps, info: sinfo } = scaleToRangeGpu(A, who);
    keep(t); keep(exps); keep(sinfo);
    // rows and columns sorted by decreasing max |a| (permute.wgsl says why)
    const mn = m + n, ktiles = Math.ceil(mn / WG);
    const key = keep(emptyGpu('uint32', [count * mn], who));
    runProgram(plainProgram('keys'), {
      inputs: { t: t.gpuStorage() }, outputs: { key: key.gpuStorage() },
      uniforms: { count, m, n, fp: floatsPer(dtype), tiles: ktiles }, workgroups: count * ktiles,
    });
    const inv = keep(emptyGpu('int32', [count * mn], who)) as Tensor<'int32'>;
    const rnk = keep(emptyGpu('int32', [count * mn], who)) as Tensor<'int32'>;
    runProgram(plainProgram('ranks'), {
      inputs: { key: key.gpuStorage() }, outputs: { inv: inv.gpuStorage(), rnk: rnk.gpuStorage() },
      uniforms: { count, m, n, tiles: ktiles }, workgroups: count * ktiles,
    });
    const ts = keep(gather(dtype, batch, m, n, { src: t, ld: n, sstride: m * n, maps: inv, mstride: mn, rmapOff: 0, cmapOff: m }, who));

    const mode = !uv ? 'r' : full && m > n ? 'complete' : 'reduced';
    const { Q, R } = qrGpu(ts, mode);
    keep(Q); keep(R);
    // X = Rᴴ from R's first n rows
    const rs = stridesOf(R.shape);
    const X = keep(lookup('stridedCopy', dtype, 'gpu', who)(R, {
      shape: [...batch, n, n], strides: [...rs.slice(0, -2), 1, n], offset: 0,
    }, true));
    const small = path === 'qr-small' || (path === 'auto' && svdSmallFits(n, n, dtype));

    let S: Tensor, info: Tensor<'int32'>, Vh: Tensor | null = null;
    // U = Q₁·op(B) with B = W (permuted) or Vh_s (op C)
    let B: Tensor | null = null, opB: 'N' | 'C' = 'N';
    if (small) {
      const s = svdSmallGpu(X, { computeUV: uv, fullMatrices: false }, who);
      keep(s.S); keep(s.info); keep(s.U); keep(s.Vh);
      info = mergeInfo(sinfo, s.info, who);
      S = ldexpBatchGpu(s.S, exps, 1, who, info);
      if (uv) {
        // X = U_s·Σ·Vh_s and X = Rᴴ ⇒ A_sorted = (Q·Vh_sᴴ)·Σ·U_sᴴ; Vh's columns back to A's order
        Vh = gather(dtype, batch, n, n, {
          src: s.U!, ld: n, sstride: n * n, trans: true, conj: true, maps: rnk, mstride: mn, cmapOff: m, info,
        }, who);
        B = s.Vh; opB = 'C';
      }
    } else {
      const j = jacobiBlockedGpu(X, uv, who, params.jacobi);
      keep(j.Y); keep(j.W); keep(j.info);
      const col = keep(emptyGpu('int32', [count * n, 2], who));
      const sig = keep(emptyGpu('float32', [count * n], who));
      const tiles = Math.ceil(n / WG);
      runProgram(finalizeProgram('norms', dtype), {
        inputs: { Y: j.Y.gpuStorage() }, outputs: { col: col.gpuStorage(), sig: sig.gpuStorage() },
        uniforms: { count, n, rows: n, tiles }, workgroups: count * tiles,
      });
      const perm = keep(emptyGpu('int32', [count * n], who));
      S = emptyGpu('float32', [...batch, n], who);
      info = infoTensor(batch, who);
      runProgram(plainProgram('sort'), {
        inputs: {
          sig: sig.gpuStorage(), col: col.gpuStorage(), exps: exps.gpuStorage(),
          sinfo: sinfo.gpuStorage(), jinfo: j.info.gpuStorage(),
        },
        outputs: { perm: perm.gpuStorage(), S: S.gpuStorage(), info: info.gpuStorage() },
        uniforms: { count, n, tiles, has_jinfo: 1 }, workgroups: count * tiles,
      });
      if (uv) {
        Vh = emptyGpu(dtype, [...batch, n, n], who);
        B = keep(emptyGpu(dtype, [...batch, n, n], who));
        const t16 = Math.ceil(n / 16);
        runProgram(finalizeProgram('vh', dtype), {
          inputs: {
            Y: j.Y.gpuStorage(), W: j.W!.gpuStorage(), col: col.gpuStorage(),
            perm: perm.gpuStorage(), info: info.gpuStorage(), cinv: inv.gpuStorage(),
          },
          outputs: { Vh: Vh.gpuStorage(), Wp: B.gpuStorage() },
          uniforms: { count, n, tiles: t16, has_w: 1, mstride: mn, coff: m }, workgroups: count * t16 * t16,
        });
        const rn = keep(emptyGpu('float32', [count * n], who));
        const h = keep(emptyGpu(dtype, [count * n], who));
        runProgram(finalizeProgram('complete', dtype), {
          inputs: { sig: sig.gpuStorage(), info: info.gpuStorage() },
          outputs: { Vh: Vh.gpuStorage(), rn: rn.gpuStorage(), h: h.gpuStorage() },
          uniforms: { count, n }, workgroups: count,
        });
      }
    }
    if (!uv) return { U: null, S, Vh: null, info };
    const uc = full ? m : n;
    const QW = keep(emptyGpu(dtype, [...batch, m, n], who));
    const qc = Q!.cols;
    gemmGpu(who, {
      dtype, m, n, k: n, batch: count,
      A: { s: Q!.gpuStorage(), offset: 0, ld: qc, stride: m * qc },
      B: { s: B!.gpuStorage(), offset: 0, ld: n, stride: n * n }, opB,
      C: { s: QW.gpuStorage(), offset: 0, ld: n, stride: m * n },
    });
    // U = [Q₁·W, Q₂] (Q₂ for fullMatrices, m > n), rows back to A's order, NaN where A was not finite
    const U = gather(dtype, batch, m, uc, {
      src: QW, ld: n, sstride: m * n, src2: { t: Q!, ld: qc, stride: m * qc, c0: n },
      maps: rnk, mstride: mn, rmapOff: 0, info,
    }, who);
    return { U, S, Vh, info };
  } finally {
    for (const t of live) t.dispose();
  }
}

export function registerSvdGpu(): void {
  register('svd', ['float32', 'complex64'], 'gpu', (A, opts) => svdGpu(A, opts));
}

