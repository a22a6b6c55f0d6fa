// dst[m·len + t] = src[map[m]·len + t] on f32 words: the blocked triangular solve's copy of a
// broadcast operand (B into X, or A's members gathered when the batch map is not a stride).
// Bindings (src/backend/gpu/trsm.ts): src, map → dst; uniforms total, len.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn trsm_copy_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let i = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (i >= p.total) { return; }
  let m = i / p.len;
  dst[i] = src[u32(map[m]) * p.len + (i - m * p.len)];
}
