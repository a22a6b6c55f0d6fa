// Batched C = op(A)·op(B) for small matrices (m, n ≤ 16): one thread per element of C across
// the whole batch, so a batch of 4×4 products fills workgroups instead of idling in 32×32
// tiles. Same bindings and batch maps as matmul.wgsl; T is f32 or vec2f (tfma).
// TRANS_A / TRANS_B: the operand is stored transposed (A as k×m, B as n×k) and read in place;
// complex64 conjugates it on load through the uniform cjA / cjB ((1, -1) for the adjoint).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

// Bindings (src/backend/gpu/matmul.ts): A, B, aIdx, bIdx → C; uniforms M, N, K, total
// (elements of C: batch · M · N), aMapped, bMapped (and cjA, cjB for complex64 with TRANS_*).

#if TRANS_A
fn op_a(i: u32) -> ${T} {
#if IS_COMPLEX
  return A[i] * p.cjA;
#else
  return A[i];
#endif
}

#endif
#if TRANS_B
fn op_b(i: u32) -> ${T} {
#if IS_COMPLEX
  return B[i] * p.cjB;
#else
  return B[i];
#endif
}

#endif
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
#if TRANS_A
  let aOff = select(batch, aIdx[batch], p.aMapped != 0u) * p.M * p.K + i;
#else
  let aOff = select(batch, aIdx[batch], p.aMapped != 0u) * p.M * p.K + i * p.K;
#endif
#if TRANS_B
  let bOff = select(batch, bIdx[batch], p.bMapped != 0u) * p.K * p.N + j * p.K;
#else
  let bOff = select(batch, bIdx[batch], p.bMapped != 0u) * p.K * p.N + j;
#endif
  var acc = ${ZERO};
  for (var q = 0u; q < p.K; q++) {
#if TRANS_A
#if TRANS_B
    acc = tfma(op_a(aOff + q * p.M), op_b(bOff + q), acc);
#else
    acc = tfma(op_a(aOff + q * p.M), B[bOff + q * p.N], acc);
#endif
#elif TRANS_B
    acc = tfma(A[aOff + q], op_b(bOff + q), acc);
#else
    acc = tfma(A[aOff + q], B[bOff + q * p.N], acc);
#endif
  }
  C[o] = acc;
}
