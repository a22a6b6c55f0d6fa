// The Gated DeltaNet state pass with W and K staged through workgroup memory
// (shaders/gdn/state_staged.wgsl, then gdn/finalize.wgsl): parallel over (sequence, value head,
// tile of state columns), sequential over each sequence's chunks; each chunk's W and K rows go
// through one workgroup tile loaded a tile ahead into registers, so a chunk step pays about one
// exposed memory latency per tile rather than one per dependent load (docs/gdn.md "GPU kernels").
import { ShapeError } from '../../core/errors.js';
import type { GdnInputs, GdnPlan } from '../ops.js';
import { cachedProgram, runProgram, type StorageType } from './program.js';
import { loadShader, type Defines } from './preprocess.js';
import { gpuLimits, type GpuLimits } from './device.js';
import { bufferOf } from './pool.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { emptyGpu } from './tensor-ops.js';
import { dummyIndex, checkIndexRange } from './small.js';
import { gdnFinalizeProgram, gdnLayoutStrides, gdnUploadSeqs } from './gdn_state.js';
import type { GdnChunkTable, GdnStates, GdnWy } from './gdn_chunks.js';

/** Tile choices of the staged state pass (benchmarks and tests; the plan picks them from the limits otherwise). */
export interface GdnStateStagedTune {
  /** State columns per workgroup: 4 … 64 (default 16, fewer where workgroup memory is short). */
  bv?: number;
  /** Row groups: threads = (bv / 4)·rg (default 32, at most cs). */
  rg?: number;
  /** Rows of W or K per staged tile: a power of two dividing C (default C, fewer where memory is short). */
  cs?: number;
  /**
   * W's tiles as all C rows × a slice of dk columns (default, where the slices divide dk), so W·S
   * reuses each S read for C / RG rows; false: W in row slices like K.
   */
  wd?: boolean;
  /**
   * Two tile buffers in workgroup memory (with wd only): the next tile is stored into one while the
   * other is read, one barrier per tile instead of two (default false; twice the tile memory).
   */
  db?: boolean;
}

export interface GdnStateStagedPlan {
  C: number; DK: number; DV: number;
  /** dk padded to a multiple of 4·RGB; state columns per workgroup; row groups of (a) and (b); tile rows. */
  DKP: number; BV: number; RG: number; RGB: number; CS: number;
  /** Vn rows and S rows per thread; threads per workgroup; tile vec4s per thread. */
  RA: number; RB: number; TS: number; NL: number;
  /** dk columns per W tile (0: W in row slices of CS); vec4s of the tile array. */
  DS: number; TSN: number;
  /** Two tile buffers. */
  DB: boolean;
  bytes: number;
}

const pow2floor = (x: number): number => 2 ** Math.floor(Math.log2(Math.max(1, x)));
const pow2ceil = (x: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, x)));
const roundUp = (x: number, m: number): number => Math.ceil(x / m) * m;

function fit(C: number, dk: number, dv: number, BV: number, CS: number, rg: number, wd: boolean, db: boolean, limits: GpuLimits): GdnStateStagedPlan | null {
  const rows = (cap: number) => {
    let RG = Math.min(rg, cap);
    while (RG > 1 && (BV / 4) * RG > limits.maxComputeInvocationsPerWorkgroup) RG /= 2;
    const RGB = Math.min(RG, pow2floor(Math.ceil(dk / 4)));
    return { RG, RGB, DKP: roundUp(dk, 4 * RGB) };
  };
  // W in dk slices: row groups up to C (W·S's rows need not fit one tile); W tiles of C rows × DS
  // columns hold as many values as K's CS rows × DKP (DS a multiple of 4); else row groups ≤ CS
  let r = rows(C);
  let DS = wd && (r.DKP / 4) % (C / CS) === 0 ? r.DKP * CS / C : 0;
  if (!DS) { r = rows(CS); DS = 0; }
  const { RG, RGB, DKP } = r;
  const TS = (BV / 4) * RG;
  const TSN = Math.max(CS * (DKP / 4 + 1), DS ? C * (DS / 4 + 1) : 0);
  const DB = db && DS > 0;
  const bytes = 16 * (DKP * BV / 4 + C * BV / 4 + (DB ? 2 : 1) * TSN);
  if (bytes > limits.maxComputeWorkgroupStorageSize) return null;
  return { C, DK: dk, DV: dv, DKP, BV, RG, RGB, CS, RA: C / RG, RB: DKP / RGB, TS, NL: Math.ceil(CS * DKP / 4 / TS), DS, TSN, DB, bytes };
}

/** The staged state kernel's tiles for chunk C, dk, dv under `limits`, or null when no variant fits. */
export function gdnStateStagedPlan(C: number, dk: number, dv: number, limits: GpuLimits, tune: GdnStateStagedTune = {}): GdnStateStagedPlan | null {
  // 32 columns and 32-row tiles were fastest on the H200 (bench/results/gdn-tune-h200-run2.txt)
  const bv0 = Math.max(4, Math.min(pow2floor(tune.bv ?? 32), pow2ceil(roundUp(dv, 4))));
  const rg = pow2floor(tune.rg ?? 32);
  // whole-chunk tiles first, then thinner column tiles before tiles of fewer than 16 rows (tiny workgroups)
  const cs0 = Math.min(pow2floor(tune.cs ?? 32), C);
  // two tile buffers only where they fit with tiles of ≥ 16 rows
  const tries: [number, boolean][] = [[Math.min(cs0, 16), tune.db ?? false], [Math.min(cs0, 16), false], [1, false]];
  for (const [csMin, db] of tries) {
    for (let BV = bv0; BV >= 4; BV /= 2) {
      for (let CS = cs0; CS >= csMin; CS /= 2) {
        const L = fit(C, dk, dv, BV, CS, rg, tune.wd ?? true, db, limits);
        if (L) return L;
      }
    }
  }
  return null;
}

type KType = 'f32' | 'f16';

export function gdnStateStagedProgram(L: GdnStateStagedPlan, k: KType) {
  const dk4 = L.DK % 4 === 0, dv4 = L.DV % 4 === 0;
  const defs: Defines = {
    C: L.C, DK: L.DK, DV: L.DV, DKP: L.DKP, BV4: L.BV / 4, RG: L.RG, RA: L.RA, RGB: L.RGB, RB: L.RB, TS: L.TS, CS: L.CS, NL: L.NL,
    WD: L.DS > 0, DS: Math.max(L.DS, 4), TSN: L.TSN, DB: L.DB,
    DK4: dk4, DV4: dv4, K_HALF: k === 'f16',
    // no bounds checks where every padded row, tile column or tile vec4 is a real one
    DK_EXACT: L.DKP === L.DK, DV_EXACT: dv4 && L.DV % L.BV === 0, TILE_EXACT: (L.CS * L.DKP / 4) % L.TS === 0,
  };
  const key = Object.entries(defs).map(([a, b]) => `${a}=${b}`).join(',');
  const vd: StorageType = dv4 ? 'vec4f' : 'f32';
  const kt: StorageType = k === 'f16' ? (dk4 ? 'vec2u' : 'u32') : dk4 ? 'vec4f' : 'f32';
  const decl = {
    inputs: { seq: 'vec4u', W: dk4 ? 'vec4f' : 'f32', U: vd, gcum: 'f32', K: kt },
    outputs: { h: vd, vn: vd, fin: vd },
    uniforms: { tiles: 'u32', vtiles: 'u32', HV: 'u32', hpk: 'u32', varlen: 'u32', has_s0: 'u32', sB: 'u32', sT: 'u32', sH: 'u32' },
  } as const satisfies { inputs: Record<string, StorageType>; outputs: Record<string, StorageType>; uniforms: Record<string, 'u32'> };
  return cachedProgram(`gdn_state_staged|${key}`, () => ({
    name: 'gdn_state_staged', key, entryPoint: 'gdn_state_staged', workgroupSize: [L.TS, 1, 1] as [number, number, number],
    workgroupBytes: L.bytes, decl,
    body: () => loadShader('gdn/state_staged.wgsl', defs),
  }));
}

/**
 * Records the state pass: h_c and Vn for every chunk and value head, and the final states
 * (NaN where the status is not 0; status 1 set where the initial state is not finite).
 */
export function gdnStatePassStagedGpu(
  x: GdnInputs, wy: GdnWy, plan: GdnPlan, chunks: GdnChunkTable, who: string, tune: GdnStateStagedTune = {},
): GdnStates {
  const { seqs: N, vHeads: HV, dk, dv, chunk: C } = plan;
  const count = chunks.count;
  const h = emptyGpu('float32', [count, HV, dk, dv], who);
  const vn = emptyGpu('float32', [count, HV, C, dv], who);
  const finalState = emptyGpu('float32', [N, HV, dk, dv], who);
  const stateBytes = N * HV * dk * dv * 4;
  if (stateBytes === 0) return { h, vn, finalState };
  checkIndexRange(count * HV * Math.max(dk, C) * dv, who);
  const limits = gpuLimits(who);
  const L = gdnStateStagedPlan(C, dk, dv, limits, tune);
  if (!L) {
    throw new ShapeError(`${who}: dk = ${dk} is too large for this device's ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory (the state pass holds dk × 4 state columns and a tile of dk-long rows)`);
  }
  // fin holds the initial state on entry (8 storage bindings leave no room for S0): the kernel
  // reads its own tile of it and overwrites it. Without one the kernel starts from zeros.
  if (x.initialState) {
    commandEncoder(who).copyBufferToBuffer(bufferOf(x.initialState.gpuStorage()), 0, bufferOf(finalState.gpuStorage()), 0, stateBytes);
    recordedCommand();
  }
  const K = wy.kn ?? x.k;
  const s = gdnLayoutStrides(plan, plan.heads, dk);
  const vtiles = Math.ceil(dv / L.BV);
  const seq = gdnUploadSeqs(plan, chunks, who);
  runProgram(gdnStateStagedProgram(L, K.dtype === 'float16' ? 'f16' : 'f32'), {
    inputs: { seq: seq.gpuStorage(), W: wy.W.gpuStorage(), U: wy.U.gpuStorage(), gcum: wy.gcum.gpuStorage(), K: K.gpuStorage() },
    outputs: { h: h.gpuStorage(), vn: vn.gpuStorage(), fin: finalState.gpuStorage() },
    uniforms: {
      tiles: N * HV * vtiles, vtiles, HV, hpk: HV / plan.heads, varlen: plan.varlen ? 1 : 0, has_s0: x.initialState ? 1 : 0,
      sB: s.sB, sT: s.sT, sH: s.sH,
    },
    workgroups: N * HV * vtiles,
  });
  seq.dispose();
  const dummy = x.initialState ? null : dummyIndex(who);
  runProgram(gdnFinalizeProgram(), {
    inputs: { S0: (x.initialState ?? dummy!).gpuStorage() },
    outputs: { fin: finalState.gpuStorage(), status: wy.status.gpuStorage() },
    uniforms: { count: N * HV, size: dk * dv, has_s0: x.initialState ? 1 : 0 },
    workgroups: N * HV,
  });
  dummy?.dispose();
  return { h, vn, finalState };
}
