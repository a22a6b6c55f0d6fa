// The staged GPU state pass (gdnStatePassStagedGpu) alone, fed a WY stage computed in float64
// JavaScript (test/helpers/gdn-stages.ts): h, Vn and the final states against the float64 stages
// and the token-by-token reference, over tiles of the whole chunk and of several slices.
import { describe, expect } from 'vitest';
import { Rng, Tensor } from '../../src/index.js';
import { halfFromFloat32, halfToFloat32 } from '../../src/core/half.js';
import { planGdn } from '../../src/gdn/plan.js';
import { gdnChunkTable, type GdnWy } from '../../src/backend/gpu/gdn_chunks.js';
import { gdnStatePassStagedGpu, gdnStateStagedPlan, type GdnStateStagedTune } from '../../src/backend/gpu/gdn_state_staged.js';
import { gpuLimits } from '../../src/backend/gpu/device.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { gdnRandom, gdnReference, gdnShapes, relErr, type GdnData, type GdnShape, type GdnRandomOptions } from '../helpers/gdn.js';
import { gdnStages } from '../helpers/gdn-stages.js';

useGpu();

const f32 = (a: Float64Array, shape: number[]): Tensor => Tensor.fromStorage('float32', shape, Float32Array.from(a)).to('gpu');

interface StagedCase {
  s: GdnShape;
  C: 16 | 32 | 64;
  rnd?: GdnRandomOptions;
  qkL2norm?: boolean;
  tune?: GdnStateStagedTune;
  /** Keys in float16 (the stages use the rounded keys). */
  half?: boolean;
}

async function run(k: StagedCase, seed: number): Promise<void> {
  const { s, C } = k;
  const x0 = gdnRandom(s, new Rng(seed), k.rnd);
  const rk = (a: Float64Array) => Float64Array.from(halfToFloat32(halfFromFloat32(Float32Array.from(a))));
  const x: GdnData = k.half ? { ...x0, k: rk(x0.k) } : x0;
  const ref = gdnReference(s, x, { qkL2norm: k.qkL2norm });
  const st = gdnStages(s, x, C, k.qkL2norm);
  const sh = gdnShapes(s);
  const kt = k.half ? Tensor.fromStorage('float16', sh.qk, halfFromFloat32(Float32Array.from(x.k))).to('gpu') : f32(x.k, sh.qk);
  const { x: xin, plan } = planGdn({
    q: k.half ? Tensor.fromStorage('float16', sh.qk, halfFromFloat32(Float32Array.from(x.q))).to('gpu') : f32(x.q, sh.qk),
    k: kt,
    v: k.half ? Tensor.fromStorage('float16', sh.v, halfFromFloat32(Float32Array.from(x.v))).to('gpu') : f32(x.v, sh.v),
    beta: k.half ? Tensor.fromStorage('float16', sh.gate, halfFromFloat32(Float32Array.from(x.beta))).to('gpu') : f32(x.beta, sh.gate),
    g: k.half ? Tensor.fromStorage('float16', sh.gate, halfFromFloat32(Float32Array.from(x.g))).to('gpu') : f32(x.g, sh.gate),
    ...(x.S0 ? { initialState: f32(x.S0, sh.state) } : {}),
  }, { layout: s.layout, chunk: C, qkL2norm: k.qkL2norm ?? false, cuSeqlens: s.cuSeqlens }, 'test');
  expect(plan.dtype).toBe(k.half ? 'float16' : 'float32');
  const chunks = gdnChunkTable(plan);
  expect(chunks.count).toBe(st.chunks.length);
  const cnt = Math.max(chunks.count, 1);
  const wy: GdnWy = {
    gcum: f32(st.gcum, [cnt, s.HV, C]), W: f32(st.W, [cnt, s.HV, C, s.dk]), U: f32(st.U, [cnt, s.HV, C, s.dv]), T: null,
    qn: st.qn ? f32(st.qn, sh.qk) : null, kn: st.kn ? f32(st.kn, sh.qk) : null,
    status: Tensor.fromStorage('int32', [plan.seqs, s.HV], new Int32Array(plan.seqs * s.HV)).to('gpu') as Tensor<'int32'>,
  };
  const r = gdnStatePassStagedGpu(xin, wy, plan, chunks, 'test', k.tune);
  for (const t of [wy.gcum, wy.W, wy.U, wy.qn, wy.kn, chunks.table, chunks.firstChunkGpu]) t?.dispose();
  expect(relErr(st.S, ref.S), 'the float64 stages equal the recurrence').toBeLessThan(1e-12);
  expect(relErr(await r.h.data() as Float32Array, st.h), 'h').toBeLessThan(1e-5);
  expect(relErr(await r.vn.data() as Float32Array, st.vn), 'Vn').toBeLessThan(1e-5);
  expect(relErr(await r.finalState.data() as Float32Array, ref.S), 'final state').toBeLessThan(1e-5);
  expect(Array.from(await wy.status.data() as Int32Array).every((v) => v === 0)).toBe(true);
}

describe('gdn staged state pass (WY stage from float64 JS)', () => {
  gpuIt('the plan: whole-chunk tiles where memory allows; every variant fits the limits', () => {
    const limits = gpuLimits('test');
    for (const [C, dk, dv] of [[64, 128, 128], [64, 256, 256], [16, 6, 10], [32, 64, 136]]) {
      const L = gdnStateStagedPlan(C, dk, dv, limits)!;
      expect(L, `C ${C} dk ${dk}`).not.toBeNull();
      expect(L.bytes).toBeLessThanOrEqual(limits.maxComputeWorkgroupStorageSize);
      expect(L.TS).toBeLessThanOrEqual(limits.maxComputeInvocationsPerWorkgroup);
      expect(C % L.CS).toBe(0);
      // W in dk slices: row groups divide C; W in row slices: they divide the tile's rows
      expect(L.DS > 0 ? C % L.RG : L.CS % L.RG).toBe(0);
    }
    const big = { ...limits, maxComputeWorkgroupStorageSize: 49152, maxComputeInvocationsPerWorkgroup: 1024 };
    expect(gdnStateStagedPlan(64, 128, 128, big)).toMatchObject({ BV: 32, CS: 32, RG: 32, TS: 256, DS: 64 });
    expect(gdnStateStagedPlan(64, 128, 128, big, { wd: false })).toMatchObject({ BV: 32, CS: 32, DS: 0 });
    expect(gdnStateStagedPlan(64, 128, 128, big, { db: true })).toMatchObject({ BV: 32, CS: 16, RG: 32, DS: 32, DB: true });
    expect(gdnStateStagedPlan(64, 128, 128, { ...big, maxComputeWorkgroupStorageSize: 16384, maxComputeInvocationsPerWorkgroup: 256 })!.bytes).toBeLessThanOrEqual(16384);
  });
  gpuIt('C 16, dk = dv = 8, T 37 (short last chunk), initial state, bthd', async () => {
    await run({ s: { B: 2, T: 37, H: 2, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, C: 16, rnd: { initialState: true } }, 1);
  });
  gpuIt('W in row slices like K (wd false), C 16 in two tiles of 8 rows, short last chunk', async () => {
    await run({ s: { B: 1, T: 37, H: 1, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, C: 16, rnd: { initialState: true }, tune: { wd: false, cs: 8 } }, 5);
  });
  gpuIt('two tile buffers (db): W in two dk slices and K in two row slices, and whole-chunk tiles', async () => {
    await run({ s: { B: 1, T: 37, H: 1, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, C: 16, rnd: { initialState: true }, tune: { db: true, cs: 8 } }, 6);
    await run({ s: { B: 2, T: 70, H: 1, HV: 1, dk: 16, dv: 12, layout: 'bhtd' }, C: 32, tune: { db: true } }, 7);
  });
  gpuIt('C 16, packed sequences with an empty one, GVA, bhtd, qkL2norm (normalised keys)', async () => {
    await run({
      s: { B: 1, T: 45, H: 1, HV: 2, dk: 8, dv: 8, layout: 'bhtd', cuSeqlens: [0, 20, 20, 45] }, C: 16,
      rnd: { initialState: true, unitKeys: false }, qkL2norm: true,
    }, 2);
  });
  gpuIt('C 64, dk 16, dv 136 (several column tiles, the last partial), T 150, tiles of 16 rows (4 slices)', async () => {
    await run({ s: { B: 1, T: 150, H: 1, HV: 1, dk: 16, dv: 136, layout: 'bthd' }, C: 64, rnd: { gMin: -20, initialState: true }, tune: { cs: 16, rg: 8 } }, 3);
  });
  gpuIt('float16 keys, C 32, dk 6, dv 10 (scalar loads, partial tile), bhtd, GVA', async () => {
    await run({ s: { B: 2, T: 70, H: 1, HV: 2, dk: 6, dv: 10, layout: 'bhtd' }, C: 32, rnd: { initialState: true }, half: true }, 4);
  });
});
