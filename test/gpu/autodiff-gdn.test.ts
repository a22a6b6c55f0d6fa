// Gradients of the Gated DeltaNet ops on the GPU (src/autodiff/rules/gdn.ts): float32 GPU
// gradients against the float64 CPU ones. chunkedForward's rule runs the GPU backward kernels
// on the stages the recorded forward kept; chunkSolve/invUnitLower/recurrentStep rules run
// public ops on the GPU. Few shapes (pipeline creation dominates on lavapipe).
import { describe, expect } from 'vitest';
import { ArgumentError, Rng, Tensor, add, gdn, mul, sum, tensor, valueAndGrad, vjp } from '../../src/index.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { gradDistance, randomTensor } from '../helpers/gradcheck.js';
import { gdnRandom, gdnShapes, gdnTensors, type GdnShape } from '../helpers/gdn.js';

useGpu();

const gpu32 = (t: Tensor): Tensor => t.astype('float32').to('gpu');

interface Case { s: GdnShape; qkL2norm: boolean; S0: boolean; dF: boolean; chunkSize: 16 | 32 }

const CASES: Case[] = [
  { s: { B: 1, T: 37, H: 1, HV: 2, dk: 16, dv: 8, layout: 'bthd', cuSeqlens: [0, 20, 37] }, qkL2norm: true, S0: true, dF: true, chunkSize: 16 },
  { s: { B: 2, T: 21, H: 2, HV: 2, dk: 16, dv: 8, layout: 'bhtd' }, qkL2norm: false, S0: false, dF: false, chunkSize: 16 },
];

function lossOf(c: Case, Wo: Tensor, Wf: Tensor | null) {
  return (...[q, k, v, beta, g, S0]: Tensor[]): Tensor => {
    const r = gdn.chunkedForward({
      q, k, v, beta, g, layout: c.s.layout, qkL2norm: c.qkL2norm, chunkSize: c.chunkSize,
      ...(S0 ? { initialState: S0 } : {}), ...(c.s.cuSeqlens ? { cuSeqlens: c.s.cuSeqlens } : {}),
    });
    const lo = sum(mul(r.o, Wo));
    return Wf ? add(lo, sum(mul(r.finalState, Wf))) : lo;
  };
}

describe('gdn gradients on the GPU (float32) vs the CPU (float64)', () => {
  for (const [ci, c] of CASES.entries()) {
    gpuIt(`chunkedForward: ${c.s.layout}${c.s.cuSeqlens ? ', cuSeqlens' : ''}${c.s.HV > c.s.H ? ', GVA' : ''}${c.qkL2norm ? ', qkL2norm' : ''}${c.S0 ? ', initial + final state' : ''}`, async () => {
      const x = gdnRandom(c.s, new Rng(20 + ci), { initialState: c.S0, unitKeys: !c.qkL2norm, gMin: -0.5 });
      const T = gdnTensors(c.s, x, 'float64');
      const sh = gdnShapes(c.s);
      const args = [T.q, T.k, T.v, T.beta, T.g, ...(T.initialState ? [T.initialState] : [])];
      const Wo = randomTensor(sh.v, 'float64', 30 + ci), Wf = c.dF ? randomTensor(sh.state, 'float64', 40 + ci) : null;
      const ref = valueAndGrad(lossOf(c, Wo, Wf))(...args);
      const got = valueAndGrad(lossOf(c, gpu32(Wo), Wf ? gpu32(Wf) : null))(...args.map(gpu32));
      expect(got.grads.every((t) => t.device === 'gpu' && t.dtype === 'float32')).toBe(true);
      expect(await gradDistance(got.grads, ref.grads)).toBeLessThan(1e-4);
      expect(await gradDistance([got.value], [ref.value])).toBeLessThan(1e-4);
    }, 300_000);
  }

  gpuIt('chunkedForward: the rule (kept forward stages) equals gdn.chunkedBackward value for value; a bad g raises at the gradient\'s read', async () => {
    const c = CASES[0];
    const x = gdnRandom(c.s, new Rng(50), { initialState: true, gMin: -0.5 });
    const T = gdnTensors(c.s, x, 'float32');
    const sh = gdnShapes(c.s);
    const input = (t: typeof T) => ({ ...t, qkL2norm: true, chunkSize: 16 as const, cuSeqlens: c.s.cuSeqlens });
    const G = Object.fromEntries(Object.entries(T).map(([k, t]) => [k, (t as Tensor).to('gpu')])) as typeof T;
    const dO = gpu32(randomTensor(sh.v, 'float64', 51)), dF = gpu32(randomTensor(sh.state, 'float64', 52));
    const { pullback } = vjp((q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, S0: Tensor) =>
      gdn.chunkedForward(input({ q, k, v, beta, g, initialState: S0 })), G.q, G.k, G.v, G.beta, G.g, G.initialState!);
    const viaRule = pullback({ o: dO, finalState: dF });
    const direct = gdn.chunkedBackward(input(G), { dO, dFinalState: dF });
    const names = ['dq', 'dk', 'dv', 'dbeta', 'dg', 'dInitialState'] as const;
    for (const [i, n] of names.entries()) {
      expect(Array.from(await viaRule[i].data()), n).toEqual(Array.from(await direct[n]!.data()));
    }
    // g > 0 at sequence 1, value head 1: the forward's deferred status reaches the gradients
    const bad = Float32Array.from(x.g);
    bad[(25 * c.s.HV) + 1] = 0.5;
    const gBad = Tensor.fromStorage('float32', sh.gate, bad).to('gpu');
    const r = vjp((g: Tensor) => gdn.chunkedForward(input({ ...G, g })), gBad);
    const [dg] = r.pullback({ o: dO, finalState: null });
    const err = await dg.data().then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ArgumentError);
    expect((err as Error).message).toMatch(/^gdn\.chunkedForward: sequence 1, value head 1: a log decay/);
  }, 300_000);

  gpuIt('float16 inputs (not differentiated) with a tracked float32 initial state; only the final state in the loss', async () => {
    const s: GdnShape = { B: 2, T: 9, H: 1, HV: 1, dk: 8, dv: 8, layout: 'bthd' };
    const x = gdnRandom(s, new Rng(60), { initialState: true, gMin: -0.5 });
    const T = gdnTensors(s, x, 'float64');
    const Wf = randomTensor(gdnShapes(s).state, 'float64', 61);
    const half = (t: Tensor): Tensor => t.astype('float16').to('gpu');
    // the reference reads what float16 stores
    const r16 = (t: Tensor): Tensor => t.astype('float16').astype('float64');
    const f = (h: (t: Tensor) => Tensor, w: Tensor) => (S0: Tensor): Tensor =>
      sum(mul(gdn.chunkedForward({ q: h(T.q), k: h(T.k), v: h(T.v), beta: h(T.beta), g: h(T.g), initialState: S0, chunkSize: 16 }).finalState, w));
    const ref = valueAndGrad(f(r16, Wf))(T.initialState!);
    const got = valueAndGrad(f(half, gpu32(Wf)))(gpu32(T.initialState!));
    expect(got.grads[0].dtype).toBe('float32');
    expect(await gradDistance(got.grads, ref.grads)).toBeLessThan(1e-4);
  }, 300_000);

  gpuIt('chunkSolve and invUnitLower (C = 16, batched, NaN in the unread triangle; the unit-lower kernels forward, public ops backward)', async () => {
    // NaN on and above the diagonal (never read): the gradients must stay finite and match
    const a = randomTensor([3, 16, 16], 'float64', 1).toArray() as number[][][];
    for (const m of a) for (let i = 0; i < 16; i++) for (let j = i; j < 16; j++) m[i][j] = NaN;
    const A = tensor(a), B = randomTensor([3, 16, 8], 'float64', 2);
    const W = randomTensor([3, 16, 8], 'float64', 3), V = randomTensor([3, 16, 16], 'float64', 4);
    const f = (a: Tensor, b: Tensor, w: Tensor, v: Tensor) => add(sum(mul(gdn.chunkSolve(a, b), w)), sum(mul(gdn.invUnitLower(a), v)));
    const ref = valueAndGrad(f, { argnums: [0, 1] })(A, B, W, V);
    const got = valueAndGrad(f, { argnums: [0, 1] })(gpu32(A), gpu32(B), gpu32(W), gpu32(V));
    expect(got.grads.every((t) => t.device === 'gpu')).toBe(true);
    expect(await gradDistance(got.grads, ref.grads)).toBeLessThan(1e-4);
  }, 300_000);

  gpuIt('recurrentStep (grouped value heads, qkL2norm): the rule\'s public ops on the GPU', async () => {
    const Bn = 2, H = 2, HV = 4, dk = 8, dv = 8;
    const r = new Rng(9);
    const un = (shape: number[], lo: number, hi: number): Tensor => Tensor.fromStorage('float64', shape,
      Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => lo + (hi - lo) * r.uniform())) as Tensor;
    const args = [randomTensor([Bn, HV, dk, dv], 'float64', 5), randomTensor([Bn, H, dk], 'float64', 6), randomTensor([Bn, H, dk], 'float64', 7),
      randomTensor([Bn, HV, dv], 'float64', 8), un([Bn, HV], 0.1, 0.9), un([Bn, HV], -0.6, -0.02)];
    const Wo = randomTensor([Bn, HV, dv], 'float64', 10), Ws = randomTensor([Bn, HV, dk, dv], 'float64', 11);
    const f = (wo: Tensor, ws: Tensor) => (...[S, q, k, v, beta, g]: Tensor[]) => {
      const y = gdn.recurrentStep(S, q, k, v, beta, g, { qkL2norm: true });
      return add(sum(mul(y.o, wo)), sum(mul(y.state, ws)));
    };
    const ref = valueAndGrad(f(Wo, Ws))(...args);
    const got = valueAndGrad(f(gpu32(Wo), gpu32(Ws)))(...args.map(gpu32));
    expect(await gradDistance(got.grads, ref.grads)).toBeLessThan(1e-4);
  }, 300_000);
});
