// Determinants from partial-pivoted LU factors (det = (−1)^(interchanges) · ∏ u_ii), one
// workgroup per matrix, float32 or complex64. Each thread takes a strided share of the
// diagonal, then a tree reduction combines the shares. The product is kept as
// mantissa · 2^exponent (largest component of the mantissa in [0.5, 1), renormalised
// after every multiplication), so it overflows or underflows only if the determinant
// does, as on the CPU (native/src/det/det.cpp); log|det| is the sum of log|u_ii|. The
// group also scans the input A: NaN/Inf anywhere gives NaN results (a NaN in A need not
// reach U's diagonal), info > 0 (an exactly zero pivot) gives det 0, sign 0, log −∞.
//
// A non-finite U diagonal from a finite A (the factors overflowed) gives NaN too.
//
// Large matrices are scanned by MODE_SCAN first, over many groups per matrix (a single
// group reading a 4096² matrix would take longer than the rest): group c of matrix b
// writes FLAGS[b·chunks + c] = 1 when its CH elements hold a NaN/Inf, and the det group
// reads those flags instead of A (uniform scan_a = 0).
//
// Bindings (src/backend/gpu/lu_ops.ts, detProgram), arrays of T = f32 or vec2f, i32, u32:
// MODE_SCAN: A → FLAGS; uniforms total (groups), chunks (groups per matrix), nn (n²).
// MODE_DET / MODE_SLOGDET: A, FLAGS, LU (count matrices n×n), PIV (count·n, 1-based), INFO
// (count) → DET (count, T); or SIGN (count, T) and LOGABS (count, f32). Uniforms: count
// (matrices), n, scan_a (1: scan A here; 0: read FLAGS), chunks.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const WG: u32 = ${WG}u;

#if MODE_SCAN
const CH: u32 = ${CH}u;
var<workgroup> any_s: atomic<u32>;
#else
var<workgroup> mant_s: array<${T}, ${WG}>;
var<workgroup> expo_s: array<i32, ${WG}>;
var<workgroup> la_s: array<f32, ${WG}>;
// bit 0: odd number of interchanges; bit 1: a NaN/Inf in A
var<workgroup> flags_s: array<u32, ${WG}>;
#endif

// A quiet NaN built at run time (a constant NaN is a WGSL compile error).
fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

fn inf_f32() -> f32 {
  var bits = 0x7f800000u;
  return bitcast<f32>(bits);
}

// 2^k exactly, for −126 ≤ k ≤ 127 (built from the exponent field: exp2 need not be exact).
fn pow2(k: i32) -> f32 {
  return bitcast<f32>(u32(k + 127) << 23u);
}

// v · 2^k in steps the exponent field holds (ldexp is indeterminate past 2^128): an
// overflow gives ±Inf, an underflow 0 (or a subnormal where the device keeps them).
fn scale2(v: ${T}, k: i32) -> ${T} {
  var r = v;
  var e = clamp(k, -504, 504);
  for (var s = 0; s < 4; s++) {
    let d = clamp(e, -126, 127);
    r = r * pow2(d);
    e -= d;
  }
  return r;
}

#if IS_COMPLEX
fn big(v: vec2f) -> f32 { return max(abs(v.x), abs(v.y)); }
fn nonfinite(v: vec2f) -> bool { return any((bitcast<vec2u>(v) & vec2u(0x7f800000u)) == vec2u(0x7f800000u)); }
fn tnan() -> vec2f { return vec2f(nan_f32(), nan_f32()); }
#else
fn big(v: f32) -> f32 { return abs(v); }
fn nonfinite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) == 0x7f800000u; }
fn tnan() -> f32 { return nan_f32(); }
#endif

// (m, e) → (m·2^−x, e + x) with the largest component of the new m in [0.5, 1) (0 stays 0).
struct Me { m: ${T}, e: i32 }
fn renorm(m: ${T}, e: i32) -> Me {
  let x = frexp(big(m)).exp;
  return Me(scale2(m, -x), e + x);
}

#if MODE_SCAN
@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.total) { return; }
  if (lid == 0u) { atomicStore(&any_s, 0u); }
  workgroupBarrier();
  let b = w / p.chunks;
  let e0 = (w % p.chunks) * CH;
  let e1 = min(e0 + CH, p.nn);
  var bad = false;
  for (var e = e0 + lid; e < e1; e += WG) {
    bad = bad || nonfinite(A[b * p.nn + e]);
  }
  if (bad) { atomicStore(&any_s, 1u); }
  workgroupBarrier();
  if (lid == 0u) { FLAGS[w] = atomicLoad(&any_s); }
}
#else
@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let b = linear_workgroup_id(wid, nwg);
  if (b >= p.count) { return; }
  let n = p.n;
  let nn = n * n;
  let base = b * nn;
  var flags = 0u;
  if (p.scan_a != 0u) {
    for (var e = lid; e < nn; e += WG) {
      if (nonfinite(A[base + e])) { flags = 2u; }
    }
  } else {
    for (var c = lid; c < p.chunks; c += WG) {
      if (FLAGS[b * p.chunks + c] != 0u) { flags = 2u; }
    }
  }
  var mant = ${ONE};
  var expo = 0;
  var la = 0.0;
  for (var i = lid; i < n; i += WG) {
    let u = LU[base + i * n + i];
    if (nonfinite(u)) { flags |= 2u; }
    la += log(tabs(u));
    let f = renorm(u, 0);
    let r = renorm(tmul(mant, f.m), expo + f.e);
    mant = r.m;
    expo = r.e;
    if (PIV[b * n + i] - 1 != i32(i)) { flags ^= 1u; }
  }
  mant_s[lid] = mant;
  expo_s[lid] = expo;
  la_s[lid] = la;
  flags_s[lid] = flags;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) {
      let r = renorm(tmul(mant_s[lid], mant_s[lid + s]), expo_s[lid] + expo_s[lid + s]);
      mant_s[lid] = r.m;
      expo_s[lid] = r.e;
      la_s[lid] += la_s[lid + s];
      let f0 = flags_s[lid];
      let f1 = flags_s[lid + s];
      flags_s[lid] = ((f0 ^ f1) & 1u) | ((f0 | f1) & 2u);
    }
    workgroupBarrier();
  }
  if (lid != 0u) { return; }
  let fl = flags_s[0];
  let info = INFO[b];
  let neg = (fl & 1u) != 0u;
  let m = select(mant_s[0], -mant_s[0], neg);
  // NaN/Inf input first (as the CPU), then an exactly zero pivot
  let bad = (fl & 2u) != 0u || info < 0;
  let singular = !bad && info > 0;
#if MODE_DET
  var d = scale2(m, expo_s[0]);
  if (singular) { d = ${ZERO}; }
  if (bad) { d = tnan(); }
  DET[b] = d;
#else
#if IS_COMPLEX
  // the phase of the mantissa (its magnitude is in [0.5, √2): no over/underflow)
  var sg = m / length(m);
#else
  var sg = sign(m);
#endif
  var l = la_s[0];
  if (singular) { sg = ${ZERO}; l = -inf_f32(); }
  if (bad) { sg = tnan(); l = nan_f32(); }
  SIGN[b] = sg;
  LOGABS[b] = l;
#endif
}
#endif
