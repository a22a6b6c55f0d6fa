// End of one sweep of the blocked one-sided Jacobi (src/backend/gpu/svd_jacobi.ts), one
// thread per matrix: a sweep that rotated nothing sets the converged flag (every later
// round kernel then returns at once); otherwise the rotation counter restarts. After the
// last sweep (last = 1) info = 0 for converged matrices, else the sweep cap;
// last = 2 writes info = 0 alone (an empty problem).
// Bindings (generated): ctrl (u32, rw), info (i32, rw); uniforms count, last, cap.
#include "common/linear_id.wgsl"

@compute @workgroup_size(64)
fn jacobi_sweep(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) t: u32) {
  let m = linear_workgroup_id(wid, nwg) * 64u + t;
  if (m >= p.count) { return; }
  if (p.last == 2u) {
    info[m] = 0;
    return;
  }
  if (ctrl[2u * m + 1u] == 0u) {
    if (ctrl[2u * m] == 0u) { ctrl[2u * m + 1u] = 1u; } else { ctrl[2u * m] = 0u; }
  }
  if (p.last != 0u) { info[m] = select(p.cap, 0, ctrl[2u * m + 1u] != 0u); }
}
