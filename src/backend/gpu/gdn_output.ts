// The Gated DeltaNet output on the GPU (shaders/gdn/output.wgsl): every chunk in parallel,
// O = scale·(diag(Γ)·Q·h_c + ((Q·Kᵀ) ⊙ M)·Vn), written in v's shape, layout and dtype.
import type { Tensor } from '../../core/tensor.js';
import type { GdnInputs, GdnPlan } from '../ops.js';
import { gdnLayoutStrides } from './gdn_state.js';
import { cachedProgram, runProgram, type StorageType } from './program.js';
import { loadShader, type Defines } from './preprocess.js';
import { gpuLimits, type GpuLimits } from './device.js';
import { emptyGpu } from './tensor-ops.js';
import { checkIndexRange } from './small.js';
import { DeviceError } from '../../core/errors.js';
import type { GdnChunkTable, GdnStates, GdnWy } from './gdn_chunks.js';

/** Tile choices of the output kernel (benchmarks and tests; the plan picks them from the limits otherwise). */
export interface GdnOutputTune {
  /** Output columns per workgroup (a multiple of 4; default min(dv, 128)). */
  bo?: number;
  /** Chunk rows per workgroup (C, C/2, C/4; default C where workgroup memory allows). */
  rbo?: number;
  /** Rows per thread (4, 8 or 16; default the fewest that keep the workgroup ≤ 256 threads). */
  ro?: number;
  /** dk slice staged per step (a multiple of 4; default 16). */
  bk?: number;
  /** Column vec4s per thread, 4·CG apart (1, 2 or 4; default 1): each Q value then feeds 4·cw multiply-adds. */
  cw?: number;
  /** Stage the BK×BO slice of h_c in workgroup memory (default: where it fits) rather than every row group reading it from global memory. */
  hs?: boolean;
}

export interface GdnOutputPlan {
  C: number; DK: number; DV: number; DKP: number;
  BK: number; BO: number; RBO: number; RO: number; TS: number; CW: number; HS: boolean;
  /** 4×4 tiles of Q·Kᵀ per thread; workgroup memory in vec4s and bytes. */
  PTT: number; SH: number; bytes: number;
}

const pow2ceil = (x: number): number => 2 ** Math.ceil(Math.log2(Math.max(1, x)));
const roundUp = (x: number, m: number): number => Math.ceil(x / m) * m;

/** The output kernel's tiles for chunk C, dk, dv under `limits`, or null when no variant fits. */
export function gdnOutputPlan(C: number, dk: number, dv: number, limits: GpuLimits, tune: GdnOutputTune = {}): GdnOutputPlan | null {
  const BO = tune.bo ?? Math.max(4, Math.min(128, pow2ceil(roundUp(dv, 4))));
  const BK = tune.bk ?? (dk > 8 ? 16 : dk > 4 ? 8 : 4);
  const DKP = roundUp(dk, BK);
  const CW = Math.min(tune.cw ?? 1, BO / 4);
  if (BO % (4 * CW) !== 0) return null;
  const maxInv = limits.maxComputeInvocationsPerWorkgroup;
  // h_c staged once per workgroup (its global loads prefetched a slice ahead like Q and K) where it fits
  for (const HS of tune.hs === undefined ? [true, false] : [tune.hs]) {
    // 32-row output blocks beat whole 64-row chunks on the H200 (bench/results/gdn-tune-h200.txt)
    for (let RBO = tune.rbo ?? Math.min(C, 32); RBO >= 4; RBO /= 2) {
      const SH = Math.max(RBO * (BK / 4 + 1) + C * BK / 4 + (HS ? BK * BO / 4 : 0), C * RBO / 4);
      const bytes = 16 * SH;
      if (bytes > limits.maxComputeWorkgroupStorageSize) continue;
      const ros = (tune.ro ? [tune.ro] : [4, 8, 16]).filter((r) => r <= RBO);
      const threads = (r: number): number => (BO / 4 / CW) * (RBO / r);
      const RO = ros.find((r) => threads(r) <= Math.min(256, maxInv)) ?? ros.find((r) => threads(r) <= maxInv);
      if (RO === undefined) continue;
      const TS = threads(RO), r4 = RBO / 4;
      const tiles = r4 * ((C - RBO) / 4) + r4 * (r4 + 1) / 2;
      return { C, DK: dk, DV: dv, DKP, BK, BO, RBO, RO, TS, CW, HS, PTT: Math.ceil(tiles / TS), SH, bytes };
    }
  }
  return null;
}

export function gdnOutputProgram(L: GdnOutputPlan, qk: 'f32' | 'f16', o: 'f32' | 'f16') {
  const dk4 = L.DK % 4 === 0, dv4 = L.DV % 4 === 0;
  const defs: Defines = {
    C: L.C, DK: L.DK, DV: L.DV, DKP: L.DKP, BK4: L.BK / 4, RBO: L.RBO, RBO4: L.RBO / 4, CG: L.BO / 4 / L.CW, CW: L.CW, BO4: L.BO / 4, RO: L.RO,
    HS: L.HS, HOFF: L.RBO * (L.BK / 4 + 1) + L.C * L.BK / 4, HPT: Math.ceil(L.BK * L.BO / 4 / L.TS),
    PTT: L.PTT, TS: L.TS, SH: L.SH, QPT: Math.ceil(L.RBO * L.BK / 4 / L.TS), KPT: Math.ceil(L.C * L.BK / 16 / L.TS), DK4: dk4, DV4: dv4, QK_HALF: qk === 'f16', O_HALF: o === 'f16',
    // no bounds checks where every padded dk row or tile column is a real one
    DK_EXACT: L.DKP === L.DK, DV_EXACT: dv4 && L.DV % L.BO === 0,
  };
  const key = Object.entries(defs).map(([a, b]) => `${a}=${b}`).join(',');
  const vd: StorageType = dv4 ? 'vec4f' : 'f32';
  const qt: StorageType = qk === 'f16' ? (dk4 ? 'vec2u' : 'u32') : dk4 ? 'vec4f' : 'f32';
  const ot: StorageType = o === 'f16' ? (dv4 ? 'vec2u' : 'u32') : vd;
  const decl = {
    inputs: { tab: 'vec4u', Q: qt, K: qt, gcum: 'f32', h: vd, vn: vd, status: 'i32' },
    outputs: { o: ot },
    uniforms: {
      tiles: 'u32', nrb: 'u32', vtiles: 'u32', HV: 'u32', hpk: 'u32', sB: 'u32', sT: 'u32', sH: 'u32',
      oB: 'u32', oT: 'u32', oH: 'u32', scale: 'f32',
    },
  } as const satisfies { inputs: Record<string, StorageType>; outputs: Record<string, StorageType>; uniforms: Record<string, 'u32' | 'f32'> };
  return cachedProgram(`gdn_output|${key}`, () => ({
    name: 'gdn_output', key, entryPoint: 'gdn_output', workgroupSize: [L.TS, 1, 1] as [number, number, number],
    workgroupBytes: L.bytes, decl,
    body: () => loadShader('gdn/output.wgsl', defs),
  }));
}

/** Records the output kernel: o in v's shape, layout and dtype (NaN where the status is not 0). */
export function gdnOutputGpu(
  x: GdnInputs, wy: GdnWy, st: GdnStates, plan: GdnPlan, chunks: GdnChunkTable, who: string, tune: GdnOutputTune = {},
): Tensor {
  const { vHeads: HV, dk, dv, chunk: C } = plan;
  const o = emptyGpu(x.v.dtype, x.v.shape, who);
  const count = chunks.count;
  if (count === 0 || HV === 0) return o;
  const limits = gpuLimits(who);
  const L = gdnOutputPlan(C, dk, dv, limits, tune);
  if (!L) throw new DeviceError(`${who}: no output kernel variant fits this device's limits`);
  checkIndexRange(Math.max(x.q.size, x.v.size, count * HV * dk * dv), who);
  const Q = wy.qn ?? x.q, K = wy.kn ?? x.k;
  const s = gdnLayoutStrides(plan, plan.heads, dk), so = gdnLayoutStrides(plan, HV, dv);
  const vtiles = Math.ceil(dv / L.BO), nrb = C / L.RBO;
  const tiles = count * HV * vtiles * nrb;
  runProgram(gdnOutputProgram(L, Q.dtype === 'float16' ? 'f16' : 'f32', x.v.dtype === 'float16' ? 'f16' : 'f32'), {
    inputs: {
      tab: chunks.table.gpuStorage(), Q: Q.gpuStorage(), K: K.gpuStorage(), gcum: wy.gcum.gpuStorage(),
      h: st.h.gpuStorage(), vn: st.vn.gpuStorage(), status: wy.status.gpuStorage(),
    },
    outputs: { o: o.gpuStorage() },
    uniforms: {
      tiles, nrb, vtiles, HV, hpk: HV / plan.heads, sB: s.sB, sT: s.sT, sH: s.sH, oB: so.sB, oT: so.sT, oH: so.sH, scale: plan.scale,
    },
    workgroups: tiles,
  });
  return o;
}
