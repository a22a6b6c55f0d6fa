// Split-K reduction for a single matrix's W1 = Vᴴ·C: the row chunks' partial products
// P_s (kb×ncols, row stride ld, chunk stride pstride) summed into W (same layout). A deep
// Vᴴ·C (kb × ncols output, mr deep) alone fills too few workgroups of a large GPU.
// Bindings: P (T) read; W (T) read_write; uniforms total, ncols, ld, chunks, pstride.
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn qr_sum_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) lid: u32) {
  let e = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (e >= p.total) { return; }
  let i = e / p.ncols;
  let j = e - i * p.ncols;
  let o = i * p.ld + j;
  var s = P[o];
  for (var c = 1u; c < p.chunks; c++) { s += P[c * p.pstride + o]; }
  W[o] = s;
}
