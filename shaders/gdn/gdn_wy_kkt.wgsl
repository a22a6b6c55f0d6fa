// WY stage of the Gated DeltaNet forward, part 1 (src/backend/gpu/gdn_wy.ts): for one
// (chunk, value head) per workgroup, γ = the cumulative sum of g over the chunk (→ gcum;
// padded steps add 0) and the strict lower triangle of A_ij = β_i·(k_i·k_j)·exp(γ_i − γ_j)
// (→ A, C×C row-major; zeros on and above the diagonal, rows past the chunk's length 0);
// inv_unit_lower.wgsl then makes T = (I + A)⁻¹ and gdn_wy_wu.wgsl W and U.
// Status (plan contract): 1 for a non-finite k or β, 2 for a g > 0, NaN or −∞ in the chunk,
// atomicMax into status[n·HV + hv] once per workgroup.
//
// The Gram K·Kᵀ: the chunk's K is staged DKT columns at a time (row stride DKT + 4 floats,
// so the vec4 reads of different rows start 4 banks apart); thread t < NTILES owns one 4×4
// tile (ti ≥ tj) of the lower triangle and accumulates 16 dot products per vec4 column step
// (8 vec4 workgroup loads per 64 multiply-adds; the upper tiles are never computed).
//
// Bindings: K, beta, g (u32 words: f32 or two f16), table (vec4u: n, batch row, t0, len)
// → gcum (f32), A (vec4f), status (atomic<i32>).
#include "common/linear_id.wgsl"
#include "gdn/gdn_wy_common.wgsl"

const C: u32 = ${C}u;
const DKT: u32 = ${DKT}u;        // key columns per staged tile (a multiple of 4)
const KS4: u32 = DKT / 4u + 1u;  // vec4s per staged row (one of padding)
const NTI: u32 = C / 4u;         // 4×4 tiles per side
const NTILES: u32 = NTI * (NTI + 1u) / 2u;
const WG: u32 = ${WG}u;

var<workgroup> ks: array<vec4f, C * KS4>;
var<workgroup> gam: array<f32, C>;
var<workgroup> bet: array<f32, C>;
var<workgroup> bad: atomic<i32>;

${LOADERS}

@compute @workgroup_size(${WG})
fn gdn_wy_kkt(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let pair = linear_workgroup_id(wid, nwg);
  if (pair >= p.pairs) { return; }
  let c = pair / p.hv_count;
  let hv = pair % p.hv_count;
  let h = hv / p.group;
  let row = table[c];
  let b = row.y;
  let t0 = row.z;
  let len = row.w;
  if (lid == 0u) { atomicStore(&bad, 0); }
  var gi = 0.0;
  if (lid < C) {
    var bv = 0.0;
    if (lid < len) {
      let e = b * p.b_sB + (t0 + lid) * p.b_sT + hv * p.b_sH;
      bv = ld_beta(e);
      gi = ld_g(e);
      if (!is_finite(bv)) { atomicMax(&bad, 1); }
      if (!is_finite(gi) || gi > 0.0) { atomicMax(&bad, 2); }
    }
    bet[lid] = bv;
    gam[lid] = gi;
  }
  workgroupBarrier();
  if (lid < C) {
    // γ_i = g_0 + … + g_i in this order (the state pass and the output read gcum)
    var s = 0.0;
    for (var j = 0u; j <= lid; j++) { s += gam[j]; }
    gi = s;
    gcum[pair * C + lid] = s;
  }
  workgroupBarrier();
  if (lid < C) { gam[lid] = gi; }

  // this thread's tile (ti, tj), ti ≥ tj, from the triangular index lid
  let owns = lid < NTILES;
  var ti = u32((sqrt(8.0 * f32(lid) + 1.0) - 1.0) * 0.5);
  if ((ti + 1u) * (ti + 2u) / 2u <= lid) { ti += 1u; }
  if (ti * (ti + 1u) / 2u > lid) { ti -= 1u; }
  let tj = lid - ti * (ti + 1u) / 2u;
  let ri = ti * 4u * KS4;
  let rj = tj * 4u * KS4;
  var a0 = vec4f(0.0);
  var a1 = vec4f(0.0);
  var a2 = vec4f(0.0);
  var a3 = vec4f(0.0);
  var nf = false;
  let kb = b * p.k_sB + t0 * p.k_sT + h * p.k_sH;
  for (var d0 = 0u; d0 < p.dk; d0 += DKT) {
    workgroupBarrier();
    for (var idx = lid; idx < C * (DKT / 4u); idx += WG) {
      let i = idx / (DKT / 4u);
      let dq = idx % (DKT / 4u);
      let d = d0 + dq * 4u;
      var v = vec4f(0.0);
      if (i < len) {
        let e = kb + i * p.k_sT + d;
        if (d < p.dk) { v.x = ld_k(e); }
        if (d + 1u < p.dk) { v.y = ld_k(e + 1u); }
        if (d + 2u < p.dk) { v.z = ld_k(e + 2u); }
        if (d + 3u < p.dk) { v.w = ld_k(e + 3u); }
        nf = nf || !(is_finite(v.x) && is_finite(v.y) && is_finite(v.z) && is_finite(v.w));
      }
      ks[i * KS4 + dq] = v;
    }
    workgroupBarrier();
    if (owns) {
      for (var q = 0u; q < DKT / 4u; q++) {
        let x0 = ks[ri + q];
        let x1 = ks[ri + KS4 + q];
        let x2 = ks[ri + 2u * KS4 + q];
        let x3 = ks[ri + 3u * KS4 + q];
        let y0 = ks[rj + q];
        let y1 = ks[rj + KS4 + q];
        let y2 = ks[rj + 2u * KS4 + q];
        let y3 = ks[rj + 3u * KS4 + q];
        a0 += vec4f(dot(x0, y0), dot(x0, y1), dot(x0, y2), dot(x0, y3));
        a1 += vec4f(dot(x1, y0), dot(x1, y1), dot(x1, y2), dot(x1, y3));
        a2 += vec4f(dot(x2, y0), dot(x2, y1), dot(x2, y2), dot(x2, y3));
        a3 += vec4f(dot(x3, y0), dot(x3, y1), dot(x3, y2), dot(x3, y3));
      }
    }
  }
  if (nf) { atomicMax(&bad, 1); }
  if (owns) {
    let i0 = ti * 4u;
    let j0 = tj * 4u;
    // exp(γ_i − γ_j) ≤ 1 for j < i when g ≤ 0 (status 2 otherwise)
    let gj = vec4f(gam[j0], gam[j0 + 1u], gam[j0 + 2u], gam[j0 + 3u]);
    let cols = vec4u(j0, j0 + 1u, j0 + 2u, j0 + 3u);
    let ob = (pair * C + i0) * (C / 4u) + tj;
    A[ob] = select(vec4f(0.0), bet[i0] * a0 * exp(vec4f(gam[i0]) - gj), cols < vec4u(i0));
    A[ob + C / 4u] = select(vec4f(0.0), bet[i0 + 1u] * a1 * exp(vec4f(gam[i0 + 1u]) - gj), cols < vec4u(i0 + 1u));
    A[ob + C / 2u] = select(vec4f(0.0), bet[i0 + 2u] * a2 * exp(vec4f(gam[i0 + 2u]) - gj), cols < vec4u(i0 + 2u));
    A[ob + 3u * C / 4u] = select(vec4f(0.0), bet[i0 + 3u] * a3 * exp(vec4f(gam[i0 + 3u]) - gj), cols < vec4u(i0 + 3u));
  }
  workgroupBarrier();
  if (lid == 0u) {
    let s = atomicLoad(&bad);
    if (s != 0) { atomicMax(&status[row.x * p.hv_count + hv], s); }
  }
}
