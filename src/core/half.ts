// IEEE 754 binary16 ("half", dtype float16) conversions: the one place lapis turns numbers
// into half bits and back. Node 20 has no Float16Array, so float16 storage is a Uint16Array
// of bits. Rounding is to nearest, ties to even; values past the largest half (65504) round
// to ±Infinity (at 65520 and above, as IEEE overflow does); subnormals are exact; NaN stays
// NaN. The float32-bits functions are integer-only and are mirrored line by line by the GPU
// cast (shaders/common/half.wgsl), so both devices give the same bits.

/** Largest finite half. */
export const HALF_MAX = 65504;
/** Smallest positive normal half, 2^-14. */
export const HALF_MIN_NORMAL = 6.103515625e-5;
/** Smallest positive subnormal half, 2^-24. */
export const HALF_MIN_SUBNORMAL = 5.960464477539063e-8;

/** 2^k for k in [-24, 24], exact (products of 2 are exact; Math.pow need not be). */
const POW2 = (() => {
  const t = new Float64Array(49);
  t[24] = 1;
  for (let k = 1; k <= 24; k++) { t[24 + k] = t[23 + k] * 2; t[24 - k] = t[25 - k] / 2; }
  return t;
})();

/** Round to nearest integer, ties to even, for 0 ≤ v < 2^52. */
function rintEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f; // exact: v and f share the binade or f is 0
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/**
 * The half bits nearest to `x` (a float64), rounded once (no double rounding through
 * float32). NaN → 0x7e00 (JS numbers do not keep NaN payloads); −0 → 0x8000.
 */
export function toHalfBits(x: number): number {
  if (x !== x) return 0x7e00;
  const sign = x < 0 || (x === 0 && 1 / x < 0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a >= 65520) return sign | 0x7c00; // 65520 is the tie between 65504 and 2^16: even is 2^16 = overflow
  if (a < HALF_MIN_NORMAL) return sign | rintEven(a * 16777216); // subnormal: units of 2^-24 (1024 is the smallest normal)
  let e = Math.floor(Math.log2(a)); // a in [2^-14, 65520): e in [-14, 15], corrected below
  if (POW2[24 + e] > a) e--;
  else if (POW2[25 + e] <= a) e++;
  // a·2^(10−e) in [1024, 2048): 10 mantissa bits; a carry to 2048 bumps the exponent by itself
  return sign | (((e + 14) << 10) + rintEven(a * POW2[34 - e]));
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The number a half's bits stand for. */
export function fromHalfBits(h: number): number {
  U32[0] = halfToFloat32Bits(h);
  return F32[0];
}

/**
 * float32 bits → half bits, integer-only (the GPU cast does the same, shaders/common/half.wgsl).
 * A NaN keeps its sign and the top 10 bits of its payload (a payload that would vanish
 * becomes the quiet bit), so every half survives half → float32 → half unchanged.
 */
export function float32BitsToHalf(u: number): number {
  const sign = (u >>> 16) & 0x8000;
  const a = u & 0x7fffffff;
  if (a > 0x7f800000) {
    const m = (a >>> 13) & 0x3ff;
    return sign | 0x7c00 | (m === 0 ? 0x200 : m);
  }
  if (a >= 0x477ff000) return sign | 0x7c00; // ≥ 65520 (and ∞): overflow
  if (a >= 0x38800000) {
    // normal half: rebias the exponent (127 → 15) and round the 13 dropped bits to nearest even
    return sign | (((a + 0xfff + ((a >>> 13) & 1)) >>> 13) - 0x1c000);
  }
  if (a <= 0x33000000) return sign; // ≤ 2^-25: the tie at 2^-25 rounds to even 0
  // subnormal half: the 24-bit significand shifted to units of 2^-24, rounded to nearest even
  const e = a >>> 23; // 102 … 112
  const m = (a & 0x7fffff) | 0x800000;
  const s = 126 - e; // 14 … 24
  const q = m >>> s;
  const rem = m & ((1 << s) - 1), half = 1 << (s - 1);
  return sign | (rem > half || (rem === half && (q & 1) === 1) ? q + 1 : q);
}

/** Half bits → float32 bits (exact; NaN payloads kept), integer-only like the GPU's. */
export function halfToFloat32Bits(h: number): number {
  const sign = (h & 0x8000) << 16;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0x1f) return (sign | 0x7f800000 | (m << 13)) >>> 0;
  if (e !== 0) return (sign | ((e + 112) << 23) | (m << 13)) >>> 0;
  if (m === 0) return sign >>> 0;
  const p = 31 - Math.clz32(m); // leading bit of the subnormal significand, 0 … 9
  return (sign | ((p + 103) << 23) | ((m << (23 - p)) & 0x7fffff)) >>> 0;
}

let table: Float32Array | undefined;
/** Every half's float32 value (256 KiB, made on first use): bulk decoding is one lookup per element. */
function halfTable(): Float32Array {
  if (!table) {
    const bits = new Uint32Array(65536);
    for (let h = 0; h < 65536; h++) bits[h] = halfToFloat32Bits(h);
    table = new Float32Array(bits.buffer);
  }
  return table;
}

/** float32 values → half bits (bit-exact with the GPU cast; `out` is reused when given). */
export function halfFromFloat32(src: Float32Array, out: Uint16Array = new Uint16Array(src.length)): Uint16Array {
  const u = new Uint32Array(src.buffer, src.byteOffset, src.length);
  for (let i = 0; i < u.length; i++) out[i] = float32BitsToHalf(u[i]);
  return out;
}

/** Half bits → float32 values (exact, NaN payloads kept). */
export function halfToFloat32(src: Uint16Array, out: Float32Array = new Float32Array(src.length)): Float32Array {
  const t = new Uint32Array(halfTable().buffer);
  const o = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < src.length; i++) o[i] = t[src[i]];
  return out;
}

/** Numbers (any array of them, float64 or integer typed arrays) → half bits, each rounded once. */
export function halfFromNumbers(src: ArrayLike<number>, out: Uint16Array = new Uint16Array(src.length)): Uint16Array {
  for (let i = 0; i < src.length; i++) out[i] = toHalfBits(src[i]);
  return out;
}

/** Half bits → float64 values (exact). */
export function halfToFloat64(src: Uint16Array, out: Float64Array = new Float64Array(src.length)): Float64Array {
  const t = halfTable();
  for (let i = 0; i < src.length; i++) out[i] = t[src[i]];
  return out;
}
