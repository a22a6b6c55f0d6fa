// gels_check: lstsq 'gels' status per member f (written to A's matrix a = aIdx[f]: every f of
// one a has the same R): −1 where A held NaN/Inf (sinfo), else k > 0 for the first
// |r_kk| ≤ rtol·max|r_ii| (R's real diagonal, n entries), else 0.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn gels_check_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let f = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (f >= p.count) { return; }
  let a = select(f, u32(aIdx[f]), p.has_a != 0u);
  var st = 0;
  if (sinfo[a] == -1) {
    st = -1;
  } else {
    var mx = 0.0;
    for (var i = 0u; i < p.n; i++) { mx = max(mx, abs(R[(f * p.rstride + i * p.rld + i) * p.c2])); }
    for (var i = 0u; i < p.n; i++) {
      let d = abs(R[(f * p.rstride + i * p.rld + i) * p.c2]);
      if (!(d > p.rtol * mx) || mx == 0.0) { st = i32(i) + 1; break; }
    }
  }
  info[a] = st;
}
