// Helpers shared by the Gated DeltaNet GPU kernels: the layout strides, the per-sequence chunk
// table the state pass reads, and the finalize kernel (shaders/gdn/finalize.wgsl) that runs after
// the state pass (gdn_state_staged.ts) and writes the status and NaN states (docs/gdn.md "GPU kernels").
import { Tensor } from '../../core/tensor.js';
import type { GdnPlan } from '../ops.js';
import { cachedProgram } from './program.js';
import { loadShader } from './preprocess.js';
import { gpuDevice } from './device.js';
import { allocStorage, bufferOf } from './pool.js';
import type { GdnChunkTable } from './gdn_chunks.js';

/**
 * Element strides (batch, time, head) of a q/k (heads, dk) or v/o (vHeads, dv) tensor in the
 * plan's layout: the backend's copy of src/gdn/plan.ts gdnStrides (backends do not import ops).
 */
export function gdnLayoutStrides(plan: GdnPlan, heads: number, dim: number): { sB: number; sT: number; sH: number } {
  const T = plan.time;
  return plan.layout === 'bthd' ? { sB: T * heads * dim, sT: heads * dim, sH: dim } : { sB: heads * T * dim, sT: dim, sH: T * dim };
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
export function gdnUploadSeqs(plan: GdnPlan, chunks: GdnChunkTable, who: string): Tensor<'uint32'> {
  const N = plan.seqs;
  const a = new Uint32Array(4 * Math.max(N, 1));
  for (let n = 0; n < N; n++) a.set([chunks.firstChunk[n], chunks.firstChunk[n + 1], plan.seqStart[n], plan.seqLen[n]], 4 * n);
  // Not emptyGpu: a queue write must not land in a buffer that pending commands still use.
  const t = Tensor.fromGpu('uint32', [Math.max(N, 1), 4], allocStorage(a.byteLength, who)) as Tensor<'uint32'>;
  gpuDevice(who).queue.writeBuffer(bufferOf(t.gpuStorage()), 0, a.buffer, a.byteOffset, a.byteLength);
  return t;
}
