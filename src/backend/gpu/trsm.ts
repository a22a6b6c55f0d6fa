// GPU batched triangular solve (left side). Unit lower float32 systems of n = 16/32/64
// with ≥ 8 right-hand sides, the Gated DeltaNet chunk shape, take a dedicated kernel:
// shaders/trsm/trsm_unit_lower.wgsl (one thread per RHS column) for n = 16 and 32,
// shaders/trsm/trsm_unit_lower_blocked.wgsl (one workgroup per system) for n = 64;
// everything else the general substitution kernel shaders/trsm/trsm.wgsl. All compute
// the same function.
import type { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ShapeError, DeviceError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram, type GpuProgram } from './program.js';
import { gpuLimits } from './device.js';
import { loadShader, dtypeDefines } from './preprocess.js';
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

/** Work split of the unit-lower kernel: KC columns per task, G tasks per workgroup. */
export interface UnitLowerPlan {
  KC: number;
  G: number;
  WG: number;
  /** Per-task stride of the workgroup array, in vec4s. */
  STRIDE: number;
}

/**
 * One thread per RHS column: KC = the RHS count rounded up to a power of two in [8, 64];
 * tasks are packed G to a workgroup up to `wgTarget` threads, as far as the systems fit
 * in `maxShared` bytes of workgroup memory (a 64×64 system with 64 columns takes 32 KiB:
 * its triangle and the workgroup copy of X).
 */
export function unitLowerPlan(n: number, nrhs: number, maxShared: number, wgTarget = 64): UnitLowerPlan {
  const KC = Math.min(64, Math.max(8, pow2ceil(nrhs)));
  const nn4 = (n * n) / 4;
  let G = Math.max(1, Math.floor(wgTarget / KC));
  const bytes = (g: number): number => g * ((g > 1 ? nn4 + 1 : nn4) + (n / 4) * KC) * 16;
  while (G > 1 && bytes(G) > maxShared) G /= 2;
  if (bytes(G) > maxShared) {
    throw new DeviceError(`solveTriangular: a ${n}×${n} system needs ${bytes(G)} bytes of workgroup memory; this adapter gives ${maxShared}`);
  }
  return { KC, G, WG: G * KC, STRIDE: G > 1 ? nn4 + 1 : nn4 };
}

/**
 * The generated parts of the kernel (constant register indices, so nothing is indexed
 * dynamically but the block numbers I, J): the 16 B entries of block I, the update by
 * one earlier block J (16 rows × 4 vec4 dot products against the X_J read back), the
 * unit 16×16 triangle, and the stores.
 */
export function unitLowerBody(): Record<string, string> {
  const lane = ['x', 'y', 'z', 'w'];
  const r16 = Array.from({ length: 16 }, (_, r) => r);
  const LOADB = r16.map((r) => `    var a${r} = B[bb + ${r}u * nrhs];`).join('\n');
  const UPDATE = [
    ...[0, 1, 2, 3].map((q) => `      let x${q} = Xs[g][(J * 4u + ${q}u) * KC + c];`),
    ...r16.map((r) => `      { let row = (I * 16u + ${r}u) * Q + J * 4u;\n` +
      [0, 1, 2, 3].map((q) => `        a${r} -= dot(Ls[g][row + ${q}u], x${q});`).join('\n') + '\n      }'),
  ].join('\n');
  const tri: string[] = [];
  for (let r = 1; r < 16; r++) {
    tri.push(`    { let row = (I * 16u + ${r}u) * Q + I * 4u;`);
    for (let q = 0; 4 * q < r; q++) {
      tri.push(`      { let l = Ls[g][row + ${q}u];`);
      for (let k = 0; k < 4 && 4 * q + k < r; k++) tri.push(`        a${r} = fma(-l.${lane[k]}, a${4 * q + k}, a${r});`);
      tri.push('      }');
    }
    tri.push('    }');
  }
  const STORE = [
    ...[0, 1, 2, 3].map((q) => `    Xs[g][(I * 4u + ${q}u) * KC + c] = vec4f(a${4 * q}, a${4 * q + 1}, a${4 * q + 2}, a${4 * q + 3});`),
    ...r16.map((r) => `    X[xb + ${r}u * nrhs] = a${r};`),
  ].join('\n');
  return { LOADB, UPDATE, TRIANGLE: tri.join('\n'), STORE };
}

// Programs are cached here under a short key: the generated body is ~100 KB for n = 64,
// too long to rebuild and hash as a cache key on every call.
const unitLowerPrograms = new Map<string, GpuProgram>();

/** The unit-lower kernel for n and a plan. */
export function unitLowerProgram(n: number, L: UnitLowerPlan): GpuProgram {
  const key = `n=${n},KC=${L.KC},G=${L.G},STRIDE=${L.STRIDE}`;
  let prog = unitLowerPrograms.get(key);
  if (!prog) {
    const defs = { ...dtypeDefines('float32'), N: n, KC: L.KC, G: L.G, WG: L.WG, STRIDE: L.STRIDE, XS: (n / 4) * L.KC };
    prog = {
      name: 'trsm_unit_lower', key, entryPoint: 'trsm_unit_lower_f32', workgroupSize: [L.WG, 1, 1],
      source: () => loadShader('trsm/trsm_unit_lower.wgsl', { ...defs, ...unitLowerBody() }),
    };
    unitLowerPrograms.set(key, prog);
  }
  return prog;
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
  if (!opts.forceGeneral && trsmFastPath(dtype, n, nrhs, opts.upper, opts.unitriangular) && n === 64) {
    // 64×64: the blocked kernel (one workgroup per system, 16×16 diagonal inverses); on an
    // H200 it beat the column-per-thread kernel at this size (0.45 against 0.51 ms for
    // 4096 systems with 64 RHS), whose 32 KiB of workgroup memory per 64 threads limits
    // occupancy. Slab width 32 (0.61 ms against 0.80 with 64 in an earlier H200 run).
    const KC = nrhs > 16 ? 32 : 16;
    const prog = smallProgram('trsm_unit_lower_blocked', 'trsm/trsm_unit_lower_blocked.wgsl', 'trsm_unit_lower_blocked', 'float32', 4 * KC, {
      N: n, KC, NN4: (n * n) / 4, NKC: n * KC,
    });
    runProgram(prog, { ...io, workgroups: plan.count, uniforms: common });
  } else if (!opts.forceGeneral && trsmFastPath(dtype, n, nrhs, opts.upper, opts.unitriangular)) {
    const L = unitLowerPlan(n, nrhs, gpuLimits(who).maxComputeWorkgroupStorageSize);
    const cblocks = Math.ceil(nrhs / L.KC);
    const tasks = plan.count * cblocks;
    checkIndexRange(tasks, who);
    runProgram(unitLowerProgram(n, L), {
      ...io,
      workgroups: Math.ceil(tasks / L.G),
      uniforms: [...common, { name: 'cblocks', type: 'u32', value: cblocks }, { name: 'tasks', type: 'u32', value: tasks }],
    });
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
