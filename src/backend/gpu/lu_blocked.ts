/// <reference types="@webgpu/types" />
// Blocked right-looking LU with partial pivoting on the GPU (LAPACK dgetrf), float32 and
// complex64, (batch, m, n) of any shape, in place. Per block column [j, j+jb): the panel
// (rows j..m) is factored in leaves of ≤ `leaf` columns, one workgroup per matrix each
// (shaders/lu/lu_panel.wgsl), each passing its interchanges to the rest of the panel when it
// ends. panel 'left' (default): ONE dispatch walks the panel's leaves in turn, each first
// solving its own U block and subtracting the panel's earlier columns from its rows
// (left-looking: no other dispatch inside the panel; 3 per block step); 'recursive': dgetrf2's halving — left half, U12 of the half
// (lu_trsm.wgsl, or by the left leaf itself), trailing half through gemmGpu, right half.
// Then the panel's interchanges go to the columns left and right of it with U12 = L11⁻¹·A12
// solved in the same pass (shaders/lu/laswp.wgsl, a gather through the panel's row map), and
// A22 −= L21·U12 (gemmGpu, alpha −1, beta 1, all three in A's buffer).
// Every dispatch covers the whole batch; nothing waits on the host. docs/gpu-linalg.md
// ("LU") has the details.
import type { GpuStorage } from '../../core/tensor.js';
import { ArgumentError, DTypeError } from '../../core/errors.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader, dtypeDefines } from './preprocess.js';
import { gpuLimits } from './device.js';
import { allocStorage } from './pool.js';
import { gemmGpu, type GemmOperand } from './gemm.js';
import { checkIndexRange } from './small.js';

type D = 'float32' | 'complex64';

/** Block sizes of the blocked LU (explicit parameters, so tests can use small ones). */
export interface LuBlockParams {
  /** Columns per block step (the outer panel). */
  nb: number;
  /** Widest leaf of the panel (one workgroup per matrix walks its columns). */
  leaf: number;
  /** Threads per leaf workgroup (at most the device's limit; 0: pick from m, see leafPlan). */
  wg: number;
  /** The panel: 'left' — left-looking, one leaf dispatch per `leaf` columns doing its own U block
   *  and update (nb/leaf dispatches); 'recursive' — dgetrf2's halving with GEMM/solve dispatches. */
  panel?: 'left' | 'recursive';
}

/** Defaults for a large GPU: the recursive panel with nb 32, leaf 8 was the fastest in every single-matrix H200 case, within 1% of the best on 1024 × 128² (bench/results/h200-issue12-tune2.txt). */
export function luBlockDefaults(_m: number, _n: number): LuBlockParams {
  return { nb: 32, leaf: 8, wg: 0, panel: 'recursive' };
}

const sfx = (dtype: D) => (dtype === 'complex64' ? 'c64' : 'f32');
const floats = (dtype: D) => (dtype === 'complex64' ? 2 : 1);
const elType = (dtype: D) => (dtype === 'complex64' ? 'vec2f' as const : 'f32' as const);

/** Rows of the panel's U block staged in workgroup memory at a time by the left-looking leaf. */
const LEFT_QB = 32;

/** The leaf kernel for (dtype, threads, widest leaf, register row slots per thread: 0 = the leaf in A). */
export function luPanelProgram(dtype: D, wg: number, leaf: number, rq: number, left = false) {
  const key = `${dtype}|WG=${wg}|LEAF=${leaf}|RQ=${rq}${left ? `|LEFT QB=${LEFT_QB}` : ''}`;
  return cachedProgram(`lu_panel|${key}`, () => {
    const defs = {
      ...dtypeDefines(dtype), WG: wg, LEAF: leaf, REG: rq > 0, RQ: rq, RQL: Math.max(1, rq * leaf), LEFT: left, QB: LEFT_QB, QBL: LEFT_QB * leaf,
    };
    return {
      name: 'lu_panel', key, entryPoint: `lu_panel_${sfx(dtype)}`, workgroupSize: [wg, 1, 1] as [number, number, number],
      workgroupBytes: 16 + 4 * floats(dtype) * leaf * ((rq > 0 ? 2 : 1) + (left ? LEFT_QB : 0)),
      decl: {
        inputs: {},
        outputs: { A: elType(dtype), PIV: 'i32', INFO: 'i32', ROWID: 'i32' },
        uniforms: { batch: 'u32', m: 'u32', n: 'u32', mn: 'u32', c: 'u32', w: 'u32', pc0: 'u32', pw: 'u32', first: 'u32', rw: 'u32' },
      } as const,
      body: () => loadShader('lu/lu_panel.wgsl', defs),
    };
  });
}

const GATHER_DECL = (T: 'f32' | 'vec2f') => ({
  inputs: { PIV: 'i32', ROWID: 'i32' }, outputs: { A: T, S: T },
  uniforms: { batch: 'u32', m: 'u32', n: 'u32', mn: 'u32', j: 'u32', jb: 'u32', ncols: 'u32', split: 'u32', gap: 'u32', tiles: 'u32', solve: 'u32' },
}) as const;
const SEQ_DECL = (T: 'f32' | 'vec2f') => ({
  inputs: { PIV: 'i32' }, outputs: { B: T },
  uniforms: {
    batch: 'u32', ld: 'u32', offset: 'u32', stride: 'u32', ncols: 'u32', piv_stride: 'u32', k0: 'u32', k1: 'u32', reverse: 'u32', tiles: 'u32',
  },
}) as const;

/** The blocked LU's row interchanges of one step (shaders/lu/laswp.wgsl, GATHER through the panel's row map). */
export function laswpGatherProgram(dtype: D) {
  return cachedProgram(`laswp|${dtype}|gather`, () => {
    const defs = { ...dtypeDefines(dtype), GATHER: true, RB: TRSM_RB };
    return {
      name: 'laswp', key: `${dtype}|gather`, entryPoint: `laswp_gather_${sfx(dtype)}`, workgroupSize: [64, 1, 1] as [number, number, number],
      decl: GATHER_DECL(elType(dtype)), body: () => loadShader('lu/laswp.wgsl', defs),
    };
  });
}

/** LAPACK's laswp, the swaps in order per column (shaders/lu/laswp.wgsl without GATHER). */
export function laswpSeqProgram(dtype: D) {
  return cachedProgram(`laswp|${dtype}|seq`, () => {
    const defs = { ...dtypeDefines(dtype), GATHER: false };
    return {
      name: 'laswp', key: `${dtype}|seq`, entryPoint: `laswp_seq_${sfx(dtype)}`, workgroupSize: [64, 1, 1] as [number, number, number],
      decl: SEQ_DECL(elType(dtype)), body: () => loadShader('lu/laswp.wgsl', defs),
    };
  });
}

/** Rows per register block of the U12 solve. */
const TRSM_RB = 8;

/** U12 = L11⁻¹·A12 in place (unit lower L11). */
export function luTrsmProgram(dtype: D) {
  const key = `${dtype}|RB=${TRSM_RB}`;
  return cachedProgram(`lu_trsm|${key}`, () => {
    const defs = { ...dtypeDefines(dtype), RB: TRSM_RB };
    return {
      name: 'lu_trsm', key, entryPoint: `lu_trsm_${sfx(dtype)}`, workgroupSize: [64, 1, 1] as [number, number, number],
      decl: {
        inputs: {}, outputs: { A: elType(dtype) },
        uniforms: { batch: 'u32', m: 'u32', n: 'u32', r: 'u32', nl: 'u32', cb: 'u32', ncols: 'u32', tiles: 'u32' },
      } as const,
      body: () => loadShader('lu/lu_trsm.wgsl', defs),
    };
  });
}

const STATUS_UNIFORMS = { total: 'u32', per: 'u32' } as const;
const STATUS_DECLS = {
  INIT: { inputs: {}, outputs: { INFO: 'i32' }, uniforms: STATUS_UNIFORMS },
  FLAG: { inputs: { A: 'f32' }, outputs: { INFO: 'i32' }, uniforms: STATUS_UNIFORMS },
  FINISH: { inputs: { INFO: 'i32' }, outputs: { A: 'f32' }, uniforms: STATUS_UNIFORMS },
} as const;

/** info = 0 (INIT), info = −1 for non-finite members (FLAG), NaN factors for them (FINISH). */
export function luStatusProgram<M extends keyof typeof STATUS_DECLS>(mode: M) {
  return cachedProgram(`lu_status|${mode}`, () => ({
    name: 'lu_status', key: mode, entryPoint: `lu_status_${mode.toLowerCase()}`,
    workgroupSize: [mode === 'INIT' ? 64 : 256, 1, 1] as [number, number, number],
    decl: STATUS_DECLS[mode],
    body: () => loadShader('lu/lu_status.wgsl', { MODE_INIT: mode === 'INIT', MODE_FLAG: mode === 'FLAG', MODE_FINISH: mode === 'FINISH' }),
  }));
}

function checkCount(who: string, name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new ArgumentError(`${who}: ${name} must be a non-negative integer, got ${String(v)}`);
}

/** 32-bit registers of one SM (NVIDIA, AMD CU: 64 Ki): a thread of a `wg`-thread group may hold 65536/wg. */
const REG_FILE = 65536;
/** Registers one thread can address (NVIDIA: 255). */
const MAX_THREAD_REGS = 255;
/** Registers a leaf thread needs besides its row slots (indices, pivot, loop state). */
const REG_OVERHEAD = 40;

/**
 * Threads and register row slots of the leaf for m rows: the fewest threads (a power of
 * two from min(m, 256)) whose slots fit the register file (rq·leaf scalars plus overhead
 * within 65536/wg); none fits, or `regs` false: the leaf in A with min(256, …) threads.
 * `wg` > 0 fixes the threads.
 */
export function leafPlan(m: number, leaf: number, dtype: D, wg: number, regs: boolean, who: string, left = false): { wg: number; rq: number } {
  // the left-looking leaf also holds one U row (leaf scalars) while it updates its rows
  const over = REG_OVERHEAD + (left ? leaf * floats(dtype) : 0);
  const lim = gpuLimits(who);
  const max = Math.min(lim.maxComputeInvocationsPerWorkgroup, lim.maxComputeWorkgroupSizeX, 1024);
  let w0 = 32;
  while (w0 < Math.min(m, 256)) w0 *= 2;
  const cands = wg > 0 ? [Math.min(wg, max)] : [32, 64, 128, 256, 512, 1024].filter((w) => w >= Math.min(w0, max) && w <= max);
  if (regs) {
    for (const w of cands) {
      const rq = Math.ceil(m / w);
      if (rq <= 32 && rq * leaf * floats(dtype) + over <= Math.min(MAX_THREAD_REGS, REG_FILE / w)) return { wg: w, rq };
    }
    if (wg > 0) return { wg: cands[0], rq: Math.ceil(m / cands[0]) };
  }
  return { wg: wg > 0 ? cands[0] : Math.min(w0, max), rq: 0 };
}

/**
 * In place: the (batch, m, n) matrices in `A` become packed L\U; piv (batch·min(m,n), i32,
 * 1-based) and info (batch, i32) written. `nonfinite`: 'flag' (default) — a member with
 * NaN/Inf input gets info −1 and all-NaN factors, its neighbours unaffected (what solve,
 * inv and det need); 'propagate' — factored as is, NaN spreading through the factors and
 * info the first exactly zero pivot (luFactor on the CPU). `nb`, `leaf`, `wg`: block sizes and
 * leaf threads (luBlockDefaults); `leafRegs` false keeps the leaf in A (tests: both variants).
 */
export function luFactorBlockedGpu(who: string, args: {
  dtype: D; m: number; n: number; batch: number;
  A: GpuStorage; piv: GpuStorage; info: GpuStorage; nb?: number;
  leaf?: number; wg?: number; leafRegs?: boolean; panel?: 'left' | 'recursive'; nonfinite?: 'flag' | 'propagate';
}): void {
  const { dtype, m, n, batch, A, piv, info } = args;
  if (dtype !== 'float32' && dtype !== 'complex64') throw new DTypeError(`${who}: the GPU LU takes float32 or complex64, got ${String(dtype)}`);
  checkCount(who, 'm', m);
  checkCount(who, 'n', n);
  checkCount(who, 'batch', batch);
  const def = luBlockDefaults(m, n);
  const mn = Math.min(m, n);
  const regs = args.leafRegs ?? true, wgAsked = args.wg ?? def.wg;
  const nb = args.nb ?? def.nb;
  const leaf = args.leaf ?? def.leaf;
  if (!Number.isInteger(nb) || nb < 1) throw new ArgumentError(`${who}: nb must be a positive integer, got ${nb}`);
  const panelKind = args.panel ?? def.panel ?? 'left';
  if (panelKind !== 'left' && panelKind !== 'recursive') throw new ArgumentError(`${who}: panel must be 'left' or 'recursive', got ${String(panelKind)}`);
  if (!Number.isInteger(leaf) || leaf < 1) throw new ArgumentError(`${who}: leaf must be a positive integer, got ${leaf}`);
  if (batch === 0) return;
  checkIndexRange(batch * m * n * floats(dtype), who);
  runProgram(luStatusProgram('INIT'), {
    inputs: {}, outputs: { INFO: info }, uniforms: { total: batch, per: 1 }, workgroups: Math.ceil(batch / 64),
  });
  if (mn === 0) return;
  const flag = (args.nonfinite ?? 'flag') === 'flag';
  const scalars = batch * m * n * floats(dtype);
  if (flag) {
    runProgram(luStatusProgram('FLAG'), {
      inputs: { A }, outputs: { INFO: info }, uniforms: { total: scalars, per: m * n * floats(dtype) }, workgroups: Math.ceil(scalars / 1024),
    });
  }
  const leafW = Math.min(leaf, nb, mn);
  const leafCap = leafW;
  const plan = leafPlan(m, leafCap, dtype, wgAsked, regs, who, panelKind === 'left');
  const panelProg = luPanelProgram(dtype, plan.wg, leafCap, plan.rq, panelKind === 'left');
  const trsmProg = luTrsmProgram(dtype);
  const rowid = allocStorage(batch * m * 4, who, true);
  const jbMax = Math.min(nb, mn);
  const sElems = batch * jbMax * Math.max(0, n - Math.min(jbMax, n));
  const scratch = sElems > 0 ? allocStorage(sElems * 4 * floats(dtype), who, true) : null;
  const op = (offset: number): GemmOperand => ({ s: A, offset, ld: n, stride: m * n });

  // the columns [c, c + w) in leaves of ≤ leafW (one dispatch); rw > 0 (w ≤ leafW): the leaf also solves L11⁻¹ on the rw columns right of it (its parent's U12)
  const leafRun = (c: number, w: number, pc0: number, pw: number, rw = 0) => {
    runProgram(panelProg, {
      inputs: {}, outputs: { A, PIV: piv, INFO: info, ROWID: rowid },
      uniforms: { batch, m, n, mn, c, w, pc0, pw, first: c === pc0 ? 1 : 0, rw },
      workgroups: batch,
    });
  };
  // U = L⁻¹·B for the unit lower nl×nl block at (r, r) and the columns [cb, cb + ncols)
  const trsm = (r: number, nl: number, cb: number, ncols: number) => {
    if (ncols === 0 || nl === 0) return;
    const tiles = Math.ceil(ncols / 64);
    runProgram(trsmProg, {
      inputs: {}, outputs: { A }, uniforms: { batch, m, n, r, nl, cb, ncols, tiles }, workgroups: batch * tiles,
    });
  };
  // A[r1.., c1..c1+w2) −= A[r1.., c0..c1) · A[c0..c1, c1..c1+w2)  (rows r1 = c1 to m)
  const update = (c0: number, c1: number, w2: number) => {
    if (m - c1 === 0 || w2 === 0) return;
    gemmGpu(who, {
      dtype, m: m - c1, n: w2, k: c1 - c0, batch,
      A: op(c1 * n + c0), B: op(c0 * n + c1), C: op(c1 * n + c1), alpha: -1, beta: 1,
    });
  };
  // dgetrf2's recursion on the columns [c, c + w) of the panel [pc0, pc0 + pw)
  const panel = (c: number, w: number, pc0: number, pw: number) => {
    if (w <= leafW) {
      leafRun(c, w, pc0, pw);
      return;
    }
    const w1 = Math.min(w - 1, leafW * Math.ceil(Math.ceil(w / 2) / leafW));
    if (w1 <= leafW) leafRun(c, w1, pc0, pw, w - w1);  // the leaf solves U12 itself
    else {
      panel(c, w1, pc0, pw);
      trsm(c, w1, c + w1, w - w1);
    }
    update(c, c + w1, w - w1);
    panel(c + w1, w - w1, pc0, pw);
  };

  for (let j = 0; j < mn; j += nb) {
    const jb = Math.min(nb, mn - j);
    if (panelKind === 'left') {
      leafRun(j, jb, j, jb);  // the whole panel, its leaves in turn inside one workgroup per matrix
    } else panel(j, jb, j, jb);
    const outside = n - jb;
    if (outside > 0) {
      const tiles = Math.ceil(outside / 64);
      runProgram(laswpGatherProgram(dtype), {
        inputs: { PIV: piv, ROWID: rowid }, outputs: { A, S: scratch! },
        uniforms: { batch, m, n, mn, j, jb, ncols: outside, split: j, gap: jb, tiles, solve: 1 },
        workgroups: batch * tiles,
      });
    }
    // (U12 = L11⁻¹·A12 came with the interchanges: the gather solves the columns right of the panel)
    update(j, j + jb, n - j - jb);
  }
  rowid.release();
  scratch?.release();
  if (flag) {
    runProgram(luStatusProgram('FINISH'), {
      inputs: { INFO: info }, outputs: { A }, uniforms: { total: scalars, per: m * n * floats(dtype) }, workgroups: Math.ceil(scalars / 1024),
    });
  }
}

/**
 * Applies the row interchanges piv[k0..k1) (1-based, LAPACK laswp order; reversed for
 * reverse=true) to the columns [c0, c0+ncols) of the (batch, rows, ld) matrices of B, in
 * place (c0 is part of B.offset). One thread per column and member.
 */
export function laswpGpu(who: string, args: {
  dtype: D; batch: number; B: GemmOperand; ncols: number;
  piv: GpuStorage; pivStride: number; k0: number; k1: number; reverse?: boolean;
}): void {
  const { dtype, batch, B, ncols, piv, pivStride, k0, k1 } = args;
  if (dtype !== 'float32' && dtype !== 'complex64') throw new DTypeError(`${who}: laswp on the GPU takes float32 or complex64, got ${String(dtype)}`);
  for (const [nm, v] of [['batch', batch], ['ncols', ncols], ['pivStride', pivStride], ['k0', k0], ['k1', k1], ['B.offset', B.offset], ['B.ld', B.ld], ['B.stride', B.stride]] as const) {
    checkCount(who, nm, v);
  }
  if (k1 <= k0 || ncols === 0 || batch === 0) return;
  const tiles = Math.ceil(ncols / 64);
  runProgram(laswpSeqProgram(dtype), {
    inputs: { PIV: piv }, outputs: { B: B.s },
    uniforms: {
      batch, ld: B.ld, offset: B.offset, stride: B.stride, ncols, piv_stride: pivStride, k0, k1, reverse: args.reverse ? 1 : 0, tiles,
    },
    workgroups: batch * tiles,
  });
}
