// info and non-finite input of the blocked LU (lu_blocked.ts).
// INIT: INFO[b] = 0, one thread per member (workgroups = ⌈batch / 64⌉).
// FLAG: INFO[b] = −1 when member b holds a NaN or ±Inf (4 scalars per thread; several
//   threads may write the same −1, the same value). FINISH: every scalar of a member with
//   INFO −1 becomes NaN. FLAG and FINISH: workgroups of 256 threads over the scalars.
// Bindings: INIT → INFO (i32); FLAG A (f32) → INFO; FINISH INFO → A (f32).
// Uniforms: total (members, or scalars), per (scalars per member).
#include "common/linear_id.wgsl"

fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

#if MODE_INIT
@compute @workgroup_size(64)
fn lu_status_init(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let b = linear_workgroup_id(wid, nwg) * 64u + lid;
  if (b < p.total) { INFO[b] = 0; }
}
#elif MODE_FLAG
@compute @workgroup_size(256)
fn lu_status_flag(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let e0 = linear_workgroup_id(wid, nwg) * 1024u + lid;
  for (var q = 0u; q < 4u; q++) {
    let e = e0 + q * 256u;
    if (e < p.total && (bitcast<u32>(A[e]) & 0x7f800000u) == 0x7f800000u) { INFO[e / p.per] = -1; }
  }
}
#else
@compute @workgroup_size(256)
fn lu_status_finish(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                    @builtin(local_invocation_index) lid: u32) {
  let e0 = linear_workgroup_id(wid, nwg) * 1024u + lid;
  for (var q = 0u; q < 4u; q++) {
    let e = e0 + q * 256u;
    if (e < p.total && INFO[e / p.per] == -1) { A[e] = nan_f32(); }
  }
}
#endif
