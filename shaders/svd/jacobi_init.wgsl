// Start of the blocked one-sided Jacobi (src/backend/gpu/svd_jacobi.ts): one workgroup per
// (column, matrix). E = the exponent of the column's max |y| (so the pair kernel scales it to
// max ≈ 1), Wc's column = the identity's (when wrows > 0), and the matrix's rotation counter
// and converged flag cleared (by its column 0).
// Bindings (generated): Yc (T, read), Wc (T, rw), E (i32, rw), ctrl (u32, rw);
// uniforms r, c, count (columns × matrices), wrows (c when W is wanted, else 0).
// Defines: T, IS_COMPLEX, WG.
#include "common/linear_id.wgsl"

var<workgroup> red: array<f32, ${WG}>;

#if IS_COMPLEX
fn maxabs(x: ${T}) -> f32 { return max(abs(x.x), abs(x.y)); }
#else
fn maxabs(x: ${T}) -> f32 { return abs(x); }
#endif

@compute @workgroup_size(${WG})
fn jacobi_init_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                        @builtin(local_invocation_index) t: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let mat = w / p.c;
  let j = w % p.c;
  var m = 0.0;
  for (var k = t; k < p.r; k += ${WG}u) { m = max(m, maxabs(Yc[w * p.r + k])); }
  red[t] = m;
  workgroupBarrier();
  for (var s = ${WG}u / 2u; s > 0u; s /= 2u) {
    if (t < s) { red[t] = max(red[t], red[t + s]); }
    workgroupBarrier();
  }
  if (t == 0u) {
    let mx = red[0];
    E[w] = select(0, clamp(frexp(mx).exp, -120, 120), mx > 0.0);
    if (j == 0u) {
      ctrl[2u * mat] = 0u;
      ctrl[2u * mat + 1u] = 0u;
    }
  }
  for (var k = t; k < p.wrows; k += ${WG}u) { Wc[w * p.c + k] = select(${ZERO}, ${ONE}, k == j); }
}
