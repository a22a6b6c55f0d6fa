// The Gated DeltaNet state pass (src/backend/gpu/gdn_state.ts): one workgroup per
// (sequence n, value head hv, tile of BV state columns), chunk by chunk in order:
//   h_c = S;  Vn = U − W·S;  S ← Γ_C·S + Kᵀ·(diag(Γ_C/Γ)·Vn)
// S (dk × BV) lives in registers (RB rows × 4 columns per thread) and is mirrored into
// workgroup memory for the W·S product; Vn scaled by Γ_C/Γ goes through workgroup memory
// for the Kᵀ·Vn product. Two barriers per chunk.
// Bindings (8: WebGPU's default limit of storage buffers): seq (per sequence: first chunk,
// end chunk, first time index, length), W, U, gcum (the WY stage), K (keys: the inputs, or
// the normalised copy); outputs h, vn, fin (holds the initial states on entry when has_s0,
// the final states on exit; gdn_finalize.wgsl then writes NaN where the status is not 0).
#include "common/linear_id.wgsl"

const C = ${C}u;
const DK = ${DK}u;
const DV = ${DV}u;
const DKP = ${DKP}u;
const BV4 = ${BV4}u;
const RG = ${RG}u;
const RA = ${RA}u;
const RGB = ${RGB}u;
const RB = ${RB}u;
const PF = ${PF}u;
const KPF = ${KPF}u;

var<workgroup> Ssh: array<vec4f, ${DKP} * ${BV4}>;
var<workgroup> Vsh: array<vec4f, ${C} * ${BV4}>;
var<workgroup> sq: vec4u;

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

// U's rows rg + RG·r and the first PF dk-quads of W's rows of (chunk, head) ch, this thread's columns.
fn prefetch(ch: u32, rg: u32, col: u32, up: ptr<function, array<vec4f, ${RA}>>, wp: ptr<function, array<vec4f, ${RA} * ${PF}>>) {
  for (var r = 0u; r < RA; r++) {
    (*up)[r] = ld_u((ch * C + rg + RG * r) * DV + col, col);
    for (var q = 0u; q < PF; q++) { (*wp)[r * PF + q] = ld_w4((ch * C + rg + RG * r) * DK + 4u * q, 4u * q); }
  }
}

@compute @workgroup_size(${TS})
fn gdn_state(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
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

  if (lid == 0u) { sq = seq[n]; }
  // through workgroupUniformLoad: the chunk loop holds barriers, so its bounds must be uniform
  let sn = workgroupUniformLoad(&sq);
  var S: array<vec4f, ${RB}>;
  for (var m = 0u; m < RB; m++) {
    let d = d0 + m;
    S[m] = vec4f(0.0);
    if (p.has_s0 != 0u && holds && d < DK) { S[m] = ld_fin((nh * DK + d) * DV + col, col); }
  }
  let row = select(n, 0u, p.varlen != 0u);
  // the next chunk's U rows and first PF dk-quads of W rows, loaded during the current chunk's (b)
  var upre: array<vec4f, ${RA}>;
  var wpre: array<vec4f, ${RA} * ${PF}>;
  if (sn.x < sn.y) { prefetch(sn.x * p.HV + hv, rg, col, &upre, &wpre); }
  for (var c = sn.x; c < sn.y; c++) {
    let t0 = sn.z + (c - sn.x) * C;
    let len = min(C, sn.z + sn.w - t0);
    let ch = c * p.HV + hv;
    // h_c = S, and S into workgroup memory for W·S (every reader of the last copy passed the barrier before (b))
    if (holds) {
      for (var m = 0u; m < RB; m++) {
        let d = d0 + m;
        Ssh[d * BV4 + cg] = S[m];
        if (d < DK) { st_h((ch * DK + d) * DV + col, col, S[m]); }
      }
    }
    workgroupBarrier();
    let gl = gcum[ch * C + C - 1u];
    // (a) Vn = U − W·S for rows i = rg + RG·r
    var acc: array<vec4f, ${RA}>;
    for (var r = 0u; r < RA; r++) { acc[r] = upre[r]; }
    for (var q = 0u; q < PF; q++) {
      let k = 4u * q;
      let s0 = Ssh[k * BV4 + cg];
      let s1 = Ssh[(k + 1u) * BV4 + cg];
      let s2 = Ssh[(k + 2u) * BV4 + cg];
      let s3 = Ssh[(k + 3u) * BV4 + cg];
      for (var r = 0u; r < RA; r++) { acc[r] = fma4(acc[r], wpre[r * PF + q], s0, s1, s2, s3); }
    }
    for (var k = 4u * PF; k < DKP; k += 4u) {
      let s0 = Ssh[k * BV4 + cg];
      let s1 = Ssh[(k + 1u) * BV4 + cg];
      let s2 = Ssh[(k + 2u) * BV4 + cg];
      let s3 = Ssh[(k + 3u) * BV4 + cg];
      for (var r = 0u; r < RA; r++) { acc[r] = fma4(acc[r], ld_w4((ch * C + rg + RG * r) * DK + k, k), s0, s1, s2, s3); }
    }
    // the next chunk's first loads go out now; their latency hides behind the barrier and (b)
    if (c + 1u < sn.y) { prefetch(ch + p.HV, rg, col, &upre, &wpre); }
    // and this chunk's first KPF key rows for (b)
    let kb = row * p.sB + t0 * p.sT + hk * p.sH + d0;
    var kpre: array<vec4f, ${KPF} * ${RB} / 4>;
    for (var j = 0u; j < KPF; j++) {
      for (var m = 0u; m < RB; m += 4u) {
        kpre[j * (RB / 4u) + m / 4u] = vec4f(0.0);
        if (holds && j < len) { kpre[j * (RB / 4u) + m / 4u] = ld_k4(kb + j * p.sT + m, d0 + m); }
      }
    }
    for (var r = 0u; r < RA; r++) {
      let i = rg + RG * r;
      st_vn((ch * C + i) * DV + col, col, acc[r]);
      let f = exp(gl - gcum[ch * C + i]);
      Vsh[i * BV4 + cg] = select(vec4f(0.0), acc[r] * f, i < len);
    }
    workgroupBarrier();
    // (b) S ← Γ_C·S + Kᵀ·(diag(Γ_C/Γ)·Vn) over the chunk's real steps
    if (holds) {
      let eg = exp(gl);
      for (var m = 0u; m < RB; m++) { S[m] *= eg; }
      for (var j = 0u; j < KPF; j++) {
        if (j < len) {
          let v = Vsh[j * BV4 + cg];
          for (var m = 0u; m < RB; m += 4u) {
            let kv = kpre[j * (RB / 4u) + m / 4u];
            S[m] += kv.x * v;
            S[m + 1u] += kv.y * v;
            S[m + 2u] += kv.z * v;
            S[m + 3u] += kv.w * v;
          }
        }
      }
      for (var j = KPF; j < len; j++) {
        let v = Vsh[j * BV4 + cg];
        let e = kb + j * p.sT;
        for (var m = 0u; m < RB; m += 4u) {
          let kv = ld_k4(e + m, d0 + m);
          S[m] += kv.x * v;
          S[m + 1u] += kv.y * v;
          S[m + 2u] += kv.z * v;
          S[m + 3u] += kv.w * v;
        }
      }
    }
  }
  if (holds) {
    for (var m = 0u; m < RB; m++) {
      let d = d0 + m;
      if (d < DK) { st_fin((nh * DK + d) * DV + col, col, S[m]); }
    }
  }
}
