// After the state pass (shaders/gdn/state_staged.wgsl): one workgroup per (sequence, value head)
// checks the initial state (status 1 where it holds NaN or ±Inf and the status was 0) and
// writes NaN over the final state wherever the status is not 0, so a failed (n, hv) never
// returns a plausible number. Bindings: S0 (initial states, or a dummy when has_s0 is 0);
// outputs fin (final states, (N·HV, dk·dv)), status ((N·HV), int32).
#include "common/linear_id.wgsl"

// a var, not a const: a constant NaN is a shader-creation error
var<private> NAN_BITS: u32 = 0x7fc00000u;

var<workgroup> bad: atomic<u32>;

fn finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(${TS})
fn gdn_finalize(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let nh = linear_workgroup_id(wid, nwg);
  if (nh >= p.count) { return; }
  if (lid == 0u) { atomicStore(&bad, 0u); }
  workgroupBarrier();
  let base = nh * p.size;
  if (p.has_s0 != 0u) {
    var ok = true;
    for (var e = lid; e < p.size; e += ${TS}u) { ok = ok && finite(S0[base + e]); }
    if (!ok) { atomicOr(&bad, 1u); }
  }
  workgroupBarrier();
  let st = status[nh];
  let b = atomicLoad(&bad) != 0u;
  if (lid == 0u && st == 0 && b) { status[nh] = 1; }
  if (st != 0 || b) {
    for (var e = lid; e < p.size; e += ${TS}u) { fin[base + e] = bitcast<f32>(NAN_BITS); }
  }
}
