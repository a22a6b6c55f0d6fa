// GPU batched triangular solve (left side). Unit lower float32 systems of n = 16/32/64
// with ≥ 8 right-hand sides, the Gated DeltaNet chunk shape, take the four-columns-per-
// thread kernel shaders/trsm/trsm_unit_lower_v4.wgsl (RHS counts that are multiples of 4)
// or the column-per-thread one, shaders/trsm/trsm_unit_lower.wgsl; everything else the
// general substitution kernel shaders/trsm/trsm.wgsl up to n = TRSM_BLOCKED_FROM, the blocked
// solve (trsmBlockedGpu, shaders/trsm/trsm_blocked.wgsl) above. All compute the same function.
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
  /** Rows per update tile of the fused path (32, 64 or 128). */
  bm?: number;
  /** 'fused': one dispatch per block; 'gemm': the block's solve, then the update through gemmGpu. Default: by nrhs. */
  path?: 'fused' | 'gemm';
  /** Stage the diagonal block in workgroup memory (default: when it fits the device). */
  stageDiag?: boolean;
  /** Load an update tile's whole M_r,blk up front (default: when it fits after the diagonal block). */
  stageTile?: boolean;
}

/**
 * Defaults for a large GPU: the fused path (64-row blocks, 64-row update tiles) below
 * `gemmFrom` right-hand sides, where the whole solve is a chain of n/nb latency-bound steps;
 * from there the updates are GEMMs of k = gemmNb, large enough for gemmGpu's big tiles.
 */
export const TRSM_BLOCKED_DEFAULT = { nb: 64, bm: 64, gemmNb: 128, gemmFrom: 256 } as const;

/** The tunables in effect: TRSM_BLOCKED_DEFAULT, overridden (tuning runs) by LAPIS_TRSM_NB, _BM, _GEMM_NB, _GEMM_FROM, _BLOCKED_FROM, _STAGE (0/1). */
export function trsmBlockedDefaults(): { nb: number; bm: number; gemmNb: number; gemmFrom: number; blockedFrom: number; stageDiag?: boolean } {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : 0);
  const stage = env.LAPIS_TRSM_STAGE;
  return {
    nb: num(env.LAPIS_TRSM_NB) || TRSM_BLOCKED_DEFAULT.nb,
    bm: num(env.LAPIS_TRSM_BM) || TRSM_BLOCKED_DEFAULT.bm,
    gemmNb: num(env.LAPIS_TRSM_GEMM_NB) || TRSM_BLOCKED_DEFAULT.gemmNb,
    gemmFrom: num(env.LAPIS_TRSM_GEMM_FROM) || TRSM_BLOCKED_DEFAULT.gemmFrom,
    blockedFrom: num(env.LAPIS_TRSM_BLOCKED_FROM) || TRSM_BLOCKED_FROM,
    stageDiag: stage === '0' ? false : stage === '1' ? true : undefined,
  };
}

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

const isCount = (v: number) => Number.isInteger(v) && v >= 0;

/**
 * op(A)·X = B (left side) in place in B for every batch member, any n: M = op(A) is walked
 * by diagonal blocks of nb rows (from the top for lower M, from the bottom for upper).
 * Fused path, one dispatch per block (shaders/trsm/trsm_blocked.wgsl): every workgroup solves
 * the diagonal block for its BC columns by substitution in workgroup memory and subtracts
 * M_r,blk·X_blk from its BM-row tile of the rows still unsolved (right-looking, so the
 * GEMM-shaped update spreads over (n − solved)/BM × nrhs/BC workgroups even for few
 * right-hand sides); the solved block is written back by the next dispatch: n/nb + 1
 * dispatches in all. GEMM path (many right-hand sides): per block, the same kernel solves the
 * block in place, then gemmGpu updates the rest. Every dispatch covers the whole batch; all
 * are recorded into the shared encoder.
 */
export function trsmBlockedGpu(who: string, args: TrsmArgs): void {
  const { dtype, n, nrhs, batch, A, B, upper, unit, op } = args;
  const def = trsmBlockedDefaults();
  const path = args.path ?? (nrhs >= def.gemmFrom ? 'gemm' : 'fused');
  const nb = args.nb ?? (path === 'gemm' ? def.gemmNb : def.nb);
  const bm = args.bm ?? def.bm;
  if (path !== 'fused' && path !== 'gemm') throw new ArgumentError(`${who}: trsm path ${String(path)} is not 'fused' or 'gemm'`);
  if (dtype !== 'float32' && dtype !== 'complex64') throw new ArgumentError(`${who}: trsm dtype ${String(dtype)} is not float32 or complex64`);
  if (!isCount(n) || !isCount(nrhs) || !isCount(batch)) throw new ArgumentError(`${who}: trsm sizes n ${n}, nrhs ${nrhs}, batch ${batch} must be non-negative integers`);
  if (op !== 'N' && op !== 'T' && op !== 'C') throw new ArgumentError(`${who}: trsm op ${String(op)} is not 'N', 'T' or 'C'`);
  if (!Number.isInteger(nb) || nb < 1) throw new ArgumentError(`${who}: trsm block size ${nb} must be a positive integer`);
  if (bm !== 32 && bm !== 64 && bm !== 128) throw new ArgumentError(`${who}: trsm tile rows ${bm} must be 32, 64 or 128`);
  for (const [name, o, cols] of [['A', A, n], ['B', B, nrhs]] as const) {
    if (!isCount(o.offset) || !isCount(o.stride) || !Number.isInteger(o.ld) || o.ld < Math.max(1, cols)) {
      throw new ArgumentError(`${who}: trsm operand ${name} has offset ${o.offset}, ld ${o.ld}, stride ${o.stride} (ld must be ≥ ${cols})`);
    }
  }
  if (B.stride === 0 && batch > 1) throw new ArgumentError(`${who}: trsm B is overwritten, so its batch stride cannot be 0`);
  if (n === 0 || nrhs === 0 || batch === 0) return;
  // the block size stays nb for small n too: one compiled variant per (nb, BC), not one per n
  const limits = gpuLimits(who);
  const shape = trsmBlockedShape(dtype, nb, nrhs, bm, limits.maxComputeWorkgroupStorageSize, args.stageDiag ?? def.stageDiag, args.stageTile);
  const bc = shape.bc;
  const sameBuf = bufferOf(A.s) === bufferOf(B.s);
  const prog = trsmBlockedProgram(dtype, nb, bm, shape, sameBuf);
  const last = (o: GemmOperand, rows: number, cols: number) => o.offset + (batch - 1) * o.stride + (rows - 1) * o.ld + cols;
  checkIndexRange(Math.max(last(A, n, n), last(B, n, nrhs)), who);
  const lower = op === 'N' ? !upper : upper;
  const nblk = Math.ceil(n / nb);
  const nct = Math.ceil(nrhs / bc);
  const base = {
    count: batch, nct, n, nrhs, aoff: A.offset, ars: op === 'N' ? A.ld : 1, acs: op === 'N' ? 1 : A.ld, astr: A.stride,
    boff: B.offset, bld: B.ld, bstr: B.stride, conj: op === 'C' && dtype === 'complex64' ? 1 : 0, unit: unit ? 1 : 0, lower: lower ? 1 : 0,
  };
  const NONE = 0xffffffff;
  const blockAt = (s: number) => (lower ? s : nblk - 1 - s);
  const inputs = (sameBuf ? {} : { A: A.s }) as { A: GpuStorage };
  if (path === 'gemm') {
    // per block: its solve in place (one workgroup per member and column tile), then
    // B_rest -= M_rest,blk · X_blk as one GEMM over the batch
    for (let s = 0; s < nblk; s++) {
      const blk = blockAt(s);
      const k0 = blk * nb, kb = Math.min(nb, n - k0);
      runProgram(prog, {
        inputs, outputs: { B: B.s }, workgroups: batch * nct,
        uniforms: { ...base, per: nct, nrt: 0, blk: 0, fin: blk, r0: 0, r1: 0 },
      });
      const r0 = lower ? k0 + kb : 0, r1 = lower ? n : k0;
      if (r1 <= r0) continue;
      gemmGpu(who, {
        dtype, m: r1 - r0, n: nrhs, k: kb, batch, alpha: -1, beta: 1, opA: op,
        // M_rest,blk is A[r0:r1, k0:k0+kb] (op N) or op(A[k0:k0+kb, r0:r1]) (T, C)
        A: { ...A, offset: A.offset + (op === 'N' ? r0 * A.ld + k0 : k0 * A.ld + r0) },
        B: { ...B, offset: B.offset + k0 * B.ld },
        C: { ...B, offset: B.offset + r0 * B.ld },
      });
    }
    return;
  }
  for (let s = 0; s <= nblk; s++) {
    const blk = s < nblk ? blockAt(s) : NONE;
    const fin = s > 0 ? blockAt(s - 1) : NONE;
    // the rows still unsolved after block blk
    const r0 = blk === NONE ? 0 : lower ? Math.min(n, (blk + 1) * nb) : 0;
    const r1 = blk === NONE ? 0 : lower ? n : blk * nb;
    const nrt = Math.ceil((r1 - r0) / bm);
    const per = nct * (nrt + (fin === NONE ? 0 : 1));
    if (per === 0) continue;
    checkIndexRange(batch * per, who);
    runProgram(prog, {
      inputs, outputs: { B: B.s }, workgroups: batch * per,
      uniforms: { ...base, per, nrt, blk: blk === NONE ? 0 : blk, fin: fin === NONE ? 0 : fin, r0, r1 },
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
  routing: TrsmRouting = { blockedFrom: trsmBlockedDefaults().blockedFrom },
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

