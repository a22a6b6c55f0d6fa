// vector_norm: p-norms of the contiguous rows of X (rows × len). mode: 0 any p (scaled by the
// max |x|: 1e±38 entries neither over- nor underflow), 1 +Infinity (max |x|), 2 −Infinity
// (min |x|), 3 p = 0 (count of non-zeros), 4 p = 2, 5 p = 1. NaN anywhere in a row gives NaN
// (tested on the bits: max/min may drop NaN). Entry points: WHOLE, one workgroup per row;
// for few long rows PART, one workgroup per chunk of a row writing (max, min, Σ, NaN) with
// Σ scaled by the chunk's max, then COMBINE, one workgroup per row rescaling the chunk sums
// to the row's max (LAPACK's scale/sum-of-squares update, for any p).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

var<workgroup> w_mx: array<f32, ${WG}>;
var<workgroup> w_mn: array<f32, ${WG}>;
var<workgroup> w_s: array<f32, ${WG}>;
var<workgroup> w_nan: array<u32, ${WG}>;

// Runtime values: a constant Inf or NaN is a shader-creation error in WGSL.
var<private> INF_BITS: u32 = 0x7f800000u;
var<private> NAN_BITS: u32 = 0x7fc00000u;
fn inf_f() -> f32 { return bitcast<f32>(INF_BITS); }
fn nan_f() -> f32 { return bitcast<f32>(NAN_BITS); }

fn is_nan_bits(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }

// a / m for 0 ≤ a ≤ m finite, m > 0: both brought to m's binade first, since a GPU's fast
// division takes 1/m, which is subnormal and flushed to 0 for m above 2^126 (an H200 gave 0).
fn div_by_max(a: f32, m: f32) -> f32 {
  let fm = frexp(m);
  return ldexp(a, -fm.exp) / fm.fract;
}

fn abs_el(x: ${T}) -> f32 {
#if IS_COMPLEX
  return cabs(x);
#else
  return abs(x);
#endif
}

fn nan_el(x: ${T}) -> bool {
#if IS_COMPLEX
  return is_nan_bits(x.x) || is_nan_bits(x.y);
#else
  return is_nan_bits(x);
#endif
}

fn reduce_all(lid: u32) {
  for (var h = ${WG}u / 2u; h > 0u; h = h / 2u) {
    workgroupBarrier();
    if (lid < h) {
      w_mx[lid] = max(w_mx[lid], w_mx[lid + h]);
      w_mn[lid] = min(w_mn[lid], w_mn[lid + h]);
      w_s[lid] = w_s[lid] + w_s[lid + h];
      w_nan[lid] = w_nan[lid] | w_nan[lid + h];
    }
  }
  workgroupBarrier();
}

// The row's value from its max, min and sum (Σ (|x|/max)^p for modes 0 and 4).
fn finish(gmx: f32, mn: f32, tot: f32) -> f32 {
  if (p.mode == 1u) { return gmx; }
  if (p.mode == 2u) { return mn; }
  if (p.mode == 3u || p.mode == 5u) { return tot; }
  if (gmx == 0.0) { return select(select(0.0, inf_f(), p.len == 0u), 0.0, p.pw > 0.0); }
  if (bitcast<u32>(gmx) == 0x7f800000u) { return select(0.0, inf_f(), p.pw > 0.0); }
  if (p.mode == 4u) { return gmx * sqrt(tot); }
  if (tot == inf_f()) { return 0.0; }  // a zero entry with p < 0
  return gmx * pow(tot, 1.0 / p.pw);
}

// The workgroup's (max, min, Σ, NaN) of the threads' values, as uniform loads: the callers'
// second passes have barriers under branches on them.
fn reduce_stats(mx: f32, mn: f32, s: f32, nan: u32, lid: u32) -> vec4f {
  w_mx[lid] = mx;
  w_mn[lid] = mn;
  w_s[lid] = s;
  w_nan[lid] = nan;
  reduce_all(lid);
  return vec4f(workgroupUniformLoad(&w_mx[0]), workgroupUniformLoad(&w_mn[0]),
               workgroupUniformLoad(&w_s[0]), f32(workgroupUniformLoad(&w_nan[0])));
}

fn sum_reduce(lid: u32, t: f32) -> f32 {
  workgroupBarrier();
  w_s[lid] = t;
  for (var h = ${WG}u / 2u; h > 0u; h = h / 2u) {
    workgroupBarrier();
    if (lid < h) { w_s[lid] = w_s[lid] + w_s[lid + h]; }
  }
  return workgroupUniformLoad(&w_s[0]);
}

#if !COMBINE
// Max, min, NaN and (modes 3, 5) the plain sum of X[i0, i1) into w_*[0]; then (modes 0, 4,
// 0 < max < Inf) Σ (|x|/max)^p. Returns (max, min, Σ, NaN).
fn range_stats(i0: u32, i1: u32, lid: u32) -> vec4f {
  var mx = 0.0;
  var mn = inf_f();
  var s = 0.0;
  var nan = 0u;
  for (var i = i0 + lid; i < i1; i += ${WG}u) {
    let x = X[i];
    if (nan_el(x)) { nan = 1u; continue; }
    let a = abs_el(x);
    mx = max(mx, a);
    mn = min(mn, a);
    if (p.mode == 3u && a != 0.0) { s += 1.0; }
    if (p.mode == 5u) { s += a; }
  }
  let g = reduce_stats(mx, mn, s, nan, lid);
  let gmx = g.x;
  let gmn = g.y;
  let gnan = u32(g.w);
  var tot = g.z;
  if ((p.mode == 0u || p.mode == 4u) && gmx > 0.0 && bitcast<u32>(gmx) != 0x7f800000u) {
    var t = 0.0;
    for (var i = i0 + lid; i < i1; i += ${WG}u) {
      let q = div_by_max(abs_el(X[i]), gmx);
      if (p.mode == 4u) { t += q * q; }
      else if (q == 0.0) { t += select(0.0, inf_f(), p.pw < 0.0); }
      else { t += pow(q, p.pw); }
    }
    tot = sum_reduce(lid, t);
  } else if ((p.mode == 0u || p.mode == 4u) && gmx == 0.0 && p.pw < 0.0 && i1 > i0) {
    tot = inf_f();  // all zeros with p < 0
  }
  return vec4f(gmx, gmn, tot, f32(gnan));
}
#endif

#if WHOLE
@compute @workgroup_size(${WG})
fn vector_norm_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                        @builtin(local_invocation_index) lid: u32) {
  let r = linear_workgroup_id(wid, nwg);
  if (r >= p.rows) { return; }
  let st = range_stats(r * p.len, (r + 1u) * p.len, lid);
  if (lid == 0u) { out[r] = select(finish(st.x, st.y, st.z), nan_f(), st.w != 0.0); }
}
#endif

#if PART
@compute @workgroup_size(${WG})
fn vector_norm_part_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                             @builtin(local_invocation_index) lid: u32) {
  let g = linear_workgroup_id(wid, nwg);
  if (g >= p.rows * p.chunks) { return; }
  let r = g / p.chunks;
  let i0 = (g % p.chunks) * p.clen;
  let st = range_stats(r * p.len + i0, r * p.len + min(p.len, i0 + p.clen), lid);
  if (lid == 0u) { part[g] = st; }
}
#endif

#if COMBINE
@compute @workgroup_size(${WG})
fn vector_norm_combine_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                                @builtin(local_invocation_index) lid: u32) {
  let r = linear_workgroup_id(wid, nwg);
  if (r >= p.rows) { return; }
  var mx = 0.0;
  var mn = inf_f();
  var s = 0.0;
  var nan = 0u;
  for (var c = lid; c < p.chunks; c += ${WG}u) {
    let q = part[r * p.chunks + c];
    mx = max(mx, q.x);
    mn = min(mn, q.y);
    s += q.z;
    if (q.w != 0.0) { nan = 1u; }
  }
  let g = reduce_stats(mx, mn, s, nan, lid);
  let gmx = g.x;
  let gmn = g.y;
  let gnan = u32(g.w);
  var tot = g.z;
  if ((p.mode == 0u || p.mode == 4u) && gmx > 0.0 && bitcast<u32>(gmx) != 0x7f800000u) {
    // Each chunk's Σ was scaled by its own max: rescale by (max_c / max)^p.
    var t = 0.0;
    for (var c = lid; c < p.chunks; c += ${WG}u) {
      let q = part[r * p.chunks + c];
      if (q.z == inf_f()) { t += q.z; }
      else if (q.x > 0.0) {
        let ratio = div_by_max(q.x, gmx);
        t += q.z * select(pow(ratio, p.pw), ratio * ratio, p.mode == 4u);
      }
    }
    tot = sum_reduce(lid, t);
  }
  if (lid == 0u) { out[r] = select(finish(gmx, gmn, tot), nan_f(), gnan != 0u); }
}
#endif
