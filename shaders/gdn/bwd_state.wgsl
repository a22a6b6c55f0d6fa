// The reverse pass of the Gated DeltaNet backward over the chunks of each sequence (last to
// first), one workgroup per (sequence, value head, BV columns of dv). The state gradient dh
// (dk × BV) lives in registers as vec4s (thread: columns 4·(lid % TPR) …, rows lid / TPR + RPS·m).
// Per chunk:
//   dhE[c] = dh (the gradient at the chunk's end), and the partial ⟨h_c, dhE⟩ for dγ;
//   dVt = dVn_local + (K ⊙ Γ_L/Γ)·dh     (K staged in 32-column slices; dVn_local in CD1, dVt to CD2)
//   dh  ← Γ_L·dh + dhq_c − Wᵀ·dVt          (dhq_c = scale·(ΓQ)ᵀ·dO, read from DHE[c]; W rows coalesced)
// DHE also holds, from p.slot, dh at each sequence's end (dFinal or 0) in and dh_0 out,
// and from p.hoff the ⟨h_c, dhE⟩ partials (count, HV, nvt).
// Bindings: ctab, gcum, Ks (k source), Wm, hs, CD1 → CD2, DHE.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

const BV = ${BV}u;
const TPR = ${TPR}u;
const RPS = ${RPS}u;
const MR = ${MR}u;
const NR2 = ${NR2}u;
const DKP = ${DKP}u;

var<workgroup> sdh: array<vec4f, ${SDH}>;
var<workgroup> sdv: array<vec4f, ${SDV}>;
var<workgroup> sk: array<f32, 2112>;
var<workgroup> red: array<f32, 256>;

${FUNCS}

// Four columns from e (those < dv) of a row-major (…, dv) array, and the store back.
fn ld4_dhe(x: u32, e: u32) -> vec4f {
  var v = vec4f(0.0);
  for (var c = 0u; c < 4u; c++) { if (e + c < p.dv) { v[c] = DHE[x + c]; } }
  return v;
}
fn st4_dhe(x: u32, e: u32, v: vec4f) {
  for (var c = 0u; c < 4u; c++) { if (e + c < p.dv) { DHE[x + c] = v[c]; } }
}
fn ld4_h(x: u32, e: u32) -> vec4f {
  var v = vec4f(0.0);
  for (var c = 0u; c < 4u; c++) { if (e + c < p.dv) { v[c] = hs[x + c]; } }
  return v;
}
fn ld4_dvl(x: u32, e: u32) -> vec4f {
  var v = vec4f(0.0);
  for (var c = 0u; c < 4u; c++) { if (e + c < p.dv) { v[c] = CD1[x + c]; } }
  return v;
}
fn st4_dvt(x: u32, e: u32, v: vec4f) {
  for (var c = 0u; c < 4u; c++) { if (e + c < p.dv) { CD2[x + c] = v[c]; } }
}

@compute @workgroup_size(256)
fn gdn_bwd_state(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  let vt = lin % p.nvt;
  let nh = lin / p.nvt;
  let n = nh / p.hvn;
  let head = nh % p.hvn;
  let cg = lid % TPR;
  let e4 = vt * BV + 4u * cg;
  let r0 = lid / TPR;
  let sbase = p.slot + nh * p.dk * p.dv;
  // rows of the staged dh past dk stay 0 (the K slices run to a multiple of 32)
  for (var x = lid; x < DKP * TPR; x += 256u) { sdh[x] = vec4f(0.0); }
  var dh: array<vec4f, MR>;
  var dhq: array<vec4f, MR>;
  for (var m = 0u; m < MR; m++) {
    let d = r0 + RPS * m;
    if (d < p.dk) { dh[m] = ld4_dhe(sbase + d * p.dv + e4, e4); }
  }
  let cfirst = ctab[n];
  let cend = ctab[n + 1u];
  workgroupBarrier();
  for (var c = cend; c > cfirst; c--) {
    set_chunk(c - 1u, head);
    let L = ch.w;
    var hp = 0.0;
    for (var m = 0u; m < MR; m++) {
      let d = r0 + RPS * m;
      if (d < p.dk) {
        let x = sx(d, e4);
        hp += dot(ld4_h(x, e4), dh[m]);
        dhq[m] = ld4_dhe(x, e4);
        st4_dhe(x, e4, dh[m]);
        sdh[d * TPR + cg] = dh[m];
      }
    }
    red[lid] = hp;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s >>= 1u) {
      if (lid < s) { red[lid] += red[lid + s]; }
      workgroupBarrier();
    }
    if (lid == 0u) { DHE[p.hoff + cb * p.nvt + vt] = red[0]; }
    let gL = gcum[cb * p.cs + L - 1u];
    // dVt rows i = r0 + RPS·m2: Σ_d K(i, d)·dh(d, ·) over 32-column slices of K
    // zeroed explicitly: a declaration without initialiser inside the loop was not re-zeroed on
    // every iteration here (lavapipe), carrying the last chunk's sums into the next
    var a2: array<vec4f, NR2>;
    for (var m2 = 0u; m2 < NR2; m2++) { a2[m2] = vec4f(0.0); }
    for (var d0 = 0u; d0 < p.dk; d0 += 32u) {
      for (var x = lid; x < 2048u; x += 256u) {
        let i = x / 32u;
        let dd = x % 32u;
        var v = 0.0;
        if (d0 + dd < p.dk) { v = ldk(i, d0 + dd); }
        sk[i * 33u + dd] = v;
      }
      workgroupBarrier();
      for (var m2 = 0u; m2 < NR2; m2++) {
        let i = r0 + RPS * m2;
        if (i < 64u) {
          for (var dd = 0u; dd < 32u; dd++) { a2[m2] = fma(vec4f(sk[i * 33u + dd]), sdh[(d0 + dd) * TPR + cg], a2[m2]); }
        }
      }
      workgroupBarrier();
    }
    for (var m2 = 0u; m2 < NR2; m2++) {
      let i = r0 + RPS * m2;
      if (i < 64u) {
        var s = vec4f(0.0);
        if (i < L) { s = ld4_dvl(rc(i, e4, p.dv), e4) + exp(gL - gcum[cb * p.cs + i]) * a2[m2]; }
        if (i < p.cs) { st4_dvt(rc(i, e4, p.dv), e4, s); }
        sdv[i * TPR + cg] = s;
      }
    }
    workgroupBarrier();
    let GL = exp(gL);
    for (var m = 0u; m < MR; m++) {
      let d = r0 + RPS * m;
      if (d < p.dk) {
        var a = fma(vec4f(GL), dh[m], dhq[m]);
        // four rows of W loaded before their multiply-adds: the loads overlap instead of one
        // L2 round trip per row
        var i = 0u;
        for (; i + 4u <= L; i += 4u) {
          let x = rc(i, d, p.dk);
          let w0 = Wm[x];
          let w1 = Wm[x + p.dk];
          let w2 = Wm[x + 2u * p.dk];
          let w3 = Wm[x + 3u * p.dk];
          a = fma(vec4f(-w0), sdv[i * TPR + cg], a);
          a = fma(vec4f(-w1), sdv[(i + 1u) * TPR + cg], a);
          a = fma(vec4f(-w2), sdv[(i + 2u) * TPR + cg], a);
          a = fma(vec4f(-w3), sdv[(i + 3u) * TPR + cg], a);
        }
        for (; i < L; i++) { a = fma(vec4f(-Wm[rc(i, d, p.dk)]), sdv[i * TPR + cg], a); }
        dh[m] = a;
      }
    }
    workgroupBarrier();
  }
  for (var m = 0u; m < MR; m++) {
    let d = r0 + RPS * m;
    if (d < p.dk) { st4_dhe(sbase + d * p.dv + e4, e4, dh[m]); }
  }
}
