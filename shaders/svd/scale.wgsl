// Exact power-of-two scaling for the SVD (src/backend/gpu/svd_scale.ts), on the bits:
// GPUs may flush subnormal float arithmetic, so x·2^k is built with integer operations
// (round to nearest even into the subnormals, overflow to ±Inf). Complex data is read as
// its float words (the scale takes max over the real and imaginary parts).
// SCALE_MAX:   A (words) → part (per matrix, per chunk: max |bits| over the chunk).
//              Workgroup (b, c) reads words c·WG + lid, + chunks·WG, … of matrix b.
// SCALE_APPLY: A, part → t, exps, info; workgroup (b, c) reduces matrix b's chunk maxima,
//              then writes its words of t = 2^−e·A (0 where the matrix holds NaN/Inf).
// LDEXP:       X, exps, info → out = X·2^(sign·e_g) per group g of `group` words; NaN
//              where info_g = −1 when has_info.
#include "common/linear_id.wgsl"

/** x·2^k, correctly rounded, on the bits of x (±0, ±Inf, NaN pass through). */
fn ldexp_bits(b: u32, k0: i32) -> u32 {
  let sgn = b & 0x80000000u;
  let a = b & 0x7fffffffu;
  if (a == 0u || a >= 0x7f800000u) { return b; }
  // past ±400 the result saturates either way; the clamp keeps the i32 sums in range
  let k = clamp(k0, -400i, 400i);
  var sig = a & 0x7fffffu;
  var ex = i32(a >> 23u);
  if (ex == 0) {
    // subnormal: normalise the significand to a leading one at bit 23
    let lz = i32(countLeadingZeros(sig)) - 8;
    sig = sig << u32(lz);
    ex = 1 - lz;
  } else {
    sig = sig | 0x800000u;
  }
  let e = ex + k;
  if (e >= 255) { return sgn | 0x7f800000u; }
  if (e >= 1) { return sgn | (u32(e) << 23u) | (sig & 0x7fffffu); }
  let s = u32(1 - e);
  if (s > 25u) { return sgn; }
  var q = sig >> s;
  let r = sig & ((1u << s) - 1u);
  let half = 1u << (s - 1u);
  if (r > half || (r == half && (q & 1u) == 1u)) { q = q + 1u; }
  return sgn | q;  // a carry into bit 23 is the smallest normal, as it should be
}

#if SCALE_MAX
var<workgroup> red: array<u32, ${WG}>;

@compute @workgroup_size(${WG})
fn scale_max_u32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let live = w < p.count * p.chunks;
  let b = w / max(p.chunks, 1u);
  let c = w % max(p.chunks, 1u);
  var mx = 0u;
  if (live) {
    let base = b * p.words;
    for (var i = c * ${WG}u + lid; i < p.words; i += p.chunks * ${WG}u) {
      mx = max(mx, A[base + i] & 0x7fffffffu);
    }
  }
  red[lid] = mx;
  workgroupBarrier();
  for (var s = ${WG}u / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { red[lid] = max(red[lid], red[lid + s]); }
    workgroupBarrier();
  }
  if (live && lid == 0u) { part[w] = red[0]; }
}
#endif

#if SCALE_APPLY
var<workgroup> red: array<u32, ${WG}>;

/** e with max = m·2^e, m in [0.5, 1), from the max's bits (0 → 0). */
fn frexp_exp(a: u32) -> i32 {
  let be = a >> 23u;
  if (a == 0u) { return 0; }
  if (be == 0u) { return -117 - i32(countLeadingZeros(a & 0x7fffffu)); }
  return i32(be) - 126;
}

@compute @workgroup_size(${WG})
fn scale_apply_u32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let live = w < p.count * p.chunks;
  let b = w / max(p.chunks, 1u);
  let c = w % max(p.chunks, 1u);
  var mx = 0u;
  if (live && p.words > 0u) {
    for (var i = lid; i < p.chunks; i += ${WG}u) { mx = max(mx, part[b * p.chunks + i]); }
  }
  red[lid] = mx;
  workgroupBarrier();
  for (var s = ${WG}u / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { red[lid] = max(red[lid], red[lid + s]); }
    workgroupBarrier();
  }
  let m = red[0];
  if (!live) { return; }
  let bad = m >= 0x7f800000u;
  let e = select(frexp_exp(m), 0, bad);
  if (c == 0u && lid == 0u) {
    exps[b] = e;
    info[b] = select(0, -1, bad);
  }
  let base = b * p.words;
  for (var i = c * ${WG}u + lid; i < p.words; i += p.chunks * ${WG}u) {
    t[base + i] = select(ldexp_bits(A[base + i], -e), 0u, bad);
  }
}
#endif

#if LDEXP
@compute @workgroup_size(${WG})
fn ldexp_u32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u) + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.total) { return; }
    let g = i / p.group;
    var r = ldexp_bits(X[i], exps[g] * p.sign);
    if (p.has_info != 0u && info[g] == -1) { r = 0x7fc00000u; }
    out[i] = r;
  }
}
#endif
