// The chunk table of a Gated DeltaNet call and the interfaces between its GPU stages
// (src/backend/gpu/gdn_wy.ts → gdn_state.ts → gdn.ts; docs/gdn.md "GPU kernels").
import { Tensor } from '../../core/tensor.js';
import type { GdnPlan } from '../ops.js';

/**
 * Every chunk of every sequence, in sequence order: row c of `table` (count × 4 u32) is
 * (sequence n, batch row, first time index t0, length 1…C). Chunks of sequence n are
 * firstChunk[n] … firstChunk[n + 1] − 1; an empty sequence has none.
 */
export interface GdnChunkTable {
  count: number;
  /** Host copy (count × 4). */
  host: Uint32Array;
  /** The same on the GPU, uint32 (max(count, 1), 4); dispose after recording. */
  table: Tensor<'uint32'>;
  /** N + 1 chunk offsets per sequence (host). */
  firstChunk: Uint32Array;
  /** The same on the GPU, uint32 (N + 1). */
  firstChunkGpu: Tensor<'uint32'>;
}

/** Builds the chunk table on the host and uploads it (a queue write, not a read-back). */
export function gdnChunkTable(plan: GdnPlan): GdnChunkTable {
  const C = plan.chunk, N = plan.seqs;
  const firstChunk = new Uint32Array(N + 1);
  for (let n = 0; n < N; n++) firstChunk[n + 1] = firstChunk[n] + Math.ceil(plan.seqLen[n] / C);
  const count = firstChunk[N];
  const host = new Uint32Array(Math.max(count, 1) * 4);
  for (let n = 0; n < N; n++) {
    const row = plan.varlen ? 0 : n;
    for (let c = firstChunk[n], t = 0; c < firstChunk[n + 1]; c++, t += C) {
      host.set([n, row, plan.seqStart[n] + t, Math.min(C, plan.seqLen[n] - t)], 4 * c);
    }
  }
  return {
    count,
    host: host.subarray(0, count * 4),
    table: Tensor.fromStorage('uint32', [Math.max(count, 1), 4], host).to('gpu') as Tensor<'uint32'>,
    firstChunk,
    firstChunkGpu: Tensor.fromStorage('uint32', [N + 1], firstChunk.slice()).to('gpu') as Tensor<'uint32'>,
  };
}

/** What the WY stage (gdn_wy.ts, `gdnWyGpu`) leaves for the state pass, the output and the backward. */
export interface GdnWy {
  /** Cumulative log decays γ within each chunk, float32 (count, HV, C); padded steps repeat the last. */
  gcum: Tensor;
  /** W = T·diag(β·Γ)·K, float32 (count, HV, C, dk); rows past a short chunk's length are 0. */
  W: Tensor;
  /** U = T·diag(β)·V, float32 (count, HV, C, dv); rows past the length are 0. */
  U: Tensor;
  /** T = (I + A)⁻¹, float32 (count, HV, C, C), when asked for (the backward). */
  T: Tensor | null;
  /**
   * The q and k every later stage reads: L2-normalised float32 copies in q's shape and layout when
   * plan.qkL2norm, else null (read x.q / x.k themselves, float16 or float32).
   */
  qn: Tensor | null;
  kn: Tensor | null;
  /** (N, HV) int32 status (plan contract: 0 ok, 1 non-finite q/k/v/β/S₀, 2 bad g). */
  status: Tensor<'int32'>;
}

/** What the state pass (gdn_state_staged.ts, `gdnStatePassStagedGpu`) leaves for the output and the backward. */
export interface GdnStates {
  /** h_c: the state at the start of each chunk, float32 (count, HV, dk, dv). */
  h: Tensor;
  /** Vn = U − W·h_c, float32 (count, HV, C, dv). */
  vn: Tensor;
  /** The state after each sequence's last token (N, HV, dk, dv), stateDtype; NaN where status ≠ 0. */
  finalState: Tensor;
}
