// U12 = L11⁻¹·A12 of the blocked LU (lu_blocked.ts), in place in A: L11 is the unit lower
// nl×nl block at (r, r), A12 the nl × ncols block at (r, cb) of the (batch, m, n)
// row-major matrices. One thread per column of one member (64 per workgroup): forward
// substitution RB rows at a time, the RB partial sums in registers, so each solved value
// of the column is loaded once per RB rows; L's entries are the same address for the whole
// workgroup (broadcast loads). No barriers: columns are independent.
// Bindings: A (T, read_write). Uniforms: batch, m, n, r, nl, cb, ncols, tiles.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const RB: u32 = ${RB}u;

@compute @workgroup_size(64)
fn lu_trsm_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                    @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.batch * p.tiles) { return; }
  let b = w / p.tiles;
  let t = (w % p.tiles) * 64u + lid;
  if (t >= p.ncols) { return; }
  let n = p.n;
  let mb = b * p.m * n;
  let lb = mb + p.r * n + p.r;      // L(i, k) at lb + i·n + k
  let xb = mb + p.r * n + p.cb + t;  // X(i) at xb + i·n
  var acc: array<${T}, ${RB}>;
  for (var i0 = 0u; i0 < p.nl; i0 += RB) {
    let h = min(RB, p.nl - i0);
    for (var q = 0u; q < RB; q++) {
      if (q < h) { acc[q] = A[xb + (i0 + q) * n]; }
    }
    for (var k = 0u; k < i0; k++) {
      let xk = A[xb + k * n];
      for (var q = 0u; q < RB; q++) {
        if (q < h) { acc[q] = acc[q] - tmul(A[lb + (i0 + q) * n + k], xk); }
      }
    }
    for (var q = 1u; q < RB; q++) {
      for (var q2 = 0u; q2 < q; q2++) {
        if (q < h) { acc[q] = acc[q] - tmul(A[lb + (i0 + q) * n + i0 + q2], acc[q2]); }
      }
    }
    for (var q = 0u; q < RB; q++) {
      if (q < h) { A[xb + (i0 + q) * n] = acc[q]; }
    }
  }
}
