// logspace in float32 with torch's exponents (start + step·i in the first half,
// end − step·(steps−1−i) in the second). base^e = 2^t with t = e·log2(base). log2(base)
// comes from the host in three 12-bit pieces l1 + l2 + l3 and e is split by masking its
// low 12 mantissa bits, so e_hi·l1 is exact (bit masks cannot be reassociated or
// contracted by the compiler, unlike Dekker's split): its integer part is applied exactly
// by powers of two and exp2 only sees the small fraction, where WGSL's bound is tight. The endpoints are the
// host's double results rounded to f32 (bits), so they equal the CPU's exactly. The host
// only sends finite exponents and 0 < base < Inf (other cases are computed on the CPU).
// Bindings (src/backend/gpu/special.ts): → out; uniforms total, half, first and last (the
// bits of the f32 endpoints), start, end, step, l1, l2, l3.
#include "common/linear_id.wgsl"

fn pow2i(k: i32) -> f32 {
  return bitcast<f32>(u32(k + 127) << 23u);  // |k| ≤ 126: a normal power of two
}

fn value_bits(i: u32) -> u32 {
  if (i == 0u) { return p.first; }
  if (i == p.total - 1u) { return p.last; }
  let e = select(p.end - p.step * f32(p.total - 1u - i), p.start + p.step * f32(i), i < p.half);
  let eh = bitcast<f32>(bitcast<u32>(e) & 0xfffff000u);
  let el = e - eh;
  let big = eh * p.l1;  // exact: 12 × 12 significant bits
  let ti = round(big);
  let f = (big - ti) + ((eh * p.l2 + el * p.l1) + (el * p.l2 + e * p.l3));
  let t = ti + f;
  if (t >= 128.0) { return 0x7f800000u; }
  if (t < -151.0) { return 0u; }
  let k = i32(ti);
  let h = k / 2;
  return bitcast<u32>(exp2(f) * pow2i(h) * pow2i(k - h));
}

@compute @workgroup_size(${WG})
fn logspace_torch_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                           @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u) + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.total) { return; }
    out[i] = value_bits(i);
  }
}
