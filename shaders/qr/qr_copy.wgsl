// Copies the (count, m, n) input A into the factorization's work matrix F (row stride
// ld, member stride fstride) and flags members holding NaN or ±Inf (flag[b] = 1, the
// buffer cleared before): their Q and R become NaN, as on the CPU (LAPACK would iterate
// on them). Several threads may store the same 1: a benign race.
// Bindings: A (T) read; F (T), flag (u32) read_write; uniforms total, m, n, ld, fstride.
#include "common/linear_id.wgsl"

fn nonfinite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u; }

@compute @workgroup_size(${WG})
fn qr_copy_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                    @builtin(local_invocation_index) lid: u32) {
  let e = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (e >= p.total) { return; }
  let mn = p.m * p.n;
  let b = e / mn;
  let ij = e - b * mn;
  let i = ij / p.n;
  let j = ij - i * p.n;
  let a = A[e];
#if IS_COMPLEX
  let bad = nonfinite(a.x) || nonfinite(a.y);
#else
  let bad = nonfinite(a);
#endif
  if (bad) { flag[b] = 1u; }
  F[b * p.fstride + i * p.ld + j] = a;
}
