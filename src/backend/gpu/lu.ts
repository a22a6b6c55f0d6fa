// GPU batched LU with partial pivoting, solve, LU solve and inverse for n ≤ 64:
// shaders/lu/lu.wgsl, one workgroup per matrix, thread j owning column j.
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ShapeError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram } from './program.js';
import { gpuLimits } from './device.js';
import { emptyGpu } from './tensor-ops.js';
import {
  smallProgram, gpuFloatDType, floatsPer, batchCount, infoTensor, uploadIndex, dummyIndex, dummyOutput, checkIndexRange,
} from './small.js';

/** Largest n the one-workgroup-per-matrix kernels take. */
export const LU_MAX_N = 64;

type Mode = 'FACTOR' | 'SOLVE' | 'INV' | 'LUSOLVE';
const ENTRY: Record<Mode, string> = { FACTOR: 'lu_factor', SOLVE: 'lu_solve_fused', INV: 'lu_inv', LUSOLVE: 'lu_solve' };

function luProgram(mode: Mode, dtype: 'float32' | 'complex64', n: number, nrhs: number, who: string) {
  const F = floatsPer(dtype);
  // RHS columns per pass: a power of two up to 16 (shifts, not divisions, in the kernel).
  let RC = 1;
  while (RC < Math.min(nrhs, 16)) RC *= 2;
  const WG = n <= 32 ? 32 : 64;
  const shared = 4 * F * (n * n + n * RC) + 8 * n + 16;
  const limit = gpuLimits(who).maxComputeWorkgroupStorageSize;
  const A_GLOBAL = shared > limit;
  const prog = smallProgram(ENTRY[mode], 'lu/lu.wgsl', ENTRY[mode], dtype, WG, {
    N: n, NN: n * n, F, RC, NRC: n * RC, ENTRY: ENTRY[mode], A_GLOBAL,
    MODE_FACTOR: mode === 'FACTOR', MODE_SOLVE: mode === 'SOLVE', MODE_INV: mode === 'INV', MODE_LUSOLVE: mode === 'LUSOLVE',
    HAS_B: mode === 'SOLVE' || mode === 'LUSOLVE',
  });
  return { prog, A_GLOBAL };
}

function checkN(A: Tensor, who: string): number {
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  if (n > LU_MAX_N) {
    throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}; the GPU kernels take n ≤ ${LU_MAX_N}; move larger matrices to the CPU`);
  }
  return n;
}

function uniforms(count: number, nrhs: number, useA: boolean, useB: boolean, adjoint: boolean) {
  return [
    { name: 'count', type: 'u32' as const, value: count },
    { name: 'nrhs', type: 'u32' as const, value: nrhs },
    { name: 'use_a', type: 'u32' as const, value: useA ? 1 : 0 },
    { name: 'use_b', type: 'u32' as const, value: useB ? 1 : 0 },
    { name: 'adjoint', type: 'u32' as const, value: adjoint ? 1 : 0 },
  ];
}

function scratch(global: boolean, dtype: 'float32' | 'complex64', count: number, n: number, who: string): Tensor {
  return global ? emptyGpu(dtype, [count, n, n], who) : dummyOutput(who);
}

/** Zero info for empty matrices (nothing to factor). */
export function zeroInfo(batchShape: readonly number[]): Tensor<'int32'> {
  let c = 1;
  for (const d of batchShape) c *= d;
  return Tensor.fromStorage('int32', batchShape, new Int32Array(c)).to('gpu') as Tensor<'int32'>;
}

function luFactorGpu(A: Tensor): { LU: Tensor; pivots: Tensor<'int32'>; info: Tensor<'int32'> } {
  const who = 'luFactor';
  const dtype = gpuFloatDType(A, who, 'A');
  const n = checkN(A, who);
  const count = batchCount(A);
  const LU = emptyGpu(dtype, A.shape, who);
  const pivots = emptyGpu('int32', [...A.shape.slice(0, -2), n], who);
  if (n === 0) return { LU, pivots, info: zeroInfo(A.shape.slice(0, -2)) };
  const info = infoTensor(A.shape.slice(0, -2), who);
  if (count === 0) return { LU, pivots, info };
  checkIndexRange(count * n * n * floatsPer(dtype), who);
  const { prog } = luProgram('FACTOR', dtype, n, 1, who);
  runProgram(prog, {
    inputs: [A.gpuStorage()], outputs: [LU.gpuStorage(), pivots.gpuStorage(), info.gpuStorage()],
    uniforms: uniforms(count, 0, false, false, false), workgroups: count,
  });
  return { LU, pivots, info };
}

function luSolveGpu(LU: Tensor, pivots: Tensor<'int32'>, B: Tensor, plan: BatchPlan, adjoint: boolean): Tensor {
  const who = 'luSolve';
  const dtype = gpuFloatDType(LU, who, 'LU');
  gpuFloatDType(B, who, 'B');
  const n = checkN(LU, who);
  const nrhs = B.cols;
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  if (plan.count === 0 || n === 0 || nrhs === 0) return X;
  checkIndexRange(Math.max(plan.count, plan.bCount) * n * nrhs * floatsPer(dtype) + plan.aCount * n * n * floatsPer(dtype), who);
  const { prog, A_GLOBAL } = luProgram('LUSOLVE', dtype, n, nrhs, who);
  const amap = uploadIndex(plan.aIdx, who);
  const bmap = uploadIndex(plan.bIdx, who);
  const tmp: Tensor[] = [];
  const a = amap ?? dummyIndex(who);
  const b = bmap ?? dummyIndex(who);
  tmp.push(a, b);
  const W = scratch(A_GLOBAL, dtype, plan.aCount, n, who);
  tmp.push(W);
  runProgram(prog, {
    inputs: [LU.gpuStorage(), pivots.gpuStorage(), B.gpuStorage(), a.gpuStorage(), b.gpuStorage()],
    outputs: [X.gpuStorage(), W.gpuStorage()],
    uniforms: uniforms(plan.count, nrhs, amap !== null, bmap !== null, adjoint), workgroups: plan.count,
  });
  for (const t of tmp) t.dispose();
  return X;
}

function solveGpu(A: Tensor, B: Tensor, plan: BatchPlan): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'solve';
  const dtype = gpuFloatDType(A, who, 'A');
  gpuFloatDType(B, who, 'B');
  const n = checkN(A, who);
  const nrhs = B.cols;
  if (plan.aIdx !== null || plan.aCount !== plan.count) {
    // A is broadcast: factor each distinct A once, then solve every output against its factor.
    const { LU, pivots, info } = luFactorGpu(A);
    const X = luSolveGpu(LU, pivots, B, plan, false);
    LU.dispose();
    pivots.dispose();
    if (plan.aIdx === null) return { X, info };
    // info per output matrix: gathered on the host map (small) through a tiny copy kernel is
    // not worth it here; the plain solve path needs info of the batch shape.
    return { X, info: gatherInfo(info, plan, who) };
  }
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  if (n === 0) return { X, info: zeroInfo(plan.batchShape) };
  const info = infoTensor(plan.batchShape, who);
  if (plan.count === 0) return { X, info };
  checkIndexRange(Math.max(plan.count, plan.bCount) * n * Math.max(n, nrhs) * floatsPer(dtype), who);
  const { prog, A_GLOBAL } = luProgram('SOLVE', dtype, n, nrhs, who);
  const bmap = uploadIndex(plan.bIdx, who);
  const b = bmap ?? dummyIndex(who);
  const W = scratch(A_GLOBAL, dtype, plan.count, n, who);
  runProgram(prog, {
    inputs: [A.gpuStorage(), B.gpuStorage(), b.gpuStorage()],
    outputs: [X.gpuStorage(), info.gpuStorage(), W.gpuStorage()],
    uniforms: uniforms(plan.count, nrhs, false, bmap !== null, false), workgroups: plan.count,
  });
  b.dispose();
  W.dispose();
  return { X, info };
}

/** info of the broadcast batch from info of A's batch (a gather through a 1-column LU solve would be overkill). */
function gatherInfo(info: Tensor<'int32'>, plan: BatchPlan, who: string): Tensor<'int32'> {
  const out = infoTensor(plan.batchShape, who);
  const idx = uploadIndex(plan.aIdx, who)!;
  const prog = smallProgram('gather_i32', 'lu/gather.wgsl', 'gather', 'int32', 64, {});
  runProgram(prog, {
    inputs: [info.gpuStorage(), idx.gpuStorage()], outputs: [out.gpuStorage()],
    uniforms: [{ name: 'count', type: 'u32', value: plan.count }], workgroups: Math.ceil(plan.count / 64),
  });
  idx.dispose();
  info.dispose();
  return out;
}

/** A⁻¹ for 4 < n ≤ 64 (Gauss–Jordan through LU with B = I), used by inv.ts. */
export function invLuGpu(A: Tensor): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'inv';
  const dtype = gpuFloatDType(A, who, 'A');
  const n = checkN(A, who);
  const count = batchCount(A);
  const X = emptyGpu(dtype, A.shape, who);
  const info = infoTensor(A.shape.slice(0, -2), who);
  if (count === 0) return { X, info };
  checkIndexRange(count * n * n * floatsPer(dtype), who);
  const { prog, A_GLOBAL } = luProgram('INV', dtype, n, n, who);
  const W = scratch(A_GLOBAL, dtype, count, n, who);
  runProgram(prog, {
    inputs: [A.gpuStorage()], outputs: [X.gpuStorage(), info.gpuStorage(), W.gpuStorage()],
    uniforms: uniforms(count, n, false, false, false), workgroups: count,
  });
  W.dispose();
  return { X, info };
}

export function registerLuGpu(): void {
  register('luFactor', ['float32', 'complex64'], 'gpu', luFactorGpu);
  register('luSolve', ['float32', 'complex64'], 'gpu', luSolveGpu);
  register('solve', ['float32', 'complex64'], 'gpu', solveGpu);
}
