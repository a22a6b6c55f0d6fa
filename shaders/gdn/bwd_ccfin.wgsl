// The C×C part of the Gated DeltaNet backward and the per-row dγ, dβ, one workgroup per
// (chunk, value head). From P = dO·Vnᵀ and dA = −X·Vnᵀ (CC2 slots 0, 1), QK = Q·Kᵀ and
// KK = K·Kᵀ (CC slots 0, 1):
//   Pm = scale·P ⊙ M (j ≤ i)                        → PMBS slot 0 (dQ += Pm·K, dK += Pmᵀ·Q)
//   G = dA strictly lower, B = G ⊙ β_i·e^{γ_i−γ_j}, Bs = B + Bᵀ → PMBS slot 1 (dK += Bs·K)
//   dγ_i = scale·Γ_i·(QH·dO)_i + Σ_j D_ij − Σ_j D_ji + Σ_j E_ij − Σ_j E_ji − z_i − β_iΓ_i·(KH·X)_i
//          (+ Σ z + Γ_L·⟨h, dhE⟩ at the last row), D = Pm ⊙ QK, E = B ⊙ KK
//   dβ_i = (v·X)_i − Γ_i·(KH·X)_i + Σ_j G_ij·KK_ij·e^{γ_i−γ_j}
// into RW[row·8 + 4], RW[row·8 + 5].
// Bindings: ctab, gcum, beta, CC, CC2, DHE (the ⟨h, dhE⟩ partials from p.hoff) → RW, PMBS.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

var<workgroup> gam: array<f32, 64>;
var<workgroup> bet: array<f32, 64>;
var<workgroup> rsum: array<f32, 64>;
var<workgroup> csum: array<f32, 64>;
var<workgroup> gkk: array<f32, 64>;

${FUNCS}

@compute @workgroup_size(256)
fn gdn_bwd_ccfin(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  set_chunk(lin / p.hvn, lin % p.hvn);
  let C = p.cs;
  let L = ch.w;
  let cc = p.nlin * C * C;
  if (lid < 64u) {
    var gv = 0.0;
    var bv = 0.0;
    if (lid < C) {
      gv = gcum[cb * C + lid];
      bv = ldb(lid);
    }
    gam[lid] = gv;
    bet[lid] = bv;
  }
  workgroupBarrier();
  for (var idx = lid; idx < C * C; idx += 256u) {
    let i = idx / C;
    let j = idx % C;
    var pm = 0.0;
    var bs = 0.0;
    if (i < L && j <= i) { pm = p.scale * CC2[ccx(i, j)] * exp(gam[i] - gam[j]); }
    if (i < L && j < i) { bs = CC2[cc + ccx(i, j)] * bet[i] * exp(gam[i] - gam[j]); }
    if (j < L && i < j) { bs = CC2[cc + ccx(j, i)] * bet[j] * exp(gam[j] - gam[i]); }
    PMBS[ccx(i, j)] = pm;
    PMBS[cc + ccx(i, j)] = bs;
  }
  if (lid < L) {
    let i = lid;
    var rs = 0.0;
    var gk = 0.0;
    for (var j = 0u; j <= i; j++) {
      let ex = exp(gam[i] - gam[j]);
      rs += p.scale * CC2[ccx(i, j)] * ex * CC[ccx(i, j)];
      if (j < i) {
        let g = CC2[cc + ccx(i, j)] * ex * CC[cc + ccx(i, j)];
        rs += g * bet[i];
        gk += g;
      }
    }
    rsum[i] = rs;
    gkk[i] = gk;
  } else if (lid >= 64u && lid < 64u + L) {
    let j = lid - 64u;
    var cs = 0.0;
    for (var i = j; i < L; i++) {
      let ex = exp(gam[i] - gam[j]);
      cs += p.scale * CC2[ccx(i, j)] * ex * CC[ccx(i, j)];
      if (i > j) { cs += CC2[cc + ccx(i, j)] * ex * CC[cc + ccx(i, j)] * bet[i]; }
    }
    csum[j] = cs;
  }
  workgroupBarrier();
  if (lid < L) {
    let i = lid;
    let o = (cb * C + i) * 8u;
    let gi = exp(gam[i]);
    let a2 = RW[o + 1u];
    var dgam = p.scale * gi * RW[o] + rsum[i] - csum[i] - RW[o + 2u] - bet[i] * gi * a2;
    if (i == L - 1u) {
      var zs = 0.0;
      for (var r = 0u; r < L; r++) { zs += RW[(cb * C + r) * 8u + 2u]; }
      var hd = 0.0;
      for (var t = 0u; t < 8u * p.nvt; t++) { hd += DHE[p.hoff + cb * p.nvt * 8u + t]; }
      dgam += zs + gi * hd;
    }
    RW[o + 4u] = dgam;
    RW[o + 5u] = RW[o + 3u] - gi * a2 + gkk[i];
  }
}
