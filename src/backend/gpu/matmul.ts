/// <reference types="@webgpu/types" />
// Batched GEMM on the GPU (shaders/matmul/matmul.wgsl): float32 and complex64, with
// transposed and adjoint operands read in place (linalg.matmul's transposeA/adjointA/…).
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ArgumentError } from '../../core/errors.js';
import { register } from '../registry.js';
import type { MatOp } from '../ops.js';
import { runProgram, cachedProgram, type UniformType } from './program.js';
import { loadShader, dtypeDefines, type Defines } from './preprocess.js';
import { emptyGpu, gpuByteLength, requireGpu } from './tensor-ops.js';
import { allocStorage, bufferOf } from './pool.js';
import { gpuDevice, gpuInfo, gpuLimits } from './device.js';
import { commandEncoder, recordedCommand } from './queue.js';
import type { GpuStorage } from '../../core/tensor.js';
import { gemmGpu } from './gemm.js';

/** Tile shape of a GEMM variant: workgroup tile BM×BN, depth BK, per-thread TM×TN. */
export interface MatmulTile {
  BM: number; BN: number; BK: number; TM: number; TN: number;
}

/** The tiles `pickTile` chooses from, largest first (docs/decisions.md, "GPU kernels", has the ones that lost). */
export const F32_TILES = {
  // best for sgemm n=4096 on the H200
  t128: { BM: 128, BN: 128, BK: 8, TM: 8, TN: 8 },
  t64: { BM: 64, BN: 64, BK: 16, TM: 4, TN: 4 },
  t32: { BM: 32, BN: 32, BK: 8, TM: 4, TN: 4 },
} as const satisfies Record<string, MatmulTile>;
export const C64_TILES = {
  // 30 TFLOP/s for cgemm n=2048 on the H200 against 25 for t64 (bench/results/matmul-gpu-h200.json)
  t64r8: { BM: 64, BN: 64, BK: 8, TM: 8, TN: 4 },
  t64: { BM: 64, BN: 64, BK: 8, TM: 4, TN: 4 },
  t32: { BM: 32, BN: 32, BK: 8, TM: 4, TN: 4 },
} as const satisfies Record<string, MatmulTile>;

/** Tile rows a run of consecutive workgroups sweeps (shares A and B panels in L2). */
const GROUP = 8;

function checkTile(t: MatmulTile, complex: boolean): void {
  const wgx = t.BN / t.TN, wgy = t.BM / t.TM, nt = wgx * wgy;
  const ok = Number.isInteger(wgx) && Number.isInteger(wgy) && nt <= 1024
    && (complex
      ? (t.BM * t.BK) % nt === 0 && (t.BK * t.BN) % nt === 0
      : t.TM % 4 === 0 && t.TN % 4 === 0 && t.BK % 4 === 0 && (t.BM * t.BK / 4) % nt === 0 && (t.BK * t.BN / 4) % nt === 0);
  if (!ok) throw new ArgumentError(`matmul: invalid tile ${JSON.stringify(t)}`);
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

/**
 * How the kernels read the operands: `transA`/`transB`, the operand is stored transposed
 * (A as k×m, B as n×k) and read in place (complex64 conjugates it through the uniforms cjA/cjB
 * for the adjoint, so the transpose and the adjoint share a pipeline); `vecC` (float32): C is
 * stored as vec4s (N % 4 == 0), which differs from `vecB` only when B is transposed.
 */
export interface MatmulLayout {
  transA: boolean; transB: boolean; vecC: boolean;
}

/** Key suffix, defines and uniforms of a layout; nothing for the plain A·B (its pipeline stays as it was). */
function layoutParts(complex: boolean, vecB: boolean, l: MatmulLayout | undefined) {
  const plain = !l || (!l.transA && !l.transB);
  const vecC = !complex && (plain ? vecB : l.vecC);
  const defs: Defines = plain ? {} : { TRANS_A: l.transA, TRANS_B: l.transB };
  const uniforms: Record<string, UniformType> = plain || !complex ? {} : { cjA: 'vec2f', cjB: 'vec2f' };
  return { vecC, key: plain ? '' : `|t${+l.transA}${+l.transB}c${+vecC}`, defs, uniforms };
}

/**
 * The tiled GEMM (shaders/matmul/matmul.wgsl) for a dtype, tile and vector-access flags
 * (vecA/vecB: vec4 loads along the stored operand's rows); `layout`: transposed operands.
 */
export function matmulProgram(dtype: 'float32' | 'complex64', tile: MatmulTile, vecA: boolean, vecB: boolean, layout?: MatmulLayout) {
  const complex = dtype === 'complex64';
  const va = !complex && vecA, vb = !complex && vecB;
  const lp = layoutParts(complex, vb, layout);
  const vc = lp.vecC;
  // complex64 has no vec4 access: its key ignores the flags, so one pipeline serves every k and n.
  const key = `${dtype}|${tile.BM}x${tile.BN}x${tile.BK}|${tile.TM}x${tile.TN}|a${+va}b${+vb}|g${GROUP}${lp.key}`;
  const el = (vec: boolean) => (complex ? 'vec2f' as const : vec ? 'vec4f' as const : 'f32' as const);
  return cachedProgram(`matmul|${key}`, () => {
    checkTile(tile, complex);
    const defs: Defines = {
      ...dtypeDefines(dtype), ...tile, WGX: tile.BN / tile.TN, WGY: tile.BM / tile.TM, VEC_A: va, VEC_B: vb, VEC_C: vc, GROUP, ...lp.defs,
    };
    return {
      name: 'matmul', key, entryPoint: `matmul_${defs.DTYPE}`,
      workgroupSize: [tile.BN / tile.TN, tile.BM / tile.TM, 1], workgroupBytes: tileBytes(tile, complex),
      decl: {
        inputs: { A: el(va), B: el(vb), aIdx: 'u32', bIdx: 'u32' },
        outputs: { C: el(vc) },
        uniforms: {
          M: 'u32', N: 'u32', K: 'u32', total: 'u32', tilesN: 'u32', tilesPerMat: 'u32', aMapped: 'u32', bMapped: 'u32', ...lp.uniforms,
        },
      },
      body: () => loadShader('matmul/matmul.wgsl', defs),
    };
  });
}

const SMALL_WG = 256;
/** Products with m and n at most this go to matmul_small.wgsl (one thread per element of C). */
export const SMALL_MAX = 16;

/** One thread per element of C (shaders/matmul/matmul_small.wgsl); `layout`: transposed operands (vecC unused). */
export function matmulSmallProgram(dtype: 'float32' | 'complex64', layout?: MatmulLayout) {
  const lp = layoutParts(dtype === 'complex64', false, layout && { ...layout, vecC: false });
  const key = `${dtype}|small|wg${SMALL_WG}${lp.key}`;
  return cachedProgram(`matmul|${key}`, () => {
    const defs: Defines = { ...dtypeDefines(dtype), WG: SMALL_WG, ...lp.defs };
    const T = dtype === 'complex64' ? 'vec2f' as const : 'f32' as const;
    return {
      name: 'matmul', key, entryPoint: `matmul_small_${defs.DTYPE}`, workgroupSize: [SMALL_WG, 1, 1],
      decl: {
        inputs: { A: T, B: T, aIdx: 'u32', bIdx: 'u32' },
        outputs: { C: T },
        uniforms: { M: 'u32', N: 'u32', K: 'u32', total: 'u32', aMapped: 'u32', bMapped: 'u32', ...lp.uniforms },
      },
      body: () => loadShader('matmul/matmul_small.wgsl', defs),
    };
  });
}

/** The largest tile whose workgroup count still fills a large GPU (about 2 per SM on an H200). */
export function pickTile(dtype: 'float32' | 'complex64', batch: number, m: number, n: number): MatmulTile {
  const list = Object.values<MatmulTile>(dtype === 'complex64' ? C64_TILES : F32_TILES)
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

/**
 * C = op(A)·op(B) for the plan's batch, through the tiled kernel shaders/matmul/matmul.wgsl with
 * the plan's broadcast maps; products with m, n ≤ SMALL_MAX through matmul_small.wgsl.
 * `opA`/`opB` (linalg.matmul's options): 0 as stored, 1 transposed, 2 conjugate-transposed
 * (complex64; float32 reads 2 as 1): every kernel reads the stored operand in place, no copy.
 * `tile`: a tile to use instead of the picked one (tests and the tile bench; it also skips
 * the small-product kernel); one that does not fit the device is refused by runProgram with
 * a DeviceError naming it. `kernel`: 'matmul' (default) or 'gemm' (the strided gemmGpu the
 * factorizations use, slower on the H200: bench/results/h200-issue12-sgemm-ab.txt).
 * `out`: the kernel writes this tensor's buffer (checked by linalg.matmul: A's dtype,
 * count·m·n elements) and it is returned; sharing a buffer with A or B, the product goes
 * to a fresh buffer first and is copied in (one buffer cannot be bound read-only and
 * writable in one dispatch).
 */
export function matmulGpu(
  A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number, tile?: MatmulTile, kernel?: 'gemm' | 'matmul',
  out?: Tensor, opA: MatOp = 0, opB: MatOp = 0,
): Tensor {
  const who = 'matmul';
  requireGpu(A, who, 'A');
  requireGpu(B, who, 'B');
  if (out) requireGpu(out, who, 'out');
  const dtype = A.dtype as 'float32' | 'complex64';
  const count = plan.count;
  const bytes = gpuByteLength(dtype, count * m * n);
  if (out && out.gpuStorage().byteLength !== bytes) {
    throw new ArgumentError(`${who}: internal: out holds ${out.gpuStorage().byteLength} bytes, the product ${bytes}`);
  }
  if (count * m * n === 0) return out ?? emptyGpu(dtype, [...plan.batchShape, m, n], who);
  if (k !== 0 && count * Math.max(m * n, m * k, k * n) > 0xffffffff) {
    throw new ArgumentError(`${who}: the product is too large for 32-bit indexing on the GPU`);
  }
  const target = out ? bufferOf(out.gpuStorage()) : undefined;
  const apart = target !== undefined && (target === bufferOf(A.gpuStorage()) || target === bufferOf(B.gpuStorage()));
  const C = out && !apart ? out : emptyGpu(dtype, [...plan.batchShape, m, n], who);
  if (k === 0) {
    commandEncoder(who).clearBuffer(bufferOf(C.gpuStorage()), 0, bytes);
    recordedCommand();
  } else {
    productInto(C, A, B, plan, m, k, n, dtype, tile, kernel, opA, opB);
  }
  // out aliasing an operand keeps that operand's pending check: the product read its data
  if (!apart) return out ? C.dropCheck() : C;
  commandEncoder(who).copyBufferToBuffer(bufferOf(C.gpuStorage()), 0, target!, 0, bytes);
  recordedCommand();
  C.dispose();
  return out!;
}

/** Records C = op(A)·op(B) (k > 0, a non-empty product) with the kernel matmulGpu picked. */
function productInto(
  C: Tensor, A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number, dtype: 'float32' | 'complex64',
  tile: MatmulTile | undefined, kernel: 'gemm' | 'matmul' | undefined, opA: MatOp, opB: MatOp,
): void {
  const who = 'matmul';
  const count = plan.count;
  const small = m <= SMALL_MAX && n <= SMALL_MAX && !tile;
  // matmul.wgsl by default: on the H200 its t128 ran sgemm 4096 at 30.9 TFLOP/s against gemm.wgsl's best 25.7 (bench/results/h200-issue12-sgemm-ab.txt).
  if ((kernel ?? 'matmul') === 'gemm' && !small) {
    // A broadcast operand with one matrix is stride 0; other broadcasts go through a map.
    const aOne = plan.aIdx !== null && plan.aCount === 1, bOne = plan.bIdx !== null && plan.bCount === 1;
    const ai = indexStorage(aOne ? null : plan.aIdx), bi = indexStorage(bOne ? null : plan.bIdx);
    const gop = (o: MatOp) => (o === 0 ? 'N' as const : o === 1 || dtype !== 'complex64' ? 'T' as const : 'C' as const);
    gemmGpu(who, {
      dtype, m, n, k, batch: count, opA: gop(opA), opB: gop(opB),
      A: { s: A.gpuStorage(), offset: 0, ld: opA === 0 ? k : m, stride: aOne ? 0 : m * k },
      B: { s: B.gpuStorage(), offset: 0, ld: opB === 0 ? n : k, stride: bOne ? 0 : k * n },
      C: { s: C.gpuStorage(), offset: 0, ld: n, stride: m * n },
    }, tile, {
      aIdx: ai.owned ? ai.s : undefined, aCount: plan.aCount, bIdx: bi.owned ? bi.s : undefined, bCount: plan.bCount,
    });
    if (ai.owned) ai.s.release();
    if (bi.owned) bi.s.release();
    return;
  }
  const ai = indexStorage(plan.aIdx), bi = indexStorage(plan.bIdx);
  const inputs = { A: A.gpuStorage(), B: B.gpuStorage(), aIdx: ai.s, bIdx: bi.s };
  const maps = { aMapped: plan.aIdx ? 1 : 0, bMapped: plan.bIdx ? 1 : 0 };
  // Plain A·B keeps its own pipeline and uniforms; an op'd operand adds the layout (and, for complex64, the conjugation signs).
  const plain = opA === 0 && opB === 0;
  const layout: MatmulLayout | undefined = plain ? undefined : { transA: opA !== 0, transB: opB !== 0, vecC: n % 4 === 0 };
  const conj = plain || dtype !== 'complex64' ? {} : { cjA: [1, opA === 2 ? -1 : 1], cjB: [1, opB === 2 ? -1 : 1] };
  if (small) {
    const total = count * m * n;
    runProgram(matmulSmallProgram(dtype, layout), {
      inputs, outputs: { C: C.gpuStorage() },
      uniforms: { M: m, N: n, K: k, total, ...maps, ...conj },
      workgroups: Math.ceil(total / SMALL_WG),
    });
  } else {
    const t = tile ?? pickTile(dtype, count, m, n);
    const tilesN = Math.ceil(n / t.BN);
    const tilesPerMat = Math.ceil(m / t.BM) * tilesN;
    const total = count * tilesPerMat;
    // vec4 loads run along the stored operand's rows: k (A) and n (B) as stored, m (Aᵀ) and k (Bᵀ) transposed.
    const vecA = (opA === 0 ? k : m) % 4 === 0, vecB = (opB === 0 ? n : k) % 4 === 0;
    runProgram(matmulProgram(dtype, t, vecA, vecB, layout), {
      inputs, outputs: { C: C.gpuStorage() },
      uniforms: { M: m, N: n, K: k, total, tilesN, tilesPerMat, ...maps, ...conj },
      workgroups: total,
    });
  }
  if (ai.owned) ai.s.release();
  if (bi.owned) bi.s.release();
}

/**
 * op(A)·op(B) (OpSignatures.matmul): an operand read transposed (op 1) or conjugate-transposed
 * (op 2) is read in place by the kernel matmulGpu picks (its tile loads address A[p, i] for
 * op(A)[i, p]); no transposed copy is made.
 */
function matmulGpuOp(
  A: Tensor, B: Tensor, plan: BatchPlan, m: number, k: number, n: number, out?: Tensor, opA: MatOp = 0, opB: MatOp = 0,
): Tensor {
  return matmulGpu(A, B, plan, m, k, n, undefined, undefined, out, opA, opB);
}

export function registerMatmulGpu(): void {
  register('matmul', ['float32', 'complex64'], 'gpu', matmulGpuOp);
}
