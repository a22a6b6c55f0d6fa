// The leaf of the blocked LU's panel factorization (src/backend/gpu/lu_blocked.ts): ONE
// workgroup per matrix factors the w ≤ LEAF columns [c, c+w) over rows [c, m) of the
// (batch, m, n) row-major matrices in A, in place (LAPACK dgetf2 on that block).
//
// Row i of the leaf belongs to thread (i − c) % WG for every column, so a thread's pivot
// search of column k+1 reads only the values its own update of column k wrote: a column
// is three barriers. Per column k:
//  1. each thread finds the largest key over its rows ≥ k, atomicMax of the keys;
//  2. the rows holding the maximum key bid their index with atomicMin: the lowest index
//     wins ties as LAPACK's i?amax. The key is |a| (|re| + |im| for complex, as LAPACK's
//     icamax and the CPU kernel), its float bits being ordered as the values; a NaN key is
//     the largest, so the first NaN wins as on the CPU (NaN input spreads, never skipped);
//  3. rows k and p are swapped across the whole outer panel [pc0, pc0 + pw) (its other
//     columns need the same interchange; the columns outside the panel get it later from
//     lu_laswp.wgsl through ROWID, the original row now at each position), the pivot row's
//     leaf part goes to workgroup memory, pivot and info are written;
//  4. every row below k forms its multiplier — a·(1/p), or a/p when |p| is below the
//     smallest normal (dgetrf2's rule), exactly ±1 when a = ±p as in lu.wgsl — and
//     updates its leaf columns right of k.
// An exactly zero pivot sets info (the first one: leaves run left to right) and the step
// goes on with multiplier a (zero), as the CPU kernel does.
//
// REG: the leaf block lives in registers (slot q of thread t: row c + t + q·WG, RQ slots,
// LEAF columns, constant indices only once the loops are unrolled): loaded once, written
// back once; the pivot row and row k trade their leaf parts through workgroup memory. The
// outer panel's other columns are swapped in A. Without REG the leaf is read and written
// in A (L1/L2-resident) at every column: any number of rows.
//
// Bindings (lu_blocked.ts, luPanelProgram): A (T, read_write), PIV (i32, batch × mn,
// 1-based absolute rows), INFO (i32, batch), ROWID (i32 scratch, batch × m).
// Uniforms: batch, m, n, mn, c (first column = first row), w (width), pc0, pw (the outer
// panel's columns), first (1: initialise ROWID[c..m) first: the panel's first leaf).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const WG: u32 = ${WG}u;
const NONE: u32 = 0xffffffffu;

var<workgroup> kmax_s: array<atomic<u32>, 2>;
var<workgroup> kidx_s: array<atomic<u32>, 2>;
var<workgroup> u_s: array<${T}, ${LEAF}>;
#if REG
var<workgroup> v_s: array<${T}, ${LEAF}>;
const RQ: u32 = ${RQ}u;
const LEAF: u32 = ${LEAF}u;
#endif

#if IS_COMPLEX
fn mag1(v: vec2f) -> f32 { return abs(v.x) + abs(v.y); }
fn iszero(v: vec2f) -> bool { return v.x == 0.0 && v.y == 0.0; }
#else
fn mag1(v: f32) -> f32 { return abs(v); }
fn iszero(v: f32) -> bool { return v == 0.0; }
#endif

// The pivot key: the bits of |a| (ordered as the values for non-negative floats), NaN above all.
fn key_of(v: ${T}) -> u32 {
  let b = bitcast<u32>(mag1(v)) & 0x7fffffffu;
  return select(b, NONE - 1u, b > 0x7f800000u);
}

// a/p as `q`, exactly ±1 when a = ±p (a duplicated row cancels to exact zeros).
fn mult(a: ${T}, p: ${T}, q: ${T}) -> ${T} {
  return select(select(q, -${ONE}, all(a == -p)), ${ONE}, all(a == p));
}

fn sync() { storageBarrier(); workgroupBarrier(); }

@compute @workgroup_size(${WG})
fn lu_panel_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let b = linear_workgroup_id(wid, nwg);
  if (b >= p.batch) { return; }
  let n = p.n;
  let m = p.m;
  let c = p.c;
  let w = p.w;
  let base = b * m * n;
  let rbase = b * m;
  if (p.first != 0u) {
    for (var i = c + lid; i < m; i += WG) { ROWID[rbase + i] = i32(i); }
  }
  if (lid == 0u) {
    atomicStore(&kmax_s[0], 0u);
    atomicStore(&kidx_s[0], NONE);
    atomicStore(&kmax_s[1], 0u);
    atomicStore(&kidx_s[1], NONE);
  }
#if REG
  var r: array<${T}, ${RQL}>;
  for (var q = 0u; q < RQ; q++) {
    let i = c + lid + q * WG;
    for (var cc = 0u; cc < LEAF; cc++) {
      if (i < m && cc < w) { r[q * LEAF + cc] = A[base + i * n + c + cc]; }
    }
  }
#endif
  sync();
  for (var kk = 0u; kk < w; kk++) {
    let k = c + kk;
    let s = kk & 1u;
    // 1. this thread's rows ≥ k: the largest key, the first row holding it
    var best = 0u;
    var bi = NONE;
#if REG
    for (var q = 0u; q < RQ; q++) {
      let i = c + lid + q * WG;
      var v = ${ZERO};
      for (var cc = 0u; cc < LEAF; cc++) { if (cc == kk) { v = r[q * LEAF + cc]; } }
      let key = key_of(v);
      if (i < m && i >= k && (bi == NONE || key > best)) { best = key; bi = i; }
    }
#else
    var i0 = c + lid;
    if (i0 < k) { i0 += ((k - i0 + WG - 1u) / WG) * WG; }
    for (var i = i0; i < m; i += WG) {
      let key = key_of(A[base + i * n + k]);
      if (bi == NONE || key > best) { best = key; bi = i; }
    }
#endif
    if (bi != NONE) { atomicMax(&kmax_s[s], best); }
    workgroupBarrier();
    // 2. the lowest row holding the maximum
    if (bi != NONE && best == atomicLoad(&kmax_s[s])) { atomicMin(&kidx_s[s], bi); }
    sync();  // also publishes the previous column's updates to the swapping threads
    let piv = atomicLoad(&kidx_s[s]);
    // 3. interchange rows k and piv across the outer panel; the pivot row's leaf part
#if REG
    // the leaf part in registers: the pivot row's owner publishes it (u_s), row k's owner its own (v_s)
    for (var q = 0u; q < RQ; q++) {
      let i = c + lid + q * WG;
      if (i == piv || i == k) {
        for (var cc = 0u; cc < LEAF; cc++) {
          if (cc < w) {
            if (i == piv) { u_s[cc] = r[q * LEAF + cc]; } else { v_s[cc] = r[q * LEAF + cc]; }
          }
        }
      }
    }
    for (var t = lid; t < p.pw; t += WG) {
      let col = p.pc0 + t;
      if (piv != k && (col < c || col >= c + w)) {
        let vp = A[base + piv * n + col];
        A[base + piv * n + col] = A[base + k * n + col];
        A[base + k * n + col] = vp;
      }
    }
#else
    for (var t = lid; t < p.pw; t += WG) {
      let col = p.pc0 + t;
      let vp = A[base + piv * n + col];
      if (piv != k) {
        A[base + piv * n + col] = A[base + k * n + col];
        A[base + k * n + col] = vp;
      }
      if (col >= k && col < c + w) { u_s[col - c] = vp; }
    }
#endif
    if (lid == 0u) {
      if (piv != k) {
        let t = ROWID[rbase + k];
        ROWID[rbase + k] = ROWID[rbase + piv];
        ROWID[rbase + piv] = t;
      }
      PIV[b * p.mn + k] = i32(piv + 1u);
      // the other slot, read by everyone before the previous column's last barrier
      atomicStore(&kmax_s[s ^ 1u], 0u);
      atomicStore(&kidx_s[s ^ 1u], NONE);
    }
    sync();
    // 4. multipliers and the update of the leaf columns right of k
    let pv = u_s[kk];
    let zero = iszero(pv);
    if (lid == 0u && zero && INFO[b] == 0) { INFO[b] = i32(k + 1u); }
    let tiny = tabs(pv) < 1.17549435e-38;
    let rp = tdiv(${ONE}, pv);
#if REG
    for (var q = 0u; q < RQ; q++) {
      let i = c + lid + q * WG;
      if (piv != k && i == piv) {
        for (var cc = 0u; cc < LEAF; cc++) { if (cc < w) { r[q * LEAF + cc] = v_s[cc]; } }
      }
      if (i == k) {
        for (var cc = 0u; cc < LEAF; cc++) { if (cc < w) { r[q * LEAF + cc] = u_s[cc]; } }
      }
      if (i < m && i > k) {
        var a = ${ZERO};
        for (var cc = 0u; cc < LEAF; cc++) { if (cc == kk) { a = r[q * LEAF + cc]; } }
        var l = a;
        if (!zero) {
          if (tiny) { l = mult(a, pv, tdiv(a, pv)); } else { l = mult(a, pv, tmul(a, rp)); }
        }
        for (var cc = 0u; cc < LEAF; cc++) {
          if (cc == kk) { r[q * LEAF + cc] = l; }
          if (cc > kk && cc < w) { r[q * LEAF + cc] = r[q * LEAF + cc] - tmul(l, u_s[cc]); }
        }
      }
    }
#else
    var j0 = k + 1u;
    if (j0 < c + lid) { j0 = c + lid; } else { j0 += (WG - (j0 - c - lid) % WG) % WG; }
    for (var i = j0; i < m; i += WG) {
      let e = base + i * n;
      let a = A[e + k];
      var l = a;
      if (!zero) {
        if (tiny) { l = mult(a, pv, tdiv(a, pv)); } else { l = mult(a, pv, tmul(a, rp)); }
      }
      A[e + k] = l;
      for (var cc = kk + 1u; cc < w; cc++) {
        A[e + c + cc] = A[e + c + cc] - tmul(l, u_s[cc]);
      }
    }
#endif
  }
#if REG
  for (var q = 0u; q < RQ; q++) {
    let i = c + lid + q * WG;
    for (var cc = 0u; cc < LEAF; cc++) {
      if (i < m && cc < w) { A[base + i * n + c + cc] = r[q * LEAF + cc]; }
    }
  }
#endif
}
