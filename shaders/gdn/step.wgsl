// One token of the gated delta rule for a batch of sequences (gdn.recurrentStep, a decoding
// step): per sequence n and value head hv, with key head h = ⌊hv / (HV/H)⌋,
//   S ← exp(g)·(I − β·k·kᵀ)·S + β·k·vᵀ = a·S + k·wᵀ,  w = β·(v − a·kᵀS),  a = exp(g)
//   o = Sᵀ·(scale·q)      (q, k ← x / sqrt(Σx² + 1e-6) first when p.l2 = 1)
//
// Bindings (src/backend/gpu/gdn_step.ts): S (N, HV, dk, dv) float32; q, k (N, H, dk); v (N, HV, dv);
// beta, g (N, HV) → o (N, HV, dv), Snew (N, HV, dk, dv) float32, status (N, HV) int32. With HALF the
// q/k/v/beta/g/o buffers hold two float16 values per u32 word (element 2i in the low half);
// arithmetic is float32 either way. With BG (devices allowing only 8 storage buffers per stage,
// WebGPU's default) beta and g come in one buffer bg: beta's words, then g's from word goff.
//
// One workgroup per (n, hv): the whole state of a head is one workgroup's, so a non-finite entry
// anywhere in it can turn all of that head's outputs into NaN without a second dispatch. Thread
// (r, c) of RG row groups × CW columns owns column col0 + c of each CW-column tile and rows
// r, r + RG, … (ROWS of them, in registers): the state is read once and written once, coalesced
// along the columns. kᵀS and the output Sᵀq are sums over the rows: per-thread partial sums,
// then across the RG row groups through workgroup memory (two barriers per tile).
//
// status: 1 a non-finite q/k/v/β/state entry of the head, else 2 a g that is > 0, NaN or −∞, else 0
// (the CPU's order); then o and Snew of the head are NaN. Checked on the bits (the arithmetic may
// assume finite values).
#include "common/linear_id.wgsl"

const RG: u32 = ${RG}u;     // row groups
const CW: u32 = ${CW}u;     // columns per tile (even: a float16 word of o is one thread's)
const ROWS: u32 = ${ROWS}u; // rows per thread, ⌈dk / RG⌉
const WG: u32 = RG * CW;

var<workgroup> red_k: array<f32, WG>;  // partial kᵀS of each (row group, column)
var<workgroup> red_o: array<f32, WG>;  // partial Sᵀq
var<workgroup> nrm_q: array<f32, RG>;  // partial Σq², Σk² of each row group
var<workgroup> nrm_k: array<f32, RG>;
var<workgroup> flags: atomic<u32>;     // bit 0: a non-finite entry, bit 1: a bad gate

// Not a constant: a NaN constant expression is a shader-creation error.
var<private> NAN_BITS: u32 = 0x7fc00000u;

fn nonfinite32(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u; }

// A loaded value and whether it was non-finite (judged on its stored bits).
struct Ld { x: f32, bad: bool }

#if HALF
fn half_ld(w: u32, i: u32) -> Ld {
  let sh = 16u * (i & 1u);
  return Ld(unpack2x16float(w)[i & 1u], ((w >> sh) & 0x7c00u) == 0x7c00u);
}
// g > 0 (a positive half: sign clear, not zero), NaN or ±inf
fn half_gate_bad(w: u32, i: u32) -> bool {
  let h = (w >> (16u * (i & 1u))) & 0xffffu;
  return (h & 0x7c00u) == 0x7c00u || ((h & 0x8000u) == 0u && h != 0u);
}
fn ld_q(i: u32) -> Ld { return half_ld(q[i >> 1u], i); }
fn ld_k(i: u32) -> Ld { return half_ld(k[i >> 1u], i); }
fn ld_v(i: u32) -> Ld { return half_ld(v[i >> 1u], i); }
#if BG
fn beta_word(i: u32) -> u32 { return bg[i >> 1u]; }
fn g_word(i: u32) -> u32 { return bg[p.goff + (i >> 1u)]; }
#else
fn beta_word(i: u32) -> u32 { return beta[i >> 1u]; }
fn g_word(i: u32) -> u32 { return g[i >> 1u]; }
#endif
fn ld_beta(i: u32) -> Ld { return half_ld(beta_word(i), i); }
fn ld_g(i: u32) -> Ld { return Ld(unpack2x16float(g_word(i))[i & 1u], half_gate_bad(g_word(i), i)); }
#else
fn f32_ld(x: f32) -> Ld { return Ld(x, nonfinite32(x)); }
fn ld_q(i: u32) -> Ld { return f32_ld(q[i]); }
fn ld_k(i: u32) -> Ld { return f32_ld(k[i]); }
fn ld_v(i: u32) -> Ld { return f32_ld(v[i]); }
#if BG
fn beta_val(i: u32) -> f32 { return bg[i]; }
fn g_val(i: u32) -> f32 { return bg[p.goff + i]; }
#else
fn beta_val(i: u32) -> f32 { return beta[i]; }
fn g_val(i: u32) -> f32 { return g[i]; }
#endif
fn ld_beta(i: u32) -> Ld { return f32_ld(beta_val(i)); }
fn ld_g(i: u32) -> Ld {
  let x = g_val(i);
  let b = bitcast<u32>(x);
  return Ld(x, nonfinite32(x) || ((b & 0x80000000u) == 0u && b != 0u));
}
#endif

@compute @workgroup_size(${WG})
fn gdn_step_${DTYPE}(@builtin(workgroup_id) wid3: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) tid: u32) {
  let wid = linear_workgroup_id(wid3, nwg);
  if (wid >= p.count) { return; }
  let hv = wid % p.HV;
  let n = wid / p.HV;
  let h = hv / (p.HV / p.H);
  let c = tid % CW;
  let r = tid / CW;
  let dk = p.dk;
  let dv = p.dv;
  if (tid == 0u) { atomicStore(&flags, 0u); }

  // this thread's rows of q and k, their partial squared norms and checks
  var bad = false;
  var qr: array<f32, ROWS>;
  var kr: array<f32, ROWS>;
  var sq = 0.0;
  var sk = 0.0;
  let qk0 = (n * p.H + h) * dk;
  for (var i = 0u; i < ROWS; i++) {
    let row = r + i * RG;
    var qv = 0.0;
    var kv = 0.0;
    if (row < dk) {
      let lq = ld_q(qk0 + row);
      let lk = ld_k(qk0 + row);
      qv = lq.x;
      kv = lk.x;
      bad = bad || lq.bad || lk.bad;
    }
    qr[i] = qv;
    kr[i] = kv;
    sq += qv * qv;
    sk += kv * kv;
  }
  if (c == 0u) {
    nrm_q[r] = sq;
    nrm_k[r] = sk;
  }
  let lb = ld_beta(wid);
  let lg = ld_g(wid);
  let bt = lb.x;
  let a = exp(lg.x);
  bad = bad || lb.bad;
  workgroupBarrier();
  var qs = p.scale;  // o = Sᵀ·(qs·q_raw), k = rk·k_raw
  var rk = 1.0;
  if (p.l2 != 0u) {
    var tq = 0.0;
    var tk = 0.0;
    for (var j = 0u; j < RG; j++) {
      tq += nrm_q[j];
      tk += nrm_k[j];
    }
    qs = p.scale / sqrt(tq + 1e-6);
    rk = 1.0 / sqrt(tk + 1e-6);
  }
  for (var i = 0u; i < ROWS; i++) { kr[i] *= rk; }

  let sbase = wid * dk * dv;
  let vbase = wid * dv;
  for (var col0 = 0u; col0 < dv; col0 += CW) {
    let col = col0 + c;
    let live = col < dv;
    var s: array<f32, ROWS>;
    var part = 0.0;
    for (var i = 0u; i < ROWS; i++) {
      let row = r + i * RG;
      var x = 0.0;
      if (live && row < dk) {
        x = S[sbase + row * dv + col];
        bad = bad || nonfinite32(x);
      }
      s[i] = x;
      part += kr[i] * x;
    }
    red_k[tid] = part;
    var vv = 0.0;
    if (live) {
      let lv = ld_v(vbase + col);
      vv = lv.x;
      bad = bad || lv.bad;
    }
    workgroupBarrier();
    var kS = 0.0;
    for (var j = 0u; j < RG; j++) { kS += red_k[j * CW + c]; }
    let w = bt * (vv - a * kS);
    var po = 0.0;
    for (var i = 0u; i < ROWS; i++) {
      let row = r + i * RG;
      let x = a * s[i] + kr[i] * w;
      po += qr[i] * x;
      if (live && row < dk) { Snew[sbase + row * dv + col] = x; }
    }
    red_o[tid] = po;
    workgroupBarrier();
#if HALF
    // thread (0, c) for c < CW/2 stores the word of columns col0 + 2c, col0 + 2c + 1 (dv is even)
    if (r == 0u && 2u * c < CW && col0 + 2u * c < dv) {
      var o0 = 0.0;
      var o1 = 0.0;
      for (var j = 0u; j < RG; j++) {
        o0 += red_o[j * CW + 2u * c];
        o1 += red_o[j * CW + 2u * c + 1u];
      }
      o[(vbase + col0 + 2u * c) >> 1u] = pack2x16float(vec2f(qs * o0, qs * o1));
    }
#else
    if (r == 0u && live) {
      var oc = 0.0;
      for (var j = 0u; j < RG; j++) { oc += red_o[j * CW + c]; }
      o[vbase + col] = qs * oc;
    }
#endif
  }

  if (bad) { atomicOr(&flags, 1u); }
  if (tid == 0u && lg.bad) { atomicOr(&flags, 2u); }
  workgroupBarrier();
  let f = atomicLoad(&flags);
  if (tid == 0u) { status[wid] = select(select(0, 2, f != 0u), 1, (f & 1u) != 0u); }
  if (f == 0u) { return; }
  // a failing head: NaN over what this thread wrote (the same elements: no race with its stores)
  let nanv = bitcast<f32>(NAN_BITS);
  for (var col0 = 0u; col0 < dv; col0 += CW) {
    let col = col0 + c;
    if (col < dv) {
      for (var i = 0u; i < ROWS; i++) {
        let row = r + i * RG;
        if (row < dk) { Snew[sbase + row * dv + col] = nanv; }
      }
    }
#if HALF
    if (r == 0u && 2u * c < CW && col0 + 2u * c < dv) { o[(vbase + col0 + 2u * c) >> 1u] = 0x7e007e00u; }
#else
    if (r == 0u && col < dv) { o[vbase + col] = nanv; }
#endif
  }
}
