// hermitian: H = the Hermitian matrix (count × n × n) of A's lower triangle: h_ij = a_ij for
// i ≥ j, conj(a_ji) above, the diagonal's imaginary part 0. Float words (c2 per element).
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn hermitian_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (w >= p.total) { return; }
  let part = w % p.c2;
  let el = w / p.c2;
  let nn = p.n * p.n;
  let b = el / nn;
  let i = (el % nn) / p.n;
  let j = el % p.n;
  if (i >= j) {
    H[w] = select(A[w], 0.0, i == j && part == 1u);
  } else {
    let v = A[(b * nn + j * p.n + i) * p.c2 + part];
    H[w] = select(v, -v, part == 1u);
  }
}
