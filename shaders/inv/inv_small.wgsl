// Batched inverse of n×n matrices, n ≤ 4 (float32 or complex64), one thread per matrix,
// WG matrices per workgroup, the whole batch in one dispatch (folded past 65,535 groups).
//
// Memory: each thread owning a 64-byte matrix and reading it with 16 strided loads would
// waste most of every memory transaction, so the workgroup first copies its WG·S floats
// with consecutive threads on consecutive words (coalesced) into `tile`, one matrix per
// PAD floats (PAD odd: a thread-per-matrix read of the tile then hits distinct banks),
// and the results go back out the same way.
//
// Arithmetic: the closed form (adjugate / determinant) on the input scaled by a power of
// two that brings max|a_ij| into [1, 2) (exact, and it keeps the degree-n products of the
// cofactors from overflowing or underflowing). When the determinant is zero or anything
// is non-finite, the thread falls back to Gauss–Jordan with partial pivoting, which
// gives LAPACK's info: k > 0 for the first exactly-zero pivot, -1 for NaN/Inf input.
// Failed matrices are NaN; their neighbours are untouched.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

//
// Bindings (src/backend/gpu/inv.ts): A → X, info; uniform count (matrices in the batch).
// DIRECT (2×2 and 4×4 float32): a matrix is one or four vec4s and A, X are arrays of
// vec4f, so each thread loads and stores its own matrix with 16-byte accesses that
// consecutive threads make contiguous — coalesced without the staging copy, its
// barriers, or the workgroup memory that limits occupancy. Otherwise arrays of f32.

const N: u32 = ${N}u;
const NN: u32 = ${NN}u;  // N*N elements
const S: u32 = ${S}u;    // floats per matrix (2*NN for complex)
const PAD: u32 = ${PAD}u;
const WG: u32 = ${WG}u;

#if !DIRECT
var<workgroup> tile: array<f32, ${TILE}>;
#endif

struct Inv {
  x: array<${T}, ${NN}>,
  status: i32,
}

// A quiet NaN built at run time (a constant NaN is a WGSL compile error).
fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

// Bit test, since WGSL lets compilers assume x == x.
fn finite_f32(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }

#if IS_COMPLEX
fn tfinite(v: vec2f) -> bool { return finite_f32(v.x) && finite_f32(v.y); }
fn tiszero(v: vec2f) -> bool { return v.x == 0.0 && v.y == 0.0; }
fn tmag(v: vec2f) -> f32 { return abs(v.x) + abs(v.y); }
fn tmaxabs(v: vec2f) -> f32 { return max(abs(v.x), abs(v.y)); }
fn tnan() -> vec2f { return vec2f(nan_f32(), nan_f32()); }
fn trecip(v: vec2f) -> vec2f { return cdiv(vec2f(1.0, 0.0), v); }
fn tscale(v: vec2f, s: f32) -> vec2f { return v * s; }
fn ld(m: u32, k: u32) -> vec2f { return vec2f(tile[m * PAD + 2u * k], tile[m * PAD + 2u * k + 1u]); }
fn st(m: u32, k: u32, v: vec2f) { tile[m * PAD + 2u * k] = v.x; tile[m * PAD + 2u * k + 1u] = v.y; }
#else
fn tfinite(v: f32) -> bool { return finite_f32(v); }
fn tiszero(v: f32) -> bool { return v == 0.0; }
fn tmag(v: f32) -> f32 { return abs(v); }
fn tmaxabs(v: f32) -> f32 { return abs(v); }
fn tnan() -> f32 { return nan_f32(); }
fn trecip(v: f32) -> f32 { return 1.0 / v; }
fn tscale(v: f32, s: f32) -> f32 { return v * s; }
#if !DIRECT
fn ld(m: u32, k: u32) -> f32 { return tile[m * PAD + k]; }
fn st(m: u32, k: u32, v: f32) { tile[m * PAD + k] = v; }
#endif
#endif

// a*d - b*c
fn d2(a: ${T}, b: ${T}, c: ${T}, d: ${T}) -> ${T} { return tmul(a, d) - tmul(b, c); }

// Adjugate (in x) and determinant (in the returned value) by cofactors.
fn adjugate(a: array<${T}, ${NN}>, x: ptr<function, array<${T}, ${NN}>>) -> ${T} {
#if N1
  (*x)[0] = ${ONE};
  return a[0];
#elif N2
  (*x)[0] = a[3];
  (*x)[1] = -a[1];
  (*x)[2] = -a[2];
  (*x)[3] = a[0];
  return d2(a[0], a[1], a[2], a[3]);
#elif N3
  (*x)[0] = d2(a[4], a[5], a[7], a[8]);
  (*x)[1] = d2(a[2], a[1], a[8], a[7]);
  (*x)[2] = d2(a[1], a[2], a[4], a[5]);
  (*x)[3] = d2(a[5], a[3], a[8], a[6]);
  (*x)[4] = d2(a[0], a[2], a[6], a[8]);
  (*x)[5] = d2(a[2], a[0], a[5], a[3]);
  (*x)[6] = d2(a[3], a[4], a[6], a[7]);
  (*x)[7] = d2(a[1], a[0], a[7], a[6]);
  (*x)[8] = d2(a[0], a[1], a[3], a[4]);
  return tmul(a[0], (*x)[0]) + tmul(a[1], (*x)[3]) + tmul(a[2], (*x)[6]);
#else
  // 2×2 minors of rows 0–1 (s*) and rows 2–3 (c*), then the Laplace expansion.
  let s0 = d2(a[0], a[1], a[4], a[5]);
  let s1 = d2(a[0], a[2], a[4], a[6]);
  let s2 = d2(a[0], a[3], a[4], a[7]);
  let s3 = d2(a[1], a[2], a[5], a[6]);
  let s4 = d2(a[1], a[3], a[5], a[7]);
  let s5 = d2(a[2], a[3], a[6], a[7]);
  let c5 = d2(a[10], a[11], a[14], a[15]);
  let c4 = d2(a[9], a[11], a[13], a[15]);
  let c3 = d2(a[9], a[10], a[13], a[14]);
  let c2 = d2(a[8], a[11], a[12], a[15]);
  let c1 = d2(a[8], a[10], a[12], a[14]);
  let c0 = d2(a[8], a[9], a[12], a[13]);
  (*x)[0] = tmul(a[5], c5) - tmul(a[6], c4) + tmul(a[7], c3);
  (*x)[1] = -tmul(a[1], c5) + tmul(a[2], c4) - tmul(a[3], c3);
  (*x)[2] = tmul(a[13], s5) - tmul(a[14], s4) + tmul(a[15], s3);
  (*x)[3] = -tmul(a[9], s5) + tmul(a[10], s4) - tmul(a[11], s3);
  (*x)[4] = -tmul(a[4], c5) + tmul(a[6], c2) - tmul(a[7], c1);
  (*x)[5] = tmul(a[0], c5) - tmul(a[2], c2) + tmul(a[3], c1);
  (*x)[6] = -tmul(a[12], s5) + tmul(a[14], s2) - tmul(a[15], s1);
  (*x)[7] = tmul(a[8], s5) - tmul(a[10], s2) + tmul(a[11], s1);
  (*x)[8] = tmul(a[4], c4) - tmul(a[5], c2) + tmul(a[7], c0);
  (*x)[9] = -tmul(a[0], c4) + tmul(a[1], c2) - tmul(a[3], c0);
  (*x)[10] = tmul(a[12], s4) - tmul(a[13], s2) + tmul(a[15], s0);
  (*x)[11] = -tmul(a[8], s4) + tmul(a[9], s2) - tmul(a[11], s0);
  (*x)[12] = -tmul(a[4], c3) + tmul(a[5], c1) - tmul(a[6], c0);
  (*x)[13] = tmul(a[0], c3) - tmul(a[1], c1) + tmul(a[2], c0);
  (*x)[14] = -tmul(a[12], s3) + tmul(a[13], s1) - tmul(a[14], s0);
  (*x)[15] = tmul(a[8], s3) - tmul(a[9], s1) + tmul(a[10], s0);
  return tmul(s0, c5) - tmul(s1, c4) + tmul(s2, c3) + tmul(s3, c2) - tmul(s4, c1) + tmul(s5, c0);
#endif
}

// Gauss–Jordan with partial pivoting on [A | I]: the reference path for the rare
// matrices the closed form cannot take (zero determinant, non-finite values).
fn inv_pivoted(a: array<${T}, ${NN}>) -> Inv {
  var r: Inv;
  var w: array<${T}, ${W2}>;  // N rows of 2N
  r.status = 0;
  for (var i = 0u; i < N; i++) {
    for (var j = 0u; j < N; j++) {
      let v = a[i * N + j];
      if (!tfinite(v)) { r.status = -1; }
      w[i * 2u * N + j] = v;
      w[i * 2u * N + N + j] = select(${ZERO}, ${ONE}, i == j);
    }
  }
  for (var c = 0u; c < N && r.status == 0; c++) {
    var piv = c;
    for (var i = c + 1u; i < N; i++) {
      if (tmag(w[i * 2u * N + c]) > tmag(w[piv * 2u * N + c])) { piv = i; }
    }
    if (tiszero(w[piv * 2u * N + c])) { r.status = i32(c + 1u); break; }
    if (piv != c) {
      for (var j = 0u; j < 2u * N; j++) {
        let t = w[c * 2u * N + j];
        w[c * 2u * N + j] = w[piv * 2u * N + j];
        w[piv * 2u * N + j] = t;
      }
    }
    let d = w[c * 2u * N + c];
    // Eliminate with the unscaled pivot row and multipliers f/d that are exactly ±1 when
    // f = ±d, so a duplicated (or negated) row cancels to exact zeros and the next pivot
    // is exactly zero (f·(row/d) leaves rounding residue: d·(x/d) ≠ x in general).
    for (var i = 0u; i < N; i++) {
      if (i == c) { continue; }
      let f = w[i * 2u * N + c];
      let l = select(select(tdiv(f, d), -${ONE}, all(f == -d)), ${ONE}, all(f == d));
      for (var j = c + 1u; j < 2u * N; j++) { w[i * 2u * N + j] -= tmul(l, w[c * 2u * N + j]); }
    }
    for (var j = c + 1u; j < 2u * N; j++) { w[c * 2u * N + j] = tdiv(w[c * 2u * N + j], d); }
  }
  for (var i = 0u; i < N; i++) {
    for (var j = 0u; j < N; j++) {
      r.x[i * N + j] = select(w[i * 2u * N + N + j], tnan(), r.status != 0);
    }
  }
  return r;
}

@compute @workgroup_size(${WG})
fn inv_small_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let g = linear_workgroup_id(wid, nwg);
#if DIRECT
  let mat = g * WG + lid;
  if (mat >= p.count) { return; }
  let m4 = mat * (NN / 4u);
#else
  if (g * WG >= p.count) { return; }
  let base = g * WG * S;
  let total = p.count * S;
  // S passes of WG consecutive words: a constant trip count the compiler unrolls.
  for (var r = 0u; r < S; r++) {
    let i = lid + r * WG;
    if (base + i < total) { tile[(i / S) * PAD + i % S] = A[base + i]; }
  }
  workgroupBarrier();
#endif

  // Per-element statements are written out by the host (src/backend/gpu/inv.ts, `unrolled`)
  // with constant indices, so the arrays stay in registers and need no bounds checks.
  var a: array<${T}, ${NN}>;
  var mx = 0.0;
${LOAD}
  // 2^(127 - e) takes mx to [1, 2); exact, so A⁻¹ = s · (s·A)⁻¹ loses nothing.
  let e = (bitcast<u32>(mx) >> 23u) & 0xffu;
  let s = select(1.0, bitcast<f32>((254u - e) << 23u), e >= 1u && e <= 253u);
  var sa: array<${T}, ${NN}>;
${SCALE_IN}
  var x: array<${T}, ${NN}>;
  let det = adjugate(sa, &x);
  let rd = trecip(det);
  var ok = !tiszero(det) && tfinite(rd);
  var na = 0.0;  // ‖s·A‖₁ and ‖(s·A)⁻¹‖₁: their product estimates κ₁(A)
  var nx = 0.0;
${NORMS}
  // The cofactors lose accuracy in proportion to κ(A) faster than elimination does; above
  // κ₁ ≈ 2^12 (rare for real data), take the pivoted path so the LAPACK residual bound holds.
  ok = ok && finite_f32(nx) && na * nx <= 4096.0;
${SCALE_OUT}
  var status = 0;
  if (!ok) {
    let r = inv_pivoted(a);
    x = r.x;
    status = r.status;
  }

#if DIRECT
${STORE}
  info[mat] = status;
#else
  workgroupBarrier();
${STORE}
  workgroupBarrier();
  for (var r = 0u; r < S; r++) {
    let i = lid + r * WG;
    if (base + i < total) { X[base + i] = tile[(i / S) * PAD + i % S]; }
  }
  let mat = g * WG + lid;
  if (mat < p.count) { info[mat] = status; }
#endif
}
