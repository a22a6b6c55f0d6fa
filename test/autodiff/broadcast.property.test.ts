// fast-check properties of the gradients over random shapes, batch dims and broadcast pairs:
// (1) the gradient of a broadcast operand is the gradient w.r.t. its expanded copy summed
// over the broadcast dims (summed here by a plain-JS loop, independently of the engine);
// (2) gradcheck (central differences) of add/mul/div/where/maximum/sum/mean/matmul on
// random shapes, real and complex. Seed: the suite's (printed; LAPIS_FC_SEED).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  add, mul, div, where, maximum, sum, mean, real, conj, linalg, expand, grad, gt, tensor, Tensor,
} from '../../src/index.js';
import { gradcheck, rng } from '../helpers/gradcheck.js';

type Dt = 'float64' | 'complex128';

/** Random data (seeded); `away` puts the real parts in [0.6, 1.1) (a divisor away from 0). */
function make(shape: readonly number[], dtype: Dt, seed: number, away = false): Tensor {
  const r = rng(seed);
  const c = dtype === 'complex128' ? 2 : 1;
  const d = new Float64Array(shape.reduce((a, b) => a * b, 1) * c);
  for (let i = 0; i < d.length; i++) d[i] = away && i % c === 0 ? 0.6 + Math.abs(r()) : r();
  return tensor({ data: d, shape: [...shape], dtype });
}

/** An output shape and two operand shapes that broadcast to it (leading dims dropped, dims set to 1). */
const broadcastPair = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 0, maxLength: 4 }).chain((out) => {
  const operand = fc.tuple(fc.integer({ min: 0, max: out.length }), fc.array(fc.boolean(), { minLength: out.length, maxLength: out.length }))
    .map(([drop, ones]) => out.slice(drop).map((n, i) => (ones[i + drop] ? 1 : n)));
  return fc.tuple(fc.constant(out), operand, operand);
});

const dtypeArb = fc.constantFrom<Dt>('float64', 'complex128');
const seedArb = fc.integer({ min: 1, max: 1_000_000 });

/** Σ of g (shape `from`) into `to` (numpy-broadcastable to `from`), as a flat Float64Array of scalars. */
function sumTo(g: Tensor, to: readonly number[]): Float64Array {
  const from = g.shape, c = g.dtype === 'complex128' ? 2 : 1;
  const src = g.dataSync() as Float64Array;
  const out = new Float64Array(to.reduce((a, b) => a * b, 1) * c);
  const lead = from.length - to.length;
  const idx = new Array<number>(from.length).fill(0);
  for (let flat = 0; flat < g.size; flat++) {
    let rem = flat;
    for (let d = from.length - 1; d >= 0; d--) { idx[d] = rem % from[d]; rem = Math.floor(rem / from[d]); }
    let o = 0;
    for (let d = 0; d < to.length; d++) o = o * to[d] + (to[d] === 1 ? 0 : idx[d + lead]);
    for (let k = 0; k < c; k++) out[o * c + k] += src[flat * c + k];
  }
  return out;
}

const OPS: Record<string, (a: Tensor, b: Tensor) => Tensor> = {
  add: (a, b) => add(a, b),
  mul: (a, b) => mul(a, b),
  div: (a, b) => div(a, b),
  where: (a, b) => where(gt(real(add(a, b)), 0), mul(a, b), b),
};

describe('autodiff: broadcasting properties', () => {
  it('the gradient of a broadcast operand is the expanded operand\'s gradient summed over the broadcast dims', () => {
    fc.assert(fc.property(
      broadcastPair, dtypeArb, seedArb, fc.constantFrom(...Object.keys(OPS)),
      ([out, sa, sb], dt, seed, name) => {
        const op = OPS[name];
        const a = make(sa, dt, seed), b = make(sb, dt, seed + 1, name === 'div');
        const W = make(out, dt, seed + 2);
        const loss = (x: Tensor, y: Tensor) => sum(real(mul(op(x, y), conj(W))));
        const [ga, gb] = grad(loss)(a, b);
        const [gea, geb] = grad(loss)(expand(a, out), expand(b, out));
        expect(ga.shape).toEqual(sa);
        expect(gb.shape).toEqual(sb);
        for (const [g, ge, s] of [[ga, gea, sa], [gb, geb, sb]] as const) {
          const want = sumTo(ge, s), got = g.dataSync() as Float64Array;
          for (let i = 0; i < want.length; i++) expect(Math.abs(got[i] - want[i])).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(want[i])));
        }
      },
    ), { numRuns: 25 });
  });

  it('gradcheck of add, mul, div, where, maximum on random broadcast pairs', () => {
    fc.assert(fc.property(
      broadcastPair, dtypeArb, seedArb, fc.constantFrom('add', 'mul', 'div', 'where', 'maximum'),
      ([, sa, sb], dt0, seed, name) => {
        const dt = name === 'maximum' ? 'float64' : dt0;
        const op = name === 'maximum' ? (x: Tensor, y: Tensor) => maximum(x, y) : OPS[name];
        gradcheck(op, [make(sa, dt, seed), make(sb, dt, seed + 1, name === 'div')], { seed });
      },
    ), { numRuns: 15 });
  });

  it('gradcheck of sum and mean over random shapes, dims and keepDims', () => {
    const caseArb = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 0, maxLength: 4 }).chain((shape) => fc.tuple(
      fc.constant(shape),
      fc.option(fc.subarray([...shape.keys()]).chain((ds) => fc.shuffledSubarray(ds, { minLength: ds.length, maxLength: ds.length }))
        .map((ds) => ds.map((d, i) => (i % 2 === 1 ? d - shape.length : d))), { nil: undefined }),
      fc.boolean(),
    ));
    fc.assert(fc.property(caseArb, dtypeArb, seedArb, fc.boolean(), ([shape, dim, keepDims], dt, seed, isMean) => {
      const f = isMean ? mean : sum;
      gradcheck((x) => f(x, { dim, keepDims }), [make(shape, dt, seed)], { seed });
    }), { numRuns: 15 });
  });

  it('gradcheck of matmul over random batch broadcasts and vector operands', () => {
    const dims = fc.integer({ min: 1, max: 3 });
    const caseArb = fc.tuple(broadcastPair, dims, dims, dims, fc.constantFrom('mm', 'vm', 'mv'));
    fc.assert(fc.property(caseArb, dtypeArb, seedArb, ([[, ba, bb], m, k, n, kind], dt, seed) => {
      const sa = kind === 'vm' ? [k] : [...ba.slice(-2), m, k];
      const sb = kind === 'mv' ? [k] : [...bb.slice(-2), k, n];
      gradcheck((x, y) => linalg.matmul(x, y), [make(sa, dt, seed), make(sb, dt, seed + 1)], { seed });
    }), { numRuns: 15 });
  });
});
