// The Gated DeltaNet state pass with staged tiles (src/backend/gpu/gdn_state_staged.ts): one
// workgroup per (sequence n, value head hv, tile of BV state columns), chunk by chunk in order:
//   h_c = S;  Vn = U − W·S;  S ← Γ_C·S + Kᵀ·(diag(Γ_C/Γ)·Vn)
// S (dk × BV) lives in registers (RB rows × 4 columns per thread), mirrored into workgroup memory
// for W·S. W and K reach the products through one workgroup tile of CS rows × DKP: every thread
// loads a few independent, coalesced vec4s of the NEXT tile into registers right after the barrier
// that publishes the current one, so each tile costs one exposed memory latency (overlapped with
// the current tile's products) instead of one per multiply-add chain. Tiles in order per chunk:
// W rows 0…C−1 in C / CS slices, then K rows 0…C−1 likewise, then the next chunk's W.
// WD: W's tiles are all C rows × a slice of DS dk columns instead, so W·S gives each thread RA rows
// × 4 columns per slice (a 2D register tile: each vec4 of S read serves RA rows, not 1), and the
// accumulators are indexed by constant-bound loops only (registers, never local memory).
// Bindings (8): seq (per sequence: first chunk, end chunk, first time index, length), W, U, gcum,
// K (keys: the inputs, or the normalised copy); outputs h, vn, fin (the initial states on entry
// when has_s0, the final states on exit; gdn/finalize.wgsl then writes NaN where status ≠ 0).
#include "common/linear_id.wgsl"

const C = ${C}u;
const DK = ${DK}u;
const DV = ${DV}u;
const DKP = ${DKP}u;
const DKQ = ${DKP} / 4u;
// tile rows padded by one vec4: rows RG apart start in different banks (conflict-free reads in (a))
const TSTR = ${DKP} / 4u + 1u;
const BV4 = ${BV4}u;
const RG = ${RG}u;
const RA = ${RA}u;
const RGB = ${RGB}u;
const RB = ${RB}u;
const CS = ${CS}u;
const NSL = ${C} / ${CS};
const RS = ${CS} / ${RG};
const TS = ${TS}u;
const TV = ${CS} * ${DKP} / 4u;
const NL = ${NL}u;

var<workgroup> Ssh: array<vec4f, ${DKP} * ${BV4}>;
var<workgroup> Vsh: array<vec4f, ${C} * ${BV4}>;
#if DB
// two tile buffers: the next tile goes into one while the current one is read (one barrier per tile)
var<workgroup> Tsh: array<vec4f, 2 * ${TSN}>;
#else
var<workgroup> Tsh: array<vec4f, ${TSN}>;
#endif
const TSN = ${TSN}u;
#if WD
const DS = ${DS}u;
const DSQ = ${DS} / 4u;
// W tile rows padded by one vec4 (rows RG apart in different banks)
const TSW = ${DS} / 4u + 1u;
#endif

// 4 dv-consecutive values at element e (column col, a multiple of 4) of a (…, DV) float32 array; 0 past DV.
#if DV4
fn ld_u(e: u32, col: u32) -> vec4f {
#if !DV_EXACT
  if (col >= DV) { return vec4f(0.0); }
#endif
  return U[e / 4u];
}
fn ld_fin(e: u32, col: u32) -> vec4f { if (col >= DV) { return vec4f(0.0); } return fin[e / 4u]; }
#if DV_EXACT
fn st_h(e: u32, col: u32, v: vec4f) { h[e / 4u] = v; }
fn st_vn(e: u32, col: u32, v: vec4f) { vn[e / 4u] = v; }
#else
fn st_h(e: u32, col: u32, v: vec4f) { if (col < DV) { h[e / 4u] = v; } }
fn st_vn(e: u32, col: u32, v: vec4f) { if (col < DV) { vn[e / 4u] = v; } }
#endif
fn st_fin(e: u32, col: u32, v: vec4f) { if (col < DV) { fin[e / 4u] = v; } }
#else
fn ld_u(e: u32, col: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (col + q < DV) { r[q] = U[e + q]; } }
  return r;
}
fn ld_fin(e: u32, col: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (col + q < DV) { r[q] = fin[e + q]; } }
  return r;
}
fn st_h(e: u32, col: u32, v: vec4f) { for (var q = 0u; q < 4u; q++) { if (col + q < DV) { h[e + q] = v[q]; } } }
fn st_vn(e: u32, col: u32, v: vec4f) { for (var q = 0u; q < 4u; q++) { if (col + q < DV) { vn[e + q] = v[q]; } } }
fn st_fin(e: u32, col: u32, v: vec4f) { for (var q = 0u; q < 4u; q++) { if (col + q < DV) { fin[e + q] = v[q]; } } }
#endif

// 4 dk-consecutive values of W at element e (dk index d, a multiple of 4); 0 past DK.
#if DK4
fn ld_w4(e: u32, d: u32) -> vec4f {
#if !DK_EXACT
  if (d >= DK) { return vec4f(0.0); }
#endif
  return W[e / 4u];
}
#else
fn ld_w4(e: u32, d: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (d + q < DK) { r[q] = W[e + q]; } }
  return r;
}
#endif

// 4 dk-consecutive key values at element e (dk index d, a multiple of 4); 0 past DK.
#if K_HALF
#if DK4
fn ld_k4(e: u32, d: u32) -> vec4f {
#if !DK_EXACT
  if (d >= DK) { return vec4f(0.0); }
#endif
  let w = K[e / 4u];
  return vec4f(unpack2x16float(w.x), unpack2x16float(w.y));
}
#else
fn ld_k4(e: u32, d: u32) -> vec4f {
  // dk is even: element e is the low half of word e / 2
  var r = vec4f(0.0);
  if (d < DK) { let a = unpack2x16float(K[e / 2u]); r.x = a.x; r.y = a.y; }
  if (d + 2u < DK) { let b = unpack2x16float(K[e / 2u + 1u]); r.z = b.x; r.w = b.y; }
  return r;
}
#endif
#else
#if DK4
fn ld_k4(e: u32, d: u32) -> vec4f {
#if !DK_EXACT
  if (d >= DK) { return vec4f(0.0); }
#endif
  return K[e / 4u];
}
#else
fn ld_k4(e: u32, d: u32) -> vec4f {
  var r = vec4f(0.0);
  for (var q = 0u; q < 4u; q++) { if (d + q < DK) { r[q] = K[e + q]; } }
  return r;
}
#endif
#endif

// a − [w.x w.y w.z w.w]·[s0; s1; s2; s3]: one multiply-add per term (no partial sum to subtract)
fn fma4(a0: vec4f, w: vec4f, s0: vec4f, s1: vec4f, s2: vec4f, s3: vec4f) -> vec4f {
  var a = a0 - w.x * s0;
  a = a - w.y * s1;
  a = a - w.z * s2;
  return a - w.w * s3;
}

#if WD
// This thread's vec4s (flat index lid + TS·l) of W's rows 0 … C − 1, dk columns s·DS … s·DS + DS − 1.
fn load_w(ch: u32, s: u32, lid: u32, t: ptr<function, array<vec4f, ${NL}>>) {
  for (var l = 0u; l < NL; l++) {
    let f = lid + TS * l;
    let i = f / DSQ;
    let d = s * DS + 4u * (f % DSQ);
#else
// This thread's vec4s (flat index lid + TS·l) of W's rows s·CS … s·CS + CS − 1 of (chunk, head) ch.
fn load_w(ch: u32, s: u32, lid: u32, t: ptr<function, array<vec4f, ${NL}>>) {
  for (var l = 0u; l < NL; l++) {
    let f = lid + TS * l;
    let i = s * CS + f / DKQ;
    let d = 4u * (f % DKQ);
#endif
#if TILE_EXACT
    (*t)[l] = ld_w4((ch * C + i) * DK + d, d);
#else
    (*t)[l] = vec4f(0.0);
    if (f < TV) { (*t)[l] = ld_w4((ch * C + i) * DK + d, d); }
#endif
  }
}

// The same for key rows s·CS … of the chunk whose first key row starts at element kb; 0 past len.
fn load_k(kb: u32, len: u32, s: u32, lid: u32, t: ptr<function, array<vec4f, ${NL}>>) {
  for (var l = 0u; l < NL; l++) {
    let f = lid + TS * l;
    let j = s * CS + f / DKQ;
    let d = 4u * (f % DKQ);
    (*t)[l] = vec4f(0.0);
    if (f < TV && j < len) { (*t)[l] = ld_k4(kb + j * p.sT + d, d); }
  }
}

fn store_tile(o: u32, lid: u32, t: ptr<function, array<vec4f, ${NL}>>) {
  for (var l = 0u; l < NL; l++) {
    let f = lid + TS * l;
#if TILE_EXACT
    Tsh[o + (f / DKQ) * TSTR + f % DKQ] = (*t)[l];
#else
    if (f < TV) { Tsh[o + (f / DKQ) * TSTR + f % DKQ] = (*t)[l]; }
#endif
  }
}

#if WD
fn store_wtile(o: u32, lid: u32, t: ptr<function, array<vec4f, ${NL}>>) {
  for (var l = 0u; l < NL; l++) {
    let f = lid + TS * l;
#if TILE_EXACT
    Tsh[o + (f / DSQ) * TSW + f % DSQ] = (*t)[l];
#else
    if (f < TV) { Tsh[o + (f / DSQ) * TSW + f % DSQ] = (*t)[l]; }
#endif
  }
}
#endif

@compute @workgroup_size(${TS})
fn gdn_state_staged(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                    @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.tiles) { return; }
  let vt = w % p.vtiles;
  let nh = w / p.vtiles;
  let hv = nh % p.HV;
  let n = nh / p.HV;
  let hk = hv / p.hpk;
  let cg = lid % BV4;
  let rg = lid / BV4;
  let col = vt * (4u * BV4) + 4u * cg;
  let holds = rg < RGB;
  let d0 = rg * RB;
  // a read-only storage load at a uniform index: uniform, so the chunk loop may hold barriers
  let sn = seq[n];
  var S: array<vec4f, ${RB}>;
  for (var m = 0u; m < RB; m++) {
    let d = d0 + m;
    S[m] = vec4f(0.0);
    if (p.has_s0 != 0u && holds && d < DK) { S[m] = ld_fin((nh * DK + d) * DV + col, col); }
  }
  let row = select(n, 0u, p.varlen != 0u);
  let kh = row * p.sB + hk * p.sH;
  // the next tile, and the next chunk's U rows rg + RG·r, their decays γ and the chunk's last γ
  var tr: array<vec4f, ${NL}>;
  var upre: array<vec4f, ${RA}>;
  var gpre: array<f32, ${RA}>;
  var glpre = 0.0;
  if (sn.x < sn.y) {
    let ch = sn.x * p.HV + hv;
    load_w(ch, 0u, lid, &tr);
    for (var r = 0u; r < RA; r++) {
      upre[r] = ld_u((ch * C + rg + RG * r) * DV + col, col);
      gpre[r] = gcum[ch * C + rg + RG * r];
    }
    glpre = gcum[ch * C + C - 1u];
  }
#if DB
  // W's first tile into buffer 0 and S into Ssh; tile t of a chunk (W slices, then K slices: an even
  // count) lives in buffer t % 2, so every chunk's first W tile is in buffer 0
  if (sn.x < sn.y) {
    if (holds) { for (var m = 0u; m < RB; m++) { Ssh[(d0 + m) * BV4 + cg] = S[m]; } }
    store_wtile(0u, lid, &tr);
  }
  workgroupBarrier();
  for (var c = sn.x; c < sn.y; c++) {
    let t0 = sn.z + (c - sn.x) * C;
    let len = min(C, sn.z + sn.w - t0);
    let ch = c * p.HV + hv;
    let kb = kh + t0 * p.sT;
    let gl = glpre;
    var acc: array<vec4f, ${RA}>;
    var gr: array<f32, ${RA}>;
    for (var r = 0u; r < RA; r++) { acc[r] = upre[r]; gr[r] = gpre[r]; }
    if (holds) {
      for (var m = 0u; m < RB; m++) {
        let d = d0 + m;
        if (d < DK) { st_h((ch * DK + d) * DV + col, col, S[m]); }
      }
    }
    // (a) Vn = U − W·S: the next tile's loads in flight over this tile's products, then stored
    // into the other buffer (its readers passed the previous barrier)
    for (var s = 0u; s < NSL; s++) {
      let o = (s % 2u) * TSN;
      if (s + 1u < NSL) { load_w(ch, s + 1u, lid, &tr); } else { load_k(kb, len, 0u, lid, &tr); }
      for (var q = 0u; q < DSQ; q++) {
        let e = (s * DS + 4u * q) * BV4 + cg;
        let s0 = Ssh[e];
        let s1 = Ssh[e + BV4];
        let s2 = Ssh[e + 2u * BV4];
        let s3 = Ssh[e + 3u * BV4];
        for (var r = 0u; r < RA; r++) {
          acc[r] = fma4(acc[r], Tsh[o + (rg + RG * r) * TSW + q], s0, s1, s2, s3);
        }
      }
      if (s + 1u < NSL) { store_wtile(TSN - o, lid, &tr); workgroupBarrier(); } else { store_tile(TSN - o, lid, &tr); }
    }
    for (var r = 0u; r < RA; r++) {
      let i = rg + RG * r;
      st_vn((ch * C + i) * DV + col, col, acc[r]);
      Vsh[i * BV4 + cg] = select(vec4f(0.0), acc[r] * exp(gl - gr[r]), i < len);
    }
    workgroupBarrier();
    // (b) S ← Γ_C·S + Kᵀ·(diag(Γ_C/Γ)·Vn), K rows in slices of CS (tiles NSL + s)
    let eg = exp(gl);
    for (var m = 0u; m < RB; m++) { S[m] *= eg; }
    for (var s = 0u; s < NSL; s++) {
      let o = ((NSL + s) % 2u) * TSN;
      if (s + 1u < NSL) {
        load_k(kb, len, s + 1u, lid, &tr);
      } else if (c + 1u < sn.y) {
        let cn = ch + p.HV;
        load_w(cn, 0u, lid, &tr);
        for (var r = 0u; r < RA; r++) {
          upre[r] = ld_u((cn * C + rg + RG * r) * DV + col, col);
          gpre[r] = gcum[cn * C + rg + RG * r];
        }
        glpre = gcum[cn * C + C - 1u];
      }
      if (holds) {
        for (var j = 0u; j < CS; j++) {
          let v = Vsh[(s * CS + j) * BV4 + cg];
          for (var m = 0u; m < RB; m += 4u) {
            let kv = Tsh[o + j * TSTR + (d0 + m) / 4u];
            S[m] += kv.x * v;
            S[m + 1u] += kv.y * v;
            S[m + 2u] += kv.z * v;
            S[m + 3u] += kv.w * v;
          }
        }
      }
      if (s + 1u < NSL) {
        store_tile(TSN - o, lid, &tr);
        workgroupBarrier();
      } else if (c + 1u < sn.y) {
        store_wtile(TSN - o, lid, &tr);
      }
    }
    // the new S for the next chunk's W·S (this chunk's readers passed the barriers of (b))
    if (holds) { for (var m = 0u; m < RB; m++) { Ssh[(d0 + m) * BV4 + cg] = S[m]; } }
    workgroupBarrier();
  }
#else
  for (var c = sn.x; c < sn.y; c++) {
    let t0 = sn.z + (c - sn.x) * C;
    let len = min(C, sn.z + sn.w - t0);
    let ch = c * p.HV + hv;
    let kb = kh + t0 * p.sT;
    let gl = glpre;
    var acc: array<vec4f, ${RA}>;
    var gr: array<f32, ${RA}>;
    for (var r = 0u; r < RA; r++) { acc[r] = upre[r]; gr[r] = gpre[r]; }
    // h_c = S, and S into workgroup memory for W·S (its last readers passed the barriers of (b))
    if (holds) {
      for (var m = 0u; m < RB; m++) {
        let d = d0 + m;
        Ssh[d * BV4 + cg] = S[m];
        if (d < DK) { st_h((ch * DK + d) * DV + col, col, S[m]); }
      }
    }
#if WD
    // (a) Vn = U − W·S: slice s holds dk columns s·DS … of all C rows; this thread's rows rg + RG·r
    for (var s = 0u; s < NSL; s++) {
      store_wtile(0u, lid, &tr);
      workgroupBarrier();
      if (s + 1u < NSL) { load_w(ch, s + 1u, lid, &tr); } else { load_k(kb, len, 0u, lid, &tr); }
      for (var q = 0u; q < DSQ; q++) {
        let e = (s * DS + 4u * q) * BV4 + cg;
        let s0 = Ssh[e];
        let s1 = Ssh[e + BV4];
        let s2 = Ssh[e + 2u * BV4];
        let s3 = Ssh[e + 3u * BV4];
        for (var r = 0u; r < RA; r++) {
          acc[r] = fma4(acc[r], Tsh[(rg + RG * r) * TSW + q], s0, s1, s2, s3);
        }
      }
      workgroupBarrier();
    }
#else
    // (a) Vn = U − W·S: slice s holds rows s·CS + rg + RG·r' of this thread
    for (var s = 0u; s < NSL; s++) {
      store_tile(0u, lid, &tr);
      workgroupBarrier();
      if (s + 1u < NSL) { load_w(ch, s + 1u, lid, &tr); } else { load_k(kb, len, 0u, lid, &tr); }
      for (var q = 0u; q < DKQ; q++) {
        let s0 = Ssh[(4u * q) * BV4 + cg];
        let s1 = Ssh[(4u * q + 1u) * BV4 + cg];
        let s2 = Ssh[(4u * q + 2u) * BV4 + cg];
        let s3 = Ssh[(4u * q + 3u) * BV4 + cg];
        for (var r = 0u; r < RS; r++) {
          acc[s * RS + r] = fma4(acc[s * RS + r], Tsh[(rg + RG * r) * TSTR + q], s0, s1, s2, s3);
        }
      }
      workgroupBarrier();
    }
#endif
    for (var r = 0u; r < RA; r++) {
      let i = rg + RG * r;
      st_vn((ch * C + i) * DV + col, col, acc[r]);
      Vsh[i * BV4 + cg] = select(vec4f(0.0), acc[r] * exp(gl - gr[r]), i < len);
    }
    // (b) S ← Γ_C·S + Kᵀ·(diag(Γ_C/Γ)·Vn), K rows in slices of CS
    let eg = exp(gl);
    for (var m = 0u; m < RB; m++) { S[m] *= eg; }
    for (var s = 0u; s < NSL; s++) {
      store_tile(0u, lid, &tr);
      workgroupBarrier();
      if (s + 1u < NSL) {
        load_k(kb, len, s + 1u, lid, &tr);
      } else if (c + 1u < sn.y) {
        let cn = ch + p.HV;
        load_w(cn, 0u, lid, &tr);
        for (var r = 0u; r < RA; r++) {
          upre[r] = ld_u((cn * C + rg + RG * r) * DV + col, col);
          gpre[r] = gcum[cn * C + rg + RG * r];
        }
        glpre = gcum[cn * C + C - 1u];
      }
      if (holds) {
        // rows past len are zero in both tiles: a constant trip count the compiler can unroll
        for (var j = 0u; j < CS; j++) {
          let v = Vsh[(s * CS + j) * BV4 + cg];
          for (var m = 0u; m < RB; m += 4u) {
            let kv = Tsh[j * TSTR + (d0 + m) / 4u];
            S[m] += kv.x * v;
            S[m + 1u] += kv.y * v;
            S[m + 2u] += kv.z * v;
            S[m + 3u] += kv.w * v;
          }
        }
      }
      workgroupBarrier();
    }
  }
#endif
  if (holds) {
    for (var m = 0u; m < RB; m++) {
      let d = d0 + m;
      if (d < DK) { st_fin((nh * DK + d) * DV + col, col, S[m]); }
    }
  }
}
