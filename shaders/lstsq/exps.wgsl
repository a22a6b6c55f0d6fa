// exps: per member f of lstsq's broadcast batch, the exponent that unscales its solution,
// eB[b] − eA[a], and its status for the NaN fill: −1 where A's status (info) is non-zero or
// B held NaN/Inf (binfo = −1), else 0.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn exps_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let f = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (f >= p.count) { return; }
  let a = select(f, u32(aIdx[f]), p.has_a != 0u);
  let b = select(f, u32(bIdx[f]), p.has_b != 0u);
  ef[f] = eb[b] - ea[a];
  inff[f] = select(0, -1, info[a] != 0 || binfo[b] == -1);
}
