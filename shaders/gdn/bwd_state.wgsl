// The reverse pass of the Gated DeltaNet backward over the chunks of each sequence (last to
// first), one workgroup per (sequence, value head, BV columns of dv). The state gradient dh
// (dk × BV) lives in registers as vec4s (thread: columns 4·(lid % TPR) …, rows lid / TPR + RPS·m).
// Per chunk:
//   dhE[c] = dh (the gradient at the chunk's end), and the partial ⟨h_c, dhE⟩ for dγ;
//   dVt = dVn_local + (K ⊙ Γ_L/Γ)·dh     (K staged in KW-column slices; dVn_local in CD1, dVt to CD2)
//   dh  ← Γ_L·dh + dhq_c − Wᵀ·dVt          (dhq_c = scale·(ΓQ)ᵀ·dO, read from DHE[c]; W rows coalesced)
// Every global load of a chunk that does not depend on dh (its W column when MR = 1, h_c, dhq_c,
// dVn_local) is issued at the chunk's start into registers, and its K one chunk ahead, so a chunk
// costs at most one exposed memory latency instead of one per slice and per group of W rows; 3 barriers
// per chunk at one K slice (the ⟨h_c, dhE⟩ sum goes out as 8 partials, not a barrier tree).
// DHE also holds, from p.slot, dh at each sequence's end (dFinal or 0) in and dh_0 out,
// and from p.hoff the ⟨h_c, dhE⟩ partials (count, HV, nvt, 8).
// Bindings: ctab, gcum, Ks (k source), Wm, hs, CD1 → CD2, DHE.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

const BV = ${BV}u;
const TPR = ${TPR}u;
const RPS = ${RPS}u;
const MR = ${MR}u;
const NR2 = ${NR2}u;
const DKP = ${DKP}u;
const KW = ${KW}u;
const KS = ${KW}u + 1u;
const NS = ${NS}u;
const NKL = ${NKL}u;

var<workgroup> sdh: array<vec4f, ${SDH}>;
var<workgroup> sdv: array<vec4f, ${SDV}>;
var<workgroup> sk: array<f32, ${SK}>;
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

// This thread's elements of the current chunk's K (rows x / KW of slice s, 0 past dk and its length).
fn load_k(lid: u32, kr: ptr<function, array<f32, NS * NKL>>) {
  for (var s = 0u; s < NS; s++) {
    for (var l = 0u; l < NKL; l++) {
      let x = lid + 256u * l;
      let d = s * KW + x % KW;
      var v = 0.0;
      if (d < p.dk) { v = ldk(x / KW, d); }
      (*kr)[s * NKL + l] = v;
    }
  }
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
  // rows of the staged dh past dk stay 0 (the K slices run to a multiple of KW)
  for (var x = lid; x < DKP * TPR; x += 256u) { sdh[x] = vec4f(0.0); }
  var dh: array<vec4f, MR>;
  var dhq: array<vec4f, MR>;
  var hv4: array<vec4f, MR>;
  for (var m = 0u; m < MR; m++) {
    let d = r0 + RPS * m;
    if (d < p.dk) { dh[m] = ld4_dhe(sbase + d * p.dv + e4, e4); }
  }
  let cfirst = ctab[n];
  let cend = ctab[n + 1u];
  // the chunk's K in registers, loaded one chunk ahead (the next chunk's as soon as this one's is staged)
  var kr: array<f32, NS * NKL>;
  if (cend > cfirst) {
    set_chunk(cend - 1u, head);
    load_k(lid, &kr);
  }
  workgroupBarrier();
  for (var c = cend; c > cfirst; c--) {
    set_chunk(c - 1u, head);
    let L = ch.w;
    // ---- the chunk's other loads that do not depend on dh, all issued before any is used
#if WPF
    // this thread's column of W (row d = r0), rows 0 … L − 1
    var wr: array<f32, 64>;
    for (var i = 0u; i < 64u; i++) {
      var w = 0.0;
      if (i < L && r0 < p.dk) { w = Wm[rc(i, r0, p.dk)]; }
      wr[i] = w;
    }
#endif
    var dvl: array<vec4f, NR2>;
    var gi: array<f32, NR2>;
    for (var m2 = 0u; m2 < NR2; m2++) {
      let i = r0 + RPS * m2;
      dvl[m2] = vec4f(0.0);
      gi[m2] = 0.0;
      if (i < L) { dvl[m2] = ld4_dvl(rc(i, e4, p.dv), e4); gi[m2] = gcum[cb * p.cs + i]; }
    }
    for (var m = 0u; m < MR; m++) {
      let d = r0 + RPS * m;
      hv4[m] = vec4f(0.0);
      dhq[m] = vec4f(0.0);
      if (d < p.dk) {
        let x = sx(d, e4);
        hv4[m] = ld4_h(x, e4);
        dhq[m] = ld4_dhe(x, e4);
      }
    }
    let gL = gcum[cb * p.cs + L - 1u];
    // ---- dhE[c] = dh, staged for the K product (nothing here waits for this chunk's loads)
    for (var m = 0u; m < MR; m++) {
      let d = r0 + RPS * m;
      if (d < p.dk) {
        st4_dhe(sx(d, e4), e4, dh[m]);
        sdh[d * TPR + cg] = dh[m];
      }
    }
    // dVt rows i = r0 + RPS·m2: Σ_d K(i, d)·dh(d, ·) over KW-column slices of K
    // zeroed explicitly: a declaration without initialiser inside the loop was not re-zeroed on
    // every iteration here (lavapipe), carrying the last chunk's sums into the next
    var a2: array<vec4f, NR2>;
    for (var m2 = 0u; m2 < NR2; m2++) { a2[m2] = vec4f(0.0); }
    for (var s = 0u; s < NS; s++) {
      for (var l = 0u; l < NKL; l++) {
        let x = lid + 256u * l;
        sk[(x / KW) * KS + x % KW] = kr[s * NKL + l];
      }
      if (s + 1u == NS && c - 1u > cfirst) {
        set_chunk(c - 2u, head);
        load_k(lid, &kr);
        set_chunk(c - 1u, head);
      }
      workgroupBarrier();
      for (var m2 = 0u; m2 < NR2; m2++) {
        let i = r0 + RPS * m2;
        if (i < 64u) {
          for (var dd = 0u; dd < KW; dd++) { a2[m2] = fma(vec4f(sk[i * KS + dd]), sdh[(s * KW + dd) * TPR + cg], a2[m2]); }
        }
      }
      // the last slice needs no barrier here: sk and sdh are next written after the sdv barrier
      if (s + 1u < NS) { workgroupBarrier(); }
    }
    // the ⟨h_c, dhE⟩ partial: after the first barrier (h_c has arrived by now), summed after the next
    var hp = 0.0;
    for (var m = 0u; m < MR; m++) { hp += dot(hv4[m], dh[m]); }
    red[lid] = hp;
    for (var m2 = 0u; m2 < NR2; m2++) {
      let i = r0 + RPS * m2;
      if (i < 64u) {
        var s = vec4f(0.0);
        if (i < L) { s = dvl[m2] + exp(gL - gi[m2]) * a2[m2]; }
        if (i < p.cs) { st4_dvt(rc(i, e4, p.dv), e4, s); }
        sdv[i * TPR + cg] = s;
      }
    }
    workgroupBarrier();
    // red is next written after the next chunk's first barrier
    if (lid < 8u) {
      var t = 0.0;
      for (var x = 0u; x < 32u; x++) { t += red[lid * 32u + x]; }
      DHE[p.hoff + (cb * p.nvt + vt) * 8u + lid] = t;
    }
    // no barrier after the update: it reads only sdv, next written after the next chunk's first barrier
    let GL = exp(gL);
#if WPF
    if (r0 < p.dk) {
      var a = fma(vec4f(GL), dh[0], dhq[0]);
      for (var i = 0u; i < 64u; i++) { a = fma(vec4f(-wr[i]), sdv[i * TPR + cg], a); }
      dh[0] = a;
    }
#else
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
#endif
  }
  for (var m = 0u; m < MR; m++) {
    let d = r0 + RPS * m;
    if (d < p.dk) { st4_dhe(sbase + d * p.dv + e4, e4, dh[m]); }
  }
}
