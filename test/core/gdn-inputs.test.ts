// gdn.chunkedForward input values (issue 10 item 19): a positive log decay made every
// output NaN with no error; NaN/Inf inputs likewise. They are refused (issue 15: by the
// kernels' status), naming the batch row and value head.
import { describe, expect, it } from 'vitest';
import { gdn, randn, Tensor, ArgumentError } from '../../src/index.js';

const [B, H, dk, dv] = [1, 2, 4, 4];

// (batch, time, heads, dim): the default 'bthd' layout.
function inputs(L: number) {
  const q = randn([B, L, H, dk], { seed: 1 }), k = randn([B, L, H, dk], { seed: 2 }), v = randn([B, L, H, dv], { seed: 3 });
  const beta = randn([B, L, H], { seed: 4 });
  const g = randn([B, L, H], { seed: 5 });
  const gd = g.dataSync();
  for (let i = 0; i < gd.length; i++) gd[i] = -Math.abs(gd[i]) * 0.1;
  beta.dataSync().fill(0.5);
  return { q, k, v, beta, g };
}

describe('gdn.chunkedForward input values', () => {
  it('valid input (g ≤ 0) gives finite outputs', () => {
    const r = gdn.chunkedForward({ ...inputs(40), chunkSize: 16 });
    expect(r.o.shape).toEqual([B, 40, H, dv]);
    expect(r.o.dataSync().every(Number.isFinite)).toBe(true);
    expect(r.finalState.dataSync().every(Number.isFinite)).toBe(true);
  });

  it('a positive log gate is an ArgumentError naming the batch and value head', () => {
    const inp = inputs(200);
    const g = inp.g.dataSync();
    for (let t = 37; t < 200; t++) g[t * H + 1] = 0.5; // head 1, step 37 onwards
    expect(() => gdn.chunkedForward({ ...inp, chunkSize: 16 })).toThrow(ArgumentError);
    expect(() => gdn.chunkedForward({ ...inp, chunkSize: 16 }))
      .toThrow(/^gdn\.chunkedForward: batch 0, value head 1: a log decay g is > 0, NaN or −∞; log decays must be finite and ≤ 0/);
  });

  it('NaN or ±Inf in g, q, k, v, beta or initialState is refused, naming the value head', () => {
    for (const name of ['g', 'q', 'k', 'v', 'beta', 'initialState'] as const) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        const inp: Record<string, Tensor> = { ...inputs(20), initialState: randn([B, H, dk, dv], { seed: 9 }) };
        // element 7: head 1 of token 0 of q/k/v (dim 4); token 3, head 1 of beta/g; head 0 of the state
        inp[name].dataSync()[7] = bad;
        const head = name === 'initialState' ? 0 : 1;
        const what = name === 'g' ? 'a log decay g is > 0, NaN or −∞' : 'q, k, v, beta or the initial state holds NaN or ±Inf';
        const msg = new RegExp(`^gdn\\.chunkedForward: batch 0, value head ${head}: ${what.replace(/[+.]/g, (c) => `\\${c}`)}`);
        expect(() => gdn.chunkedForward({ ...inp, chunkSize: 16 } as never), `${name} ${bad}`).toThrow(msg);
      }
    }
  });

  it('the input object itself is validated (null, unknown keys, the old device option)', () => {
    expect(() => gdn.chunkedForward(null as never)).toThrow(/^gdn\.chunkedForward: input must be an object, got null/);
    expect(() => gdn.chunkedForward({ ...inputs(8), chunksize: 16 } as never)).toThrow(/unknown option 'chunksize'/);
    expect(() => gdn.chunkedForward({ ...inputs(8), device: 'cpu' } as never)).toThrow(ArgumentError);
    expect(() => gdn.chunkedForward({ ...inputs(8), layout: 'bhdt' } as never)).toThrow(ArgumentError);
  });
});
