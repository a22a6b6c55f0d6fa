// augment: F (count × m × (n + nrhs)) = [A_a | B_b] per member f of the broadcast batch
// (a = aIdx[f], b = bIdx[f] when mapped), the matrix whose QR applies Qᴴ to B on the way
// (lstsq 'gels'). Float words (c2 per element).
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn augment_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (w >= p.total) { return; }
  let part = w % p.c2;
  let el = w / p.c2;
  let cols = p.n + p.nrhs;
  let f = el / (p.m * cols);
  let i = (el / cols) % p.m;
  let c = el % cols;
  if (c < p.n) {
    let a = select(f, u32(aIdx[f]), p.has_a != 0u);
    F[w] = A[((a * p.m + i) * p.n + c) * p.c2 + part];
  } else {
    let b = select(f, u32(bIdx[f]), p.has_b != 0u);
    F[w] = B[((b * p.m + i) * p.nrhs + (c - p.n)) * p.c2 + part];
  }
}
