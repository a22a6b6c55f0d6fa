// IEEE binary16 (dtype float16) ↔ float32 on the bits, integer-only: the CPU's
// src/core/half.ts line by line, so a cast gives the same bits on both devices. (WGSL's
// pack2x16float leaves the rounding direction to the implementation and an out-of-range
// value indeterminate; these round to nearest even, overflow to ±inf and keep NaN.)
// Storage: two halves per u32 word, element 2i in the low 16 bits.

// float32 bits → half bits: ties to even; ≥ 65520 → ±inf; NaN keeps its sign and top payload bits.
fn f16_from_f32_bits(u: u32) -> u32 {
  let sign = (u >> 16u) & 0x8000u;
  let a = u & 0x7fffffffu;
  if (a > 0x7f800000u) {
    let m = (a >> 13u) & 0x3ffu;
    return sign | 0x7c00u | select(m, 0x200u, m == 0u);
  }
  if (a >= 0x477ff000u) { return sign | 0x7c00u; }
  if (a >= 0x38800000u) {
    // normal: rebias the exponent (127 → 15), round the 13 dropped bits to nearest even
    return sign | (((a + 0xfffu + ((a >> 13u) & 1u)) >> 13u) - 0x1c000u);
  }
  if (a <= 0x33000000u) { return sign; }
  // subnormal: the 24-bit significand in units of 2^-24, rounded to nearest even
  let s = 126u - (a >> 23u);
  let m = (a & 0x7fffffu) | 0x800000u;
  let q = m >> s;
  let rem = m & ((1u << s) - 1u);
  let half = 1u << (s - 1u);
  return sign | select(q, q + 1u, rem > half || (rem == half && (q & 1u) == 1u));
}

// half bits (low 16 bits of h) → float32 bits, exact (NaN payloads kept).
fn f32_bits_from_f16(h: u32) -> u32 {
  let sign = (h & 0x8000u) << 16u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 0x1fu) { return sign | 0x7f800000u | (m << 13u); }
  if (e != 0u) { return sign | ((e + 112u) << 23u) | (m << 13u); }
  if (m == 0u) { return sign; }
  let p = firstLeadingBit(m);
  return sign | ((p + 103u) << 23u) | ((m << (23u - p)) & 0x7fffffu);
}

// Two float32 values → one word of halves (a first, in the low bits), rounded as above.
fn pack_half2(a: f32, b: f32) -> u32 {
  return f16_from_f32_bits(bitcast<u32>(a)) | (f16_from_f32_bits(bitcast<u32>(b)) << 16u);
}
