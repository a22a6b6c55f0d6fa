// The Gated DeltaNet backward on the GPU (registry op gdnBackward, float32 and float16
// storage): the forward's stages recomputed (gdn_wy.ts with T kept, gdn_state_staged.ts), then the
// backward of the chunked WY form stage by stage (docs/gdn.md "Backward"; the structure of
// flash-linear-attention's chunk_gated_delta_rule_bwd):
//   per chunk in parallel:  QK = Q·Kᵀ, KK = K·Kᵀ;  dVn_local = scale·(QK ⊙ M)ᵀ·dO;  dhq = scale·(ΓQ)ᵀ·dO
//   reverse pass:           dhE_c = dh;  dVt = dVn_local + (K ⊙ Γ_L/Γ)·dh;  dh ← Γ_L·dh + dhq − Wᵀ·dVt
//   per chunk in parallel:  X = Tᵀ·dVt (dv = β ⊙ X);  P = dO·Vnᵀ, dA = −X·Vnᵀ;
//                           dQ = scale·diag(Γ)·dO·hᵀ,  dK = diag(Γ_L/Γ)·Vn·dhEᵀ − diag(βΓ)·X·hᵀ
//                           (with the row dots q·h·dO, k·dhE·Vn, k·h·X that dγ and dβ need);
//                           dγ, dβ (→ dg by a reverse cumulative sum), Pm = scale·P ⊙ M, Bs = B + Bᵀ;
//                           dQ += Pm·K,  dK += Pmᵀ·Q + Bs·K
//   per token: dq, dk summed over the value heads of each key head, through the L2 norm.
// (dA = −Tᵀ·dT·Tᵀ with dT = dW·(βΓK)ᵀ + dU·(βV)ᵀ collapses to −X·Vnᵀ since (I + A)·Vn = βV − βΓK·h.)
// Every product is one template kernel (shaders/gdn/bwd_mm.wgsl) with generated loaders; at
// most 8 storage bindings per kernel (WebGPU's default limit), so the scratch arrays are few
// and shared between stages. One submission, no host reads.
import { Tensor, type GpuStorage } from '../../core/tensor.js';
import { ArgumentError, ShapeError } from '../../core/errors.js';
import type { GdnInputs, GdnPlan, GdnSaved } from '../ops.js';
import { register } from '../registry.js';
import { cachedProgram, runProgram, type GpuProgram, type ProgramDecl, type RunOptions, type StorageType } from './program.js';
import { loadShader } from './preprocess.js';
import { emptyGpu } from './tensor-ops.js';
import { allocStorage, bufferOf } from './pool.js';
import { gpuDevice, gpuLimits, type GpuLimits } from './device.js';
import { checkIndexRange } from './small.js';
import { gdnChunkTable, type GdnChunkTable, type GdnStates, type GdnWy } from './gdn_chunks.js';
import { gdnWyGpu } from './gdn_wy.js';
import { gdnStatePassStagedGpu } from './gdn_state_staged.js';
import type { GdnGpuSaved } from './gdn.js';

const UNIFORMS = {
  nwork: 'u32', nlin: 'u32', nct: 'u32', nrt: 'u32', hvn: 'u32', grp: 'u32', dk: 'u32', dv: 'u32', cs: 'u32', tab0: 'u32',
  qsb: 'u32', qst: 'u32', qsh: 'u32', vsb: 'u32', vst: 'u32', vsh: 'u32', gsb: 'u32', gst: 'u32', gsh: 'u32',
  scale: 'f32', nanbits: 'u32', nvt: 'u32', count: 'u32', slot: 'u32', hoff: 'u32', flag: 'u32',
} as const;
type Uniforms = { [K in keyof typeof UNIFORMS]: number };

/** Tile sizes of the backward (program-key parameters). */
export interface GdnBwdTiles {
  /** K-depth of the product kernels' workgroup tiles (16 or 32). */
  KT: number;
  /** dv columns per workgroup of the reverse pass. */
  BV: number;
  /**
   * Width of the reverse pass's K slices (32, 64 or 128, at most dk rounded up to a power of two):
   * by default 64 where it fits the workgroup memory, else narrower.
   */
  KW?: number;
  /**
   * W's column in registers for the reverse pass's dh update where a thread owns one row of dh
   * (default): one memory latency per chunk, for 64 more registers per thread (fewer workgroups in flight).
   */
  WP?: boolean;
}

const RT = 64, NT = 64;
/** Row stride of the workgroup tiles in floats: +4 spreads a k-major store over banks and keeps vec4 alignment. */
const AS = RT + 4, BS = NT + 4;

/** Workgroup bytes of the product kernels for K depth KT. */
export function mmBytes(KT: number): number {
  return (KT * AS + KT * BS + 128 + 4 * 256) * 4;
}

/** dk rounded up to a power of two ≥ 32 (the narrowest K slice): one kernel variant serves a range of dk. */
function dkPow2(dk: number): number {
  let DKP = 32;
  while (DKP < dk) DKP *= 2;
  return DKP;
}

/**
 * The reverse pass's layout for BV columns and K slices KW wide: TPR threads per row (4 columns
 * each), RPS rows per sweep; NS slices of 64 × KW, NKL loads of each per thread; W's column
 * prefetched into registers (WPF) where a thread owns one row of dh.
 */
function stateLayout(dk: number, BV: number, KW: number, WP = true) {
  const TPR = BV / 4, RPS = 256 / TPR;
  const DKP = dkPow2(dk);
  const MR = Math.max(1, Math.ceil(DKP / RPS));
  return {
    TPR, RPS, MR, NR2: Math.ceil(64 / RPS), DKP, SDH: DKP * TPR, SDV: 64 * TPR,
    KW, NS: DKP / KW, NKL: KW / 4, SK: 64 * (KW + 1), WPF: WP && MR === 1,
  };
}

/** Workgroup bytes of the reverse pass for dk, BV columns and K slices KW wide (32 by default: the least). */
export function stateBytes(dk: number, BV: number, KW = 32): number {
  const l = stateLayout(dk, BV, KW);
  return (4 * (l.SDH + l.SDV) + l.SK + 256) * 4;
}

/**
 * KT 16 and BV 8 (H200, B 4, T 4096, H 16, dk = dv = 128: the backward kernels 18.1 ms at KT 16
 * vs 22.0 at KT 32, the reverse pass ~2.7 ms faster at BV 8 than at 16, slower at 4 and 32:
 * more workgroups in flight hide its latency), fewer columns where the workgroup memory is short.
 * KW 64 and WP (W's column in registers) from the H200 (bench/results/gdn-tune-h200-run3.txt:
 * the backward kernels 9.9 ms at KW 64, 13.6 at 128, 10.3 at 32; 15.9 without WP).
 */
export function gdnBwdTiles(dk: number, dv: number, limits: Pick<GpuLimits, 'maxComputeWorkgroupStorageSize'>, over: Partial<GdnBwdTiles> = {}): GdnBwdTiles {
  const mem = limits.maxComputeWorkgroupStorageSize;
  const KT = over.KT ?? 16;
  let BV = over.BV ?? 8;
  if (over.BV === undefined) {
    while (BV > 4 && (stateBytes(dk, BV) > mem || BV / 2 >= dv)) BV /= 2;
  }
  if (![4, 8, 16, 32].includes(BV)) throw new ArgumentError(`gdnBwdTiles: BV is ${BV}; expected 4, 8, 16 or 32`);
  const DKP = dkPow2(dk);
  // 64-column K slices: the reverse pass's fastest on the H200 (bench/results/gdn-tune-h200-run3.txt)
  let KW = over.KW ?? Math.min(DKP, 64);
  if (over.KW === undefined) {
    while (KW > 32 && stateBytes(dk, BV, KW) > mem) KW /= 2;
  }
  if (![32, 64, 128].includes(KW) || KW > DKP) throw new ArgumentError(`gdnBwdTiles: KW is ${KW}; expected 32, 64 or 128, at most ${DKP} here`);
  return { KT, BV, KW, WP: over.WP ?? true };
}

// ---------------------------------------------------------------- loaders and programs

type Src = 'f32' | 'f16';
/** A loader `name(i, d)` of row i (0 past the chunk's length) from `binding` at `index`. */
function loader(name: string, binding: string, src: Src, index: string, twoArgs = true): string {
  const ld = src === 'f16' ? `unpack2x16float(${binding}[x >> 1u])[x & 1u]` : `${binding}[x]`;
  return `fn ${name}(i: u32${twoArgs ? ', d: u32' : ''}) -> f32 {\n  if (i >= ch.w) { return 0.0; }\n  let x = ${index};\n  return ${ld};\n}`;
}
const LD = {
  q: (s: Src, b = 'Qs', n = 'ldq') => loader(n, b, s, 'qk_at(i, d)'),
  k: (s: Src, b = 'Ks', n = 'ldk') => loader(n, b, s, 'qk_at(i, d)'),
  v: (s: Src) => loader('ldv', 'Vs', s, 'v_at(i, d)'),
  dO: (s: Src) => loader('lddo', 'dO', s, 'v_at(i, d)'),
  b: (s: Src) => loader('ldb', 'beta', s, 'g_at(i)', false),
};
const bind = (s: Src): StorageType => (s === 'f16' ? 'u32' : 'f32');

interface MmSeg {
  klen: string;
  a: string;
  b: string;
  /**
   * Which index consecutive threads take when they load the tiles, so that the global reads
   * coalesce: 'k' where the source is contiguous along K (a row of Q, dO, Vn…), else the
   * row (A) or column (B) index (a transposed source: Tᵀ, (QKᵀ)ᵀ, or dO·rows).
   */
  aFast: 'k' | 'i';
  bFast: 'k' | 'j';
}

interface MmSpec {
  name: string;
  /** Row count (WGSL expression) and column count. */
  rows: string;
  cols: string;
  segs: MmSeg[];
  epi: string;
  loaders: string[];
  inputs: Record<string, StorageType>;
  outputs: Record<string, StorageType>;
  /**
   * After the segments: the row dots Σ_j acc(i, j)·w(i, j) over the tile's columns (w a loader,
   * ldq or ldk), partial per column tile, into RWP[((cb·C + i)·3 + slot)·nct + tile].
   */
  dot?: { w: string; slot: number };
}

function mmProgram(spec: MmSpec, key: string, KT: number) {
  const fullKey = `${key},KT=${KT}`;
  return cachedProgram(`${spec.name}|${fullKey}`, () => {
    const segments = spec.segs.map((s, n) => {
      const aIdx = s.aFast === 'k' ? [`e / ${KT}u`, `e % ${KT}u`] : [`e % ${RT}u`, `e / ${RT}u`];
      const bIdx = s.bFast === 'k' ? [`e % ${KT}u`, `e / ${KT}u`] : [`e / ${NT}u`, `e % ${NT}u`];
      const NA = (RT * KT) / 256, NB = (KT * NT) / 256;
      // the next K step's elements go to registers before this step's multiply-adds: their
      // global latency overlaps the products instead of following each barrier
      const load = (kb: string) => `
      for (var l = 0u; l < ${NA}u; l++) {
        let e = lid + 256u * l;
        let k = ${kb} + ${aIdx[1]};
        let i = row0 + ${aIdx[0]};
        var v = 0.0;
        if (k < ${s.klen} && i < ${spec.rows}) { v = a${n}(i, k); }
        pa[l] = v;
      }
      for (var l = 0u; l < ${NB}u; l++) {
        let e = lid + 256u * l;
        let k = ${kb} + ${bIdx[0]};
        let j = col0 + ${bIdx[1]};
        var v = 0.0;
        if (k < ${s.klen} && j < ${spec.cols}) { v = b${n}(k, j); }
        pb[l] = v;
      }`;
      return `
  {
    var pa: array<f32, ${NA}>;
    var pb: array<f32, ${NB}>;
    ${load('0u')}
    for (var k0 = 0u; k0 < ${s.klen}; k0 += ${KT}u) {
      for (var l = 0u; l < ${NA}u; l++) {
        let e = lid + 256u * l;
        let r = ${aIdx[0]};
        As[(${aIdx[1]}) * ${AS / 4}u + r / 4u][r % 4u] = pa[l];
      }
      for (var l = 0u; l < ${NB}u; l++) {
        let e = lid + 256u * l;
        let c = ${bIdx[1]};
        Bs[(${bIdx[0]}) * ${BS / 4}u + c / 4u][c % 4u] = pb[l];
      }
      workgroupBarrier();
      if (k0 + ${KT}u < ${s.klen}) {${load(`k0 + ${KT}u`)}
      }
      for (var k = 0u; k < ${KT}u; k++) {
        let a = As[k * ${AS / 4}u + r4 / 4u];
        let b = Bs[k * ${BS / 4}u + c4 / 4u];
        acc0 = fma(vec4f(a.x), b, acc0);
        acc1 = fma(vec4f(a.y), b, acc1);
        acc2 = fma(vec4f(a.z), b, acc2);
        acc3 = fma(vec4f(a.w), b, acc3);
      }
      workgroupBarrier();
    }
  }`;
    }).join('\n');
    const funcs = [
      ...spec.loaders,
      ...spec.segs.flatMap((s, n) => [
        `fn a${n}(i: u32, k: u32) -> f32 {\n${s.a}\n}`,
        `fn b${n}(k: u32, j: u32) -> f32 {\n${s.b}\n}`,
      ]),
      `fn epi(i: u32, j: u32, v: f32) {\n${spec.epi}\n}`,
    ].join('\n\n');
    const d = spec.dot;
    const dot = d ? `
  {
    var part = vec4f(0.0);
    for (var s = 0u; s < 4u; s++) {
      let j = col0 + c4 + s;
      if (j < ${spec.cols}) {
        let i = row0 + r4;
        part += vec4f(acc0[s] * ${d.w}(i, j), acc1[s] * ${d.w}(i + 1u, j), acc2[s] * ${d.w}(i + 2u, j), acc3[s] * ${d.w}(i + 3u, j));
      }
    }
    red[lid] = part;
    workgroupBarrier();
    if (lid % 16u == 0u) {
      var t = vec4f(0.0);
      for (var x = 0u; x < 16u; x++) { t += red[lid + x]; }
      for (var r = 0u; r < 4u; r++) {
        let i = row0 + r4 + r;
        if (i < ${spec.rows}) { RWP[((cb * p.cs + i) * 3u + ${d.slot}u) * p.nct + col0 / ${NT}u] = t[r]; }
      }
    }
  }` : '';
    const defs = {
      ASZ: KT * AS / 4, BSZ: KT * BS / 4, RT, NT, NROWS: spec.rows, NCOLS: spec.cols,
      FUNCS: funcs, SEGMENTS: segments + dot, ENTRY: spec.name, DOT: !!d,
    };
    return {
      name: spec.name, key: fullKey, entryPoint: spec.name, workgroupSize: [256, 1, 1] as [number, number, number],
      workgroupBytes: mmBytes(KT),
      decl: { inputs: { ctab: 'u32' as StorageType, ...spec.inputs }, outputs: spec.outputs, uniforms: UNIFORMS } satisfies ProgramDecl,
      body: () => loadShader('gdn/bwd_mm.wgsl', defs),
    };
  });
}

/** Element sources of a call: the q/k the products read (normalised f32 copies or the raw inputs) and the rest. */
export interface GdnBwdSrc {
  /** q/k as the products read them. */
  qk: Src;
  /** v, β, dO and the raw q/k. */
  x: Src;
}

const MM_IN = (s: GdnBwdSrc) => ({ gcum: 'f32' as StorageType, beta: bind(s.x) });
/** For products that read no β: the template's β row is zeros. */
const NO_BETA = 'fn ldb(i: u32) -> f32 { return 0.0; }';

/** QK = Q·Kᵀ (which 0), KK = K·Kᵀ (which 1) → CC. */
export function bwdQkProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_qk', rows: 'p.cs', cols: 'p.cs',
    segs: [{ klen: 'p.dk', a: '  if (which == 0u) { return ldq(i, k); }\n  return ldk(i, k);', b: '  return ldk(j, k);', aFast: 'k', bFast: 'k' }],
    epi: '  CC[which * p.nlin * p.cs * p.cs + ccx(i, j)] = v;',
    loaders: [LD.q(s.qk), LD.k(s.qk), LD.b(s.x)],
    inputs: { ...MM_IN(s), Qs: bind(s.qk), Ks: bind(s.qk) }, outputs: { CC: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** dVn_local = scale·(QK ⊙ M)ᵀ·dO → CD1. */
export function bwdDvlProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dvl', rows: 'p.cs', cols: 'p.dv',
    segs: [{
      klen: 'p.cs',
      a: '  if (k < i || k >= ch.w) { return 0.0; }\n  return p.scale * CC[ccx(k, i)] * exp(gam[k] - gam[i]);',
      b: '  return lddo(k, j);', aFast: 'i', bFast: 'j',
    }],
    epi: '  CD1[rc(i, j, p.dv)] = v;',
    loaders: [LD.dO(s.x), LD.b(s.x)],
    inputs: { ...MM_IN(s), CC: 'f32', dO: bind(s.x) }, outputs: { CD1: 'f32' },
  }, `x=${s.x}`, KT);
}

/** dhq = scale·(ΓQ)ᵀ·dO (dk × dv per chunk) → DHE[c]. */
export function bwdDhqProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dhq', rows: 'p.dk', cols: 'p.dv',
    segs: [{ klen: 'p.cs', a: '  return p.scale * exp(gam[k]) * ldq(k, i);', b: '  return lddo(k, j);', aFast: 'i', bFast: 'j' }],
    epi: '  DHE[sx(i, j)] = v;',
    loaders: [LD.q(s.qk), LD.dO(s.x), LD.b(s.x)],
    inputs: { ...MM_IN(s), Qs: bind(s.qk), dO: bind(s.x) }, outputs: { DHE: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** X = Tᵀ·dVt in place in CD2, and dv = β ⊙ X (float32, v's layout; NaN where status ≠ 0). */
export function bwdXProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_x', rows: 'p.cs', cols: 'p.dv',
    segs: [{
      klen: 'p.cs', a: '  if (i >= ch.w || k >= ch.w) { return 0.0; }\n  return Tm[ccx(k, i)];', b: '  return CD2[rc(k, j, p.dv)];', aFast: 'i', bFast: 'j',
    }],
    epi: '  CD2[rc(i, j, p.dv)] = v;\n  if (i < ch.w) { DV[v_at(i, j)] = select(bet[i] * v, nanf(), status[ch.x * p.hvn + hv] != 0); }',
    loaders: [LD.b(s.x)],
    inputs: { ...MM_IN(s), Tm: 'f32', status: 'i32' }, outputs: { CD2: 'f32', DV: 'f32' },
  }, `x=${s.x}`, KT);
}

/** P = dO·Vnᵀ (which 0), dA = −X·Vnᵀ (which 1) → CC2. */
export function bwdPdaProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_pda', rows: 'p.cs', cols: 'p.cs',
    segs: [{
      klen: 'p.dv',
      a: '  if (which == 0u) { return lddo(i, k); }\n  if (i >= ch.w) { return 0.0; }\n  return -CD2[rc(i, k, p.dv)];',
      b: '  if (j >= ch.w) { return 0.0; }\n  return vn[rc(j, k, p.dv)];', aFast: 'k', bFast: 'k',
    }],
    epi: '  CC2[which * p.nlin * p.cs * p.cs + ccx(i, j)] = v;',
    loaders: [LD.dO(s.x), LD.b(s.x)],
    inputs: { ...MM_IN(s), dO: bind(s.x), CD2: 'f32', vn: 'f32' }, outputs: { CC2: 'f32' },
  }, `x=${s.x}`, KT);
}

/** dQ per value head, state part: scale·diag(Γ)·dO·hᵀ → DQS; the row dots q·(h·dO) → RWP slot 0. */
export function bwdDqhProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dqh', rows: 'p.cs', cols: 'p.dk',
    segs: [{ klen: 'p.dv', a: '  return lddo(i, k);', b: '  return hs[sx(j, k)];', aFast: 'k', bFast: 'k' }],
    epi: '  DQS[rc(i, j, p.dk)] = p.scale * exp(gam[i]) * v;',
    dot: { w: 'ldq', slot: 0 },
    loaders: [LD.q(s.qk), LD.dO(s.x), NO_BETA],
    inputs: { gcum: 'f32', dO: bind(s.x), hs: 'f32', Qs: bind(s.qk) }, outputs: { DQS: 'f32', RWP: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** dQ per value head, intra-chunk part: + Pm·K, added to DQS. */
export function bwdDq2Program(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dq2', rows: 'p.cs', cols: 'p.dk',
    segs: [{ klen: 'p.cs', a: '  return PMBS[ccx(i, k)];', b: '  return ldk(k, j);', aFast: 'k', bFast: 'j' }],
    epi: '  let x = rc(i, j, p.dk);\n  DQS[x] = DQS[x] + v;',
    loaders: [LD.k(s.qk), NO_BETA],
    inputs: { gcum: 'f32', PMBS: 'f32', Ks: bind(s.qk) }, outputs: { DQS: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** dK per value head from the state update: diag(Γ_L/Γ)·Vn·dhEᵀ → DKS; the row dots (z) → RWP slot 2. */
export function bwdDk1aProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dk1a', rows: 'p.cs', cols: 'p.dk',
    segs: [{
      klen: 'p.dv', a: '  if (i >= ch.w) { return 0.0; }\n  return exp(gam[ch.w - 1u] - gam[i]) * vn[rc(i, k, p.dv)];',
      b: '  return DHE[sx(j, k)];', aFast: 'k', bFast: 'k',
    }],
    epi: '  DKS[rc(i, j, p.dk)] = v;',
    dot: { w: 'ldk', slot: 2 },
    loaders: [LD.k(s.qk), NO_BETA],
    inputs: { gcum: 'f32', vn: 'f32', DHE: 'f32', Ks: bind(s.qk) }, outputs: { DKS: 'f32', RWP: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** dK per value head through W: − diag(βΓ)·X·hᵀ, added to DKS; the row dots k·(h·X) → RWP slot 1. */
export function bwdDk1bProgram(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dk1b', rows: 'p.cs', cols: 'p.dk',
    segs: [{ klen: 'p.dv', a: '  return CD2[rc(i, k, p.dv)];', b: '  return hs[sx(j, k)];', aFast: 'k', bFast: 'k' }],
    epi: '  let x = rc(i, j, p.dk);\n  DKS[x] = DKS[x] - bet[i] * exp(gam[i]) * v;',
    dot: { w: 'ldk', slot: 1 },
    loaders: [LD.k(s.qk), LD.b(s.x)],
    inputs: { ...MM_IN(s), CD2: 'f32', hs: 'f32', Ks: bind(s.qk) }, outputs: { DKS: 'f32', RWP: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** dK per value head, intra-chunk part: + Pmᵀ·Q + Bs·K, added to DKS. */
export function bwdDk2Program(s: GdnBwdSrc, KT: number) {
  return mmProgram({
    name: 'gdn_bwd_dk2', rows: 'p.cs', cols: 'p.dk',
    segs: [
      { klen: 'p.cs', a: '  return PMBS[ccx(k, i)];', b: '  return ldq(k, j);', aFast: 'i', bFast: 'j' },
      { klen: 'p.cs', a: '  return PMBS[p.nlin * p.cs * p.cs + ccx(i, k)];', b: '  return ldk(k, j);', aFast: 'k', bFast: 'j' },
    ],
    epi: '  let x = rc(i, j, p.dk);\n  DKS[x] = DKS[x] + v;',
    loaders: [LD.q(s.qk), LD.k(s.qk), LD.b(s.x)],
    inputs: { ...MM_IN(s), PMBS: 'f32', Qs: bind(s.qk), Ks: bind(s.qk) }, outputs: { DKS: 'f32' },
  }, `qk=${s.qk},x=${s.x}`, KT);
}

/** The reverse pass (shaders/gdn/bwd_state.wgsl) for dk and BV columns. */
export function bwdStateProgram(s: GdnBwdSrc, dk: number, BV: number, KW = 32, WP = true) {
  const l = stateLayout(dk, BV, KW, WP);
  const key = `qk=${s.qk},MR=${l.MR},DKP=${l.DKP},BV=${BV},KW=${KW},WPF=${l.WPF}`;
  return cachedProgram(`gdn_bwd_state|${key}`, () => ({
    name: 'gdn_bwd_state', key, entryPoint: 'gdn_bwd_state', workgroupSize: [256, 1, 1] as [number, number, number],
    workgroupBytes: stateBytes(dk, BV, KW),
    decl: {
      inputs: { ctab: 'u32', gcum: 'f32', Ks: bind(s.qk), Wm: 'f32', hs: 'f32', CD1: 'f32' },
      outputs: { CD2: 'f32', DHE: 'f32' }, uniforms: UNIFORMS,
    } as const,
    body: () => loadShader('gdn/bwd_state.wgsl', { BV, ...l, FUNCS: LD.k(s.qk) }),
  }));
}

/** Per-row dv reductions (shaders/gdn/bwd_rows.wgsl). */
export function bwdRowsProgram(s: GdnBwdSrc) {
  const key = `x=${s.x}`;
  return cachedProgram(`gdn_bwd_rows|${key}`, () => ({
    name: 'gdn_bwd_rows', key, entryPoint: 'gdn_bwd_rows', workgroupSize: [256, 1, 1] as [number, number, number],
    workgroupBytes: 256 * 16,
    decl: {
      inputs: { ctab: 'u32', CD2: 'f32', Vs: bind(s.x), RWP: 'f32' },
      outputs: { RW: 'f32' }, uniforms: UNIFORMS,
    } as const,
    body: () => loadShader('gdn/bwd_rows.wgsl', { FUNCS: LD.v(s.x) }),
  }));
}

/** The C×C step and the per-row dγ, dβ (shaders/gdn/bwd_ccfin.wgsl). */
export function bwdCcfinProgram(s: GdnBwdSrc) {
  const key = `x=${s.x}`;
  return cachedProgram(`gdn_bwd_ccfin|${key}`, () => ({
    name: 'gdn_bwd_ccfin', key, entryPoint: 'gdn_bwd_ccfin', workgroupSize: [256, 1, 1] as [number, number, number],
    workgroupBytes: 5 * 64 * 4,
    decl: {
      inputs: { ctab: 'u32', gcum: 'f32', beta: bind(s.x), CC: 'f32', CC2: 'f32', DHE: 'f32' },
      outputs: { RW: 'f32', PMBS: 'f32' }, uniforms: UNIFORMS,
    } as const,
    body: () => loadShader('gdn/bwd_ccfin.wgsl', { FUNCS: LD.b(s.x) }),
  }));
}

/** dg and dβ in the gate layout (shaders/gdn/bwd_gate.wgsl). */
export function bwdGateProgram() {
  return cachedProgram('gdn_bwd_gate|', () => ({
    name: 'gdn_bwd_gate', key: '', entryPoint: 'gdn_bwd_gate', workgroupSize: [64, 1, 1] as [number, number, number],
    decl: { inputs: { ctab: 'u32', status: 'i32', RW: 'f32' }, outputs: { DB: 'f32', DG: 'f32' }, uniforms: UNIFORMS } as const,
    body: () => loadShader('gdn/bwd_gate.wgsl', {}),
  }));
}

/** dq, dk per key head through the L2 norm (shaders/gdn/bwd_qkout.wgsl). */
export function bwdQkoutProgram(s: GdnBwdSrc) {
  const key = `x=${s.x}`;
  return cachedProgram(`gdn_bwd_qkout|${key}`, () => ({
    name: 'gdn_bwd_qkout', key, entryPoint: 'gdn_bwd_qkout', workgroupSize: [256, 1, 1] as [number, number, number],
    workgroupBytes: 256 * 16,
    decl: {
      inputs: { ctab: 'u32', status: 'i32', Qr: bind(s.x), Kr: bind(s.x), DQS: 'f32', DKS: 'f32' },
      outputs: { DQ: 'f32', DK: 'f32' }, uniforms: UNIFORMS,
    } as const,
    body: () => loadShader('gdn/bwd_qkout.wgsl', { FUNCS: [LD.q(s.x, 'Qr', 'ldqr'), LD.k(s.x, 'Kr', 'ldkr')].join('\n') }),
  }));
}

/** The elementwise steps (shaders/gdn/bwd_elem.wgsl). */
export function bwdDfinProgram() {
  return cachedProgram('gdn_bwd_dfin|', () => ({
    name: 'gdn_bwd_dfin', key: '', entryPoint: 'gdn_bwd_dfin', workgroupSize: [256, 1, 1] as [number, number, number],
    decl: { inputs: { dF: 'f32' }, outputs: { DHE: 'f32' }, uniforms: UNIFORMS } as const,
    body: () => loadShader('gdn/bwd_elem.wgsl', { DFIN: true, S0: false, UNPACK: false, ENTRY: 'gdn_bwd_dfin' }),
  }));
}

export function bwdS0Program() {
  return cachedProgram('gdn_bwd_s0|', () => ({
    name: 'gdn_bwd_s0', key: '', entryPoint: 'gdn_bwd_s0', workgroupSize: [256, 1, 1] as [number, number, number],
    decl: { inputs: { status: 'i32', DHE: 'f32' }, outputs: { dS0: 'f32' }, uniforms: UNIFORMS } as const,
    body: () => loadShader('gdn/bwd_elem.wgsl', { DFIN: false, S0: true, UNPACK: false, ENTRY: 'gdn_bwd_s0' }),
  }));
}

export function bwdUnpackProgram() {
  return cachedProgram('gdn_bwd_unpack|', () => ({
    name: 'gdn_bwd_unpack', key: '', entryPoint: 'gdn_bwd_unpack', workgroupSize: [256, 1, 1] as [number, number, number],
    decl: { inputs: { H: 'u32' }, outputs: { F: 'f32' }, uniforms: UNIFORMS } as const,
    body: () => loadShader('gdn/bwd_elem.wgsl', { DFIN: false, S0: false, UNPACK: true, ENTRY: 'gdn_bwd_unpack' }),
  }));
}

export function bwdPackProgram() {
  return cachedProgram('gdn_bwd_pack|', () => ({
    name: 'gdn_bwd_pack', key: '', entryPoint: 'gdn_bwd_pack', workgroupSize: [256, 1, 1] as [number, number, number],
    decl: { inputs: { F: 'f32' }, outputs: { H: 'u32' }, uniforms: UNIFORMS } as const,
    body: () => loadShader('gdn/bwd_elem.wgsl', { DFIN: false, S0: false, UNPACK: false, ENTRY: 'gdn_bwd_pack' }),
  }));
}

/** Every program variant of a call shape (the preamble snapshot test lists them). */
export function gdnBackwardPrograms(s: GdnBwdSrc, dk: number, t: GdnBwdTiles) {
  return [
    bwdQkProgram(s, t.KT), bwdDvlProgram(s, t.KT), bwdDhqProgram(s, t.KT), bwdXProgram(s, t.KT), bwdPdaProgram(s, t.KT),
    bwdDqhProgram(s, t.KT), bwdDq2Program(s, t.KT), bwdDk1aProgram(s, t.KT), bwdDk1bProgram(s, t.KT), bwdDk2Program(s, t.KT),
    bwdStateProgram(s, dk, t.BV, t.KW, t.WP),
    bwdRowsProgram(s), bwdCcfinProgram(s), bwdGateProgram(), bwdQkoutProgram(s), bwdDfinProgram(), bwdS0Program(), bwdPackProgram(),
    bwdUnpackProgram(),
  ];
}

// ---------------------------------------------------------------- the call

/** Element strides (batch, time, head) of a q/k, v or gate tensor (as src/gdn/plan.ts gdnStrides; backends don't import src/gdn). */
function strides(plan: GdnPlan, heads: number, dim: number): { sB: number; sT: number; sH: number } {
  const T = plan.time;
  return plan.layout === 'bthd' ? { sB: T * heads * dim, sT: heads * dim, sH: dim } : { sB: heads * T * dim, sT: dim, sH: T * dim };
}

export interface GdnBackwardResult {
  dq: Tensor; dk: Tensor; dv: Tensor; dbeta: Tensor; dg: Tensor; dInitialState: Tensor | null; status: Tensor<'int32'>;
}

/** An upload of a u32 array into a fresh buffer (not a pooled kernel output: a queue write must not race pending commands). */
function uploadU32(a: Uint32Array, who: string): Tensor<'uint32'> {
  const t = Tensor.fromGpu('uint32', [Math.max(1, a.length)], allocStorage(Math.max(1, a.length) * 4, who)) as Tensor<'uint32'>;
  if (a.length > 0) gpuDevice(who).queue.writeBuffer(bufferOf(t.gpuStorage()), 0, a.buffer, a.byteOffset, a.byteLength);
  return t;
}

/**
 * The backward from the forward's stage outputs (wy with T, st): records every kernel. Takes
 * ownership of nothing: the caller disposes wy/st. Exported for tests that build the stages
 * themselves and the bench (upTo: only the first dispatches, to time the stages).
 */
export function gdnBackwardFromStages(
  x: GdnInputs, dO: Tensor, dFinal: Tensor | null, plan: GdnPlan, chunks: GdnChunkTable, wy: GdnWy, st: GdnStates,
  who: string, tiles: Partial<GdnBwdTiles> = {}, upTo = Infinity,
): Omit<GdnBackwardResult, 'status'> {
  // upTo: record only the first upTo dispatches (the bench times the stages one by one)
  let recorded = 0;
  const rec = <D extends ProgramDecl>(prog: GpuProgram<D>, o: RunOptions<D>): void => {
    if (recorded++ < upTo) runProgram(prog, o);
  };
  if (!wy.T) throw new ArgumentError(`${who}: the backward needs the WY stage's T (keepT)`);
  const { seqs: N, vHeads: HV, heads: H, dk, dv, chunk: C } = plan;
  const half = plan.dtype === 'float16';
  // float16 inputs are widened once to float32 copies: every kernel then has one variant
  // (lavapipe compiles each variant for seconds; the copies cost one pass over the inputs).
  const src: GdnBwdSrc = { qk: 'f32', x: 'f32' };
  const limits = gpuLimits(who);
  const t = gdnBwdTiles(dk, dv, limits, tiles);
  if (tiles.BV === undefined && stateBytes(dk, t.BV, t.KW) > limits.maxComputeWorkgroupStorageSize) {
    throw new ShapeError(`${who}: dk = ${dk} is too large for this device's ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory (the backward's reverse pass stages dk × 4 state-gradient columns)`);
  }
  const count = chunks.count, nlin = count * HV;
  const nvt = Math.ceil(dv / t.BV);
  checkIndexRange(Math.max(2 * nlin * C * Math.max(C, dv, dk), (count + N) * HV * dk * dv + nlin * nvt * 8,
    plan.batch * plan.time * Math.max(H * dk, HV * dv)), who);
  const sq = strides(plan, H, dk), sv = strides(plan, HV, dv), sg = strides(plan, HV, 1);
  const u: Uniforms = {
    nwork: 0, nlin, nct: 1, nrt: 1, hvn: HV, grp: HV / H, dk, dv, cs: C, tab0: N + 1,
    qsb: sq.sB, qst: sq.sT, qsh: sq.sH, vsb: sv.sB, vst: sv.sT, vsh: sv.sH, gsb: sg.sB, gst: sg.sT, gsh: sg.sH,
    scale: plan.scale, nanbits: 0x7fc00000, nvt, count, slot: count * HV * dk * dv, hoff: (count + N) * HV * dk * dv, flag: 0,
  };
  const widened: Tensor[] = [];
  if (half) {
    const widen = (h: Tensor): Tensor => {
      const f = emptyGpu('float32', h.shape, who);
      const words = Math.ceil(h.size / 2);
      if (words > 0) {
        rec(bwdUnpackProgram(), {
          inputs: { H: h.gpuStorage() }, outputs: { F: f.gpuStorage() }, uniforms: { ...u, nwork: words, count: h.size }, workgroups: Math.ceil(words / 256),
        });
      }
      widened.push(f);
      return f;
    };
    x = { ...x, q: widen(x.q), k: widen(x.k), v: widen(x.v), beta: widen(x.beta), g: x.g };
    dO = widen(dO);
  }
  const ctabHost = new Uint32Array(N + 1 + 4 * count);
  ctabHost.set(chunks.firstChunk);
  ctabHost.set(chunks.host.subarray(0, 4 * count), N + 1);
  const ctab = uploadU32(ctabHost, who);
  const f32Out = (shape: readonly number[]) => emptyGpu('float32', shape, who);
  // outputs in float32 (the final ones for float32; packed to halves for float16)
  const DQ = f32Out(x.q.shape), DK = f32Out(x.k.shape), DV = f32Out(x.v.shape), DB = f32Out(x.beta.shape), DG = f32Out(x.g.shape);
  const dS0 = x.initialState ? f32Out([N, HV, dk, dv]) : null;
  // scratch
  const DHE = f32Out([(count + N) * HV * dk * dv + Math.max(1, nlin * nvt * 8)]);
  const CD1 = f32Out([nlin, C, dv]), CD2 = f32Out([nlin, C, dv]);
  const CC = f32Out([2, nlin, C, C]), CC2 = f32Out([2, nlin, C, C]), PMBS = f32Out([2, nlin, C, C]);
  const RWP = f32Out([nlin, C, 3, Math.ceil(dk / NT)]), RW = f32Out([nlin, C, 8]);
  const DQS = f32Out([nlin, C, dk]), DKS = f32Out([nlin, C, dk]);
  const g = (tt: Tensor): GpuStorage => tt.gpuStorage();
  const Qs = g(wy.qn ?? x.q), Ks = g(wy.kn ?? x.k);
  const ct = g(ctab), gc = g(wy.gcum), be = g(x.beta), dOs = g(dO), status = g(wy.status);
  const mmRun = (prog: ReturnType<typeof mmProgram>, inputs: Record<string, GpuStorage>, outputs: Record<string, GpuStorage>, ncols: number, nrows: number, which: number) => {
    const nct = Math.ceil(ncols / NT), nrt = Math.ceil(nrows / RT);
    const nwork = nlin * nct * nrt * which;
    if (nwork === 0) return;
    rec(prog, { inputs: { ctab: ct, ...inputs } as never, outputs: outputs as never, uniforms: { ...u, nwork, nct, nrt }, workgroups: nwork });
  };
  const elems = (n: number, extra: Partial<Uniforms> = {}) => ({ uniforms: { ...u, ...extra, nwork: n }, workgroups: Math.ceil(n / 256) });

  // each sequence's dh at its end: dFinal or 0
  const nstate = N * HV * dk * dv;
  if (nstate > 0) {
    rec(bwdDfinProgram(), { inputs: { dF: g(dFinal ?? DB) }, outputs: { DHE: g(DHE) }, ...elems(nstate, { flag: dFinal ? 1 : 0 }) });
  }
  if (count > 0) {
    const KT = t.KT;
    mmRun(bwdQkProgram(src, KT), { gcum: gc, beta: be, Qs, Ks }, { CC: g(CC) }, C, C, 2);
    mmRun(bwdDvlProgram(src, KT), { gcum: gc, beta: be, CC: g(CC), dO: dOs }, { CD1: g(CD1) }, dv, C, 1);
    mmRun(bwdDhqProgram(src, KT), { gcum: gc, beta: be, Qs, dO: dOs }, { DHE: g(DHE) }, dv, dk, 1);
  }
  if (N * HV > 0) {
    const nwork = N * HV * nvt;
    rec(bwdStateProgram(src, dk, t.BV, t.KW, t.WP), {
      inputs: { ctab: ct, gcum: gc, Ks, Wm: g(wy.W), hs: g(st.h), CD1: g(CD1) }, outputs: { CD2: g(CD2), DHE: g(DHE) },
      uniforms: { ...u, nwork }, workgroups: nwork,
    });
  }
  if (count > 0) {
    const KT = t.KT;
    const h = g(st.h), vn = g(st.vn);
    mmRun(bwdXProgram(src, KT), { gcum: gc, beta: be, Tm: g(wy.T), status }, { CD2: g(CD2), DV: g(DV) }, dv, C, 1);
    mmRun(bwdPdaProgram(src, KT), { gcum: gc, beta: be, dO: dOs, CD2: g(CD2), vn }, { CC2: g(CC2) }, C, C, 2);
    mmRun(bwdDqhProgram(src, KT), { gcum: gc, dO: dOs, hs: h, Qs }, { DQS: g(DQS), RWP: g(RWP) }, dk, C, 1);
    mmRun(bwdDk1aProgram(src, KT), { gcum: gc, vn, DHE: g(DHE), Ks }, { DKS: g(DKS), RWP: g(RWP) }, dk, C, 1);
    mmRun(bwdDk1bProgram(src, KT), { gcum: gc, beta: be, CD2: g(CD2), hs: h, Ks }, { DKS: g(DKS), RWP: g(RWP) }, dk, C, 1);
    rec(bwdRowsProgram(src), {
      inputs: { ctab: ct, CD2: g(CD2), Vs: g(x.v), RWP: g(RWP) }, outputs: { RW: g(RW) },
      uniforms: { ...u, nwork: nlin, nct: Math.ceil(dk / NT) }, workgroups: nlin,
    });
    rec(bwdCcfinProgram(src), {
      inputs: { ctab: ct, gcum: gc, beta: be, CC: g(CC), CC2: g(CC2), DHE: g(DHE) }, outputs: { RW: g(RW), PMBS: g(PMBS) },
      uniforms: { ...u, nwork: nlin }, workgroups: nlin,
    });
    rec(bwdGateProgram(), {
      inputs: { ctab: ct, status, RW: g(RW) }, outputs: { DB: g(DB), DG: g(DG) }, uniforms: { ...u, nwork: nlin }, workgroups: nlin,
    });
    mmRun(bwdDq2Program(src, KT), { gcum: gc, PMBS: g(PMBS), Ks }, { DQS: g(DQS) }, dk, C, 1);
    mmRun(bwdDk2Program(src, KT), { gcum: gc, beta: be, PMBS: g(PMBS), Qs, Ks }, { DKS: g(DKS) }, dk, C, 1);
    rec(bwdQkoutProgram(src), {
      inputs: { ctab: ct, status, Qr: g(x.q), Kr: g(x.k), DQS: g(DQS), DKS: g(DKS) }, outputs: { DQ: g(DQ), DK: g(DK) },
      uniforms: { ...u, nwork: count * H, flag: plan.qkL2norm ? 1 : 0 }, workgroups: count * H,
    });
  }
  if (dS0 && nstate > 0) rec(bwdS0Program(), { inputs: { status, DHE: g(DHE) }, outputs: { dS0: g(dS0) }, ...elems(nstate) });
  for (const s of [...widened, ctab, DHE, CD1, CD2, CC, CC2, PMBS, RWP, RW, DQS, DKS]) s.dispose();
  const out = (f: Tensor): Tensor => {
    if (!half) return f;
    const hOut = emptyGpu('float16', f.shape, who);
    const words = Math.ceil(f.size / 2);
    if (words > 0) rec(bwdPackProgram(), { inputs: { F: g(f) }, outputs: { H: g(hOut) }, ...elems(words, { count: f.size }) });
    f.dispose();
    return hOut;
  };
  return { dq: out(DQ), dk: out(DK), dv: out(DV), dbeta: out(DB), dg: out(DG), dInitialState: dS0 };
}

/**
 * gdnBackward on the GPU: the forward's stages (recomputed, or kept by gdnForward(…, keep) and
 * passed as saved), then the backward; one submission.
 */
export function gdnBackwardGpu(
  x: GdnInputs, dO: Tensor, dFinal: Tensor | null, plan: GdnPlan, tiles: Partial<GdnBwdTiles> = {}, saved?: GdnSaved,
): GdnBackwardResult {
  const who = 'gdn.chunkedBackward';
  if (saved) {
    const s = saved as GdnGpuSaved;
    if (s.backend !== 'gpu' || !s.wy?.T) throw new ArgumentError(`${who}: the saved stages are not a kept GPU forward's`);
    const r = gdnBackwardFromStages(x, dO, dFinal, plan, s.chunks, s.wy, s.st, who, tiles);
    return { ...r, status: s.wy.status };
  }
  const chunks = gdnChunkTable(plan);
  const wy = gdnWyGpu(x, plan, chunks, { keepT: true }, who);
  const st = gdnStatePassStagedGpu(x, wy, plan, chunks, who);
  const r = gdnBackwardFromStages(x, dO, dFinal, plan, chunks, wy, st, who, tiles);
  for (const tt of [wy.gcum, wy.W, wy.U, wy.T, wy.qn, wy.kn, st.h, st.vn, st.finalState, chunks.table, chunks.firstChunkGpu]) tt?.dispose();
  return { ...r, status: wy.status };
}

export function registerGdnBackwardGpu(): void {
  register('gdnBackward', ['float32', 'float16'], 'gpu', (x, dO, dFinal, plan, saved) => gdnBackwardGpu(x, dO, dFinal, plan, {}, saved));
}
