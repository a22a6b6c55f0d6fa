// gdn.chunkedForward on the GPU: the (staged) state pass and the output kernels alone (fed a WY stage
// computed in float64 JavaScript, test/helpers/gdn-stages.ts), and the whole public call,
// against the float64 token-by-token reference (test/helpers/gdn.ts).
import { describe, expect } from 'vitest';
import { Rng, Tensor, ArgumentError } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import { halfFromFloat32, halfToFloat32 } from '../../src/core/half.js';
import { planGdn } from '../../src/gdn/plan.js';
import { gdnChunkTable, type GdnWy } from '../../src/backend/gpu/gdn_chunks.js';
import { gdnStatePassStagedGpu, type GdnStateStagedTune } from '../../src/backend/gpu/gdn_state_staged.js';
import { gdnOutputGpu, type GdnOutputTune } from '../../src/backend/gpu/gdn_output.js';
import * as gdn from '../../src/gdn/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import {
  gdnRandom, gdnReference, gdnShapes, gdnTensors, relErr, seqCount, type GdnData, type GdnShape, type GdnRandomOptions,
} from '../helpers/gdn.js';
import { gdnStages } from '../helpers/gdn-stages.js';

useGpu();

const f32 = (a: Float64Array, shape: number[]): Tensor => Tensor.fromStorage('float32', shape, Float32Array.from(a)).to('gpu');

interface StageCase {
  s: GdnShape;
  C: 16 | 32 | 64;
  rnd?: GdnRandomOptions;
  scale?: number;
  qkL2norm?: boolean;
  state?: GdnStateStagedTune;
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
  const states = gdnStatePassStagedGpu(xin, wy, plan, chunks, 'test', k.state);
  const o = gdnOutputGpu(xin, wy, states, plan, chunks, 'test', k.out);
  for (const t of [wy.gcum, wy.W, wy.U, wy.qn, wy.kn, chunks.table, chunks.firstChunkGpu]) t?.dispose();
  const r = {
    h: chunks.count ? relErr(await states.h.data() as Float32Array, st.h) : 0,
    vn: chunks.count ? relErr(await states.vn.data() as Float32Array, st.vn) : 0,
    S: relErr(await states.finalState.data() as Float32Array, ref.S),
    Sref: relErr(st.S, ref.S),
    o: relErr(await o.data() as Float32Array, ref.o),
  };
  return r;
}

const TOL = 1e-5;

function expectStages(r: Awaited<ReturnType<typeof runStages>>): void {
  expect(r.Sref, 'the float64 stages equal the recurrence').toBeLessThan(1e-12);
  expect(r.h, 'h').toBeLessThan(TOL);
  expect(r.vn, 'Vn').toBeLessThan(TOL);
  expect(r.S, 'final state').toBeLessThan(TOL);
  expect(r.o, 'o').toBeLessThan(TOL);
}

// Few kernel variants (lavapipe compiles each in seconds): dk = dv = 8 with C 16 (most cases), dk 16 and
// dv 136 with C 64 (several column tiles in both kernels, the last one partial), float16 with C 32 and
// dk 6, dv 10 (not multiples of 4: the scalar loads), one output variant with row blocks and h_c from global memory, and two with 2 column vec4s per thread.
describe('gdn state pass and output kernels (WY stage from float64 JS)', () => {
  gpuIt('C 16, dk = dv = 8, T 37 (short last chunk), initial state, output 2 column vec4s per thread', async () => {
    expectStages(await runStages({ s: { B: 2, T: 37, H: 2, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, C: 16, rnd: { initialState: true }, out: { cw: 2 } }, 1));
  });
  gpuIt('C 16, output in row blocks of 8 with h_c from global memory, packed sequences with an empty one, GVA, bhtd, qkL2norm, scale', async () => {
    expectStages(await runStages({
      s: { B: 1, T: 45, H: 1, HV: 2, dk: 8, dv: 8, layout: 'bhtd', cuSeqlens: [0, 20, 20, 45] }, C: 16, rnd: { initialState: true, unitKeys: false },
      qkL2norm: true, scale: 0.6, out: { rbo: 8, hs: false },
    }, 2));
  });
  gpuIt('C 64, dk 16, dv 136 (several column tiles, 2 column vec4s per thread in the output), T 150, strong decay', async () => {
    expectStages(await runStages({ s: { B: 1, T: 150, H: 1, HV: 1, dk: 16, dv: 136, layout: 'bthd' }, C: 64, rnd: { gMin: -20, initialState: true }, out: { cw: 2 } }, 3));
  });
});

interface Case {
  name: string;
  s: GdnShape;
  chunk: 16 | 32 | 64;
  rand?: GdnRandomOptions;
  scale?: number;
  qkL2norm?: boolean;
  /** Overwrite some β with exactly 0 and 1. */
  betaEdges?: boolean;
}

const CASES: Case[] = [
  { name: 'bthd, C 16, T 37 (short last chunk), initial state', s: { B: 2, T: 37, H: 2, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, chunk: 16, rand: { initialState: true } },
  {
    name: 'bhtd, packed sequences (one empty), GVA (H 2, HV 4), scale, qkL2norm, strong decay (g to −20)',
    s: { B: 1, T: 47, H: 2, HV: 4, dk: 8, dv: 8, layout: 'bhtd', cuSeqlens: [0, 5, 5, 30, 47] }, chunk: 16, scale: 0.6, qkL2norm: true,
    rand: { unitKeys: false, gMin: -20, initialState: true },
  },
  { name: 'gates near 0 (g ≥ −1e-3), β exactly 0 and 1 in places', s: { B: 2, T: 40, H: 1, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, chunk: 16, rand: { gMin: -1e-3, betaMin: 0, betaMax: 1 }, betaEdges: true },
  { name: 'C 64, dk 16, dv 136, T 150, GVA', s: { B: 1, T: 150, H: 1, HV: 2, dk: 16, dv: 136, layout: 'bthd' }, chunk: 64, rand: { initialState: true } },
  { name: 'T 4096 (64 chunks of float32 state accumulation), gates near 0', s: { B: 1, T: 4096, H: 1, HV: 1, dk: 16, dv: 136, layout: 'bthd' }, chunk: 64, rand: { gMin: -1e-3 } },
];

function inputs(c: Case, seed: number): GdnData {
  const x = gdnRandom(c.s, new Rng(seed), c.rand);
  if (c.betaEdges) for (let i = 0; i < x.beta.length; i += 3) x.beta[i] = i % 2;
  return x;
}

function gpuForward(c: Case, x: GdnData) {
  const t = gdnTensors(c.s, x, 'float32');
  const g = (a: Tensor | undefined) => a?.to('gpu');
  return gdn.chunkedForward({
    q: g(t.q)!, k: g(t.k)!, v: g(t.v)!, beta: g(t.beta)!, g: g(t.g)!, initialState: g(t.initialState),
    layout: c.s.layout, chunkSize: c.chunk, scale: c.scale, qkL2norm: c.qkL2norm, cuSeqlens: c.s.cuSeqlens,
  });
}

describe('gdn.chunkedForward on the GPU against the float64 recurrence', () => {
  CASES.forEach((c, i) => {
    gpuIt(c.name, async () => {
      const x = inputs(c, 100 + i);
      const ref = gdnReference(c.s, x, { scale: c.scale, qkL2norm: c.qkL2norm });
      const r = gpuForward(c, x);
      expect(r.o.device).toBe('gpu');
      expect(r.o.dtype).toBe('float32');
      expect(r.o.shape).toEqual(gdnShapes(c.s).v);
      expect(r.finalState.shape).toEqual(gdnShapes(c.s).state);
      expect(relErr(await r.o.data() as Float32Array, ref.o), 'o').toBeLessThanOrEqual(TOL);
      expect(relErr(await r.finalState.data() as Float32Array, ref.S), 'final state').toBeLessThanOrEqual(TOL);
    });
  });

  gpuIt('packed sequences equal each sequence run alone; GPU equals the CPU backend', async () => {
    const c = CASES[1];
    const x = inputs(c, 101);
    const packed = gpuForward(c, x);
    const o = await packed.o.data() as Float32Array, S = await packed.finalState.data() as Float32Array;
    const cu = c.s.cuSeqlens!, { HV, dk, dv } = c.s;
    for (let n = 0; n + 1 < cu.length; n++) {
      const L = cu[n + 1] - cu[n];
      if (L === 0) continue;
      const s1: GdnShape = { ...c.s, T: L, cuSeqlens: undefined };
      // slice sequence n out of the packed 'bhtd' (1, heads, T, d) arrays
      const cut = (a: Float64Array, heads: number, d: number): Float64Array => {
        const out = new Float64Array(heads * L * d);
        for (let h = 0; h < heads; h++) out.set(a.subarray((h * c.s.T + cu[n]) * d, (h * c.s.T + cu[n] + L) * d), h * L * d);
        return out;
      };
      const x1: GdnData = {
        q: cut(x.q, c.s.H, dk), k: cut(x.k, c.s.H, dk), v: cut(x.v, HV, dv), beta: cut(x.beta, HV, 1), g: cut(x.g, HV, 1),
        S0: x.S0!.slice(n * HV * dk * dv, (n + 1) * HV * dk * dv),
      };
      const alone = gpuForward({ ...c, s: s1 }, x1);
      const o1 = await alone.o.data() as Float32Array;
      const oPacked = Float64Array.from(cut(Float64Array.from(o), HV, dv));
      expect(relErr(o1, oPacked), `sequence ${n} o`).toBeLessThanOrEqual(1e-6);
      expect(relErr(await alone.finalState.data() as Float32Array, S.subarray(n * HV * dk * dv, (n + 1) * HV * dk * dv)), `sequence ${n} state`).toBeLessThanOrEqual(1e-6);
    }
    // the CPU backend (native kernels) on the same float32 inputs
    const t = gdnTensors(c.s, x, 'float32');
    const cpu = gdn.chunkedForward({ ...t, layout: c.s.layout, chunkSize: c.chunk, scale: c.scale, qkL2norm: c.qkL2norm, cuSeqlens: c.s.cuSeqlens });
    expect(relErr(o, cpu.o.dataSync() as Float32Array), 'o GPU vs CPU').toBeLessThanOrEqual(TOL);
    expect(relErr(S, cpu.finalState.dataSync() as Float32Array), 'state GPU vs CPU').toBeLessThanOrEqual(TOL);
  });

  gpuIt('status: NaN in q or g > 0 → ArgumentError at the first read; the other sequences are unaffected', async () => {
    const c = CASES[0];
    const { HV, dk, dv } = c.s;
    for (const [what, code] of [['q', 1], ['g', 2]] as const) {
      const x = inputs(c, 7);
      if (what === 'q') x.q[((1 * c.s.T + 3) * c.s.H + 1) * dk + 2] = NaN; // batch 1, t 3, key head 1 → value head 1
      else x.g[(1 * c.s.T + 20) * HV + 0] = 0.3; // batch 1, value head 0
      const ref = gdnReference(c.s, { ...x, g: x.g.map((v) => Math.min(v, 0)), q: x.q.map((v) => (Number.isNaN(v) ? 0 : v)) });
      const r = gpuForward(c, x);
      const err = await r.o.data().then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(ArgumentError);
      expect((err as Error).message).toMatch(new RegExp(`^gdn.chunkedForward: batch 1, value head ${what === 'q' ? 1 : 0}: `));
      // the backend entry: status per (sequence, value head), NaN only there
      const t = gdnTensors(c.s, x, 'float32');
      const { x: xin, plan } = planGdn({ q: t.q.to('gpu'), k: t.k.to('gpu'), v: t.v.to('gpu'), beta: t.beta.to('gpu'), g: t.g.to('gpu'), initialState: t.initialState?.to('gpu') },
        { layout: c.s.layout, chunk: c.chunk, qkL2norm: false }, 'test');
      const b = lookup('gdnForward', 'float32', 'gpu', 'test')(xin, plan);
      const status = Array.from(await b.status.data() as Int32Array);
      const badHv = what === 'q' ? 1 : 0;
      expect(status).toEqual([0, 0, badHv === 0 ? code : 0, badHv === 1 ? code : 0]);
      const o = await b.o.data() as Float32Array, S = await b.finalState.data() as Float32Array;
      for (let n = 0; n < 2; n++) {
        for (let hv = 0; hv < HV; hv++) {
          const bad = n === 1 && hv === badHv;
          const os: number[] = [], rs: number[] = [];
          for (let t0 = 0; t0 < c.s.T; t0++) for (let e = 0; e < dv; e++) { os.push(o[((n * c.s.T + t0) * HV + hv) * dv + e]); rs.push(ref.o[((n * c.s.T + t0) * HV + hv) * dv + e]); }
          const ss = S.subarray((n * HV + hv) * dk * dv, (n * HV + hv + 1) * dk * dv);
          if (bad) {
            expect(os.every(Number.isNaN), `o of (${n}, ${hv}) NaN`).toBe(true);
            expect(Array.from(ss).every(Number.isNaN), `state of (${n}, ${hv}) NaN`).toBe(true);
          } else {
            expect(relErr(os, rs), `o of (${n}, ${hv})`).toBeLessThanOrEqual(TOL);
            expect(relErr(ss, ref.S.subarray((n * HV + hv) * dk * dv, (n * HV + hv + 1) * dk * dv)), `state of (${n}, ${hv})`).toBeLessThanOrEqual(TOL);
          }
        }
      }
    }
  });

  gpuIt('empty: T = 0 (the initial state comes back), no sequences, an empty packed sequence', async () => {
    const c = CASES[0];
    const s0: GdnShape = { ...c.s, T: 0 };
    const x0 = inputs({ ...c, s: s0 }, 9);
    const r0 = gpuForward({ ...c, s: s0 }, x0);
    expect(r0.o.shape).toEqual([2, 0, 2, 8]);
    expect(Array.from(await r0.finalState.data() as Float32Array)).toEqual(Array.from(Float32Array.from(x0.S0!)));
    const sN: GdnShape = { ...c.s, B: 0 };
    const rN = gpuForward({ ...c, s: sN, rand: {} }, inputs({ ...c, s: sN, rand: {} }, 9));
    expect(rN.o.shape).toEqual([0, 37, 2, 8]);
    expect(rN.finalState.shape).toEqual([0, 2, 8, 8]);
    expect((await rN.finalState.data()).length).toBe(0);
    const sE: GdnShape = { ...c.s, B: 1, T: 20, cuSeqlens: [0, 0, 20, 20] };
    const xE = inputs({ ...c, s: sE }, 10);
    const rE = gpuForward({ ...c, s: sE }, xE);
    const ref = gdnReference(sE, xE);
    expect(seqCount(sE)).toBe(3);
    expect(relErr(await rE.o.data() as Float32Array, ref.o)).toBeLessThanOrEqual(TOL);
    expect(relErr(await rE.finalState.data() as Float32Array, ref.S)).toBeLessThanOrEqual(TOL);
  });

  gpuIt('float16 inputs, C 32, dk 6, dv 10, bhtd, GVA: o in float16 (packed halves), final state in float32, within 1e-2', async () => {
    const c: Case = { name: 'f16', s: { B: 2, T: 70, H: 1, HV: 2, dk: 6, dv: 10, layout: 'bhtd' }, chunk: 32, rand: { initialState: true } };
    const x = inputs(c, 11);
    const sh = gdnShapes(c.s);
    const h16 = (a: Float64Array) => halfFromFloat32(Float32Array.from(a));
    const rounded = (a: Float64Array) => Float64Array.from(halfToFloat32(h16(a)));
    const xr: GdnData = { q: rounded(x.q), k: rounded(x.k), v: rounded(x.v), beta: rounded(x.beta), g: rounded(x.g), S0: x.S0 };
    const ref = gdnReference(c.s, xr);
    const T16 = (a: Float64Array, shape: number[]) => Tensor.fromStorage('float16', shape, h16(a)).to('gpu');
    const r = gdn.chunkedForward({
      q: T16(x.q, sh.qk), k: T16(x.k, sh.qk), v: T16(x.v, sh.v), beta: T16(x.beta, sh.gate), g: T16(x.g, sh.gate),
      initialState: f32(x.S0!, sh.state), chunkSize: 32, layout: 'bhtd',
    });
    expect(r.o.dtype).toBe('float16');
    expect(r.o.shape).toEqual(sh.v);
    expect(r.finalState.dtype).toBe('float32');
    expect(relErr(halfToFloat32(await r.o.data() as Uint16Array), ref.o)).toBeLessThanOrEqual(1e-2);
    expect(relErr(await r.finalState.data() as Float32Array, ref.S)).toBeLessThanOrEqual(1e-2);
  });
});
