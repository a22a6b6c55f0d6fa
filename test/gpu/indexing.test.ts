// GPU shape and indexing entries (src/backend/gpu/indexing.ts, shaders/indexing) through the
// registry, against plain-JS references on the host copy, for every GPU dtype: float32,
// complex64, int32, uint32, bool. stridedCopy, triangle, concat and take move bits, so
// their results are compared bit for bit (NaN payloads, −0 and subnormals included); put
// with accumulate adds floats in an order that varies, so float sums get a tolerance.
// Kernel variants compiled here: stridedCopy general/tiled, triangle, concat, take, put
// store/accumulate, each for 4- and 8-byte elements (14).
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import {
  Tensor, ArgumentError, permute, matrixTranspose, adjoint, transpose, slice, diagonal, expand, triu, tril, concat, stack, split, take, put,
} from '../../src/index.js';
import type { DType } from '../../src/core/dtype.js';
import type { StridedView } from '../../src/backend/ops.js';
import { lookup } from '../../src/backend/registry.js';
import { stridedPath, MAX_UNIFORM_DIMS, TILED_MIN } from '../../src/backend/gpu/indexing.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';

useGpu();

type GD = 'float32' | 'complex64' | 'int32' | 'uint32' | 'bool';
const GPU_DTYPES: readonly GD[] = ['float32', 'complex64', 'int32', 'uint32', 'bool'];
const spe = (d: GD) => (d === 'complex64' ? 2 : 1);

/** A small deterministic generator (tests reproduce from their seed). */
function lcg(seed: number): () => number {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
}

/**
 * Host data of n elements: float bits of every class (normal, subnormal, ±0, ±Inf, NaN with
 * payloads), int32 of both signs, uint32 above 2^31, bool 0/1 — all distinct-ish, so a
 * misplaced element shows.
 */
function hostData(d: GD, n: number, seed: number): Float32Array | Int32Array | Uint32Array | Uint8Array {
  const next = lcg(seed);
  if (d === 'bool') return Uint8Array.from({ length: n }, () => next() & 1);
  if (d === 'int32') return Int32Array.from({ length: n }, () => next() | 0);
  if (d === 'uint32') return Uint32Array.from({ length: n }, () => next() | 0x80000000);
  const u = new Uint32Array(n * spe(d));
  for (let i = 0; i < u.length; i++) {
    const r = next(), sign = (r & 1) << 31;
    switch (i % 7) {
      case 3: u[i] = sign | ((r >>> 9) || 1); break; // subnormal
      case 4: u[i] = sign; break; // ±0
      case 5: u[i] = sign | 0x7f800000 | ((r >>> 9) & 1 ? (r >>> 10) || 1 : 0); break; // ±Inf or NaN
      default: u[i] = sign | ((((r >>> 1) % 254) + 1) << 23) | (next() & 0x7fffff);
    }
  }
  return new Float32Array(u.buffer);
}

function gpuTensor(d: GD, shape: readonly number[], host: ArrayLike<number>): Tensor {
  return Tensor.fromStorage(d, shape, host as never).to('gpu');
}

/** The host data as u32 words (bit patterns; bool as 0/1). */
function words(a: ArrayLike<number> & { buffer?: ArrayBufferLike }): number[] {
  if (a instanceof Float32Array) return Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
  return Array.from(a, (v) => v >>> 0);
}

/** x.flat[view] with the reference loop (elements of `per` words). */
function refStrided(src: number[], per: number, view: StridedView, conj: boolean): number[] {
  const out: number[] = [];
  const r = view.shape.length;
  const size = view.shape.reduce((a, b) => a * b, 1);
  const idx = new Array<number>(r).fill(0);
  for (let e = 0; e < size; e++) {
    let off = view.offset;
    for (let d = 0; d < r; d++) off += idx[d] * view.strides[d];
    for (let h = 0; h < per; h++) out.push(conj && h === 1 ? (src[off * per + h] ^ 0x80000000) >>> 0 : src[off * per + h]);
    for (let d = r - 1; d >= 0; d--) { if (++idx[d] < view.shape[d]) break; idx[d] = 0; }
  }
  return out;
}

const rowMajor = (shape: readonly number[]) => {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let d = shape.length - 1; d >= 0; d--) { s[d] = acc; acc *= shape[d]; }
  return s;
};

/** got equals want word for word; a failure names the first differing word (no diff of huge arrays). */
function expectWords(got: readonly number[], want: readonly number[], label: string): void {
  expect(got.length, `${label}: length`).toBe(want.length);
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  expect(i === got.length ? 'equal' : `word ${i}: ${got[i]} != ${want[i]}`, label).toBe('equal');
}

async function gpuWords(t: Tensor): Promise<number[]> {
  return words(await t.data() as Float32Array);
}

/** Runs stridedCopy on the GPU and checks it against the reference, bit for bit. */
async function checkStrided(d: GD, xShape: readonly number[], view: StridedView, conj: boolean, seed: number, label: string): Promise<void> {
  const size = xShape.reduce((a, b) => a * b, 1);
  const host = hostData(d, size, seed);
  const x = gpuTensor(d, xShape, host);
  const out = lookup('stridedCopy', d, 'gpu', 'test')(x, view, conj);
  expect(out.shape, label).toEqual(view.shape);
  expect(out.dtype).toBe(d);
  expectWords(await gpuWords(out), refStrided(words(host), spe(d), view, conj && d === 'complex64'), label);
  x.dispose();
  out.dispose();
}

describe('gpu stridedCopy', () => {
  gpuIt('random permutations of rank ≤ 5, every dtype (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...GPU_DTYPES), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 0, max: 1 << 20 }),
      async (d, shape, seed) => {
        const next = lcg(seed);
        const perm = shape.map((_, i) => i);
        for (let i = perm.length - 1; i > 0; i--) { const j = next() % (i + 1); [perm[i], perm[j]] = [perm[j], perm[i]]; }
        const s = rowMajor(shape);
        const view = { shape: perm.map((p) => shape[p]), strides: perm.map((p) => s[p]), offset: 0 };
        await checkStrided(d, shape, view, d === 'complex64' && (seed & 1) === 1, seed, `perm ${perm} of ${shape}`);
      },
    ), { numRuns: 25 });
  });

  gpuIt('slices with negative and positive steps, offsets, every dtype (property)', async () => {
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...GPU_DTYPES), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 1 << 20 }),
      async (d, shape, seed) => {
        const next = lcg(seed);
        const s = rowMajor(shape);
        let offset = 0;
        const vshape: number[] = [], vstrides: number[] = [];
        for (let k = 0; k < shape.length; k++) {
          const step = ((next() % 3) + 1) * (next() & 1 ? -1 : 1);
          const start = next() % shape[k];
          // elements start, start+step, … inside [0, shape[k])
          const count = step > 0 ? Math.ceil((shape[k] - start) / step) : Math.floor(start / -step) + 1;
          offset += start * s[k];
          vshape.push(count);
          vstrides.push(step * s[k]);
        }
        await checkStrided(d, shape, { shape: vshape, strides: vstrides, offset }, false, seed, `slice ${vshape} ${vstrides} @${offset}`);
      },
    ), { numRuns: 25 });
  });

  gpuIt('diagonals (offset k, batched), expand (stride 0), conj and the copy path', async () => {
    for (const d of GPU_DTYPES) {
      // diagonal k of (3, 4, 6): shape (3, len), strides (24, 7)
      for (const k of [-2, 0, 1, 5]) {
        const len = Math.max(0, Math.min(4 + Math.min(k, 0), 6 - Math.max(k, 0)));
        const offset = k >= 0 ? k : -k * 6;
        await checkStrided(d, [3, 4, 6], { shape: [3, len], strides: [24, 7], offset }, false, 11 + k, `${d} diagonal ${k}`);
      }
      // expand (1, 5) → (4, 3, 5) and a scalar → (2, 3)
      await checkStrided(d, [1, 5], { shape: [4, 3, 5], strides: [0, 0, 1], offset: 0 }, false, 3, `${d} expand`);
      await checkStrided(d, [1], { shape: [2, 3], strides: [0, 0], offset: 0 }, false, 4, `${d} expand scalar`);
      // a contiguous block (rows 2..5 of (7, 9)): one buffer copy; conj of complex takes the kernel
      const block = { shape: [4, 9], strides: [9, 1], offset: 18 };
      expect(stridedPath(block, false)).toBe('copy');
      await checkStrided(d, [7, 9], block, true, 5, `${d} block`);
      await checkStrided(d, [], { shape: [], strides: [], offset: 0 }, true, 6, `${d} 0-d`);
      await checkStrided(d, [3, 0], { shape: [0, 3], strides: [1, 3], offset: 0 }, false, 7, `${d} empty`);
    }
    expect(stridedPath({ shape: [4, 9], strides: [9, 1], offset: 18 }, true)).toBe('general');
  });

  gpuIt('transposes crossing the tile: non-square, batched, of slices, reversed; conj (mH)', async () => {
    const cases: Array<{ x: number[]; view: StridedView }> = [
      { x: [33, 70], view: { shape: [70, 33], strides: [1, 70], offset: 0 } },
      { x: [2, 65, 40], view: { shape: [2, 40, 65], strides: [2600, 1, 40], offset: 0 } },
      // batch dims permuted too, and a strided batch
      { x: [3, 2, 32, 33], view: { shape: [2, 3, 33, 32], strides: [1056, 2112, 1, 33], offset: 0 } },
      // the transpose of a column block (ld > rows) and of a row-reversed matrix (negative ld)
      { x: [40, 50], view: { shape: [36, 40], strides: [1, 50], offset: 7 } },
      { x: [40, 50], view: { shape: [50, 40], strides: [1, -50], offset: 39 * 50 } },
      // below the tile: the general kernel
      { x: [31, 70], view: { shape: [70, 31], strides: [1, 70], offset: 0 } },
    ];
    for (const [i, c] of cases.entries()) {
      const tiled = c.view.shape.at(-1)! >= TILED_MIN && c.view.shape.at(-2)! >= TILED_MIN;
      expect(stridedPath(c.view, false), `case ${i}`).toBe(tiled ? 'tiled' : 'general');
      for (const d of ['float32', 'complex64', 'bool'] as const) await checkStrided(d, c.x, c.view, true, 20 + i, `${d} case ${i}`);
    }
  });

  gpuIt(`views past ${MAX_UNIFORM_DIMS} dims (one dispatch per outer index)`, async () => {
    // rank 18 of 2s, every other dim reversed so nothing merges
    const shape = new Array<number>(18).fill(2);
    const s = rowMajor(shape);
    const strides = s.map((v, k) => (k % 2 ? -v : v));
    const offset = s.reduce((a, v, k) => a + (k % 2 ? v : 0), 0);
    const perm = shape.map((_, k) => (k + 5) % 18);
    const view = { shape: perm.map((p) => shape[p]), strides: perm.map((p) => strides[p]), offset };
    expect(stridedPath(view, false)).toBe('general');
    await checkStrided('int32', shape, view, false, 30, 'rank 18');
    await checkStrided('complex64', shape, view, true, 31, 'rank 18 complex');
  });
});

describe('gpu triangle', () => {
  gpuIt('triu and tril for every k and dtype, batched and empty', async () => {
    for (const d of GPU_DTYPES) {
      for (const shape of [[2, 3, 5], [6, 4], [0, 3], [1, 1]]) {
        const size = shape.reduce((a, b) => a * b, 1);
        const host = hostData(d, size, 40);
        const x = gpuTensor(d, shape, host);
        const w = words(host), per = spe(d);
        const m = shape.at(-2)!, n = shape.at(-1)!;
        for (const k of [-100, -2, 0, 1, 5, 100]) {
          for (const upper of [true, false]) {
            const out = lookup('triangle', d, 'gpu', 'test')(x, upper, k);
            const ref = w.map((v, i) => {
              const e = Math.floor(i / per), j = e % n, r = Math.floor(e / n) % m;
              return (upper ? j - r >= k : j - r <= k) ? v : 0;
            });
            expectWords(await gpuWords(out), ref, `${d} ${shape} k=${k} upper=${upper}`);
            out.dispose();
          }
        }
        x.dispose();
      }
    }
  });
});

describe('gpu concat', () => {
  gpuIt('3 inputs along each dim of rank 3, every dtype (one empty)', async () => {
    for (const d of GPU_DTYPES) {
      for (let dim = 0; dim < 3; dim++) {
        const base = [2, 3, 4];
        const sizes = [2, dim === 1 ? 0 : 1, 3];
        const parts = sizes.map((k, i) => {
          const shape = base.map((v, j) => (j === dim ? k : v));
          const host = hostData(d, shape.reduce((a, b) => a * b, 1), 50 + 3 * dim + i);
          return { shape, w: words(host), t: gpuTensor(d, shape, host) };
        });
        const out = lookup('concat', d, 'gpu', 'test')(parts.map((p) => p.t), dim);
        const shape = base.map((v, j) => (j === dim ? sizes.reduce((a, b) => a + b, 0) : v));
        expect(out.shape).toEqual(shape);
        // reference: walk the output, find the part and its element
        const ref: number[] = [], per = spe(d);
        const idx = [0, 0, 0];
        for (let e = 0; e < shape.reduce((a, b) => a * b, 1); e++) {
          let c = idx[dim], pi = 0;
          while (c >= sizes[pi]) { c -= sizes[pi]; pi++; }
          const ps = parts[pi].shape, pidx = idx.map((v, j) => (j === dim ? c : v));
          const pe = (pidx[0] * ps[1] + pidx[1]) * ps[2] + pidx[2];
          for (let h = 0; h < per; h++) ref.push(parts[pi].w[pe * per + h]);
          for (let j = 2; j >= 0; j--) { if (++idx[j] < shape[j]) break; idx[j] = 0; }
        }
        expectWords(await gpuWords(out), ref, `${d} dim ${dim}`);
        out.dispose();
        for (const p of parts) p.t.dispose();
      }
    }
  });
});

describe('gpu take and put', () => {
  const idxTensor = (v: number[], shape = [v.length]) => Tensor.fromStorage('int32', shape, Int32Array.from(v)).to('gpu') as Tensor<'int32'>;

  gpuIt('take: duplicates, negative indices, index shape kept, every dtype', async () => {
    for (const d of GPU_DTYPES) {
      const host = hostData(d, 12, 60);
      const x = gpuTensor(d, [3, 4], host);
      const idx = [0, 11, 5, 5, -1, -12, 3, 0];
      const out = lookup('take', d, 'gpu', 'test')(x, idxTensor(idx, [2, 4]));
      expect(out.shape).toEqual([2, 4]);
      const w = words(host), per = spe(d);
      const ref = idx.flatMap((v) => { const j = v < 0 ? v + 12 : v; return w.slice(j * per, j * per + per); });
      expect(await gpuWords(out), d).toEqual(ref);
      x.dispose();
      out.dispose();
    }
  });

  gpuIt('take and put: an out-of-range index raises the deferred ArgumentError at the first read, 0 there', async () => {
    for (const d of ['float32', 'complex64'] as const) {
      const host = hostData(d, 6, 61);
      const x = gpuTensor(d, [6], host);
      const out = lookup('take', d, 'gpu', 'test')(x, idxTensor([1, 6, 2, -7, 9]));
      await expect(out.data()).rejects.toThrow(ArgumentError);
      // the check ran once: the data reads, 0 at the bad positions
      const w = await gpuWords(out), per = spe(d), hw = words(host);
      expect(w).toEqual([...hw.slice(per, 2 * per), ...new Array(per).fill(0), ...hw.slice(2 * per, 3 * per), ...new Array(2 * per).fill(0)]);
      const out2 = lookup('take', d, 'gpu', 'test')(x, idxTensor([0, 0, 100]));
      await expect(out2.data()).rejects.toThrow(/^take: index entry 2 is out of range for x with 6 elements/);
      for (const acc of [false, true]) {
        const vals = gpuTensor(d, [3], hostData(d, 3, 62));
        const p = lookup('put', d, 'gpu', 'test')(x, idxTensor([5, -7, 1]), vals, acc);
        await expect(p.data()).rejects.toThrow(/^put: index entry 1 is out of range for x with 6 elements/);
        vals.dispose();
        p.dispose();
      }
      x.dispose();
      out.dispose();
      out2.dispose();
    }
  });

  gpuIt('put without accumulate: a repeated index keeps its last value (as on the CPU), every dtype', async () => {
    for (const d of GPU_DTYPES) {
      const per = spe(d);
      const host = hostData(d, 10, 70);
      const vhost = hostData(d, 5, 71);
      const x = gpuTensor(d, [2, 5], host);
      const vals = gpuTensor(d, [5], vhost);
      const idx = [3, 0, -1, 7, 3];
      const out = lookup('put', d, 'gpu', 'test')(x, idxTensor(idx), vals, false);
      expect(out.shape).toEqual([2, 5]);
      const w = await gpuWords(out), xw = words(host), vw = words(vhost);
      const ref = [...xw];
      for (const [i, v] of idx.entries()) { const j = v < 0 ? v + 10 : v; ref.splice(j * per, per, ...vw.slice(i * per, i * per + per)); }
      expect(w, d).toEqual(ref);
      // x itself is unchanged
      expect(await gpuWords(x)).toEqual(xw);
      for (const t of [x, vals, out]) t.dispose();
    }
  });

  gpuIt('uint32 index tensors are unsigned: 2^32 − 1 is out of range, not −1', async () => {
    const x = gpuTensor('float32', [4], Float32Array.of(1, 2, 3, 4));
    const u = (v: number[]) => Tensor.fromStorage('uint32', [v.length], Uint32Array.from(v)).to('gpu') as unknown as Tensor<'int32'>;
    expect(Array.from(await lookup('take', 'float32', 'gpu', 'test')(x, u([3, 0])).data())).toEqual([4, 1]);
    await expect(lookup('take', 'float32', 'gpu', 'test')(x, u([0, 0xffffffff])).data()).rejects.toThrow(/index entry 1 is out of range/);
    const vals = gpuTensor('float32', [2], Float32Array.of(7, 8));
    await expect(lookup('put', 'float32', 'gpu', 'test')(x, u([0x80000000, 1]), vals, true).data()).rejects.toThrow(/index entry 0 is out of range/);
    expect(Array.from(await lookup('put', 'float32', 'gpu', 'test')(x, u([2, 1]), vals, false).data())).toEqual([1, 8, 7, 4]);
  });

  gpuIt('empty x or empty index: take/put of nothing, any index into an empty x out of range', async () => {
    const empty = gpuTensor('float32', [0, 3], new Float32Array(0));
    const none = idxTensor([], [0]);
    const t = lookup('take', 'float32', 'gpu', 'test')(empty, none);
    expect(t.shape).toEqual([0]);
    expect((await t.data()).length).toBe(0);
    const p = lookup('put', 'float32', 'gpu', 'test')(empty, none, gpuTensor('float32', [0], new Float32Array(0)), false);
    expect(p.shape).toEqual([0, 3]);
    expect((await p.data()).length).toBe(0);
    await expect(lookup('take', 'float32', 'gpu', 'test')(empty, idxTensor([0])).data()).rejects.toThrow(/x with 0 elements/);
    const v = gpuTensor('float32', [1], Float32Array.of(1));
    for (const acc of [false, true]) {
      await expect(lookup('put', 'float32', 'gpu', 'test')(empty, idxTensor([-1]), v, acc).data()).rejects.toThrow(/index entry 0 is out of range/);
    }
  });

  // a long run of one repeated index: the last of 5000 writers wins on every run
  gpuIt('put without accumulate: the last of many writers to one element wins', async () => {
    const count = 5000;
    const vals = gpuTensor('int32', [count], Int32Array.from({ length: count }, (_, i) => i + 1));
    const x = gpuTensor('int32', [3], Int32Array.of(0, 0, 0));
    const out = lookup('put', 'int32', 'gpu', 'test')(x, idxTensor(Array.from({ length: count }, (_, i) => i % 2)), vals, false);
    expect(Array.from(await out.data())).toEqual([count - 1, count, 0]);
  });

  gpuIt('put with accumulate: every duplicate counted (int wrap, bool or, float sums within rounding)', async () => {
    const n = 7, count = 3000;
    const next = lcg(80);
    const idx = Array.from({ length: count }, () => (next() % (2 * n)) - n);
    for (const d of GPU_DTYPES) {
      const per = spe(d);
      let xh: Float32Array | Int32Array | Uint32Array | Uint8Array, vh: typeof xh;
      if (d === 'float32' || d === 'complex64') {
        xh = Float32Array.from({ length: n * per }, () => (next() % 1000) / 8 - 60);
        vh = Float32Array.from({ length: count * per }, () => ((next() % 2001) - 1000) / 64);
      } else {
        xh = hostData(d, n, 81);
        vh = hostData(d, count, 82);
        if (d === 'bool') { xh.fill(0); xh[2] = 1; }
      }
      const x = gpuTensor(d, [n], xh), vals = gpuTensor(d, [count], vh);
      const out = lookup('put', d, 'gpu', 'test')(x, idxTensor(idx), vals, true);
      const got = await out.data();
      const ref = Array.from(xh, Number), mag = ref.map(Math.abs);
      for (const [i, v] of idx.entries()) {
        const j = v < 0 ? v + n : v;
        for (let h = 0; h < per; h++) {
          const a = Number(vh[i * per + h]);
          if (d === 'bool') ref[j] = ref[j] || a;
          else if (d === 'int32') ref[j] = (ref[j] + a) | 0;
          else if (d === 'uint32') ref[j] = (ref[j] + a) >>> 0;
          else { ref[j * per + h] += a; mag[j * per + h] += Math.abs(a); }
        }
      }
      if (d === 'float32' || d === 'complex64') {
        // float32 sums in any order: |error| ≤ count · eps · Σ|terms|
        for (let k = 0; k < ref.length; k++) expect(Math.abs(got[k] - ref[k]), `${d} ${k}`).toBeLessThanOrEqual(count * 2 ** -24 * mag[k]);
      } else {
        expect(Array.from(got, Number), d).toEqual(ref.map(Number));
      }
      for (const t of [x, vals, out]) t.dispose();
    }
  });
});

describe('the public shape and indexing functions on the GPU against the CPU', () => {
  // the same call on a CPU tensor and its GPU copy: equal shapes and bits (float sums of put accumulate aside)
  async function both(d: GD, shape: number[], seed: number, f: (x: Tensor) => Tensor | Tensor[], label: string): Promise<void> {
    const host = hostData(d, shape.reduce((a, b) => a * b, 1), seed);
    const xc = Tensor.fromStorage(d, shape, host as never);
    const xg = xc.to('gpu');
    const rc = [f(xc)].flat(), rg = [f(xg)].flat();
    expect(rg.length, label).toBe(rc.length);
    for (let i = 0; i < rc.length; i++) {
      expect(rg[i].device).toBe('gpu');
      expect(rg[i].shape, label).toEqual(rc[i].shape);
      expectWords(await gpuWords(rg[i]), words(rc[i].dataSync() as Float32Array), `${label} [${i}]`);
      rg[i].dispose();
    }
    xg.dispose();
  }

  gpuIt('transpose, permute, mT, mH, slice, diagonal, expand, triu/tril, concat, stack, split, take, put', async () => {
    for (const d of GPU_DTYPES) {
      await both(d, [2, 3, 4, 5], 90, (x) => permute(x, [3, 1, 0, 2]), `${d} permute`);
      await both(d, [3, 34, 40], 91, (x) => matrixTranspose(x), `${d} mT`);
      await both(d, [34, 40], 92, (x) => adjoint(x), `${d} mH`);
      await both(d, [4, 5, 6], 93, (x) => transpose(x, 0, 2), `${d} transpose`);
      await both(d, [6, 7, 8], 94, (x) => slice(x, '::-2', '1:6', '-1::-3'), `${d} slice`);
      await both(d, [3, 4, 6], 95, (x) => diagonal(x, { offset: -1, dim1: 0, dim2: 2 }), `${d} diagonal`);
      await both(d, [3, 1], 96, (x) => expand(x, [2, 3, 4]), `${d} expand`);
      await both(d, [2, 5, 4], 97, (x) => [triu(x, 1), tril(x, -1)], `${d} triu/tril`);
      await both(d, [3, 4], 98, (x) => [concat([x, x, slice(x, ':', '1:3')], 1), concat([x, slice(x, '1:'), x], 0)], `${d} concat`);
      await both(d, [3, 4], 99, (x) => [stack([x, x, x], 2), ...split(x, [1, 3], 1)], `${d} stack/split`);
      await both(d, [3, 4], 100, (x) => take(x, [[11, 0], [-1, 5]]), `${d} take`);
      await both(d, [3, 4], 101, (x) => put(x, [2, -1, 2], slice(take(x, [0, 1, 3]), '::-1')), `${d} put`);
    }
    // put with accumulate through the public function: exact for integers, close for floats
    const xi = Tensor.fromStorage('int32', [4], Int32Array.of(1, 2, 3, 0x7fffffff));
    const vi = Tensor.fromStorage('int32', [3], Int32Array.of(1, 1, 5));
    const r = put(xi.to('gpu'), [3, 3, 0], vi.to('gpu'), { accumulate: true });
    expect(Array.from(await r.data())).toEqual(Array.from(put(xi, [3, 3, 0], vi, { accumulate: true }).dataSync()));
    expect(Array.from(await r.data())).toEqual([6, 2, 3, -0x7fffffff]);
    // a GPU index tensor out of range: the error at the first read
    const xg = Tensor.fromStorage('float32', [4], Float32Array.of(1, 2, 3, 4)).to('gpu');
    const idx = Tensor.fromStorage('int32', [2], Int32Array.of(0, 4)).to('gpu');
    await expect(take(xg, idx).data()).rejects.toThrow(ArgumentError);
    // a deferred check carried by a derived tensor runs once: reading the result, then the
    // tensor derived from it, gives the same error both times (not a freed status buffer)
    const bad = take(xg, idx);
    const derived = slice(bad, '::-1');
    await expect(bad.data()).rejects.toThrow(/^take: index entry 1 is out of range/);
    await expect(derived.data()).rejects.toThrow(/^take: index entry 1 is out of range/);
  });
});
