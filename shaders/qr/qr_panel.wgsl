// Panel of the blocked Householder QR (LAPACK geqr2 + larft, fused): one workgroup per
// matrix factors the kb columns [j0, j0 + kb) of F, rows j0…m−1, in place (R's entries
// on and above the diagonal, the reflectors' tails below), writes the explicit unit lower
// trapezoidal V (mr×kb, ld kb, zeros above the 1s) for the GEMM updates and the upper
// triangular T of the compact WY form (H_0…H_{kb−1} = I − V·T·Vᴴ, ld tld).
// Threads are NC column lanes × TR row lanes: lane (jr, jc) owns column jc of the panel
// at rows ≡ jr (mod TR), so a row's columns are read by consecutive threads.
// Reflectors follow LAPACK's larfg (beta real, tau complex); the column norms are scaled
// sums of squares (lassq), so no square over- or underflows in float32.
// Bindings: F, V, Tm (T) read_write; uniforms count, m, ld, fstride, j0, kb, vbase,
// vstride, tbase, tstride, tld.
#include "common/complex.wgsl"
#include "common/linear_id.wgsl"

const WG = ${WG}u;
const NC = ${NC}u;
const TR = ${TR}u;
// LAPACK's safmin for float32 (smallest normal / eps = 2^-103) and its reciprocal.
const SAFMIN = 0x1p-103f;
const RS = 0x1p103f;

var<workgroup> red: array<${T}, ${WG}>;
var<workgroup> nst: array<vec2f, ${TR}>;
var<workgroup> gsum: array<${T}, ${NC}>;

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

// storage writes of other threads visible after it (the panel lives in F)
fn sync() {
  storageBarrier();
  workgroupBarrier();
}

// T(0:i, i) = −tau_i · T(0:i, 0:i) · G(0:i, i) (LAPACK larft), G(l, i) = v_lᴴ·v_i in gsum;
// thread t owns row t of T, so it reads back only its own writes.
fn t_column(tb: u32, tld: u32, i: u32, tau: ${T}, lid: u32) {
  if (lid < i) {
    var sum = ${ZERO};
    for (var l = lid; l < i; l++) { sum = tfma(Tm[tb + lid * tld + l], gsum[l], sum); }
    Tm[tb + lid * tld + i] = -tmul(tau, sum);
  }
  if (lid == i) {
    Tm[tb + i * tld + i] = tau;
    for (var l = 0u; l < i; l++) { Tm[tb + i * tld + l] = ${ZERO}; }
  }
}

@compute @workgroup_size(${WG})
fn qr_panel_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let jc = lid % NC;
  let jr = lid / NC;
  let m = p.m;
  let ld = p.ld;
  let j0 = p.j0;
  let kb = p.kb;
  let fb = w * p.fstride;
  let vb = p.vbase + w * p.vstride;
  let tb = p.tbase + w * p.tstride;
  let tld = p.tld;

  // norm partials of column 0 below the diagonal
  var st0 = vec2f(0.0);
  if (jc == 0u) {
    for (var q = j0 + 1u + jr; q < m; q += TR) { st0 = lassq_t(F[fb + q * ld + j0], st0); }
    nst[jr] = st0;
  }
  sync();

  var tau_prev = ${ZERO};
  for (var i = 0u; i < kb; i++) {
    let r = j0 + i;
    // column i − 1 of T, from the Gram column the last step left in gsum
    if (i > 0u) { t_column(tb, tld, i - 1u, tau_prev, lid); }
    // the row lanes' (scale, ssq) pairs joined by every thread: no barrier tree
    var smax = 0.0;
    for (var t = 0u; t < TR; t++) { smax = max(smax, nst[t].x); }
    var ssq = 0.0;
    if (smax > 0.0) {
      for (var t = 0u; t < TR; t++) {
        let e = nst[t];
        let f = e.x / smax;
        ssq += e.y * f * f;
      }
    }
    let xs = vec2f(smax, ssq);
    let alpha = F[fb + r * ld + r];
    // larfg, in every thread (the same values, no broadcast needed)
    let ar = re(alpha);
    let ai = im(alpha);
    var tau = ${ZERO};
    var fac = ${ONE};
    var knt = 0u;
    var beta = alpha;
    if (xs.x != 0.0 || ai != 0.0) {
      let mx = max(max(abs(ar), abs(ai)), xs.x);
      let a1 = abs(ar) / mx;
      let a2 = abs(ai) / mx;
      let a3 = xs.x / mx;
      let hyp = mx * sqrt(a1 * a1 + a2 * a2 + a3 * a3 * xs.y);
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
    for (var q = r + 1u + lid; q < m; q += WG) {
      var x = F[fb + q * ld + r];
      for (var t = 0u; t < knt; t++) { x *= RS; }
      x = tmul(x, fac);
      F[fb + q * ld + r] = x;
      V[vb + (q - j0) * kb + i] = x;
    }
    if (lid < i) { V[vb + lid * kb + i] = ${ZERO}; }
    if (lid == 0u) { V[vb + i * kb + i] = ${ONE}; }
    sync();
    // jc > i: v_iᴴ·a_jc (the update); jc < i: v_jcᴴ·v_i (column i of the Gram matrix, for T)
    var acc = ${ZERO};
    if (jc < kb && jc != i) {
      for (var q = r + jr; q < m; q += TR) {
        let row = vb + (q - j0) * kb;
        let vi = V[row + i];
        if (jc < i) {
          acc = tfma(tconj(V[row + jc]), vi, acc);
        } else {
          acc = tfma(tconj(vi), F[fb + q * ld + j0 + jc], acc);
        }
      }
    }
    red[lid] = acc;
    workgroupBarrier();
    // every lane sums its column's row-lane partials (a tree would cost log2(TR) barriers)
    var g = ${ZERO};
    for (var t = 0u; t < TR; t++) { g += red[t * NC + jc]; }
    if (jr == 0u && jc < i) { gsum[jc] = g; }
    // a_jc −= conj(tau)·v_i·(v_iᴴ a_jc); lanes of column i + 1 gather its next norm
    var st = vec2f(0.0);
    if (jc > i && jc < kb) {
      let d = tmul(tconj(tau), g);
      for (var q = r + jr; q < m; q += TR) {
        let idx = fb + q * ld + j0 + jc;
        let a = tfma(-V[vb + (q - j0) * kb + i], d, F[idx]);
        F[idx] = a;
        if (jc == i + 1u && q > r + 1u) { st = lassq_t(a, st); }
      }
    }
    if (jc == i + 1u) { nst[jr] = st; }
    // after two barriers: every thread has read alpha from here
    if (lid == 0u) { F[fb + r * ld + r] = beta; }
    tau_prev = tau;
    sync();
  }
  t_column(tb, tld, kb - 1u, tau_prev, lid);
}
