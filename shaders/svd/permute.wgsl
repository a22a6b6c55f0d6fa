// Row and column sorting of the scaled matrices before the GPU SVD's QR, and the gathers
// that undo it (src/backend/gpu/svd.ts). Householder QR is accurate row by row only when the
// rows come in decreasing size (Powell–Reid, Cox–Higham); sorted columns approximate the
// column pivoting of the CPU path (which the GPU QR has not). Keys are max |a| as u32 bits
// (exact, no underflow); ties keep index order, so sorting is stable.
// KEYS:   t (words, fp per element) → key[b·(m+n) + i] (rows i < m, then columns).
// RANKS:  key → inv (sorted position → original index), rnk (original → sorted), rows
//         then columns per matrix.
// GATHER: out[b][i][j] = src[b][r(i)][c(j)] (trans: src[b][c(j)][r(i)], conj), columns ≥ c0
//         from src2[b][r(i)][j], NaN where use_info and info = −1.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

#if KEYS
@compute @workgroup_size(${WG})
fn svd_keys_u32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let b = w / p.tiles;
  let idx = (w % p.tiles) * ${WG}u + lid;
  let mn = p.m + p.n;
  if (b >= p.count || idx >= mn) { return; }
  let base = b * p.m * p.n * p.fp;
  var mx = 0u;
  if (idx < p.m) {
    let r0 = base + idx * p.n * p.fp;
    for (var k = 0u; k < p.n * p.fp; k++) { mx = max(mx, t[r0 + k] & 0x7fffffffu); }
  } else {
    let j = idx - p.m;
    for (var i = 0u; i < p.m; i++) {
      for (var f = 0u; f < p.fp; f++) { mx = max(mx, t[base + (i * p.n + j) * p.fp + f] & 0x7fffffffu); }
    }
  }
  key[b * mn + idx] = mx;
}
#endif

#if RANKS
@compute @workgroup_size(${WG})
fn svd_ranks_u32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let b = w / p.tiles;
  let idx = (w % p.tiles) * ${WG}u + lid;
  let mn = p.m + p.n;
  if (b >= p.count || idx >= mn) { return; }
  let isRow = idx < p.m;
  let lo = select(p.m, 0u, isRow);
  let hi = select(mn, p.m, isRow);
  let o = b * mn;
  let kj = key[o + idx];
  var rank = 0u;
  for (var i = lo; i < hi; i++) {
    let ki = key[o + i];
    rank += select(0u, 1u, ki > kj || (ki == kj && i < idx));
  }
  // rows at b·(m+n), columns at b·(m+n) + m; indices within their kind
  inv[o + lo + rank] = i32(idx - lo);
  rnk[o + idx] = i32(rank);
}
#endif

#if GATHER
@compute @workgroup_size(${WG})
fn svd_gather_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                       @builtin(local_invocation_index) lid: u32) {
  let e = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  let per = p.rows * p.cols;
  if (e >= p.count * per) { return; }
  let b = e / per;
  let i = (e % per) / p.cols;
  let j = e % p.cols;
  if (p.use_info != 0u && info[b] == -1) {
    var nan = 0x7fc00000u;  // a var: no constant NaN
#if IS_COMPLEX
    out[e] = bitcast<vec2f>(vec2u(nan, nan));
#else
    out[e] = bitcast<f32>(nan);
#endif
    return;
  }
  var ri = i;
  if (p.has_rmap != 0u) { ri = u32(rmap[b * p.mstride + p.rmap_off + i]); }
  var v: ${T};
  if (j >= p.c0) {
    v = src2[b * p.s2stride + ri * p.ld2 + j];
  } else {
    var cj = j;
    if (p.has_cmap != 0u) { cj = u32(cmap[b * p.mstride + p.cmap_off + j]); }
    if (p.trans != 0u) { v = src[b * p.sstride + cj * p.ld + ri]; } else { v = src[b * p.sstride + ri * p.ld + cj]; }
    if (p.conj != 0u) { v = tconj(v); }
  }
  out[e] = v;
}
#endif
