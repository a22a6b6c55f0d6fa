// frexp on the bits: integer operations only, so subnormals are exact and the sign of
// zero and NaN payloads survive (WGSL's builtin frexp is indeterminate for subnormal,
// Inf and NaN inputs, and float arithmetic may flush subnormals). x = m · 2^e with
// 0.5 ≤ |m| < 1; ±0, ±Inf and NaN give (x, 0). Each workgroup takes a tile of
// WG·PER elements, thread lid reading lid, lid + WG, …: every load is coalesced.
#include "common/linear_id.wgsl"

struct Params {
  total: u32,
}

@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> mant: array<u32>;
@group(0) @binding(2) var<storage, read_write> expo: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(${WG})
fn frexp_bits_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                       @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u) + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.total) { return; }
    let b = x[i];
    let be = (b >> 23u) & 0xffu;
    let frac = b & 0x7fffffu;
    var m = b;
    var e = 0i;
    if (be == 0xffu || (be == 0u && frac == 0u)) {
      // ±Inf, NaN, ±0: (x, 0)
    } else if (be == 0u) {
      // subnormal: frac · 2^-149 with its leading one at bit q = 31 − clz
      let lz = countLeadingZeros(frac);
      m = (b & 0x80000000u) | (126u << 23u) | ((frac << (lz - 8u)) & 0x7fffffu);
      e = -117i - i32(lz);
    } else {
      m = (b & 0x807fffffu) | (126u << 23u);
      e = i32(be) - 126i;
    }
    mant[i] = m;
    expo[i] = e;
  }
}
