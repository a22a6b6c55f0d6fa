// gdn.chunkedForward input values (issue 10 item 19): a positive log decay made every
// output NaN with no error; NaN/Inf inputs likewise. They are refused, naming the element.
import { describe, expect, it } from 'vitest';
import { gdn, randn, Tensor, ArgumentError } from '../../src/index.js';

function inputs(L: number) {
  const [B, H, dk, dv] = [1, 2, dk0, 4];
  const q = randn([B, H, L, dk], { seed: 1 }), k = randn([B, H, L, dk], { seed: 2 }), v = randn([B, H, L, dv], { seed: 3 });
  const beta = randn([B, H, L], { seed: 4 });
  const g = randn([B, H, L], { seed: 5 });
  for (const a of [beta.dataSync(), g.dataSync()]) for (let i = 0; i < a.length; i++) a[i] = -Math.abs(a[i]) * 0.1;
  for (let i = 0; i < beta.dataSync().length; i++) beta.dataSync()[i] = 0.5;
  return { q, k, v, beta, g };
}
const dk0 = 4;

describe('gdn.chunkedForward input values', () => {
  it('valid input (g ≤ 0) gives finite outputs', async () => {
    const r = await gdn.chunkedForward({ ...inputs(40), chunkSize: 16 });
    expect(r.o.dataSync().every(Number.isFinite)).toBe(true);
  });

  it('a positive log gate is an ArgumentError naming g and the first offending index', async () => {
    const inp = inputs(200);
    const g = inp.g.dataSync();
    g.fill(0.5, 237); // head 1, step 37 onwards
    await expect(gdn.chunkedForward({ ...inp, chunkSize: 16 })).rejects.toThrow(ArgumentError);
    await expect(gdn.chunkedForward({ ...inp, chunkSize: 16 })).rejects.toThrow(/^gdn\.chunkedForward: g\[0, 1, 37\] is 0\.5; log decays must be finite and ≤ 0/);
  });

  it('NaN or ±Inf in g, q, k, v, beta or initialState is refused by name', async () => {
    for (const name of ['g', 'q', 'k', 'v', 'beta', 'initialState'] as const) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        if (name !== 'g' && bad === -Infinity && name === 'beta') continue;
        const inp: Record<string, Tensor> = { ...inputs(20), initialState: randn([1, 2, dk0, 4], { seed: 9 }) };
        inp[name].dataSync()[3] = bad;
        await expect(gdn.chunkedForward({ ...inp, chunkSize: 16 } as never), `${name} ${bad}`)
          .rejects.toThrow(new RegExp(`^gdn\\.chunkedForward: ${name}\\[`));
      }
    }
  });

  it('the input object itself is validated (null, unknown keys, unknown device)', async () => {
    await expect(gdn.chunkedForward(null as never)).rejects.toThrow(/^gdn\.chunkedForward: input must be an object, got null/);
    await expect(gdn.chunkedForward({ ...inputs(8), chunksize: 16 } as never)).rejects.toThrow(/unknown option 'chunksize'/);
    await expect(gdn.chunkedForward({ ...inputs(8), device: 'tpu' } as never)).rejects.toThrow(ArgumentError);
  });
});
