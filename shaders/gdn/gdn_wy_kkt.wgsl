// WY stage of the Gated DeltaNet forward, part 1 (src/backend/gpu/gdn_wy.ts): for one
// (chunk, value head) per workgroup, γ = the cumulative sum of g over the chunk (→ gcum;
// padded steps add 0) and the strict lower triangle of A_ij = β_i·(k_i·k_j)·exp(γ_i − γ_j)
// (→ A, C×C row-major; zeros on and above the diagonal, rows past the chunk's length 0);
// inv_unit_lower.wgsl then makes T = (I + A)⁻¹ and gdn_wy_wu.wgsl W and U.
// Status (plan contract): 1 for a non-finite k or β, 2 for a g > 0, NaN or −∞ in the chunk,
// atomicMax into status[n·HV + hv] once per workgroup. CHECK_Q: the first value head of each
// key head also reads the chunk's q beside k (1 for every value head of the key head): q needs
// a pass of its own, and here its loads overlap the Gram's arithmetic.
//
// The Gram K·Kᵀ: the chunk's K is staged DKT columns at a time; thread t < NTILES owns one
// GR×GR tile (ti ≥ tj) of the lower triangle and accumulates GR² dot products per vec4 column
// step (2·GR vec4 workgroup loads per 4·GR² multiply-adds; the upper tiles are never computed).
// Row i of the staged tile starts at vec4 i·DKT/4 + ⌊i/4⌋: the skew puts the rows that the
// threads of a quarter-warp read at once (GR apart) in different banks.
//
// Bindings: K, beta, g, Q (u32 words: f32 or two f16), table (vec4u: n, batch row, t0, len)
// → gcum (f32), A (vec4f), status (atomic<i32>).
#include "common/linear_id.wgsl"
#include "gdn/gdn_wy_common.wgsl"

const C: u32 = ${C}u;
const DKT: u32 = ${DKT}u;        // key columns per staged tile (a multiple of 4)
const GR: u32 = ${GR}u;          // rows and columns of a thread's tile (4 or 8)
const NTI: u32 = C / GR;         // tiles per side
const NTILES: u32 = NTI * (NTI + 1u) / 2u;
const WG: u32 = ${WG}u;
const CHECK_Q: bool = ${CHECK_Q};

var<workgroup> ks: array<vec4f, C * DKT / 4u + C / 4u>;
var<workgroup> gam: array<f32, C>;
var<workgroup> bet: array<f32, C>;
var<workgroup> bad: atomic<i32>;
var<workgroup> badq: atomic<i32>;

${LOADERS}

fn krow(i: u32) -> u32 { return i * (DKT / 4u) + i / 4u; }

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
  if (lid == 0u) {
    atomicStore(&bad, 0);
    atomicStore(&badq, 0);
  }
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
  let i0 = ti * GR;
  let j0 = tj * GR;
${ACC}
  var nf = false;
  var nq = false;
  let checkq = CHECK_Q && hv % p.group == 0u;
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
        if (checkq) {
          for (var j = 0u; j < 4u; j++) {
            if (d + j < p.dk) { nq = nq || !is_finite(ld_q(e + j)); }
          }
        }
      }
      ks[krow(i) + dq] = v;
    }
    workgroupBarrier();
    if (owns) {
      for (var q = 0u; q < DKT / 4u; q++) {
${STEP}
      }
    }
  }
  if (nf) { atomicMax(&bad, 1); }
  if (nq) { atomicMax(&badq, 1); }
  if (owns) {
    // exp(γ_i − γ_j) ≤ 1 for j < i when g ≤ 0 (status 2 otherwise); 0 on and above the diagonal
${STORE}
  }
  workgroupBarrier();
  if (lid == 0u) {
    let s = atomicLoad(&bad);
    if (s != 0) { atomicMax(&status[row.x * p.hv_count + hv], s); }
    if (atomicLoad(&badq) != 0) {
      for (var j = 0u; j < p.group; j++) { atomicMax(&status[row.x * p.hv_count + h * p.group + j], 1); }
    }
  }
}
