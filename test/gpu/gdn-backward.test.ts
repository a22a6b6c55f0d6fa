// The Gated DeltaNet backward on the GPU (src/backend/gpu/gdn_backward.ts) against the float64
// reverse mode of the token-by-token recurrence (test/helpers/gdn-grad.ts), which is checked
// first against central finite differences of gdnReference. The backward kernels run on forward
// stages computed in float64 JS (gdnChunkStages) and through the public gdn.chunkedBackward
// (the GPU forward stages recomputed inside).
import { describe, expect, it } from 'vitest';
import { Rng, Tensor, gdn } from '../../src/index.js';
import { planGdn } from '../../src/gdn/plan.js';
import { fromHalfBits, toHalfBits } from '../../src/core/half.js';
import { gdnChunkTable } from '../../src/backend/gpu/gdn_chunks.js';
import { gdnBackwardFromStages, mmBytes, stateBytes, type GdnBwdTiles } from '../../src/backend/gpu/gdn_backward.js';
import { gpuLimits } from '../../src/backend/gpu/device.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { gdnRandom, gdnReference, gdnShapes, relErr, seqCount, type GdnData, type GdnShape, type GdnRandomOptions } from '../helpers/gdn.js';
import { gdnChunkStages, gdnReferenceGrad, type GdnGrads } from '../helpers/gdn-grad.js';

useGpu();

const randn = (rng: Rng, n: number): Float64Array => Float64Array.from({ length: n }, () => rng.normal());

describe('gdnReferenceGrad (float64 reverse mode of the recurrence)', () => {
  const cases: Array<{ s: GdnShape; qkL2norm: boolean; S0: boolean; dF: boolean; scale?: number }> = [
    { s: { B: 1, T: 7, H: 1, HV: 2, dk: 3, dv: 2, layout: 'bthd', cuSeqlens: [0, 3, 3, 7] }, qkL2norm: true, S0: true, dF: true },
    { s: { B: 2, T: 4, H: 2, HV: 2, dk: 2, dv: 3, layout: 'bhtd' }, qkL2norm: false, S0: false, dF: false, scale: 0.7 },
  ];
  for (const [ci, c] of cases.entries()) {
    it(`equals central differences of gdnReference (case ${ci})`, () => {
      const rng = new Rng(100 + ci);
      const x = gdnRandom(c.s, rng, { initialState: c.S0, unitKeys: !c.qkL2norm, gMin: -0.5 });
      const sh = gdnShapes(c.s);
      const dO = randn(rng, x.v.length);
      const dF = c.dF ? randn(rng, sh.state.reduce((a, b) => a * b, 1)) : undefined;
      const opts = { qkL2norm: c.qkL2norm, scale: c.scale };
      const loss = (y: GdnData): number => {
        const r = gdnReference(c.s, y, opts);
        let l = 0;
        for (let i = 0; i < r.o.length; i++) l += dO[i] * r.o[i];
        if (dF) for (let i = 0; i < r.S.length; i++) l += dF[i] * r.S[i];
        return l;
      };
      const G = gdnReferenceGrad(c.s, x, dO, dF, opts);
      const keys: Array<[keyof GdnData, keyof GdnGrads]> = [['q', 'dq'], ['k', 'dk'], ['v', 'dv'], ['beta', 'dbeta'], ['g', 'dg']];
      if (c.S0) keys.push(['S0', 'dS0']);
      const h = 1e-5;
      for (const [xk, gk] of keys) {
        const arr = x[xk] as Float64Array, grad = G[gk] as Float64Array;
        const fd = new Float64Array(arr.length);
        for (let i = 0; i < arr.length; i++) {
          const v0 = arr[i];
          arr[i] = v0 + h; const lp = loss(x);
          arr[i] = v0 - h; const lm = loss(x);
          arr[i] = v0;
          fd[i] = (lp - lm) / (2 * h);
        }
        expect(relErr(grad, fd), `${gk}`).toBeLessThan(1e-6);
      }
    });
  }
});

interface BwdCase {
  name: string;
  s: GdnShape;
  C: 16 | 32 | 64;
  qkL2norm?: boolean;
  S0?: boolean;
  dF?: boolean;
  scale?: number;
  rnd?: GdnRandomOptions;
  half?: boolean;
  tiles?: Partial<GdnBwdTiles>;
}

const toGpu = (a: Float64Array, shape: number[], half: boolean): Tensor => (half
  ? Tensor.fromStorage('float16', shape, Uint16Array.from(a, (v) => toHalfBits(v)) as never)
  : Tensor.fromStorage('float32', shape, Float32Array.from(a))).to('gpu') as Tensor;

const roundHalf = (a: Float64Array): Float64Array => Float64Array.from(a, (v) => fromHalfBits(toHalfBits(v)));

interface Prepared {
  x: GdnData;
  dO: Float64Array;
  dF?: Float64Array;
  ref: GdnGrads;
}

function prepare(k: BwdCase, seed: number): Prepared {
  const rng = new Rng(seed);
  const x = gdnRandom(k.s, rng, { initialState: k.S0, unitKeys: !k.qkL2norm, ...k.rnd });
  const sh = gdnShapes(k.s);
  let dO = randn(rng, x.v.length);
  const dF = k.dF ? randn(rng, sh.state.reduce((a, b) => a * b, 1)) : undefined;
  if (k.half) {
    // the reference sees the inputs the kernels see: rounded to halves
    for (const key of ['q', 'k', 'v', 'beta', 'g'] as const) x[key] = roundHalf(x[key]);
    dO = roundHalf(dO);
  }
  return { x, dO, dF, ref: gdnReferenceGrad(k.s, x, dO, dF, { qkL2norm: k.qkL2norm, scale: k.scale }) };
}

async function read(t: Tensor): Promise<Float64Array> {
  const c = t.dtype === 'float16' ? t.cast('float32') : t;
  const d = await c.data();
  if (c !== t) c.dispose();
  return Float64Array.from(d as Float32Array);
}

async function errors(r: { dq: Tensor; dk: Tensor; dv: Tensor; dbeta: Tensor; dg: Tensor; dInitialState?: Tensor | null }, ref: GdnGrads): Promise<Record<string, number>> {
  const e: Record<string, number> = {
    dq: relErr(await read(r.dq), ref.dq), dk: relErr(await read(r.dk), ref.dk), dv: relErr(await read(r.dv), ref.dv),
    dbeta: relErr(await read(r.dbeta), ref.dbeta), dg: relErr(await read(r.dg), ref.dg),
  };
  if (ref.dS0) e.dS0 = relErr(await read(r.dInitialState!), ref.dS0);
  return e;
}

/** The backward kernels on forward stages from float64 JS (float32 on the GPU), optionally with a status. */
async function runFromStages(k: BwdCase, p: Prepared, status?: Int32Array) {
  const { s, C } = k;
  const sh = gdnShapes(s);
  const f32 = (a: Float64Array, shape: number[]): Tensor => Tensor.fromStorage('float32', shape, Float32Array.from(a)).to('gpu');
  const half = k.half ?? false;
  const { x, plan } = planGdn({
    q: toGpu(p.x.q, sh.qk, half), k: toGpu(p.x.k, sh.qk, half), v: toGpu(p.x.v, sh.v, half),
    beta: toGpu(p.x.beta, sh.gate, half), g: toGpu(p.x.g, sh.gate, half),
    ...(p.x.S0 ? { initialState: f32(p.x.S0, sh.state) } : {}),
  }, { layout: s.layout, chunk: C, scale: k.scale, qkL2norm: k.qkL2norm ?? false, cuSeqlens: s.cuSeqlens }, 'test');
  const chunks = gdnChunkTable(plan);
  const st = gdnChunkStages(s, p.x, C, { qkL2norm: k.qkL2norm });
  expect(chunks.count).toBe(st.count);
  const HV = s.HV, N = seqCount(s);
  const n = Math.max(st.count, 1);
  const wy = {
    gcum: f32(st.gcum, [n, HV, C]), W: f32(st.W, [n, HV, C, s.dk]), U: f32(st.U, [n, HV, C, s.dv]), T: f32(st.T, [n, HV, C, C]),
    qn: st.qn ? f32(st.qn, sh.qk) : null, kn: st.kn ? f32(st.kn, sh.qk) : null,
    status: Tensor.fromStorage('int32', [N, HV], status ?? new Int32Array(N * HV)).to('gpu') as Tensor<'int32'>,
  };
  const sts = { h: f32(st.h, [n, HV, s.dk, s.dv]), vn: f32(st.vn, [n, HV, C, s.dv]), finalState: f32(st.finalState, sh.state) };
  const dO = toGpu(p.dO, sh.v, half);
  const dF = p.dF ? f32(p.dF, sh.state) : null;
  return gdnBackwardFromStages(x, dO, dF, plan, chunks, wy, sts, 'test', k.tiles);
}

const F32_CASES: BwdCase[] = [
  { name: 'bthd, T 37 (short last chunk), C 16, initial state + dFinal', s: { B: 2, T: 37, H: 2, HV: 2, dk: 16, dv: 8, layout: 'bthd' }, C: 16, S0: true, dF: true },
  {
    name: 'bhtd, varlen with an empty sequence, GVA, C 32, qkL2norm, dFinal',
    s: { B: 1, T: 53, H: 1, HV: 2, dk: 12, dv: 20, layout: 'bhtd', cuSeqlens: [0, 20, 20, 53] }, C: 32, qkL2norm: true, dF: true, scale: 0.4,
  },
  {
    name: 'bthd, C 64, T 70, GVA 3 value heads, strong decay, β in [0, 1], BV 16',
    s: { B: 1, T: 70, H: 1, HV: 3, dk: 16, dv: 70, layout: 'bthd' }, C: 64, S0: true, rnd: { gMin: -3, betaMin: 0, betaMax: 1 }, tiles: { BV: 16 },
  },
  {
    name: 'bhtd, C 64, dk 80 and dv 72 (two column and row tiles of the products), qkL2norm, GVA',
    s: { B: 1, T: 100, H: 1, HV: 2, dk: 80, dv: 72, layout: 'bhtd' }, C: 64, qkL2norm: true, S0: true, dF: true,
  },
  {
    name: 'bthd, C 32, two chunks + dFinal, dv 14 in tiles of 4 columns, W read from memory in the reverse pass',
    s: { B: 1, T: 64, H: 2, HV: 2, dk: 12, dv: 14, layout: 'bthd' }, C: 32, S0: true, dF: true, tiles: { BV: 4, WP: false },
  },
];

describe('gdn backward kernels on float64 forward stages', () => {
  for (const [ci, k] of F32_CASES.entries()) {
    gpuIt(`float32: ${k.name}`, async () => {
      const p = prepare(k, 200 + ci);
      const r = await runFromStages(k, p);
      const e = await errors(r, p.ref);
    if (process.env.BW_LOG) console.log(JSON.stringify(e));
      for (const [name, v] of Object.entries(e)) expect(v, name).toBeLessThan(1e-4);
      expect(r.dInitialState === null).toBe(!k.S0);
    }, 180_000);
  }

  gpuIt('reverse pass with 32 dv columns per workgroup and K depth 32 where the workgroup memory allows it, else a DeviceError', async () => {
    const k: BwdCase = { name: 'BV 32', s: { B: 1, T: 70, H: 1, HV: 1, dk: 40, dv: 70, layout: 'bthd' }, C: 64, dF: true, tiles: { BV: 32, KT: 32 } };
    const p = prepare(k, 250);
    const mem = gpuLimits('test').maxComputeWorkgroupStorageSize;
    const fits = stateBytes(40, 32) <= mem && mmBytes(32) <= mem;
    if (!fits) {
      await expect(runFromStages(k, p)).rejects.toThrow(/gdn_bwd_\w+.*bytes of workgroup memory/);
      return;
    }
    const e = await errors(await runFromStages(k, p), p.ref);
    for (const [name, v] of Object.entries(e)) expect(v, name).toBeLessThan(1e-4);
  }, 180_000);

  gpuIt('a dk too large for the workgroup memory is a ShapeError naming the call and dk', async () => {
    const mem = gpuLimits('test').maxComputeWorkgroupStorageSize;
    const dk = 64 * Math.ceil(mem / 64);
    const k: BwdCase = { name: 'huge dk', s: { B: 1, T: 1, H: 1, HV: 1, dk, dv: 2, layout: 'bthd' }, C: 16 };
    const p = prepare(k, 260);
    await expect(runFromStages(k, p)).rejects.toThrow(new RegExp(`^test: dk = ${dk} is too large`));
  }, 180_000);

  gpuIt('status ≠ 0: that sequence and value head is NaN, the others match', async () => {
    const k = F32_CASES[0];
    const p = prepare(k, 200);
    const r = await runFromStages(k, p, Int32Array.of(0, 0, 0, 2));
    const dv = await read(r.dv), dg = await read(r.dg), dq = await read(r.dq), dS0 = await read(r.dInitialState!);
    const s = k.s, T = s.T;
    for (let t = 0; t < T; t++) {
      for (let hv = 0; hv < 2; hv++) {
        const bad = hv === 1;
        const gi = (T + t) * 2 + hv;
        expect(Number.isNaN(dg[gi]), `dg ${t} ${hv}`).toBe(bad);
        if (!bad) expect(Math.abs(dg[gi] - p.ref.dg[gi])).toBeLessThan(1e-3 * (1 + Math.abs(p.ref.dg[gi])));
        expect(Number.isNaN(dv[((T + t) * 2 + hv) * s.dv])).toBe(bad);
        expect(Number.isNaN(dq[((T + t) * 2 + hv) * s.dk])).toBe(bad);
        expect(Number.isNaN(dq[((0 + t) * 2 + hv) * s.dk])).toBe(false);
      }
    }
    expect(Number.isNaN(dS0[3 * s.dk * s.dv])).toBe(true);
    expect(Number.isNaN(dS0[2 * s.dk * s.dv])).toBe(false);
  }, 180_000);
});

describe('gdn.chunkedBackward on the GPU', () => {
  gpuIt('float32: the public call (forward stages on the GPU) equals the reference', async () => {
    const k: BwdCase = {
      name: 'public', s: { B: 1, T: 45, H: 1, HV: 2, dk: 16, dv: 16, layout: 'bthd', cuSeqlens: [0, 13, 45] }, C: 16, qkL2norm: true, S0: true, dF: true,
    };
    const p = prepare(k, 300);
    const sh = gdnShapes(k.s);
    const t = (a: Float64Array, shape: number[]) => toGpu(a, shape, false);
    const r = gdn.chunkedBackward({
      q: t(p.x.q, sh.qk), k: t(p.x.k, sh.qk), v: t(p.x.v, sh.v), beta: t(p.x.beta, sh.gate), g: t(p.x.g, sh.gate),
      initialState: t(p.x.S0!, sh.state), cuSeqlens: k.s.cuSeqlens, chunkSize: k.C, qkL2norm: true,
    }, { dO: t(p.dO, sh.v), dFinalState: t(p.dF!, sh.state) });
    const e = await errors(r, p.ref);
    if (process.env.BW_LOG) console.log(JSON.stringify(e));
    for (const [name, v] of Object.entries(e)) expect(v, name).toBeLessThan(1e-4);
  }, 180_000);

  gpuIt('float16 storage (bhtd, varlen, GVA, qkL2norm): the public call equals the reference on the rounded inputs (≤ 2e-2)', async () => {
    const k: BwdCase = {
      name: 'half', s: { B: 1, T: 40, H: 1, HV: 2, dk: 16, dv: 8, layout: 'bhtd', cuSeqlens: [0, 17, 40] }, C: 16, S0: true, dF: true, half: true, qkL2norm: true,
    };
    const p = prepare(k, 400);
    const sh = gdnShapes(k.s);
    const t = (a: Float64Array, shape: number[]) => toGpu(a, shape, true);
    const f = (a: Float64Array, shape: number[]) => toGpu(a, shape, false);
    const r = gdn.chunkedBackward({
      q: t(p.x.q, sh.qk), k: t(p.x.k, sh.qk), v: t(p.x.v, sh.v), beta: t(p.x.beta, sh.gate), g: t(p.x.g, sh.gate),
      initialState: f(p.x.S0!, sh.state), chunkSize: k.C, qkL2norm: true, layout: 'bhtd', cuSeqlens: k.s.cuSeqlens,
    }, { dO: t(p.dO, sh.v), dFinalState: f(p.dF!, sh.state) });
    expect(r.dq.dtype).toBe('float16');
    expect(r.dInitialState!.dtype).toBe('float32');
    const e = await errors(r, p.ref);
    if (process.env.BW_LOG) console.log(JSON.stringify(e));
    for (const [name, v] of Object.entries(e)) expect(v, name).toBeLessThan(2e-2);
  }, 180_000);
});
