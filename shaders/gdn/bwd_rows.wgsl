// Per-row sums of the Gated DeltaNet backward, one workgroup per (chunk, value head), four
// threads per row: RW[row·8 + 0…2] = the row dots (q·h·dO, k·h·X, z = e^{γ_L−γ}·k·dhE·Vn)
// summed over the column tiles of the products that made them (RWP, p.nct tiles), and
// RW[row·8 + 3] = v·X with X = Tᵀ·dVt (CD2).
// Bindings: ctab, CD2, Vs, RWP → RW.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

var<workgroup> red: array<f32, 256>;

${FUNCS}

@compute @workgroup_size(256)
fn gdn_bwd_rows(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  set_chunk(lin / p.hvn, lin % p.hvn);
  let i = lid / 4u;
  let part = lid % 4u;
  var a = 0.0;
  if (i < ch.w) {
    for (var e = part; e < p.dv; e += 4u) { a += ldv(i, e) * CD2[rc(i, e, p.dv)]; }
  }
  red[lid] = a;
  workgroupBarrier();
  if (i < p.cs && part < 3u) {
    var s = 0.0;
    for (var t = 0u; t < p.nct; t++) { s += RWP[((cb * p.cs + i) * 3u + part) * p.nct + t]; }
    RW[(cb * p.cs + i) * 8u + part] = s;
  }
  if (i < p.cs && part == 3u) {
    RW[(cb * p.cs + i) * 8u + 3u] = red[lid - 3u] + red[lid - 2u] + red[lid - 1u] + red[lid];
  }
}
