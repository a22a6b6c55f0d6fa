// Batched LU with partial pivoting for n ≤ 64, one workgroup per matrix, float32 or
// complex64; and on top of it solve (A·X = B), inverse (B = I) and LU solve.
//
// Factorization (right-looking, unblocked): thread j owns column j of the matrix held in
// workgroup memory, and a step is ONE barrier. At step k every thread scans column k for
// the pivot itself (broadcast reads: nobody waits for a pivot thread), swaps rows k and p
// of its own column and applies the rank-1 update to it, forming each multiplier on the
// fly from the still-raw column k. The owner of column k swaps and scales it one step
// later, when nobody reads it any more. An exactly zero pivot is reported LAPACK-style
// (info = k + 1, the first one) and the step skips the update, so the factorization
// completes. Multipliers are a·(1/p), or a/p when p is below the smallest normal (its
// reciprocal would overflow), and exactly ±1 when a = ±p (see `mult`). LUSOLVE checks
// the pivots it is given (1..N) and reports the first bad one in STATUS.
//
// Strided loops over a matrix run a constant number of passes (the compiler unrolls them
// and keeps every load of a thread in flight at once: with 32-thread groups, one load at a
// time per thread left the copy in and out at a fifth of the memory bandwidth).
//
// Substitution: the right-hand sides go through workgroup memory RC columns at a time;
// threads take (row, column) pairs and each step of forward/back substitution is one
// barrier. In back substitution row j is final after step j+1, so that step divides it
// by u_jj too and no extra phase is needed.
//
// Modes (one entry point each): FACTOR (A → LU, pivots, info), SOLVE (A, B → X, info),
// INV (A → A⁻¹, info), LUSOLVE (LU, pivots, B → X, optionally with Aᴴ). SOLVE and INV
// write NaN for matrices with info ≠ 0. With A_GLOBAL the working matrix lives in a
// storage buffer instead (complex 64×64 is 32 KiB, more than some devices give a group).
//
// Bindings (src/backend/gpu/lu.ts, luProgram), arrays of f32 (F per element) and i32:
// FACTOR A → LU, PIV, INFO; SOLVE A, B, bmap → X, INFO, W; INV A → X, INFO, W; LUSOLVE A,
// PIVIN, B, amap, bmap → X, W, STATUS (per output matrix: k + 1 of the first pivot
// outside 1..N and its value, or (0, 0)). W: the working matrices under A_GLOBAL.
// Uniforms: count (output matrices), nrhs (right-hand-side columns: SOLVE, LUSOLVE),
// use_a (LUSOLVE: read LU/pivots through amap), use_b (read B through bmap), adjoint
// (LUSOLVE: solve Aᴴ·X = B).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const N: u32 = ${N}u;
const NN: u32 = ${N}u * ${N}u;
const F: u32 = ${F}u;     // floats per element
const RC: u32 = ${RC}u;   // right-hand-side columns per pass
const WG: u32 = ${WG}u;

#if !A_GLOBAL
var<workgroup> a_s: array<${T}, ${NN}>;
#endif
var<workgroup> b_s: array<${T}, ${NRC}>;
var<workgroup> piv_s: array<u32, ${N}>;
var<workgroup> perm_s: array<u32, ${N}>;
var<workgroup> info_s: i32;
var<workgroup> nonfinite_s: atomic<u32>;  // SOLVE/INV: A holds NaN/Inf → info −1
#if MODE_LUSOLVE
var<workgroup> badpiv_s: atomic<u32>;  // the first pivot index outside 1..N (N: none)
#endif

var<private> wbase: u32;  // A_GLOBAL: element offset of this group's matrix in W (or LU)

// A quiet NaN built at run time (a constant NaN is a WGSL compile error).
fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

#if IS_COMPLEX
fn tmag(v: vec2f) -> f32 { return abs(v.x) + abs(v.y); }
fn tiszero(v: vec2f) -> bool { return v.x == 0.0 && v.y == 0.0; }
fn tnan() -> vec2f { return vec2f(nan_f32(), nan_f32()); }
fn ldA(e: u32) -> vec2f { return vec2f(A[2u * e], A[2u * e + 1u]); }
#if !MODE_FACTOR
fn stX(e: u32, v: vec2f) { X[2u * e] = v.x; X[2u * e + 1u] = v.y; }
#endif
#if HAS_B
fn ldB(e: u32) -> vec2f { return vec2f(B[2u * e], B[2u * e + 1u]); }
#endif
#else
fn tmag(v: f32) -> f32 { return abs(v); }
fn tiszero(v: f32) -> bool { return v == 0.0; }
fn tnan() -> f32 { return nan_f32(); }
fn ldA(e: u32) -> f32 { return A[e]; }
#if !MODE_FACTOR
fn stX(e: u32, v: f32) { X[e] = v; }
#endif
#if HAS_B
fn ldB(e: u32) -> f32 { return B[e]; }
#endif
#endif

// The working matrix, element (i, j) at i*N + j.
#if A_GLOBAL
#if MODE_FACTOR
#if IS_COMPLEX
fn ag(e: u32) -> vec2f { return vec2f(LU[2u * (wbase + e)], LU[2u * (wbase + e) + 1u]); }
fn as_(e: u32, v: vec2f) { LU[2u * (wbase + e)] = v.x; LU[2u * (wbase + e) + 1u] = v.y; }
#else
fn ag(e: u32) -> f32 { return LU[wbase + e]; }
fn as_(e: u32, v: f32) { LU[wbase + e] = v; }
#endif
#else
#if IS_COMPLEX
fn ag(e: u32) -> vec2f { return vec2f(W[2u * (wbase + e)], W[2u * (wbase + e) + 1u]); }
fn as_(e: u32, v: vec2f) { W[2u * (wbase + e)] = v.x; W[2u * (wbase + e) + 1u] = v.y; }
#else
fn ag(e: u32) -> f32 { return W[wbase + e]; }
fn as_(e: u32, v: f32) { W[wbase + e] = v; }
#endif
#endif
fn sync() { storageBarrier(); workgroupBarrier(); }
#else
fn ag(e: u32) -> ${T} { return a_s[e]; }
fn as_(e: u32, v: ${T}) { a_s[e] = v; }
fn sync() { workgroupBarrier(); }
#endif

// The multiplier a/p formed as `q` (a·(1/p), or a/p), but exactly ±1 when a = ±p: a row
// equal to the pivot row (a duplicated row) then cancels to exact zeros, whereas a·(1/p)
// may be 1 − 2⁻²⁴ and leave a pivot of ~1e-7·‖A‖ where an exact zero is due (issue 10).
fn mult(a: ${T}, p: ${T}, q: ${T}) -> ${T} {
  return select(select(q, -${ONE}, all(a == -p)), ${ONE}, all(a == p));
}

fn finite_f32(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }

// Coalesced copy of matrix `m` of A into the working matrix; flags non-finite values.
fn load_matrix(m: u32, lid: u32) {
  var bad = false;
  for (var r_e = 0u; r_e < (NN + WG - 1u) / WG; r_e++) {
    let e = lid + r_e * WG;
    if (e >= NN) { continue; }
    let v = ldA(m * NN + e);
#if IS_COMPLEX
    bad = bad || !finite_f32(v.x) || !finite_f32(v.y);
#else
    bad = bad || !finite_f32(v);
#endif
    as_(e, v);
  }
  if (bad) { atomicStore(&nonfinite_s, 1u); }
}

#if !MODE_LUSOLVE
fn factor(lid: u32) {
  if (lid == 0u) { info_s = 0; }
  sync();
#if !MODE_FACTOR
  if (lid == 0u && atomicLoad(&nonfinite_s) != 0u) { info_s = -1; }
#endif
  // Deferred pivot-column work of the previous step: (column, pivot row, 1/pivot or 0).
  var dk = 0xffffffffu;  // none yet
  var dp = 0u;
  var dpv = ${ZERO};
  for (var k = 0u; k < N; k++) {
    // Every thread scans column k (the same words: broadcast reads) for the pivot, so no
    // thread waits for another to find it. Column k itself stays raw during this step.
    var piv = k;
    var best = tmag(ag(k * N + k));
    for (var i = k + 1u; i < N; i++) {
      let v = tmag(ag(i * N + k));
      if (v > best) { best = v; piv = i; }
    }
    let pv = ag(piv * N + k);
    let zero = tiszero(pv);
    let tiny = tmag(pv) < 1.17549435e-38;
    let rp = tdiv(${ONE}, pv);
    // The owner of column k-1 finishes it now (nobody reads it any more): swap its pivot
    // rows, scale the multipliers.
    if (lid == dk) {
      if (dp != dk) {
        let t = ag(dk * N + dk);
        as_(dk * N + dk, ag(dp * N + dk));
        as_(dp * N + dk, t);
      }
      // Two loops rather than a select of both forms: `select` evaluates both, and a
      // float division is a long instruction sequence on GPUs, here on the critical path
      // (everyone else waits at the barrier for this thread).
      if (tmag(dpv) < 1.17549435e-38) {
        if (!tiszero(dpv)) {
          for (var i = dk + 1u; i < N; i++) { let a = ag(i * N + dk); as_(i * N + dk, mult(a, dpv, tdiv(a, dpv))); }
        }
      } else {
        let r = tdiv(${ONE}, dpv);
        for (var i = dk + 1u; i < N; i++) { let a = ag(i * N + dk); as_(i * N + dk, mult(a, dpv, tmul(a, r))); }
      }
    }
    if (lid < N && lid != k) {
      let j = lid;
      if (piv != k) {
        let t = ag(k * N + j);
        as_(k * N + j, ag(piv * N + j));
        as_(piv * N + j, t);
      }
      if (j > k && !zero) {
        let akj = ag(k * N + j);
        // `tiny` is the same for the whole workgroup: a uniform branch, and the common
        // path multiplies by 1/pivot instead of dividing in the inner loop.
        // row i after the swap: the old row k when i is the pivot row (akk, read once:
        // the loop is bound by workgroup-memory accesses)
        let akk = ag(k * N + k);
        if (tiny) {
          for (var i = k + 1u; i < N; i++) {
            let aik = select(ag(i * N + k), akk, i == piv);
            as_(i * N + j, ag(i * N + j) - tmul(mult(aik, pv, tdiv(aik, pv)), akj));
          }
        } else {
          for (var i = k + 1u; i < N; i++) {
            let aik = select(ag(i * N + k), akk, i == piv);
            as_(i * N + j, ag(i * N + j) - tmul(mult(aik, pv, tmul(aik, rp)), akj));
          }
        }
      }
    }
    if (lid == k) {
      piv_s[k] = piv;
      if (zero && info_s == 0) { info_s = i32(k + 1u); }
    }
    dk = k;
    dp = piv;
    dpv = pv;
    sync();
  }
  // The last column's deferred work: its pivot row is itself, nothing below to scale.
}
#endif

#if !MODE_FACTOR
// Row i of P·B is row perm[i] of B: the pivots' swaps applied in order to the identity.
fn make_perm(lid: u32) {
  if (lid == 0u) {
    for (var i = 0u; i < N; i++) { perm_s[i] = i; }
    for (var k = 0u; k < N; k++) {
      let q = piv_s[k];
      let t = perm_s[k];
      perm_s[k] = perm_s[q];
      perm_s[q] = t;
    }
  }
  sync();
}

// L·U·X = P·B for the RC columns in b_s (w of them valid).
fn substitute(lid: u32) {
  for (var i = 0u; i + 1u < N; i++) {
    for (var r_t = 0u; r_t < (N * RC + WG - 1u) / WG; r_t++) {
    let t = lid + r_t * WG;
    if (t >= N * RC) { continue; }
      let j = t / RC;
      let c = t % RC;
      if (j > i) { b_s[j * RC + c] = b_s[j * RC + c] - tmul(ag(j * N + i), b_s[i * RC + c]); }
    }
    sync();
  }
  for (var t = lid; t < RC; t += WG) { b_s[(N - 1u) * RC + t] = tdiv(b_s[(N - 1u) * RC + t], ag(NN - 1u)); }
  sync();
  for (var i = N - 1u; i >= 1u; i--) {
    for (var r_t = 0u; r_t < (N * RC + WG - 1u) / WG; r_t++) {
    let t = lid + r_t * WG;
    if (t >= N * RC) { continue; }
      let j = t / RC;
      let c = t % RC;
      if (j < i) {
        var v = b_s[j * RC + c] - tmul(ag(j * N + i), b_s[i * RC + c]);
        if (j + 1u == i) { v = tdiv(v, ag(j * N + j)); }
        b_s[j * RC + c] = v;
      }
    }
    sync();
  }
}
#endif

#if MODE_LUSOLVE
// Aᴴ·X = B with A = Pᵀ·L·U: Uᴴ·W = B (forward), Lᴴ·Z = W (backward, unit), X = Pᵀ·Z.
fn substitute_adjoint(lid: u32) {
  for (var t = lid; t < RC; t += WG) { b_s[t] = tdiv(b_s[t], tconj(ag(0u))); }
  sync();
  for (var i = 0u; i + 1u < N; i++) {
    for (var r_t = 0u; r_t < (N * RC + WG - 1u) / WG; r_t++) {
    let t = lid + r_t * WG;
    if (t >= N * RC) { continue; }
      let j = t / RC;
      let c = t % RC;
      if (j > i) {
        var v = b_s[j * RC + c] - tmul(tconj(ag(i * N + j)), b_s[i * RC + c]);
        if (j == i + 1u) { v = tdiv(v, tconj(ag(j * N + j))); }
        b_s[j * RC + c] = v;
      }
    }
    sync();
  }
  for (var i = N - 1u; i >= 1u; i--) {
    for (var r_t = 0u; r_t < (N * RC + WG - 1u) / WG; r_t++) {
    let t = lid + r_t * WG;
    if (t >= N * RC) { continue; }
      let j = t / RC;
      let c = t % RC;
      if (j < i) { b_s[j * RC + c] = b_s[j * RC + c] - tmul(tconj(ag(i * N + j)), b_s[i * RC + c]); }
    }
    sync();
  }
}
#endif

@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let m = linear_workgroup_id(wid, nwg);
  if (m >= p.count) { return; }
  wbase = m * NN;
  if (lid == 0u) {
    atomicStore(&nonfinite_s, 0u);
#if MODE_LUSOLVE
    atomicStore(&badpiv_s, N);
#endif
  }
  workgroupBarrier();
#if MODE_FACTOR
  load_matrix(m, lid);
  sync();
  factor(lid);
#if !A_GLOBAL
  for (var r_e = 0u; r_e < (NN + WG - 1u) / WG; r_e++) {
    let e = lid + r_e * WG;
    if (e >= NN) { continue; }
    let v = a_s[e];
#if IS_COMPLEX
    LU[2u * (m * NN + e)] = v.x;
    LU[2u * (m * NN + e) + 1u] = v.y;
#else
    LU[m * NN + e] = v;
#endif
  }
#endif
  for (var r_k = 0u; r_k < (N + WG - 1u) / WG; r_k++) {
    let k = lid + r_k * WG;
    if (k >= N) { continue; }
    PIV[m * N + k] = i32(piv_s[k] + 1u);
  }
  if (lid == 0u) { INFO[m] = info_s; }
#else
#if MODE_LUSOLVE
  var am = m;
  if (p.use_a != 0u) { am = u32(amap[m]); }
  wbase = am * NN;
  load_matrix(am, lid);
  for (var r_k = 0u; r_k < (N + WG - 1u) / WG; r_k++) {
    let k = lid + r_k * WG;
    if (k >= N) { continue; }
    // A pivot outside 1..N (0-based, garbage) would swap rows outside the matrix: the
    // matrix's X becomes NaN and STATUS names the pivot (luSolve raises on the read).
    let q = PIVIN[am * N + k];
    if (q < 1 || q > i32(N)) {
      atomicMin(&badpiv_s, k);
      piv_s[k] = k;
    } else {
      piv_s[k] = u32(q - 1);
    }
  }
  sync();
  let nrhs = p.nrhs;
  let kbad = atomicLoad(&badpiv_s);
  let bad = kbad < N;
  if (lid == 0u) {
    STATUS[2u * m] = select(0, i32(kbad + 1u), bad);
    STATUS[2u * m + 1u] = select(0, PIVIN[am * N + min(kbad, N - 1u)], bad);
  }
#elif MODE_SOLVE
  load_matrix(m, lid);
  sync();
  factor(lid);
  let nrhs = p.nrhs;
  let bad = info_s != 0;
#else
  load_matrix(m, lid);
  sync();
  factor(lid);
  let nrhs = N;
  let bad = info_s != 0;
#endif
  make_perm(lid);
#if HAS_B
  var bm = m;
  if (p.use_b != 0u) { bm = u32(bmap[m]); }
#endif
#if MODE_LUSOLVE
  let adj = p.adjoint != 0u;
#endif
  for (var c0 = 0u; c0 < nrhs; c0 += RC) {
    for (var r_t = 0u; r_t < (N * RC + WG - 1u) / WG; r_t++) {
    let t = lid + r_t * WG;
    if (t >= N * RC) { continue; }
      let j = t / RC;
      let c = t % RC;
      var v = ${ZERO};
      if (c0 + c < nrhs) {
#if MODE_INV
        v = select(${ZERO}, ${ONE}, perm_s[j] == c0 + c);
#elif MODE_LUSOLVE
        let r = select(perm_s[j], j, adj);
        v = ldB((bm * N + r) * nrhs + c0 + c);
#else
        v = ldB((bm * N + perm_s[j]) * nrhs + c0 + c);
#endif
      }
      b_s[j * RC + c] = v;
    }
    sync();
#if MODE_LUSOLVE
    if (adj) { substitute_adjoint(lid); } else { substitute(lid); }
#else
    substitute(lid);
#endif
    for (var r_t = 0u; r_t < (N * RC + WG - 1u) / WG; r_t++) {
    let t = lid + r_t * WG;
    if (t >= N * RC) { continue; }
      let j = t / RC;
      let c = t % RC;
      if (c0 + c < nrhs) {
#if MODE_LUSOLVE
        let r = select(j, perm_s[j], adj);
#else
        let r = j;
#endif
        stX((m * N + r) * nrhs + c0 + c, select(b_s[j * RC + c], tnan(), bad));
      }
    }
    sync();
  }
#if !MODE_LUSOLVE
  if (lid == 0u) { INFO[m] = info_s; }
#endif
#endif
}
