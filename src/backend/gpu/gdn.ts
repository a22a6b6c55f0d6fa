// gdnForward on the GPU: the chunk table, the WY stage (gdn_wy.ts), the state pass
// (gdn_state_staged.ts) and the output (gdn_output.ts), recorded into one submission; no host reads.
import type { Tensor } from '../../core/tensor.js';
import type { GdnInputs, GdnPlan, GdnSaved } from '../ops.js';
import type { GdnChunkTable, GdnWy, GdnStates } from './gdn_chunks.js';
import { register } from '../registry.js';
import { gdnChunkTable } from './gdn_chunks.js';
import { gdnWyGpu } from './gdn_wy.js';
import { gdnStatePassStagedGpu } from './gdn_state_staged.js';
import { gdnOutputGpu } from './gdn_output.js';

/** The stages a kept forward hands to gdnBackward (GdnSaved). */
export interface GdnGpuSaved extends GdnSaved {
  readonly backend: 'gpu';
  readonly chunks: GdnChunkTable;
  readonly wy: GdnWy;
  readonly st: GdnStates;
}

/**
 * o, the final states and the status of a chunked forward (scratch disposed after recording).
 * keep: the chunk table, the WY stage (with T) and the per-chunk states stay alive as `saved`.
 */
export function gdnForwardGpu(x: GdnInputs, plan: GdnPlan, keep = false): { o: Tensor; finalState: Tensor; status: Tensor<'int32'>; saved?: GdnGpuSaved } {
  const who = 'gdn.chunkedForward';
  const chunks = gdnChunkTable(plan);
  const wy = gdnWyGpu(x, plan, chunks, { keepT: keep }, who);
  const st = gdnStatePassStagedGpu(x, wy, plan, chunks, who);
  const o = gdnOutputGpu(x, wy, st, plan, chunks, who);
  const stages = [chunks.table, chunks.firstChunkGpu, wy.gcum, wy.W, wy.U, wy.T, wy.qn, wy.kn, st.h, st.vn];
  if (keep) {
    const dispose = (): void => { for (const t of [...stages, wy.status]) t?.dispose(); };
    // the caller's status check frees what it reads once: it gets a view, the kept stages keep the buffer
    const status = wy.status.reshape(wy.status.shape);
    return { o, finalState: st.finalState, status, saved: { backend: 'gpu', chunks, wy, st, dispose } };
  }
  // The pool keeps disposed buffers alive until the recorded commands that use them are submitted.
  for (const t of stages) t?.dispose();
  return { o, finalState: st.finalState, status: wy.status };
}

export function registerGdnGpu(): void {
  register('gdnForward', ['float32', 'float16'], 'gpu', (x, plan, keep) => gdnForwardGpu(x, plan, keep));
}
