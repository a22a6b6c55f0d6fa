// The reverse pass of the Gated DeltaNet backward over the chunks of each sequence (last to
// first), one workgroup per (sequence, value head, BV columns of dv). The state gradient dh
// (dk × BV) lives in registers (thread: column lid % BV, rows lid / BV + RPS·m). Per chunk:
//   dhE[c] = dh (the gradient at the chunk's end), and the partial ⟨h_c, dhE⟩ for dγ;
//   dVt = dVn_local + (K ⊙ Γ_L/Γ)·dh                  (dVn_local in CD1, dVt to CD2)
//   dh  ← Γ_L·dh + dhq_c − Wᵀ·dVt                       (dhq_c = scale·(ΓQ)ᵀ·dO, read from DHE[c])
// DHE also holds, from p.slot, dh at each sequence's end (dFinal or 0) in and dh_0 out,
// and from p.hoff the ⟨h_c, dhE⟩ partials (count, HV, nvt).
// Bindings: ctab, gcum, Ks (k source), Wm, hs → CD1 (read), CD2, DHE.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

const BV = ${BV}u;
const RPS = ${RPS}u;
const MR = ${MR}u;

var<workgroup> sdh: array<f32, ${SDH}>;
var<workgroup> sdv: array<f32, ${SDV}>;
var<workgroup> red: array<f32, 256>;

${FUNCS}

@compute @workgroup_size(256)
fn gdn_bwd_state(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  let vt = lin % p.nvt;
  let nh = lin / p.nvt;
  let n = nh / p.hvn;
  let head = nh % p.hvn;
  let e = lid % BV;
  let e0 = vt * BV;
  let ec = e0 + e;
  let ev = ec < p.dv;
  let r0 = lid / BV;
  let sbase = p.slot + nh * p.dk * p.dv;
  var dh: array<f32, MR>;
  var dhq: array<f32, MR>;
  for (var m = 0u; m < MR; m++) {
    let d = r0 + RPS * m;
    if (d < p.dk && ev) { dh[m] = DHE[sbase + d * p.dv + ec]; }
  }
  let cfirst = ctab[n];
  let cend = ctab[n + 1u];
  for (var c = cend; c > cfirst; c--) {
    set_chunk(c - 1u, head);
    let L = ch.w;
    var hp = 0.0;
    for (var m = 0u; m < MR; m++) {
      let d = r0 + RPS * m;
      if (d < p.dk && ev) {
        let x = sx(d, ec);
        hp += hs[x] * dh[m];
        dhq[m] = DHE[x];
        DHE[x] = dh[m];
        sdh[d * BV + e] = dh[m];
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
    for (var idx = lid; idx < 64u * BV; idx += 256u) {
      let i = idx / BV;
      let ee = idx % BV;
      var s = 0.0;
      if (i < p.cs && e0 + ee < p.dv) {
        if (i < L) {
          var a = 0.0;
          for (var d = 0u; d < p.dk; d++) { a = fma(ldk(i, d), sdh[d * BV + ee], a); }
          s = CD1[rc(i, e0 + ee, p.dv)] + exp(gL - gcum[cb * p.cs + i]) * a;
        }
        CD2[rc(i, e0 + ee, p.dv)] = s;
      }
      sdv[idx] = s;
    }
    workgroupBarrier();
    let GL = exp(gL);
    for (var m = 0u; m < MR; m++) {
      let d = r0 + RPS * m;
      if (d < p.dk && ev) {
        var a = fma(GL, dh[m], dhq[m]);
        for (var i = 0u; i < L; i++) { a = fma(-Wm[rc(i, d, p.dk)], sdv[i * BV + e], a); }
        dh[m] = a;
      }
    }
    workgroupBarrier();
  }
  for (var m = 0u; m < MR; m++) {
    let d = r0 + RPS * m;
    if (d < p.dk && ev) { DHE[sbase + d * p.dv + ec] = dh[m]; }
  }
}
