// out[i] = src[map[i]]: per-output info when A is broadcast over B's batch.
#include "common/linear_id.wgsl"

struct Params {
  count: u32,
}

@group(0) @binding(0) var<storage, read> src: array<i32>;
@group(0) @binding(1) var<storage, read> map: array<i32>;
@group(0) @binding(2) var<storage, read_write> dst: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

@compute @workgroup_size(${WG})
fn gather_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) lid: u32) {
  let i = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (i < p.count) { dst[i] = src[map[i]]; }
}
