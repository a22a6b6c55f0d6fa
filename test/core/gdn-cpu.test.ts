// Gated DeltaNet on the CPU (native/src/gdn): gdn.chunkedForward against the float64
// token-by-token reference (test/helpers/gdn.ts) over every option, packed sequences against
// each sequence alone, the chunked final state against T recurrent steps, the kernels' status
// (NaN outputs for the failing sequence/head only, ArgumentError from the public functions),
// and gdn.chunkedBackward against central finite differences of the float64 forward.
import { describe, expect, it } from 'vitest';
import { gdn, Rng, Tensor, ArgumentError, DTypeError } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import { planGdn } from '../../src/gdn/plan.js';
import {
  gdnRandom, gdnReference, gdnShapes, gdnTensors, relErr, seqCount, type GdnData, type GdnRandomOptions, type GdnShape,
} from '../helpers/gdn.js';

type Dt = 'float32' | 'float64';
const TOL: Record<Dt, number> = { float64: 1e-12, float32: 1e-5 };

interface Case {
  name: string;
  s: GdnShape;
  chunk: 16 | 32 | 64;
  rand?: GdnRandomOptions;
  scale?: number;
  qkL2norm?: boolean;
}

const CASES: Case[] = [
  { name: 'bthd, T 37 (short last chunk), chunk 16, initial state', s: { B: 2, T: 37, H: 2, HV: 2, dk: 8, dv: 6, layout: 'bthd' }, chunk: 16, rand: { initialState: true } },
  { name: 'bhtd, chunk 32, grouped value heads (H 2, HV 6)', s: { B: 1, T: 70, H: 2, HV: 6, dk: 12, dv: 10, layout: 'bhtd' }, chunk: 32 },
  { name: 'chunk 64, T 150, dk 32 dv 16, custom scale', s: { B: 2, T: 150, H: 1, HV: 2, dk: 32, dv: 16, layout: 'bthd' }, chunk: 64, scale: 0.37, rand: { initialState: true } },
  { name: 'qkL2norm on raw keys, bhtd, chunk 16', s: { B: 2, T: 41, H: 2, HV: 4, dk: 16, dv: 8, layout: 'bhtd' }, chunk: 16, qkL2norm: true, rand: { unitKeys: false, initialState: true } },
  { name: 'strong decay (g down to −20)', s: { B: 1, T: 90, H: 1, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, chunk: 32, rand: { gMin: -20, initialState: true } },
  { name: 'gates near 0 (g ≥ −1e-3)', s: { B: 1, T: 90, H: 2, HV: 2, dk: 8, dv: 8, layout: 'bthd' }, chunk: 64, rand: { gMin: -1e-3, initialState: true } },
  { name: 'β = 0 (the state only decays)', s: { B: 1, T: 33, H: 1, HV: 1, dk: 8, dv: 4, layout: 'bthd' }, chunk: 16, rand: { betaMin: 0, betaMax: 0, initialState: true } },
  { name: 'β = 1 (full delta-rule writes)', s: { B: 2, T: 50, H: 1, HV: 2, dk: 8, dv: 4, layout: 'bhtd' }, chunk: 16, rand: { betaMin: 1, betaMax: 1 } },
  { name: 'packed sequences (cuSeqlens 0, 5, 5, 40, 83), GVA', s: { B: 1, T: 83, H: 2, HV: 4, dk: 8, dv: 6, layout: 'bthd', cuSeqlens: [0, 5, 5, 40, 83] }, chunk: 16, rand: { initialState: true } },
  { name: 'packed sequences, bhtd, qkL2norm, chunk 32', s: { B: 1, T: 100, H: 1, HV: 3, dk: 8, dv: 8, layout: 'bhtd', cuSeqlens: [0, 33, 64, 100] }, chunk: 32, qkL2norm: true, rand: { unitKeys: false } },
];

function forward(c: Case, x: GdnData, dt: Dt) {
  return gdn.chunkedForward({
    ...gdnTensors(c.s, x, dt), layout: c.s.layout, chunkSize: c.chunk, scale: c.scale, qkL2norm: c.qkL2norm,
    cuSeqlens: c.s.cuSeqlens,
  });
}

describe('gdn.chunkedForward on the CPU against the float64 recurrence', () => {
  CASES.forEach((c, i) => {
    it(c.name, () => {
      const x = gdnRandom(c.s, new Rng(100 + i), c.rand);
      const ref = gdnReference(c.s, x, { scale: c.scale, qkL2norm: c.qkL2norm });
      for (const dt of ['float64', 'float32'] as const) {
        const r = forward(c, x, dt);
        expect(r.o.dtype).toBe(dt);
        expect(r.o.shape).toEqual(gdnShapes(c.s).v);
        expect(r.finalState.shape).toEqual(gdnShapes(c.s).state);
        expect(relErr(r.o.dataSync(), ref.o), `${dt} o`).toBeLessThanOrEqual(TOL[dt]);
        expect(relErr(r.finalState.dataSync(), ref.S), `${dt} final state`).toBeLessThanOrEqual(TOL[dt]);
      }
    });
  });

  it('every chunk size gives the same result (T = 100, not a multiple of any; one head: its state in column blocks)', () => {
    const s: GdnShape = { B: 1, T: 100, H: 1, HV: 1, dk: 16, dv: 72, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(7), { initialState: true });
    const ref = gdnReference(s, x);
    for (const chunk of [16, 32, 64] as const) {
      const r = forward({ name: '', s, chunk }, x, 'float64');
      expect(relErr(r.o.dataSync(), ref.o), `chunk ${chunk}`).toBeLessThanOrEqual(1e-12);
      expect(relErr(r.finalState.dataSync(), ref.S), `chunk ${chunk}`).toBeLessThanOrEqual(1e-12);
    }
  });

  it('packed sequences equal each sequence run alone', () => {
    const cu = [0, 17, 18, 60, 60, 97];
    const s: GdnShape = { B: 1, T: 97, H: 2, HV: 4, dk: 8, dv: 4, layout: 'bthd', cuSeqlens: cu };
    const x = gdnRandom(s, new Rng(8), { initialState: true });
    const packed = forward({ name: '', s, chunk: 16 }, x, 'float64');
    const N = seqCount(s), rowQ = s.H * s.dk, rowV = s.HV * s.dv, SS = s.HV * s.dk * s.dv;
    for (let n = 0; n < N; n++) {
      const a = cu[n], b = cu[n + 1], len = b - a;
      const one: GdnShape = { ...s, T: len, cuSeqlens: undefined };
      const xs: GdnData = {
        q: x.q.slice(a * rowQ, b * rowQ), k: x.k.slice(a * rowQ, b * rowQ), v: x.v.slice(a * rowV, b * rowV),
        beta: x.beta.slice(a * s.HV, b * s.HV), g: x.g.slice(a * s.HV, b * s.HV), S0: x.S0!.slice(n * SS, (n + 1) * SS),
      };
      const r = forward({ name: '', s: one, chunk: 16 }, xs, 'float64');
      expect(Array.from(r.finalState.dataSync())).toEqual(Array.from(packed.finalState.dataSync().slice(n * SS, (n + 1) * SS)));
      expect(Array.from(r.o.dataSync())).toEqual(Array.from(packed.o.dataSync().slice(a * rowV, b * rowV)));
    }
  });
});

describe('gdn.recurrentStep on the CPU', () => {
  it('T steps give the chunked final state and outputs (float64 and float32)', () => {
    const s: GdnShape = { B: 2, T: 45, H: 2, HV: 4, dk: 8, dv: 6, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(9), { initialState: true, unitKeys: false });
    const opts = { scale: 0.5, qkL2norm: true };
    for (const dt of ['float64', 'float32'] as const) {
      const t = gdnTensors(s, x, dt);
      const chunked = gdn.chunkedForward({ ...t, chunkSize: 16, ...opts });
      let state = t.initialState!;
      const o = new Float64Array(x.v.length);
      const Ctor = dt === 'float32' ? Float32Array : Float64Array;
      const pick = (a: Float64Array, dim: number, heads: number, tt: number, shape: number[]): Tensor => {
        const out = new Ctor(s.B * heads * dim);
        for (let b = 0; b < s.B; b++) for (let i = 0; i < heads * dim; i++) out[b * heads * dim + i] = a[(b * s.T + tt) * heads * dim + i];
        return Tensor.fromStorage(dt, shape, out as never) as Tensor;
      };
      for (let tt = 0; tt < s.T; tt++) {
        const r = gdn.recurrentStep(state, pick(x.q, s.dk, s.H, tt, [s.B, s.H, s.dk]), pick(x.k, s.dk, s.H, tt, [s.B, s.H, s.dk]),
          pick(x.v, s.dv, s.HV, tt, [s.B, s.HV, s.dv]), pick(x.beta, 1, s.HV, tt, [s.B, s.HV]), pick(x.g, 1, s.HV, tt, [s.B, s.HV]), opts);
        expect(r.o.shape).toEqual([s.B, s.HV, s.dv]);
        const od = r.o.dataSync();
        for (let b = 0; b < s.B; b++) for (let i = 0; i < s.HV * s.dv; i++) o[(b * s.T + tt) * s.HV * s.dv + i] = od[b * s.HV * s.dv + i];
        state = r.state;
      }
      expect(relErr(state.dataSync(), chunked.finalState.dataSync()), dt).toBeLessThanOrEqual(TOL[dt]);
      expect(relErr(o, chunked.o.dataSync()), dt).toBeLessThanOrEqual(TOL[dt]);
      const ref = gdnReference(s, x, opts);
      expect(relErr(state.dataSync(), ref.S), dt).toBeLessThanOrEqual(TOL[dt]);
    }
  });
});

describe('GDN status on the CPU', () => {
  const s: GdnShape = { B: 2, T: 20, H: 1, HV: 2, dk: 4, dv: 4, layout: 'bthd' };

  it('the failing (sequence, value head) is NaN, status 1 / 2; the others are exact', () => {
    const x = gdnRandom(s, new Rng(11), { initialState: true });
    const ref = gdnReference(s, x);
    const bad = (mut: (d: GdnData) => void): GdnData => {
      const y: GdnData = { ...x, q: x.q.slice(), k: x.k.slice(), v: x.v.slice(), beta: x.beta.slice(), g: x.g.slice(), S0: x.S0!.slice() };
      mut(y);
      return y;
    };
    // (batch, time, head, d) in 'bthd': batch 1, step 7
    const cases: { y: GdnData; n: number; hv: number | 'both'; code: number }[] = [
      { y: bad((d) => { d.v[((1 * s.T + 7) * s.HV + 1) * s.dv + 2] = NaN; }), n: 1, hv: 1, code: 1 },
      { y: bad((d) => { d.k[((1 * s.T + 7) * s.H) * s.dk + 2] = Infinity; }), n: 1, hv: 'both', code: 1 },
      { y: bad((d) => { d.g[(0 * s.T + 3) * s.HV + 1] = 0.5; }), n: 0, hv: 1, code: 2 },
      { y: bad((d) => { d.g[(0 * s.T + 3) * s.HV + 0] = -Infinity; }), n: 0, hv: 0, code: 2 },
      { y: bad((d) => { d.S0![(1 * s.HV + 0) * s.dk * s.dv + 5] = NaN; }), n: 1, hv: 0, code: 1 },
    ];
    for (const dt of ['float64', 'float32'] as const) {
      for (const [ci, c] of cases.entries()) {
        const { x: xi, plan } = planGdn(gdnTensors(s, c.y, dt), { layout: 'bthd', chunk: 16, qkL2norm: false }, 'test');
        const r = lookup('gdnForward', dt, 'cpu', 'test')(xi, plan);
        const st = Array.from(r.status.dataSync());
        const o = r.o.dataSync(), S = r.finalState.dataSync();
        for (let n = 0; n < s.B; n++) {
          for (let hv = 0; hv < s.HV; hv++) {
            const failing = n === c.n && (c.hv === 'both' || c.hv === hv);
            expect(st[n * s.HV + hv], `case ${ci} ${dt} (${n}, ${hv})`).toBe(failing ? c.code : 0);
            const oi: number[] = [], or: number[] = [];
            for (let t = 0; t < s.T; t++) {
              for (let e = 0; e < s.dv; e++) {
                const j = ((n * s.T + t) * s.HV + hv) * s.dv + e;
                oi.push(o[j]);
                or.push(ref.o[j]);
              }
            }
            const Si = Array.from(S.slice((n * s.HV + hv) * 16, (n * s.HV + hv + 1) * 16));
            if (failing) {
              expect(oi.every(Number.isNaN) && Si.every(Number.isNaN), `case ${ci} ${dt}`).toBe(true);
            } else {
              expect(relErr(oi, or), `case ${ci} ${dt}`).toBeLessThanOrEqual(TOL[dt]);
            }
          }
        }
      }
    }
  });

  it('one (sequence, head) whose state is split in column blocks: NaN everywhere', () => {
    const one: GdnShape = { B: 1, T: 30, H: 1, HV: 1, dk: 8, dv: 96, layout: 'bthd' };
    const x = gdnRandom(one, new Rng(14), { initialState: true });
    x.v[5 * one.dv + 90] = NaN;
    const { x: xi, plan } = planGdn(gdnTensors(one, x, 'float32'), { layout: 'bthd', chunk: 16, qkL2norm: false }, 'test');
    const r = lookup('gdnForward', 'float32', 'cpu', 'test')(xi, plan);
    expect(Array.from(r.status.dataSync())).toEqual([1]);
    expect(r.o.dataSync().every(Number.isNaN) && r.finalState.dataSync().every(Number.isNaN)).toBe(true);
  });

  it('float16 inputs on the CPU are a DTypeError (GPU storage dtype; no CPU kernel)', () => {
    const h = (shape: number[]): Tensor =>
      Tensor.fromStorage('float16', shape, new Uint16Array(shape.reduce((a, b) => a * b, 1)) as never) as Tensor;
    const x = { q: h([1, 4, 1, 2]), k: h([1, 4, 1, 2]), v: h([1, 4, 1, 2]), beta: h([1, 4, 1]), g: h([1, 4, 1]) };
    expect(() => gdn.chunkedForward(x)).toThrow(DTypeError);
    expect(() => gdn.chunkedForward(x)).toThrow(/^gdn\.chunkedForward: float16 .*no gdnForward kernel on the CPU/);
    expect(() => gdn.chunkedBackward(x, { dO: h([1, 4, 1, 2]) })).toThrow(DTypeError);
  });

  it('the public functions raise an ArgumentError naming the sequence and value head', () => {
    const x = gdnRandom(s, new Rng(12));
    const t = gdnTensors(s, x, 'float64');
    t.k.dataSync()[((1 * s.T + 4) * s.H) * s.dk] = NaN;
    expect(() => gdn.chunkedForward({ ...t, chunkSize: 16 })).toThrow(ArgumentError);
    expect(() => gdn.chunkedForward({ ...t, chunkSize: 16 }))
      .toThrow(/^gdn\.chunkedForward: batch 1, value head 0: q, k, v, beta or the initial state holds NaN/);
    const u = gdnTensors(s, x, 'float32');
    u.g.dataSync()[(0 * s.T + 9) * s.HV + 1] = 0.5;
    expect(() => gdn.chunkedForward(u)).toThrow(/^gdn\.chunkedForward: batch 0, value head 1: a log decay g is > 0, NaN or −∞/);
    expect(() => gdn.chunkedBackward(u, { dO: Tensor.fromStorage('float32', gdnShapes(s).v, new Float32Array(x.v.length)) }))
      .toThrow(/^gdn\.chunkedBackward: batch 0, value head 1: a log decay g/);
    const cu = gdnTensors({ ...s, B: 1, T: 40, cuSeqlens: [0, 10, 40] }, gdnRandom({ ...s, B: 1, T: 40 }, new Rng(13)), 'float64');
    cu.v.dataSync()[(25 * s.HV + 1) * s.dv] = Infinity;
    expect(() => gdn.chunkedForward({ ...cu, cuSeqlens: [0, 10, 40] })).toThrow(/^gdn\.chunkedForward: sequence 1, value head 1: /);
    const state = Tensor.fromStorage('float64', [1, 2, 4, 4], new Float64Array(32) as never);
    const q = Tensor.fromStorage('float64', [1, 1, 4], Float64Array.of(1, 0, 0, 0) as never);
    const v = Tensor.fromStorage('float64', [1, 2, 4], new Float64Array(8) as never);
    const ones = Tensor.fromStorage('float64', [1, 2], Float64Array.of(0.5, 0.5) as never);
    const g = Tensor.fromStorage('float64', [1, 2], Float64Array.of(-0.1, NaN) as never);
    expect(() => gdn.recurrentStep(state, q, q, v, ones, g)).toThrow(/^gdn\.recurrentStep: batch 0, value head 1: a log decay g/);
  });
});

// ---- backward

/** L = Σ dO ⊙ o + Σ dF ⊙ S_final by the float64 chunked forward. */
function loss(c: Case, x: GdnData, dO: Float64Array, dF: Float64Array): number {
  const r = forward(c, x, 'float64');
  let L = 0;
  const o = r.o.dataSync(), S = r.finalState.dataSync();
  for (let i = 0; i < o.length; i++) L += dO[i] * o[i];
  for (let i = 0; i < S.length; i++) L += dF[i] * S[i];
  return L;
}

function backward(c: Case, x: GdnData, dO: Float64Array, dF: Float64Array | undefined, dt: Dt) {
  const sh = gdnShapes(c.s);
  const mk = (a: Float64Array, shape: number[]): Tensor =>
    Tensor.fromStorage(dt, shape, (dt === 'float32' ? Float32Array.from(a) : Float64Array.from(a)) as never) as Tensor;
  return gdn.chunkedBackward(
    { ...gdnTensors(c.s, x, dt), layout: c.s.layout, chunkSize: c.chunk, scale: c.scale, qkL2norm: c.qkL2norm, cuSeqlens: c.s.cuSeqlens },
    { dO: mk(dO, sh.v), ...(dF ? { dFinalState: mk(dF, sh.state) } : {}) });
}

const GRAD_CASES: Case[] = [
  { name: 'bthd, initial state, T 21', s: { B: 2, T: 21, H: 1, HV: 1, dk: 4, dv: 3, layout: 'bthd' }, chunk: 16, rand: { initialState: true } },
  { name: 'qkL2norm on raw q, k, GVA, bhtd', s: { B: 1, T: 19, H: 1, HV: 2, dk: 4, dv: 3, layout: 'bhtd' }, chunk: 16, qkL2norm: true, scale: 0.8, rand: { unitKeys: false, initialState: true } },
  { name: 'packed sequences, GVA, qkL2norm off', s: { B: 1, T: 24, H: 2, HV: 4, dk: 3, dv: 2, layout: 'bthd', cuSeqlens: [0, 7, 7, 24] }, chunk: 16, rand: { initialState: true } },
  { name: 'T 150 (chunk 64: three chunks walked back), qkL2norm', s: { B: 1, T: 150, H: 1, HV: 1, dk: 4, dv: 3, layout: 'bthd' }, chunk: 64, qkL2norm: true, rand: { unitKeys: false, initialState: true } },
];

describe('gdn.chunkedBackward on the CPU against finite differences', () => {
  GRAD_CASES.forEach((c, ci) => {
    it(c.name, () => {
      const rng = new Rng(300 + ci);
      const x = gdnRandom(c.s, rng, c.rand);
      for (let i = 0; i < x.g.length; i++) x.g[i] = Math.min(x.g[i], -0.02); // g ± h stays < 0
      const sh = gdnShapes(c.s);
      const dO = Float64Array.from({ length: x.v.length }, () => rng.normal());
      const dF = Float64Array.from({ length: sh.state.reduce((a, b) => a * b, 1) }, () => rng.normal());
      const r = backward(c, x, dO, dF, 'float64');
      expect(r.dInitialState).toBeDefined();
      const h = 1e-6;
      const grads: [keyof GdnData, Tensor][] = [['q', r.dq], ['k', r.dk], ['v', r.dv], ['beta', r.dbeta], ['g', r.dg], ['S0', r.dInitialState!]];
      for (const [name, got] of grads) {
        const arr = x[name]!;
        expect(got.shape.reduce((a, b) => a * b, 1)).toBe(arr.length);
        // every entry on short cases, a random 60 on the long one
        const idx = arr.length <= 200 ? Array.from(arr.keys()) : Array.from({ length: 60 }, () => Math.floor(rng.uniform() * arr.length));
        const fd: number[] = [], an: number[] = [];
        const gd = got.dataSync();
        for (const i of idx) {
          const keep = arr[i];
          arr[i] = keep + h;
          const up = loss(c, x, dO, dF);
          arr[i] = keep - h;
          const dn = loss(c, x, dO, dF);
          arr[i] = keep;
          fd.push((up - dn) / (2 * h));
          an.push(gd[i]);
        }
        expect(relErr(an, fd), `${c.name}: d${name}`).toBeLessThanOrEqual(1e-6);
      }
      // float32 inputs: the same gradients to float32 accuracy
      const r32 = backward(c, x, dO, dF, 'float32');
      for (const [a, b] of [[r32.dq, r.dq], [r32.dk, r.dk], [r32.dv, r.dv], [r32.dbeta, r.dbeta], [r32.dg, r.dg], [r32.dInitialState!, r.dInitialState!]]) {
        expect(a.dtype).toBe('float32');
        expect(relErr(a.dataSync(), b.dataSync())).toBeLessThanOrEqual(1e-5);
      }
    });
  });

  it('T = 0: the final state is the initial state, dInitialState is dFinalState', () => {
    const c: Case = { name: '', s: { B: 2, T: 0, H: 1, HV: 2, dk: 3, dv: 2, layout: 'bthd' }, chunk: 16 };
    const rng = new Rng(401);
    const x = gdnRandom(c.s, rng, { initialState: true });
    const r = forward(c, x, 'float64');
    expect(r.o.shape).toEqual([2, 0, 2, 2]);
    expect(Array.from(r.finalState.dataSync())).toEqual(Array.from(x.S0!));
    const dF = Float64Array.from({ length: x.S0!.length }, () => rng.normal());
    const g = backward(c, x, new Float64Array(0), dF, 'float64');
    expect(Array.from(g.dInitialState!.dataSync())).toEqual(Array.from(dF));
    expect(g.dq.shape).toEqual([2, 0, 1, 3]);
  });

  it('no initial state: no dInitialState; no dFinalState means zero', () => {
    const c: Case = { name: '', s: { B: 1, T: 30, H: 1, HV: 2, dk: 4, dv: 4, layout: 'bthd' }, chunk: 16 };
    const rng = new Rng(400);
    const x = gdnRandom(c.s, rng);
    const dO = Float64Array.from({ length: x.v.length }, () => rng.normal());
    const r = backward(c, x, dO, undefined, 'float64');
    expect(r.dInitialState).toBeUndefined();
    const zero = new Float64Array(seqCount(c.s) * c.s.HV * c.s.dk * c.s.dv);
    const r0 = backward(c, x, dO, zero, 'float64');
    for (const k of ['dq', 'dk', 'dv', 'dbeta', 'dg'] as const) expect(Array.from(r[k].dataSync())).toEqual(Array.from(r0[k].dataSync()));
  });
});
