// Batched C = A·B for small matrices (m, n ≤ 16): one thread per element of C across the
// whole batch, so a batch of 4×4 products fills workgroups instead of idling in 32×32
// tiles. Same bindings and batch maps as matmul.wgsl; T is f32 or vec2f (tfma).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

// Bindings (src/backend/gpu/matmul.ts): A, B, aIdx, bIdx → C; uniforms M, N, K, total
// (elements of C: batch · M · N), aMapped, bMapped.

@compute @workgroup_size(${WG})
fn matmul_small_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                         @builtin(local_invocation_index) lid: u32) {
  let o = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (o >= p.total) { return; }
  let mn = p.M * p.N;
  let batch = o / mn;
  let r = o - batch * mn;
  let i = r / p.N;
  let j = r - i * p.N;
  let aOff = select(batch, aIdx[batch], p.aMapped != 0u) * p.M * p.K + i * p.K;
  let bOff = select(batch, bIdx[batch], p.bMapped != 0u) * p.K * p.N + j;
  var acc = ${ZERO};
  for (var q = 0u; q < p.K; q++) {
    acc = tfma(A[aOff + q], B[bOff + q * p.N], acc);
  }
  C[o] = acc;
}
