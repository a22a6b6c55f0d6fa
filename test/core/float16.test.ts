// float16: the storage dtype (IEEE binary16 bits in a Uint16Array, src/core/half.ts).
// The conversions against an independent reference (the nearest of all 63,490 finite
// halves, found by search over their exact values), every bit pattern, ties to even at
// the boundaries; creation, reading, printing and cast on the CPU; linalg refuses it.
import { describe, expect, it } from 'vitest';
import { Tensor, tensor, zeros, eye, randn, cast, DTypeError, linalg, add, mul, toMlMatrix } from '../../src/index.js';
import {
  toHalfBits, fromHalfBits, float32BitsToHalf, halfToFloat32Bits, halfFromFloat32, halfToFloat32,
  halfFromNumbers, halfToFloat64, HALF_MAX, HALF_MIN_NORMAL, HALF_MIN_SUBNORMAL,
} from '../../src/core/half.js';
import { bytesPerScalar, epsOf, isFloating, realOf, storageCtor, FLOAT_DTYPES, REAL_DTYPES, DTYPES } from '../../src/core/dtype.js';

// ---------------------------------------------------------------- an independent reference

/** The value of half bits from the definition: (−1)^s · 2^(e−15) · (1 + m/1024), subnormal 2^−14 · m/1024. */
function refValue(h: number): number {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 31) return m ? NaN : s * Infinity;
  return e === 0 ? s * 2 ** -14 * (m / 1024) : s * 2 ** (e - 15) * (1 + m / 1024);
}

/** Non-negative finite halves in increasing order (bits 0 … 0x7bff: the order of their values). */
const POS = Array.from({ length: 0x7c00 }, (_, h) => refValue(h));

/** Nearest half by binary search over the exact values; ties to the even bit pattern; ≥ 65520 overflows. */
function refToHalf(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00;
  let lo = 0, hi = POS.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (POS[mid] <= a) lo = mid; else hi = mid;
  }
  if (a >= POS[hi]) lo = hi;
  if (lo === POS.length - 1 || POS[lo] === a) return sign | lo;
  const dl = a - POS[lo], dh = POS[lo + 1] - a;
  return sign | (dl < dh ? lo : dh < dl ? lo + 1 : lo % 2 === 0 ? lo : lo + 1);
}

const f32 = (bits: number) => new Float32Array(new Uint32Array([bits >>> 0]).buffer)[0];
const bitsOf32 = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0];

/** Seeded xorshift32. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s;
  };
}

// ---------------------------------------------------------------- conversions

describe('half conversions', () => {
  it('every bit pattern decodes to its defined value, and back to itself', () => {
    const bad: string[] = [];
    let nans = 0;
    for (let h = 0; h < 65536; h++) {
      const v = fromHalfBits(h);
      const ref = refValue(h);
      if (Number.isNaN(ref)) {
        nans++;
        if (!Number.isNaN(v) || toHalfBits(v) !== 0x7e00) bad.push(`value ${h.toString(16)}`);
      } else if (!Object.is(v, ref) || toHalfBits(v) !== h) bad.push(`value ${h.toString(16)}`);
      // through float32 bits every pattern survives, NaN payloads and signs included
      if (float32BitsToHalf(halfToFloat32Bits(h)) !== h) bad.push(`round trip ${h.toString(16)}`);
      const want = Number.isNaN(ref) ? ((h & 0x8000) << 16 | 0x7f800000 | (h & 0x3ff) << 13) >>> 0 : bitsOf32(ref);
      if (halfToFloat32Bits(h) !== want) bad.push(`float32 bits ${h.toString(16)}`);
    }
    expect(nans).toBe(2046);
    expect(bad).toEqual([]);
  });

  it('named constants and special values', () => {
    expect(toHalfBits(HALF_MAX)).toBe(0x7bff);
    expect(toHalfBits(HALF_MIN_NORMAL)).toBe(0x0400);
    expect(toHalfBits(HALF_MIN_SUBNORMAL)).toBe(0x0001);
    expect(toHalfBits(1)).toBe(0x3c00);
    expect(toHalfBits(-2)).toBe(0xc000);
    expect(toHalfBits(0)).toBe(0);
    expect(toHalfBits(-0)).toBe(0x8000);
    expect(toHalfBits(Infinity)).toBe(0x7c00);
    expect(toHalfBits(-Infinity)).toBe(0xfc00);
    expect(toHalfBits(1e300)).toBe(0x7c00);
    expect(toHalfBits(-1e-300)).toBe(0x8000);
    expect(fromHalfBits(0x3555)).toBe(0.333251953125);
  });

  it('ties round to even at the boundaries', () => {
    const ulp1 = 2 ** -10;
    expect(toHalfBits(1 + ulp1 / 2)).toBe(0x3c00); // tie between 1 (even) and 1 + ulp
    expect(toHalfBits(1 + 1.5 * ulp1)).toBe(0x3c02); // tie between 1 + ulp (odd) and 1 + 2ulp (even)
    expect(toHalfBits(1 + ulp1 / 2 + 2 ** -40)).toBe(0x3c01); // just past the tie
    expect(toHalfBits(65519.99)).toBe(0x7bff); // below the overflow tie
    expect(toHalfBits(65520)).toBe(0x7c00); // the tie 65504 (odd) / 2^16: even overflows
    expect(toHalfBits(2 ** -25)).toBe(0x0000); // tie between 0 (even) and the smallest subnormal
    expect(toHalfBits(2 ** -25 + 2 ** -60)).toBe(0x0001);
    expect(toHalfBits(3 * 2 ** -25)).toBe(0x0002); // tie between 1 and 2 subnormal units: 2
    expect(toHalfBits(HALF_MIN_NORMAL - 2 ** -26)).toBe(0x0400); // subnormal rounding carries into the smallest normal
    expect(toHalfBits(2048 + 1)).toBe(0x6800); // ulp 2 at 2048: 2049 ties to 2048 (even)
    expect(toHalfBits(2048 + 3)).toBe(0x6802);
    expect(toHalfBits(2047.5)).toBe(0x6800); // top of the binade below, ulp 1: 2047.5 ties up to 2048 (even)
  });

  it('float32 bits at every rounding boundary match the reference (both functions)', () => {
    // for each pair of neighbouring halves: the float32 values at, just below and just above their midpoint
    const bad: string[] = [];
    let checked = 0;
    for (let h = 0; h < 0x7c00; h++) {
      const mid = h === 0x7bff ? 65520 : (POS[h] + POS[h + 1]) / 2;
      const mb = bitsOf32(mid); // midpoints are exact float32 values
      if (f32(mb) !== mid) bad.push(`midpoint ${h}`);
      for (const b of [mb - 1, mb, mb + 1, bitsOf32(POS[h])]) {
        for (const s of [0, 0x80000000]) {
          const u = (b | s) >>> 0;
          const want = refToHalf(f32(u));
          if (float32BitsToHalf(u) !== want || toHalfBits(f32(u)) !== want) bad.push(u.toString(16));
          checked++;
        }
      }
    }
    expect(checked).toBe(0x7c00 * 8);
    expect(bad).toEqual([]);
  });

  it('random float32 and float64 values match the reference (Math.fround: no double rounding)', () => {
    const r = rng(15);
    for (let i = 0; i < 20000; i++) {
      const u = r();
      const x = f32(u);
      if (Number.isNaN(x)) {
        expect(float32BitsToHalf(u) & 0x7c00).toBe(0x7c00);
        expect(float32BitsToHalf(u) & 0x3ff).not.toBe(0);
        continue;
      }
      expect(float32BitsToHalf(u)).toBe(refToHalf(x));
      // a float64 rounded to half directly, not through float32 (which can round twice)
      const d = (r() / 2 ** 32 - 0.5) * 2 ** ((r() % 50) - 30);
      expect(toHalfBits(d)).toBe(refToHalf(d));
      expect(toHalfBits(Math.fround(d))).toBe(refToHalf(Math.fround(d)));
    }
    // a float64 just above a half-way point that float32 rounds onto it: half of it must round up
    const d = 1 + 2 ** -11 + 2 ** -30;
    expect(Math.fround(d)).toBe(1 + 2 ** -11);
    expect(toHalfBits(d)).toBe(0x3c01);
    expect(toHalfBits(Math.fround(d))).toBe(0x3c00);
  });

  it('NaN payloads: sign and top bits kept, a vanishing payload becomes the quiet bit', () => {
    expect(float32BitsToHalf(0x7fc00000)).toBe(0x7e00);
    expect(float32BitsToHalf(0xffc00000)).toBe(0xfe00);
    expect(float32BitsToHalf(0x7f800001)).toBe(0x7e00); // a payload below the kept bits: still NaN
    expect(float32BitsToHalf(0x7fa02000)).toBe(0x7d01);
    expect(halfToFloat32Bits(0x7d01)).toBe(0x7fa02000);
  });

  it('bulk functions agree with the scalar ones and reuse `out`', () => {
    const r = rng(3);
    const src = new Float32Array(1001);
    const u = new Uint32Array(src.buffer);
    for (let i = 0; i < src.length; i++) u[i] = r();
    const h = halfFromFloat32(src);
    for (let i = 0; i < src.length; i++) expect(h[i]).toBe(float32BitsToHalf(u[i]));
    const back = halfToFloat32(h);
    const bu = new Uint32Array(back.buffer);
    for (let i = 0; i < h.length; i++) expect(bu[i]).toBe(halfToFloat32Bits(h[i]));
    const d = halfToFloat64(h);
    for (let i = 0; i < h.length; i++) expect(Object.is(d[i], fromHalfBits(h[i])) || (Number.isNaN(d[i]) && Number.isNaN(fromHalfBits(h[i])))).toBe(true);
    const out = new Uint16Array(3);
    expect(halfFromNumbers([1, -0.5, 70000], out)).toBe(out);
    expect([...out]).toEqual([0x3c00, 0xb800, 0x7c00]);
  });
});

// ---------------------------------------------------------------- the dtype

describe('float16 dtype', () => {
  it('dtype table', () => {
    expect(DTYPES).toContain('float16');
    expect(bytesPerScalar('float16')).toBe(2);
    expect(storageCtor('float16')).toBe(Uint16Array);
    expect(epsOf('float16')).toBe(2 ** -10);
    expect(realOf('float16')).toBe('float32');
    // storage only: not among the dtypes that compute (the lists linalg registers)
    expect(isFloating('float16')).toBe(false);
    expect(FLOAT_DTYPES as readonly string[]).not.toContain('float16');
    expect(REAL_DTYPES as readonly string[]).not.toContain('float16');
  });

  it('creation rounds values to nearest even; a Uint16Array is the bits', () => {
    const t = tensor([[1, 2.5], [1 / 3, 1e6]], { dtype: 'float16' });
    expect(t.dtype).toBe('float16');
    expect(t.dataSync()).toBeInstanceOf(Uint16Array);
    expect([...t.dataSync()]).toEqual([0x3c00, 0x4100, 0x3555, 0x7c00]);
    expect(t.toArray()).toEqual([[1, 2.5], [0.333251953125, Infinity]]);
    expect(t.byteLength).toBe(8);
    const s = tensor(-0.1, { dtype: 'float16' });
    expect(s.dataSync()[0]).toBe(toHalfBits(-0.1));
    const bits = new Uint16Array([0x3c00, 0x7e00, 0x8001]);
    const w = Tensor.fromStorage('float16', [3], bits);
    expect(w.dataSync()).toBe(bits);
    const f = tensor({ data: bits, shape: [3], dtype: 'float16' });
    expect(f.dataSync()).toBe(bits); // the storage type is wrapped, as for every dtype
    const v = tensor({ data: [0.5, true, 2 ** -24], shape: [3], dtype: 'float16' });
    expect([...v.dataSync()]).toEqual([0x3800, 0x3c00, 0x0001]);
    const fromF32 = tensor(new Float32Array([65504, 65520, -1e-8]), { dtype: 'float16' });
    expect([...fromF32.dataSync()]).toEqual([0x7bff, 0x7c00, 0x8000]);
    const nested = tensor([[[NaN, -Infinity]]], { dtype: 'float16' });
    expect([...nested.dataSync()]).toEqual([0x7e00, 0xfc00]);
    expect(() => Tensor.fromStorage('float16', [2], new Float32Array(2) as never)).toThrow(/float16 needs a Uint16Array/);
    expect(() => tensor([[{ re: 1, im: 2 }]], { dtype: 'float16' })).toThrow(DTypeError);
  });

  it('zeros, eye and randn', () => {
    expect([...zeros([3], { dtype: 'float16' }).dataSync()]).toEqual([0, 0, 0]);
    expect(eye(2, { dtype: 'float16' }).toArray()).toEqual([[1, 0], [0, 1]]);
    const r16 = randn([50], { dtype: 'float16', seed: 4 });
    const r32 = randn([50], { dtype: 'float32', seed: 4 });
    expect([...r16.dataSync()]).toEqual([...halfFromFloat32(r32.dataSync())]);
  });

  it('prints values', () => {
    const t = tensor([1.5, -2, NaN, Infinity], { dtype: 'float16' });
    // as float32 prints the same values (torch's formatter), with the dtype's own name
    expect(t.toString()).toBe(tensor([1.5, -2, NaN, Infinity], { dtype: 'float32' }).toString().replace('float32', 'float16'));
    expect(t.toString()).toContain('-2.0000');
    expect(tensor([[1, 2]], { dtype: 'float16' }).toString()).toBe('tensor([[1., 2.]], dtype=float16)');
    expect(`${tensor([0.1], { dtype: 'float16' })}`).toBe('tensor([0.1000], dtype=float16)');
  });

  it('other readers see values: toMlMatrix', () => {
    class M {
      v: number[][];
      constructor(r: number, c: number) { this.v = Array.from({ length: r }, () => new Array<number>(c).fill(0)); }
      set(i: number, j: number, x: number) { this.v[i][j] = x; }
    }
    expect(toMlMatrix(tensor([[1.5, -2], [0.1, 4]], { dtype: 'float16' }), M).v).toEqual([[1.5, -2], [fromHalfBits(toHalfBits(0.1)), 4]]);
  });

  it('cast to and from every dtype on the CPU', () => {
    const x = tensor([0.1, -2.75, 70000, 1e-7, NaN, -0], { dtype: 'float64' });
    const h = cast(x, 'float16');
    expect(h.dtype).toBe('float16');
    expect([...h.dataSync()]).toEqual([toHalfBits(0.1), 0xc180, 0x7c00, 0x0002, 0x7e00, 0x8000]);
    const h32 = x.cast('float32').cast('float16');
    expect([...h32.dataSync()]).toEqual([...h.dataSync()]);
    expect(x.astype('float16').dtype).toBe('float16');
    // back: exact
    expect([...(h.cast('float64').dataSync() as Float64Array)]).toEqual([fromHalfBits(toHalfBits(0.1)), -2.75, Infinity, 2 ** -23, NaN, -0]);
    expect(h.cast('float32').dataSync()).toBeInstanceOf(Float32Array);
    // integers and bool go through the float rules
    expect(h.cast('int32').toArray()).toEqual([0, -2, 2147483647, 0, 0, 0]);
    expect(h.cast('uint32').toArray()).toEqual([0, 0, 4294967295, 0, 0, 0]);
    expect(h.cast('bool').toArray()).toEqual([true, true, true, true, true, false]);
    expect(h.cast('complex64').dtype).toBe('complex64');
    expect([...tensor([3, -70000], { dtype: 'int32' }).cast('float16').dataSync()]).toEqual([0x4200, 0xfc00]);
    expect([...tensor([true, false]).cast('float16').dataSync()]).toEqual([0x3c00, 0]);
    expect(h.cast('float16')).toBe(h);
    expect(() => tensor([{ re: 1, im: 1 }], { dtype: 'complex64' }).cast('float16')).toThrow(/imaginary/);
    // a tensor's dtype option converts with the same rounding
    expect([...tensor(tensor([1 / 3]), { dtype: 'float16' }).dataSync()]).toEqual([0x3555]);
  });

  it('arithmetic and linalg refuse float16 with a DTypeError that says to cast', () => {
    const A = tensor([[2, 1], [1, 3]], { dtype: 'float16' });
    expect(() => linalg.solve(A, A)).toThrow(DTypeError);
    expect(() => linalg.solve(A, A)).toThrow(/^solve: float16 is a storage dtype .*cast the input to float32 first/);
    expect(() => linalg.inv(A)).toThrow(/inv: float16 is a storage dtype/);
    expect(() => add(A, A)).toThrow(/add: float16 is a storage dtype/);
    expect(() => mul(A, 1.5)).toThrow(/mul: float16 is a storage dtype/);
    // mixed with a computing dtype it promotes (torch's rule) and computes there
    expect(linalg.solve(A, tensor([[2, 1], [1, 3]], { dtype: 'float32' })).dtype).toBe('float32');
    // the way out works
    expect(linalg.inv(A.cast('float32')).dtype).toBe('float32');
  });
});
