// dst[i] = src[map[i]]: per-output info when A is broadcast over B's batch. Bindings
// (src/backend/gpu/lu.ts): src, map → dst; uniform count.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn gather_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) lid: u32) {
  let i = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (i < p.count) { dst[i] = src[map[i]]; }
}
