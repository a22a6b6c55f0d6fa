// Status 1 for a non-finite initial state (src/backend/gpu/gdn_wy.ts): one (sequence, value
// head) per workgroup scans its dk·dv float32 entries and atomicMaxes status[n·HV + hv].
//
// Bindings: S0 (f32) → status (atomic<i32>). Uniforms: count (N·HV), size (dk·dv).
#include "common/linear_id.wgsl"
#include "gdn/gdn_wy_common.wgsl"

var<workgroup> bad: atomic<i32>;

@compute @workgroup_size(256)
fn gdn_s0_check(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let m = linear_workgroup_id(wid, nwg);
  if (m >= p.count) { return; }
  if (lid == 0u) { atomicStore(&bad, 0); }
  workgroupBarrier();
  var nf = false;
  for (var i = lid; i < p.size; i += 256u) { nf = nf || !is_finite(S0[m * p.size + i]); }
  if (nf) { atomicMax(&bad, 1); }
  workgroupBarrier();
  if (lid == 0u && atomicLoad(&bad) != 0) { atomicMax(&status[m], 1); }
}
