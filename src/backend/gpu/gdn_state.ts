// The Gated DeltaNet state pass on the GPU (shaders/gdn/state.wgsl, then gdn/finalize.wgsl):
// parallel over (sequence, value head, tile of state columns), sequential over each
// sequence's chunks; writes h_c, Vn = U − W·h_c and the final states (docs/gdn.md "GPU kernels").
import { Tensor } from '../../core/tensor.js';
import { ShapeError } from '../../core/errors.js';
import type { GdnInputs, GdnPlan } from '../ops.js';
import { cachedProgram, runProgram, type StorageType } from './program.js';
import { loadShader, type Defines } from './preprocess.js';
import { gpuDevice, gpuLimits, type GpuLimits } from './device.js';
import { allocStorage, bufferOf } from './pool.js';
import { commandEncoder, recordedCommand } from './queue.js';
import { emptyGpu } from './tensor-ops.js';
import { dummyIndex, checkIndexRange } from './small.js';
import type { GdnChunkTable, GdnStates, GdnWy } from './gdn_chunks.js';

/** Tile choices of the state pass (benchmarks and tests; the plan picks them from the limits otherwise). */
export interface GdnStateTune {
  /** State columns per workgroup: 4, 8, 16, 32 or 64 (default 32, fewer where workgroup memory is short). */
  bv?: number;
  /** Row groups: threads = (bv / 4)·rg; each holds C / rg rows of Vn and ⌈dk / rg⌉ rows of S (default 32, at most C). */
  rg?: number;
}

export interface GdnStatePlan {
  C: number; DK: number; DV: number;
  /** dk padded to a multiple of 4·RGB; state columns per workgroup; row groups of (a) and (b). */
  DKP: number; BV: number; RG: number; RGB: number;
  /** Vn rows and S rows (a multiple of 4) per thread; threads per workgroup. */
  RA: number; RB: number; TS: number;
  bytes: number;
}

/**
 * Element strides (batch, time, head) of a q/k (heads, dk) or v/o (vHeads, dv) tensor in the
 * plan's layout: the backend's copy of src/gdn/plan.ts gdnStrides (backends do not import ops).
 */
export function gdnLayoutStrides(plan: GdnPlan, heads: number, dim: number): { sB: number; sT: number; sH: number } {
  const T = plan.time;
  return plan.layout === 'bthd' ? { sB: T * heads * dim, sT: heads * dim, sH: dim } : { sB: heads * T * dim, sT: dim, sH: T * dim };
}

const pow2floor = (x: number): number => 2 ** Math.floor(Math.log2(Math.max(1, x)));
const pow2ceil = (x: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, x)));
const roundUp = (x: number, m: number): number => Math.ceil(x / m) * m;

/** The state kernel's tiles for chunk C, dk, dv under `limits`, or null when no variant fits. */
export function gdnStatePlan(C: number, dk: number, dv: number, limits: GpuLimits, tune: GdnStateTune = {}): GdnStatePlan | null {
  let BV = Math.max(4, Math.min(tune.bv ?? 32, pow2ceil(roundUp(dv, 4))));
  for (; BV >= 4; BV /= 2) {
    let RG = Math.min(tune.rg ?? 32, C);
    while (RG > 1 && (BV / 4) * RG > limits.maxComputeInvocationsPerWorkgroup) RG /= 2;
    const RGB = Math.min(RG, pow2floor(Math.ceil(dk / 4)));
    const DKP = roundUp(dk, 4 * RGB);
    const bytes = 16 * (DKP * BV / 4 + C * BV / 4) + 16;
    if (bytes <= limits.maxComputeWorkgroupStorageSize) {
      return { C, DK: dk, DV: dv, DKP, BV, RG, RGB, RA: C / RG, RB: DKP / RGB, TS: (BV / 4) * RG, bytes };
    }
  }
  return null;
}

type KType = 'f32' | 'f16';

export function gdnStateProgram(L: GdnStatePlan, k: KType) {
  const dk4 = L.DK % 4 === 0, dv4 = L.DV % 4 === 0;
  const defs: Defines = {
    C: L.C, DK: L.DK, DV: L.DV, DKP: L.DKP, BV4: L.BV / 4, RG: L.RG, RA: L.RA, RGB: L.RGB, RB: L.RB, TS: L.TS,
    // dk-quads of the next chunk's W rows loaded ahead (during the current chunk's state update)
    PF: Math.min(4, L.DKP / 4),
    // key rows of the current chunk loaded before the barrier that precedes the state update
    KPF: 4,
    DK4: dk4, DV4: dv4, K_HALF: k === 'f16',
    // no bounds checks where every padded row or tile column is a real one
    DK_EXACT: L.DKP === L.DK, DV_EXACT: dv4 && L.DV % L.BV === 0,
  };
  const key = Object.entries(defs).map(([a, b]) => `${a}=${b}`).join(',');
  const vd: StorageType = dv4 ? 'vec4f' : 'f32';
  const kt: StorageType = k === 'f16' ? (dk4 ? 'vec2u' : 'u32') : dk4 ? 'vec4f' : 'f32';
  const decl = {
    inputs: { seq: 'vec4u', W: dk4 ? 'vec4f' : 'f32', U: vd, gcum: 'f32', K: kt },
    outputs: { h: vd, vn: vd, fin: vd },
    uniforms: { tiles: 'u32', vtiles: 'u32', HV: 'u32', hpk: 'u32', varlen: 'u32', has_s0: 'u32', sB: 'u32', sT: 'u32', sH: 'u32' },
  } as const satisfies { inputs: Record<string, StorageType>; outputs: Record<string, StorageType>; uniforms: Record<string, 'u32'> };
  return cachedProgram(`gdn_state|${key}`, () => ({
    name: 'gdn_state', key, entryPoint: 'gdn_state', workgroupSize: [L.TS, 1, 1] as [number, number, number],
    workgroupBytes: L.bytes, decl,
    body: () => loadShader('gdn/state.wgsl', defs),
  }));
}

const FINALIZE_TS = 256;

export function gdnFinalizeProgram(ts = FINALIZE_TS) {
  return cachedProgram(`gdn_finalize|${ts}`, () => ({
    name: 'gdn_finalize', key: `TS=${ts}`, entryPoint: 'gdn_finalize', workgroupSize: [ts, 1, 1] as [number, number, number],
    workgroupBytes: 4,
    decl: {
      inputs: { S0: 'f32' }, outputs: { fin: 'f32', status: 'i32' },
      uniforms: { count: 'u32', size: 'u32', has_s0: 'u32' },
    } as const,
    body: () => loadShader('gdn/finalize.wgsl', { TS: ts }),
  }));
}

/** Per sequence (first chunk, end chunk, first time index, length) as a GPU vec4u buffer (a queue write). */
function uploadSeqs(plan: GdnPlan, chunks: GdnChunkTable, who: string): Tensor<'uint32'> {
  const N = plan.seqs;
  const a = new Uint32Array(4 * Math.max(N, 1));
  for (let n = 0; n < N; n++) a.set([chunks.firstChunk[n], chunks.firstChunk[n + 1], plan.seqStart[n], plan.seqLen[n]], 4 * n);
  // Not emptyGpu: a queue write must not land in a buffer that pending commands still use.
  const t = Tensor.fromGpu('uint32', [Math.max(N, 1), 4], allocStorage(a.byteLength, who)) as Tensor<'uint32'>;
  gpuDevice(who).queue.writeBuffer(bufferOf(t.gpuStorage()), 0, a.buffer, a.byteOffset, a.byteLength);
  return t;
}

/**
 * Records the state pass: h_c and Vn for every chunk and value head, and the final states
 * (NaN where the status is not 0; status 1 set where the initial state is not finite).
 */
export function gdnStatePassGpu(
  x: GdnInputs, wy: GdnWy, plan: GdnPlan, chunks: GdnChunkTable, who: string, tune: GdnStateTune = {},
): GdnStates {
  const { seqs: N, vHeads: HV, dk, dv, chunk: C } = plan;
  const count = chunks.count;
  const h = emptyGpu('float32', [count, HV, dk, dv], who);
  const vn = emptyGpu('float32', [count, HV, C, dv], who);
  const finalState = emptyGpu('float32', [N, HV, dk, dv], who);
  const stateBytes = N * HV * dk * dv * 4;
  if (stateBytes === 0) return { h, vn, finalState };
  checkIndexRange(count * HV * Math.max(dk, C) * dv, who);
  // fin holds the initial state on entry (8 storage bindings leave no room for S0): the kernel
  // reads its own tile of it and overwrites it. Without one the kernel starts from zeros.
  if (x.initialState) {
    commandEncoder(who).copyBufferToBuffer(bufferOf(x.initialState.gpuStorage()), 0, bufferOf(finalState.gpuStorage()), 0, stateBytes);
    recordedCommand();
  }

  const limits = gpuLimits(who);
  const L = gdnStatePlan(C, dk, dv, limits, tune);
  if (!L) {
    throw new ShapeError(`${who}: dk = ${dk} is too large for this device's ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory (the state pass holds dk × 4 state columns)`);
  }
  const K = wy.kn ?? x.k;
  const s = gdnLayoutStrides(plan, plan.heads, dk);
  const vtiles = Math.ceil(dv / L.BV);
  const seq = uploadSeqs(plan, chunks, who);
  runProgram(gdnStateProgram(L, K.dtype === 'float16' ? 'f16' : 'f32'), {
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
