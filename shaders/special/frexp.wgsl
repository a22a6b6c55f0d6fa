// frexp on the bits: integer operations only, so subnormals are exact and the sign of
// zero and NaN payloads survive (WGSL's builtin frexp is indeterminate for subnormal,
// Inf and NaN inputs, and float arithmetic may flush subnormals). x = m · 2^e with
// 0.5 ≤ |m| < 1; ±0, ±Inf and NaN give (x, 0). Each workgroup takes a tile of
// WG·PER elements, thread lid reading lid, lid + WG, …: every load is coalesced.
// Bindings (src/backend/gpu/special.ts): x → mant, expo; uniform total.
#include "common/linear_id.wgsl"

fn frexp_one(b: u32) -> vec2u {
  let be = (b >> 23u) & 0xffu;
  let frac = b & 0x7fffffu;
  if (be == 0xffu || (be == 0u && frac == 0u)) {
    return vec2u(b, 0u);  // ±Inf, NaN, ±0: (x, 0)
  }
  if (be == 0u) {
    // subnormal: frac · 2^-149 with its leading one at bit 31 − clz
    let lz = countLeadingZeros(frac);
    let m = (b & 0x80000000u) | (126u << 23u) | ((frac << (lz - 8u)) & 0x7fffffu);
    return vec2u(m, bitcast<u32>(-117i - i32(lz)));
  }
  return vec2u((b & 0x807fffffu) | (126u << 23u), bitcast<u32>(i32(be) - 126i));
}

@compute @workgroup_size(${WG})
fn frexp_bits_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                       @builtin(local_invocation_index) lid: u32) {
  let tile = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u);
  let base = tile + lid;
  if (tile + ${WG}u * ${PER}u <= p.total) {
    // Whole tile in range: all loads first, so they are in flight together.
    var b: array<u32, ${PER}>;
    for (var k = 0u; k < ${PER}u; k++) { b[k] = x[base + k * ${WG}u]; }
    for (var k = 0u; k < ${PER}u; k++) {
      let r = frexp_one(b[k]);
      mant[base + k * ${WG}u] = r.x;
      expo[base + k * ${WG}u] = bitcast<i32>(r.y);
    }
    return;
  }
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.total) { return; }
    let r = frexp_one(x[i]);
    mant[i] = r.x;
    expo[i] = bitcast<i32>(r.y);
  }
}
