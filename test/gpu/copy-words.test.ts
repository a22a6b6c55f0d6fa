// The GPU word copy behind contiguous stridedCopy runs, leading-dim concat and put's copy
// (copyBytes in src/backend/gpu/indexing.ts, shaders/indexing/copy_words.wgsl): vec4 units
// when both word offsets are multiples of 4 plus a word-kernel tail, words otherwise.
// Checked through the registry against the host data, word for word, at offsets and
// lengths of every residue mod 4 and one run spanning many workgroups.
// Kernel variants compiled here: copy_words u32 and vec4 (2).
import { describe, expect } from 'vitest';
import { Tensor } from '../../src/index.js';
import { lookup } from '../../src/backend/registry.js';
import { stridedPath } from '../../src/backend/gpu/indexing.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

const seq = (n: number, from: number) => Uint32Array.from({ length: n }, (_, i) => (from + i * 2654435761) >>> 0);

describe('gpu copy_words (contiguous copies)', () => {
  gpuIt('slices of contiguous rows: every offset and length residue mod 4, uint32 and complex64', async () => {
    const host = seq(64 * 3, 7);
    const x = Tensor.fromStorage('uint32', [64 * 3], host).to('gpu');
    const xc = Tensor.fromStorage('complex64', [32 * 3], new Float32Array(host.buffer)).to('gpu');
    for (const off of [0, 1, 2, 3, 4, 8, 13]) {
      for (const len of [1, 2, 3, 4, 5, 7, 8, 16, 17, 19, 100]) {
        const view = { shape: [len], strides: [1], offset: off };
        expect(stridedPath(view, false)).toBe('copy');
        const out = lookup('stridedCopy', 'uint32', 'gpu', 'test')(x, view, false);
        expect(Array.from(await out.data() as Uint32Array), `uint32 @${off} ×${len}`).toEqual(Array.from(host.subarray(off, off + len)));
        out.dispose();
        if (len <= 50) {
          // complex64: 2 words per element, so offsets 0, 2 (mod 4) and tails of 0 or 2 words
          const oc = lookup('stridedCopy', 'complex64', 'gpu', 'test')(xc, view, false);
          const got = new Uint32Array((await oc.data() as Float32Array).slice().buffer);
          expect(Array.from(got), `complex64 @${off} ×${len}`).toEqual(Array.from(host.subarray(2 * off, 2 * off + 2 * len)));
          oc.dispose();
        }
      }
    }
    x.dispose();
    xc.dispose();
  });

  gpuIt('concat along dim 0 at unaligned destinations, and a run over many workgroups', async () => {
    const parts = [3, 5, 8, 1, 300_007].map((n, i) => seq(n, 1000 * i + 1));
    const ts = parts.map((p) => Tensor.fromStorage('int32', [p.length], new Int32Array(p.buffer)).to('gpu'));
    const out = lookup('concat', 'int32', 'gpu', 'test')(ts, 0);
    const got = new Uint32Array((await out.data() as Int32Array).slice().buffer);
    let at = 0;
    for (const p of parts) {
      let i = 0;
      while (i < p.length && got[at + i] === p[i]) i++;
      expect(i, `part of ${p.length} at ${at}`).toBe(p.length);
      at += p.length;
    }
    expect(at).toBe(got.length);
    for (const t of [...ts, out]) t.dispose();
  });
});
