/// <reference types="@webgpu/types" />
// Strided batched GEMM on the GPU (shaders/matmul/gemm.wgsl): C ← alpha·op(A)·op(B) + beta·C
// for float32 and complex64 operands given as (storage, offset, ld, batch stride) views.
// The building block of the blocked factorizations' trailing updates (LU, TRSM, QR).
import type { GpuStorage } from '../../core/tensor.js';
import { ArgumentError, DTypeError } from '../../core/errors.js';
import { runProgram, cachedProgram, type StorageType } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { bufferOf } from './pool.js';
import { gpuInfo, gpuLimits } from './device.js';

export interface GemmOperand {
  s: GpuStorage;      // the buffer (tensor.gpuStorage() or a scratch from allocStorage)
  offset: number;     // elements (complex64: complex elements) to the matrix's (0,0) for batch member 0
  ld: number;         // row stride in elements (row-major)
  stride: number;     // elements between consecutive batch members (0: the same matrix for all)
}

export interface GemmArgs {
  dtype: 'float32' | 'complex64';
  m: number; n: number; k: number; batch: number;
  A: GemmOperand; B: GemmOperand; C: GemmOperand;
  opA?: 'N' | 'T' | 'C';   // op(A) is m×k: A itself (N), Aᵀ (T) or Aᴴ (C)
  opB?: 'N' | 'T' | 'C';   // op(B) is k×n
  alpha?: number;          // real, default 1
  beta?: number;           // real, default 0 (C is not read when beta = 0)
}

/** Tile shape of a GEMM variant: workgroup tile BM×BN, depth BK, per-thread TM×TN. */
export interface GemmTile {
  BM: number; BN: number; BK: number; TM: number; TN: number;
  /**
   * float32: threads grouped in 32-lane blocks of SW columns × 32/SW rows of the thread grid
   * instead of 32 consecutive of a row (fewer distinct workgroup-memory addresses per warp).
   */
  SW?: number;
  /** float32: store the fetched panel to workgroup memory before the multiply (fewer live registers). */
  DS?: boolean;
}

/** The tiles `pickGemmTile` chooses from, largest first. */
export const GEMM_F32_TILES = {
  t128: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8 },
  t64: { BM: 64, BN: 64, BK: 16, TM: 4, TN: 4 },
  t32: { BM: 32, BN: 32, BK: 8, TM: 4, TN: 4 },
} as const satisfies Record<string, GemmTile>;
export const GEMM_C64_TILES = {
  t64r8: { BM: 64, BN: 64, BK: 8, TM: 8, TN: 4 },
  t64: { BM: 64, BN: 64, BK: 8, TM: 4, TN: 4 },
  t32: { BM: 32, BN: 32, BK: 8, TM: 4, TN: 4 },
} as const satisfies Record<string, GemmTile>;

/**
 * Candidate tiles the tune bench times against the defaults (bench/suites/matmul-gpu.ts,
 * LAPIS_BENCH_TUNE): deeper BK (fewer barriers per FLOP), wider tiles and per-thread
 * blocks (more FLOPs per workgroup-memory read). Not picked automatically until measured.
 */
export const GEMM_F32_CANDIDATES = {
  ...GEMM_F32_TILES,
  t128k16: { BM: 128, BN: 128, BK: 16, TM: 8, TN: 8 },
  t128r16x8: { BM: 128, BN: 128, BK: 8, TM: 16, TN: 8 },
  t128r16x8k16: { BM: 128, BN: 128, BK: 16, TM: 16, TN: 8 },
  t128x256: { BM: 128, BN: 256, BK: 8, TM: 8, TN: 16 },
  t128x256k16: { BM: 128, BN: 256, BK: 16, TM: 8, TN: 16 },
  t256x128: { BM: 256, BN: 128, BK: 8, TM: 16, TN: 8 },
  t64k32: { BM: 64, BN: 64, BK: 32, TM: 4, TN: 4 },
  t128w8: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8, SW: 8 },
  t128r16x8w8: { BM: 128, BN: 128, BK: 8, TM: 16, TN: 8, SW: 8 },
  t128ds: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8, DS: true },
  t128w8ds: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8, SW: 8, DS: true },
  t128k16ds: { BM: 128, BN: 128, BK: 16, TM: 8, TN: 8, DS: true },
} as const satisfies Record<string, GemmTile>;
export const GEMM_C64_CANDIDATES = {
  ...GEMM_C64_TILES,
  t64r8k16: { BM: 64, BN: 64, BK: 16, TM: 8, TN: 4 },
  t64r8x8: { BM: 64, BN: 64, BK: 8, TM: 8, TN: 8 },
  t128x64: { BM: 128, BN: 64, BK: 8, TM: 8, TN: 4 },
  t128x64k16: { BM: 128, BN: 64, BK: 16, TM: 8, TN: 4 },
} as const satisfies Record<string, GemmTile>;

/** A tile from a name of the candidate lists or a spec "BMxBNxBK/TMxTN[wSW][ds]" (e.g. "128x128x16/8x8", "128x128x8/8x8w8ds"). */
export function gemmTileOf(dtype: 'float32' | 'complex64', spec: string): GemmTile {
  const named = (dtype === 'complex64' ? GEMM_C64_CANDIDATES : GEMM_F32_CANDIDATES) as Record<string, GemmTile>;
  if (Object.hasOwn(named, spec)) return named[spec];
  const m = /^(\d+)x(\d+)x(\d+)\/(\d+)x(\d+)(?:w(\d+))?(ds)?$/.exec(spec);
  if (!m) throw new ArgumentError(`gemm: unknown tile "${spec}" (a candidate name or BMxBNxBK/TMxTN[wSW][ds])`);
  const t: GemmTile = { BM: +m[1], BN: +m[2], BK: +m[3], TM: +m[4], TN: +m[5], ...(m[6] ? { SW: +m[6] } : {}), ...(m[7] ? { DS: true } : {}) };
  checkTile(t, dtype === 'complex64');
  return t;
}

/** Tile rows a run of consecutive workgroups sweeps (shares A and B panels in L2). */
const GROUP = 8;

function checkTile(t: GemmTile, complex: boolean): void {
  const wgx = t.BN / t.TN, wgy = t.BM / t.TM, nt = wgx * wgy;
  const ok = Number.isInteger(wgx) && Number.isInteger(wgy) && nt <= 1024
    && (complex
      ? (t.BM * t.BK) % nt === 0 && (t.BK * t.BN) % nt === 0
      : t.TM % 4 === 0 && t.TN % 4 === 0 && t.BK % 4 === 0 && (t.BM * t.BK / 4) % nt === 0 && (t.BK * t.BN / 4) % nt === 0)
    && (t.SW === undefined || (!complex && 32 % t.SW === 0 && wgx % t.SW === 0 && wgy % (32 / t.SW) === 0))
    && (!t.DS || !complex);
  if (!ok) throw new ArgumentError(`gemm: invalid tile ${JSON.stringify(t)}`);
}

/** Workgroup memory of a tile: A and B panels, double buffered (vec2f per element for complex). */
export function gemmTileBytes(t: GemmTile, complex: boolean): number {
  return 2 * t.BK * (t.BM + t.BN) * (complex ? 8 : 4);
}

/** Whether a tile fits the device's workgroup limits (WebGPU's defaults: 16 KiB, 256 invocations). */
export function gemmTileFits(t: GemmTile, complex: boolean): boolean {
  const lim = gpuLimits('gemm');
  const x = t.BN / t.TN, y = t.BM / t.TM;
  return gemmTileBytes(t, complex) <= lim.maxComputeWorkgroupStorageSize && x * y <= lim.maxComputeInvocationsPerWorkgroup
    && x <= lim.maxComputeWorkgroupSizeX && y <= lim.maxComputeWorkgroupSizeY;
}

/** The largest tile whose workgroup count still fills a large GPU (about 2 per SM on an H200). */
/**
 * Tiles left out of the automatic pick: on the H200 (driver 580) gemm.wgsl ran float32 t128
 * at 2.3 TFLOP/s and complex64 t64r8 at 5.7 (64 accumulators per thread), while t64 ran at
 * 19.8 (bench/results/h200-issue12-tune2.txt; docs/decisions.md). Still selectable by name.
 */
export const GEMM_NOT_PICKED: readonly string[] = ['t128', 't64r8'];

export function pickGemmTile(dtype: 'float32' | 'complex64', batch: number, m: number, n: number): GemmTile {
  const complex = dtype === 'complex64';
  const list = Object.entries<GemmTile>(complex ? GEMM_C64_TILES : GEMM_F32_TILES)
    .filter(([name]) => !GEMM_NOT_PICKED.includes(name)).map(([, t]) => t)
    .filter((t, i, all) => gemmTileFits(t, complex) || i === all.length - 1);
  // A software adapter runs a few workgroups at a time on CPU cores: no occupancy to keep up.
  const minCount = gpuInfo()?.isSoftware ? 1 : 256;
  for (const t of list) {
    const count = batch * Math.ceil(m / t.BM) * Math.ceil(n / t.BN);
    if (m >= t.BM / 2 && n >= t.BN / 2 && count >= minCount) return t;
  }
  return list[list.length - 1];
}

/** What a GEMM kernel variant is specialised for, besides the dtype and tile. */
export interface GemmVariant {
  /** op T or C (C conjugates through a uniform: T and C share the pipeline). */
  transA: boolean; transB: boolean;
  /** float32: the operand is read as vec4f (offset, ld, stride multiples of 4). */
  vecA: boolean; vecB: boolean;
  /** float32: the binding holding the operand is array<vec4f> (C's when aliased). */
  wideA: boolean; wideB: boolean;
  /** float32: C is bound as array<vec4f> and stored as vec4s. */
  vecC: boolean;
  /** The operand lives in C's buffer and is read through C's binding. */
  aliasA: boolean; aliasB: boolean;
  /** Batch member b reads the operand's matrix map[b] (a u32 binding) instead of b. */
  mapA?: boolean; mapB?: boolean;
}

const GEMM_UNIFORMS = {
  M: 'u32', N: 'u32', K: 'u32', total: 'u32', tilesN: 'u32', tilesPerMat: 'u32',
  offA: 'u32', lda: 'u32', sA: 'u32', offB: 'u32', ldb: 'u32', sB: 'u32', offC: 'u32', ldc: 'u32', sC: 'u32',
  alpha: 'f32', beta: 'f32', cjA: 'vec2f', cjB: 'vec2f',
} as const;

interface GemmDecl {
  inputs: Record<string, StorageType>;
  outputs: { C: StorageType };
  uniforms: typeof GEMM_UNIFORMS;
}

/** The GEMM kernel (shaders/matmul/gemm.wgsl) for a dtype, tile and variant. */
export function gemmProgram(dtype: 'float32' | 'complex64', tile: GemmTile, v: GemmVariant) {
  const complex = dtype === 'complex64';
  const f = (b: boolean) => (b ? 1 : 0);
  const key = `${dtype}|${tile.BM}x${tile.BN}x${tile.BK}|${tile.TM}x${tile.TN}|sw${tile.SW ?? 0}|ds${tile.DS ? 1 : 0}|g${GROUP}`
    + `|t${f(v.transA)}${f(v.transB)}v${f(v.vecA)}${f(v.vecB)}${f(v.vecC)}w${f(v.wideA)}${f(v.wideB)}a${f(v.aliasA)}${f(v.aliasB)}m${f(!!v.mapA)}${f(!!v.mapB)}`;
  return cachedProgram(`gemm|${key}`, () => {
    checkTile(tile, complex);
    const wide = v.vecA || v.vecB || v.vecC || v.wideA || v.wideB;
    if (complex && wide) throw new ArgumentError('gemm: vec4 access is float32 only');
    if ((v.vecA && !v.wideA) || (v.vecB && !v.wideB) || (v.aliasA && v.wideA !== v.vecC) || (v.aliasB && v.wideB !== v.vecC)) {
      throw new ArgumentError(`gemm: inconsistent variant ${JSON.stringify(v)}`);
    }
    const T: StorageType = complex ? 'vec2f' : 'f32';
    const defs: Defines = {
      ...dtypeDefines(dtype), BM: tile.BM, BN: tile.BN, BK: tile.BK, TM: tile.TM, TN: tile.TN, SW: tile.SW ?? 0, DS: !!tile.DS,
      WGX: tile.BN / tile.TN, WGY: tile.BM / tile.TM, GROUP,
      TRANS_A: v.transA, TRANS_B: v.transB,
      VEC_A: v.vecA, VEC_B: v.vecB, WIDE_A: v.wideA, WIDE_B: v.wideB, VEC_C: v.vecC, ALIAS_A: v.aliasA, ALIAS_B: v.aliasB,
      MAP_A: !!v.mapA, MAP_B: !!v.mapB,
    };
    const inputs: Record<string, StorageType> = {};
    if (!v.aliasA) inputs.A = v.wideA ? 'vec4f' : T;
    if (!v.aliasB) inputs.B = v.wideB ? 'vec4f' : T;
    if (v.mapA) inputs.aIdx = 'u32';
    if (v.mapB) inputs.bIdx = 'u32';
    const decl: GemmDecl = { inputs, outputs: { C: v.vecC ? 'vec4f' : T }, uniforms: GEMM_UNIFORMS };
    return {
      name: 'gemm', key, entryPoint: `gemm_${defs.DTYPE}`,
      workgroupSize: [tile.BN / tile.TN, tile.BM / tile.TM, 1] as [number, number, number],
      workgroupBytes: gemmTileBytes(tile, complex),
      decl,
      body: () => loadShader('matmul/gemm.wgsl', defs),
    };
  });
}

/** Index of a view's furthest element (an empty view: its offset). */
function lastElement(o: GemmOperand, rows: number, cols: number, batch: number): number {
  return rows * cols * batch === 0 ? o.offset : o.offset + (batch - 1) * o.stride + (rows - 1) * o.ld + cols - 1;
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/**
 * Checks a rows×cols operand view over `batch` members: non-negative integer offset, ld
 * and stride, ld ≥ cols, and its furthest element inside the storage's bytes.
 */
function checkOperand(who: string, name: string, o: GemmOperand, rows: number, cols: number, batch: number, elBytes: number): void {
  if (!o || typeof o !== 'object' || !o.s) throw new ArgumentError(`${who}: gemm operand ${name} has no storage`);
  for (const f of ['offset', 'ld', 'stride'] as const) {
    if (!isCount(o[f])) throw new ArgumentError(`${who}: gemm operand ${name}.${f} must be a non-negative integer, got ${String(o[f])}`);
  }
  if (o.ld < cols) throw new ArgumentError(`${who}: gemm operand ${name}.ld = ${o.ld} is less than its row length ${cols}`);
  if (rows * cols * batch === 0) return;
  const last = lastElement(o, rows, cols, batch);
  if ((last + 1) * elBytes > o.s.byteLength) {
    throw new ArgumentError(`${who}: gemm operand ${name} (${rows}×${cols}, offset ${o.offset}, ld ${o.ld}, stride ${o.stride}, batch ${batch}) `
      + `reaches element ${last}, past its storage of ${Math.floor(o.s.byteLength / elBytes)} elements`);
  }
  if (last >= 2 ** 32) throw new ArgumentError(`${who}: gemm operand ${name} is too large for 32-bit indexing on the GPU`);
}

/**
 * Batch index maps (linalg.matmul's broadcasting): member b of the product reads A's
 * matrix aIdx[b] (u32, batch entries, each < aCount) instead of b; likewise B.
 */
export interface GemmMaps {
  aIdx?: GpuStorage; aCount: number;
  bIdx?: GpuStorage; bCount: number;
}

/** The tile, kernel variant and workgroup counts gemmGpu uses for (valid) args. */
export function planGemm(args: GemmArgs, tile?: GemmTile, maps?: GemmMaps): { tile: GemmTile; variant: GemmVariant; total: number; tilesN: number; tilesPerMat: number } {
  const { dtype, m, n, k, batch, A, B, C } = args;
  const aCount = maps?.aIdx ? maps.aCount : batch, bCount = maps?.bIdx ? maps.bCount : batch;
  const complex = dtype === 'complex64';
  const t = tile ?? pickGemmTile(dtype, batch, m, n);
  const tilesN = Math.ceil(n / t.BN);
  const tilesPerMat = Math.ceil(m / t.BM) * tilesN;
  const total = batch * tilesPerMat;
  if (total > 0xffffffff) throw new ArgumentError(`gemm: ${total} workgroups, more than 32-bit indexing allows`);
  // One buffer is bound once: an operand in C's buffer is read through C's binding.
  const cBuf = bufferOf(C.s);
  const aliasA = bufferOf(A.s) === cBuf, aliasB = bufferOf(B.s) === cBuf;
  // vec4 access needs 4-element alignment, and the view's last vec4 inside the binding
  // (an array<vec4f> over a binding of byteLength rounded to 4 has floor(bytes/16) elements).
  const tA = (args.opA ?? 'N') !== 'N', tB = (args.opB ?? 'N') !== 'N';
  const aligned = (o: GemmOperand) => !complex && o.offset % 4 === 0 && o.ld % 4 === 0 && o.stride % 4 === 0;
  const fits = (o: GemmOperand, rows: number, cols: number, count: number) =>
    Math.floor(lastElement(o, rows, cols, count) / 4) < Math.floor(Math.max(16, Math.ceil(o.s.byteLength / 4) * 4) / 16);
  const fitA = fits(A, tA ? k : m, tA ? m : k, aCount), fitB = fits(B, tB ? n : k, tB ? k : n, bCount);
  const vecC = aligned(C) && fits(C, m, n, batch) && (!aliasA || fitA) && (!aliasB || fitB);
  const wideA = aliasA ? vecC : aligned(A) && fitA;
  const wideB = aliasB ? vecC : aligned(B) && fitB;
  const variant: GemmVariant = {
    transA: tA, transB: tB, vecA: wideA && aligned(A), vecB: wideB && aligned(B), wideA, wideB, vecC, aliasA, aliasB,
    mapA: !!maps?.aIdx, mapB: !!maps?.bIdx,
  };
  return { tile: t, variant, total, tilesN, tilesPerMat };
}

/**
 * C ← alpha·op(A)·op(B) + beta·C over the batch, recorded into the shared encoder. A and/or B may
 * live in the same buffer as C (disjoint regions: the LU/QR trailing update); m, n or k = 0 is a no-op
 * (k = 0 scales C by beta). `tile`: a tile to use instead of the picked one (tests, the bench).
 */
export function gemmGpu(who: string, args: GemmArgs, tile?: GemmTile, maps?: GemmMaps): void {
  const { dtype, m, n, k, batch, A, B, C } = args;
  if (dtype !== 'float32' && dtype !== 'complex64') throw new DTypeError(`${who}: gemm on the GPU takes float32 or complex64, got ${String(dtype)}`);
  for (const [nm, v] of [['m', m], ['n', n], ['k', k], ['batch', batch]] as const) {
    if (!isCount(v)) throw new ArgumentError(`${who}: gemm ${nm} must be a non-negative integer, got ${String(v)}`);
  }
  const opA = args.opA ?? 'N', opB = args.opB ?? 'N';
  for (const [nm, op] of [['opA', opA], ['opB', opB]] as const) {
    if (op !== 'N' && op !== 'T' && op !== 'C') throw new ArgumentError(`${who}: gemm ${nm} must be 'N', 'T' or 'C', got ${String(op)}`);
  }
  const alpha = args.alpha ?? 1, beta = args.beta ?? 0;
  if (typeof alpha !== 'number' || typeof beta !== 'number') throw new ArgumentError(`${who}: gemm alpha and beta must be numbers`);
  const complex = dtype === 'complex64';
  const el = complex ? 8 : 4;
  const tA = opA !== 'N', tB = opB !== 'N';
  // A mapped operand spans its own count of matrices (the maps' entries are the caller's: matmul builds them).
  const aCount = maps?.aIdx ? maps.aCount : batch, bCount = maps?.bIdx ? maps.bCount : batch;
  checkOperand(who, 'A', A, tA ? k : m, tA ? m : k, aCount, el);
  checkOperand(who, 'B', B, tB ? n : k, tB ? k : n, bCount, el);
  checkOperand(who, 'C', C, m, n, batch, el);
  if (batch > 1 && C.stride === 0 && m * n > 0) throw new ArgumentError(`${who}: gemm C.stride = 0 with batch ${batch} would write one matrix from every member`);
  if (m * n * batch === 0) return;
  const { tile: t, variant, total, tilesN, tilesPerMat } = planGemm(args, tile, maps);
  // alpha = 0 reads neither A nor B (BLAS): NaN in them must not reach C.
  const K = alpha === 0 ? 0 : k;
  const inputs: Record<string, GpuStorage> = {};
  if (!variant.aliasA) inputs.A = A.s;
  if (!variant.aliasB) inputs.B = B.s;
  if (maps?.aIdx) inputs.aIdx = maps.aIdx;
  if (maps?.bIdx) inputs.bIdx = maps.bIdx;
  runProgram(gemmProgram(dtype, t, variant), {
    inputs, outputs: { C: C.s },
    uniforms: {
      M: m, N: n, K, total, tilesN, tilesPerMat,
      offA: A.offset, lda: A.ld, sA: A.stride, offB: B.offset, ldb: B.ld, sB: B.stride,
      offC: C.offset, ldc: C.ld, sC: C.stride, alpha, beta,
      cjA: [1, opA === 'C' ? -1 : 1], cjB: [1, opB === 'C' ? -1 : 1],
    },
    workgroups: total,
  });
}
