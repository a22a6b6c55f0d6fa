// float16 on the GPU: two halves per u32 word (an odd count pads the last word). Moves
// keep every bit; the cast kernels (shaders/elementwise/cast_f16.wgsl, integer-only)
// give the CPU's bits exactly in both directions, for every half and for float32 values at
// every rounding boundary, NaN payloads included; odd lengths write no word twice.
// Two kernel variants (float32 → float16, float16 → float32) plus the existing casts.
import { describe, expect } from 'vitest';
import { Tensor, tensor, cast, DTypeError, linalg, gpu } from '../../src/index.js';
import { float32BitsToHalf, halfToFloat32Bits, halfFromNumbers } from '../../src/core/half.js';
import { useGpu, gpuIt } from '../helpers/gpu.js';
import { defineProgram, runProgram } from '../../src/backend/gpu/program.js';
import { preprocess } from '../../src/backend/gpu/preprocess.js';

useGpu();

/** Seeded xorshift32. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s;
  };
}

/** Indices where two arrays differ (the first 5): toEqual on 10^5 elements is slow. */
function diff(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  if (a.length !== b.length) return [-1];
  for (let i = 0; i < a.length && out.length < 5; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

const halves = (n: number, seed: number) => {
  const r = rng(seed);
  return Uint16Array.from({ length: n }, () => r() & 0xffff);
};

describe('float16 on the GPU', () => {
  gpuIt('to("gpu") and back keeps every bit, odd and even lengths', async () => {
    for (const n of [0, 1, 2, 3, 7, 1001]) {
      const h = halves(n, n + 1);
      const g = Tensor.fromStorage('float16', [n], h).to('gpu');
      expect(g.dtype).toBe('float16');
      expect(g.device).toBe('gpu');
      const d = await g.data();
      expect(d).toBeInstanceOf(Uint16Array);
      expect(d).toEqual(h);
      const back = await g.toAsync('cpu');
      expect(back.dtype).toBe('float16');
      expect(back.dataSync()).toEqual(h);
      g.dispose();
    }
    // a view at an odd half offset (byteOffset 2) uploads its own elements
    const big = halves(9, 99);
    for (const [a, b] of [[1, 5], [3, 6]]) {
      const v = Tensor.fromStorage('float16', [b - a], big.subarray(a, b)).to('gpu');
      expect(await v.data()).toEqual(big.slice(a, b));
    }
    const t = tensor([[1, 2.5, -3]], { dtype: 'float16', device: 'gpu' });
    expect(await t.toArrayAsync()).toEqual([[1, 2.5, -3]]);
    expect(await t.reshape([3, 1]).toArrayAsync()).toEqual([[1], [2.5], [-3]]);
    expect(await t.toStringAsync()).toBe('tensor([[ 1.0000,  2.5000, -3.0000]], dtype=float16, device=gpu)');
    expect(t.toString()).toContain('dtype=float16, device=gpu');
  });

  gpuIt('cast float16 → float32 on the GPU: every half, bit for bit as the CPU (NaN payloads kept)', async () => {
    // all 65536 patterns, then an odd count whose last word holds one element
    const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
    for (const h of [all, all.subarray(0, 65535), all.subarray(31744, 31747)]) {
      const x = Tensor.fromStorage('float16', [h.length], h.slice());
      const y = cast(x.to('gpu'), 'float32');
      expect(y.dtype).toBe('float32');
      const got = new Uint32Array((await y.data() as Float32Array).buffer);
      const want = Uint32Array.from(h, halfToFloat32Bits);
      expect(diff(got, want)).toEqual([]);
      expect(diff(new Uint32Array((cast(x, 'float32').dataSync() as Float32Array).buffer), want)).toEqual([]);
    }
  });

  gpuIt('cast float32 → float16 on the GPU: rounding boundaries, NaN, odd lengths, bit for bit as the CPU', async () => {
    // float32 values at, around and between every pair of neighbouring halves, both signs
    const bits: number[] = [];
    for (let h = 0; h < 0x7c00; h++) {
      const lo = halfToFloat32Bits(h);
      const hi = h === 0x7bff ? 0x477ff000 : halfToFloat32Bits(h + 1);
      const mid = h === 0x7bff ? 0x477ff000 : (lo + hi) >>> 1; // the float32 halfway (same binade or the carry)
      for (const b of [lo, mid - 1, mid, mid + 1]) bits.push(b >>> 0, (b | 0x80000000) >>> 0);
    }
    const r = rng(7);
    for (let i = 0; i < 20001; i++) bits.push(r());
    bits.push(0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffa02000, 0x7f7fffff, 0x00000001, 0x80000000);
    for (const n of [bits.length, bits.length - 1, 1]) {
      const u = Uint32Array.from(bits.slice(0, n));
      const x = Tensor.fromStorage('float32', [n], new Float32Array(u.buffer));
      const y = cast(x.to('gpu'), 'float16');
      expect(y.dtype).toBe('float16');
      const got = await y.data() as Uint16Array;
      const want = Uint16Array.from(u, float32BitsToHalf);
      expect(got).toBeInstanceOf(Uint16Array);
      expect(diff(got, want)).toEqual([]);
      expect(diff(x.cast('float16').dataSync(), want)).toEqual([]);
    }
  });

  gpuIt('cast between float16 and the other GPU dtypes (through float32) matches the CPU', async () => {
    const h = halfFromNumbers([0.5, -2.75, 70000, 1e-7, NaN, -0, 3, 1e4, -1]);
    const x = Tensor.fromStorage('float16', [h.length], h);
    const xg = x.to('gpu');
    for (const to of ['int32', 'uint32', 'bool', 'complex64'] as const) {
      const g = cast(xg, to);
      expect(g.dtype).toBe(to);
      expect(await g.data()).toEqual(cast(x, to).dataSync());
    }
    const i = tensor([3, -70000, 2049, 0], { dtype: 'int32' });
    expect(await cast(i.to('gpu'), 'float16').data()).toEqual(cast(i, 'float16').dataSync());
    const b = tensor([true, false, true]);
    expect(await cast(b.to('gpu'), 'float16').data()).toEqual(cast(b, 'float16').dataSync());
    expect(cast(xg, 'float16')).toBe(xg);
    expect(() => cast(tensor([{ re: 1, im: 1 }], { dtype: 'complex64', device: 'gpu' }), 'float16')).toThrow(/imaginary/);
  });

  gpuIt('common/half.wgsl pack_half2 (for kernels storing computed f32 values) rounds as the CPU', async () => {
    // float32 values computed in registers (finite, subnormal-half, overflow, ±0); NaN payloads are the cast's job
    const r = rng(11);
    const vals: number[] = [];
    for (let i = 0; i < 4001; i++) vals.push(Math.fround((r() / 2 ** 32 - 0.5) * 2 ** ((r() % 44) - 26)));
    vals.push(65519, 65520, -1e9, 0, -0, 2 ** -25, 3 * 2 ** -25, 2 ** -14 - 2 ** -26, Infinity, -Infinity);
    const n = vals.length;
    const prog = defineProgram({
      name: 'test_pack_half2', key: 'v1', entryPoint: 'main', workgroupSize: [64, 1, 1],
      decl: { inputs: { x: 'f32' }, outputs: { out: 'u32' }, uniforms: { count: 'u32' } },
      body: () => preprocess([
        '#include "common/half.wgsl"',
        '@compute @workgroup_size(64)',
        'fn main(@builtin(global_invocation_id) gid: vec3u) {',
        '  let w = gid.x;',
        '  if (2u * w >= p.count) { return; }',
        '  let b = select(0.0, x[2u * w + 1u], 2u * w + 1u < p.count);',
        '  out[w] = pack_half2(x[2u * w], b);',
        '}',
      ].join('\n'), {}),
    });
    const x = tensor(vals, { dtype: 'float32', device: 'gpu' });
    const out = Tensor.fromStorage('float16', [n], new Uint16Array(n)).to('gpu');
    runProgram(prog, { inputs: { x: x.gpuStorage() }, outputs: { out: out.gpuStorage() }, uniforms: { count: n }, workgroups: Math.ceil(n / 128) });
    const got = await out.data() as Uint16Array;
    expect(diff(got, halfFromNumbers(vals))).toEqual([]);
  });

  gpuIt('kernels refuse float16 with a DTypeError that says to cast; the pool keeps no odd sizes', async () => {
    const A = tensor([[2, 1], [1, 3]], { dtype: 'float16', device: 'gpu' });
    expect(() => linalg.matmul(A, A)).toThrow(DTypeError);
    expect(() => linalg.matmul(A, A)).toThrow(/float16 is a storage dtype .*cast the input to float32 first/);
    const A32 = A.cast('float32');
    expect(await linalg.matmul(A32, A32).toArrayAsync()).toEqual([[5, 5], [5, 10]]);
    // a loop of odd-length uploads and casts reuses pooled buffers
    let created = 0;
    for (let k = 0; k < 20; k++) {
      const before = gpu.memory().buffersCreated;
      const t = tensor([1, 2, k], { dtype: 'float16', device: 'gpu' });
      const f = t.cast('float32');
      const back = f.cast('float16');
      expect(await back.toArrayAsync()).toEqual([1, 2, k]);
      t.dispose(); f.dispose(); back.dispose();
      if (k > 0) created += gpu.memory().buffersCreated - before;
    }
    expect(created).toBe(0);
  });
});
