// take: out[e] = x.flat[index[e]] (negative indices wrap); an out-of-range index writes 0
// and records its position in status (see bounds.wgsl), read by the deferred check.
// Raw bits, one kernel per element width (E = u32 or vec2u). Uniforms: total, size (x's),
// unsigned (a uint32 index tensor).
#include "common/linear_id.wgsl"
#include "indexing/bounds.wgsl"

@compute @workgroup_size(${WG})
fn take_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * ${TILE}u + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let e = base + k * ${WG}u;
    if (e >= p.total) { return; }
    let f = flat_index(index[e], p.size, p.unsigned);
    if (f.ok) {
      out[e] = x[f.j];
    } else {
      out[e] = ${E}(0u);
      atomicMax(&status[0], ~e);
    }
  }
}
