// The leaf of the blocked LU's panel factorization (src/backend/gpu/lu_blocked.ts): ONE
// workgroup per matrix factors the w ≤ LEAF columns [c, c+w) over rows [c, m) of the
// (batch, m, n) row-major matrices in A, in place (LAPACK dgetf2 on that block).
// LEFT (the left-looking panel): first the leaf's U block over rows [pc0, c) is solved with
// the panel's final unit-lower L (one thread per column), and rows [c, m) of the leaf lose
// L[rows, pc0..c)·U_block (QB rows of U staged in workgroup memory at a time): the panel's
// earlier columns applied inside the leaf. The dispatch walks the leaves of [c, c + w) in
// turn (w > LEAF: the whole left-looking panel in one dispatch).
//
// Row i of the leaf belongs to thread (i − c) % WG for every column, so a thread's pivot
// search of column k+1 reads only the values its own update of column k wrote: a column
// is three barriers. Per column k:
//  1. each thread finds the largest key over its rows ≥ k, atomicMax of the keys;
//  2. the rows holding the maximum key bid their index with atomicMin: the lowest index
//     wins ties as LAPACK's i?amax. The key is |a| (|re| + |im| for complex, as LAPACK's
//     icamax and the CPU kernel), its float bits being ordered as the values; a NaN key is
//     the largest, so the first NaN wins as on the CPU (NaN input spreads, never skipped);
//  3. rows k and p are swapped in the leaf's columns, the pivot row's leaf part goes to
//     workgroup memory;
//  4. every row below k forms its multiplier — a·(1/p), or a/p when |p| is below the
//     smallest normal (dgetrf2's rule), exactly ±1 when a = ±p as in lu.wgsl — and
//     updates its leaf columns right of k.
// An exactly zero pivot sets info (the first one: leaves run left to right) and the step
// goes on with multiplier a (zero), as the CPU kernel does.
// After the last column the leaf's interchanges go to the rest of the outer panel
// [pc0, pc0 + pw) and to ROWID (the panel's row map: the original row now at each
// position; laswp.wgsl applies the panel's interchanges outside it through that map) in
// one gather per column: thread 0 replays the ≤ LEAF swaps into the rows now at positions
// c..c+w and the displaced rows below, then every column loads those rows at once (no
// chain of dependent swaps, no global memory traffic inside the column loop). A left
// child of the recursion also solves its parent's U12 block (the rw columns right of it)
// in the same pass: those rows are in registers there, and L11 is final.
//
// REG: the leaf block lives in registers (slot q of thread t: row c + t + q·WG, RQ slots,
// LEAF columns, constant indices only once the loops are unrolled): loaded once, written
// back once; the pivot row and row k trade their leaf parts through workgroup memory.
// Without REG the leaf is read and written
// in A (L1/L2-resident) at every column: any number of rows.
//
// Bindings (lu_blocked.ts, luPanelProgram): A (T, read_write), PIV (i32, batch × mn,
// 1-based absolute rows), INFO (i32, batch), ROWID (i32 scratch, batch × m).
// Uniforms: batch, m, n, mn, c (first column = first row), w (width), pc0, pw (the outer
// panel's columns), first (1: initialise ROWID[c..m) first: the panel's first leaf), rw
// (columns right of the leaf to solve with its L11, 0: none).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const WG: u32 = ${WG}u;
const NONE: u32 = 0xffffffffu;

var<workgroup> kmax_s: array<atomic<u32>, 2>;
var<workgroup> kidx_s: array<atomic<u32>, 2>;
var<workgroup> u_s: array<${T}, ${LEAF}>;
var<workgroup> piv_s: array<u32, ${LEAF}>;     // pivot row of each leaf column
var<workgroup> src_s: array<u32, ${LEAF}>;     // the row (at the leaf's start) now at position c + t
var<workgroup> low_s: array<vec2u, ${LEAF}>;   // displaced rows below c + w: (position, row it takes)
var<workgroup> nlow_s: u32;
#if REG
var<workgroup> v_s: array<${T}, ${LEAF}>;
const RQ: u32 = ${RQ}u;
#endif
const LEAF: u32 = ${LEAF}u;
#if LEFT
const QB: u32 = ${QB}u;
var<workgroup> ul_s: array<${T}, ${QBL}>;
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
  // the columns [c, c + w) in leaves of LEAF, left to right (w ≤ LEAF: one leaf)
  let ce = p.c + p.w;
  for (var c = p.c; c < ce; c += LEAF) {
    sync();  // the previous leaf's interchanges (A, ROWID) before this one reads them
    leaf(b, lid, c, min(LEAF, ce - c), p.first != 0u && c == p.c);
  }
}

fn leaf(b: u32, lid: u32, c: u32, w: u32, first: bool) {
  let n = p.n;
  let m = p.m;
  let base = b * m * n;
  let rbase = b * m;
  if (first) {
    for (var i = c + lid; i < m; i += WG) { ROWID[rbase + i] = i32(i); }
  }
  if (lid == 0u) {
    atomicStore(&kmax_s[0], 0u);
    atomicStore(&kidx_s[0], NONE);
    atomicStore(&kmax_s[1], 0u);
    atomicStore(&kidx_s[1], NONE);
  }
#if LEFT
  // left-looking: the panel's columns [pc0, c) are final (L, and their swaps are in these
  // columns already). (a) the U rows [pc0, c) of the leaf: L⁻¹ (unit lower), one thread per column
  let kl = c - p.pc0;
  // (forward substitution 8 rows at a time, their partial sums in registers: 8 independent chains)
  if (lid < w) {
    let xb = base + p.pc0 * n + c + lid;   // X(i) at xb + i·n
    let lb = base + p.pc0 * n + p.pc0;     // L(i, k) at lb + i·n + k
    var acc: array<${T}, 8>;
    for (var i0 = 0u; i0 < kl; i0 += 8u) {
      let h = min(8u, kl - i0);
      for (var q = 0u; q < 8u; q++) { if (q < h) { acc[q] = A[xb + (i0 + q) * n]; } }
      for (var k = 0u; k < i0; k++) {
        let xk = A[xb + k * n];
        for (var q = 0u; q < 8u; q++) { if (q < h) { acc[q] = acc[q] - tmul(A[lb + (i0 + q) * n + k], xk); } }
      }
      for (var q = 1u; q < 8u; q++) {
        for (var q2 = 0u; q2 < q; q2++) {
          if (q < h) { acc[q] = acc[q] - tmul(A[lb + (i0 + q) * n + i0 + q2], acc[q2]); }
        }
      }
      for (var q = 0u; q < 8u; q++) { if (q < h) { A[xb + (i0 + q) * n] = acc[q]; } }
    }
  }
  sync();
#endif
#if REG
  var r: array<${T}, ${RQL}>;
  for (var q = 0u; q < RQ; q++) {
    let i = c + lid + q * WG;
    for (var cc = 0u; cc < LEAF; cc++) {
      if (i < m && cc < w) { r[q * LEAF + cc] = A[base + i * n + c + cc]; }
    }
  }
#endif
#if LEFT
  // (b) rows [c, m) −= L[rows, pc0..c) · U[pc0..c, leaf], QB rows of U at a time in workgroup memory
  for (var q0 = 0u; q0 < kl; q0 += QB) {
    let h = min(QB, kl - q0);
    for (var e = lid; e < QB * LEAF; e += WG) {
      let qq = e / LEAF;
      let cc = e % LEAF;
      if (qq < h && cc < w) { ul_s[e] = A[base + (p.pc0 + q0 + qq) * n + c + cc]; }
    }
    workgroupBarrier();
#if REG
    // one U row in registers at a time, used by every row slot of the thread
    for (var qq = 0u; qq < h; qq++) {
      var u: array<${T}, ${LEAF}>;
      for (var cc = 0u; cc < LEAF; cc++) { u[cc] = ul_s[qq * LEAF + cc]; }
      for (var q = 0u; q < RQ; q++) {
        let i = c + lid + q * WG;
        if (i < m) {
          let l = A[base + i * n + p.pc0 + q0 + qq];
          for (var cc = 0u; cc < LEAF; cc++) { r[q * LEAF + cc] = r[q * LEAF + cc] - tmul(l, u[cc]); }
        }
      }
    }
#else
    for (var i = c + lid; i < m; i += WG) {
      let e = base + i * n;
      var acc: array<${T}, ${LEAF}>;
      for (var cc = 0u; cc < LEAF; cc++) { if (cc < w) { acc[cc] = A[e + c + cc]; } }
      for (var qq = 0u; qq < h; qq++) {
        let l = A[e + p.pc0 + q0 + qq];
        for (var cc = 0u; cc < LEAF; cc++) { acc[cc] = acc[cc] - tmul(l, ul_s[qq * LEAF + cc]); }
      }
      for (var cc = 0u; cc < LEAF; cc++) { if (cc < w) { A[e + c + cc] = acc[cc]; } }
    }
#endif
    workgroupBarrier();
  }
#endif
  sync();
  var zinfo = 0u;  // the leaf's first zero pivot (1-based)
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
#else
    for (var t = lid; t < w; t += WG) {
      let col = c + t;
      let vp = A[base + piv * n + col];
      if (piv != k) {
        A[base + piv * n + col] = A[base + k * n + col];
        A[base + k * n + col] = vp;
      }
      if (t >= kk) { u_s[t] = vp; }
    }
#endif
    if (lid == 0u) {
      piv_s[kk] = piv;
      // the other slot, read by everyone before the previous column's last barrier
      atomicStore(&kmax_s[s ^ 1u], 0u);
      atomicStore(&kidx_s[s ^ 1u], NONE);
    }
    sync();
    // 4. multipliers and the update of the leaf columns right of k
    let pv = u_s[kk];
    let zero = iszero(pv);
    if (zero && zinfo == 0u) { zinfo = k + 1u; }
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
  // the leaf's interchanges as a gather: replay them on row names (thread 0, ≤ LEAF² steps)
  if (lid == 0u) {
    if (zinfo != 0u && INFO[b] == 0) { INFO[b] = i32(zinfo); }
    for (var t = 0u; t < w; t++) { src_s[t] = c + t; }
    var nl = 0u;
    for (var kk = 0u; kk < w; kk++) {
      let k = c + kk;
      let q = piv_s[kk];
      PIV[b * p.mn + k] = i32(q + 1u);
      if (q == k) { continue; }
      if (q < c + w) {
        let t = src_s[kk];
        src_s[kk] = src_s[q - c];
        src_s[q - c] = t;
      } else {
        var slot = nl;
        for (var e = 0u; e < nl; e++) { if (low_s[e].x == q) { slot = e; } }
        if (slot == nl) { low_s[nl] = vec2u(q, q); nl += 1u; }
        let t = src_s[kk];
        src_s[kk] = low_s[slot].y;
        low_s[slot].y = t;
      }
    }
    nlow_s = nl;
  }
  storageBarrier();  // the leaf's L11 (written back, or updated in place) for the U12 below
  workgroupBarrier();
  let nlow = workgroupUniformLoad(&nlow_s);
  // columns of the outer panel outside the leaf, then ROWID as one more column (t = pw)
  for (var t = lid; t <= p.pw; t += WG) {
    let col = p.pc0 + t;
    if (t < p.pw && col >= c && col < c + w) { continue; }
    var vals: array<${T}, ${LEAF}>;
    var ids: array<i32, ${LEAF}>;
    for (var q = 0u; q < LEAF; q++) {
      if (q < w) {
        if (t < p.pw) { vals[q] = A[base + src_s[q] * n + col]; } else { ids[q] = ROWID[rbase + src_s[q]]; }
      }
    }
    for (var e = 0u; e < nlow; e++) {
      let d = low_s[e];
      if (t < p.pw) { A[base + d.x * n + col] = A[base + d.y * n + col]; } else { ROWID[rbase + d.x] = ROWID[rbase + d.y]; }
    }
    // the parent's U12 for the rw columns right of the leaf: L11⁻¹ (unit lower, final in A)
    if (t < p.pw && col >= c + w && col < c + w + p.rw) {
      for (var q = 1u; q < LEAF; q++) {
        for (var q2 = 0u; q2 < q; q2++) {
          if (q < w) { vals[q] = vals[q] - tmul(A[base + (c + q) * n + c + q2], vals[q2]); }
        }
      }
    }
    for (var q = 0u; q < LEAF; q++) {
      if (q < w) {
        if (t < p.pw) { A[base + (c + q) * n + col] = vals[q]; } else { ROWID[rbase + c + q] = ids[q]; }
      }
    }
  }
}
