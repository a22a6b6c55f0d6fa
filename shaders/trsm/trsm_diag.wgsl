// trtrs's status for a batched triangular solve, run after the solve (non-unit only):
// info[m] = first i (1-based) with A_am(i-1, i-1) exactly zero, else 0, and then X_m set
// to NaN ("not computed", as solve's contract). One workgroup per output system: the
// threads scan the diagonal (n reads), a workgroup atomicMin keeps the first zero.
// Bindings (src/backend/gpu/trsm.ts): A, amap → X, info; uniforms count, n, nrhs, use_a.
#include "common/linear_id.wgsl"

const F: u32 = ${FLOATS}u;  // floats per element
var<workgroup> first: atomic<u32>;

@compute @workgroup_size(${WG})
fn trsm_diag_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let m = linear_workgroup_id(wid, nwg);
  let live = m < p.count;  // no early return: every thread reaches the barriers
  let n = p.n;
  if (lid == 0u) { atomicStore(&first, 0xffffffffu); }
  workgroupBarrier();
  if (live) {
    var am = m;
    if (p.use_a != 0u) { am = u32(amap[m]); }
    for (var i = lid; i < n; i += ${WG}u) {
      let e = ((am * n + i) * n + i) * F;
      var zero = A[e] == 0.0;
      if (F == 2u) { zero = zero && A[e + 1u] == 0.0; }
      if (zero) { atomicMin(&first, i); }
    }
  }
  workgroupBarrier();
  let f = atomicLoad(&first);
  if (!live) { return; }
  if (lid == 0u) { info[m] = select(i32(f) + 1, 0, f == 0xffffffffu); }
  if (f != 0xffffffffu) {
    let len = n * p.nrhs * F;
    var bits = 0x7fc00000u;  // a var: a NaN constant expression does not compile
    let nan = bitcast<f32>(bits);
    for (var t = lid; t < len; t += ${WG}u) { X[m * len + t] = nan; }
  }
}
