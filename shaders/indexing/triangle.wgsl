// triangle: triu (upper != 0: keep j − i ≥ k) or tril (keep j − i ≤ k) of (batch, m, n);
// the rest is 0 (all-zero bits: 0, 0.0, false and 0+0i alike). Raw bits, one kernel per
// element width (E = u32 or vec2u). Uniforms: total (elements), m, n, k, upper.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn triangle_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * ${TILE}u + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let e = base + k * ${WG}u;
    if (e >= p.total) { return; }
    let row = e / p.n;
    let j = i32(e - row * p.n);
    let i = i32(row % p.m);
    let d = j - i;
    let keep = select(d <= p.k, d >= p.k, p.upper != 0u);
    out[e] = select(${E}(0u), x[e], keep);
  }
}
