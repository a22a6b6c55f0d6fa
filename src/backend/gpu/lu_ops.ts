// What the GPU builds on an LU factorization at every size: det and slogdet (a reduction
// over U's diagonal, shaders/lu/det.wgsl), the explicit factors P, L, U (shaders/lu/
// lu_unpack.wgsl), and luSolve / solve / inv past the one-workgroup kernels of lu.ts:
// the rows of B permuted by the pivots (shaders/lu/permute.wgsl), then two blocked
// triangular solves (trsm.ts). The factorization is the registry's luFactor for det and
// lu, the blocked LU (lu_blocked.ts, NaN/Inf input flagged with info −1) for solve and inv.
// Everything is recorded into the shared encoder: no host round trip, one dispatch per
// step for the whole batch.
import { Tensor } from '../../core/tensor.js';
import type { BatchPlan } from '../../core/batch.js';
import { ArgumentError, ShapeError, fmtShape } from '../../core/errors.js';
import { lookup, register } from '../registry.js';
import { runProgram } from './program.js';
import { emptyGpu } from './tensor-ops.js';
import type { GemmOperand } from './gemm.js';
import { trsmBlockedGpu } from './trsm.js';
import { luFactorBlockedGpu } from './lu_blocked.js';
import {
  smallProgram, gpuFloatDType, floatsPer, batchCount, infoTensor, uploadIndex, dummyIndex, checkIndexRange,
} from './small.js';

type FloatDT = 'float32' | 'complex64';
type IntOrFloat = FloatDT | 'int32';
const storageOf = (dtype: IntOrFloat) => (dtype === 'complex64' ? 'vec2f' as const : dtype === 'int32' ? 'i32' as const : 'f32' as const);

/** Threads per group of the element-wise kernels (permute gather, unpack). */
const WG = 256;
/** Elements per group of the non-finite scan of large matrices. */
const SCAN_CH = 4096;
/** Largest n whose det group scans A itself (else the scan runs over many groups first). */
const SCAN_IN_GROUP_MAX_N = 64;

// ---------------------------------------------------------------- programs

/** The det kernel (shaders/lu/det.wgsl): 'DET', 'SLOGDET', or 'SCAN' (the non-finite scan). */
export function detProgram<M extends 'DET' | 'SLOGDET' | 'SCAN'>(mode: M, dtype: FloatDT, wg: number) {
  const T = storageOf(dtype);
  const entry = { DET: 'det', SLOGDET: 'slogdet', SCAN: 'det_scan' }[mode];
  const uniforms = { count: 'u32', n: 'u32', scan_a: 'u32', chunks: 'u32' } as const;
  const inputs = { A: T, FLAGS: 'u32', LU: T, PIV: 'i32', INFO: 'i32' } as const;
  const decls = {
    SCAN: { inputs: { A: T }, outputs: { FLAGS: 'u32' }, uniforms: { total: 'u32', chunks: 'u32', nn: 'u32' } },
    DET: { inputs, outputs: { DET: T }, uniforms },
    SLOGDET: { inputs, outputs: { SIGN: T, LOGABS: 'f32' }, uniforms },
  } as const;
  return smallProgram(entry, 'lu/det.wgsl', entry, dtype, wg, {
    ENTRY: entry, CH: SCAN_CH, MODE_SCAN: mode === 'SCAN', MODE_DET: mode === 'DET', MODE_SLOGDET: mode === 'SLOGDET',
  }, decls[mode] as (typeof decls)[M]);
}

/** Pivots → permutation and its inverse (shaders/lu/permute.wgsl, MODE_PERM). */
export function permProgram() {
  return smallProgram('lu_perm', 'lu/permute.wgsl', 'lu_perm', 'int32', WG, { ENTRY: 'lu_perm', MODE_PERM: true, MODE_MARK: false }, {
    inputs: { PIV: 'i32' }, outputs: { PERM: 'i32', IPERM: 'i32', STATUS: 'i32' },
    uniforms: { total: 'u32', chunks: 'u32', m: 'u32', k: 'u32' },
  });
}

/** The batched row gather (shaders/lu/permute.wgsl, MODE_GATHER). */
export function permuteProgram(dtype: IntOrFloat) {
  const T = storageOf(dtype);
  return smallProgram('lu_permute', 'lu/permute.wgsl', 'lu_permute', dtype, WG, { ENTRY: 'lu_permute', MODE_PERM: false, MODE_MARK: false }, {
    inputs: { SRC: T, PERM: 'i32', SMAP: 'i32', PMAP: 'i32', STATUS: 'i32', INFO: 'i32' }, outputs: { DST: T },
    uniforms: {
      total: 'u32', rows: 'u32', cols: 'u32', use_perm: 'u32', use_smap: 'u32', use_pmap: 'u32', use_status: 'u32', use_info: 'u32', ident: 'u32',
    },
  });
}

/** NaN for the matrices whose pivots or factorization failed (shaders/lu/permute.wgsl, MODE_MARK). */
export function markProgram(dtype: FloatDT) {
  return smallProgram('lu_mark', 'lu/permute.wgsl', 'lu_mark', dtype, WG, { ENTRY: 'lu_mark', MODE_PERM: false, MODE_MARK: true }, {
    inputs: { PMAP: 'i32', STATUS: 'i32', INFO: 'i32' }, outputs: { DST: storageOf(dtype) },
    uniforms: { total: 'u32', per: 'u32', use_pmap: 'u32', use_status: 'u32', use_info: 'u32' },
  });
}

/** P, L, U from packed factors and the permutation (shaders/lu/lu_unpack.wgsl). */
export function unpackProgram(dtype: FloatDT) {
  const T = storageOf(dtype);
  return smallProgram('lu_unpack', 'lu/lu_unpack.wgsl', 'lu_unpack', dtype, WG, { ENTRY: 'lu_unpack' }, {
    inputs: { LU: T, PERM: 'i32' }, outputs: { P: T, L: T, U: T },
    uniforms: { total: 'u32', count: 'u32', m: 'u32', n: 'u32', k: 'u32' },
  });
}

// ---------------------------------------------------------------- helpers

/** A GPU tensor of `shape` holding `value` in every element (real part; host-built: tiny outputs only). */
function filledGpu<D extends IntOrFloat>(dtype: D, shape: readonly number[], value: number): Tensor<D> {
  let c = 1;
  for (const d of shape) c *= d;
  const data = dtype === 'int32' ? new Int32Array(c) : new Float32Array(c * floatsPer(dtype));
  for (let i = 0; i < c; i++) data[i * floatsPer(dtype)] = value;
  return Tensor.fromStorage(dtype, shape, data as never).to('gpu') as Tensor<D>;
}

/** The permutation (count, m) of each matrix's pivots (count, k), its inverse, and the pivot status (count, 2). */
function permutations(pivots: Tensor<'int32'>, count: number, m: number, k: number, who: string) {
  const perm = emptyGpu('int32', [count, m], who);
  const iperm = emptyGpu('int32', [count, m], who);
  const status = emptyGpu('int32', [count, 2], who);
  checkIndexRange(count * Math.max(m, k), who);
  const chunks = Math.ceil(m / WG);
  runProgram(permProgram(), {
    inputs: { PIV: pivots.gpuStorage() }, outputs: { PERM: perm.gpuStorage(), IPERM: iperm.gpuStorage(), STATUS: status.gpuStorage() },
    uniforms: { total: count * chunks, chunks, m, k }, workgroups: count * chunks,
  });
  return { perm, iperm, status };
}

interface GatherArgs {
  dtype: IntOrFloat; count: number; rows: number; cols: number;
  src?: Tensor; smap?: Tensor<'int32'> | null;
  perm?: Tensor<'int32'>; pmap?: Tensor<'int32'> | null;
  status?: Tensor<'int32'>; info?: Tensor<'int32'>; ident?: boolean;
}

/** dst[b, i, c] = src[smap(b), perm(i), c] over the batch (see permute.wgsl), one dispatch. */
function gather(dst: Tensor, g: GatherArgs, who: string): void {
  const total = g.count * g.rows * g.cols;
  if (total === 0) return;
  checkIndexRange(total, who);
  const dummies: Tensor[] = [];
  const or = (t: Tensor | null | undefined) => {
    if (t) return t.gpuStorage();
    const d = dummyIndex(who);
    dummies.push(d);
    return d.gpuStorage();
  };
  runProgram(permuteProgram(g.dtype), {
    inputs: { SRC: or(g.src), PERM: or(g.perm), SMAP: or(g.smap), PMAP: or(g.pmap), STATUS: or(g.status), INFO: or(g.info) },
    outputs: { DST: dst.gpuStorage() },
    uniforms: {
      total, rows: g.rows, cols: g.cols, use_perm: g.perm ? 1 : 0, use_smap: g.smap ? 1 : 0, use_pmap: g.pmap ? 1 : 0,
      use_status: g.status ? 1 : 0, use_info: g.info ? 1 : 0, ident: g.ident ? 1 : 0,
    },
    workgroups: Math.ceil(total / WG),
  });
  for (const d of dummies) d.dispose();
}

/** NaN in place for the (count, per) matrices of X whose status/info (through pmap) says failed. */
function mark(X: Tensor, dtype: FloatDT, count: number, per: number, pmap: Tensor<'int32'> | null, status: Tensor<'int32'> | null, info: Tensor<'int32'> | null, who: string): void {
  const total = count * per;
  if (total === 0 || (!status && !info)) return;
  const dummies: Tensor[] = [];
  const or = (t: Tensor | null) => {
    if (t) return t.gpuStorage();
    const d = dummyIndex(who);
    dummies.push(d);
    return d.gpuStorage();
  };
  runProgram(markProgram(dtype), {
    inputs: { PMAP: or(pmap), STATUS: or(status), INFO: or(info) }, outputs: { DST: X.gpuStorage() },
    uniforms: { total, per, use_pmap: pmap ? 1 : 0, use_status: status ? 1 : 0, use_info: info ? 1 : 0 },
    workgroups: Math.ceil(total / WG),
  });
  for (const d of dummies) d.dispose();
}

// ---------------------------------------------------------------- det, slogdet

/** The det group size for n: one group per matrix, sized to its diagonal. */
function detWg(n: number): number {
  return n <= 32 ? 32 : n <= 128 ? 64 : 256;
}

/** Tunables of det/slogdet (tests force the separate non-finite scan at small n). */
export interface DetOptions {
  /** Largest n whose det group scans A itself; larger matrices are scanned by many groups first. */
  scanInGroupMaxN?: number;
}

function detRun(A: Tensor, mode: 'DET' | 'SLOGDET', opts: DetOptions): { det?: Tensor; sign?: Tensor; logabsdet?: Tensor } {
  const who = mode === 'DET' ? 'det' : 'slogdet';
  const dtype = gpuFloatDType(A, who, 'A');
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  const batch = A.shape.slice(0, -2);
  const count = batchCount(A);
  if (n === 0) {
    // the 0×0 matrix: det 1, sign 1, log 0
    return mode === 'DET' ? { det: filledGpu(dtype, batch, 1) } : { sign: filledGpu(dtype, batch, 1), logabsdet: filledGpu('float32', batch, 0) };
  }
  const out = mode === 'DET'
    ? { det: emptyGpu(dtype, batch, who) }
    : { sign: emptyGpu(dtype, batch, who), logabsdet: emptyGpu('float32', batch, who) };
  if (count === 0) return out;
  checkIndexRange(count * n * n * floatsPer(dtype), who);
  const { LU, pivots, info } = lookup('luFactor', dtype, 'gpu', who)(A);
  const scanA = n <= (opts.scanInGroupMaxN ?? SCAN_IN_GROUP_MAX_N);
  const chunks = scanA ? 0 : Math.ceil((n * n) / SCAN_CH);
  const flags = scanA ? dummyIndex(who) : emptyGpu('int32', [count * chunks], who);
  if (!scanA) {
    runProgram(detProgram('SCAN', dtype, WG), {
      inputs: { A: A.gpuStorage() }, outputs: { FLAGS: flags.gpuStorage() },
      uniforms: { total: count * chunks, chunks, nn: n * n }, workgroups: count * chunks,
    });
  }
  const inputs = { A: A.gpuStorage(), FLAGS: flags.gpuStorage(), LU: LU.gpuStorage(), PIV: pivots.gpuStorage(), INFO: info.gpuStorage() };
  const uniforms = { count, n, scan_a: scanA ? 1 : 0, chunks };
  if (out.det) {
    runProgram(detProgram('DET', dtype, detWg(n)), { inputs, outputs: { DET: out.det.gpuStorage() }, uniforms, workgroups: count });
  } else {
    runProgram(detProgram('SLOGDET', dtype, detWg(n)), {
      inputs, outputs: { SIGN: out.sign!.gpuStorage(), LOGABS: out.logabsdet!.gpuStorage() }, uniforms, workgroups: count,
    });
  }
  for (const t of [LU, pivots, info, flags]) t.dispose();
  return out;
}

/** Determinants of (…, n, n) float32/complex64 GPU matrices: NaN for NaN/Inf input, 0 when singular. */
export function detGpu(A: Tensor, opts: DetOptions = {}): Tensor {
  return detRun(A, 'DET', opts).det!;
}

/** sign (unit complex for complex64; 0 when singular) and log|det| (float32; −∞ when singular). */
export function slogdetGpu(A: Tensor, opts: DetOptions = {}): { sign: Tensor; logabsdet: Tensor } {
  const r = detRun(A, 'SLOGDET', opts);
  return { sign: r.sign!, logabsdet: r.logabsdet! };
}

// ---------------------------------------------------------------- luUnpack

/** P (…, m, m), L (…, m, k), U (…, k, n) from packed factors and 1-based pivots. */
export function luUnpackGpu(LU: Tensor, pivots: Tensor<'int32'>): { P: Tensor; L: Tensor; U: Tensor } {
  const who = 'lu';
  const dtype = gpuFloatDType(LU, who, 'LU');
  const m = LU.rows, n = LU.cols, k = Math.min(m, n);
  const batch = LU.shape.slice(0, -2);
  const count = batchCount(LU);
  if (pivots.shape.length !== batch.length + 1 || pivots.shape[batch.length] !== k || !batch.every((d, i) => d === pivots.shape[i])) {
    throw new ShapeError(`${who}: pivots is ${fmtShape(pivots.shape)}, expected ${fmtShape([...batch, k])} for LU ${fmtShape(LU.shape)}`);
  }
  const P = emptyGpu(dtype, [...batch, m, m], who);
  const L = emptyGpu(dtype, [...batch, m, k], who);
  const U = emptyGpu(dtype, [...batch, k, n], who);
  const total = count * (m * m + m * k + k * n);
  if (total === 0) return { P, L, U };
  checkIndexRange(total * floatsPer(dtype), who);
  const { perm, iperm, status } = permutations(pivots, count, m, k, who);
  runProgram(unpackProgram(dtype), {
    inputs: { LU: LU.gpuStorage(), PERM: perm.gpuStorage() },
    outputs: { P: P.gpuStorage(), L: L.gpuStorage(), U: U.gpuStorage() },
    uniforms: { total, count, m, n, k }, workgroups: Math.ceil(total / WG),
  });
  for (const t of [perm, iperm, status]) t.dispose();
  return { P, L, U };
}

// ---------------------------------------------------------------- luSolve, solve, inv

/** Tunables of the blocked solves (tests use small blocks). */
export interface LuSolveOptions {
  /** Block size of the triangular solves (trsmBlockedGpu's nb; its default when absent). */
  nb?: number;
  /** Block size of the factorization in solve and inv (luFactorBlockedGpu's nb; its default when absent). */
  luNb?: number;
}

/**
 * A's LU factors by the blocked LU (A copied first; inputs are never mutated), with
 * solve's contract for NaN/Inf input: info −1 and NaN factors for that member only.
 */
export function luFactorCopyGpu(A: Tensor, opts: LuSolveOptions = {}, who = 'luFactor') {
  const dtype = gpuFloatDType(A, who, 'A');
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  const count = batchCount(A);
  const LU = emptyGpu(dtype, A.shape, who);
  gather(LU, { dtype, count, rows: n, cols: n, src: A }, who);
  const pivots = emptyGpu('int32', [...A.shape.slice(0, -2), n], who);
  const info = infoTensor(A.shape.slice(0, -2), who);
  luFactorBlockedGpu(who, {
    dtype, m: n, n, batch: count, A: LU.gpuStorage(), piv: pivots.gpuStorage(), info: info.gpuStorage(), nb: opts.luNb,
  });
  return { LU, pivots, info };
}

/**
 * The factor operand of the triangular solves for every output matrix: the LU itself
 * (stride n², or 0 when one LU serves the whole batch), or a gathered copy when the
 * broadcast map is neither.
 */
function factorOperand(LU: Tensor, dtype: FloatDT, n: number, plan: BatchPlan, amap: Tensor<'int32'> | null, who: string): { op: GemmOperand; scratch: Tensor | null } {
  if (plan.aIdx === null) return { op: { s: LU.gpuStorage(), offset: 0, ld: n, stride: n * n }, scratch: null };
  if (plan.aCount === 1) return { op: { s: LU.gpuStorage(), offset: 0, ld: n, stride: 0 }, scratch: null };
  const copy = emptyGpu(dtype, [plan.count, n, n], who);
  gather(copy, { dtype, count: plan.count, rows: n, cols: n, src: LU, smap: amap }, who);
  return { op: { s: copy.gpuStorage(), offset: 0, ld: n, stride: n * n }, scratch: copy };
}

/**
 * X = op(A)⁻¹·B from A's packed LU factors at any n, over plan's broadcast batch:
 * non-adjoint, X = P·B's rows (gathered straight into X), then L⁻¹ (unit lower) and U⁻¹
 * in place; adjoint, B copied, Uᴴ⁻¹ then Lᴴ⁻¹, then the inverse permutation gathered
 * into X. `info` (solve: the factorization's, per LU matrix): X is NaN where it is non-zero;
 * bad pivots (outside 1..n) make X NaN and raise on the read (the deferred check).
 */
export function luSolveBlockedGpu(
  LU: Tensor, pivots: Tensor<'int32'>, B: Tensor, plan: BatchPlan, adjoint: boolean,
  opts: LuSolveOptions = {}, info: Tensor<'int32'> | null = null, who = 'luSolve',
): Tensor {
  const dtype = gpuFloatDType(LU, who, 'LU');
  gpuFloatDType(B, who, 'B');
  const n = LU.cols;
  if (LU.rows !== n) throw new ShapeError(`${who}: LU is ${fmtShape(LU.shape)}, expected square matrices`);
  const nrhs = B.cols;
  const X = emptyGpu(dtype, [...plan.batchShape, n, nrhs], who);
  if (plan.count === 0 || n === 0 || nrhs === 0) return X;
  const F = floatsPer(dtype);
  // each buffer is indexed on its own: B/X, and the factors (a gathered copy has count of them)
  checkIndexRange(Math.max(plan.count, plan.bCount) * n * nrhs * F, who);
  checkIndexRange((plan.aIdx !== null && plan.aCount > 1 ? plan.count : plan.aCount) * n * n * F, who);
  const { perm, iperm, status } = permutations(pivots, plan.aCount, n, n, who);
  const amap = uploadIndex(plan.aIdx, who);
  const bmap = uploadIndex(plan.bIdx, who);
  const A = factorOperand(LU, dtype, n, plan, amap, who);
  const checkStatus = info === null; // pivots of our own factorization are valid
  const xOp = (t: Tensor): GemmOperand => ({ s: t.gpuStorage(), offset: 0, ld: nrhs, stride: n * nrhs });
  const base = { dtype, n, nrhs, batch: plan.count, A: A.op, nb: opts.nb };
  if (!adjoint) {
    gather(X, { dtype, count: plan.count, rows: n, cols: nrhs, src: B, smap: bmap, perm, pmap: amap }, who);
    trsmBlockedGpu(who, { ...base, B: xOp(X), upper: false, unit: true, op: 'N' });
    trsmBlockedGpu(who, { ...base, B: xOp(X), upper: true, unit: false, op: 'N' });
  } else {
    const W = emptyGpu(dtype, [plan.count, n, nrhs], who);
    gather(W, { dtype, count: plan.count, rows: n, cols: nrhs, src: B, smap: bmap }, who);
    trsmBlockedGpu(who, { ...base, B: xOp(W), upper: true, unit: false, op: 'C' });
    trsmBlockedGpu(who, { ...base, B: xOp(W), upper: false, unit: true, op: 'C' });
    gather(X, { dtype, count: plan.count, rows: n, cols: nrhs, src: W, perm: iperm, pmap: amap }, who);
    W.dispose();
  }
  mark(X, dtype, plan.count, n * nrhs, amap, checkStatus ? status : null, info, who);
  for (const t of [perm, iperm, amap, bmap, A.scratch]) t?.dispose();
  if (!checkStatus) {
    status.dispose();
    return X;
  }
  const batched = LU.shape.length > 2;
  X.setCheck(async () => {
    const s = await status.data();
    status.dispose();
    for (let m = 0; m < plan.aCount; m++) {
      if (s[2 * m] !== 0) {
        // an ArgumentError as on the CPU (luSolve's check); that matrix's X is NaN
        throw new ArgumentError(`${who}: pivots must be in 1..${n}, found ${s[2 * m + 1]} (pivots[${s[2 * m] - 1}]${batched ? ` of LU batch element ${m}` : ''})`);
      }
    }
  });
  return X;
}

/** info of the broadcast batch from info of A's batch (an int32 gather). */
function broadcastInfo(info: Tensor<'int32'>, plan: BatchPlan, who: string): Tensor<'int32'> {
  if (plan.aIdx === null) return info;
  const out = infoTensor(plan.batchShape, who);
  const amap = uploadIndex(plan.aIdx, who)!;
  gather(out, { dtype: 'int32', count: plan.count, rows: 1, cols: 1, src: info, smap: amap }, who);
  amap.dispose();
  info.dispose();
  return out;
}

/** A·X = B at any n: the blocked LU of each distinct A, then luSolveBlockedGpu; X NaN where info ≠ 0. */
export function solveBlockedGpu(A: Tensor, B: Tensor, plan: BatchPlan, opts: LuSolveOptions = {}): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'solve';
  const dtype = gpuFloatDType(A, who, 'A');
  gpuFloatDType(B, who, 'B');
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  if (n === 0 || plan.count === 0) {
    return { X: emptyGpu(dtype, [...plan.batchShape, n, B.cols], who), info: filledGpu('int32', plan.batchShape, 0) };
  }
  const f = luFactorCopyGpu(A, opts, who);
  const X = luSolveBlockedGpu(f.LU, f.pivots, B, plan, false, opts, f.info, who);
  f.LU.dispose();
  f.pivots.dispose();
  return { X, info: broadcastInfo(f.info, plan, who) };
}

/** A⁻¹ at any n: the blocked LU, P·I written by a kernel, two blocked triangular solves; NaN where info ≠ 0. */
export function invBlockedGpu(A: Tensor, opts: LuSolveOptions = {}): { X: Tensor; info: Tensor<'int32'> } {
  const who = 'inv';
  const dtype = gpuFloatDType(A, who, 'A');
  const n = A.cols;
  if (A.rows !== n) throw new ShapeError(`${who}: A is ${fmtShape(A.shape)}, expected square matrices`);
  const count = batchCount(A);
  const X = emptyGpu(dtype, A.shape, who);
  if (n === 0 || count === 0) return { X, info: filledGpu('int32', A.shape.slice(0, -2), 0) };
  checkIndexRange(count * n * n * floatsPer(dtype), who);
  const { LU, pivots, info } = luFactorCopyGpu(A, opts, who);
  const { perm, iperm, status } = permutations(pivots, count, n, n, who);
  gather(X, { dtype, count, rows: n, cols: n, perm, ident: true }, who);
  const base = { dtype, n, nrhs: n, batch: count, A: { s: LU.gpuStorage(), offset: 0, ld: n, stride: n * n }, nb: opts.nb };
  const xOp = { s: X.gpuStorage(), offset: 0, ld: n, stride: n * n };
  trsmBlockedGpu(who, { ...base, B: xOp, upper: false, unit: true, op: 'N' });
  trsmBlockedGpu(who, { ...base, B: xOp, upper: true, unit: false, op: 'N' });
  mark(X, dtype, count, n * n, null, null, info, who);
  for (const t of [LU, pivots, perm, iperm, status]) t.dispose();
  return { X, info };
}

export function registerLuOpsGpu(): void {
  register('det', ['float32', 'complex64'], 'gpu', (A) => detGpu(A));
  register('slogdet', ['float32', 'complex64'], 'gpu', (A) => slogdetGpu(A));
  register('luUnpack', ['float32', 'complex64'], 'gpu', luUnpackGpu);
}
