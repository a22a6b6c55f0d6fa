/// <reference types="@webgpu/types" />
// Batched GEMM on the GPU (shaders/matmul/matmul.wgsl): float32 and complex64.
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ArgumentError } from '../../core/errors.js';
import { register } from '../registry.js';
import { runProgram, type GpuProgram } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { emptyGpu, requireGpu } from './tensor-ops.js';
import { allocStorage, bufferOf } from './pool.js';
import { gpuDevice, gpuInfo, gpuLimits } from './device.js';
import { commandEncoder, recordedCommand } from './queue.js';
import type { GpuStorage } from '../../core/tensor.js';

/** Tile shape of a GEMM variant: workgroup tile BM×BN, depth BK, per-thread TM×TN. */
export interface MatmulTile {
  BM: number; BN: number; BK: number; TM: number; TN: number;
  /** float32 only: the multiply step written out instead of loops over register arrays. */
  unroll?: boolean;
}

/** Tile variants by name (the bench's tuning mode times each one). */
export const F32_TILES: Record<string, MatmulTile> = {
  t128: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8 },
  t128u: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8, unroll: true },
  t128k16: { BM: 128, BN: 128, BK: 16, TM: 8, TN: 8 },
  t128k16u: { BM: 128, BN: 128, BK: 16, TM: 8, TN: 8, unroll: true },
  t128x64: { BM: 128, BN: 64, BK: 16, TM: 8, TN: 4 },
  t64x128: { BM: 64, BN: 128, BK: 16, TM: 4, TN: 8 },
  t128r16: { BM: 128, BN: 128, BK: 8, TM: 16, TN: 8 },
  t128x256: { BM: 128, BN: 256, BK: 8, TM: 8, TN: 16 },
  t256x128: { BM: 256, BN: 128, BK: 8, TM: 16, TN: 8 },
  t64: { BM: 64, BN: 64, BK: 16, TM: 4, TN: 4 },
  t32: { BM: 32, BN: 32, BK: 8, TM: 4, TN: 4 },
};
export const C64_TILES: Record<string, MatmulTile> = {
  t64: { BM: 64, BN: 64, BK: 8, TM: 4, TN: 4 },
  t64r8: { BM: 64, BN: 64, BK: 8, TM: 8, TN: 4 },
  t32: { BM: 32, BN: 32, BK: 8, TM: 4, TN: 4 },
};
/** What `pickTile` chooses from, largest first. t128 measured best for sgemm n=4096 on the H200. */
export const F32_AUTO = ['t128', 't64', 't32'];
// t64r8 ran cgemm n=2048 at 30 TFLOP/s on the H200 against 25 for t64 (bench/results/matmul-gpu-h200.json).
export const C64_AUTO = ['t64r8', 't64', 't32'];

/** Tuning knobs (benchmarks): force a tile variant by name, or the tile-row grouping. */
export const matmulTuning: { force?: string; group: number } = { group: 8 };

function checkTile(t: MatmulTile, complex: boolean): void {
  const wgx = t.BN / t.TN, wgy = t.BM / t.TM, nt = wgx * wgy;
  const ok = Number.isInteger(wgx) && Number.isInteger(wgy) && nt <= 1024
    && (complex
      ? (t.BM * t.BK) % nt === 0 && (t.BK * t.BN) % nt === 0
      : t.TM % 4 === 0 && t.TN % 4 === 0 && t.BK % 4 === 0 && (t.BM * t.BK / 4) % nt === 0 && (t.BK * t.BN / 4) % nt === 0);
  if (!ok) throw new ArgumentError(`matmul: invalid tile ${JSON.stringify(t)}`);
}

const programs = new Map<string, GpuProgram>();

/** One k step of the float32 kernel with its loops written out (see matmul.wgsl UNROLL). */
function unrolledStep(t: MatmulTile): string {
  const tm4 = t.TM / 4, tn4 = t.TN / 4;
  const lines: string[] = [];
  for (let g = 0; g < tm4; g++) lines.push(`        let a${g} = As[(s + k) * BM4 + ty + ${g}u * WGY];`);
  for (let h = 0; h < tn4; h++) lines.push(`        let b${h} = Bs[(s + k) * BN4 + tx + ${h}u * WGX];`);
  for (let g = 0; g < tm4; g++) {
    for (let r = 0; r < 4; r++) {
      for (let h = 0; h < tn4; h++) {
        const i = (g * 4 + r) * tn4 + h;
        lines.push(`        acc[${i}] = fma(vec4f(a${g}.${'xyzw'[r]}), b${h}, acc[${i}]);`);
      }
    }
  }
  return lines.join('\n');
}

/** Workgroup memory of a tile: A and B panels, double buffered (vec2f per element for complex). */
function tileBytes(t: MatmulTile, complex: boolean): number {
  return 2 * t.BK * (t.BM + t.BN) * (complex ? 8 : 4);
}

/** Whether a tile fits the device's workgroup limits (WebGPU's defaults: 16 KiB, 256 invocations). */
export function tileFits(t: MatmulTile, complex: boolean): boolean {
  const lim = gpuLimits('matmul');
  const x = t.BN / t.TN, y = t.BM / t.TM;
  return tileBytes(t, complex) <= lim.maxComputeWorkgroupStorageSize && x * y <= lim.maxComputeInvocationsPerWorkgroup
    && x <= lim.maxComputeWorkgroupSizeX && y <= lim.maxComputeWorkgroupSizeY;
}

function program(dtype: 'float32' | 'complex64', tile: MatmulTile, vecA: boolean, vecB: boolean, group: number): GpuProgram {
  const complex = dtype === 'complex64';
  const unroll = !complex && tile.unroll === true;
  const key = `${dtype}|${tile.BM}x${tile.BN}x${tile.BK}|${tile.TM}x${tile.TN}|a${+vecA}b${+vecB}|g${group}|u${+unroll}`;
  let p = programs.get(key);
  if (!p) {
    checkTile(tile, complex);
    const { unroll: _u, ...dims } = tile;
    const defs: Defines = {
      ...dtypeDefines(dtype), ...dims, UNROLL: unroll, STEP: unroll ? unrolledStep(tile) : '', WGX: tile.BN / tile.TN, WGY: tile.BM / tile.TM,
      VEC_A: !complex && vecA, VEC_B: !complex && vecB, VEC_C: !complex && vecB, GROUP: group,
    };
    p = {
      name: 'matmul', key, entryPoint: `matmul_${defs.DTYPE}`,
      workgroupSize: [tile.BN / tile.TN, tile.BM / tile.TM, 1], workgroupBytes: tileBytes(tile, complex),
      source: () => loadShader('matmul/matmul.wgsl', defs),
    };
    programs.set(key, p);
  }
  return p;
}

const SMALL_WG = 256;
/** Products with m and n at most this go to matmul_small.wgsl (one thread per element of C). */
export const SMALL_MAX = 16;

function smallProgram(dtype: 'float32' | 'complex64'): GpuProgram {
  const key = `${dtype}|small|wg${SMALL_WG}`;
  let p = programs.get(key);
  if (!p) {
    const defs: Defines = { ...dtypeDefines(dtype), WG: SMALL_WG };
    p = {
      name: 'matmul', key, entryPoint: `matmul_small_${defs.DTYPE}`, workgroupSize: [SMALL_WG, 1, 1],
      source: () => loadShader('matmul/matmul_small.wgsl', defs),
    };
    programs.set(key, p);
  }
  return p;
}

/** The largest tile whose workgroup count still fills a large GPU (about 2 per SM on an H200). */
export function pickTile(dtype: 'float32' | 'complex64', batch: number, m: number, n: number): MatmulTile {
  const tiles = dtype === 'complex64' ? C64_TILES : F32_TILES;
  if (matmulTuning.force && tiles[matmulTuning.force]) return tiles[matmulTuning.force];
  // (a forced tile that does not fit fails in runProgram with a DeviceError naming it)
  const list = (dtype === 'complex64' ? C64_AUTO : F32_AUTO).map((name) => tiles[name])
    .filter((t, i, all) => tileFits(t, dtype === 'complex64') || i === all.length - 1);
  // A software adapter runs a few workgroups at a time on CPU cores: no occupancy to keep up.
  const minCount = gpuInfo()?.isSoftware ? 1 : 256;
  for (const t of list) {
    const count = batch * Math.ceil(m / t.BM) * Math.ceil(n / t.BN);
    if (m >= t.BM / 2 && n >= t.BN / 2 && count >= minCount) return t;
  }
  return list[list.length - 1];
}

let dummy: { device: GPUDevice; s: GpuStorage } | undefined;

/** A 16-byte buffer bound in place of an index map the kernel will not read. */
function dummyStorage(): GpuStorage {
  const device = gpuDevice('matmul');
  if (!dummy || dummy.device !== device) dummy = { device, s: allocStorage(16, 'matmul') };
  return dummy.s;
}

function indexStorage(idx: Int32Array | null): { s: GpuStorage; owned: boolean } {
  if (!idx) return { s: dummyStorage(), owned: false };
  const s = allocStorage(idx.byteLength, 'matmul');
  gpuDevice('matmul').queue.writeBuffer(bufferOf(s), 0, idx.buffer, idx.byteOffset, idx.byteLength);
  return { s, owned: true };
}

function matmul(A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number): Tensor {
  const who = 'matmul';
  requireGpu(A, who, 'A');
  requireGpu(B, who, 'B');
  const dtype = A.dtype as 'float32' | 'complex64';
  const C = emptyGpu(dtype, [...plan.batchShape, m, n], who);
  const count = plan.count;
  if (count * m * n === 0) return C;
  if (k === 0) {
    commandEncoder(who).clearBuffer(bufferOf(C.gpuStorage()));
    recordedCommand();
    return C;
  }
  if (count * Math.max(m * n, m * k, k * n) > 0xffffffff) {
    throw new ArgumentError(`${who}: the product is too large for 32-bit indexing on the GPU`);
  }
  const small = m <= SMALL_MAX && n <= SMALL_MAX && !matmulTuning.force;
  const tile = pickTile(dtype, count, m, n);
  const tilesM = Math.ceil(m / tile.BM), tilesN = Math.ceil(n / tile.BN);
  const tilesPerMat = tilesM * tilesN;
  const total = small ? count * m * n : count * tilesPerMat;
  const ai = indexStorage(plan.aIdx), bi = indexStorage(plan.bIdx);
  const prog = small ? smallProgram(dtype) : program(dtype, tile, k % 4 === 0, n % 4 === 0, matmulTuning.group);
  runProgram(prog, {
    inputs: [A.gpuStorage(), B.gpuStorage(), ai.s, bi.s],
    outputs: [C.gpuStorage()],
    uniforms: [
      { name: 'M', type: 'u32', value: m }, { name: 'N', type: 'u32', value: n },
      { name: 'K', type: 'u32', value: k }, { name: 'total', type: 'u32', value: total },
      { name: 'tilesN', type: 'u32', value: tilesN }, { name: 'tilesPerMat', type: 'u32', value: tilesPerMat },
      { name: 'aMapped', type: 'u32', value: plan.aIdx ? 1 : 0 }, { name: 'bMapped', type: 'u32', value: plan.bIdx ? 1 : 0 },
    ],
    workgroups: small ? Math.ceil(total / SMALL_WG) : total,
  });
  if (ai.owned) ai.s.release();
  if (bi.owned) bi.s.release();
  return C;
}

export function registerMatmulGpu(): void {
  register('matmul', ['float32', 'complex64'], 'gpu', matmul);
}
