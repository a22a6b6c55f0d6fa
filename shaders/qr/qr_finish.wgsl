// After the factorization: R (rr×n) from F's upper triangle with zeros below, and Q's
// start, the identity (m×qc), which the block reflectors are then applied to backwards
// (orgqr). A flagged member (non-finite input) gets NaN everywhere. With F_IS_Q the
// factorization lives in Q's first n columns: each thread reads its element of F before
// writing the identity's there.
// Bindings: [F (T)], flag (u32) read; R, Q (T) read_write; uniforms total, m, n, cols,
// rr, k, qc, ld, fstride, want_q.
#include "common/linear_id.wgsl"

fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

@compute @workgroup_size(${WG})
fn qr_finish_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let e = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (e >= p.total) { return; }
  let per = p.m * p.cols;
  let b = e / per;
  let ij = e - b * per;
  let i = ij / p.cols;
  let j = ij - i * p.cols;
  let bad = flag[b] != 0u;
  let nan = ${T}(nan_f32());
  if (i < p.rr && j < p.n) {
    var v = ${ZERO};
    if (i <= j && i < p.k) {
#if F_IS_Q
      v = Q[b * p.fstride + i * p.ld + j];
#else
      v = F[b * p.fstride + i * p.ld + j];
#endif
    }
    R[(b * p.rr + i) * p.n + j] = select(v, nan, bad);
  }
  if (p.want_q != 0u && j < p.qc) {
    Q[(b * p.m + i) * p.qc + j] = select(select(${ZERO}, ${ONE}, i == j), nan, bad);
  }
}
