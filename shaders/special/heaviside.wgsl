// heaviside on the bits: the sign bit and magnitude decide, so subnormals count as
// nonzero and −0 as zero whatever the GPU does with subnormal float arithmetic; NaN
// inputs come out as themselves and `values` is copied bit for bit.
// Variants (VARIANT): same (x and values of one shape), splat (values is one element),
// strided (general broadcast, up to 8 collapsed dims, see src/core/broadcast.ts).
// Bindings (src/backend/gpu/special.ts): x, v → out; the broadcast uniforms.
#include "common/linear_id.wgsl"
#include "special/broadcast.wgsl"

fn step_bits(b: u32, vb: u32) -> u32 {
  let mag = b & 0x7fffffffu;
  if (mag == 0u) { return vb; }
  if (mag > 0x7f800000u) { return b; }              // NaN
  return select(0x3f800000u, 0u, (b >> 31u) != 0u);  // 1.0 or +0.0
}

@compute @workgroup_size(${WG})
fn heaviside_${VARIANT}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                                 @builtin(local_invocation_index) lid: u32) {
  let tile = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u);
  let base = tile + lid;
  if (tile + ${WG}u * ${PER}u <= p.total) {
    // Whole tile in range: all loads first, so they are in flight together.
    var xb: array<u32, ${PER}>;
    var vb: array<u32, ${PER}>;
    for (var k = 0u; k < ${PER}u; k++) {
      let ab = operand_offsets(base + k * ${WG}u);
      xb[k] = x[ab.x];
      vb[k] = v[ab.y];
    }
    for (var k = 0u; k < ${PER}u; k++) { out[base + k * ${WG}u] = step_bits(xb[k], vb[k]); }
    return;
  }
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.total) { return; }
    let ab = operand_offsets(i);
    out[i] = step_bits(x[ab.x], v[ab.y]);
  }
}
