// weights: U (count × m × k, scalars per element c2) ← U·diag(w) in place, w_j = 1/σ_j above the
// rank threshold, else 0; NaN where the matrix's scale (sinfo) or SVD (vinfo) status is
// non-zero, so every product with it is NaN. Float words: one kernel for float32 and complex64.
#include "common/linear_id.wgsl"
#include "pinv/threshold.wgsl"

@compute @workgroup_size(${WG})
fn weights_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (w >= p.total) { return; }
  let el = w / p.c2;
  let j = el % p.k;
  let b = el / (p.m * p.k);
  let s = S[b * p.k + j];
  var f = select(0.0, 1.0 / s, s > rank_threshold(S[b * p.k], exps[b]));
  if (sinfo[b] != 0 || vinfo[b] != 0) { f = bitcast<f32>(p.nan_bits); }
  U[w] = U[w] * f;
}
