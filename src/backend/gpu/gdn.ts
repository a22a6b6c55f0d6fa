// gdnForward on the GPU: the chunk table, the WY stage (gdn_wy.ts), the state pass
// (gdn_state_staged.ts) and the output (gdn_output.ts), recorded into one submission; no host reads.
import type { Tensor } from '../../core/tensor.js';
import type { GdnInputs, GdnPlan } from '../ops.js';
import { register } from '../registry.js';
import { gdnChunkTable } from './gdn_chunks.js';
import { gdnWyGpu } from './gdn_wy.js';
import { gdnStatePassStagedGpu } from './gdn_state_staged.js';
import { gdnOutputGpu } from './gdn_output.js';

/** o, the final states and the status of a chunked forward (scratch disposed after recording). */
export function gdnForwardGpu(x: GdnInputs, plan: GdnPlan): { o: Tensor; finalState: Tensor; status: Tensor<'int32'> } {
  const who = 'gdn.chunkedForward';
  const chunks = gdnChunkTable(plan);
  const wy = gdnWyGpu(x, plan, chunks, { keepT: false }, who);
  const st = gdnStatePassStagedGpu(x, wy, plan, chunks, who);
  const o = gdnOutputGpu(x, wy, st, plan, chunks, who);
  // The pool keeps disposed buffers alive until the recorded commands that use them are submitted.
  for (const t of [chunks.table, chunks.firstChunkGpu, wy.gcum, wy.W, wy.U, wy.T, wy.qn, wy.kn, st.h, st.vn]) t?.dispose();
  return { o, finalState: st.finalState, status: wy.status };
}

export function registerGdnGpu(): void {
  register('gdnForward', ['float32', 'float16'], 'gpu', gdnForwardGpu);
}
