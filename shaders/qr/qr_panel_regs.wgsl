// Panel of the blocked Householder QR with the panel held in registers (same results and
// outputs as qr_panel.wgsl): one workgroup per matrix factors the kb columns [j0, j0 + kb)
// of F, rows j0…m−1. Thread (jr, jc) keeps column jc of the panel at panel rows
// p = jr + TR·s, s < R, in registers for the whole panel, so a column step touches no
// global memory (qr_panel.wgsl re-reads the tall panel from storage every column, which
// made it latency-bound). Per column: larfg from the row lanes' norm partials; the
// reflector v broadcast through workgroup memory; vᴴ·a_jc (jc > i) and the Gram column
// v_jcᴴ·v (jc < i, for T) as row-lane partials; the update of the lane's own rows. Three
// barriers per column. T (larft) is built in workgroup memory; F, V and T are written once
// at the end. Reflectors follow LAPACK's larfg (beta real, tau complex); norms are scaled
// sums of squares (lassq).
// Bindings: F, V, Tm (T) read_write; uniforms count, m, ld, fstride, j0, kb, vbase,
// vstride, tbase, tstride, tld.
#include "common/complex.wgsl"
#include "common/linear_id.wgsl"

const WG = ${WG}u;
const NC = ${NC}u;
const TR = ${TR}u;
const R = ${R}u;
// LAPACK's safmin for float32 (smallest normal / eps = 2^-103) and its reciprocal.
const SAFMIN = 0x1p-103f;
const RS = 0x1p103f;

var<workgroup> red: array<${T}, ${WG}>;
var<workgroup> nst: array<vec2f, ${TR}>;
var<workgroup> vsh: array<${T}, ${MR}>;
var<workgroup> gsum: array<${T}, ${NC}>;
var<workgroup> tsh: array<${T}, ${NCNC}>;
var<workgroup> alph: ${T};

// (scale, ssq) with scale² · ssq = the sum of squares so far, updated with |a| (lassq).
// NaN is skipped here: non-finite input is flagged before the factorization.
fn lassq(a: f32, st: vec2f) -> vec2f {
  if (a > 0.0) {
    if (st.x < a) {
      let r = st.x / a;
      return vec2f(a, 1.0 + st.y * r * r);
    }
    let r = a / st.x;
    return vec2f(st.x, st.y + r * r);
  }
  return st;
}

fn lassq_t(x: ${T}, st: vec2f) -> vec2f {
#if IS_COMPLEX
  return lassq(abs(x.y), lassq(abs(x.x), st));
#else
  return lassq(abs(x), st);
#endif
}

fn re(x: ${T}) -> f32 {
#if IS_COMPLEX
  return x.x;
#else
  return x;
#endif
}

fn im(x: ${T}) -> f32 {
#if IS_COMPLEX
  return x.y;
#else
  return 0.0;
#endif
}

fn real_t(x: f32) -> ${T} {
#if IS_COMPLEX
  return vec2f(x, 0.0);
#else
  return x;
#endif
}

// T(0:i, i) = −tau_i · T(0:i, 0:i) · G(0:i, i) (LAPACK larft), G(l, i) = v_lᴴ·v_i in gsum;
// thread t owns row t of T, so it reads back only its own writes.
fn t_column(i: u32, tau: ${T}, lid: u32) {
  if (lid < i) {
    var sum = ${ZERO};
    for (var l = lid; l < i; l++) { sum = tfma(tsh[lid * NC + l], gsum[l], sum); }
    tsh[lid * NC + i] = -tmul(tau, sum);
  }
  if (lid == i) {
    tsh[i * NC + i] = tau;
    for (var l = 0u; l < i; l++) { tsh[i * NC + l] = ${ZERO}; }
  }
}

@compute @workgroup_size(${WG})
fn qr_panel_regs_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                          @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let jc = lid % NC;
  let jr = lid / NC;
  let ld = p.ld;
  let j0 = p.j0;
  let kb = p.kb;
  let mr = p.m - j0;
  let fb = w * p.fstride + j0 * ld + j0;
  let live = jc < kb;

  var a: array<${T}, ${R}>;
  var st0 = vec2f(0.0);
  for (var s = 0u; s < R; s++) {
    let q = jr + TR * s;
    var x = ${ZERO};
    if (live && q < mr) { x = F[fb + q * ld + jc]; }
    a[s] = x;
    if (jc == 0u && q > 0u) { st0 = lassq_t(x, st0); }
    if (jc == 0u && q == 0u) { alph = x; }
  }
  if (jc == 0u) { nst[jr] = st0; }
  workgroupBarrier();

  var tau_prev = ${ZERO};
  for (var i = 0u; i < kb; i++) {
    if (i > 0u) { t_column(i - 1u, tau_prev, lid); }
    // the row lanes' (scale, ssq) pairs joined by every thread in one pass: no barrier tree
    var smax = 0.0;
    var ssq = 0.0;
    for (var t = 0u; t < TR; t++) {
      let e = nst[t];
      if (e.x > smax) {
        let f = smax / e.x;
        ssq = e.y + ssq * f * f;
        smax = e.x;
      } else if (e.x > 0.0) {
        let f = e.x / smax;
        ssq += e.y * f * f;
      }
    }
    let alpha = alph;
    // larfg, in every thread (the same values, no broadcast needed)
    let ar = re(alpha);
    let ai = im(alpha);
    var tau = ${ZERO};
    var fac = ${ONE};
    var knt = 0u;
    var beta = alpha;
    if (smax != 0.0 || ai != 0.0) {
      let mx = max(max(abs(ar), abs(ai)), smax);
      let a1 = abs(ar) / mx;
      let a2 = abs(ai) / mx;
      let a3 = smax / mx;
      let hyp = mx * sqrt(a1 * a1 + a2 * a2 + a3 * a3 * ssq);
      // beta = −copysign(hyp, ar), the sign bit read so that ar = −0 gives +hyp as on the CPU
      var bs = select(-hyp, hyp, (bitcast<u32>(ar) & 0x80000000u) != 0u);
      beta = real_t(bs);
      var as_ = alpha;
      // tiny column: scale up so 1/(alpha − beta) stays finite (LAPACK's knt loop)
      loop {
        if (abs(bs) >= SAFMIN || knt >= 20u) { break; }
        knt += 1u;
        bs *= RS;
        as_ *= RS;
      }
#if IS_COMPLEX
      tau = vec2f((bs - as_.x) / bs, -as_.y / bs);
#else
      tau = (bs - as_) / bs;
#endif
      fac = tdiv(${ONE}, as_ - real_t(bs));
    }
    // column i's lanes form v (zero above row i, 1 at it) and publish it
    if (jc == i) {
      for (var s = 0u; s < R; s++) {
        let q = jr + TR * s;
        var v = ${ZERO};
        if (q == i) {
          v = ${ONE};
          a[s] = beta;
        } else if (q > i && q < mr) {
          var x = a[s];
          for (var t = 0u; t < knt; t++) { x *= RS; }
          x = tmul(x, fac);
          a[s] = x;
          v = x;
        }
        vsh[q] = v;
      }
    }
    workgroupBarrier();
    // jc > i: v_iᴴ·a_jc (the update); jc < i: v_jcᴴ·v_i (column i of the Gram matrix, for T)
    var acc = ${ZERO};
    if (live && jc > i) {
      for (var s = 0u; s < R; s++) { acc = tfma(tconj(vsh[jr + TR * s]), a[s], acc); }
    } else if (jc < i) {
      // rows above row i hold R entries of column jc, against v_i's zeros there
      for (var s = 0u; s < R; s++) { acc = tfma(tconj(a[s]), vsh[jr + TR * s], acc); }
    }
    red[lid] = acc;
    workgroupBarrier();
    // every lane sums its column's row-lane partials (a tree would cost log2(TR) barriers)
    var g = ${ZERO};
    for (var t = 0u; t < TR; t++) { g += red[t * NC + jc]; }
    if (jr == 0u && jc < i) { gsum[jc] = g; }
    // a_jc −= conj(tau)·v_i·(v_iᴴ a_jc); lanes of column i + 1 gather its next norm and alpha
    if (live && jc > i) {
      let d = tmul(tconj(tau), g);
      var st = vec2f(0.0);
      for (var s = 0u; s < R; s++) {
        let q = jr + TR * s;
        let x = tfma(-vsh[q], d, a[s]);
        a[s] = x;
        if (jc == i + 1u) {
          if (q > i + 1u) { st = lassq_t(x, st); }
          if (q == i + 1u) { alph = x; }
        }
      }
      if (jc == i + 1u) { nst[jr] = st; }
    }
    tau_prev = tau;
    workgroupBarrier();
  }
  t_column(kb - 1u, tau_prev, lid);

  // F: R's entries, beta on the diagonal, the reflectors' tails below; V: explicit unit
  // lower trapezoid; T: each thread its own row
  if (live) {
    let vb = p.vbase + w * p.vstride;
    for (var s = 0u; s < R; s++) {
      let q = jr + TR * s;
      if (q < mr) {
        let x = a[s];
        F[fb + q * ld + jc] = x;
        V[vb + q * kb + jc] = select(select(${ZERO}, ${ONE}, q == jc), x, q > jc);
      }
    }
  }
  if (lid < kb) {
    let tb = p.tbase + w * p.tstride + lid * p.tld;
    for (var l = 0u; l < kb; l++) { Tm[tb + l] = tsh[lid * NC + l]; }
  }
}
