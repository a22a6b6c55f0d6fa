// Batched C = A·B for small matrices (m, n ≤ 16): one thread per element of C across the
// whole batch, so a batch of 4×4 products fills workgroups instead of idling in 32×32
// tiles. Same bindings and batch maps as matmul.wgsl; T is f32 or vec2f (tfma).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,        // elements of C: batch * M * N
  tilesN: u32,       // unused here (shared layout with matmul.wgsl)
  tilesPerMat: u32,  // unused here
  aMapped: u32,
  bMapped: u32,
}

@group(0) @binding(0) var<storage, read> A: array<${T}>;
@group(0) @binding(1) var<storage, read> B: array<${T}>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<${T}>;
@group(0) @binding(5) var<uniform> p: Params;

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
