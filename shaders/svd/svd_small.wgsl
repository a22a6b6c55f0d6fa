// SVD of a batch of small m×n matrices (m ≥ n ≤ 32), float32 or complex64, one dispatch:
// one-sided (Hestenes) Jacobi on the columns of each matrix inside one workgroup.
//
// Bindings (src/backend/gpu/svd_small.ts): A (…, m, n) row-major → S (…, n), info (…),
// U (…, m, ncols), Vh (…, n, n). Uniforms: count (matrices), m, n, ncols (m with
// fullMatrices, else n), np (n rounded up to even), tol (√m·eps), uv (0: singular values
// only: no V accumulation, U and Vh untouched; a uniform, so svdvals shares the variant).
//
// Layout: G matrices per workgroup, NT = P·L threads each: P = NC/2 column pairs of a
// round-robin step, L lanes per pair. X (the scaled matrix, ⌈m/8⌉·8 rows, zero past m) and
// V (NC rows) live in workgroup memory column-major in vec4s (4 real or 2 complex entries),
// column strides an odd number of vec4s; each lane owns whole vec4s of a column (so moves
// are one 16-byte access per 4 real entries and no two threads write one vec4).
//
// Columns move between slots (the round-robin's circle method): pair pr always works on
// slots pr and np/2 + pr, so a warp's lanes read consecutive slots without bank conflicts,
// and writes the rotated columns (X, V and the exponent) to the next step's slots.
//
// Steps: (1) scale by 2^-e so max|a| is in [0.5, 1): e from the largest magnitude as a u32
// bit pattern, the scaling by integer bit arithmetic (exact for subnormal inputs and
// outputs, which GPUs may flush in float arithmetic). NaN/Inf input: X = 0, NaN outputs,
// info −1. (2) Sweeps of np−1 steps; per step each pair's lanes sum |x_p|², |x_q|², x_pᴴx_q
// over their rows with the columns scaled by 2^-s_p, 2^-s_q (per-column exponents kept
// near the column norm, so columns down to ~2^-100 neither underflow nor lose accuracy);
// every lane adds the L partials in the same order (identical rotation parameters without
// a second barrier; with ONCE one thread per pair does, behind a third barrier), rotates when |g_pq| > tol·√(g_pp·g_qq) and both columns hold a
// normal entry (Rutishauser's formulas; the projection with c = 1 when the norms are over
// 1/eps apart, as native/src/svd/svd.cpp), and writes its rows of X and V to the next
// step's slots. A sweep
// without rotations ends the matrix's iteration; CAP sweeps → info = CAP. (3) σ_j = ‖x_j‖
// (sorted by rank counting on bit patterns; 0 below the smallest normal, the CPU's rule),
// U = x_j/σ_j; columns with σ = 0 and the extra fullMatrices columns are completed to an
// orthonormal set: Gram–Schmidt twice of the first e_i whose residual ‖(I − UUᴴ)e_i‖² is
// over 1/(2m) (one exists: the residuals sum to m − k ≥ 1), against U in global memory.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const G: u32 = ${G}u;       // matrices per workgroup
const NT: u32 = ${NT}u;     // threads per matrix
const L: u32 = ${L}u;       // lanes per column pair
const NX4: u32 = ${NX4}u;   // vec4s of a column of X (rows ⌈m/8⌉·8, zero past m)
const RL4: u32 = ${RL4}u;   // vec4s of X per lane and column, ⌈NX4/L⌉ (lane l owns l·RL4 …)
const RX: u32 = ${RX}u;     // rows of X, ⌈m/8⌉·8 (scratch of the completion: 2·RX entries)
const EPV: u32 = ${EPV}u;   // entries of X and V per vec4 (4 real, 2 complex)
const LDV4: u32 = NC / EPV + 1u; // column stride of V in vec4s (odd)
const NV4: u32 = NC / EPV;  // vec4s of a column of V
const RV4: u32 = ${RV4}u;   // vec4s of V per lane and column, max(1, NV4/L): lane l owns
                            // vec4s l·RV4 … (whole vec4s: no two threads write one)
const NC: u32 = ${NC}u;     // column capacity (even)
const LDX4: u32 = NX4 + 1u; // column stride of X in vec4s (odd)
const XCAP: u32 = NC * LDX4; // vec4s of X per matrix
const CAP: u32 = ${CAP}u;   // sweep cap
const EPS: f32 = 1.1920928955e-7;

// X in vec4s (4 real or 2 complex entries of a column), as V
var<workgroup> xs: array<vec4f, G * XCAP>;
var<workgroup> cs: array<${T}, G * 2u * RX>; // the completion's scratch
// V in vec4s, all NC rows rotated (rows ≥ n are zero in the real columns, never read): one
// load for 4 real or 2 complex entries; a quarter warp's 16-byte accesses hit distinct banks
var<workgroup> vs: array<vec4f, ${VALL4}>;
#if ONCE
// lane-major with stride NC/2 + 1: the writes of a pair's lanes and the reads of the
// one-thread-per-pair sums both hit distinct banks
var<workgroup> part: array<vec4f, G * (NT + L)>;
#else
// pair-major with one vec4 of padding per pair (index t + t/L): the pairs of a warp read
// their partials from distinct banks (unpadded, pairs L vec4s apart shared banks)
var<workgroup> part: array<vec4f, G * (NT + NC / 2u)>;
#endif
var<workgroup> sc: array<i32, ${GNC}>;
#if ONCE
var<workgroup> rpar: array<vec4f, ${GNP}>; // per pair: Rot.cz
#endif    // per-column exponent s_j
var<workgroup> nrm: array<f32, ${GNC}>;   // final ‖x_j·2^-s_j‖²
var<workgroup> key: array<u32, ${GNC}>;   // σ_j (scaled matrix) as bits, for the sort
var<workgroup> perm: array<u32, ${GNC}>;  // rank → column
var<workgroup> amax: array<atomic<u32>, G>;
var<workgroup> rot: array<atomic<u32>, G>;
var<workgroup> pick: array<atomic<u32>, G>;
var<workgroup> conv: array<u32, G>;
var<workgroup> rank0: array<u32, G>;      // columns with σ > 0
var<workgroup> wflag: u32;

fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

// 2^k for -126 ≤ k ≤ 127.
fn pow2(k: i32) -> f32 { return bitcast<f32>(u32(k + 127) << 23u); }

// The e with |x|·2^-e in [0.5, 1) for a magnitude bit pattern (subnormals included); 0 for 0.
fn expo(mag: u32) -> i32 {
  if (mag == 0u) { return 0; }
  let ex = i32(mag >> 23u);
  if (ex > 0) { return ex - 126; }
  return i32(31u - countLeadingZeros(mag)) - 148;
}

// x·2^k exactly (correctly rounded when the result is subnormal), by integer arithmetic.
fn ldexp_exact(x: f32, k: i32) -> f32 {
  let bits = bitcast<u32>(x);
  let sign = bits & 0x80000000u;
  let mag = bits & 0x7fffffffu;
  if (mag == 0u || mag >= 0x7f800000u) { return x; }
  var ex = i32(mag >> 23u);
  var man = mag & 0x7fffffu;
  if (ex == 0) {
    let sh = countLeadingZeros(man) - 8u;
    man = (man << sh) & 0x7fffffu;
    ex = 1 - i32(sh);
  }
  let ne = ex + k;
  if (ne >= 255) { return bitcast<f32>(sign | 0x7f800000u); }
  if (ne >= 1) { return bitcast<f32>(sign | (u32(ne) << 23u) | man); }
  let shift = u32(1 - ne);
  if (shift > 24u) { return bitcast<f32>(sign); }
  let full = man | 0x800000u;
  var q = full >> shift;
  let rem = full & ((1u << shift) - 1u);
  let hf = 1u << (shift - 1u);
  if (rem > hf || (rem == hf && (q & 1u) == 1u)) { q = q + 1u; }
  return bitcast<f32>(sign | q);
}

// floor(log2(x)/2) for a positive normal x.
fn half_exp(x: f32) -> i32 { return (i32((bitcast<u32>(x) >> 23u) & 0xffu) - 127) >> 1u; }

#if IS_COMPLEX
fn magbits(v: vec2f) -> u32 { return max(bitcast<u32>(v.x) & 0x7fffffffu, bitcast<u32>(v.y) & 0x7fffffffu); }
fn tldexp(v: vec2f, k: i32) -> vec2f { return vec2f(ldexp_exact(v.x, k), ldexp_exact(v.y, k)); }
fn abs2(v: vec2f) -> f32 { return dot(v, v); }
fn dotc(a: vec2f, b: vec2f) -> vec2f { return vec2f(a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x); }
fn tnan() -> vec2f { return vec2f(nan_f32(), nan_f32()); }
fn gval(s: vec4f) -> vec2f { return s.zw; }
// (g/|g|)·v
fn phase_times(g: vec2f, ig: f32, v: f32) -> vec2f { return g * (v * ig); }
#else
fn magbits(v: f32) -> u32 { return bitcast<u32>(v) & 0x7fffffffu; }
fn tldexp(v: f32, k: i32) -> f32 { return ldexp_exact(v, k); }
fn abs2(v: f32) -> f32 { return v * v; }
fn dotc(a: f32, b: f32) -> vec2f { return vec2f(a * b, 0.0); }
fn tnan() -> f32 { return nan_f32(); }
fn gval(s: vec4f) -> f32 { return s.z; }
fn phase_times(g: f32, ig: f32, v: f32) -> f32 { return select(v, -v, g < 0.0); }
#endif

// Entry i of X's column `col` (vec4 storage, EPV entries each).
fn xget(xo: u32, col: u32, i: u32) -> ${T} {
  let v = xs[xo + col * LDX4 + i / EPV];
#if IS_COMPLEX
  let s = (i % 2u) * 2u;
  return vec2f(v[s], v[s + 1u]);
#else
  return v[i % 4u];
#endif
}

fn magbits4(v: vec4f) -> u32 {
  let a = bitcast<vec4u>(v) & vec4u(0x7fffffffu);
  return max(max(a.x, a.y), max(a.z, a.w));
}

// (x_pᴴx_q) over the entries of two vec4s of X, as dotc.
#if IS_COMPLEX
fn dotc4(a: vec4f, b: vec4f) -> vec2f {
  return vec2f(dot(a, b), a.x * b.y - a.y * b.x + a.z * b.w - a.w * b.z);
}
#else
fn dotc4(a: vec4f, b: vec4f) -> vec2f { return vec2f(dot(a, b), 0.0); }
#endif

// Entry k of V's column `col` (vec4 storage, EPV entries each).
fn vget(vo: u32, col: u32, k: u32) -> ${T} {
  let v = vs[vo + col * LDV4 + k / EPV];
#if IS_COMPLEX
  let s = (k % 2u) * 2u;
  return vec2f(v[s], v[s + 1u]);
#else
  return v[k % 4u];
#endif
}

// z times each entry of a vec4 of V (4 real or 2 complex entries).
#if IS_COMPLEX
fn tmul4(z: vec2f, v: vec4f) -> vec4f {
  return vec4f(z.x * v.x - z.y * v.y, z.x * v.y + z.y * v.x, z.x * v.z - z.y * v.w, z.x * v.w + z.y * v.z);
}
#else
fn tmul4(z: f32, v: vec4f) -> vec4f { return z * v; }
#endif

// Columns of pair `pr` in round r of the round-robin tournament on np columns.
// (r < np − 1 and pr < np/2 keep both sums below 2(np − 1): a subtraction, no modulo.)
fn pair_cols(r: u32, pr: u32, np: u32) -> vec2u {
  let k = np - 1u;
  var a = 0u;
  if (pr > 0u) {
    a = pr - 1u + r;
    a = 1u + select(a, a - k, a >= k);
  }
  var b = np - 2u - pr + r;
  b = 1u + select(b, b - k, b >= k);
  return vec2u(min(a, b), max(a, b));
}

// The next step's slots of pair q's two columns (the round-robin's circle method: slot 0
// stays, the other np − 1 slots turn one place, so after np − 1 steps, a sweep, every
// column is back in its own slot).
fn dests(q: u32, hp: u32) -> vec2u {
  var dp = q;
  if (q > 0u) { dp = select(2u * hp - 1u, q + 1u, q + 1u < hp); }
  var dq = hp + q;
  if (hp > 1u) { dq = select(1u, hp + q - 1u, q > 0u); }
  return vec2u(dp, dq);
}

struct Rot {
  cz: vec4f,  // c, z (real: .y; complex: .yz), 1.0 in .w when the pair rotates
  e: vec2i,   // the columns' new exponents
}

// The rotation of a pair from its sums s4 = (‖x_p‖², ‖x_q‖², x_pᴴx_q) of the columns scaled
// by 2^-sp, 2^-sq: one 2×2 unitary (c, z) for X and V, x_p ← c·x_p − z̄·x_q,
// x_q ← z·x_p + c·x_q (c = 1, z = 0 when the pair is orthogonal to tol).
fn rotation(s4: vec4f, sp: i32, sq: i32, tol2: f32) -> Rot {
  let Ah = s4.x;
  let Bh = s4.y;
  let gv = gval(s4);
  let g2 = dot(s4.zw, s4.zw);
  let dk = sq - sp;
  var mode = 0u;
  if (sp > -126 && sq > -126 && Ah > 0.0 && Bh > 0.0 && g2 > tol2 * Ah * Bh) {
    // norms over 1/eps apart (the scaled squares lie within ~2^±46 of 1, so |dk| > 60 is)
    if (dk < -60) { mode = 2u; } else if (dk > 60) { mode = 3u; } else {
      let bk = Bh * pow2(2 * dk);
      if (bk < EPS * EPS * Ah) { mode = 2u; } else if (bk * (EPS * EPS) > Ah) { mode = 3u; } else { mode = 1u; }
    }
  }
  // np2, nq2: the new squared norms (scaled) for the column exponents
  var c = 1.0;
  var z = ${ZERO};
  var np2 = Ah;
  var nq2 = Bh;
  if (mode == 1u) {
    // Rutishauser: ζ = (‖x_q‖² − ‖x_p‖²)/(2|g|), t the smaller root of t² + 2ζt − 1
    // 1/|g| by rsqrt and a Newton step: the GPU's sqrt and division may be a few ulps
    // off, and the phase g/|g| must have modulus 1 for the rotation to stay unitary
    let r0 = inverseSqrt(g2);
    let ig = r0 * (1.5 - 0.5 * g2 * r0 * r0);
    let ag = g2 * ig;
    let pk = pow2(dk);
    let mk = pow2(-dk);
    let zeta = (Bh * pk - Ah * mk) * (0.5 * ig);
    let az = abs(zeta);
    // one division for both branches (t = 1/(2|ζ|) past 1/eps)
    let ta = 1.0 / select(2.0 * az, az + sqrt(1.0 + az * az), az < 1.0 / EPS);
    let tt = select(ta, -ta, zeta < 0.0);
    let w2 = 1.0 + tt * tt;
    let c0 = inverseSqrt(w2);
    c = c0 * (1.5 - 0.5 * w2 * c0 * c0); // a Newton step: c²(1 + t²) = 1 to rounding
    z = phase_times(gv, ig, c * tt);
    let tg = tt * ag;
    np2 = Ah - tg * pk;
    nq2 = Bh + tg * mk;
  } else if (mode == 2u) {
    // ‖x_q‖ < eps·‖x_p‖: c = 1, z = −x_pᴴx_q/‖x_p‖² (x_q loses its x_p component;
    // x_p changes below its rounding)
    z = gv * (-(pow2(sq) * pow2(-sp)) / Ah);
    nq2 = Bh - g2 / Ah;
  } else if (mode == 3u) {
    // ‖x_p‖ < eps·‖x_q‖: c = 1, z = x_pᴴx_q/‖x_q‖²
    z = gv * ((pow2(sp) * pow2(-sq)) / Bh);
    np2 = Ah - g2 / Bh;
  }
  // cancellation leaves at least ~eps² of a norm² in float32: the floor keeps the
  // exponent within 2^23 of the truth, which the next step's dots tolerate
  np2 = max(np2, Ah * 1.4210855e-14);
  nq2 = max(nq2, Bh * 1.4210855e-14);
  var r: Rot;
#if IS_COMPLEX
  r.cz = vec4f(c, z, select(0.0, 1.0, mode != 0u));
#else
  r.cz = vec4f(c, z, 0.0, select(0.0, 1.0, mode != 0u));
#endif
  r.e = vec2i(select(sp, clamp(sp + half_exp(np2), -126, 126), np2 > 0.0),
              select(sq, clamp(sq + half_exp(nq2), -126, 126), nq2 > 0.0));
  return r;
}

@compute @workgroup_size(${WG})
fn svd_small_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) t: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w * G >= p.count) { return; }
  let g = t / NT;
  let tl = t % NT;
  let pr = tl / L;
  let lane = tl % L;
  let b = w * G + g;
  let live = b < p.count;
  let m = p.m;
  let n = p.n;
  let np = p.np;
  let xo = g * XCAP;
  let co = g * NC;
  let vo = g * NC * LDV4;
  let uv = p.uv != 0u;

  if (tl == 0u) {
    atomicStore(&amax[g], 0u);
    atomicStore(&rot[g], 0u);
    atomicStore(&pick[g], 0xffffffffu);
    conv[g] = 0u;
  }
  workgroupBarrier();
  // (1) load (coalesced), the largest magnitude, exact scaling
  var mx = 0u;
  if (live) {
    // a thread per vec4 of X (column fastest: the threads read rows of A)
    let base = b * m * n;
    for (var idx = tl; idx < n * NX4; idx += NT) {
      let j = idx % n;
      let i0 = (idx / n) * EPV;
      var v = vec4f(0.0);
      for (var e = 0u; e < EPV; e++) {
        if (i0 + e < m) {
          let a = A[base + (i0 + e) * n + j];
#if IS_COMPLEX
          v[2u * e] = a.x;
          v[2u * e + 1u] = a.y;
#else
          v[e] = a;
#endif
        }
      }
      xs[xo + j * LDX4 + idx / n] = v;
      mx = max(mx, magbits4(v));
    }
  }
  atomicMax(&amax[g], mx);
  workgroupBarrier();
  let mxb = atomicLoad(&amax[g]);
  let bad = mxb >= 0x7f800000u;
  let e = select(expo(mxb), 0, bad);
  for (var idx = tl; idx < n * NX4; idx += NT) {
    let o = xo + (idx % n) * LDX4 + idx / n;
    let v = xs[o];
    xs[o] = select(vec4f(ldexp_exact(v.x, -e), ldexp_exact(v.y, -e), ldexp_exact(v.z, -e), ldexp_exact(v.w, -e)),
                   vec4f(0.0), bad || !live);
  }
  for (var idx = tl; idx < NC * LDV4 && uv; idx += NT) {
    // identity: column idx / LDV4 has its 1 in vec4 (idx % LDV4) when the row falls there
    let col = idx / LDV4;
    let k0 = (idx % LDV4) * EPV;
    var v = vec4f(0.0);
    if (col >= k0 && col < k0 + EPV) { v[(col - k0) * (4u / EPV)] = 1.0; }
    vs[vo + idx] = v;
  }
  workgroupBarrier();
  // per-column exponents from the column's largest magnitude
  // n odd: slot n is an empty column that takes part in the moves but never rotates
  for (var k4 = tl; k4 < NX4 && n < np; k4 += NT) { xs[xo + n * LDX4 + k4] = vec4f(0.0); }
  workgroupBarrier();
  for (var j = tl; j < np; j += NT) {
    var cm = 0u;
    for (var k4 = 0u; k4 < NX4; k4++) { cm = max(cm, magbits4(xs[xo + j * LDX4 + k4])); }
    sc[co + j] = clamp(expo(cm), -126, 126);
  }
  workgroupBarrier();

  // (2) sweeps
  let tol2 = p.tol * p.tol;
  let hp = np / 2u; // active pairs
  var sweeps = 0u;
  loop {
    var myrot = 0u; // rotations of this thread's pairs in the sweep (lane 0), one atomic per sweep
    for (var r = 0u; r + 1u < np; r++) {
      // pair pr works on slots pr (top) and hp + pr (bottom): the lanes of a warp read
      // consecutive slots, no bank conflicts; the rotated columns go to the next step's slots
      let cp = pr;
      let cq = hp + pr;
      let act = pr < hp;
      var sp = 0;
      var sq = 0;
      var acc = vec4f(0.0);
      // the lane's rows of the pair (X and V), read before the barrier: other pairs write
      // into these slots after it
      var rp: array<vec4f, RL4>;
      var rq: array<vec4f, RL4>;
      var wp: array<vec4f, RV4>;
      var wq: array<vec4f, RV4>;
      if (act) {
        sp = sc[co + cp];
        sq = sc[co + cq];
        let fp = pow2(-sp);
        let fq = pow2(-sq);
        for (var r = 0u; r < RL4; r++) {
          let k4 = lane * RL4 + r;
          if (k4 < NX4) {
            rp[r] = xs[xo + cp * LDX4 + k4];
            rq[r] = xs[xo + cq * LDX4 + k4];
            let xp = rp[r] * fp;
            let xq = rq[r] * fq;
            acc += vec4f(dot(xp, xp), dot(xq, xq), dotc4(xp, xq));
          }
        }
        for (var r = 0u; r < RV4 && uv; r++) {
          let k4 = lane * RV4 + r;
          if (k4 < NV4) {
            wp[r] = vs[vo + cp * LDV4 + k4];
            wq[r] = vs[vo + cq * LDV4 + k4];
          }
        }
      }
#if ONCE
      // the pair's exponents for the thread that computes its rotation (read before the
      // barrier: the slots' new exponents are written after it)
      var ssp = 0;
      var ssq = 0;
      if (tl < hp) {
        ssp = sc[co + tl];
        ssq = sc[co + hp + tl];
      }
#endif
#if ONCE
      part[g * (NT + L) + lane * (NC / 2u + 1u) + pr] = acc;
#else
      part[t + t / L] = acc;
#endif
      workgroupBarrier();
#if ONCE
      // one thread per pair sums the partials and computes the rotation for the pair's lanes
      if (tl < hp) {
        let q = tl;
        var s4 = vec4f(0.0);
        let pb = g * (NT + L) + q;
        for (var l = 0u; l < L; l++) { s4 += part[pb + l * (NC / 2u + 1u)]; }
        let rt = rotation(s4, ssp, ssq, tol2);
        rpar[g * (NC / 2u) + q] = rt.cz;
        let dd = dests(q, hp);
        sc[co + dd.x] = rt.e.x;
        sc[co + dd.y] = rt.e.y;
        if (rt.cz.w != 0.0) { myrot += 1u; }
      }
      workgroupBarrier();
      if (act) {
        let cz = rpar[g * (NC / 2u) + pr];
        let c = cz.x;
#if IS_COMPLEX
        let z = cz.yz;
#else
        let z = cz.y;
#endif
#else
      if (act) {
        var s4 = vec4f(0.0);
        let pb = t - lane + t / L;
        for (var l = 0u; l < L; l++) { s4 += part[pb + l]; }
        let rt = rotation(s4, sp, sq, tol2);
        let c = rt.cz.x;
#if IS_COMPLEX
        let z = rt.cz.yz;
#else
        let z = rt.cz.y;
#endif
        if (lane == 0u) {
          let dd = dests(pr, hp);
          sc[co + dd.x] = rt.e.x;
          sc[co + dd.y] = rt.e.y;
          if (rt.cz.w != 0.0) { myrot += 1u; }
        }
#endif
        let dd = dests(pr, hp);
        let zc = tconj(z);
        for (var r = 0u; r < RL4; r++) {
          let k4 = lane * RL4 + r;
          if (k4 < NX4) {
            xs[xo + dd.x * LDX4 + k4] = c * rp[r] - tmul4(zc, rq[r]);
            xs[xo + dd.y * LDX4 + k4] = tmul4(z, rp[r]) + c * rq[r];
          }
        }
        for (var r = 0u; r < RV4 && uv; r++) {
          let k4 = lane * RV4 + r;
          if (k4 < NV4) {
            vs[vo + dd.x * LDV4 + k4] = c * wp[r] - tmul4(zc, wq[r]);
            vs[vo + dd.y * LDV4 + k4] = tmul4(z, wp[r]) + c * wq[r];
          }
        }
      }
      if (r + 2u == np && myrot > 0u) { atomicAdd(&rot[g], myrot); }
      workgroupBarrier();
    }
    sweeps += 1u;
    if (t == 0u) {
      var more = 0u;
      for (var h = 0u; h < G; h++) {
        if (atomicLoad(&rot[h]) == 0u) { conv[h] = 1u; }
        atomicStore(&rot[h], 0u);
        if (conv[h] == 0u) { more = 1u; }
      }
      wflag = more;
    }
    let go = workgroupUniformLoad(&wflag);
    if (go == 0u || sweeps >= CAP) { break; }
  }

  // (3) norms of the final columns
  {
    let pc = pair_cols(0u, pr, np);
    let act = pr < np / 2u;
    var acc = vec4f(0.0);
    if (act) {
      let fp = pow2(-sc[co + pc.x]);
      let fq = pow2(-sc[co + pc.y]);
      for (var k4 = lane; k4 < NX4; k4 += L) {
        let vp = xs[xo + pc.x * LDX4 + k4] * fp;
        acc.x += dot(vp, vp);
        if (pc.y < n) {
          let vq = xs[xo + pc.y * LDX4 + k4] * fq;
          acc.y += dot(vq, vq);
        }
      }
    }
    part[t] = acc;
    workgroupBarrier();
    if (act && lane == 0u) {
      var s4 = vec4f(0.0);
      for (var l = 0u; l < L; l++) { s4 += part[t + l]; }
      nrm[co + pc.x] = s4.x;
      if (pc.y < n) { nrm[co + pc.y] = s4.y; }
    }
    workgroupBarrier();
  }
  for (var j = tl; j < n; j += NT) {
    // σ below the smallest normal (of the scaled matrix) is zero, as on the CPU
    let kb = bitcast<u32>(ldexp_exact(sqrt(nrm[co + j]), sc[co + j]));
    key[co + j] = select(kb, 0u, kb < 0x00800000u);
  }
  workgroupBarrier();
  for (var j = tl; j < n; j += NT) {
    let kj = key[co + j];
    var rk = 0u;
    for (var k = 0u; k < n; k++) {
      let kk = key[co + k];
      if (kk > kj || (kk == kj && k < j)) { rk += 1u; }
    }
    perm[co + rk] = j;
  }
  if (tl == 0u) {
    var rz = 0u;
    for (var k = 0u; k < n; k++) { if (key[co + k] > 0u) { rz += 1u; } }
    rank0[g] = rz;
  }
  workgroupBarrier();

  // (4) outputs
  if (live) {
    for (var k = tl; k < n; k += NT) {
      let j = perm[co + k];
      let sg = select(ldexp_exact(sqrt(nrm[co + j]), sc[co + j] + e), 0.0, key[co + j] == 0u);
      S[b * n + k] = select(sg, nan_f32(), bad);
    }
    if (tl == 0u) { info[b] = select(select(i32(CAP), 0, conv[g] != 0u), -1, bad); }
  }
  if (!uv) { return; }
  let ncols = p.ncols;
  let ub = b * m * ncols;
  if (live) {
    for (var idx = tl; idx < n * n; idx += NT) {
      let j = perm[co + idx / n];
      Vh[b * n * n + idx] = select(tconj(vget(vo, j, idx % n)), tnan(), bad);
    }
    for (var idx = tl; idx < m * ncols; idx += NT) {
      let i = idx / ncols;
      let k = idx % ncols;
      var u = ${ZERO};
      if (k < n) {
        let j = perm[co + k];
        if (key[co + j] > 0u) { u = xget(xo, j, i) * (pow2(-sc[co + j]) / sqrt(nrm[co + j])); }
      }
      U[ub + idx] = select(u, tnan(), bad);
    }
  }
  // columns r..ncols-1 of U (σ = 0, and the fullMatrices completion)
  if (t == 0u) {
    var k0 = ncols;
    for (var h = 0u; h < G; h++) {
      if (w * G + h < p.count && atomicLoad(&amax[h]) < 0x7f800000u) { k0 = min(k0, rank0[h]); }
    }
    wflag = k0;
  }
  let kstart = workgroupUniformLoad(&wflag);
  storageBarrier();
  let thr = 0.5 / f32(m);
  let so = g * 2u * RX;
  for (var k = kstart; k < ncols; k++) {
    let act = live && !bad && k >= rank0[g];
    if (act) {
      for (var i = tl; i < m; i += NT) {
        var s = 0.0;
        for (var c = 0u; c < k; c++) { s += abs2(U[ub + i * ncols + c]); }
        if (1.0 - s > thr) { atomicMin(&pick[g], i); }
      }
    }
    workgroupBarrier();
    if (act) {
      var ip = atomicLoad(&pick[g]);
      if (ip >= m) { ip = 0u; }
      for (var i = tl; i < m; i += NT) {
        var u = select(${ZERO}, ${ONE}, i == ip);
        for (var c = 0u; c < k; c++) { u -= tmul(U[ub + i * ncols + c], tconj(U[ub + ip * ncols + c])); }
        cs[so + i] = u;
      }
    }
    workgroupBarrier();
    if (act) {
      for (var c = tl; c < k; c += NT) {
        var h = ${ZERO};
        for (var i = 0u; i < m; i++) { h += tmul(tconj(U[ub + i * ncols + c]), cs[so + i]); }
        cs[so + m + c] = h;
      }
    }
    workgroupBarrier();
    if (act) {
      for (var i = tl; i < m; i += NT) {
        var u = cs[so + i];
        for (var c = 0u; c < k; c++) { u -= tmul(U[ub + i * ncols + c], cs[so + m + c]); }
        cs[so + i] = u;
      }
    }
    workgroupBarrier();
    if (act) {
      var s = 0.0;
      for (var i = 0u; i < m; i++) { s += abs2(cs[so + i]); }
      let inv = 1.0 / sqrt(s);
      for (var i = tl; i < m; i += NT) { U[ub + i * ncols + k] = cs[so + i] * inv; }
      if (tl == 0u) { atomicStore(&pick[g], 0xffffffffu); }
    }
    storageBarrier();
    workgroupBarrier();
  }
}
