// Finalize of the GPU SVD's Jacobi path (src/backend/gpu/svd.ts): Y = X·W has mutually
// orthogonal columns; σⱼ = ‖yⱼ‖, sorted descending; Vh = (Y·Σ⁻¹)ᴴ in that order with the
// rows of σ = 0 completed to an orthonormal set; W's columns permuted the same way.
// Every section is one kernel (one define each):
// NORMS:    Y (…, rows, n) → col, sig: σⱼ = nrm·2^e, col = (bits of nrm, e), yⱼ scaled by 2^−e
//           exactly first (tiny columns neither underflow nor flush); sig = σⱼ, 0 below the
//           smallest normal (the CPU's rule). Thread = column, 64 columns per workgroup.
// SORT:     sig, col, exps, sinfo, jinfo → perm, S, info: rank by counting (ties
//           by index: a stable sort), S = σ·2^exps (NaN where the input was not finite).
// VH:       Y, W, col, perm, info, cinv → Vh, Wp: 16×16 tiles through workgroup
//           memory (reads along Y's rows, writes along Vh's rows, to A's unsorted columns).
// COMPLETE: one workgroup per matrix: rows ρ ≥ r (σ = 0) of Vh, classical Gram–Schmidt
//           twice on the unit vector e_i whose row of the basis so far is shortest
//           (residual² ≥ 1/n); rows of the basis that are exactly zero there take e_i as is,
//           so a zero matrix costs O(n²).
// MERGE:    info = sinfo = −1 ? −1 : jinfo.
#include "svd/scale.wgsl"
#include "common/complex.wgsl"

const NAN_BITS = 0x7fc00000u;

#if IS_COMPLEX
fn tbits_max(y: vec2f) -> u32 { let u = bitcast<vec2u>(y) & vec2u(0x7fffffffu); return max(u.x, u.y); }
fn tldexp(y: vec2f, e: i32) -> vec2f {
  let u = bitcast<vec2u>(y);
  return bitcast<vec2f>(vec2u(ldexp_bits(u.x, e), ldexp_bits(u.y, e)));
}
fn tabs2(y: vec2f) -> f32 { return dot(y, y); }
fn tscale(y: vec2f, s: f32) -> vec2f { return y * s; }
fn tnan() -> vec2f { var u = vec2u(NAN_BITS); return bitcast<vec2f>(u); }  // a var: no constant NaN
#else
fn tbits_max(y: f32) -> u32 { return bitcast<u32>(y) & 0x7fffffffu; }
fn tldexp(y: f32, e: i32) -> f32 { return bitcast<f32>(ldexp_bits(bitcast<u32>(y), e)); }
fn tabs2(y: f32) -> f32 { return y * y; }
fn tscale(y: f32, s: f32) -> f32 { return y * s; }
fn tnan() -> f32 { var u = NAN_BITS; return bitcast<f32>(u); }  // a var: no constant NaN
#endif

/** e with a = m·2^e, m in [0.5, 1), from |bits| (0 → 0). */
fn exp_of(a: u32) -> i32 {
  let be = a >> 23u;
  if (a == 0u) { return 0; }
  if (be == 0u) { return -117 - i32(countLeadingZeros(a & 0x7fffffu)); }
  return i32(be) - 126;
}

/** σ = nrm·2^e as f32, 0 below the smallest normal (the CPU's rule) or for a zero column. */
fn sigma_of(nrm: f32, e: i32) -> f32 {
  if (nrm == 0.0) { return 0.0; }
  let sg = ldexp_bits(bitcast<u32>(nrm), e);
  return select(bitcast<f32>(sg), 0.0, (sg >> 23u) == 0u);
}

#if NORMS
@compute @workgroup_size(${WG})
fn svd_norms_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let b = w / p.tiles;
  let j = (w % p.tiles) * ${WG}u + lid;
  if (b >= p.count || j >= p.n) { return; }
  let base = b * p.rows * p.n + j;
  var mx = 0u;
  for (var i = 0u; i < p.rows; i++) { mx = max(mx, tbits_max(Y[base + i * p.n])); }
  let e = exp_of(mx);
  var s = 0.0;
  if (mx != 0u) {
    for (var i = 0u; i < p.rows; i++) { s += tabs2(tldexp(Y[base + i * p.n], -e)); }
  }
  let nrm = sqrt(s);
  col[b * p.n + j] = vec2u(bitcast<u32>(nrm), bitcast<u32>(e));
  sig[b * p.n + j] = sigma_of(nrm, e);
}
#endif

#if SORT
@compute @workgroup_size(${WG})
fn svd_sort_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let b = w / p.tiles;
  let j = (w % p.tiles) * ${WG}u + lid;
  if (b >= p.count || j >= p.n) { return; }
  let o = b * p.n;
  let sj = sig[o + j];
  var rank = 0u;
  for (var i = 0u; i < p.n; i++) {
    let si = sig[o + i];
    rank += select(0u, 1u, si > sj || (si == sj && i < j));
  }
  let bad = sinfo[b] == -1;
  perm[o + rank] = i32(j);
  var sv = 0u;
  if (sj != 0.0) { let c = col[o + j]; sv = ldexp_bits(c.x, bitcast<i32>(c.y) + exps[b]); }
  S[o + rank] = bitcast<f32>(select(sv, NAN_BITS, bad));
  if (j == 0u) {
    var ji = 0;
    if (p.has_jinfo != 0u) { ji = jinfo[b]; }
    info[b] = select(ji, -1, bad);
  }
}
#endif

#if VH
var<workgroup> tile: array<${T}, 256>;

@compute @workgroup_size(256)
fn svd_vh_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  let live = w < p.count * p.tiles * p.tiles;
  let b = w / (p.tiles * p.tiles);
  let t = w % (p.tiles * p.tiles);
  let i0 = (t / p.tiles) * 16u;
  let r0 = (t % p.tiles) * 16u;
  let ly = lid / 16u;
  let lx = lid % 16u;
  let o = b * p.n;
  // phase 1: row i of Y, sorted column ρ (consecutive threads: consecutive ρ)
  var v = ${ZERO};
  if (live && i0 + ly < p.n && r0 + lx < p.n) {
    let i = i0 + ly;
    let c = u32(perm[o + r0 + lx]);
    let y = Y[(o + i) * p.n + c];
    let cc = col[o + c];
    let nrm = bitcast<f32>(cc.x);
    let e = bitcast<i32>(cc.y);
    if (sigma_of(nrm, e) != 0.0) { v = tscale(tldexp(y, -e), 1.0 / nrm); }
    if (p.has_w != 0u) { Wp[(o + i) * p.n + r0 + lx] = W[(o + i) * p.n + c]; }
  }
  tile[ly * 16u + lx] = v;
  workgroupBarrier();
  // phase 2: Vh row ρ = r0 + ly, column i = i0 + lx
  if (live && r0 + ly < p.n && i0 + lx < p.n) {
    let bad = info[b] == -1;
    let col = u32(cinv[b * p.mstride + p.coff + i0 + lx]);  // X's rows are A's sorted columns
    Vh[(o + r0 + ly) * p.n + col] = select(tconj(tile[lx * 16u + ly]), tnan(), bad);
  }
}
#endif

#if COMPLETE
var<workgroup> redf: array<f32, ${WG}>;
var<workgroup> redu: array<u32, ${WG}>;
var<workgroup> shu: u32;
var<workgroup> shf: f32;

/** Workgroup sum of x (uniform result). */
fn wg_sum(lid: u32, x: f32) -> f32 {
  redf[lid] = x;
  workgroupBarrier();
  for (var s = ${WG}u / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { redf[lid] += redf[lid + s]; }
    workgroupBarrier();
  }
  if (lid == 0u) { shf = redf[0]; }
  return workgroupUniformLoad(&shf);
}

@compute @workgroup_size(${WG})
fn svd_complete_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                         @builtin(local_invocation_index) lid: u32) {
  let b = linear_workgroup_id(wid, nwg);
  if (b >= p.count) { return; }
  let n = p.n;
  let o = b * n;
  let vo = b * n * n;
  // r = number of nonzero σ (they come first); matrices of info −1 stay NaN
  var cnt = 0u;
  for (var i = lid; i < n; i += ${WG}u) { cnt += select(0u, 1u, sig[o + i] != 0.0); }
  redu[lid] = cnt;
  workgroupBarrier();
  for (var s = ${WG}u / 2u; s > 0u; s = s / 2u) {
    if (lid < s) { redu[lid] += redu[lid + s]; }
    workgroupBarrier();
  }
  if (lid == 0u) { shu = select(redu[0], n, info[b] == -1); }
  let r = workgroupUniformLoad(&shu);
  if (r >= n) { return; }
  // squared row norms of the basis so far (rows of Vh = conjugated columns of U_x)
  for (var i = lid; i < n; i += ${WG}u) {
    var s = 0.0;
    for (var c = 0u; c < r; c++) { s += tabs2(Vh[vo + c * n + i]); }
    rn[o + i] = s;
  }
  for (var rho = r; rho < n; rho++) {
    // the shortest row (ties: the first)
    var best = 3.4e38;
    var bi = 0u;
    for (var i = lid; i < n; i += ${WG}u) {
      if (rn[o + i] < best) { best = rn[o + i]; bi = i; }
    }
    redf[lid] = best;
    redu[lid] = bi;
    workgroupBarrier();
    for (var s = ${WG}u / 2u; s > 0u; s = s / 2u) {
      if (lid < s) {
        let f2 = redf[lid + s];
        let i2 = redu[lid + s];
        if (f2 < redf[lid] || (f2 == redf[lid] && i2 < redu[lid])) { redf[lid] = f2; redu[lid] = i2; }
      }
      workgroupBarrier();
    }
    if (lid == 0u) { shu = redu[0]; shf = redf[0]; }
    let is = workgroupUniformLoad(&shu);
    let rmin = workgroupUniformLoad(&shf);
    let row = vo + rho * n;
    if (rmin == 0.0) {
      // every basis row is exactly zero at is: e_is is orthogonal as it is
      for (var k = lid; k < n; k += ${WG}u) {
        Vh[row + k] = select(${ZERO}, ${ONE}, k == is);
        if (k == is) { rn[o + k] = 1.0; }
      }
      storageBarrier();
      continue;
    }
    // v = e_is − Σ_c ⟨v_c, e_is⟩ v_c
    for (var k = lid; k < n; k += ${WG}u) {
      var acc = select(${ZERO}, ${ONE}, k == is);
      for (var c = 0u; c < rho; c++) { acc -= tmul(tconj(Vh[vo + c * n + is]), Vh[vo + c * n + k]); }
      Vh[row + k] = acc;
    }
    storageBarrier();
    workgroupBarrier();
    // once more: h_c = ⟨v_c, v⟩, v −= Σ_c h_c v_c
    for (var c = lid; c < rho; c += ${WG}u) {
      var acc = ${ZERO};
      for (var k = 0u; k < n; k++) { acc += tmul(tconj(Vh[vo + c * n + k]), Vh[row + k]); }
      h[o + c] = acc;
    }
    storageBarrier();
    workgroupBarrier();
    var part = 0.0;
    for (var k = lid; k < n; k += ${WG}u) {
      var acc = Vh[row + k];
      for (var c = 0u; c < rho; c++) { acc -= tmul(h[o + c], Vh[vo + c * n + k]); }
      Vh[row + k] = acc;
      part += tabs2(acc);
    }
    let inv = 1.0 / sqrt(wg_sum(lid, part));
    for (var k = lid; k < n; k += ${WG}u) {
      let v = tscale(Vh[row + k], inv);
      Vh[row + k] = v;
      rn[o + k] += tabs2(v);
    }
    storageBarrier();
    workgroupBarrier();
  }
}
#endif

#if MERGE
@compute @workgroup_size(${WG})
fn svd_merge_i32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let i = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (i >= p.count) { return; }
  info[i] = select(jinfo[i], -1, sinfo[i] == -1);
}
#endif
