// Whole SVDs of batches of small matrices (m ≥ n ≤ 32), one workgroup per matrix (several
// per workgroup for tiny sizes), one dispatch: one-sided Jacobi in workgroup memory
// (shaders/svd/svd_small.wgsl). The lead's design: docs/svd.md (GPU section). No QR
// preconditioning: relative accuracy for column- and row-graded inputs, not for two-sided
// grading D₁·Q·D₂ (docs/svd.md gives the measured errors; QR first fixes it).
import type { Tensor } from '../../core/tensor.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import { runProgram } from './program.js';
import { gpuLimits, type GpuLimits } from './device.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, floatsPer, batchCount, infoTensor, checkIndexRange } from './small.js';

type D = 'float32' | 'complex64';

/** Sweeps before giving up (info = this count): float32 Jacobi converges in ≤ ~10. */
export const SVD_SMALL_SWEEP_CAP = 30;
/** Threads a workgroup aims at when one matrix needs fewer (tiny n: several matrices per group). */
const TARGET_THREADS = 64;
/**
 * Rows of a column pair per lane for m > 16 (the lanes per pair L ≈ m / this). The lanes of
 * a pair run the rotation's scalar work in lockstep (one warp), so more lanes mean more
 * warps per matrix: shorter steps, more instructions. 4 with the rotation computed once per
 * pair was the fastest for 32×32 on the H200 (bench/results/svd-gpu-h200-profile-3.txt).
 */
export const ROWS_PER_LANE = 4;
/** Rows per lane for m ≤ 16 (8×8: two lanes per pair; faster than one on the H200, profile-3). */
export const ROWS_PER_LANE_SMALL = 4;

/**
 * Benchmark knobs: rows per lane (a number alone means this), and `once`: the rotation of
 * each pair computed by one thread and broadcast through workgroup memory (a third barrier
 * per step, the scalar work in one warp instead of every warp of the matrix).
 */
export interface SvdSmallTune { rowsPerLane?: number; once?: boolean }
/** Whether the rotation is computed once per pair (SvdSmallTune.once) by default: faster on the H200 at 4 rows per lane. */
export const ROTATION_ONCE = true;

export interface SvdSmallPlan {
  /** Matrices per workgroup, threads per matrix, lanes per column pair. */
  G: number; NT: number; L: number;
  /** Rotations computed once per pair and broadcast (SvdSmallTune.once). */
  once: boolean;
  /** Column capacity (even power of two), X's rows (⌈m/8⌉·8), its column stride in vec4s (odd), X's vec4s per matrix. */
  NC: number; RX: number; LDX4: number; XCAP: number;
  /** Workgroup memory in bytes. */
  bytes: number;
}

const pow2ceil = (x: number) => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

function bytesFor(G: number, NT: number, NC: number, XCAP: number, RX: number, fp: number, once: boolean): number {
  return G * (XCAP * 16 + 2 * RX * fp * 4 + NC * (NC * fp + 4) * 4 + NT * 16 + NC * 16 + (once ? NC * 8 : 0) + 20) + 4;
}

/**
 * The kernel's layout for m×n `dtype` under `limits`, or null when it does not fit: the
 * matrix (⌈m/8⌉·8 rows) and V (NC rows and columns, NC = n rounded up to a power of two ≥ 8,
 * so n ≤ 8 share a variant) in vec4s with odd column strides, the completion's scratch, one
 * vec4 partial per thread and per-column words in workgroup memory, and NC/2 pairs × L
 * lanes within the invocation limits. Under WebGPU's defaults (16 KiB, 256 threads) this
 * takes every n ≤ 16 with m ≤ 64 (float32 and complex64) and float32 up to 40×32.
 */
export function svdSmallPlan(m: number, n: number, dtype: D, limits: Pick<GpuLimits,
  'maxComputeWorkgroupStorageSize' | 'maxComputeInvocationsPerWorkgroup' | 'maxComputeWorkgroupSizeX'>,
  tune: number | SvdSmallTune = {}): SvdSmallPlan | null {
  const t = typeof tune === 'number' ? { rowsPerLane: tune } : tune;
  const rowsPerLane = t.rowsPerLane ?? (m > 16 ? ROWS_PER_LANE : ROWS_PER_LANE_SMALL), once = t.once ?? ROTATION_ONCE;
  if (!(Number.isInteger(m) && Number.isInteger(n) && n >= 1 && n <= 32 && m >= n)) return null;
  const fp = floatsPer(dtype);
  const NC = Math.max(8, pow2ceil(n));
  const RX = Math.ceil(m / 8) * 8;
  const LDX4 = (RX * fp) / 4 + 1;
  const XCAP = LDX4 * NC;
  const P = NC / 2;
  const maxInv = Math.min(limits.maxComputeInvocationsPerWorkgroup, limits.maxComputeWorkgroupSizeX);
  let L = Math.min(32, pow2ceil(Math.ceil(RX / rowsPerLane)));
  while (P * L > maxInv && L > 1) L /= 2;
  const NT = P * L;
  if (NT > maxInv) return null;
  const limit = limits.maxComputeWorkgroupStorageSize;
  const NTP = NT + (once ? L : P); // partial sums (padded against bank conflicts)
  if (bytesFor(1, NTP, NC, XCAP, RX, fp, once) > limit) return null;
  let G = Math.max(1, Math.floor(TARGET_THREADS / NT));
  while (G > 1 && (bytesFor(G, NTP, NC, XCAP, RX, fp, once) > limit || G * NT > maxInv)) G--;
  return { G, NT, L, once, NC, RX, LDX4, XCAP, bytes: bytesFor(G, NTP, NC, XCAP, RX, fp, once) };
}

/** Whether m×n (m ≥ n) matrices of `dtype` take the one-workgroup kernel on this adapter's limits. */
export function svdSmallFits(m: number, n: number, dtype: D): boolean {
  return svdSmallPlan(m, n, dtype, gpuLimits('svd')) !== null;
}

const declOf = (e: 'f32' | 'vec2f') => ({
  inputs: { A: e },
  outputs: { S: 'f32' as const, U: e, Vh: e, info: 'i32' as const },
  uniforms: {
    count: 'u32' as const, m: 'u32' as const, n: 'u32' as const, ncols: 'u32' as const, np: 'u32' as const,
    tol: 'f32' as const, uv: 'u32' as const,
  },
});

/** The kernel variant of a plan (shaders/svd/svd_small.wgsl); vectors or not is a uniform. */
export function svdSmallProgram(dtype: D, plan: SvdSmallPlan) {
  const { G, NT, L, NC, RX, LDX4 } = plan;
  // V in vec4s (EPV entries each), whole vec4s per lane
  const EPV = dtype === 'complex64' ? 2 : 4;
  return smallProgram('svd_small', 'svd/svd_small.wgsl', 'svd_small', dtype, G * NT, {
    G, NT, L, NX4: LDX4 - 1, RL4: Math.ceil((LDX4 - 1) / L), RX, NC, CAP: SVD_SMALL_SWEEP_CAP,
    EPV, RV4: Math.max(1, NC / EPV / L),
    VALL4: G * NC * (NC / EPV + 1), GNC: G * NC, GNP: G * NC / 2, ONCE: plan.once ? 1 : 0,
  }, declOf(dtype === 'complex64' ? 'vec2f' : 'f32'), plan.bytes);
}

/**
 * Whole SVD of (…, m, n), m ≥ n, svdSmallFits: one dispatch; scaling, info −1 + NaN for
 * non-finite input, S descending, U (…, m, full ? m : n), Vh (…, n, n); computeUV false →
 * U, Vh null. `tune` (benchmarks only) picks another thread layout (SvdSmallTune).
 */
export function svdSmallGpu(A: Tensor, opts: { computeUV: boolean; fullMatrices: boolean }, who: string,
  tune: number | SvdSmallTune = {}): { U: Tensor | null; S: Tensor; Vh: Tensor | null; info: Tensor<'int32'> } {
  const dtype = gpuFloatDType(A, who, 'A');
  if (A.ndim < 2) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected (…, m, n)`);
  const m = A.rows, n = A.cols;
  const plan = svdSmallPlan(m, n, dtype, gpuLimits(who), tune);
  if (!plan) throw new ArgumentError(`${who}: A is ${fmtShape(A.shape)}: the one-workgroup SVD takes m ≥ n, 1 ≤ n ≤ 32 within the device's workgroup memory (svdSmallFits)`);
  const batch = A.shape.slice(0, -2);
  const count = batchCount(A);
  const uv = opts.computeUV;
  const ncols = opts.fullMatrices ? m : n;
  const S = emptyGpu('float32', [...batch, n], who);
  const info = infoTensor(batch, who);
  const U = uv ? emptyGpu(dtype, [...batch, m, ncols], who) : null;
  const Vh = uv ? emptyGpu(dtype, [...batch, n, n], who) : null;
  if (count === 0) return { U, S, Vh, info };
  checkIndexRange(count * m * Math.max(ncols, n) * floatsPer(dtype), who);
  // svdvals: U and Vh bind one-element placeholders the kernel never touches
  const Ub = U ?? emptyGpu(dtype, [1], who);
  const Vb = Vh ?? emptyGpu(dtype, [1], who);
  runProgram(svdSmallProgram(dtype, plan), {
    inputs: { A: A.gpuStorage() },
    outputs: { S: S.gpuStorage(), U: Ub.gpuStorage(), Vh: Vb.gpuStorage(), info: info.gpuStorage() },
    uniforms: { count, m, n, ncols, np: n + (n % 2), tol: Math.sqrt(m) * 2 ** -23, uv: uv ? 1 : 0 },
    workgroups: Math.ceil(count / plan.G),
  });
  if (!U) { Ub.dispose(); Vb.dispose(); }
  return { U, S, Vh, info };
}
