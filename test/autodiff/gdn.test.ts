// Gradients of the Gated DeltaNet ops (src/autodiff/rules/gdn.ts): chunkSolve and invUnitLower
// by finite differences; chunkedForward (whose rule runs gdn.chunkedBackward) against lapis's
// own reverse mode of the naive token-by-token recurrence written with public ops, for every
// option, and by finite differences on tiny cases; recurrentStep likewise.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ArgumentError, Rng, Tensor, add, exp, gdn, grad, linalg, mul, sub, sum, div, sqrt, tensor, valueAndGrad, vjp,
} from '../../src/index.js';
import { gradcheck, randomTensor } from '../helpers/gradcheck.js';
import { gdnRandom, gdnShapes, gdnTensors, relErr, seqCount, type GdnData, type GdnShape } from '../helpers/gdn.js';

const { matmul } = linalg;

/** A float64 CPU tensor from values. */
const t64 = (a: ArrayLike<number>, shape: number[]): Tensor =>
  Tensor.fromStorage('float64', shape, Float64Array.from(a)) as Tensor;

/** Row `i` of the n × n identity as a (1, n) constant: selecting by matmul keeps the naive code to ops with rules. */
function oneHot(i: number, n: number): Tensor {
  const a = new Float64Array(n);
  a[i] = 1;
  return t64(a, [1, n]);
}

/** Random inputs with log decays in [−0.6, −0.02] (finite differences stay at g < 0). */
function inputs(s: GdnShape, seed: number, initialState: boolean, unitKeys = true): GdnData {
  const x = gdnRandom(s, new Rng(seed), { initialState, unitKeys });
  const r = new Rng(seed + 1000);
  x.g = x.g.map(() => -0.02 - 0.58 * r.uniform());
  return x;
}

const maxAbs = (t: Tensor): number => Math.max(...(t.dataSync() as Float64Array).map(Math.abs));

/** ‖a − b‖ / ‖b‖, or max |a| when b is zero. */
function dist(a: Tensor, b: Tensor): number {
  const x = a.dataSync() as Float64Array, y = b.dataSync() as Float64Array;
  return maxAbs(b) === 0 ? maxAbs(a) : relErr(x, y);
}

interface Opts { qkL2norm?: boolean; scale?: number; chunkSize?: 16 | 32 | 64 }

/**
 * The loss Σ W_o·o + Σ W_f·S_final of the recurrence S_t = exp(g_t)(I − β_t k_t k_tᵀ)S_{t−1} +
 * β_t k_t v_tᵀ, o_t = S_tᵀ(scale·q_t), token by token with public lapis ops (matmul, mul,
 * add, sub, exp, sum, reshape; sqrt and div for qkL2norm), so valueAndGrad differentiates it.
 */
function naiveLoss(
  s: GdnShape, opts: Opts, Wo: Tensor, Wf: Tensor | null,
  q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, S0?: Tensor,
): Tensor {
  const { B, T, H, HV, dk, dv } = s;
  const bthd = s.layout === 'bthd';
  const scale = opts.scale ?? 1 / Math.sqrt(dk);
  // token t of a (B, T, heads, d) / (B, heads, T, d) tensor as (B, heads, d)
  const tok = (x: Tensor, heads: number, d: number, t: number): Tensor => (bthd
    ? matmul(oneHot(t, T), x.reshape([B, T, heads * d])).reshape([B, heads, d])
    : matmul(oneHot(t, T), x).reshape([B, heads, d]));
  // token t of beta/g as (B, HV)
  const tokG = (x: Tensor, t: number): Tensor => (bthd
    ? matmul(oneHot(t, T), x).reshape([B, HV])
    : matmul(x, oneHot(t, T).reshape([T, 1])).reshape([B, HV]));
  // value head hv reads key head ⌊hv/m⌋
  const m = HV / H;
  const E = new Float64Array(HV * H);
  for (let hv = 0; hv < HV; hv++) E[hv * H + Math.floor(hv / m)] = 1;
  const rep = (x: Tensor): Tensor => matmul(t64(E, [HV, H]), x);
  const l2 = (x: Tensor): Tensor => (opts.qkL2norm ? div(x, sqrt(add(sum(mul(x, x), { dim: -1, keepDims: true }), 1e-6))) : x);
  const N = seqCount(s);
  const bounds = s.cuSeqlens ?? [0, T];
  const rows = s.cuSeqlens ? 1 : B;
  let loss: Tensor = tensor(0);
  for (let n = 0; n < (s.cuSeqlens ? N : 1); n++) {
    let S: Tensor;
    if (!S0) S = tensor(new Float64Array(rows * HV * dk * dv)).reshape([rows, HV, dk, dv]);
    else if (s.cuSeqlens) S = matmul(oneHot(n, N), S0.reshape([N, HV * dk * dv])).reshape([1, HV, dk, dv]);
    else S = S0;
    for (let t = bounds[n]; t < bounds[n + 1]; t++) {
      const qt = rep(l2(tok(q, H, dk, t))), kt = rep(l2(tok(k, H, dk, t)));
      const vt = tok(v, HV, dv, t);
      const a = exp(tokG(g, t)).reshape([rows, HV, 1, 1]), b = tokG(beta, t).reshape([rows, HV, 1, 1]);
      const kc = kt.reshape([rows, HV, dk, 1]), kr = kt.reshape([rows, HV, 1, dk]);
      const kS = matmul(kc, matmul(kr, S));
      S = add(mul(a, sub(S, mul(b, kS))), mul(b, matmul(kc, vt.reshape([rows, HV, 1, dv]))));
      const ot = mul(matmul(qt.reshape([rows, HV, 1, dk]), S), scale).reshape([rows, HV, dv]);
      loss = add(loss, sum(mul(ot, tok(Wo, HV, dv, t))));
    }
    if (Wf) {
      const wf = s.cuSeqlens ? matmul(oneHot(n, N), Wf.reshape([N, HV * dk * dv])).reshape([1, HV, dk, dv]) : Wf;
      loss = add(loss, sum(mul(S, wf)));
    }
  }
  return loss;
}

/** The same loss through gdn.chunkedForward. */
function chunkedLoss(
  s: GdnShape, opts: Opts, Wo: Tensor | null, Wf: Tensor | null,
  q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, S0?: Tensor,
): Tensor {
  const { o, finalState } = gdn.chunkedForward({
    q, k, v, beta, g, layout: s.layout, ...opts,
    ...(S0 ? { initialState: S0 } : {}), ...(s.cuSeqlens ? { cuSeqlens: s.cuSeqlens } : {}),
  });
  const lo = Wo ? sum(mul(o, Wo)) : null, lf = Wf ? sum(mul(finalState, Wf)) : null;
  return lo && lf ? add(lo, lf) : (lo ?? lf)!;
}

interface Case { name: string; s: GdnShape; opts: Opts; S0: boolean; dF: boolean; dO?: boolean }

const CASES: Case[] = [
  { name: 'bthd, chunk 16, T 37 (three chunks, short last)', s: { B: 2, T: 37, H: 2, HV: 2, dk: 4, dv: 3, layout: 'bthd' }, opts: { chunkSize: 16 }, S0: false, dF: false },
  { name: 'bhtd, scale 0.7, initial state + final state cotangent, chunk 32', s: { B: 2, T: 35, H: 1, HV: 1, dk: 3, dv: 5, layout: 'bhtd' }, opts: { chunkSize: 32, scale: 0.7 }, S0: true, dF: true },
  { name: 'qkL2norm, grouped value heads (HV = 2H), chunk 64', s: { B: 1, T: 20, H: 2, HV: 4, dk: 5, dv: 2, layout: 'bthd' }, opts: { qkL2norm: true }, S0: true, dF: true },
  { name: 'cuSeqlens (an empty sequence too), GVA, bthd, chunk 16', s: { B: 1, T: 29, H: 1, HV: 3, dk: 3, dv: 4, layout: 'bthd', cuSeqlens: [0, 11, 11, 29] }, opts: { chunkSize: 16 }, S0: true, dF: true },
  { name: 'bhtd, qkL2norm, GVA, cuSeqlens, only the final state in the loss', s: { B: 1, T: 19, H: 2, HV: 4, dk: 2, dv: 3, layout: 'bhtd', cuSeqlens: [0, 17, 19] }, opts: { qkL2norm: true, chunkSize: 16 }, S0: true, dF: true, dO: false },
];

describe('gdn.chunkedForward gradients vs reverse mode of the naive recurrence (float64, ≤ 1e-10)', () => {
  for (const [ci, c] of CASES.entries()) {
    it(c.name, () => {
      const x = inputs(c.s, 10 + ci, c.S0, !c.opts.qkL2norm);
      const T = gdnTensors(c.s, x, 'float64');
      const sh = gdnShapes(c.s);
      const args = [T.q, T.k, T.v, T.beta, T.g, ...(T.initialState ? [T.initialState] : [])];
      const Wo = randomTensor(sh.v, 'float64', 50 + ci);
      const Wf = c.dF ? randomTensor(sh.state, 'float64', 60 + ci) : null;
      const useO = c.dO ?? true;
      const ref = valueAndGrad((...a: Tensor[]) =>
        naiveLoss(c.s, c.opts, useO ? Wo : mul(Wo, 0), Wf, a[0], a[1], a[2], a[3], a[4], a[5]))(...args);
      const got = valueAndGrad((...a: Tensor[]) =>
        chunkedLoss(c.s, c.opts, useO ? Wo : null, Wf, a[0], a[1], a[2], a[3], a[4], a[5]))(...args);
      expect(Math.abs((got.value.toArray() as number) - (ref.value.toArray() as number))).toBeLessThan(1e-10 * Math.max(1, Math.abs(ref.value.toArray() as number)));
      const names = ['q', 'k', 'v', 'beta', 'g', 'initialState'];
      ref.grads.forEach((r, i) => {
        expect(got.grads[i].shape).toEqual(r.shape);
        // q reaches only o: with the final state alone in the loss its gradient is zero
        if (i === 0 && !useO) expect(maxAbs(r)).toBe(0);
        else expect(maxAbs(r)).toBeGreaterThan(1e-3);
        expect(dist(got.grads[i], r), names[i]).toBeLessThan(1e-10);
      });
    });
  }
});

describe('gdn.chunkedForward gradcheck (finite differences, tiny cases)', () => {
  const tiny: Case[] = [
    { name: 'bthd, GVA, initial state, both outputs, chunk 16', s: { B: 1, T: 5, H: 1, HV: 2, dk: 3, dv: 2, layout: 'bthd' }, opts: { chunkSize: 16 }, S0: true, dF: true },
    { name: 'bhtd, qkL2norm, cuSeqlens, scale 1.3', s: { B: 1, T: 6, H: 1, HV: 1, dk: 3, dv: 2, layout: 'bhtd', cuSeqlens: [0, 2, 6] }, opts: { qkL2norm: true, scale: 1.3, chunkSize: 16 }, S0: true, dF: true },
  ];
  for (const [ci, c] of tiny.entries()) {
    it(c.name, () => {
      const x = inputs(c.s, 30 + ci, c.S0, !c.opts.qkL2norm);
      const T = gdnTensors(c.s, x, 'float64');
      const f = (q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, S0: Tensor) => gdn.chunkedForward({
        q, k, v, beta, g, initialState: S0, layout: c.s.layout, ...c.opts, ...(c.s.cuSeqlens ? { cuSeqlens: c.s.cuSeqlens } : {}),
      });
      gradcheck(f, [T.q, T.k, T.v, T.beta, T.g, T.initialState!], { eps: 1e-6, rtol: 1e-6 });
    });
  }

  it('the gradient mirrors the input object; constants (arrays, options, cuSeqlens tensor) get none', () => {
    const s: GdnShape = { B: 1, T: 4, H: 1, HV: 1, dk: 2, dv: 2, layout: 'bthd', cuSeqlens: [0, 1, 4] };
    const x = inputs(s, 40, true);
    const T = gdnTensors(s, x, 'float64');
    const cu = tensor([0, 1, 4], { dtype: 'int32' });
    // k, beta as nested arrays (constants); only q, v, g, initialState differentiated
    const kArr = T.k.toArray(), bArr = T.beta.toArray();
    const { grads } = valueAndGrad((q: Tensor, v: Tensor, g: Tensor, S0: Tensor) => {
      const r = gdn.chunkedForward({ q, k: kArr as never, v, beta: bArr as never, g, initialState: S0, cuSeqlens: cu, chunkSize: 16 });
      return add(sum(r.o), sum(r.finalState));
    })(T.q, T.v, T.g, T.initialState!);
    const ref = gdn.chunkedBackward({ q: T.q, k: T.k, v: T.v, beta: T.beta, g: T.g, initialState: T.initialState, cuSeqlens: cu, chunkSize: 16 },
      { dO: mul(T.v, 0).add(1) as Tensor, dFinalState: mul(T.initialState!, 0).add(1) as Tensor });
    expect(grads.map((t) => t.shape)).toEqual([T.q.shape, T.v.shape, T.g.shape, T.initialState!.shape]);
    expect(relErr(grads[0].dataSync() as Float64Array, ref.dq.dataSync() as Float64Array)).toBe(0);
    expect(relErr(grads[2].dataSync() as Float64Array, ref.dg.dataSync() as Float64Array)).toBe(0);
    expect(relErr(grads[3].dataSync() as Float64Array, ref.dInitialState!.dataSync() as Float64Array)).toBe(0);
  });

  it('no second derivatives through the kernels, chunkedBackward refuses tracked inputs: clear errors', () => {
    const s: GdnShape = { B: 1, T: 3, H: 1, HV: 1, dk: 2, dv: 2, layout: 'bthd' };
    const T = gdnTensors(s, inputs(s, 41, false), 'float64');
    const inner = (q: Tensor) => grad((a: Tensor) => sum(gdn.chunkedForward({ q: a, k: T.k, v: T.v, beta: T.beta, g: T.g }).o))(q)[0];
    expect(() => grad((q: Tensor) => sum(inner(q)))(T.q)).toThrow(ArgumentError);
    expect(() => grad((q: Tensor) => sum(inner(q)))(T.q)).toThrow(/gdn\.chunkedForward: its gradient is not differentiable/);
    expect(() => grad((q: Tensor) => sum(gdn.chunkedBackward({ q, k: T.k, v: T.v, beta: T.beta, g: T.g }, { dO: T.v }).dq))(T.q))
      .toThrow(/gdn\.chunkedBackward: not differentiable/);
  });
});

describe('gdn.recurrentStep gradients', () => {
  const B = 2, H = 2, HV = 4, dk = 3, dv = 2;
  const step = (seed: number) => {
    const r = new Rng(seed);
    const rn = (shape: number[], f = 1): Tensor => t64(Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => f * r.normal()), shape);
    const un = (shape: number[], lo: number, hi: number): Tensor =>
      t64(Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => lo + (hi - lo) * r.uniform()), shape);
    return {
      S: rn([B, HV, dk, dv], 0.5), q: rn([B, H, dk]), k: rn([B, H, dk], 0.5), v: rn([B, HV, dv]),
      beta: un([B, HV], 0.1, 0.9), g: un([B, HV], -0.6, -0.02),
    };
  };
  for (const opts of [{}, { qkL2norm: true, scale: 0.8 }]) {
    it(`gradcheck, grouped value heads ${JSON.stringify(opts)}`, () => {
      const x = step(70);
      gradcheck((S, q, k, v, beta, g) => gdn.recurrentStep(S, q, k, v, beta, g, opts), [x.S, x.q, x.k, x.v, x.beta, x.g]);
    });
  }

  it('second derivatives (the rule is public ops): gradcheck of the gradient, GVA and qkL2norm', () => {
    const x = step(75);
    const W = randomTensor([B, HV, dv], 'float64', 76), Ws = randomTensor([B, HV, dk, dv], 'float64', 77);
    const loss = (...[S, q, k, v, beta, g]: Tensor[]): Tensor => {
      const r = gdn.recurrentStep(S, q, k, v, beta, g, { qkL2norm: true });
      return add(sum(mul(mul(r.o, r.o), W)), sum(mul(mul(r.state, r.state), Ws)));
    };
    // the gradient with respect to k and g, differentiated again with respect to every input
    gradcheck((...a: Tensor[]) => {
      const gr = grad(loss, { argnums: [2, 5] })(...a);
      return [gr[0], gr[1]];
    }, [x.S, x.q, x.k, x.v, x.beta, x.g]);
  });

  it('T chained steps give chunkedForward\'s gradients (≤ 1e-10), only o or only the state in the loss', () => {
    const s: GdnShape = { B, T: 6, H, HV, dk, dv, layout: 'bthd' };
    const x = inputs(s, 80, true);
    const Tn = gdnTensors(s, x, 'float64');
    const Wo = randomTensor(gdnShapes(s).v, 'float64', 81), Wf = randomTensor(gdnShapes(s).state, 'float64', 82);
    const tokOf = (a: Tensor, heads: number, d: number, t: number) => matmul(oneHot(t, s.T), a.reshape([B, s.T, heads * d])).reshape([B, heads, d]);
    for (const [useO, useF] of [[true, true], [true, false], [false, true]]) {
      const viaSteps = valueAndGrad((q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, S0: Tensor) => {
        let S = S0, L: Tensor = tensor(0);
        for (let t = 0; t < s.T; t++) {
          const r = gdn.recurrentStep(S, tokOf(q, H, dk, t), tokOf(k, H, dk, t), tokOf(v, HV, dv, t),
            tokOf(beta, HV, 1, t).reshape([B, HV]), tokOf(g, HV, 1, t).reshape([B, HV]), { qkL2norm: true });
          if (useO) L = add(L, sum(mul(r.o, tokOf(Wo, HV, dv, t))));
          S = r.state;
        }
        return useF ? add(L, sum(mul(S, Wf))) : L;
      })(Tn.q, Tn.k, Tn.v, Tn.beta, Tn.g, Tn.initialState!);
      const viaChunks = valueAndGrad((q: Tensor, k: Tensor, v: Tensor, beta: Tensor, g: Tensor, S0: Tensor) =>
        chunkedLoss(s, { qkL2norm: true }, useO ? Wo : null, useF ? Wf : null, q, k, v, beta, g, S0))(Tn.q, Tn.k, Tn.v, Tn.beta, Tn.g, Tn.initialState!);
      viaChunks.grads.forEach((r, i) => {
        expect(dist(viaSteps.grads[i], r), `${useO} ${useF} arg ${i}`).toBeLessThan(1e-10);
      });
    }
  });
});

describe('gdn.chunkSolve / gdn.invUnitLower gradients', () => {
  it('chunkSolve gradcheck: batched, broadcast batch dims', () => {
    gradcheck((A, B) => gdn.chunkSolve(A, B), [randomTensor([2, 4, 4], 'float64', 1), randomTensor([2, 4, 3], 'float64', 2)]);
    gradcheck((A, B) => gdn.chunkSolve(A, B), [randomTensor([5, 5], 'float64', 3), randomTensor([2, 5, 2], 'float64', 4)]);
    gradcheck((A, B) => gdn.chunkSolve(A, B), [randomTensor([2, 1, 3, 3], 'float64', 5), randomTensor([3, 3, 1], 'float64', 6)]);
  });

  it('property: batch dims of A and B broadcast (size-1 and missing dims), C 1…5; gradcheck along random directions', () => {
    const dims = fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 });
    fc.assert(fc.property(dims, fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }), fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.nat(1000), (batch, ones, C, k, dropA, seed) => {
        // A drops leading dims and takes size 1 where `ones` says: both broadcast against B
        const bA = batch.slice(Math.min(dropA, batch.length)).map((d, i) => (ones[i] ? 1 : d));
        const A = randomTensor([...bA, C, C], 'float64', seed), Bm = randomTensor([...batch, C, k], 'float64', seed + 1);
        gradcheck((a, b) => gdn.chunkSolve(a, b), [A, Bm], { maxEntries: 0, directions: 2, seed });
        gradcheck((a) => gdn.invUnitLower(a), [A], { maxEntries: 0, directions: 2, seed });
      }), { numRuns: 25 });
  });

  it('invUnitLower gradcheck: batched and single', () => {
    gradcheck((A) => gdn.invUnitLower(A), [randomTensor([2, 5, 5], 'float64', 7)]);
    gradcheck((A) => gdn.invUnitLower(A), [randomTensor([3, 3], 'float64', 8)]);
  });

  it('the diagonal and upper part (never read, NaN allowed) get exact zeros; the rest is finite', () => {
    const a = randomTensor([4, 4], 'float64', 9).toArray() as number[][];
    for (let i = 0; i < 4; i++) for (let j = i; j < 4; j++) a[i][j] = NaN;
    const A = tensor(a), Bm = randomTensor([4, 2], 'float64', 10);
    const [gA, gB] = grad((x: Tensor, y: Tensor) => sum(gdn.chunkSolve(x, y)))(A, Bm);
    const [gT] = grad((x: Tensor) => sum(gdn.invUnitLower(x)))(A);
    for (const G of [gA, gT]) {
      const m = G.toArray() as number[][];
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
        if (j >= i) expect(m[i][j] === 0).toBe(true);
        else expect(Number.isFinite(m[i][j]) && m[i][j] !== 0).toBe(true);
      }
    }
    expect((gB.dataSync() as Float64Array).every(Number.isFinite)).toBe(true);
  });

  it('second derivatives (the rules are public ops): gradcheck of the gradient', () => {
    const A = randomTensor([3, 3], 'float64', 11), Bm = randomTensor([3, 2], 'float64', 12);
    const W = randomTensor([3, 2], 'float64', 13);
    gradcheck((x, y) => grad((a: Tensor, b: Tensor) => sum(mul(mul(gdn.chunkSolve(a, b), gdn.chunkSolve(a, b)), W)))(x, y)[0], [A, Bm]);
    gradcheck((x) => grad((a: Tensor) => sum(mul(gdn.invUnitLower(a), gdn.invUnitLower(a))))(x)[0], [A]);
  });

  it('vjp on float32 gives float32 cotangents close to float64', () => {
    const A = randomTensor([2, 6, 6], 'float64', 14), Bm = randomTensor([2, 6, 3], 'float64', 15);
    const G = randomTensor([2, 6, 3], 'float64', 16);
    const r64 = vjp((a: Tensor, b: Tensor) => gdn.chunkSolve(a, b), A, Bm).pullback(G);
    const r32 = vjp((a: Tensor, b: Tensor) => gdn.chunkSolve(a, b), A.astype('float32'), Bm.astype('float32')).pullback(G.astype('float32'));
    expect(r32[0].dtype).toBe('float32');
    for (let i = 0; i < 2; i++) {
      expect(relErr(r32[i].dataSync() as Float32Array, r64[i].dataSync() as Float64Array)).toBeLessThan(1e-5);
    }
  });
});

