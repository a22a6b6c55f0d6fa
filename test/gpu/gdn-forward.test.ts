// gdn.chunkedForward on the GPU: the state pass and the output kernels alone (fed a WY stage
// computed in float64 JavaScript, test/helpers/gdn-stages.ts), and the whole public call,
// against the float64 token-by-token reference (test/helpers/gdn.ts).
import { describe, expect } from 'vitest';
import { Rng, Tensor } from '../../src/index.js';
import { planGdn } from '../../src/gdn/plan.js';
import { gdnChunkTable, type GdnWy } from '../../src/backend/gpu/gdn_chunks.js';
import { gdnStatePassGpu, type GdnStateTune } from '../../src/backend/gpu/gdn_state.js';
import { gdnOutputGpu, type GdnOutputTune } from '../../src/backend/gpu/gdn_output.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { gdnRandom, gdnReference, gdnShapes, relErr, type GdnShape, type GdnRandomOptions } from '../helpers/gdn.js';
import { gdnStages } from '../helpers/gdn-stages.js';

useGpu();

const f32 = (a: Float64Array, shape: number[]): Tensor => Tensor.fromStorage('float32', shape, Float32Array.from(a)).to('gpu');

interface StageCase {
  s: GdnShape;
  C: 16 | 32 | 64;
  rnd?: GdnRandomOptions;
  scale?: number;
  qkL2norm?: boolean;
  state?: GdnStateTune;
  out?: GdnOutputTune;
}

/** The state pass and the output kernel on a WY stage from float64 JS; errors of h, Vn, finalState and o. */
async function runStages(k: StageCase, seed: number): Promise<{ h: number; vn: number; S: number; o: number; Sref: number }> {
  const { s, C } = k;
  const x = gdnRandom(s, new Rng(seed), k.rnd);
  const ref = gdnReference(s, x, { scale: k.scale, qkL2norm: k.qkL2norm });
  const st = gdnStages(s, x, C, k.qkL2norm);
  const sh = gdnShapes(s);
  const { x: xin, plan } = planGdn({
    q: f32(x.q, sh.qk), k: f32(x.k, sh.qk), v: f32(x.v, sh.v), beta: f32(x.beta, sh.gate), g: f32(x.g, sh.gate),
    ...(x.S0 ? { initialState: f32(x.S0, sh.state) } : {}),
  }, { layout: s.layout, chunk: C, scale: k.scale, qkL2norm: k.qkL2norm ?? false, cuSeqlens: s.cuSeqlens }, 'test');
  const chunks = gdnChunkTable(plan);
  expect(chunks.count).toBe(st.chunks.length);
  const cnt = Math.max(chunks.count, 1);
  const wy: GdnWy = {
    gcum: f32(st.gcum, [cnt, s.HV, C]), W: f32(st.W, [cnt, s.HV, C, s.dk]), U: f32(st.U, [cnt, s.HV, C, s.dv]), T: null,
    qn: st.qn ? f32(st.qn, sh.qk) : null, kn: st.kn ? f32(st.kn, sh.qk) : null,
    status: Tensor.fromStorage('int32', [plan.seqs, s.HV], new Int32Array(plan.seqs * s.HV)).to('gpu') as Tensor<'int32'>,
  };
  const states = gdnStatePassGpu(xin, wy, plan, chunks, 'test', k.state);
  const o = gdnOutputGpu(xin, wy, states, plan, chunks, 'test', k.out);
  const r = {
    h: chunks.count ? relErr(await states.h.data() as Float32Array, st.h) : 0,
    vn: chunks.count ? relErr(await states.vn.data() as Float32Array, st.vn) : 0,
    S: relErr(await states.finalState.data() as Float32Array, ref.S),
    Sref: relErr(st.S, ref.S),
    o: relErr(await o.data() as Float32Array, ref.o),
  };
  return r;
}

describe('gdn state pass and output kernels (WY stage from float64 JS)', () => {
  gpuIt('small shape, T not a multiple of C, initial state', async () => {
    const r = await runStages({ s: { B: 2, T: 37, H: 2, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, C: 16, rnd: { initialState: true } }, 1);
    console.log(r);
    expect(r.Sref).toBeLessThan(1e-12);
    expect(r.h).toBeLessThan(1e-5);
    expect(r.vn).toBeLessThan(1e-5);
    expect(r.S).toBeLessThan(1e-5);
    expect(r.o).toBeLessThan(1e-5);
  });
});
