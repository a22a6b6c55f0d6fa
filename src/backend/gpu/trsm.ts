// GPU batched triangular solve (left side). Unit lower float32 systems of n = 16/32/64
// with ≥ 8 right-hand sides, the Gated DeltaNet chunk shape, take the four-columns-per-
// thread kernel shaders/trsm/trsm_unit_lower_v4.wgsl (RHS counts that are multiples of 4)
// or the column-per-thread one, shaders/trsm/trsm_unit_lower.wgsl; everything else the
// general substitution kernel shaders/trsm/trsm.wgsl up to n = TRSM_BLOCKED_FROM, the blocked
// solve (trsmBlockedGpu: shaders/trsm/trsm_step.wgsl, trsm_blocked.wgsl) above. All compute the same function.
import type { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader, dtypeDefines } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { smallProgram, gpuFloatDType, floatsPer, uploadIndex, dummyIndex, checkIndexRange, infoTensor } from './small.js';
import { zeroInfo } from './lu.js';
import { gpuLimits } from './device.js';
import { bufferOf } from './pool.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { gemmGpu, type GemmOperand } from './gemm.js';
import type { GpuStorage } from '../../core/tensor.js';

/** Largest n the general kernel takes (one workgroup per system); the blocked solve takes any n. */
export const TRSM_MAX_N = 1024;

/**
 * n from which `solveTriangular` takes the blocked solve instead of the one-workgroup-per-system
 * kernel (whose n sequential barrier steps dominate past a few hundred rows).
 */
export const TRSM_BLOCKED_FROM = 128;

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
}

/**
 * One thread per RHS column: KC = the RHS count rounded up to a power of two in [8, 64];
 * tasks are packed G to a workgroup up to `wgTarget` threads. No workgroup memory: L is
 * read from A (a task's threads read the same address: L1 broadcasts) and X_J back from
 * the thread's own column of X (docs/decisions.md, "GPU kernels", has the timings).
 */
export function unitLowerPlan(n: number, nrhs: number, wgTarget = 64): UnitLowerPlan {
  const KC = Math.min(64, Math.max(8, pow2ceil(nrhs)));
  const G = Math.max(1, Math.floor(wgTarget / KC));
  return { KC, G, WG: G * KC };
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
    '      let xr = (m * N + J * 16u) * nrhs + col;',
    ...[0, 1, 2, 3].map((q) => `      let x${q} = vec4f(${[0, 1, 2, 3].map((k) => `X[xr + ${4 * q + k}u * nrhs]`).join(', ')});`),
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
  const STORE = r16.map((r) => `    X[xb + ${r}u * nrhs] = a${r};`).join('\n');
  return { LOADB, UPDATE, TRIANGLE: tri.join('\n'), STORE };
}

/**
 * The generated parts of the four-columns-per-thread kernel (trsm_unit_lower_v4.wgsl):
 * acc r (rows 16·I + r, four columns) is `a<r>`; the update by block J loads X_J four rows
 * at a time and applies each L vec4 (one row, four columns of block J) to them.
 */
export function unitLowerBodyV4(): Record<string, string> {
  const lane = ['x', 'y', 'z', 'w'];
  const r16 = Array.from({ length: 16 }, (_, r) => r);
  const LOADB = r16.map((r) => `    var a${r} = B[bb + ${r}u * CV];`).join('\n');
  const UPDATE: string[] = [];
  for (let q = 0; q < 4; q++) {
    UPDATE.push(`      { ${[0, 1, 2, 3].map((k) => `let x${k} = X[xr + ${4 * q + k}u * CV];`).join(' ')}`);
    for (const r of r16) {
      UPDATE.push(`        { let l = A[lb + (I * 16u + ${r}u) * Q + J * 4u + ${q}u]; ` +
        `a${r} = fma(vec4f(-l.x), x0, fma(vec4f(-l.y), x1, fma(vec4f(-l.z), x2, fma(vec4f(-l.w), x3, a${r})))); }`);
    }
    UPDATE.push('      }');
  }
  const tri: string[] = [];
  for (let r = 1; r < 16; r++) {
    tri.push(`    { let row = lb + (I * 16u + ${r}u) * Q + I * 4u;`);
    for (let q = 0; 4 * q < r; q++) {
      tri.push(`      { let l = A[row + ${q}u];`);
      for (let k = 0; k < 4 && 4 * q + k < r; k++) tri.push(`        a${r} = fma(vec4f(-l.${lane[k]}), a${4 * q + k}, a${r});`);
      tri.push('      }');
    }
    tri.push('    }');
  }
  const STORE = r16.map((r) => `    X[xb + ${r}u * CV] = a${r};`).join('\n');
  return { LOADB, UPDATE: UPDATE.join('\n'), TRIANGLE: tri.join('\n'), STORE };
}

const TRSM_MAPS = { amap: 'i32', bmap: 'i32' } as const;
const TRSM_UNIFORMS = { count: 'u32', nrhs: 'u32', use_a: 'u32', use_b: 'u32' } as const;

/** The unit-lower kernel with four columns per thread for n (16, 32, 64) and workgroup size wg. */
export function unitLowerV4Program(n: number, wg = 64) {
  const key = `n=${n},WG=${wg}`;
  return cachedProgram(`trsm_unit_lower_v4|${key}`, () => {
    const defs = { ...dtypeDefines('float32'), N: n, WG: wg, ...unitLowerBodyV4() };
    return {
      name: 'trsm_unit_lower_v4', key, entryPoint: 'trsm_unit_lower_v4_f32', workgroupSize: [wg, 1, 1] as [number, number, number],
      decl: {
        inputs: { A: 'vec4f', B: 'vec4f', ...TRSM_MAPS }, outputs: { X: 'vec4f' },
        uniforms: { ...TRSM_UNIFORMS, cv: 'u32', tasks: 'u32' },
      } as const,
      body: () => loadShader('trsm/trsm_unit_lower_v4.wgsl', defs),
    };
  });
}

/** The column-per-thread unit-lower kernel for n and a plan (cached under a short key: the generated body is ~100 KB for n = 64). */
export function unitLowerProgram(n: number, L: UnitLowerPlan) {
  const key = `n=${n},KC=${L.KC},G=${L.G}`;
  return cachedProgram(`trsm_unit_lower|${key}`, () => {
    const defs = { ...dtypeDefines('float32'), N: n, KC: L.KC, G: L.G, WG: L.WG, ...unitLowerBody() };
    return {
      name: 'trsm_unit_lower', key, entryPoint: 'trsm_unit_lower_f32', workgroupSize: [L.WG, 1, 1] as [number, number, number],
      decl: {
        inputs: { A: 'vec4f', B: 'f32', ...TRSM_MAPS }, outputs: { X: 'f32' },
        uniforms: { ...TRSM_UNIFORMS, cblocks: 'u32', tasks: 'u32' },
      } as const,
      body: () => loadShader('trsm/trsm_unit_lower.wgsl', defs),
    };
  });
}

/** The general substitution kernel (shaders/trsm/trsm.wgsl) for n and the RHS count. */
export function trsmProgram(dtype: 'float32' | 'complex64', n: number, nrhs: number) {
  const F = floatsPer(dtype);
  const MAXN = Math.max(16, pow2ceil(n));
  let RC = 1;
  while (RC < 16 && RC < nrhs && MAXN * 2 * RC * F * 4 <= 16384) RC *= 2;
  return smallProgram('trsm', 'trsm/trsm.wgsl', 'trsm', dtype, 256, { MAXN, RC, NRC: MAXN * RC }, {
    inputs: { A: 'f32', B: 'f32', ...TRSM_MAPS }, outputs: { X: 'f32' },
    uniforms: { ...TRSM_UNIFORMS, n: 'u32', upper: 'u32', unit: 'u32' },
  });
}

/** trtrs's diagonal scan (shaders/trsm/trsm_diag.wgsl). */
export function trsmDiagProgram(dtype: 'float32' | 'complex64') {
  return smallProgram('trsm_diag', 'trsm/trsm_diag.wgsl', 'trsm_diag', dtype, 64, { FLOATS: floatsPer(dtype) }, {
    inputs: { A: 'f32', amap: 'i32' }, outputs: { X: 'f32', info: 'i32' },
    uniforms: { count: 'u32', n: 'u32', nrhs: 'u32', use_a: 'u32' },
  });
}

// ---------------------------------------------------------------- blocked solve (any n)

/** Arguments of `trsmBlockedGpu`: op(A)·X = B, left side, in place in B over the batch. */
export interface TrsmArgs {
  dtype: 'float32' | 'complex64'; n: number; nrhs: number; batch: number;
  /** n×n triangle (only the named triangle read; stride 0: one A for every member). */
  A: GemmOperand;
  /** n×nrhs right-hand sides, overwritten by X. */
  B: GemmOperand;
  upper: boolean; unit: boolean; op: 'N' | 'T' | 'C';
  /** Block size (tests use small ones). */
  nb?: number;
  /** Columns of B per workgroup of the look-ahead and GEMM paths' kernel (4, 8, 16 or 32). */
  bc?: number;
  /** Sub-block of the diagonal solve in the look-ahead and GEMM paths' kernel. */
  sb?: number;
  /** Rows per update tile of the 'fused' path (32, 64 or 128). */
  bm?: number;
  /**
   * 'lookahead': one dispatch per block, the next block solved by one workgroup per column tile
   * while the others update the rest; 'fused': one dispatch per block, every workgroup solving
   * the block again for itself; 'gemm': the block's solve, then the update through gemmGpu.
   * Default: 'lookahead' below TRSM_BLOCKED_DEFAULT.gemmFrom right-hand sides, 'gemm' from there.
   */
  path?: 'lookahead' | 'fused' | 'gemm';
  /** 'fused' path: stage the diagonal block in workgroup memory (default: when it fits the device). */
  stageDiag?: boolean;
  /** 'fused' path: load an update tile's whole M_r,blk up front (default: when it fits after the diagonal block). */
  stageTile?: boolean;
}

/**
 * Defaults for a large GPU. Below `gemmFrom` right-hand sides the solve is a chain of n/nb
 * dependent dispatches, so the look-ahead path with large blocks (nb, bc columns per workgroup);
 * from there the updates are GEMMs of k = gemmNb, large enough for gemmGpu's big tiles, and
 * the block solves take gemmBc columns per workgroup. `bm`: the 'fused' path's update tile.
 */
export const TRSM_BLOCKED_DEFAULT = { nb: 128, bc: 8, sb: 16, bm: 64, fusedNb: 32, gemmNb: 128, gemmBc: 32, gemmFrom: 256 } as const;

const BLOCKED_WG = 256;
const BLOCKED_KC = 16;

/** What the step kernel keeps in workgroup memory besides the solved block's columns. */
export interface TrsmBlockedShape {
  /** Columns of B per workgroup. */
  bc: number;
  /** The diagonal block staged (the substitution's nb steps then read no global memory). */
  diagSmem: boolean;
  /** The update tile's whole M_r,blk loaded up front (else KC-deep chunks, a barrier pair each). */
  msFull: boolean;
}

/**
 * The kernel shape for a device's workgroup memory: the diagonal block staged if it fits
 * with any column count, then the whole M tile, then the widest column tile (up to 32, fewer
 * for few RHS); `stage` and `stageTile` force those choices.
 */
export function trsmBlockedShape(
  dtype: 'float32' | 'complex64', nb: number, nrhs: number, bm: number, limitBytes: number, stage?: boolean, stageTile?: boolean,
): TrsmBlockedShape {
  const top = Math.min(32, Math.max(8, pow2ceil(nrhs)));
  for (const diagSmem of stage === undefined ? [true, false] : [stage]) {
    for (const msFull of stageTile === undefined ? [true, false] : [stageTile]) {
      for (let bc = top; bc >= 8; bc /= 2) {
        const sh = { bc, diagSmem, msFull };
        if (trsmBlockedBytes(dtype, nb, bm, sh) <= limitBytes) return sh;
      }
    }
  }
  const least = trsmBlockedBytes(dtype, nb, bm, { bc: 8, diagSmem: stage ?? false, msFull: stageTile ?? false });
  throw new ArgumentError(`trsm: block size ${nb} needs ${least} bytes of workgroup memory; the device allows ${limitBytes}`);
}

const depthOf = (nb: number, msFull: boolean) => (msFull ? nb : Math.min(BLOCKED_KC, nb));

function trsmBlockedBytes(dtype: string, nb: number, bm: number, sh: TrsmBlockedShape): number {
  const kc = depthOf(nb, sh.msFull);
  const nbp = Math.ceil(nb / kc) * kc;
  return (nbp * sh.bc + bm * kc + (sh.diagSmem ? nb * nb : 0)) * 4 * floatsPer(dtype);
}

/**
 * The step kernel (shaders/trsm/trsm_blocked.wgsl) for a dtype, block size nb, BM rows and a
 * shape (TrsmBlockedShape); sameBuf: A is read from B's buffer.
 */
export function trsmBlockedProgram(dtype: 'float32' | 'complex64', nb: number, bm: number, sh: TrsmBlockedShape, sameBuf: boolean) {
  const { bc, diagSmem, msFull } = sh;
  const kc = depthOf(nb, msFull);
  const nbp = Math.ceil(nb / kc) * kc;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  const key = `${dtype}|nb${nb}|bc${bc}|bm${bm}|kc${kc}|same${+sameBuf}|ds${+diagSmem}|full${+msFull}`;
  const uniforms = {
    count: 'u32', per: 'u32', nct: 'u32', nrt: 'u32', blk: 'u32', fin: 'u32', n: 'u32', nrhs: 'u32',
    r0: 'u32', r1: 'u32', aoff: 'u32', ars: 'u32', acs: 'u32', astr: 'u32', boff: 'u32', bld: 'u32', bstr: 'u32',
    conj: 'u32', unit: 'u32', lower: 'u32',
  } as const;
  const defs = {
    ...dtypeDefines(dtype), NB: nb, NBP: nbp, BC: bc, BM: bm, KC: kc, WG: BLOCKED_WG, NBPBC: nbp * bc, BMKC: bm * kc,
    TM: bm / (BLOCKED_WG / bc), SAME_BUF: sameBuf, DIAG_SMEM: diagSmem, MS_FULL: msFull, NBNB: nb * nb,
  };
  const spec = (decl: { inputs: Record<string, typeof T>; outputs: { B: typeof T }; uniforms: typeof uniforms }) => ({
    name: 'trsm_blocked', key, entryPoint: `trsm_blocked_${dtype === 'complex64' ? 'c64' : 'f32'}`, workgroupSize: [BLOCKED_WG, 1, 1] as [number, number, number],
    workgroupBytes: trsmBlockedBytes(dtype, nb, bm, sh), decl,
    body: () => loadShader('trsm/trsm_blocked.wgsl', defs),
  });
  return sameBuf
    ? cachedProgram(`trsm_blocked|${key}`, () => spec({ inputs: {}, outputs: { B: T }, uniforms }))
    : cachedProgram(`trsm_blocked|${key}`, () => spec({ inputs: { A: T }, outputs: { B: T }, uniforms }));
}

/** The matrix copy through a batch map (shaders/trsm/trsm_copy.wgsl), on f32 words. */
export function trsmCopyProgram() {
  return smallProgram('trsm_copy', 'trsm/trsm_copy.wgsl', 'trsm_copy', 'float32', 256, {}, {
    inputs: { src: 'f32', map: 'i32' }, outputs: { dst: 'f32' }, uniforms: { total: 'u32', len: 'u32' },
  });
}

/** What the look-ahead step kernel (shaders/trsm/trsm_step.wgsl) is compiled for. */
export interface TrsmStepShape {
  nb: number;
  /** Columns of B per workgroup. */
  bc: number;
  /** Depth of an update's staged M and X chunks. */
  kc: number;
  /** Sub-block of the diagonal solve. */
  sb: number;
}

function trsmStepBytes(dtype: string, sh: TrsmStepShape): number {
  // ms holds an update's NB × KC chunk of M, then the solve's NB × SB panels
  return (sh.nb * sh.bc + sh.nb * Math.max(sh.kc, sh.sb) + sh.kc * sh.bc) * 4 * floatsPer(dtype);
}

/** The step kernel's shape: bc columns (at most the RHS count rounded up to a power of two ≥ 4), the deepest chunk (32, 16, 8, 4) that fits the device, then narrower column tiles, then sub-blocks of 8. */
export function trsmStepShape(dtype: 'float32' | 'complex64', nb: number, bc: number, sb: number, nrhs: number, limitBytes: number): TrsmStepShape {
  const s = Math.min(sb, nb);
  for (const sbv of new Set([s, Math.min(s, 8)])) {
    for (let b = Math.min(bc, Math.max(4, pow2ceil(nrhs))); b >= 4; b /= 2) {
      for (const kc of [32, 16, 8, 4]) {
        const sh = { nb, bc: b, kc: Math.min(kc, pow2ceil(nb)), sb: sbv };
        if (trsmStepBytes(dtype, sh) <= limitBytes) return sh;
      }
    }
  }
  const least = trsmStepBytes(dtype, { nb, bc: 4, kc: 4, sb: Math.min(s, 8) });
  throw new ArgumentError(`trsm: block size ${nb} needs ${least} bytes of workgroup memory; the device allows ${limitBytes}`);
}

/** The look-ahead step kernel (shaders/trsm/trsm_step.wgsl) for a dtype and shape; sameBuf: A is read from B's buffer. */
export function trsmStepProgram(dtype: 'float32' | 'complex64', sh: TrsmStepShape, sameBuf: boolean) {
  const { nb, bc, kc, sb } = sh;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  const tm = Math.max(1, Math.ceil(nb / (BLOCKED_WG / bc)));
  const key = `${dtype}|nb${nb}|bc${bc}|kc${kc}|sb${sb}|same${+sameBuf}`;
  const uniforms = {
    count: 'u32', per: 'u32', nct: 'u32', nrt: 'u32', sblk: 'u32', ublk: 'u32', n: 'u32', nrhs: 'u32',
    r0: 'u32', r1: 'u32', aoff: 'u32', ars: 'u32', acs: 'u32', astr: 'u32', boff: 'u32', bld: 'u32', bstr: 'u32',
    conj: 'u32', unit: 'u32', lower: 'u32',
  } as const;
  const defs = {
    ...dtypeDefines(dtype), NB: nb, BC: bc, KC: kc, SB: sb, WG: BLOCKED_WG, TM: tm,
    NBBC: nb * bc, NBKC: nb * Math.max(kc, sb), KCBC: kc * bc, SAME_BUF: sameBuf,
  };
  const spec = (decl: { inputs: Record<string, typeof T>; outputs: { B: typeof T }; uniforms: typeof uniforms }) => ({
    name: 'trsm_step', key, entryPoint: `trsm_step_${dtype === 'complex64' ? 'c64' : 'f32'}`, workgroupSize: [BLOCKED_WG, 1, 1] as [number, number, number],
    workgroupBytes: trsmStepBytes(dtype, sh), decl,
    body: () => loadShader('trsm/trsm_step.wgsl', defs),
  });
  return sameBuf
    ? cachedProgram(`trsm_step|${key}`, () => spec({ inputs: {}, outputs: { B: T }, uniforms }))
    : cachedProgram(`trsm_step|${key}`, () => spec({ inputs: { A: T }, outputs: { B: T }, uniforms }));
}

/** Dispatches `trsmBlockedGpu` records for a call (excluding the GEMM path's gemmGpu calls): for plans and tests. */
export function trsmBlockedDispatches(n: number, nb: number, path: 'lookahead' | 'fused' | 'gemm'): number {
  const nblk = Math.ceil(n / nb);
  return path === 'fused' ? nblk + 1 : nblk;
}

const isCount = (v: number) => Number.isInteger(v) && v >= 0;

/**
 * op(A)·X = B (left side) in place in B for every batch member, any n: M = op(A) is walked
 * by diagonal blocks of nb rows (from the top for lower M, from the bottom for upper).
 * Look-ahead path (default below gemmFrom right-hand sides; shaders/trsm/trsm_step.wgsl), one
 * dispatch per block: one workgroup per column tile applies the previous block's X to block s
 * and solves it (blocked substitution in workgroup memory), while the other workgroups apply
 * the previous block's X to the rows past block s in NB-row tiles (right-looking, so the
 * GEMM-shaped update spreads over many workgroups even for few right-hand sides): n/nb
 * dispatches in all, and no workgroup repeats another's serial work. Fused path
 * (shaders/trsm/trsm_blocked.wgsl): every workgroup solves the diagonal block for itself and
 * updates its BM-row tile; n/nb + 1 dispatches. GEMM path (many right-hand sides): per block,
 * the step kernel solves the block in place, then gemmGpu updates the rest. Every dispatch
 * covers the whole batch; all are recorded into the shared encoder.
 */
export function trsmBlockedGpu(who: string, args: TrsmArgs): void {
  const { dtype, n, nrhs, batch, A, B, upper, unit, op } = args;
  const def = TRSM_BLOCKED_DEFAULT;
  const path = args.path ?? (nrhs >= def.gemmFrom ? 'gemm' : 'lookahead');
  const nb = args.nb ?? (path === 'gemm' ? def.gemmNb : path === 'fused' ? def.fusedNb : def.nb);
  const bm = args.bm ?? def.bm;
  const bc = args.bc ?? (path === 'gemm' ? def.gemmBc : def.bc);
  const sb = args.sb ?? def.sb;
  if (path !== 'lookahead' && path !== 'fused' && path !== 'gemm') throw new ArgumentError(`${who}: trsm path ${String(path)} is not 'lookahead', 'fused' or 'gemm'`);
  if (dtype !== 'float32' && dtype !== 'complex64') throw new ArgumentError(`${who}: trsm dtype ${String(dtype)} is not float32 or complex64`);
  if (!isCount(n) || !isCount(nrhs) || !isCount(batch)) throw new ArgumentError(`${who}: trsm sizes n ${n}, nrhs ${nrhs}, batch ${batch} must be non-negative integers`);
  if (op !== 'N' && op !== 'T' && op !== 'C') throw new ArgumentError(`${who}: trsm op ${String(op)} is not 'N', 'T' or 'C'`);
  if (!Number.isInteger(nb) || nb < 1) throw new ArgumentError(`${who}: trsm block size ${nb} must be a positive integer`);
  if (bm !== 32 && bm !== 64 && bm !== 128) throw new ArgumentError(`${who}: trsm tile rows ${bm} must be 32, 64 or 128`);
  if (bc !== 4 && bc !== 8 && bc !== 16 && bc !== 32) throw new ArgumentError(`${who}: trsm column tile ${bc} must be 4, 8, 16 or 32`);
  if (!Number.isInteger(sb) || sb < 1 || sb > 64) throw new ArgumentError(`${who}: trsm sub-block ${sb} must be an integer in [1, 64]`);
  for (const [name, o, cols] of [['A', A, n], ['B', B, nrhs]] as const) {
    if (!isCount(o.offset) || !isCount(o.stride) || !Number.isInteger(o.ld) || o.ld < Math.max(1, cols)) {
      throw new ArgumentError(`${who}: trsm operand ${name} has offset ${o.offset}, ld ${o.ld}, stride ${o.stride} (ld must be ≥ ${cols})`);
    }
  }
  if (B.stride === 0 && batch > 1) throw new ArgumentError(`${who}: trsm B is overwritten, so its batch stride cannot be 0`);
  if (n === 0 || nrhs === 0 || batch === 0) return;
  // the block size stays nb for small n too: one compiled variant per (nb, BC), not one per n
  const limits = gpuLimits(who);
  const sameBuf = bufferOf(A.s) === bufferOf(B.s);
  const last = (o: GemmOperand, rows: number, cols: number) => o.offset + (batch - 1) * o.stride + (rows - 1) * o.ld + cols;
  checkIndexRange(Math.max(last(A, n, n), last(B, n, nrhs)), who);
  const lower = op === 'N' ? !upper : upper;
  const nblk = Math.ceil(n / nb);
  const base = {
    count: batch, n, nrhs, aoff: A.offset, ars: op === 'N' ? A.ld : 1, acs: op === 'N' ? 1 : A.ld, astr: A.stride,
    boff: B.offset, bld: B.ld, bstr: B.stride, conj: op === 'C' && dtype === 'complex64' ? 1 : 0, unit: unit ? 1 : 0, lower: lower ? 1 : 0,
  };
  const NONE = 0xffffffff;
  const blockAt = (s: number) => (lower ? s : nblk - 1 - s);
  // the rows past block blk in solve order
  const restOf = (blk: number) => (lower ? [Math.min(n, (blk + 1) * nb), n] : [0, blk * nb]);
  const inputs = (sameBuf ? {} : { A: A.s }) as { A: GpuStorage };
  if (path === 'gemm' || path === 'lookahead') {
    const shape = trsmStepShape(dtype, nb, bc, sb, nrhs, limits.maxComputeWorkgroupStorageSize);
    const prog = trsmStepProgram(dtype, shape, sameBuf);
    const nct = Math.ceil(nrhs / shape.bc);
    for (let s = 0; s < nblk; s++) {
      const blk = blockAt(s);
      const [r0, r1] = restOf(blk);
      if (path === 'gemm') {
        // the block's solve in place (one workgroup per member and column tile), then
        // B_rest -= M_rest,blk · X_blk as one GEMM over the batch
        runProgram(prog, {
          inputs, outputs: { B: B.s }, workgroups: batch * nct,
          uniforms: { ...base, nct, per: nct, nrt: 0, sblk: blk, ublk: NONE, r0: 0, r1: 0 },
        });
        if (r1 <= r0) continue;
        const k0 = blk * nb, kb = Math.min(nb, n - k0);
        gemmGpu(who, {
          dtype, m: r1 - r0, n: nrhs, k: kb, batch, alpha: -1, beta: 1, opA: op,
          // M_rest,blk is A[r0:r1, k0:k0+kb] (op N) or op(A[k0:k0+kb, r0:r1]) (T, C)
          A: { ...A, offset: A.offset + (op === 'N' ? r0 * A.ld + k0 : k0 * A.ld + r0) },
          B: { ...B, offset: B.offset + k0 * B.ld },
          C: { ...B, offset: B.offset + r0 * B.ld },
        });
        continue;
      }
      // step s: solve block s after applying X of block s−1 to it; the others apply X_{s−1} to the rest
      const ublk = s > 0 ? blockAt(s - 1) : NONE;
      const nrt = ublk === NONE ? 0 : Math.ceil((r1 - r0) / nb);
      const per = nct * (nrt + 1);
      checkIndexRange(batch * per, who);
      runProgram(prog, {
        inputs, outputs: { B: B.s }, workgroups: batch * per,
        uniforms: { ...base, nct, per, nrt, sblk: blk, ublk, r0, r1 },
      });
    }
    return;
  }
  const shape = trsmBlockedShape(dtype, nb, nrhs, bm, limits.maxComputeWorkgroupStorageSize, args.stageDiag, args.stageTile);
  const prog = trsmBlockedProgram(dtype, nb, bm, shape, sameBuf);
  const nct = Math.ceil(nrhs / shape.bc);
  for (let s = 0; s <= nblk; s++) {
    const blk = s < nblk ? blockAt(s) : NONE;
    const fin = s > 0 ? blockAt(s - 1) : NONE;
    // the rows still unsolved after block blk
    const [r0, r1] = blk === NONE ? [0, 0] : restOf(blk);
    const nrt = Math.ceil((r1 - r0) / bm);
    const per = nct * (nrt + (fin === NONE ? 0 : 1));
    if (per === 0) continue;
    checkIndexRange(batch * per, who);
    runProgram(prog, {
      inputs, outputs: { B: B.s }, workgroups: batch * per,
      uniforms: { ...base, nct, per, nrt, blk: blk === NONE ? 0 : blk, fin: fin === NONE ? 0 : fin, r0, r1 },
    });
  }
}

/** Copies `count` matrices of `len` f32 words from src (member map[m], or m) into dst (recorded). */
function copyMatrices(src: GpuStorage, dst: GpuStorage, map: Int32Array | null, count: number, len: number, who: string): void {
  if (count * len === 0) return;
  if (!map) {
    commandEncoder(who).copyBufferToBuffer(bufferOf(src), 0, bufferOf(dst), 0, count * len * 4);
    recordedCommand();
    return;
  }
  checkIndexRange(count * len, who);
  const m = uploadIndex(map, who)!;
  runProgram(trsmCopyProgram(), {
    inputs: { src, map: m.gpuStorage() }, outputs: { dst }, workgroups: Math.ceil(count * len / 256), uniforms: { total: count * len, len },
  });
  m.dispose();
}

/** The public solve through trsmBlockedGpu: X ← B (broadcast), A by stride (or gathered), then the blocked solve in X. */
function solveBlocked(A: Tensor, B: Tensor, X: Tensor, plan: BatchPlan, n: number, nrhs: number, dtype: 'float32' | 'complex64', upper: boolean, unit: boolean, nb: number | undefined, who: string): void {
  const F = floatsPer(dtype);
  copyMatrices(B.gpuStorage(), X.gpuStorage(), plan.bIdx, plan.count, n * nrhs * F, who);
  let aS = A.gpuStorage();
  let stride = n * n;
  let gathered: Tensor | undefined;
  if (plan.aIdx) {
    if (plan.aCount === 1) stride = 0;
    else {
      // a map that is no stride (e.g. A (3, 1, n, n) against B (1, 4, n, k)): gather A's members
      gathered = emptyGpu(dtype, [plan.count, n, n], who);
      copyMatrices(aS, gathered.gpuStorage(), plan.aIdx, plan.count, n * n * F, who);
      aS = gathered.gpuStorage();
    }
  }
  trsmBlockedGpu(who, {
    dtype, n, nrhs, batch: plan.count, upper, unit, op: 'N', nb,
    A: { s: aS, offset: 0, ld: n, stride }, B: { s: X.gpuStorage(), offset: 0, ld: nrhs, stride: n * nrhs },
  });
  gathered?.dispose();
}

export interface TrsmOptions {
  upper: boolean;
  unitriangular: boolean;
  /** Also return trtrs's status (ops.ts). */
  info?: boolean;
}

/**
 * Which kernel solves: 'auto' (what the shape takes: the four-columns-per-thread
 * unit-lower kernel for RHS counts that are multiples of 4, else the column-per-thread
 * one, on the fast-path shapes; the general kernel up to `blockedFrom`, the blocked solve
 * from there), or one named (tests compare them; the unit-lower kernels only on fast-path
 * shapes, the general kernel only up to TRSM_MAX_N).
 */
export type TrsmKernel = 'auto' | 'general' | 'unitLower' | 'unitLowerV4' | 'blocked';

/** Tunables of the public GPU solve: the n from which it is blocked, and the block size. */
export interface TrsmRouting {
  blockedFrom: number;
  nb?: number;
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
  runProgram(trsmDiagProgram(dtype), {
    inputs: { A: A.gpuStorage(), amap: a.gpuStorage() }, outputs: { X: X.gpuStorage(), info: info.gpuStorage() },
    workgroups: plan.count,
    uniforms: { count: plan.count, n, nrhs, use_a: amap ? 1 : 0 },
  });
  a.dispose();
  return info;
}

/** X = op(A)⁻¹·B (left side) and, with `opts.info`, trtrs's status; `kernel` as TrsmKernel. */
export function solveTriangularGpu(
  A: Tensor, B: Tensor, plan: BatchPlan, opts: TrsmOptions, kernel: TrsmKernel = 'auto',
  routing: TrsmRouting = { blockedFrom: TRSM_BLOCKED_FROM },
): { X: Tensor; info: Tensor<'int32'> | null } {
  const who = 'solveTriangular';
  const dtype = gpuFloatDType(A, who, 'A');
  gpuFloatDType(B, who, 'B');
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  const nrhs = B.cols;
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  // unit diagonal: never singular, and nothing runs for the status (the GDN path asks for none)
  const zero = (): Tensor<'int32'> | null => (opts.info ? zeroInfo(plan.batchShape) : null);
  if (plan.count === 0 || n === 0) return { X, info: zero() };
  if (nrhs === 0) return { X, info: opts.info && !opts.unitriangular ? diagInfo(A, X, plan, n, nrhs, dtype, who) : zero() };
  const F = floatsPer(dtype);
  checkIndexRange(Math.max(plan.count, plan.bCount) * n * nrhs * F + plan.aCount * n * n * F, who);
  const fast = trsmFastPath(dtype, n, nrhs, opts.upper, opts.unitriangular);
  const which = kernel !== 'auto' ? kernel
    : fast ? (nrhs % 4 === 0 ? 'unitLowerV4' : 'unitLower')
      : n >= routing.blockedFrom || n > TRSM_MAX_N ? 'blocked' : 'general';
  const takes = which === 'blocked' || (which === 'general' ? n <= TRSM_MAX_N : fast && (which === 'unitLower' || nrhs % 4 === 0));
  if (!takes) {
    throw new ArgumentError(`${who}: the ${which} kernel does not take this system (n ${n}, ${nrhs} right-hand sides, upper ${opts.upper}, unit ${opts.unitriangular})`);
  }
  if (which === 'blocked') {
    solveBlocked(A, B, X, plan, n, nrhs, dtype, opts.upper, opts.unitriangular, routing.nb, who);
    if (opts.info && !opts.unitriangular) return { X, info: diagInfo(A, X, plan, n, nrhs, dtype, who) };
    return { X, info: zero() };
  }
  const amap = uploadIndex(plan.aIdx, who);
  const bmap = uploadIndex(plan.bIdx, who);
  const a = amap ?? dummyIndex(who);
  const b = bmap ?? dummyIndex(who);
  const common = { count: plan.count, nrhs, use_a: amap ? 1 : 0, use_b: bmap ? 1 : 0 };
  const inputs = { A: A.gpuStorage(), B: B.gpuStorage(), amap: a.gpuStorage(), bmap: b.gpuStorage() };
  const outputs = { X: X.gpuStorage() };
  if (which === 'unitLowerV4') {
    const cv = nrhs / 4;
    const tasks = plan.count * cv;
    checkIndexRange(tasks, who);
    // 256-thread groups for n = 64, 64 for the smaller systems (H200 timings: docs/decisions.md)
    const wg = n === 64 ? 256 : 64;
    runProgram(unitLowerV4Program(n, wg), {
      inputs, outputs, workgroups: Math.ceil(tasks / wg), uniforms: { ...common, cv, tasks },
    });
  } else if (which === 'unitLower') {
    const L = unitLowerPlan(n, nrhs);
    const cblocks = Math.ceil(nrhs / L.KC);
    const tasks = plan.count * cblocks;
    checkIndexRange(tasks, who);
    runProgram(unitLowerProgram(n, L), {
      inputs, outputs, workgroups: Math.ceil(tasks / L.G), uniforms: { ...common, cblocks, tasks },
    });
  } else {
    runProgram(trsmProgram(dtype, n, nrhs), {
      inputs, outputs, workgroups: plan.count,
      uniforms: { ...common, n, upper: opts.upper ? 1 : 0, unit: opts.unitriangular ? 1 : 0 },
    });
  }
  a.dispose();
  b.dispose();
  if (opts.info && !opts.unitriangular) return { X, info: diagInfo(A, X, plan, n, nrhs, dtype, who) };
  return { X, info: zero() };
}

export function registerTrsmGpu(): void {
  register('solveTriangular', ['float32', 'complex64'], 'gpu', (A, B, plan, opts) => solveTriangularGpu(A, B, plan, opts));
}

