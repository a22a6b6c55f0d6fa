// GPU batched triangular solve (left side). Unit lower float32 systems of n = 16/32/64
// with ≥ 8 right-hand sides, the Gated DeltaNet chunk shape, take the blocked kernel
// shaders/trsm/trsm_unit_lower.wgsl; everything else the general substitution kernel
// shaders/trsm/trsm.wgsl. Both compute the same function.
import type { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ShapeError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram } from './program.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, floatsPer, uploadIndex, dummyIndex, checkIndexRange } from './small.js';

/** Largest n the general kernel takes (one workgroup per system). */
export const TRSM_MAX_N = 1024;

const pow2ceil = (x: number): number => {
  let p = 1;
  while (p < x) p *= 2;
  return p;
};

/** Whether (dtype, n, nrhs, flags) goes to the blocked unit-lower kernel. */
export function trsmFastPath(dtype: string, n: number, nrhs: number, upper: boolean, unit: boolean): boolean {
  return dtype === 'float32' && !upper && unit && (n === 16 || n === 32 || n === 64) && nrhs >= 8;
}

export interface TrsmOptions {
  upper: boolean;
  unitriangular: boolean;
  /** Force the general kernel (tests compare the two paths). */
  forceGeneral?: boolean;
}

function solveTriangularGpu(A: Tensor, B: Tensor, plan: BatchPlan, opts: TrsmOptions): Tensor {
  const who = 'solveTriangular';
  const dtype = gpuFloatDType(A, who, 'A');
  gpuFloatDType(B, who, 'B');
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  if (n > TRSM_MAX_N) {
    throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}; the GPU kernel takes n ≤ ${TRSM_MAX_N}; move larger systems to the CPU`);
  }
  const nrhs = B.cols;
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  if (plan.count === 0 || n === 0 || nrhs === 0) return X;
  const F = floatsPer(dtype);
  checkIndexRange(Math.max(plan.count, plan.bCount) * n * nrhs * F + plan.aCount * n * n * F, who);
  const amap = uploadIndex(plan.aIdx, who);
  const bmap = uploadIndex(plan.bIdx, who);
  const a = amap ?? dummyIndex(who);
  const b = bmap ?? dummyIndex(who);
  const common = [
    { name: 'count', type: 'u32' as const, value: plan.count },
    { name: 'nrhs', type: 'u32' as const, value: nrhs },
    { name: 'use_a', type: 'u32' as const, value: amap ? 1 : 0 },
    { name: 'use_b', type: 'u32' as const, value: bmap ? 1 : 0 },
  ];
  const io = {
    inputs: [A.gpuStorage(), B.gpuStorage(), a.gpuStorage(), b.gpuStorage()],
    outputs: [X.gpuStorage()],
    workgroups: plan.count,
  };
  if (!opts.forceGeneral && trsmFastPath(dtype, n, nrhs, opts.upper, opts.unitriangular)) {
    // Slab width: 32 columns for the 64-chunk (an H200 ran it 0.61 ms against 0.80 with 64:
    // smaller groups, more per multiprocessor), else the RHS count rounded up, 16 at least.
    const KC = n === 64 ? (nrhs > 16 ? 32 : 16) : Math.min(32, Math.max(16, pow2ceil(nrhs)));
    const WG = 4 * KC;
    const prog = smallProgram('trsm_unit_lower', 'trsm/trsm_unit_lower.wgsl', 'trsm_unit_lower', 'float32', WG, {
      N: n, KC, NN4: (n * n) / 4, NKC: n * KC,
    });
    runProgram(prog, { ...io, uniforms: common });
  } else {
    const MAXN = Math.max(16, pow2ceil(n));
    let RC = 1;
    while (RC < 16 && RC < nrhs && MAXN * 2 * RC * F * 4 <= 16384) RC *= 2;
    const prog = smallProgram('trsm', 'trsm/trsm.wgsl', 'trsm', dtype, 256, { MAXN, RC, NRC: MAXN * RC });
    runProgram(prog, {
      ...io,
      uniforms: [
        ...common,
        { name: 'n', type: 'u32', value: n },
        { name: 'upper', type: 'u32', value: opts.upper ? 1 : 0 },
        { name: 'unit', type: 'u32', value: opts.unitriangular ? 1 : 0 },
      ],
    });
  }
  a.dispose();
  b.dispose();
  return X;
}

export function registerTrsmGpu(): void {
  register('solveTriangular', ['float32', 'complex64'], 'gpu', solveTriangularGpu);
}

export { solveTriangularGpu };
