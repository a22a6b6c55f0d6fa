/// <reference types="@webgpu/types" />
// Blocked Householder QR on the GPU (compact WY), float32 and complex64, any (…, m, n).
// geqrf: per panel of nb columns, one workgroup per matrix factors the panel and builds
// its V and T (shaders/qr/qr_panel_regs.wgsl with the panel in registers, or
// qr_panel.wgsl re-reading it from storage where it does not fit); the trailing matrix is
// updated by three GEMMs,
// C −= V·(Tᴴ·(Vᴴ·C)). Q (orgqr) applies the saved block reflectors to the identity from
// the last block to the first with the same three GEMMs. Every dispatch covers the whole
// batch. The conventions are LAPACK's and the CPU backend's (native/src/qr/qr.cpp): beta
// real (R's diagonal of either sign), tau complex, H = I − tau·v·vᴴ with v(0) = 1.
import { Tensor, type GpuStorage } from '../../core/tensor.js';
import { ArgumentError } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram, cachedProgram } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { gpuInfo, gpuLimits } from './device.js';
import { allocStorage, bufferOf } from './pool.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { emptyGpu } from './tensor-ops.js';
import { gpuFloatDType, batchCount, floatsPer, dummyOutput, checkIndexRange } from './small.js';
import { gemmGpu, type GemmOperand } from './gemm.js';

export type QrMode = 'reduced' | 'complete' | 'r';
type FloatGpu = 'float32' | 'complex64';

/** Tunables of the blocked QR (tests shrink them; the defaults are for a large GPU). */
export interface QrParams {
  /** Panel width (block size) nb; default qrBlockSize(m, n). */
  nb?: number;
  /**
   * Threads of the panel kernel's workgroup (a power of two ≥ the panel's column lanes);
   * default panelShape's pick for the first panel (m rows), kept for all panels.
   */
  panelWg?: number;
  /**
   * Panel kernel: 'registers' keeps the panel in registers (qr_panel_regs.wgsl, the default
   * where it fits: at most MAX_REG_ROWS rows per thread and the adapter's workgroup memory),
   * 'global' re-reads it from storage every column (qr_panel.wgsl, any height).
   */
  panel?: 'registers' | 'global';
  /** Most rows per thread the register panel keeps (float32; half for complex64); default MAX_REG_ROWS. */
  regRows?: number;
  /**
   * Single matrices: at most this many row chunks for the deep products Vᴴ·C (split-K,
   * summed by a kernel); 1 turns it off. Default 16 on a hardware adapter, 1 on a software one.
   */
  splitK?: number;
  /** Fewest rows per split-K chunk (default 128). */
  splitMinRows?: number;
}

/**
 * Default panel width: one panel for k ≤ 16, else 16 (on the H200 nb = 16 beat 32 and 64
 * at n = 1024 and 4096: the panel is serial per column, the trailing GEMMs are cheap).
 */
export function qrBlockSize(m: number, n: number): number {
  const k = Math.min(m, n);
  return k <= 16 ? Math.max(1, k) : 16;
}

const nextPow2 = (x: number) => 2 ** Math.ceil(Math.log2(Math.max(1, x)));

/** Rows per thread of the register panel: powers of two, and 48 (few kernels to compile). */
function rowBucket(r: number): number {
  const p = nextPow2(r);
  return p === 64 && r <= 48 ? 48 : p;
}

/** Most rows per thread the register panel keeps (float32; half for complex64). */
export const MAX_REG_ROWS = 64;

/**
 * Column lanes NC, workgroup size WG and (register panel) rows per thread R of the panel
 * kernel for mr rows and panel width nb. Default WG: about √mr row lanes (the per-column cost
 * is ~ rows per thread + row lanes), at least one warp.
 */
export function panelShape(mr: number, nb: number, wg?: number, el = 4, regRows = MAX_REG_ROWS): { NC: number; WG: number; R: number; fitsRegs: boolean } {
  const lim = gpuLimits('qr');
  const cap = Math.min(1024, lim.maxComputeInvocationsPerWorkgroup, lim.maxComputeWorkgroupSizeX);
  const NC = nextPow2(nb);
  if (NC > cap) throw new ArgumentError(`qr: panel width ${nb} needs ${NC} threads per workgroup (the device allows ${cap})`);
  const WG = wg ?? Math.min(cap, Math.max(32, NC, NC * 2 ** Math.round(Math.log2(Math.sqrt(Math.max(1, mr))))));
  if (!Number.isInteger(Math.log2(WG)) || WG < NC || WG > cap) {
    throw new ArgumentError(`qr: panel workgroup size ${WG} must be a power of two in [${NC}, ${cap}]`);
  }
  const TR = WG / NC, R = rowBucket(Math.ceil(Math.max(1, mr) / TR));
  const wgBytes = (R * TR + WG + NC + NC * NC + 1) * el + TR * 8;
  const fitsRegs = R * el <= 4 * regRows && wgBytes <= lim.maxComputeWorkgroupStorageSize;
  return { NC, WG, R, fitsRegs };
}

const PANEL_DECL = (T: 'f32' | 'vec2f') => ({
  inputs: {},
  outputs: { F: T, V: T, Tm: T },
  uniforms: {
    count: 'u32', m: 'u32', ld: 'u32', fstride: 'u32', j0: 'u32', kb: 'u32',
    vbase: 'u32', vstride: 'u32', tbase: 'u32', tstride: 'u32', tld: 'u32',
  },
} as const);

/** The panel kernel (shaders/qr/qr_panel.wgsl) with NC column lanes in a workgroup of WG. */
export function qrPanelProgram(dtype: FloatGpu, NC: number, WG: number) {
  const key = `${dtype}|nc${NC}|wg${WG}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return cachedProgram(`qr_panel|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG, NC, TR: WG / NC };
    return {
      name: 'qr_panel', key, entryPoint: `qr_panel_${defs.DTYPE}`, workgroupSize: [WG, 1, 1] as [number, number, number],
      workgroupBytes: WG * 4 * floatsPer(dtype) + 8 * (WG / NC),
      decl: PANEL_DECL(T), body: () => loadShader('qr/qr_panel.wgsl', defs),
    };
  });
}

/** The register panel (shaders/qr/qr_panel_regs.wgsl): NC column lanes, WG threads, R rows per thread. */
export function qrPanelRegsProgram(dtype: FloatGpu, NC: number, WG: number, R: number) {
  const key = `${dtype}|nc${NC}|wg${WG}|r${R}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  const TR = WG / NC;
  return cachedProgram(`qr_panel_regs|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG, NC, TR, R, MR: R * TR, NCNC: NC * NC };
    return {
      name: 'qr_panel_regs', key, entryPoint: `qr_panel_regs_${defs.DTYPE}`, workgroupSize: [WG, 1, 1] as [number, number, number],
      workgroupBytes: (R * TR + WG + NC + NC * NC + 1) * 4 * floatsPer(dtype) + 8 * TR,
      decl: PANEL_DECL(T), body: () => loadShader('qr/qr_panel_regs.wgsl', defs),
    };
  });
}

const EW_WG = 256;

/** Copy of A into the work matrix, flagging non-finite members (shaders/qr/qr_copy.wgsl). */
export function qrCopyProgram(dtype: FloatGpu) {
  const key = `${dtype}|wg${EW_WG}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return cachedProgram(`qr_copy|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG: EW_WG };
    return {
      name: 'qr_copy', key, entryPoint: `qr_copy_${defs.DTYPE}`, workgroupSize: [EW_WG, 1, 1] as [number, number, number],
      decl: {
        inputs: { A: T }, outputs: { F: T, flag: 'u32' },
        uniforms: { total: 'u32', m: 'u32', n: 'u32', ld: 'u32', fstride: 'u32' },
      } as const,
      body: () => loadShader('qr/qr_copy.wgsl', defs),
    };
  });
}

const FINISH_UNIFORMS = {
  total: 'u32', m: 'u32', n: 'u32', cols: 'u32', rr: 'u32', k: 'u32', qc: 'u32', ld: 'u32', fstride: 'u32', want_q: 'u32',
} as const;

/** R from the factorization and Q's identity start (shaders/qr/qr_finish.wgsl); fIsQ: F lives in Q. */
export function qrFinishProgram<Q extends boolean>(dtype: FloatGpu, fIsQ: Q) {
  const key = `${dtype}|wg${EW_WG}|fq${+fIsQ}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  type Decl = {
    inputs: Q extends true ? { flag: 'u32' } : { F: typeof T; flag: 'u32' };
    outputs: { R: typeof T; Q: typeof T };
    uniforms: typeof FINISH_UNIFORMS;
  };
  return cachedProgram(`qr_finish|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG: EW_WG, F_IS_Q: fIsQ };
    const decl = {
      inputs: fIsQ ? { flag: 'u32' } : { F: T, flag: 'u32' },
      outputs: { R: T, Q: T },
      uniforms: FINISH_UNIFORMS,
    } as unknown as Decl;
    return {
      name: 'qr_finish', key, entryPoint: `qr_finish_${defs.DTYPE}`, workgroupSize: [EW_WG, 1, 1] as [number, number, number],
      decl, body: () => loadShader('qr/qr_finish.wgsl', defs),
    };
  });
}

const TW_UNIFORMS = {
  total: 'u32', tiles: 'u32', cols: 'u32', kb: 'u32', chunks: 'u32', pld: 'u32', pchunk: 'u32', pmember: 'u32', row0: 'u32', rem: 'u32',
  voff: 'u32', vstride: 'u32', coff: 'u32', cld: 'u32', cstride: 'u32', toff: 'u32', tld: 'u32', tstride: 'u32',
  adjoint: 'u32', wld: 'u32', wstride: 'u32',
} as const;

/** Threads of qr_tw: NB rows (a power of two ≥ kb) × JC columns. */
function twShape(NB: number): { WG: number; JC: number } {
  const WG = Math.max(256, NB);
  return { WG, JC: WG / NB };
}

/**
 * W2 = op(T)·W1, W1 summed from the split-K partials and the rows past the last chunk
 * (shaders/qr/qr_tw.wgsl), for panels of at most NB columns (a power of two).
 */
export function qrTwProgram(dtype: FloatGpu, NB: number) {
  const { WG, JC } = twShape(NB);
  const key = `${dtype}|wg${WG}|jc${JC}`;
  const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
  return cachedProgram(`qr_tw|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG, JC };
    return {
      name: 'qr_tw', key, entryPoint: `qr_tw_${defs.DTYPE}`, workgroupSize: [WG, 1, 1] as [number, number, number],
      workgroupBytes: WG * 4 * floatsPer(dtype),
      decl: { inputs: { P: T, V: T, C: T, Tm: T }, outputs: { W: T }, uniforms: TW_UNIFORMS } as const,
      body: () => loadShader('qr/qr_tw.wgsl', defs),
    };
  });
}

/** Split-K plan of one call: the partials' scratch and the chunking limits (null: no split). */
interface Split { P: GpuStorage; maxChunks: number; minRows: number }

/** The blocks of a k-column factorization: start column, width, offset of its V in a member's V area. */
function blocksOf(m: number, k: number, nb: number): Array<{ j0: number; kb: number; voff: number }> {
  const out: Array<{ j0: number; kb: number; voff: number }> = [];
  let voff = 0;
  for (let j0 = 0; j0 < k; j0 += nb) {
    const kb = Math.min(nb, k - j0);
    out.push({ j0, kb, voff });
    voff += (m - j0) * kb;
  }
  return out;
}

/**
 * C ← (I − V·op(T)·Vᴴ)·C for one block over the batch: W1 = Vᴴ·C (a GEMM; for a single
 * matrix its rows cut into chunks, one batched GEMM of partial products), W2 = op(T)·W1 (one
 * kernel that also sums the partials and adds the rows past the last chunk), C −= V·W2 (a
 * GEMM). op(T) = Tᴴ applies the block's Qᴴ (the trailing update), T its Q (orgqr).
 */
function applyBlock(who: string, dtype: FloatGpu, batch: number, mr: number, kb: number, cols: number,
  V: GemmOperand, T: GemmOperand, C: GemmOperand, W1: GemmOperand, W2: GemmOperand, adjoint: boolean, split: Split | null): void {
  if (cols === 0) return;
  const S = split && batch === 1 ? Math.min(split.maxChunks, Math.floor(mr / split.minRows)) : 1;
  let P: GpuStorage, chunks: number, pchunk: number, row0: number;
  if (S >= 2) {
    // S chunks of ch rows; the rem = mr − S·ch < S rows left over are added by qr_tw
    const ch = Math.floor(mr / S);
    pchunk = kb * W1.ld;
    gemmGpu(who, {
      dtype, m: kb, n: cols, k: ch, batch: S, opA: 'C',
      A: { ...V, stride: ch * V.ld }, B: { ...C, stride: ch * C.ld }, C: { s: split!.P, offset: 0, ld: W1.ld, stride: pchunk },
    });
    P = split!.P;
    chunks = S;
    row0 = S * ch;
  } else {
    gemmGpu(who, { dtype, m: kb, n: cols, k: mr, batch, A: V, opA: 'C', B: C, C: W1 });
    P = W1.s;
    chunks = 1;
    pchunk = 0;
    row0 = mr;
  }
  const NB = nextPow2(T.ld), tiles = Math.ceil(cols / twShape(NB).JC), total = batch * tiles;
  runProgram(qrTwProgram(dtype, NB), {
    inputs: { P, V: V.s, C: C.s, Tm: T.s }, outputs: { W: W2.s },
    uniforms: {
      total, tiles, cols, kb, chunks, pld: W1.ld, pchunk, pmember: W1.stride, row0, rem: mr - row0,
      voff: V.offset, vstride: V.stride, coff: C.offset, cld: C.ld, cstride: C.stride,
      toff: T.offset, tld: T.ld, tstride: T.stride, adjoint: adjoint ? 1 : 0, wld: W2.ld, wstride: W2.stride,
    },
    workgroups: total,
  });
  gemmGpu(who, { dtype, m: mr, n: cols, k: kb, batch, A: V, B: W2, C, alpha: -1, beta: 1 });
}

/**
 * QR of the (…, m, n) GPU tensor A: Q (…, m, k) or (…, m, m) for 'complete', null for 'r';
 * R (…, k, n) or (…, m, n) for 'complete'. Non-finite members get NaN Q and R.
 */
export function qrGpu(A: Tensor, mode: QrMode, params: QrParams = {}): { Q: Tensor | null; R: Tensor } {
  const who = 'qr';
  const dtype = gpuFloatDType(A, who, 'A');
  const m = A.rows, n = A.cols, k = Math.min(m, n);
  const batchShape = A.shape.slice(0, -2);
  const count = batchCount(A);
  const wantQ = mode !== 'r';
  const qc = mode === 'complete' ? m : k, rr = mode === 'complete' ? m : k;
  const nb = params.nb ?? qrBlockSize(m, n);
  if (!Number.isInteger(nb) || nb < 1) throw new ArgumentError(`${who}: block size nb must be a positive integer, got ${nb}`);
  if (params.panel !== undefined && params.panel !== 'registers' && params.panel !== 'global') {
    throw new ArgumentError(`${who}: panel must be 'registers' or 'global', got ${JSON.stringify(params.panel)}`);
  }
  const regRows = params.regRows ?? MAX_REG_ROWS;
  if (!Number.isInteger(regRows) || regRows < 1) throw new ArgumentError(`${who}: regRows must be a positive integer, got ${regRows}`);
  const R = emptyGpu(dtype, [...batchShape, rr, n], who);
  let Q: Tensor | null = null;
  try {
    Q = wantQ ? emptyGpu(dtype, [...batchShape, m, qc], who) : null;
  } catch (e) {
    R.dispose(); // Q over the device's limits (DeviceError from the pool)
    throw e;
  }
  const cols = Math.max(n, wantQ ? qc : 0);
  if (count === 0 || m === 0 || cols === 0) return { Q, R };
  const el = 4 * floatsPer(dtype);
  checkIndexRange(count * m * Math.max(n, qc), who);

  const scratch: GpuStorage[] = [];
  try {
    // The work matrix: Q's first n columns when Q holds A (m ≥ n), else a scratch.
    const fIsQ = wantQ && m >= n;
    const ld = fIsQ ? qc : n, fstride = m * ld;
    const alloc = (elems: number) => {
      const s = allocStorage(Math.max(1, elems) * el, who, true);
      scratch.push(s);
      return s;
    };
    const Fs = fIsQ ? Q!.gpuStorage() : alloc(count * m * n);
    const flag = allocStorage(Math.max(1, count) * 4, who, true);
    scratch.push(flag);
    commandEncoder(who).clearBuffer(bufferOf(flag));
    recordedCommand();
    if (m * n > 0) {
      const total = count * m * n;
      runProgram(qrCopyProgram(dtype), {
        inputs: { A: A.gpuStorage() }, outputs: { F: Fs, flag },
        uniforms: { total, m, n, ld, fstride }, workgroups: Math.ceil(total / EW_WG),
      });
    }

    const blocks = blocksOf(m, k, nb);
    const vstride = blocks.reduce((s, b) => s + (m - b.j0) * b.kb, 0);
    const tstride = blocks.length * nb * nb;
    const Vs = k > 0 ? alloc(count * vstride) : undefined;
    const Ts = k > 0 ? alloc(count * tstride) : undefined;
    const wcols = Math.max(n, wantQ ? qc : 0);
    const W1s = k > 0 ? alloc(count * nb * wcols) : undefined;
    const W2s = k > 0 ? alloc(count * nb * wcols) : undefined;
    if (k > 0) checkIndexRange(count * Math.max(vstride, tstride, nb * wcols), who);
    const maxChunks = params.splitK ?? (gpuInfo()?.isSoftware ? 1 : 16);
    const minRows = params.splitMinRows ?? 128;
    if (!Number.isInteger(maxChunks) || maxChunks < 1 || !Number.isInteger(minRows) || minRows < 1) {
      throw new ArgumentError(`${who}: splitK and splitMinRows must be positive integers, got ${maxChunks}, ${minRows}`);
    }
    const chunks = count === 1 && k > 0 ? Math.min(maxChunks, Math.floor(m / minRows)) : 1;
    const split: Split | null = chunks >= 2 ? { P: alloc(chunks * nb * wcols), maxChunks, minRows } : null;
    const Vop = (b: { voff: number; kb: number }): GemmOperand => ({ s: Vs!, offset: b.voff, ld: b.kb, stride: vstride });
    const Top = (bi: number): GemmOperand => ({ s: Ts!, offset: bi * nb * nb, ld: nb, stride: tstride });
    const W1: GemmOperand = { s: W1s!, offset: 0, ld: wcols, stride: nb * wcols };
    const W2: GemmOperand = { s: W2s!, offset: 0, ld: wcols, stride: nb * wcols };

    // geqrf
    // one workgroup size for every panel of the call (from the first, tallest): fewer kernels
    const panelWg = params.panelWg ?? panelShape(m, nb).WG;
    blocks.forEach((b, bi) => {
      const { NC, WG, R, fitsRegs } = panelShape(m - b.j0, nb, panelWg, el, regRows);
      const prog = fitsRegs && params.panel !== 'global' ? qrPanelRegsProgram(dtype, NC, WG, R) : qrPanelProgram(dtype, NC, WG);
      runProgram(prog, {
        inputs: {}, outputs: { F: Fs, V: Vs!, Tm: Ts! },
        uniforms: {
          count, m, ld, fstride, j0: b.j0, kb: b.kb, vbase: b.voff, vstride, tbase: bi * nb * nb, tstride, tld: nb,
        },
        workgroups: count,
      });
      const j1 = b.j0 + b.kb;
      if (j1 < n) {
        const C: GemmOperand = { s: Fs, offset: b.j0 * ld + j1, ld, stride: fstride };
        applyBlock(who, dtype, count, m - b.j0, b.kb, n - j1, Vop(b), Top(bi), C, W1, W2, true, split);
      }
    });

    // R, and Q's identity start (in place over the factorization when F is Q)
    const Qs = Q ? Q.gpuStorage() : undefined;
    const qdummy = Q ? undefined : dummyOutput(who);
    const total = count * m * cols;
    const uniforms = { total, m, n, cols, rr, k, qc, ld, fstride, want_q: wantQ ? 1 : 0 };
    const outputs = { R: R.gpuStorage(), Q: Qs ?? qdummy!.gpuStorage() };
    if (fIsQ) {
      runProgram(qrFinishProgram(dtype, true), { inputs: { flag }, outputs, uniforms, workgroups: Math.ceil(total / EW_WG) });
    } else {
      runProgram(qrFinishProgram(dtype, false), { inputs: { F: Fs, flag }, outputs, uniforms, workgroups: Math.ceil(total / EW_WG) });
    }
    qdummy?.dispose();

    // orgqr / ungqr: the blocks backwards on Q's trailing columns (those left of j0 are still
    // identity columns, zero in the rows a block touches)
    if (Qs && k > 0) {
      for (let bi = blocks.length - 1; bi >= 0; bi--) {
        const b = blocks[bi];
        const C: GemmOperand = { s: Qs, offset: b.j0 * qc + b.j0, ld: qc, stride: m * qc };
        applyBlock(who, dtype, count, m - b.j0, b.kb, qc - b.j0, Vop(b), Top(bi), C, W1, W2, false, split);
      }
    }
  } catch (e) {
    // a scratch over the device's limits: nothing was recorded that the caller sees
    Q?.dispose();
    R.dispose();
    throw e;
  } finally {
    for (const s of scratch) s.release();
  }
  return { Q, R };
}

export function registerQrGpu(): void {
  register('qr', ['float32', 'complex64'], 'gpu', (A, mode) => qrGpu(A, mode));
}
