// gdn.recurrentStep on the GPU (shaders/gdn/step.wgsl): one token for a batch of sequences
// against the float64 token-by-token reference (test/helpers/gdn.ts), T steps against T tokens
// of the reference, float16 storage, the status (NaN outputs, the error at the first read).
// One shape keeps the kernel variants to two (float32, float16): dk = 20 and dv = 40 leave
// partial row groups and a partial second column tile; grouped value heads (HV = 2·H).
import { describe, expect } from 'vitest';
import { ArgumentError, Rng, Tensor } from '../../src/index.js';
import * as gdn from '../../src/gdn/index.js';
import { halfFromNumbers, halfToFloat64 } from '../../src/core/half.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { poolStats } from '../../src/backend/gpu/pool.js';
import { gdnRandom, gdnReference, relErr, type GdnData, type GdnShape } from '../helpers/gdn.js';

useGpu();

const N = 3, H = 2, HV = 4, dk = 20, dv = 40;

/** Token t of every sequence: q, k (N, H, dk), v (N, HV, dv), beta, g (N, HV) out of 'bthd' data. */
function token(s: GdnShape, x: GdnData, t: number): { q: Float64Array; k: Float64Array; v: Float64Array; beta: Float64Array; g: Float64Array } {
  const slice = (a: Float64Array, heads: number, dim: number): Float64Array => {
    const out = new Float64Array(s.B * heads * dim);
    for (let b = 0; b < s.B; b++) out.set(a.subarray(((b * s.T + t) * heads) * dim, ((b * s.T + t + 1) * heads) * dim), b * heads * dim);
    return out;
  };
  return { q: slice(x.q, s.H, s.dk), k: slice(x.k, s.H, s.dk), v: slice(x.v, s.HV, s.dv), beta: slice(x.beta, s.HV, 1), g: slice(x.g, s.HV, 1) };
}

type Dt = 'float32' | 'float16';
/** A GPU tensor of dtype from float64 values. */
function gpuT(a: Float64Array, shape: number[], dtype: Dt): Tensor {
  const t = dtype === 'float32' ? Tensor.fromStorage('float32', shape, Float32Array.from(a)) : Tensor.fromStorage('float16', shape, halfFromNumbers(a));
  return (t as Tensor).to('gpu');
}

/** The values a dtype stores (what the kernel reads). */
function rounded(a: Float64Array, dtype: Dt): Float64Array {
  return dtype === 'float32' ? Float64Array.from(Float32Array.from(a)) : halfToFloat64(halfFromNumbers(a));
}

async function read(t: Tensor): Promise<Float64Array> {
  const d = await t.data();
  return t.dtype === 'float16' ? halfToFloat64(d as Uint16Array) : Float64Array.from(d as Float32Array);
}

/**
 * T tokens through recurrentStep from a random initial state, against the reference on the
 * same (rounded) inputs: o of every step and the final state.
 */
async function runSteps(dtype: Dt, T: number, seed: number, opts: { scale?: number; qkL2norm?: boolean } = {},
  heads: { N: number; H: number; HV: number } = { N, H, HV }): Promise<{ oErr: number; sErr: number }> {
  const { N, H, HV } = heads;
  const s: GdnShape = { B: N, T, H, HV, dk, dv, layout: 'bthd' };
  const x = gdnRandom(s, new Rng(seed), { initialState: true, unitKeys: !opts.qkL2norm });
  for (const key of ['q', 'k', 'v', 'beta', 'g'] as const) x[key] = rounded(x[key], dtype);
  x.S0 = Float64Array.from(Float32Array.from(x.S0!));
  const ref = gdnReference(s, x, opts);
  let state = gpuT(x.S0, [N, HV, dk, dv], 'float32');
  const o = new Float64Array(ref.o.length);
  for (let t = 0; t < T; t++) {
    const tk = token(s, x, t);
    const ins = [gpuT(tk.q, [N, H, dk], dtype), gpuT(tk.k, [N, H, dk], dtype), gpuT(tk.v, [N, HV, dv], dtype),
      gpuT(tk.beta, [N, HV], dtype), gpuT(tk.g, [N, HV], dtype)] as const;
    const r = gdn.recurrentStep(state, ...ins, opts);
    expect(r.o.dtype).toBe(dtype);
    expect(r.o.shape).toEqual([N, HV, dv]);
    expect(r.state.dtype).toBe('float32');
    expect(r.state.shape).toEqual([N, HV, dk, dv]);
    const ot = await read(r.o);
    for (let b = 0; b < N; b++) o.set(ot.subarray(b * HV * dv, (b + 1) * HV * dv), ((b * T + t) * HV) * dv);
    for (const i of ins) i.dispose();
    r.o.dispose();
    state.dispose();
    state = r.state;
  }
  const S = await read(state);
  state.dispose();
  return { oErr: relErr(o, ref.o), sErr: relErr(S, ref.S) };
}

/** One step of 33,000 sequences × 2 value heads of 2×2 states against the reference. */
async function runStepsTiny(): Promise<{ oErr: number; sErr: number }> {
  const s: GdnShape = { B: 33_000, T: 1, H: 1, HV: 2, dk: 2, dv: 2, layout: 'bthd' };
  const x = gdnRandom(s, new Rng(18), { initialState: true });
  for (const key of ['q', 'k', 'v', 'beta', 'g'] as const) x[key] = rounded(x[key], 'float32');
  x.S0 = rounded(x.S0!, 'float32');
  const ref = gdnReference(s, x);
  const ins = [gpuT(x.q, [s.B, 1, 2], 'float32'), gpuT(x.k, [s.B, 1, 2], 'float32'), gpuT(x.v, [s.B, 2, 2], 'float32'),
    gpuT(x.beta, [s.B, 2], 'float32'), gpuT(x.g, [s.B, 2], 'float32')] as const;
  const st = gpuT(x.S0, [s.B, 2, 2, 2], 'float32');
  const r = gdn.recurrentStep(st, ...ins);
  const out = { oErr: relErr(await read(r.o), ref.o), sErr: relErr(await read(r.state), ref.S) };
  for (const t of [st, r.o, r.state, ...ins]) t.dispose();
  return out;
}

describe('gdn.recurrentStep on the GPU', () => {
  gpuIt('one token from an initial state equals the float64 reference (float32, grouped value heads)', async () => {
    const { oErr, sErr } = await runSteps('float32', 1, 11);
    expect(oErr).toBeLessThan(1e-5);
    expect(sErr).toBeLessThan(1e-5);
  });

  gpuIt('T = 6 steps equal T tokens of the recurrence (the chunked forward\'s final state and o)', async () => {
    const { oErr, sErr } = await runSteps('float32', 6, 12);
    expect(oErr).toBeLessThan(1e-5);
    expect(sErr).toBeLessThan(1e-5);
  });

  gpuIt('qkL2norm and a scale: raw q, k normalised in the kernel', async () => {
    const { oErr, sErr } = await runSteps('float32', 3, 13, { qkL2norm: true, scale: 0.37 });
    expect(oErr).toBeLessThan(1e-5);
    expect(sErr).toBeLessThan(1e-5);
  });

  gpuIt('float16 inputs and o, float32 state: within 1e-2 (an odd count of heads: beta and g end mid-word)', async () => {
    const { oErr, sErr } = await runSteps('float16', 3, 14, { qkL2norm: true }, { N: 3, H: 1, HV: 3 });
    expect(oErr).toBeLessThan(1e-2);
    expect(sErr).toBeLessThan(1e-2);
  });

  gpuIt('T = 37 steps equal gdn.chunkedForward (chunk 16, initial state) on the GPU: every o and the final state', async () => {
    const T = 37;
    const s: GdnShape = { B: N, T, H, HV, dk, dv, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(17), { initialState: true, gMin: -1 });
    const all = (a: Float64Array, shape: number[]) => gpuT(a, shape, 'float32');
    const ins = { q: all(x.q, [N, T, H, dk]), k: all(x.k, [N, T, H, dk]), v: all(x.v, [N, T, HV, dv]), beta: all(x.beta, [N, T, HV]), g: all(x.g, [N, T, HV]) };
    const S0 = all(x.S0!, [N, HV, dk, dv]);
    const f = gdn.chunkedForward({ ...ins, initialState: S0, chunkSize: 16, qkL2norm: true });
    const fo = await read(f.o), fS = await read(f.finalState);
    let state = S0;
    const o = new Float64Array(fo.length);
    for (let t = 0; t < T; t++) {
      const tk = token(s, x, t);
      const st = [all(tk.q, [N, H, dk]), all(tk.k, [N, H, dk]), all(tk.v, [N, HV, dv]), all(tk.beta, [N, HV]), all(tk.g, [N, HV])] as const;
      const r = gdn.recurrentStep(state, ...st, { qkL2norm: true });
      const ot = await read(r.o);
      for (let b = 0; b < N; b++) o.set(ot.subarray(b * HV * dv, (b + 1) * HV * dv), ((b * T + t) * HV) * dv);
      for (const u of [...st, r.o]) u.dispose();
      if (state !== S0) state.dispose();
      state = r.state;
    }
    expect(relErr(o, fo)).toBeLessThan(1e-5);
    expect(relErr(await read(state), fS)).toBeLessThan(1e-5);
    for (const u of [state, S0, f.o, f.finalState, ...Object.values(ins)]) u.dispose();
  });

  gpuIt('equals the CPU entry (native kernels) on the same inputs, and both reject a g > 0 alike', async () => {
    const s: GdnShape = { B: N, T: 1, H, HV, dk, dv, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(16), { initialState: true, unitKeys: false });
    const cpu = (a: Float64Array, shape: number[]) => Tensor.fromStorage('float32', shape, Float32Array.from(a)) as Tensor;
    const args = (dev: 'cpu' | 'gpu', g = x.g) => {
      const t = [cpu(x.S0!, [N, HV, dk, dv]), cpu(x.q, [N, H, dk]), cpu(x.k, [N, H, dk]), cpu(x.v, [N, HV, dv]), cpu(x.beta, [N, HV]), cpu(g, [N, HV])];
      return (dev === 'gpu' ? t.map((u) => u.to('gpu')) : t) as [Tensor, Tensor, Tensor, Tensor, Tensor, Tensor];
    };
    const opts = { qkL2norm: true, scale: 0.5 };
    const c = gdn.recurrentStep(...args('cpu'), opts);
    const gi = args('gpu');
    const r = gdn.recurrentStep(...gi, opts);
    expect(relErr(await read(r.o), await read(c.o))).toBeLessThan(1e-6);
    expect(relErr(await read(r.state), await read(c.state))).toBeLessThan(1e-6);
    for (const t of [r.o, r.state, ...gi]) t.dispose();
    const g = x.g.slice();
    g[HV + 1] = 0.5;
    expect(() => gdn.recurrentStep(...args('cpu', g))).toThrow(/batch 1, value head 1: a log decay/);
    const gb = args('gpu', g);
    const rb = gdn.recurrentStep(...gb);
    await expect(rb.o.data()).rejects.toThrow(/batch 1, value head 1: a log decay/);
    for (const t of [rb.o, rb.state, ...gb]) t.dispose();
  });

  gpuIt('66,000 tiny heads (dk = dv = 2): the workgroup grid folded past 65,535 per dimension', async () => {
    const { oErr, sErr } = await runStepsTiny();
    expect(oErr).toBeLessThan(1e-5);
    expect(sErr).toBeLessThan(1e-5);
  });

  gpuIt('status: a NaN state entry or a g > 0 makes that head NaN and the first read throw; other heads are right', async () => {
    const s: GdnShape = { B: N, T: 1, H, HV, dk, dv, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(15), { initialState: true });
    const bad = (mutate: (y: GdnData) => void): GdnData => {
      const y = { ...x, q: x.q.slice(), k: x.k.slice(), v: x.v.slice(), beta: x.beta.slice(), g: x.g.slice(), S0: x.S0!.slice() };
      mutate(y);
      return y;
    };
    // (n, hv) = (1, 2): a NaN in the state's last column tile; (2, 3): g > 0; (0, 1): v = Inf and g > 0 (1 wins)
    const cases: Array<[GdnData, Array<[number, number, number]>, RegExp]> = [
      [bad((y) => { y.S0![((1 * HV + 2) * dk + 7) * dv + 35] = NaN; }), [[1, 2, 1]], /batch 1, value head 2: .*NaN or ±Inf/],
      [bad((y) => { y.g[2 * HV + 3] = 0.25; }), [[2, 3, 2]], /batch 2, value head 3: a log decay/],
      [bad((y) => { y.v[(0 * HV + 1) * dv + 3] = Infinity; y.g[0 * HV + 1] = 0.5; }), [[0, 1, 1]], /batch 0, value head 1: .*NaN or ±Inf/],
    ];
    const ref = gdnReference(s, { ...x, ...Object.fromEntries((['q', 'k', 'v', 'beta', 'g'] as const).map((k) => [k, rounded(x[k], 'float32')])), S0: rounded(x.S0!, 'float32') });
    for (const [y, heads, msg] of cases) {
      const st = gpuT(y.S0!, [N, HV, dk, dv], 'float32');
      const ins = [gpuT(y.q, [N, H, dk], 'float32'), gpuT(y.k, [N, H, dk], 'float32'), gpuT(y.v, [N, HV, dv], 'float32'),
        gpuT(y.beta, [N, HV], 'float32'), gpuT(y.g, [N, HV], 'float32')] as const;
      // the registry entry itself: the status codes and NaN heads
      const { lookup } = await import('../../src/backend/registry.js');
      const { planGdn } = await import('../../src/gdn/plan.js');
      const view = (t: Tensor) => t.reshape([t.shape[0], 1, ...t.shape.slice(1)]);
      const { plan } = planGdn({ q: view(ins[0]), k: view(ins[1]), v: view(ins[2]), beta: view(ins[3]), g: view(ins[4]), initialState: st },
        { layout: 'bthd', chunk: 16, qkL2norm: false }, 'test');
      const r = lookup('gdnRecurrentStep', 'float32', 'gpu')(st, ...ins, plan);
      const status = Array.from(await r.status.data());
      const o = await read(r.o), S = await read(r.state);
      const want = new Array<number>(N * HV).fill(0);
      for (const [n, hv, code] of heads) want[n * HV + hv] = code;
      expect(status).toEqual(want);
      for (let i = 0; i < N * HV; i++) {
        const oh = o.subarray(i * dv, (i + 1) * dv), Sh = S.subarray(i * dk * dv, (i + 1) * dk * dv);
        if (want[i] !== 0) {
          expect(oh.every(Number.isNaN), `o of head ${i}`).toBe(true);
          expect(Sh.every(Number.isNaN), `state of head ${i}`).toBe(true);
        } else {
          expect(relErr(oh, ref.o.subarray(i * dv, (i + 1) * dv))).toBeLessThan(1e-5);
          expect(relErr(Sh, ref.S.subarray(i * dk * dv, (i + 1) * dk * dv))).toBeLessThan(1e-5);
        }
      }
      for (const t of [r.o, r.state, r.status]) t.dispose();
      // the public function: returns at once, the first read rejects with the head named
      const p = gdn.recurrentStep(st, ...ins);
      await expect(p.o.data()).rejects.toThrow(ArgumentError);
      await expect(p.state.data()).rejects.toThrow(msg);
      p.o.dispose();
      p.state.dispose();
      for (const t of [st, ...ins]) t.dispose();
    }
  });

  gpuIt('a decoding loop holds no buffers beyond its live tensors (the views made for the checks are released)', async () => {
    const s: GdnShape = { B: 2, T: 1, H: 2, HV: 2, dk: 8, dv: 8, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(5), { initialState: true });
    const f32 = (a: Float64Array, shape: number[]) => Tensor.fromStorage('float32', shape, Float32Array.from(a)).to('gpu');
    let state: Tensor = f32(x.S0!, [2, 2, 8, 8]);
    // each token's inputs are made and freed by the caller, as a decoder does
    const step = async () => {
      const ins = [f32(x.q, [2, 2, 8]), f32(x.k, [2, 2, 8]), f32(x.v, [2, 2, 8]), f32(x.beta, [2, 2]), f32(x.g, [2, 2])] as const;
      const r = gdn.recurrentStep(state, ...ins);
      await r.o.data();
      for (const t of [r.o, state, ...ins]) t.dispose();
      state = r.state;
    };
    await step();
    const live = poolStats().bytesLive;
    for (let i = 0; i < 20; i++) await step();
    expect(poolStats().bytesLive).toBe(live);
    state.dispose();
  });
});
