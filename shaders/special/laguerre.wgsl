// Laguerre polynomials in float32, the difference form of the recurrence (see
// native/src/special/laguerre.cpp): D_{k+1} = (k·D_k − x·L_k)/(k+1), L_{k+1} = L_k + D_{k+1}.
// f32 overflows at 3.4e38, so (L, D) are rescaled by 2^-64 whenever |L| + |D| passes
// 2^64 and the exponent is applied at the end: L_n overflows only when its true value
// does. Special inputs are read from the bits (WGSL may assume finite math): NaN x or n
// gives NaN; x = ±Inf gives the limit (±Inf); n is truncated; n < 0 gives 0; degrees
// above 2^24 (not exact in f32) give NaN.
// Bindings (src/backend/gpu/special.ts): xs, ns → out; the broadcast uniforms.
#include "common/linear_id.wgsl"
#include "special/broadcast.wgsl"

const NAN_BITS = 0x7fc00000u;
const INF_BITS = 0x7f800000u;
const ONE_BITS = 0x3f800000u;

fn laguerre_bits(x: f32, n: f32) -> u32 {
  let xb = bitcast<u32>(x);
  let nb = bitcast<u32>(n);
  if ((nb & 0x7fffffffu) > INF_BITS) { return NAN_BITS; }
  let nneg = (nb >> 31u) != 0u;
  if ((nb & 0x7fffffffu) == INF_BITS) { return select(NAN_BITS, 0u, nneg); }
  let t = trunc(n);
  if (t < 0.0) { return 0u; }
  if (t > 16777216.0) { return NAN_BITS; }
  let kn = u32(t);
  if (kn == 0u || (xb & 0x7fffffffu) == 0u) { return ONE_BITS; }
  if ((xb & 0x7fffffffu) > INF_BITS) { return NAN_BITS; }
  if ((xb & 0x7fffffffu) == INF_BITS) {
    // L_n(x) ~ (−x)^n / n!: +Inf at −Inf, (−1)^n·Inf at +Inf.
    let neg = (xb >> 31u) == 0u && (kn & 1u) == 1u;
    return select(INF_BITS, INF_BITS | 0x80000000u, neg);
  }
  var d = -x;
  var l = 1.0 + d;
  var e = 0u;
  for (var k = 1u; k <= kn; k++) {
    if (k > 1u) {
      let kf = f32(k - 1u);
      d = (kf * d - x * l) / (kf + 1.0);
      l = l + d;
    }
    // two checks: one step can grow by up to |x|
    if (abs(l) + abs(d) > 1.8446744e19) { l *= 5.421011e-20; d *= 5.421011e-20; e += 64u; }
    if (abs(l) + abs(d) > 1.8446744e19) { l *= 5.421011e-20; d *= 5.421011e-20; e += 64u; }
  }
  let lb = bitcast<u32>(l);
  if ((lb & 0x7fffffffu) >= INF_BITS) { return lb; }
  if (e >= 256u) { return select(INF_BITS | (lb & 0x80000000u), lb, (lb & 0x7fffffffu) == 0u); }
  for (var j = 0u; j < e; j += 64u) { l *= 1.8446744e19; }
  return bitcast<u32>(l);
}

@compute @workgroup_size(${WG})
fn laguerre_${VARIANT}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                                @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u) + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.total) { return; }
    let ab = operand_offsets(i);
    out[i] = laguerre_bits(xs[ab.x], ns[ab.y]);
  }
}
