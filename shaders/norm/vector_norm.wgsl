// vector_norm: p-norms of the contiguous rows of X (rows × len), one workgroup per row.
// mode: 0 any p (scaled by the row's max |x|: 1e±38 entries neither over- nor underflow),
// 1 +Infinity (max |x|), 2 −Infinity (min |x|), 3 p = 0 (count of non-zeros), 4 p = 2,
// 5 p = 1. NaN anywhere in a row gives NaN (tested on the bits: max/min may drop NaN).
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

@compute @workgroup_size(${WG})
fn vector_norm_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                        @builtin(local_invocation_index) lid: u32) {
  let r = linear_workgroup_id(wid, nwg);
  if (r >= p.rows) { return; }
  let base = r * p.len;
  var mx = 0.0;
  var mn = inf_f();
  var s = 0.0;
  var nan = 0u;
  for (var i = lid; i < p.len; i += ${WG}u) {
    let x = X[base + i];
    if (nan_el(x)) { nan = 1u; continue; }
    let a = abs_el(x);
    mx = max(mx, a);
    mn = min(mn, a);
    if (p.mode == 3u && a != 0.0) { s += 1.0; }
    if (p.mode == 5u) { s += a; }
  }
  w_mx[lid] = mx;
  w_mn[lid] = mn;
  w_s[lid] = s;
  w_nan[lid] = nan;
  reduce_all(lid);
  // Uniform loads: the second pass's barriers sit under branches on these values.
  let gmx = workgroupUniformLoad(&w_mx[0]);
  let gnan = workgroupUniformLoad(&w_nan[0]) != 0u;
  var res = 0.0;
  if (p.mode == 1u) { res = gmx; }
  else if (p.mode == 2u) { res = w_mn[0]; }
  else if (p.mode == 3u || p.mode == 5u) { res = w_s[0]; }
  else if (gmx == 0.0) { res = select(select(0.0, inf_f(), p.len == 0u), 0.0, p.pw > 0.0); }
  else if (bitcast<u32>(gmx) == 0x7f800000u) { res = select(0.0, inf_f(), p.pw > 0.0); }
  else {
    // Second pass: Σ (|x|/max)^p in [1, len], then max·Σ^(1/p).
    var t = 0.0;
    for (var i = lid; i < p.len; i += ${WG}u) {
      let q = abs_el(X[base + i]) / gmx;
      if (p.mode == 4u) { t += q * q; }
      else if (q == 0.0) { t += select(0.0, inf_f(), p.pw < 0.0); }
      else { t += pow(q, p.pw); }
    }
    workgroupBarrier();
    w_s[lid] = t;
    for (var h = ${WG}u / 2u; h > 0u; h = h / 2u) {
      workgroupBarrier();
      if (lid < h) { w_s[lid] = w_s[lid] + w_s[lid + h]; }
    }
    workgroupBarrier();
    let tot = w_s[0];
    if (p.mode == 4u) { res = gmx * sqrt(tot); }
    else if (tot == inf_f()) { res = 0.0; }
    else { res = gmx * pow(tot, 1.0 / p.pw); }
  }
  if (lid == 0u) { out[r] = select(res, nan_f(), gnan); }
}
