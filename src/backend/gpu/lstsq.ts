/// <reference types="@webgpu/types" />
// GPU entry of lstsq (float32, complex64) over a broadcast batch, both drivers, with gelsd's
// power-of-two scaling of A and B (svd_scale.ts) and no host reads:
// - 'gelsd': the registry's svd of 2^−eA·A; X = Vhᴴ·((U·diag(w))ᴴ·B) as two GEMMs over
//   adjoint views (w = 1/σ above the rank threshold, NaN where the status is non-zero).
// - 'gels', tall: the QR (mode 'r') of the augmented [A | B] applies Qᴴ to B without forming
//   Q (LAPACK's gels applies the reflectors the same way): R = [R₁₁ R₁₂; 0 R₂₂],
//   X = R₁₁⁻¹·R₁₂, residuals = the column norms² of R₂₂. Wide: the QR of Aᴴ, X = Q·R⁻ᴴ·B.
// Residuals: (…, k) whenever m > n (the ranks are not known without a read), NaN where a
// matrix's rank < n; the CPU's gelsd returns [0] then (docs/svd.md).
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { lookup, register } from '../registry.js';
import type { LstsqDriver, LstsqOutput } from '../ops.js';
import { runProgram } from './program.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, floatsPer, checkIndexRange, uploadIndex, dummyIndex, infoTensor } from './small.js';
import { gemmGpu, type GemmMaps } from './gemm.js';
import { zeroInfo } from './lu.js';
import { scaleToRangeGpu, ldexpBatchGpu } from './svd_scale.js';
import { rankGpu, svdGpuOp, weightColumnsGpu } from './pinv.js';

const WG = 64;
const NAN_BITS = 0x7fc00000;

const DECLS = {
  augment: {
    inputs: { A: 'f32', B: 'f32', aIdx: 'i32', bIdx: 'i32' }, outputs: { F: 'f32' },
    uniforms: { total: 'u32', c2: 'u32', m: 'u32', n: 'u32', nrhs: 'u32', has_a: 'u32', has_b: 'u32' },
  },
  gels_check: {
    inputs: { R: 'f32', aIdx: 'i32', sinfo: 'i32' }, outputs: { info: 'i32' },
    uniforms: { count: 'u32', c2: 'u32', n: 'u32', rld: 'u32', rstride: 'u32', rtol: 'f32', has_a: 'u32' },
  },
  exps: {
    inputs: { ea: 'i32', eb: 'i32', info: 'i32', binfo: 'i32', aIdx: 'i32', bIdx: 'i32' }, outputs: { ef: 'i32', inff: 'i32' },
    uniforms: { count: 'u32', has_a: 'u32', has_b: 'u32' },
  },
  resid: {
    inputs: { X1: 'f32', X2: 'f32', eb: 'i32', aIdx: 'i32', bIdx: 'i32', inff: 'i32', rank: 'i32' }, outputs: { res: 'f32' },
    uniforms: {
      total: 'u32', c2: 'u32', nrhs: 'u32', rows: 'u32', n: 'u32', o1: 'u32', s1: 'u32', ld1: 'u32', x1_b: 'u32',
      has_x2: 'u32', o2: 'u32', s2: 'u32', ld2: 'u32', has_rank: 'u32', has_a: 'u32', has_b: 'u32', nan_bits: 'u32',
    },
  },
} as const;

/** The float-word kernels of shaders/lstsq/ (one variant each: float32 and complex64 alike). */
export function lstsqProgram<K extends keyof typeof DECLS>(kind: K) {
  return smallProgram(`lstsq.${kind}`, `lstsq/${kind}.wgsl`, kind, 'float32', WG, {}, DECLS[kind], kind === 'resid' ? WG * 4 : undefined);
}

/** The plan's maps on the GPU (a shared dummy for identity maps) and their disposal. */
function maps(plan: BatchPlan, who: string) {
  const a = uploadIndex(plan.aIdx, who), b = uploadIndex(plan.bIdx, who);
  const d = dummyIndex(who);
  return {
    a: a ?? d, b: b ?? d, hasA: a ? 1 : 0, hasB: b ? 1 : 0,
    gemm: { aIdx: a?.gpuStorage(), aCount: plan.aCount, bIdx: b?.gpuStorage(), bCount: plan.bCount } as GemmMaps,
    dispose: () => { a?.dispose(); b?.dispose(); d.dispose(); },
  };
}

type Maps = ReturnType<typeof maps>;

/** Per member f: eB[b] − eA[a] and the status of its NaN fill. */
function memberExps(ea: Tensor<'int32'>, eb: Tensor<'int32'>, info: Tensor<'int32'>, binfo: Tensor<'int32'>, mp: Maps, plan: BatchPlan, who: string) {
  const ef = infoTensor(plan.batchShape, who), inff = infoTensor(plan.batchShape, who);
  if (plan.count === 0) return { ef, inff };
  runProgram(lstsqProgram('exps'), {
    inputs: { ea: ea.gpuStorage(), eb: eb.gpuStorage(), info: info.gpuStorage(), binfo: binfo.gpuStorage(), aIdx: mp.a.gpuStorage(), bIdx: mp.b.gpuStorage() },
    outputs: { ef: ef.gpuStorage(), inff: inff.gpuStorage() },
    uniforms: { count: plan.count, has_a: mp.hasA, has_b: mp.hasB }, workgroups: Math.ceil(plan.count / WG),
  });
  return { ef, inff };
}

interface ResidArgs {
  X1: Tensor; o1: number; s1: number; ld1: number; x1B: boolean; rows: number;
  X2: Tensor | null; s2: number; ld2: number;
  rank: Tensor<'int32'> | null; n: number;
}

/** Residuals per member and column; inff: the members' statuses from memberExps (NaN where non-zero). */
function residuals(r: ResidArgs, eb: Tensor<'int32'>, inff: Tensor<'int32'>, mp: Maps, plan: BatchPlan, nrhs: number, who: string): Tensor {
  const res = emptyGpu('float32', [...plan.batchShape, nrhs], who);
  const total = plan.count * nrhs;
  if (total === 0) return res;
  runProgram(lstsqProgram('resid'), {
    inputs: {
      X1: r.X1.gpuStorage(), X2: (r.X2 ?? r.X1).gpuStorage(), eb: eb.gpuStorage(), aIdx: mp.a.gpuStorage(), bIdx: mp.b.gpuStorage(),
      inff: inff.gpuStorage(), rank: (r.rank ?? inff).gpuStorage(),
    },
    outputs: { res: res.gpuStorage() },
    uniforms: {
      total, c2: floatsPer(r.X1.dtype), nrhs, rows: r.rows, n: r.n, o1: r.o1, s1: r.s1, ld1: r.ld1, x1_b: r.x1B ? 1 : 0,
      has_x2: r.X2 ? 1 : 0, o2: 0, s2: r.s2, ld2: r.ld2, has_rank: r.rank ? 1 : 0, has_a: mp.hasA, has_b: mp.hasB, nan_bits: NAN_BITS,
    },
    workgroups: total,
  });
  return res;
}

/** A contiguous copy of the (count, rows, cols) window at (r0, c0) of the (count, R, C) tensor T (conj: its adjoint). */
function window(T: Tensor, rows: number, cols: number, r0: number, c0: number, adjoint: boolean, who: string): Tensor {
  const count = T.size / Math.max(1, T.rows * T.cols), C = T.cols, st = T.rows * T.cols;
  const view = adjoint
    ? { shape: [count, cols, rows], strides: [st, 1, C], offset: r0 * C + c0 }
    : { shape: [count, rows, cols], strides: [st, C, 1], offset: r0 * C + c0 };
  return lookup('stridedCopy', T.dtype, 'gpu', who)(T, view, adjoint);
}

function gelsd(tA: Tensor, tB: Tensor, sa: Scaled, sb: Scaled, plan: BatchPlan, rtol: number, mp: Maps, who: string): LstsqOutput {
  const dtype = tA.dtype as 'float32' | 'complex64';
  const m = tA.rows, n = tA.cols, k = Math.min(m, n), nrhs = tB.cols;
  const { U, S, Vh, info: vinfo } = svdGpuOp(tA, true, who);
  const thr = { atol_m: 0, atol_e: 0, rtol };
  const { rank, info } = rankGpu(S, sa.exps, sa.info, vinfo, thr, k, true, who);
  weightColumnsGpu(U!, S, sa.exps, sa.info, vinfo, thr, who);
  // C = (U·diag(w))ᴴ·B (k × nrhs), X = Vhᴴ·C (n × nrhs): adjoint operand modes, A's members through the map.
  const C = emptyGpu(dtype, [plan.count, k, nrhs], who);
  gemmGpu(who, {
    dtype, m: k, n: nrhs, k: m, batch: plan.count,
    A: { s: U!.gpuStorage(), offset: 0, ld: k, stride: m * k }, opA: 'C',
    B: { s: tB.gpuStorage(), offset: 0, ld: nrhs, stride: m * nrhs },
    C: { s: C.gpuStorage(), offset: 0, ld: nrhs, stride: k * nrhs },
  }, undefined, mp.gemm);
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  gemmGpu(who, {
    dtype, m: n, n: nrhs, k, batch: plan.count,
    A: { s: Vh!.gpuStorage(), offset: 0, ld: n, stride: k * n }, opA: 'C',
    B: { s: C.gpuStorage(), offset: 0, ld: nrhs, stride: k * nrhs },
    C: { s: X.gpuStorage(), offset: 0, ld: nrhs, stride: n * nrhs },
  }, undefined, { aIdx: mp.gemm.aIdx, aCount: plan.aCount, bCount: plan.count });
  const { ef, inff } = memberExps(sa.exps, sb.exps, info, sb.info, mp, plan, who);
  let res: Tensor;
  if (m > n) {
    // ‖B − A·X‖² in the scaled units, from A·X (one GEMM) and B in one kernel.
    const AX = emptyGpu(dtype, [plan.count, m, nrhs], who);
    gemmGpu(who, {
      dtype, m, n: nrhs, k: n, batch: plan.count,
      A: { s: tA.gpuStorage(), offset: 0, ld: n, stride: m * n },
      B: { s: X.gpuStorage(), offset: 0, ld: nrhs, stride: n * nrhs },
      C: { s: AX.gpuStorage(), offset: 0, ld: nrhs, stride: m * nrhs },
    }, undefined, { aIdx: mp.gemm.aIdx, aCount: plan.aCount, bCount: plan.count });
    res = residuals({ X1: tB, o1: 0, s1: m * nrhs, ld1: nrhs, x1B: true, rows: m, X2: AX, s2: m * nrhs, ld2: nrhs, rank, n },
      sb.exps, inff, mp, plan, nrhs, who);
    AX.dispose();
  } else {
    res = emptyGpu('float32', [0], who);
  }
  const solution = ldexpBatchGpu(X, ef, 1, who, inff);
  const singularValues = ldexpBatchGpu(S, sa.exps, 1, who, info);
  for (const t of [U!, S, Vh!, vinfo, C, X, ef, inff]) t.dispose();
  return { solution, residuals: res, rank, singularValues, info };
}

type Scaled = ReturnType<typeof scaleToRangeGpu>;

function gels(tA: Tensor, tB: Tensor, sa: Scaled, sb: Scaled, plan: BatchPlan, rtol: number, mp: Maps, who: string): LstsqOutput {
  const dtype = tA.dtype as 'float32' | 'complex64';
  const m = tA.rows, n = tA.cols, k = Math.min(m, n), nrhs = tB.cols, c2 = floatsPer(dtype);
  const aBatch = tA.batchShape;
  const info = infoTensor(aBatch, who);
  const qr = lookup('qr', dtype, 'gpu', who);
  const check = (R: Tensor, count: number, withMap: boolean) => runProgram(lstsqProgram('gels_check'), {
    inputs: { R: R.gpuStorage(), aIdx: mp.a.gpuStorage(), sinfo: sa.info.gpuStorage() }, outputs: { info: info.gpuStorage() },
    uniforms: { count, c2, n: k, rld: R.cols, rstride: R.rows * R.cols, rtol, has_a: withMap ? mp.hasA : 0 },
    workgroups: Math.ceil(count / WG),
  });
  let X: Tensor, res: Tensor, ef: Tensor<'int32'>, inff: Tensor<'int32'>;
  if (m >= n) {
    // QR of [A | B]: R₁₂ = (Qᴴ·B)'s first n rows, R₂₂'s column norms the residuals.
    const w = n + nrhs, total = plan.count * m * w * c2;
    checkIndexRange(total, who);
    const F = emptyGpu(dtype, [plan.count, m, w], who);
    runProgram(lstsqProgram('augment'), {
      inputs: { A: tA.gpuStorage(), B: tB.gpuStorage(), aIdx: mp.a.gpuStorage(), bIdx: mp.b.gpuStorage() }, outputs: { F: F.gpuStorage() },
      uniforms: { total, c2, m, n, nrhs, has_a: mp.hasA, has_b: mp.hasB }, workgroups: Math.ceil(total / WG),
    });
    const { R } = qr(F, 'r');
    F.dispose();
    check(R, plan.count, true);
    ({ ef, inff } = memberExps(sa.exps, sb.exps, info, sb.info, mp, plan, who));
    const R11 = window(R, n, n, 0, 0, false, who), R12 = window(R, n, nrhs, 0, n, false, who);
    const tri = lookup('solveTriangular', dtype, 'gpu', who)(R11, R12,
      { batchShape: [plan.count], count: plan.count, aIdx: null, bIdx: null, aCount: plan.count, bCount: plan.count },
      { upper: true, unitriangular: false });
    X = tri.X.reshape([...plan.batchShape, n, nrhs]);
    tri.X.dispose();
    R11.dispose();
    R12.dispose();
    const kr = R.rows; // min(m, n + nrhs): rows n..kr−1 of R₂₂ hold Qᴴ·B's part orthogonal to range(A)
    res = m > n
      ? residuals({ X1: R, o1: n * w + n, s1: kr * w, ld1: w, x1B: false, rows: kr - n, X2: null, s2: 0, ld2: 0, rank: null, n },
        sb.exps, inff, mp, plan, nrhs, who)
      : emptyGpu('float32', [0], who);
    R.dispose();
  } else {
    // Minimum norm: Aᴴ = Q·R, X = Q·(R⁻ᴴ·B).
    const Ah = window(tA, m, n, 0, 0, true, who).reshape([...aBatch, n, m]);
    const { Q, R } = qr(Ah, 'reduced');
    Ah.dispose();
    check(R, R.size / Math.max(1, m * m), false);
    ({ ef, inff } = memberExps(sa.exps, sb.exps, info, sb.info, mp, plan, who));
    const Rh = window(R, m, m, 0, 0, true, who).reshape([...aBatch, m, m]);
    const Y = lookup('solveTriangular', dtype, 'gpu', who)(Rh, tB, plan, { upper: false, unitriangular: false }).X;
    X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
    gemmGpu(who, {
      dtype, m: n, n: nrhs, k: m, batch: plan.count,
      A: { s: Q!.gpuStorage(), offset: 0, ld: m, stride: n * m },
      B: { s: Y.gpuStorage(), offset: 0, ld: nrhs, stride: m * nrhs },
      C: { s: X.gpuStorage(), offset: 0, ld: nrhs, stride: n * nrhs },
    }, undefined, { aIdx: mp.gemm.aIdx, aCount: plan.aCount, bCount: plan.count });
    for (const t of [Q!, R, Rh, Y]) t.dispose();
    res = emptyGpu('float32', [0], who);
  }
  const solution = ldexpBatchGpu(X, ef, 1, who, inff);
  for (const t of [X, ef, inff]) t.dispose();
  const rank = Tensor.fromStorage('int32', aBatch, new Int32Array(aBatch.reduce((a, b) => a * b, 1)).fill(k)).to('gpu') as Tensor<'int32'>;
  return { solution, residuals: res, rank, singularValues: emptyGpu('float32', [0], who), info };
}

function lstsqGpu(A: Tensor, B: Tensor, plan: BatchPlan, rtol: number, driver: LstsqDriver): LstsqOutput {
  const who = 'lstsq';
  const dtype = gpuFloatDType(A, who, 'A');
  gpuFloatDType(B, who, 'B');
  const m = A.rows, n = A.cols, k = Math.min(m, n), nrhs = B.cols;
  const aBatch = A.batchShape;
  if (k === 0 || plan.count === 0) return emptyCase(A, B, plan, driver, who);
  // gelsd's scaling: solve 2^−eA·A·X' = 2^−eB·B, X = 2^(eB−eA)·X' (1/σ and R⁻¹ stay finite).
  const sa = scaleToRangeGpu(A, who), sb = scaleToRangeGpu(B, who);
  const mp = maps(plan, who);
  try {
    return driver === 'gels' ? gels(sa.t, sb.t, sa, sb, plan, rtol, mp, who) : gelsd(sa.t, sb.t, sa, sb, plan, rtol, mp, who);
  } finally {
    mp.dispose();
    for (const t of [sa.t, sa.exps, sa.info, sb.t, sb.exps, sb.info]) t.dispose();
  }
}

/**
 * k = 0 or an empty broadcast batch: X = 0 (n × nrhs), rank 0, and for m > n (n = 0) the
 * residuals ‖B‖² per column (the resid kernel on B alone, unscaled).
 */
function emptyCase(A: Tensor, B: Tensor, plan: BatchPlan, driver: LstsqDriver, who: string): LstsqOutput {
  const dtype = A.dtype as 'float32' | 'complex64';
  const m = A.rows, n = A.cols, k = Math.min(m, n), nrhs = B.cols, aBatch = A.batchShape;
  const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);
  const xShape = [...plan.batchShape, n, nrhs];
  const solution = Tensor.fromStorage(dtype, xShape, new Float32Array(size(xShape) * floatsPer(dtype))).to('gpu');
  let res: Tensor = emptyGpu('float32', [0], who);
  if (m > n) {
    const zb = zeroInfo(B.batchShape), zf = zeroInfo(plan.batchShape), mp = maps(plan, who);
    res = residuals({ X1: B, o1: 0, s1: m * nrhs, ld1: nrhs, x1B: true, rows: m, X2: null, s2: 0, ld2: 0, rank: null, n },
      zb, zf, mp, plan, nrhs, who);
    mp.dispose();
    zb.dispose();
    zf.dispose();
  }
  const sv = driver === 'gels' ? [0] : [...aBatch, k];
  const singularValues = Tensor.fromStorage('float32', sv, new Float32Array(size(sv))).to('gpu');
  return { solution, residuals: res, rank: zeroInfo(aBatch), singularValues, info: zeroInfo(aBatch) };
}

export function registerLstsqGpu(): void {
  register('lstsq', ['float32', 'complex64'], 'gpu', lstsqGpu);
}

