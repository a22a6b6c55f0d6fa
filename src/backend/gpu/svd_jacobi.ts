/// <reference types="@webgpu/types" />
// Blocked one-sided Jacobi on the GPU (docs/svd.md, "GPU: blocked one-sided Jacobi"):
// Y = X·W with mutually orthogonal columns, for the large path of the GPU SVD (X = Rᴴ of a
// QR). Columns in blocks of b; a sweep is a round-robin tournament of block pairs, one
// dispatch per round over all pairs of all matrices (shaders/svd/jacobi_pair.wgsl), then
// one tiny dispatch that flags converged matrices (shaders/svd/jacobi_sweep.wgsl), so no
// host read decides anything: later rounds of a converged matrix return at once, and a
// matrix still rotating after the sweep cap gets info = cap.
import type { Tensor } from '../../core/tensor.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import { lookup } from '../registry.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { gpuLimits } from './device.js';
import { emptyGpu } from './tensor-ops.js';
import { gpuFloatDType, batchCount, floatsPer, infoTensor, checkIndexRange, dummyOutput } from './small.js';

type FloatGpu = 'float32' | 'complex64';

/** Internal knobs (tests lower the caps; the lead's benchmarks try other blocks). */
export interface JacobiParams {
  /** Outer sweep cap; info = cap for matrices still rotating after it. Default JACOBI_MAX_SWEEPS. */
  maxSweeps?: number;
  /** Block width b (8 or 16); default jacobiBlock(c, dtype). */
  block?: number;
  /** Inner sweeps on a pair's 2b×2b Gram, at most (default JACOBI_INNER_SWEEPS). */
  innerSweeps?: number;
  /** Threads per pair workgroup: 256, 512 or 1024 where the adapter allows; default jacobiWorkgroup(r, c, b, dtype). */
  wg?: number;
}

/** Outer sweep cap: float32 Jacobi needs ~6–12 sweeps on random and graded matrices. */
export const JACOBI_MAX_SWEEPS = 20;
/** Inner sweeps per pair: enough to settle the 2b×2b problem in most rounds. */
export const JACOBI_INNER_SWEEPS = 1;
/** Threads of the round kernel (WebGPU's default limit; `JacobiParams.wg` tries 512 or 1024). */
const WG = 256;
const EPS = 2 ** -23;

/** Replicas of the pair kernel's column-max atomics (16: two lanes of a warp per address). */
const CMR = 16;

/** Workgroup bytes of the pair kernel with block b. */
function pairShape(b: number, dtype: FloatGpu, wg = WG, maxBytes = 16384): { TR: number; LD: number; SH: number; NT: number; NG: number; bytes: number } {
  const B2 = 2 * b, LD = B2 + 1, base = B2 >= 32 ? 32 : 64;
  // Gram: a thread per 4×4 block of H, WG/NT groups of threads over the rows of a tile
  const NT = (B2 / 4) ** 2, NG = wg / NT;
  const el = 4 * floatsPer(dtype);
  const shape = (TR: number) => {
    const SH = Math.max(TR * LD, B2 * B2);
    return { TR, LD, SH, NT, NG, bytes: (SH + B2 * B2 + 4 * b) * el + (3 * B2 + 10 * b + CMR * (B2 + 1) + 2) * 4 };
  };
  // Larger workgroups take tiles of about 8 loads per thread (fewer tile round trips, each a
  // global-memory latency), halved until they fit the workgroup memory.
  let TR = wg > WG ? (8 * wg) / B2 : base;
  while (TR > base && shape(TR).bytes > maxBytes) TR /= 2;
  return shape(TR);
}

/** Whether the pair kernel of block b with wg threads fits this adapter's limits. */
function pairFits(b: number, dtype: FloatGpu, wg: number): boolean {
  const lim = gpuLimits('jacobiBlockedGpu');
  if (lim.maxComputeInvocationsPerWorkgroup < wg || lim.maxComputeWorkgroupSizeX < wg) return false;
  return pairShape(b, dtype, wg, lim.maxComputeWorkgroupStorageSize).bytes <= lim.maxComputeWorkgroupStorageSize;
}

/**
 * Default block width: 16 for c ≥ 2048, else 8 (where b = 16 fits the workgroup memory).
 * H200 (bench at a3dfd3a, with W): c = 4096 b = 16 / 1024 threads 2.07 s vs b = 8 / 512
 * 3.51 s (a round streams Y and W from HBM: fewer, wider rounds move less); c = 1024
 * b = 8 / 512 99 ms vs b = 16 143 ms (Y and W sit in L2; b = 8 has twice the workgroups).
 */
export function jacobiBlock(c: number, dtype: FloatGpu): number {
  if (c < 2048) return 8;
  return pairFits(16, dtype, 256) ? 16 : 8;
}

/**
 * Default threads per pair: for long columns (r ≥ 512) 512, and 1024 for c ≥ 2048, where
 * the adapter allows them (the largest of 1024/512/256 that fits): with one or two
 * workgroups per SM, 256 threads left too few warps to hide the row streams' latency
 * (H200, c = 4096 b = 16: 1 sweep 215 ms at 512 threads, 143 ms at 1024; c = 1024 b = 8:
 * 11.0 ms at 256, 8.0 at 512, 9.0 at 1024).
 */
export function jacobiWorkgroup(r: number, c = r, b = 8, dtype: FloatGpu = 'float32'): number {
  const want = r < 512 ? WG : c >= 2048 ? 1024 : 512;
  for (let wg = want; wg > WG; wg /= 2) if (pairFits(b, dtype, wg)) return wg;
  return WG;
}

const PAIR_UNIFORMS = {
  r: 'u32', c: 'u32', nbe: 'u32', npairs: 'u32', count: 'u32', round: 'u32', wrows: 'u32', inner: 'u32', tol: 'f32',
} as const;

/** The round kernel (shaders/svd/jacobi_pair.wgsl) for block width b. */
export function jacobiPairProgram(dtype: FloatGpu, b: number, wg = WG, maxBytes = 16384) {
  if (b !== 8 && b !== 16) throw new ArgumentError(`jacobiBlockedGpu: block width ${b} must be 8 or 16`);
  if (wg !== 256 && wg !== 512 && wg !== 1024) throw new ArgumentError(`jacobiBlockedGpu: workgroup size ${wg} must be 256, 512 or 1024`);
  const { TR, LD, SH, NT, NG, bytes } = pairShape(b, dtype, wg, maxBytes);
  const key = `${dtype}|b${b}|wg${wg}|tr${TR}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return cachedProgram(`svd.jacobi_pair|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), B: b, B2: 2 * b, WG: wg, NT, NG, TR, LD, SH, LPT: (TR * 2 * b) / wg, QV: dtype === 'complex64' ? 2 : 4, CMR };
    return {
      name: 'svd.jacobi_pair', key, entryPoint: `jacobi_pair_${defs.DTYPE}`, workgroupSize: [wg, 1, 1] as [number, number, number],
      workgroupBytes: bytes,
      decl: { inputs: {}, outputs: { Yc: T, Wc: T, E: 'i32', ctrl: 'atomic<u32>' }, uniforms: PAIR_UNIFORMS } as const,
      body: () => loadShader('svd/jacobi_pair.wgsl', defs),
    };
  });
}

const INIT_WG = 64;

/** Column exponents, W = I and cleared counters (shaders/svd/jacobi_init.wgsl). */
export function jacobiInitProgram(dtype: FloatGpu) {
  const key = `${dtype}|wg${INIT_WG}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return cachedProgram(`svd.jacobi_init|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG: INIT_WG };
    return {
      name: 'svd.jacobi_init', key, entryPoint: `jacobi_init_${defs.DTYPE}`, workgroupSize: [INIT_WG, 1, 1] as [number, number, number],
      workgroupBytes: INIT_WG * 4,
      decl: { inputs: { Yc: T }, outputs: { Wc: T, E: 'i32', ctrl: 'u32' }, uniforms: { r: 'u32', c: 'u32', count: 'u32', wrows: 'u32' } } as const,
      body: () => loadShader('svd/jacobi_init.wgsl', defs),
    };
  });
}

/** The end-of-sweep flag kernel (shaders/svd/jacobi_sweep.wgsl). */
export function jacobiSweepProgram() {
  return cachedProgram('svd.jacobi_sweep', () => ({
    name: 'svd.jacobi_sweep', key: 'wg64', entryPoint: 'jacobi_sweep', workgroupSize: [64, 1, 1] as [number, number, number],
    decl: { inputs: {}, outputs: { ctrl: 'u32', info: 'i32' }, uniforms: { count: 'u32', last: 'u32', cap: 'i32' } } as const,
    body: () => loadShader('svd/jacobi_sweep.wgsl', {}),
  }));
}

/**
 * Blocked one-sided Jacobi on the columns of X (…, r, c), r ≥ c, finite: Y = X·W with
 * mutually orthogonal columns (|y_pᴴ y_q| ≤ tol·‖y_p‖‖y_q‖, tol = √r·eps), W (…, c, c)
 * unitary when wantW (else null); info per matrix 0 converged / > 0 sweep cap reached.
 * X is not modified; everything is recorded into the shared encoder (no host reads).
 */
export function jacobiBlockedGpu(X: Tensor, wantW: boolean, who: string, params: JacobiParams = {}):
  { Y: Tensor; W: Tensor | null; info: Tensor<'int32'> } {
  const dtype = gpuFloatDType(X, who, 'X');
  if (X.ndim < 2) throw new ShapeError(`${who}: X must have at least 2 dims, got ${fmtShape(X.shape)}`);
  const r = X.rows, c = X.cols;
  if (r < c) throw new ShapeError(`${who}: X is ${r}×${c}; the blocked Jacobi needs rows ≥ columns`);
  const batchShape = X.shape.slice(0, -2);
  const batch = batchCount(X);
  const cap = params.maxSweeps ?? JACOBI_MAX_SWEEPS;
  const inner = params.innerSweeps ?? JACOBI_INNER_SWEEPS;
  if (!Number.isInteger(cap) || cap < 1) throw new ArgumentError(`${who}: maxSweeps must be a positive integer, got ${cap}`);
  if (!Number.isInteger(inner) || inner < 1) throw new ArgumentError(`${who}: innerSweeps must be a positive integer, got ${inner}`);
  const info = infoTensor(batchShape, who);
  const transpose = lookup('transpose', dtype, 'gpu', who);
  if (batch === 0 || c === 0) {
    // nothing to rotate: info = 0 (last = 2 writes it without reading the counters)
    const d = dummyOutput(who);
    runProgram(jacobiSweepProgram(), {
      inputs: {}, outputs: { ctrl: d.gpuStorage(), info: info.gpuStorage() }, uniforms: { count: batch, last: 2, cap }, workgroups: Math.ceil(batch / 64),
    });
    d.dispose();
    return { Y: emptyGpu(dtype, X.shape, who), W: wantW ? emptyGpu(dtype, [...batchShape, c, c], who) : null, info };
  }
  checkIndexRange(batch * c * Math.max(r, 2), who);
  const b = params.block ?? jacobiBlock(c, dtype);
  const prog = jacobiPairProgram(dtype, b, params.wg ?? jacobiWorkgroup(r, c, b, dtype), gpuLimits(who).maxComputeWorkgroupStorageSize);
  const nb = Math.ceil(c / b), nbe = nb + (nb % 2), npairs = nbe / 2;

  const Yc = transpose(X, false);                       // (…, c, r): columns contiguous
  const Wc = wantW ? emptyGpu(dtype, [...batchShape, c, c], who) : null;
  const E = emptyGpu('int32', [batch * c], who);
  const ctrl = emptyGpu('uint32', [batch * 2], who);
  const wbind = Wc ?? dummyOutput(who);
  const wrows = wantW ? c : 0;
  const ys = Yc.gpuStorage(), ws = wbind.gpuStorage(), es = E.gpuStorage(), cs = ctrl.gpuStorage();

  runProgram(jacobiInitProgram(dtype), {
    inputs: { Yc: ys }, outputs: { Wc: ws, E: es, ctrl: cs }, uniforms: { r, c, count: batch * c, wrows }, workgroups: batch * c,
  });
  const count = batch * npairs;
  const tol = Math.fround(Math.sqrt(r) * EPS);
  const sweep = jacobiSweepProgram();
  const sweepGroups = Math.ceil(batch / 64);
  const outputs = { Yc: ys, Wc: ws, E: es, ctrl: cs };
  for (let s = 0; s < cap; s++) {
    for (let round = 0; round < nbe - 1; round++) {
      runProgram(prog, { inputs: {}, outputs, uniforms: { r, c, nbe, npairs, count, round, wrows, inner, tol }, workgroups: count });
    }
    runProgram(sweep, { inputs: {}, outputs: { ctrl: cs, info: info.gpuStorage() }, uniforms: { count: batch, last: s === cap - 1 ? 1 : 0, cap }, workgroups: sweepGroups });
  }
  const Y = transpose(Yc, false);
  const W = Wc ? transpose(Wc, false) : null;
  Yc.dispose();
  Wc?.dispose();
  if (!Wc) wbind.dispose();
  E.dispose();
  ctrl.dispose();
  return { Y, W, info };
}
