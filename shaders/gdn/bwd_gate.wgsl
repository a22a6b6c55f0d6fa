// dg (the reverse cumulative sum of dγ within the chunk) and dβ of the Gated DeltaNet backward
// in the gate layout, float32; NaN where the sequence and value head's status is not 0.
// One workgroup per (chunk, value head), thread per row. Bindings: ctab, status, RW → DB, DG.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

@compute @workgroup_size(64)
fn gdn_bwd_gate(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  set_chunk(lin / p.hvn, lin % p.hvn);
  let i = lid;
  let L = ch.w;
  if (i >= L) { return; }
  let bad = status[ch.x * p.hvn + hv] != 0;
  var s = 0.0;
  for (var r = i; r < L; r++) { s += RW[(cb * p.cs + r) * 8u + 4u]; }
  let x = g_at(i);
  DG[x] = select(s, nanf(), bad);
  DB[x] = select(RW[(cb * p.cs + i) * 8u + 5u], nanf(), bad);
}
