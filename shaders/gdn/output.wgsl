// The Gated DeltaNet output (src/backend/gpu/gdn_output.ts): one workgroup per (chunk,
// value head, tile of BO = 4·CG·CW output columns, block of RBO rows of the chunk):
//   O = scale·( diag(Γ)·Q·h_c + ((Q·Kᵀ) ⊙ M)·Vn ),  M_ij = exp(γ_i − γ_j) for j ≤ i, else 0
// Q, K (transposed) and, with HS, the slice of h_c stream through workgroup memory in BK-wide slices
// of dk (the next slice loaded into registers meanwhile) while each thread accumulates RO rows × CW
// column vec4s (CG apart) of Q·h_c and 4×4 tiles of the lower triangle of Q·Kᵀ; the masked
// P = (Q·Kᵀ) ⊙ M then goes through workgroup memory for P·Vn.
// Bindings: tab (chunk table), Q, K (the inputs, or the normalised copies), gcum, h, vn,
// status; output o (v's shape, layout and dtype; NaN where the status is not 0).
#include "common/linear_id.wgsl"

// a var, not a const: a constant NaN is a shader-creation error
var<private> NAN_BITS: u32 = 0x7fc00000u;

const C = ${C}u;
const DK = ${DK}u;
const DV = ${DV}u;
const DKP = ${DKP}u;
const BK4 = ${BK4}u;
const RBO = ${RBO}u;
const RBO4 = ${RBO4}u;
const CG = ${CG}u;
const CW = ${CW}u;
const BO4 = ${BO4}u;
const RO = ${RO}u;
const PTT = ${PTT}u;
const TS = ${TS}u;
// Q rows padded by a vec4: rows 4 apart (a warp's two row groups) fall in different banks
const QS = ${BK4} + 1;
const KOFF = ${RBO} * QS;
const QPT = ${QPT}u;
const KPT = ${KPT}u;
const C4 = ${C} / 4;
#if HS
const HOFF = ${HOFF}u;
const HPT = ${HPT}u;
#endif

var<workgroup> sh: array<vec4f, ${SH}>;

// 4 dk-consecutive values at element e (dk index d, a multiple of 4); 0 past DK.
#if QK_HALF
#if DK4
fn ld_q4(e: u32, d: u32) -> vec4f { if (d >= DK) { return vec4f(0.0); } let w = Q[e / 4u]; return vec4f(unpack2x16float(w.x), unpack2x16float(w.y)); }
fn ld_k4(e: u32, d: u32) -> vec4f { if (d >= DK) { return vec4f(0.0); } let w = K[e / 4u]; return vec4f(unpack2x16float(w.x), unpack2x16float(w.y)); }
#else
fn ld_q4(e: u32, d: u32) -> vec4f {
  var r = vec4f(0.0);
  if (d < DK) { let a = unpack2x16float(Q[e / 2u]); r.x = a.x; r.y = a.y; }
  if (d + 2u < DK) { let b = unpack2x16float(Q[e / 2u + 1u]); r.z = b.x; r.w = b.y; }
  return r;
}
fn ld_k4(e: u32, d: u32) -> vec4f {
  var r = vec4f(0.0);
  if (d < DK) { let a = unpack2x16float(K[e / 2u]); r.x = a.x; r.y = a.y; }
  if (d + 2u < DK) { let b = unpack2x16float(K[e / 2u + 1u]); r.z = b.x; r.w = b.y; }
  return r;
}
#endif
#else
#if DK4
fn ld_q4(e: u32, d: u32) -> vec4f { if (d >= DK) { return vec4f(0.0); } return Q[e / 4u]; }
fn ld_k4(e: u32, d: u32) -> vec4f { if (d >= DK) { return vec4f(0.0); } return K[e / 4u]; }
#else
fn ld_q4(e: u32, d: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (d + q < DK) { r[q] = Q[e + q]; } }
  return r;
}
fn ld_k4(e: u32, d: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (d + q < DK) { r[q] = K[e + q]; } }
  return r;
}
#endif
#endif

// 4 dv-consecutive float32 values of h / vn at element e (column col, a multiple of 4); 0 past DV.
#if DV4
#if DV_EXACT
fn ld_h(e: u32, col: u32) -> vec4f { return h[e / 4u]; }
fn ld_vn(e: u32, col: u32) -> vec4f { return vn[e / 4u]; }
#else
fn ld_h(e: u32, col: u32) -> vec4f { if (col >= DV) { return vec4f(0.0); } return h[e / 4u]; }
fn ld_vn(e: u32, col: u32) -> vec4f { if (col >= DV) { return vec4f(0.0); } return vn[e / 4u]; }
#endif
#else
fn ld_h(e: u32, col: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (col + q < DV) { r[q] = h[e + q]; } }
  return r;
}
fn ld_vn(e: u32, col: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (col + q < DV) { r[q] = vn[e + q]; } }
  return r;
}
#endif

// o at element e (column col, a multiple of 4): 4 values, in v's dtype; columns past DV untouched.
#if O_HALF
#if DV4
fn st_o(e: u32, col: u32, v: vec4f, nan: bool) {
  if (col >= DV) { return; }
  o[e / 4u] = select(vec2u(pack2x16float(v.xy), pack2x16float(v.zw)), vec2u(0x7e007e00u), nan);
}
#else
fn st_o(e: u32, col: u32, v: vec4f, nan: bool) {
  // dv is even: a pair of columns shares one word, and this thread writes both halves
  if (col < DV) { o[e / 2u] = select(pack2x16float(v.xy), 0x7e007e00u, nan); }
  if (col + 2u < DV) { o[e / 2u + 1u] = select(pack2x16float(v.zw), 0x7e007e00u, nan); }
}
#endif
#else
#if DV4
fn st_o(e: u32, col: u32, v: vec4f, nan: bool) {
  if (col >= DV) { return; }
  o[e / 4u] = select(v, vec4f(bitcast<f32>(NAN_BITS)), nan);
}
#else
fn st_o(e: u32, col: u32, v: vec4f, nan: bool) {
  for (var q = 0u; q < 4u; q++) { if (col + q < DV) { o[e + q] = select(v[q], bitcast<f32>(NAN_BITS), nan); } }
}
#endif
#endif

// The 4×4 tile (a, b) of the lower triangle of row block rb (R = r0 / 4 tile columns left of it) for index pt.
fn tri_tile(pt: u32, R: u32) -> vec2u {
  let q = f32(2u * R + 1u);
  var a = u32(max(0.0, floor((-q + sqrt(q * q + 8.0 * f32(pt))) * 0.5)));
  if (a * R + a * (a + 1u) / 2u > pt) { a -= 1u; }
  if ((a + 1u) * R + (a + 1u) * (a + 2u) / 2u <= pt) { a += 1u; }
  return vec2u(a, pt - (a * R + a * (a + 1u) / 2u));
}

// This thread's share of the Q rows (QPT vec4s) and of the K rows (KPT groups of 4 rows, one
// vec4 of dk each) of the dk slice at kb; zeros past the chunk's length and dk.
fn load_slice(kb: u32, lid: u32, r0: u32, len: u32, qrow: u32, t0: u32,
              qp: ptr<function, array<vec4f, ${QPT}>>, kp: ptr<function, array<vec4f, ${KPT} * 4>>) {
  for (var t = 0u; t < QPT; t++) {
    let e = lid + TS * t;
    (*qp)[t] = vec4f(0.0);
    let i = r0 + e / BK4;
    let d = kb + 4u * (e % BK4);
    if (e < RBO * BK4 && i < len) { (*qp)[t] = ld_q4(qrow + (t0 + i) * p.sT + d, d); }
  }
  for (var t = 0u; t < KPT; t++) {
    let e = lid + TS * t;
    let d = kb + 4u * (e % BK4);
    for (var rr = 0u; rr < 4u; rr++) {
      let j = 4u * (e / BK4) + rr;
      (*kp)[4u * t + rr] = vec4f(0.0);
      if (e < C4 * BK4 && j < len && j < r0 + RBO) { (*kp)[4u * t + rr] = ld_k4(qrow + (t0 + j) * p.sT + d, d); }
    }
  }
}

#if HS
// This thread's share (HPT vec4s) of the BK×BO slice of h_c at dk index kb; zeros past dk and dv.
fn load_h(kb: u32, lid: u32, ch: u32, c0: u32, hp: ptr<function, array<vec4f, ${HPT}>>) {
  for (var t = 0u; t < HPT; t++) {
    let e = lid + TS * t;
    let d = kb + e / BO4;
    let cl = c0 + 4u * (e % BO4);
    (*hp)[t] = vec4f(0.0);
    if (e < 4u * BK4 * BO4 && d < DK) { (*hp)[t] = ld_h((ch * DK + d) * DV + cl, cl); }
  }
}
#endif

@compute @workgroup_size(${TS})
fn gdn_output(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.tiles) { return; }
  let rb = w % p.nrb;
  let w2 = w / p.nrb;
  let vt = w2 % p.vtiles;
  let ch = w2 / p.vtiles;
  let hv = ch % p.HV;
  let c = ch / p.HV;
  let hk = hv / p.hpk;
  let cg = lid % CG;
  let rg = lid / CG;
  let c0 = vt * (4u * BO4);
  let col = c0 + 4u * cg;
  let i0 = rg * RO;
  let r0 = rb * RBO;
  let R = r0 / 4u;
  let tb = tab[c];
  let len = tb.w;
  let qrow = tb.y * p.sB + hk * p.sH;

  // this thread's tiles of the lower triangle of the block's Q·Kᵀ
  let ntiles = RBO4 * R + RBO4 * (RBO4 + 1u) / 2u;
  var pa: array<u32, ${PTT}>;
  var pb: array<u32, ${PTT}>;
  for (var q = 0u; q < PTT; q++) {
    let t = tri_tile(min(lid + TS * q, ntiles - 1u), R);
    pa[q] = t.x;
    pb[q] = t.y;
  }
  // O[r·CW + w]: row i0 + r, columns col + 4·CG·w … + 3
  var O: array<vec4f, ${RO} * ${CW}>;
  for (var r = 0u; r < RO * CW; r++) { O[r] = vec4f(0.0); }
  var P: array<vec4f, ${PTT} * 4>;
  for (var q = 0u; q < 4u * PTT; q++) { P[q] = vec4f(0.0); }

  // software pipelined: slice kb + BK is loaded into registers while slice kb is used
  var qpre: array<vec4f, ${QPT}>;
  var kpre: array<vec4f, ${KPT} * 4>;
  load_slice(0u, lid, r0, len, qrow, tb.z, &qpre, &kpre);
#if HS
  var hpre: array<vec4f, ${HPT}>;
  load_h(0u, lid, ch, c0, &hpre);
#endif
  for (var kb = 0u; kb < DKP; kb += 4u * BK4) {
    for (var t = 0u; t < QPT; t++) {
      let e = lid + TS * t;
      if (e < RBO * BK4) { sh[(e / BK4) * u32(QS) + e % BK4] = qpre[t]; }
    }
    // K transposed, Kt[d][j] in vec4s over j: a thread's 4×4 tile of Q·Kᵀ then reads 4 columns per
    // dk index as one vec4, and neighbouring tiles read neighbouring vec4s (no bank conflicts)
    for (var t = 0u; t < KPT; t++) {
      let e = lid + TS * t;
      if (e < C4 * BK4) {
        let kq = e % BK4;
        let j4 = e / BK4;
        let k0 = kpre[4u * t];
        let k1 = kpre[4u * t + 1u];
        let k2 = kpre[4u * t + 2u];
        let k3 = kpre[4u * t + 3u];
        sh[KOFF + (4u * kq) * C4 + j4] = vec4f(k0.x, k1.x, k2.x, k3.x);
        sh[KOFF + (4u * kq + 1u) * C4 + j4] = vec4f(k0.y, k1.y, k2.y, k3.y);
        sh[KOFF + (4u * kq + 2u) * C4 + j4] = vec4f(k0.z, k1.z, k2.z, k3.z);
        sh[KOFF + (4u * kq + 3u) * C4 + j4] = vec4f(k0.w, k1.w, k2.w, k3.w);
      }
    }
#if HS
    for (var t = 0u; t < HPT; t++) {
      let e = lid + TS * t;
      if (e < 4u * BK4 * BO4) { sh[HOFF + e] = hpre[t]; }
    }
#endif
    workgroupBarrier();
    if (kb + 4u * BK4 < DKP) {
      load_slice(kb + 4u * BK4, lid, r0, len, qrow, tb.z, &qpre, &kpre);
#if HS
      load_h(kb + 4u * BK4, lid, ch, c0, &hpre);
#endif
    }
    for (var kq = 0u; kq < BK4; kq++) {
      let d = kb + 4u * kq;
      // hs[4·w + x]: h_c row d + x, this thread's column vec4 w
      var hs: array<vec4f, 4 * ${CW}>;
      for (var w = 0u; w < CW; w++) {
#if HS
        let hr = HOFF + 4u * kq * BO4 + cg + CG * w;
        hs[4u * w] = sh[hr];
        hs[4u * w + 1u] = sh[hr + BO4];
        hs[4u * w + 2u] = sh[hr + 2u * BO4];
        hs[4u * w + 3u] = sh[hr + 3u * BO4];
#else
        let cw = col + 4u * CG * w;
        let hb = (ch * DK + d) * DV + cw;
        // rows past dk read as 0 (and stay in bounds)
        for (var x = 0u; x < 4u; x++) {
          hs[4u * w + x] = vec4f(0.0);
#if DK_EXACT
          hs[4u * w + x] = ld_h(hb + x * DV, cw);
#else
          if (d + x < DK) { hs[4u * w + x] = ld_h(hb + x * DV, cw); }
#endif
        }
#endif
      }
      // one multiply-add each (no partial sums)
      for (var r = 0u; r < RO; r++) {
        let qv = sh[(i0 + r) * u32(QS) + kq];
        for (var w = 0u; w < CW; w++) {
          var a = O[r * CW + w];
          a = a + qv.x * hs[4u * w];
          a = a + qv.y * hs[4u * w + 1u];
          a = a + qv.z * hs[4u * w + 2u];
          O[r * CW + w] = a + qv.w * hs[4u * w + 3u];
        }
      }
      for (var q = 0u; q < PTT; q++) {
        if (lid + TS * q < ntiles) {
          // the tile's 4 columns at each of the 4 dk indices
          let kx = sh[KOFF + (4u * kq) * C4 + pb[q]];
          let ky = sh[KOFF + (4u * kq + 1u) * C4 + pb[q]];
          let kz = sh[KOFF + (4u * kq + 2u) * C4 + pb[q]];
          let kw = sh[KOFF + (4u * kq + 3u) * C4 + pb[q]];
          for (var rr = 0u; rr < 4u; rr++) {
            let qv = sh[(4u * pa[q] + rr) * u32(QS) + kq];
            var a = P[4u * q + rr];
            a = a + qv.x * kx;
            a = a + qv.y * ky;
            a = a + qv.z * kz;
            P[4u * q + rr] = a + qv.w * kw;
          }
        }
      }
    }
    workgroupBarrier();
  }

  // Γ on the state part; the decay mask on P, stored as Ps[j][i] (rows in vec4s); zeros above the tiles
  let gb = ch * C;
  for (var r = 0u; r < RO; r++) {
    let e = exp(gcum[gb + r0 + i0 + r]);
    for (var w = 0u; w < CW; w++) { O[r * CW + w] *= e; }
  }
  for (var q = 0u; q < PTT; q++) {
    if (lid + TS * q < ntiles) {
      var gi: vec4f;
      for (var rr = 0u; rr < 4u; rr++) { gi[rr] = gcum[gb + r0 + 4u * pa[q] + rr]; }
      for (var cc = 0u; cc < 4u; cc++) {
        let j = 4u * pb[q] + cc;
        let gj = gcum[gb + j];
        var col4: vec4f;
        for (var rr = 0u; rr < 4u; rr++) {
          let i = r0 + 4u * pa[q] + rr;
          col4[rr] = select(0.0, P[4u * q + rr][cc] * exp(gi[rr] - gj), j <= i);
        }
        sh[j * RBO4 + pa[q]] = col4;
      }
    }
  }
  for (var t = lid; t < RBO4 * (C / 4u); t += TS) {
    let a = t % RBO4;
    let b = t / RBO4;
    if (b > R + a) {
      for (var cc = 0u; cc < 4u; cc++) { sh[(4u * b + cc) * RBO4 + a] = vec4f(0.0); }
    }
  }
  workgroupBarrier();
  // P is zero for j > i: stop at this thread's last row (one row group per warp when CG ≥ 32, so no divergence)
  let jmax = min(len, r0 + i0 + RO);
  // four rows of Vn loaded before their multiply-adds (four loads in flight); rows from jmax on
  // read as 0 (Vn past the chunk's length is not written) and stay below C (jmax ≤ C, C a multiple of 4)
  for (var j0 = 0u; j0 < jmax; j0 += 4u) {
    var v: array<vec4f, 4 * ${CW}>;
    for (var jj = 0u; jj < 4u; jj++) {
      for (var w = 0u; w < CW; w++) {
        let cw = col + 4u * CG * w;
        v[4u * w + jj] = vec4f(0.0);
        if (j0 + jj < jmax) { v[4u * w + jj] = ld_vn((gb + j0 + jj) * DV + cw, cw); }
      }
    }
    for (var jj = 0u; jj < 4u; jj++) {
      for (var r = 0u; r < RO; r += 4u) {
        let pv = sh[(j0 + jj) * RBO4 + (i0 + r) / 4u];
        for (var w = 0u; w < CW; w++) {
          let vv = v[4u * w + jj];
          O[r * CW + w] += pv.x * vv;
          O[(r + 1u) * CW + w] += pv.y * vv;
          O[(r + 2u) * CW + w] += pv.z * vv;
          O[(r + 3u) * CW + w] += pv.w * vv;
        }
      }
    }
  }
  let bad = status[tb.x * p.HV + hv] != 0;
  let orow = tb.y * p.oB + hv * p.oH + col;
  for (var r = 0u; r < RO; r++) {
    let i = r0 + i0 + r;
    if (i < len) {
      for (var w = 0u; w < CW; w++) { st_o(orow + (tb.z + i) * p.oT + 4u * CG * w, col + 4u * CG * w, p.scale * O[r * CW + w], bad); }
    }
  }
}
