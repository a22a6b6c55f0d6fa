// concat: one input's slab into the output, viewed as (outer, cols) → out (outer, ld) at
// column dst_off (cols = the input's size along dim × inner, ld the output's). Raw bits,
// one kernel per element width (E = u32 or vec2u). Uniforms: total (the input's elements),
// cols, ld, dst_off.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn concat_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * ${TILE}u + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let e = base + k * ${WG}u;
    if (e >= p.total) { return; }
    let r = e / p.cols;
    out[r * p.ld + p.dst_off + (e - r * p.cols)] = x[e];
  }
}
