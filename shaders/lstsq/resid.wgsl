// resid: lstsq's squared residual norms, one workgroup per (member f, column j) (tall B:
// thousands of rows summed by the workgroup, not one thread):
// Σ_i |X1[i, j] − X2[i, j]|² over `rows` rows (without X2: Σ |X1|², the rows of R below n in
// the augmented QR), times 2^(2·eB[b]); NaN where the member's status inff (A's status or
// B's NaN/Inf, from exps.wgsl) is non-zero or A's rank < n (has_rank). X1 is member
// b = bIdx[f] when x1_b (B itself), else f.
#include "common/linear_id.wgsl"
#include "pinv/ldexp_steps.wgsl"

var<workgroup> w_s: array<f32, ${WG}>;

@compute @workgroup_size(${WG})
fn resid_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let t = linear_workgroup_id(wid, nwg);
  if (t >= p.total) { return; }
  let f = t / p.nrhs;
  let j = t % p.nrhs;
  let a = select(f, u32(aIdx[f]), p.has_a != 0u);
  let b = select(f, u32(bIdx[f]), p.has_b != 0u);
  let m1 = select(f, b, p.x1_b != 0u);
  var s = 0.0;
  for (var i = lid; i < p.rows; i += ${WG}u) {
    for (var c = 0u; c < p.c2; c++) {
      var d = X1[(p.o1 + m1 * p.s1 + i * p.ld1 + j) * p.c2 + c];
      if (p.has_x2 != 0u) { d -= X2[(p.o2 + f * p.s2 + i * p.ld2 + j) * p.c2 + c]; }
      s += d * d;
    }
  }
  w_s[lid] = s;
  for (var h = ${WG}u / 2u; h > 0u; h = h / 2u) {
    workgroupBarrier();
    if (lid < h) { w_s[lid] = w_s[lid] + w_s[lid + h]; }
  }
  if (lid == 0u) {
    let bad = inff[f] != 0 || (p.has_rank != 0u && rank[a] < i32(p.n));
    res[t] = select(ldexp_steps(w_s[0], 2 * eb[b]), bitcast<f32>(p.nan_bits), bad);
  }
}
