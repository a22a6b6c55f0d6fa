// rank: per matrix (one thread each) the count of σ above the rank threshold and the merged
// status: −1 where the scaling saw NaN/Inf (sinfo), else the SVD's (vinfo); with zero_bad the
// rank is 0 where the status is non-zero (lstsq's rule).
#include "common/linear_id.wgsl"
#include "pinv/threshold.wgsl"

@compute @workgroup_size(${WG})
fn rank_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let b = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (b >= p.count) { return; }
  let st = select(vinfo[b], -1, sinfo[b] == -1);
  var r = 0;
  if (p.k > 0u) {
    let thr = rank_threshold(S[b * p.k], exps[b]);
    for (var i = 0u; i < p.k; i++) { if (S[b * p.k + i] > thr) { r += 1; } }
  }
  rank[b] = select(r, 0, p.zero_bad != 0u && st != 0);
  info[b] = st;
}
