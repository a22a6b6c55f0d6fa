// Elementwise steps of the Gated DeltaNet backward, thread per element (linear, folded grid):
//   DFIN: DHE[p.slot + x] = dF[x] (or 0 without dFinal): each sequence's state gradient at its end;
//   S0:   dS0[x] = DHE[p.slot + x] (dh_0), NaN where the status of its (sequence, value head) ≠ 0;
//   UNPACK: float16 words → float32 (the backward computes on float32 copies of float16 inputs);
//   PACK: float32 → float16 words, both halves of a word by one thread.
#include "common/linear_id.wgsl"

@compute @workgroup_size(256)
fn ${ENTRY}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let x = linear_workgroup_id(wid, nwg) * 256u + lid;
  if (x >= p.nwork) { return; }
#if DFIN
  var v = 0.0;
  if (p.flag != 0u) { v = dF[x]; }
  DHE[p.slot + x] = v;
#elif S0
  dS0[x] = select(DHE[p.slot + x], bitcast<f32>(p.nanbits), status[x / (p.dk * p.dv)] != 0);
#elif UNPACK
  let f = unpack2x16float(H[x]);
  F[2u * x] = f.x;
  if (2u * x + 1u < p.count) { F[2u * x + 1u] = f.y; }
#else
  var b = 0.0;
  if (2u * x + 1u < p.count) { b = F[2u * x + 1u]; }
  H[x] = pack2x16float(vec2f(F[2u * x], b));
#endif
}
