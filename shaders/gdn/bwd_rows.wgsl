// Per-row dv reductions of the Gated DeltaNet backward, one workgroup per (chunk, value head),
// four threads per row: RW[row] = (QH·dO, KH·X, e^{γ_L−γ}·KdhE·Vn, v·X) with QH = Q·h,
// KH = K·h, KdhE = K·dhE (QKH slots 0, 1, 2), X = Tᵀ·dVt (CD2).
// Bindings: ctab, gcum, QKH, dO, CD2, vn, Vs → RW.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

var<workgroup> red: array<vec4f, 256>;

${FUNCS}

@compute @workgroup_size(256)
fn gdn_bwd_rows(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  set_chunk(lin / p.hvn, lin % p.hvn);
  let i = lid / 4u;
  let part = lid % 4u;
  let L = ch.w;
  var a = vec4f(0.0);
  if (i < L) {
    let slot = p.nlin * p.cs * p.dv;
    let w = exp(gcum[cb * p.cs + L - 1u] - gcum[cb * p.cs + i]);
    for (var e = part; e < p.dv; e += 4u) {
      let r = rc(i, e, p.dv);
      let x = CD2[r];
      a += vec4f(QKH[r] * lddo(i, e), QKH[slot + r] * x, w * QKH[2u * slot + r] * vn[r], ldv(i, e) * x);
    }
  }
  red[lid] = a;
  workgroupBarrier();
  if (part == 0u && i < p.cs) {
    let s = red[lid] + red[lid + 1u] + red[lid + 2u] + red[lid + 3u];
    let o = (cb * p.cs + i) * 8u;
    RW[o] = s.x;
    RW[o + 1u] = s.y;
    RW[o + 2u] = s.z;
    RW[o + 3u] = s.w;
  }
}
