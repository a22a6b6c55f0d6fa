// GPU batched LU with partial pivoting, solve, LU solve and inverse for n ≤ 64:
// shaders/lu/lu.wgsl, one workgroup per matrix, thread j owning column j. Real float32
// n ≤ 32 solves (≤ 8 right-hand sides), factorizations and inverses take the
// register-resident kernel shaders/lu/lu_reg.wgsl instead (thread i owning row i in
// registers); the `kernel` parameter of the internal functions picks the other one (tests).
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram, cachedProgram, type GpuProgram, type ProgramDecl } from './program.js';
import { gpuLimits } from './device.js';
import { loadShader } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { luFactorBlockedGpu, type LuBlockParams } from './lu_blocked.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { bufferOf } from './pool.js';
import { solveBlockedGpu, luSolveBlockedGpu } from './lu_ops.js';
import {
  smallProgram, gpuFloatDType, floatsPer, batchCount, infoTensor, uploadIndex, dummyIndex, dummyOutput, checkIndexRange,
} from './small.js';

/** Largest n the one-workgroup-per-matrix kernels take. */
export const LU_MAX_N = 64;

type Mode = 'FACTOR' | 'SOLVE' | 'INV' | 'LUSOLVE';
const ENTRY: Record<Mode, string> = { FACTOR: 'lu_factor', SOLVE: 'lu_solve_fused', INV: 'lu_inv', LUSOLVE: 'lu_solve' };

const LU_UNIFORMS = { count: 'u32', nrhs: 'u32', use_a: 'u32', use_b: 'u32', adjoint: 'u32' } as const;
/** The bindings of each mode of lu.wgsl. */
const LU_DECLS = {
  FACTOR: { inputs: { A: 'f32' }, outputs: { LU: 'f32', PIV: 'i32', INFO: 'i32' }, uniforms: LU_UNIFORMS },
  SOLVE: { inputs: { A: 'f32', B: 'f32', bmap: 'i32' }, outputs: { X: 'f32', INFO: 'i32', W: 'f32' }, uniforms: LU_UNIFORMS },
  INV: { inputs: { A: 'f32' }, outputs: { X: 'f32', INFO: 'i32', W: 'f32' }, uniforms: LU_UNIFORMS },
  LUSOLVE: {
    inputs: { A: 'f32', PIVIN: 'i32', B: 'f32', amap: 'i32', bmap: 'i32' }, outputs: { X: 'f32', W: 'f32', STATUS: 'i32' }, uniforms: LU_UNIFORMS,
  },
} as const satisfies Record<Mode, ProgramDecl>;

/** RHS columns per pass of lu.wgsl: a power of two up to 16 (shifts, not divisions, in the kernel). */
function luRc(nrhs: number): number {
  let RC = 1;
  while (RC < Math.min(nrhs, 16)) RC *= 2;
  return RC;
}

/** Workgroup memory of lu.wgsl besides the matrix: the RHS block, pivots, permutation, flags. */
function luRestBytes(dtype: 'float32' | 'complex64', n: number, nrhs: number): number {
  return 4 * floatsPer(dtype) * n * luRc(nrhs) + 8 * n + 16;
}

/**
 * Whether the matrix lives in a storage buffer (A_GLOBAL) on this device: 64×64 float32
 * (16 KiB) and complex n > 44 exceed WebGPU's default 16 KiB of workgroup memory.
 */
function luAGlobal(dtype: 'float32' | 'complex64', n: number, nrhs: number, who: string): boolean {
  return 4 * floatsPer(dtype) * n * n + luRestBytes(dtype, n, nrhs) > gpuLimits(who).maxComputeWorkgroupStorageSize;
}

/** The workgroup-memory kernel (shaders/lu/lu.wgsl) for a mode; `aGlobal`: the matrix in a storage buffer. */
export function luProgram<M extends Mode>(mode: M, dtype: 'float32' | 'complex64', n: number, nrhs: number, aGlobal: boolean): GpuProgram<(typeof LU_DECLS)[M]> {
  const F = floatsPer(dtype);
  const RC = luRc(nrhs);
  const WG = n <= 32 ? 32 : 64;
  return smallProgram(ENTRY[mode], 'lu/lu.wgsl', ENTRY[mode], dtype, WG, {
    N: n, NN: n * n, F, RC, NRC: n * RC, ENTRY: ENTRY[mode], A_GLOBAL: aGlobal,
    MODE_FACTOR: mode === 'FACTOR', MODE_SOLVE: mode === 'SOLVE', MODE_INV: mode === 'INV', MODE_LUSOLVE: mode === 'LUSOLVE',
    HAS_B: mode === 'SOLVE' || mode === 'LUSOLVE',
  }, LU_DECLS[mode], (aGlobal ? 0 : 4 * F * n * n) + luRestBytes(dtype, n, nrhs));
}

/** Largest n and RHS count the register kernel takes. */
export const LU_REG_MAX_N = 32;
export const LU_REG_MAX_RHS = 8;

/** Which kernel real float32 n ≤ 32 takes (an explicit parameter, so tests can run both). */
export interface LuKernel {
  /** The register-resident kernel (lu_reg.wgsl) where it applies; false: the workgroup-memory kernel (lu.wgsl). */
  registers: boolean;
  /** Threads per workgroup of the register kernel (n ≤ wg/2 packs several matrices into one group). */
  wg: number;
}
export const LU_KERNEL_DEFAULT: Readonly<LuKernel> = Object.freeze({ registers: true, wg: 32 });

export function useLuReg(dtype: string, n: number, nrhs: number, kernel: Readonly<LuKernel> = LU_KERNEL_DEFAULT): boolean {
  return kernel.registers && dtype === 'float32' && n >= 1 && n <= LU_REG_MAX_N && nrhs >= 1 && nrhs <= LU_REG_MAX_RHS;
}

type RegMode = 'FACTOR' | 'SOLVE' | 'INV';

/** Layout of the register kernel for (mode, n, rhs columns, wg): rows per group, row stride, workgroup bytes. */
function regLayout(mode: RegMode, n: number, R: number, wg: number) {
  const G = Math.max(1, Math.floor(wg / n));
  const NB = Math.ceil(n / 4) * 4;
  const rhs = mode === 'SOLVE' ? R : mode === 'INV' ? n : 0;
  // Row stride in vec4s: odd, so that 8 rows' vec4s fall in distinct banks.
  let W4 = NB / 4 + Math.ceil(rhs / 4);
  if (W4 % 2 === 0) W4 += 1;
  const KP4 = NB / 4;
  const bytes = 16 * (G * n * W4 + 2 * G * KP4) + 4 * G + (mode === 'FACTOR' ? 4 * (G * n * n + 2 * G * n) : 0);
  return { G, NB, rhs, W4, KP4, bytes };
}

/** Whether the register kernel for (mode, n, R) fits the device (else the workgroup-memory kernel runs). */
function regFits(mode: RegMode, n: number, R: number, wg: number): boolean {
  const lim = gpuLimits('lu');
  return wg <= lim.maxComputeInvocationsPerWorkgroup && wg <= lim.maxComputeWorkgroupSizeX
    && regLayout(mode, n, R, wg).bytes <= lim.maxComputeWorkgroupStorageSize;
}

/**
 * The generated statements of lu_reg.wgsl for n and R right-hand sides: registers r0..
 * (row of A, shifted left each step) and x0.. (row of B, R rounded up to a multiple of 4),
 * all with constant indices. Element c of a buffer row is component c % 4 of vec4 c / 4;
 * B sits at column NB. `inv`: B is the identity and the back substitution is the
 * column-per-thread sweep (BSWEEP).
 */
export function luRegParts(n: number, R: number, vecLoad: boolean, inv = false): Record<string, string> {
  const NB = Math.ceil(n / 4) * 4;
  const Q = NB / 4;
  const RB = Math.ceil(R / 4) * 4;
  const comp = ['x', 'y', 'z', 'w'];
  const at = (base: string, c: number) => `rows[${base} + ${Math.floor(c / 4)}u].${comp[c % 4]}`;
  const rs = Array.from({ length: NB }, (_, j) => j);
  const cs = Array.from({ length: R }, (_, c) => c);
  const q4 = Array.from({ length: Q }, (_, q) => q);
  const b4 = Array.from({ length: RB / 4 }, (_, q) => q);
  const vec = (v: string, q: number) => `vec4f(${v}${4 * q}, ${v}${4 * q + 1}, ${v}${4 * q + 2}, ${v}${4 * q + 3})`;
  const ind = (k: number) => ' '.repeat(k);
  const DECL = [ind(2) + rs.map((j) => `var r${j} = 0.0;`).join(' '),
    ind(2) + Array.from({ length: RB }, (_, c) => `var x${c} = 0.0;`).join(' ')].join('\n');
  const LOAD = vecLoad
    ? [ind(4) + `let ab = (m * N + tl) * ${n / 4}u;`,
      ...q4.map((q) => ind(4) + `{ let v = A[ab + ${q}u]; r${4 * q} = v.x; r${4 * q + 1} = v.y; r${4 * q + 2} = v.z; r${4 * q + 3} = v.w; bad = bad || nonfinite4(v); }`)]
    : [ind(4) + `let ab = (m * N + tl) * N;`,
      ...Array.from({ length: n }, (_, j) => ind(4) + `r${j} = A[ab + ${j}u]; bad = bad || nonfinite(r${j});`)];
  const LOADB = inv
    ? cs.map((c) => ind(4) + `x${c} = select(0.0, 1.0, tl == ${c}u);`)
    : cs.map((c) => ind(4) + `x${c} = B[bb + ${c}u];`);
  const storeB = (base: string, k: number) => b4.map((q) => ind(k) + `rows[${base} + ${Q + q}u] = ${vec('x', q)};`);
  // Tiers of S vec4 groups of the live length: each branch loads everything it needs
  // before the first FMA (separate branches per group would serialise the load latencies).
  const S = Q >= 4 ? 2 : 1;
  const tiers = Math.ceil(Q / S);
  const tiered = (lenVar: string, loads: (groups: number[]) => string, body: (q: number) => string, k: number): string[] => {
    const out: string[] = [];
    for (let h = tiers; h >= 1; h--) {
      const groups = q4.slice(0, Math.min(Q, S * h));
      const head = h === tiers ? (tiers === 1 ? '{' : `if (${lenVar} > ${4 * S * (h - 1)}u) {`) : h === 1 ? '} else {' : `} else if (${lenVar} > ${4 * S * (h - 1)}u) {`;
      out.push(ind(k) + head, ind(k + 2) + loads(groups), ...groups.map((q) => ind(k + 2) + body(q)));
    }
    out.push(ind(k) + '}');
    return out;
  };
  const shift = (q: number, src: (mm: number) => string, coef: string) => {
    const body: string[] = [];
    for (let c = 0; c < 4; c++) {
      const mm = 4 * q + c;
      if (mm > 0) body.push(`r${mm - 1} = fma(${coef}, ${src(mm)}, r${mm});`);
    }
    return body.join(' ');
  };
  const STORE_ROW = [
    ...tiered('L', (gs) => gs.map((q) => `rows[sb + ${q}u] = ${vec('r', q)};`).join(' '), () => '', 8).filter((l) => l.trim() !== ''),
    ...storeB('sb', 8),
  ];
  const UPDATE = [
    // (x registers past R stay zero: no update, so the compiler folds them)
    ...b4.map((q) => ind(8) + `{ let v = rows[pr + ${Q + q}u]; ` + [0, 1, 2, 3].filter((c) => 4 * q + c < R)
      .map((c) => `x${4 * q + c} = fma(nl, v.${comp[c]}, x${4 * q + c});`).join(' ') + ' }'),
    ...tiered('L', (gs) => gs.map((q) => `let u${q} = rows[pr + ${q}u];`).join(' '), (q) => shift(q, (mm) => `u${q}.${comp[mm % 4]}`, 'nl'), 8),
  ];
  // Inverse: thread c owns column c of X; at step j (from the last), y_m = r_m holds row
  // j − m of the column, u_{j−m, j} is column m of U row j − m (left-aligned), all
  // broadcast reads of the finished U block, so the sweep needs no barrier.
  const BSWEEP = tiered('L',
    (gs) => gs.flatMap((q) => [0, 1, 2, 3].map((c) => 4 * q + c).filter((mm) => mm > 0)
      .map((mm) => `let u${mm} = rows[u32(max(jb - ${mm * 1}i * i32(W4), 0)) + ${mm >> 2}u].${comp[mm % 4]};`)).join(' '),
    (q) => shift(q, (mm) => `u${mm}`, 'nx'), 6);
  // max of the matrix's keys as a tree (a chain would serialise KP4 − 1 dependent maxes)
  let level = Array.from({ length: Q }, (_, q) => `keys[kb + ${q}u]`);
  const KEYMAX: string[] = [];
  let tmp = 0;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      if (i + 1 === level.length) { next.push(level[i]); continue; }
      KEYMAX.push(ind(6) + `let km${tmp} = max(${level[i]}, ${level[i + 1]});`);
      next.push(`km${tmp++}`);
    }
    level = next;
  }
  KEYMAX.push(ind(6) + `let km = ${level[0]};`);
  const LOAD_C = cs.map((c) => ind(4) + `x${c} = ${at('me', NB + c)};`);
  const SWEEP = cs.map((c) => ind(6) + `x${c} = fma(-u, ${at('xj', NB + c)}, x${c});`);
  const FINISH = cs.map((c) => ind(6) + `x${c} = x${c} / d; ${at('me', NB + c)} = x${c};`);
  const STORE_X = cs.map((c) => ind(4) + `X[xb + ${c}u] = select(x${c}, nan_f32(), failed);`);
  const LOAD_Y = rs.map((mm) => ind(4) + `r${mm} = rows[u32(max(jb - ${mm}i * i32(W4), 0)) + col4][col % 4u];`);
  const j = (a: string[]) => a.join('\n');
  return {
    DECL, LOAD: j(LOAD), LOADB: j(LOADB), KEYMAX: j(KEYMAX), STORE_ROW: j(STORE_ROW), UPDATE: j(UPDATE),
    LOAD_C: j(LOAD_C), SWEEP: j(SWEEP), FINISH: j(FINISH), STORE_X: j(STORE_X), BSWEEP: j(BSWEEP), LOAD_Y: j(LOAD_Y),
  };
}

const REG_UNIFORMS = { count: 'u32', use_b: 'u32' } as const;
/** The bindings of each mode of lu_reg.wgsl; A is read as vec4s when n % 4 == 0. */
const regDecls = (AT: 'vec4f' | 'f32') => ({
  FACTOR: { inputs: { A: AT }, outputs: { LU: 'f32', PIV: 'i32', INFO: 'i32' }, uniforms: REG_UNIFORMS },
  INV: { inputs: { A: AT }, outputs: { X: 'f32', INFO: 'i32' }, uniforms: REG_UNIFORMS },
  SOLVE: { inputs: { A: AT, B: 'f32', bmap: 'i32' }, outputs: { X: 'f32', INFO: 'i32' }, uniforms: REG_UNIFORMS },
}) as const satisfies Record<RegMode, ProgramDecl>;
type RegDecls = ReturnType<typeof regDecls>;

/** The register kernel for (mode, n, R) with `wg` threads per group (cached under a short key). */
export function luRegProgram<M extends RegMode>(mode: M, n: number, R: number, wg = LU_KERNEL_DEFAULT.wg): GpuProgram<RegDecls[M]> {
  const key = `${mode},n=${n},R=${R},WG=${wg}`;
  return cachedProgram(`lu_reg|${key}`, () => {
    const { G, NB, rhs, W4, KP4, bytes } = regLayout(mode, n, R, wg);
    const vecLoad = n % 4 === 0;
    const entry = { FACTOR: 'lu_reg_factor', SOLVE: 'lu_reg_solve', INV: 'lu_reg_inv' }[mode];
    const defs = {
      N: n, G, WG: wg, W4, KP4, R: rhs, NB4: NB / 4, ENTRY: entry, AT: vecLoad ? 'vec4f' : 'f32',
      ROWS4: G * n * W4, KEYS4: 2 * G * KP4, LMUL: G * n * n, GN: G * n,
      MODE_FACTOR: mode === 'FACTOR', MODE_SOLVE: mode === 'SOLVE', MODE_INV: mode === 'INV', HAS_B: mode !== 'FACTOR',
      ...luRegParts(n, rhs, vecLoad, mode === 'INV'),
    };
    return {
      name: entry, key, entryPoint: `${entry}_f32`, workgroupSize: [wg, 1, 1] as [number, number, number], workgroupBytes: bytes,
      decl: regDecls(vecLoad ? 'vec4f' : 'f32')[mode], body: () => loadShader('lu/lu_reg.wgsl', defs),
    };
  });
}

/** Workgroups of the register kernel for `count` matrices of order n. */
function regGroups(n: number, count: number, wg: number): number {
  return Math.ceil(count / Math.max(1, Math.floor(wg / n)));
}

function checkN(A: Tensor, who: string): number {
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  if (n > LU_MAX_N) {
    throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}; the GPU kernels take n ≤ ${LU_MAX_N}; move larger matrices to the CPU`);
  }
  return n;
}

function luUniforms(count: number, nrhs: number, useA: boolean, useB: boolean, adjoint: boolean) {
  return { count, nrhs, use_a: useA ? 1 : 0, use_b: useB ? 1 : 0, adjoint: adjoint ? 1 : 0 };
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

/** luFactor through the blocked LU: A copied into LU, factored in place; NaN spreads as on the CPU. */
function luFactorBlockedTensor(A: Tensor, dtype: 'float32' | 'complex64', blocks: Partial<LuBlockParams>, who: string) {
  const m = A.rows, n = A.cols, batch = A.shape.slice(0, -2);
  const count = batchCount(A);
  const LU = emptyGpu(dtype, A.shape, who);
  const pivots = emptyGpu('int32', [...batch, Math.min(m, n)], who);
  const info = infoTensor(batch, who);
  if (count === 0) return { LU, pivots, info };
  if (A.byteLength > 0) {
    commandEncoder(who).copyBufferToBuffer(bufferOf(A.gpuStorage()), 0, bufferOf(LU.gpuStorage()), 0, A.byteLength);
    recordedCommand();
  }
  luFactorBlockedGpu(who, {
    dtype, m, n, batch: count, A: LU.gpuStorage(), piv: pivots.gpuStorage(), info: info.gpuStorage(), ...blocks, nonfinite: 'propagate',
  });
  return { LU, pivots, info };
}

/**
 * LU = P·A's factors, pivots and info; `kernel` picks the register or workgroup-memory
 * kernel of square n ≤ 64; larger and rectangular matrices take the blocked LU
 * (lu_blocked.ts) with block sizes `blocks` (defaults for a large GPU).
 */
export function luFactorGpu(A: Tensor, kernel: Readonly<LuKernel> = LU_KERNEL_DEFAULT, blocks: Partial<LuBlockParams> = {}): { LU: Tensor; pivots: Tensor<'int32'>; info: Tensor<'int32'> } {
  const who = 'luFactor';
  const dtype = gpuFloatDType(A, who, 'A');
  if (A.rows !== A.cols || A.cols > LU_MAX_N) return luFactorBlockedTensor(A, dtype, blocks, who);
  const n = checkN(A, who);
  const count = batchCount(A);
  const LU = emptyGpu(dtype, A.shape, who);
  const pivots = emptyGpu('int32', [...A.shape.slice(0, -2), n], who);
  if (n === 0) return { LU, pivots, info: zeroInfo(A.shape.slice(0, -2)) };
  const info = infoTensor(A.shape.slice(0, -2), who);
  if (count === 0) return { LU, pivots, info };
  checkIndexRange(count * n * n * floatsPer(dtype), who);
  const outputs = { LU: LU.gpuStorage(), PIV: pivots.gpuStorage(), INFO: info.gpuStorage() };
  if (useLuReg(dtype, n, 1, kernel) && regFits('FACTOR', n, 0, kernel.wg)) {
    runProgram(luRegProgram('FACTOR', n, 0, kernel.wg), {
      inputs: { A: A.gpuStorage() }, outputs,
      uniforms: { count, use_b: 0 },
      workgroups: regGroups(n, count, kernel.wg),
    });
    return { LU, pivots, info };
  }
  runProgram(luProgram('FACTOR', dtype, n, 1, luAGlobal(dtype, n, 1, who)), {
    inputs: { A: A.gpuStorage() }, outputs,
    uniforms: luUniforms(count, 0, false, false, false), workgroups: count,
  });
  return { LU, pivots, info };
}

function luSolveGpu(LU: Tensor, pivots: Tensor<'int32'>, B: Tensor, plan: BatchPlan, adjoint: boolean): Tensor {
  const who = 'luSolve';
  const dtype = gpuFloatDType(LU, who, 'LU');
  gpuFloatDType(B, who, 'B');
  if (LU.rows === LU.cols && LU.cols > LU_MAX_N) return luSolveBlockedGpu(LU, pivots, B, plan, adjoint);
  const n = checkN(LU, who);
  const nrhs = B.cols;
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  if (plan.count === 0 || n === 0 || nrhs === 0) return X;
  checkIndexRange(Math.max(plan.count, plan.bCount) * n * nrhs * floatsPer(dtype) + plan.aCount * n * n * floatsPer(dtype), who);
  const aGlobal = luAGlobal(dtype, n, nrhs, who);
  const amap = uploadIndex(plan.aIdx, who);
  const bmap = uploadIndex(plan.bIdx, who);
  const a = amap ?? dummyIndex(who);
  const b = bmap ?? dummyIndex(who);
  const W = scratch(aGlobal, dtype, plan.aCount, n, who);
  // (first bad pivot index + 1, its value) per output matrix, read when X is
  const status = emptyGpu('int32', [plan.count, 2], who);
  runProgram(luProgram('LUSOLVE', dtype, n, nrhs, aGlobal), {
    inputs: { A: LU.gpuStorage(), PIVIN: pivots.gpuStorage(), B: B.gpuStorage(), amap: a.gpuStorage(), bmap: b.gpuStorage() },
    outputs: { X: X.gpuStorage(), W: W.gpuStorage(), STATUS: status.gpuStorage() },
    uniforms: luUniforms(plan.count, nrhs, amap !== null, bmap !== null, adjoint), workgroups: plan.count,
  });
  for (const t of [a, b, W]) t.dispose();
  const batched = plan.batchShape.length > 0;
  X.setCheck(async () => {
    const s = await status.data();
    status.dispose();
    for (let m = 0; m < plan.count; m++) {
      if (s[2 * m] !== 0) {
        // an ArgumentError as on the CPU (luSolve's check); the matrix's X is NaN
        throw new ArgumentError(`${who}: pivots must be in 1..${n}, found ${s[2 * m + 1]} (pivots[${s[2 * m] - 1}]${batched ? ` of batch element ${m}` : ''})`);
      }
    }
  });
  return X;
}

/** X = A⁻¹·B and info; `kernel` picks the register or workgroup-memory kernel. */
export function solveGpu(A: Tensor, B: Tensor, plan: BatchPlan, kernel: Readonly<LuKernel> = LU_KERNEL_DEFAULT): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'solve';
  const dtype = gpuFloatDType(A, who, 'A');
  gpuFloatDType(B, who, 'B');
  if (A.rows === A.cols && A.cols > LU_MAX_N) return solveBlockedGpu(A, B, plan);
  const n = checkN(A, who);
  const nrhs = B.cols;
  if (plan.aIdx !== null || plan.aCount !== plan.count) {
    // A is broadcast: factor each distinct A once, then solve every output against its factor.
    const { LU, pivots, info } = luFactorGpu(A, kernel);
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
  const bmap = uploadIndex(plan.bIdx, who);
  const b = bmap ?? dummyIndex(who);
  const inputs = { A: A.gpuStorage(), B: B.gpuStorage(), bmap: b.gpuStorage() };
  if (useLuReg(dtype, n, nrhs, kernel) && regFits('SOLVE', n, nrhs, kernel.wg)) {
    runProgram(luRegProgram('SOLVE', n, nrhs, kernel.wg), {
      inputs, outputs: { X: X.gpuStorage(), INFO: info.gpuStorage() },
      uniforms: { count: plan.count, use_b: bmap !== null ? 1 : 0 },
      workgroups: regGroups(n, plan.count, kernel.wg),
    });
    b.dispose();
    return { X, info };
  }
  const aGlobal = luAGlobal(dtype, n, nrhs, who);
  const W = scratch(aGlobal, dtype, plan.count, n, who);
  runProgram(luProgram('SOLVE', dtype, n, nrhs, aGlobal), {
    inputs, outputs: { X: X.gpuStorage(), INFO: info.gpuStorage(), W: W.gpuStorage() },
    uniforms: luUniforms(plan.count, nrhs, false, bmap !== null, false), workgroups: plan.count,
  });
  b.dispose();
  W.dispose();
  return { X, info };
}

/** The info gather of a broadcast solve (shaders/lu/gather.wgsl). */
export function gatherProgram() {
  return smallProgram('gather_i32', 'lu/gather.wgsl', 'gather', 'int32', 64, {},
    { inputs: { src: 'i32', map: 'i32' }, outputs: { dst: 'i32' }, uniforms: { count: 'u32' } });
}

/** info of the broadcast batch from info of A's batch (a gather through a 1-column LU solve would be overkill). */
function gatherInfo(info: Tensor<'int32'>, plan: BatchPlan, who: string): Tensor<'int32'> {
  const out = infoTensor(plan.batchShape, who);
  const idx = uploadIndex(plan.aIdx, who)!;
  runProgram(gatherProgram(), {
    inputs: { src: info.gpuStorage(), map: idx.gpuStorage() }, outputs: { dst: out.gpuStorage() },
    uniforms: { count: plan.count }, workgroups: Math.ceil(plan.count / 64),
  });
  idx.dispose();
  info.dispose();
  return out;
}

/**
 * A⁻¹ for 4 < n ≤ 64 (LU with B = I; the register kernel for float32 n ≤ 32), used by
 * inv.ts; `kernel` picks the register or workgroup-memory kernel.
 */
export function invLuGpu(A: Tensor, kernel: Readonly<LuKernel> = LU_KERNEL_DEFAULT): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'inv';
  const dtype = gpuFloatDType(A, who, 'A');
  const n = checkN(A, who);
  const count = batchCount(A);
  const X = emptyGpu(dtype, A.shape, who);
  const info = infoTensor(A.shape.slice(0, -2), who);
  if (count === 0) return { X, info };
  checkIndexRange(count * n * n * floatsPer(dtype), who);
  if (kernel.registers && dtype === 'float32' && n <= LU_REG_MAX_N && regFits('INV', n, n, kernel.wg)) {
    runProgram(luRegProgram('INV', n, n, kernel.wg), {
      inputs: { A: A.gpuStorage() }, outputs: { X: X.gpuStorage(), INFO: info.gpuStorage() },
      uniforms: { count, use_b: 0 },
      workgroups: regGroups(n, count, kernel.wg),
    });
    return { X, info };
  }
  const aGlobal = luAGlobal(dtype, n, n, who);
  const W = scratch(aGlobal, dtype, count, n, who);
  runProgram(luProgram('INV', dtype, n, n, aGlobal), {
    inputs: { A: A.gpuStorage() }, outputs: { X: X.gpuStorage(), INFO: info.gpuStorage(), W: W.gpuStorage() },
    uniforms: luUniforms(count, n, false, false, false), workgroups: count,
  });
  W.dispose();
  return { X, info };
}

export function registerLuGpu(): void {
  register('luFactor', ['float32', 'complex64'], 'gpu', (A) => luFactorGpu(A));
  register('luSolve', ['float32', 'complex64'], 'gpu', luSolveGpu);
  register('solve', ['float32', 'complex64'], 'gpu', (A, B, plan) => solveGpu(A, B, plan));
}
