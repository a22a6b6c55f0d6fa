// GPU batched triangular solve (left side). Unit lower float32 systems of n = 16/32/64
// with ≥ 8 right-hand sides, the Gated DeltaNet chunk shape, take the four-columns-per-
// thread kernel shaders/trsm/trsm_unit_lower_v4.wgsl (RHS counts that are multiples of 4)
// or the column-per-thread one, shaders/trsm/trsm_unit_lower.wgsl; everything else the
// general substitution kernel shaders/trsm/trsm.wgsl. All compute the same function.
import type { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ShapeError, DeviceError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram, type GpuProgram } from './program.js';
import { gpuLimits } from './device.js';
import { loadShader, dtypeDefines } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, floatsPer, uploadIndex, dummyIndex, checkIndexRange, infoTensor } from './small.js';
import { zeroInfo } from './lu.js';

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
  /** Variants: L read from A through the cache, X_J read back from X (not workgroup memory). */
  lGlobal: boolean;
  xGlobal: boolean;
}

/**
 * One thread per RHS column: KC = the RHS count rounded up to a power of two in [8, 64];
 * tasks are packed G to a workgroup up to `wgTarget` threads, as far as the systems fit
 * in `maxShared` bytes of workgroup memory. The default (lGlobal, xGlobal) uses none: L
 * is read from A (a task's threads read the same address: L1 broadcasts) and X_J back
 * from the thread's own column of X. On an H200 that ran 4096 64×64 systems with 64 RHS
 * in 0.157 ms against 0.54 with both in workgroup memory (whose 32 KiB per 64 threads
 * capped occupancy), bench/results/gdn-kernels-h200.txt.
 */
export function unitLowerPlan(
  n: number, nrhs: number, maxShared: number, wgTarget = 64, lGlobal = true, xGlobal = true,
): UnitLowerPlan {
  const KC = Math.min(64, Math.max(8, pow2ceil(nrhs)));
  const nn4 = (n * n) / 4;
  let G = Math.max(1, Math.floor(wgTarget / KC));
  const bytes = (g: number): number => g * ((lGlobal ? 0 : g > 1 ? nn4 + 1 : nn4) + (xGlobal ? 0 : (n / 4) * KC)) * 16;
  while (G > 1 && bytes(G) > maxShared) G /= 2;
  if (bytes(G) > maxShared) {
    throw new DeviceError(`solveTriangular: a ${n}×${n} system needs ${bytes(G)} bytes of workgroup memory; this adapter gives ${maxShared}`);
  }
  return { KC, G, WG: G * KC, STRIDE: G > 1 ? nn4 + 1 : nn4, lGlobal, xGlobal };
}

/**
 * The generated parts of the kernel (constant register indices, so nothing is indexed
 * dynamically but the block numbers I, J): the 16 B entries of block I, the update by
 * one earlier block J (16 rows × 4 vec4 dot products against the X_J read back), the
 * unit 16×16 triangle, and the stores.
 */
export function unitLowerBody(xGlobal = false): Record<string, string> {
  const lane = ['x', 'y', 'z', 'w'];
  const r16 = Array.from({ length: 16 }, (_, r) => r);
  const LOADB = r16.map((r) => `    var a${r} = B[bb + ${r}u * nrhs];`).join('\n');
  const UPDATE = [
    ...(xGlobal
      ? ['      let xr = (m * N + J * 16u) * nrhs + col;',
        ...[0, 1, 2, 3].map((q) => `      let x${q} = vec4f(${[0, 1, 2, 3].map((k) => `X[xr + ${4 * q + k}u * nrhs]`).join(', ')});`)]
      : [0, 1, 2, 3].map((q) => `      let x${q} = Xs[g][(J * 4u + ${q}u) * KC + c];`)),
    ...r16.map((r) => `      { let row = (I * 16u + ${r}u) * Q + J * 4u;\n` +
      [0, 1, 2, 3].map((q) => `        a${r} -= dot(ld(lb, row + ${q}u), x${q});`).join('\n') + '\n      }'),
  ].join('\n');
  const tri: string[] = [];
  for (let r = 1; r < 16; r++) {
    tri.push(`    { let row = (I * 16u + ${r}u) * Q + I * 4u;`);
    for (let q = 0; 4 * q < r; q++) {
      tri.push(`      { let l = ld(lb, row + ${q}u);`);
      for (let k = 0; k < 4 && 4 * q + k < r; k++) tri.push(`        a${r} = fma(-l.${lane[k]}, a${4 * q + k}, a${r});`);
      tri.push('      }');
    }
    tri.push('    }');
  }
  const STORE = [
    ...(xGlobal ? [] : [0, 1, 2, 3].map((q) => `    Xs[g][(I * 4u + ${q}u) * KC + c] = vec4f(a${4 * q}, a${4 * q + 1}, a${4 * q + 2}, a${4 * q + 3});`)),
    ...r16.map((r) => `    X[xb + ${r}u * nrhs] = a${r};`),
  ].join('\n');
  return { LOADB, UPDATE, TRIANGLE: tri.join('\n'), STORE };
}

/**
 * The generated parts of the four-columns-per-thread kernel (trsm_unit_lower_v4.wgsl):
 * acc r (rows 16·I + r, four columns) is `a<r>`; the update by block J loads X_J four rows
 * at a time and applies each L vec4 (one row, four columns of block J) to them.
 */
export function unitLowerBodyV4(width = 4): Record<string, string> {
  const lane = ['x', 'y', 'z', 'w'];
  const VT = `vec${width}f`;
  const r16 = Array.from({ length: 16 }, (_, r) => r);
  const LOADB = r16.map((r) => `    var a${r} = B[bb + ${r}u * CV];`).join('\n');
  const UPDATE: string[] = [];
  for (let q = 0; q < 4; q++) {
    UPDATE.push(`      { ${[0, 1, 2, 3].map((k) => `let x${k} = X[xr + ${4 * q + k}u * CV];`).join(' ')}`);
    for (const r of r16) {
      UPDATE.push(`        { let l = A[lb + (I * 16u + ${r}u) * Q + J * 4u + ${q}u]; ` +
        `a${r} = fma(${VT}(-l.x), x0, fma(${VT}(-l.y), x1, fma(${VT}(-l.z), x2, fma(${VT}(-l.w), x3, a${r})))); }`);
    }
    UPDATE.push('      }');
  }
  const tri: string[] = [];
  for (let r = 1; r < 16; r++) {
    tri.push(`    { let row = lb + (I * 16u + ${r}u) * Q + I * 4u;`);
    for (let q = 0; 4 * q < r; q++) {
      tri.push(`      { let l = A[row + ${q}u];`);
      for (let k = 0; k < 4 && 4 * q + k < r; k++) tri.push(`        a${r} = fma(${VT}(-l.${lane[k]}), a${4 * q + k}, a${r});`);
      tri.push('      }');
    }
    tri.push('    }');
  }
  const STORE = r16.map((r) => `    X[xb + ${r}u * CV] = a${r};`).join('\n');
  return { LOADB, UPDATE: UPDATE.join('\n'), TRIANGLE: tri.join('\n'), STORE, VT };
}

const v4Programs = new Map<string, GpuProgram>();

/** The unit-lower kernel with `width` (4 or 2) columns per thread for n (16, 32, 64) and workgroup size wg. */
export function unitLowerV4Program(n: number, wg = 64, width = 4): GpuProgram {
  const key = `n=${n},WG=${wg},W=${width}`;
  let prog = v4Programs.get(key);
  if (!prog) {
    const defs = { ...dtypeDefines('float32'), N: n, WG: wg };
    prog = {
      name: 'trsm_unit_lower_v4', key, entryPoint: 'trsm_unit_lower_v4_f32', workgroupSize: [wg, 1, 1],
      source: () => loadShader('trsm/trsm_unit_lower_v4.wgsl', { ...defs, ...unitLowerBodyV4(width) }),
    };
    v4Programs.set(key, prog);
  }
  return prog;
}

// Programs are cached here under a short key: the generated body is ~100 KB for n = 64,
// too long to rebuild and hash as a cache key on every call.
const unitLowerPrograms = new Map<string, GpuProgram>();

/** The unit-lower kernel for n and a plan. */
export function unitLowerProgram(n: number, L: UnitLowerPlan): GpuProgram {
  const key = `n=${n},KC=${L.KC},G=${L.G},STRIDE=${L.STRIDE},LG=${L.lGlobal},XG=${L.xGlobal}`;
  let prog = unitLowerPrograms.get(key);
  if (!prog) {
    const defs = { ...dtypeDefines('float32'), N: n, KC: L.KC, G: L.G, WG: L.WG, STRIDE: L.STRIDE, XS: (n / 4) * L.KC, L_GLOBAL: L.lGlobal, X_GLOBAL: L.xGlobal };
    prog = {
      name: 'trsm_unit_lower', key, entryPoint: 'trsm_unit_lower_f32', workgroupSize: [L.WG, 1, 1],
      source: () => loadShader('trsm/trsm_unit_lower.wgsl', { ...defs, ...unitLowerBody(L.xGlobal) }),
    };
    unitLowerPrograms.set(key, prog);
  }
  return prog;
}

/**
 * Which fast-path kernel takes RHS counts that are multiples of 4: the four-columns-per-
 * thread one (`v4`, default) or the column-per-thread one (benches and tests flip it to
 * compare the two).
 */
export const unitLowerVariant = { v4: true };

export interface TrsmOptions {
  upper: boolean;
  unitriangular: boolean;
  /** Force the general kernel (tests compare the two paths). */
  forceGeneral?: boolean;
  /** Also return trtrs's status (ops.ts). */
  info?: boolean;
}

/**
 * trtrs's status after a non-unit solve: one workgroup per output system scans its
 * diagonal (shaders/trsm/trsm_diag.wgsl), writes info and sets X to NaN where a diagonal
 * entry is exactly zero. Recorded after the solve in the same encoder.
 */
function diagInfo(A: Tensor, X: Tensor, plan: BatchPlan, n: number, nrhs: number, dtype: 'float32' | 'complex64', who: string): Tensor<'int32'> {
  const info = infoTensor(plan.batchShape, who);
  const amap = uploadIndex(plan.aIdx, who);
  const a = amap ?? dummyIndex(who);
  const prog = smallProgram('trsm_diag', 'trsm/trsm_diag.wgsl', 'trsm_diag', dtype, 64, { FLOATS: floatsPer(dtype) });
  runProgram(prog, {
    inputs: [A.gpuStorage(), a.gpuStorage()], outputs: [X.gpuStorage(), info.gpuStorage()],
    workgroups: plan.count,
    uniforms: [
      { name: 'count', type: 'u32', value: plan.count },
      { name: 'n', type: 'u32', value: n },
      { name: 'nrhs', type: 'u32', value: nrhs },
      { name: 'use_a', type: 'u32', value: amap ? 1 : 0 },
    ],
  });
  a.dispose();
  return info;
}

function solveTriangularGpu(A: Tensor, B: Tensor, plan: BatchPlan, opts: TrsmOptions): { X: Tensor; info: Tensor<'int32'> | null } {
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
  // unit diagonal: never singular, and nothing runs for the status (the GDN path asks for none)
  const zero = (): Tensor<'int32'> | null => (opts.info ? zeroInfo(plan.batchShape) : null);
  if (plan.count === 0 || n === 0) return { X, info: zero() };
  if (nrhs === 0) return { X, info: opts.info && !opts.unitriangular ? diagInfo(A, X, plan, n, nrhs, dtype, who) : zero() };
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
  if (!opts.forceGeneral && trsmFastPath(dtype, n, nrhs, opts.upper, opts.unitriangular) && nrhs % 4 === 0 && unitLowerVariant.v4) {
    const cv = nrhs / 4;
    const tasks = plan.count * cv;
    checkIndexRange(tasks, who);
    // 256-thread groups for n = 64 (H200: 0.102 against 0.107 ms for 4096 systems), 64 for
    // the smaller systems (32×32: 0.0255 against 0.046 ms).
    const wg = n === 64 ? 256 : 64;
    runProgram(unitLowerV4Program(n, wg), {
      ...io,
      workgroups: Math.ceil(tasks / wg),
      uniforms: [...common, { name: 'cv', type: 'u32', value: cv }, { name: 'tasks', type: 'u32', value: tasks }],
    });
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
  if (opts.info && !opts.unitriangular) return { X, info: diagInfo(A, X, plan, n, nrhs, dtype, who) };
  return { X, info: zero() };
}

export function registerTrsmGpu(): void {
  register('solveTriangular', ['float32', 'complex64'], 'gpu', solveTriangularGpu);
}

export { solveTriangularGpu };
