// dq, dk of the Gated DeltaNet backward: the per-value-head gradients (DQS, DKS: (count, HV,
// C, dk)) summed over the value heads of each key head, taken through the L2 normalisation
// (qkL2norm: dx = r·(dn − n·(n·dn)), r = 1/sqrt(Σx² + 1e-6), n = r·x), float32 in q's layout;
// NaN where a value head of the group has status ≠ 0. One workgroup per (chunk, key head): a
// warp per row, 8 rows at a time, lanes along d (each access of a warp is one contiguous run of
// a row); the qkL2norm row sums through workgroup memory (no subgroup operations assumed).
// Bindings: ctab, status, Qr, Kr (raw q, k), DQS, DKS → DQ, DK.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

var<workgroup> red: array<vec4f, 256>;

${FUNCS}

fn gsum_q(i: u32, d: u32) -> f32 {
  var s = 0.0;
  for (var g = 0u; g < p.grp; g++) { s += DQS[((cid * p.hvn + kh * p.grp + g) * p.cs + i) * p.dk + d]; }
  return s;
}

fn gsum_k(i: u32, d: u32) -> f32 {
  var s = 0.0;
  for (var g = 0u; g < p.grp; g++) { s += DKS[((cid * p.hvn + kh * p.grp + g) * p.cs + i) * p.dk + d]; }
  return s;
}

@compute @workgroup_size(256)
fn gdn_bwd_qkout(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  let nk = p.hvn / p.grp;
  set_chunk(lin / nk, (lin % nk) * p.grp);
  let w = lid / 32u;
  let lane = lid % 32u;
  let L = ch.w;
  var bad = false;
  for (var g = 0u; g < p.grp; g++) { bad = bad || status[ch.x * p.hvn + kh * p.grp + g] != 0; }
  // bounded by the uniform chunk size: the barriers stay in uniform control flow
  for (var i0 = 0u; i0 < p.cs; i0 += 8u) {
    let i = i0 + w;
    var s = vec4f(0.0);
    if (p.flag != 0u) {
      var a = vec4f(0.0);
      if (i < L) {
        for (var d = lane; d < p.dk; d += 32u) {
          let xq = ldqr(i, d);
          let xk = ldkr(i, d);
          a += vec4f(xq * xq, xq * gsum_q(i, d), xk * xk, xk * gsum_k(i, d));
        }
      }
      red[lid] = a;
      workgroupBarrier();
      for (var x = 0u; x < 32u; x++) { s += red[w * 32u + x]; }
      workgroupBarrier();
    }
    if (i < L) {
      let rq = inverseSqrt(s.x + 1e-6);
      let rk = inverseSqrt(s.z + 1e-6);
      for (var d = lane; d < p.dk; d += 32u) {
        var oq = gsum_q(i, d);
        var ok = gsum_k(i, d);
        if (p.flag != 0u) {
          oq = rq * oq - rq * rq * rq * ldqr(i, d) * s.y;
          ok = rk * ok - rk * rk * rk * ldkr(i, d) * s.w;
        }
        let x = qk_at(i, d);
        DQ[x] = select(oq, nanf(), bad);
        DK[x] = select(ok, nanf(), bad);
      }
    }
  }
}
