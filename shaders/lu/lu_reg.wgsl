// Batched LU with partial pivoting for real float32 n ≤ 32, the matrix in REGISTERS:
// solve (A, B → X, info) for up to 8 right-hand sides, the factorization (A → LU,
// pivots, info) and the inverse (B = I). The per-register statements are generated in
// src/backend/gpu/lu.ts (luRegParts) with constant indices only, so no private array is
// indexed dynamically.
//
// Thread t owns ROW t of [A | B] in registers r0.. and x0... Rows never move (the
// pivoting is implicit: a row that has been a pivot is "done" and keeps its U row), and
// the registers of an undone row SHIFT by one each step: at step k, r_m holds column k+m,
// so the pivot candidate is always r0 and the update r_{m-1} = r_m − l·u_m needs no
// dynamic register index. Columns past the live length n−k are skipped in tiers of 8
// (workgroup-uniform branches, each loading its part of the pivot row up front).
//
// A step is two barriers. Every undone row stores a pivot key: |r0|'s bits with the low
// five mantissa bits replaced by 31 − (the row's position in LAPACK's swapped order, which
// each row tracks), so one u32 max over the keys gives the largest magnitude and, among
// magnitudes equal to 2⁻¹⁸ relative, the first row as LAPACK orders them: exact ties
// pivot as in LAPACK, and the key's position is LAPACK's pivot index. After the first
// barrier every row reads the keys; the pivot row stores its registers (U row k,
// left-aligned, and its B part) as row k of the U block and is done. After the second
// barrier every undone row reads row k and updates itself. Multipliers are a·(1/p) (both
// scaled by 2²⁴ when p is below the smallest normal), exactly ±1 when a = ±p (a
// duplicated row cancels exactly, as in lu.wgsl). An exactly zero pivot sets info
// (the first one) and the step eliminates nothing, so the factorization completes.
//
// Back substitution (solve) reads U from the U block: thread i owns row i of X, and the
// columns are swept from the last, one barrier each; the row that becomes final divides
// by u_ii and publishes itself in its B slot. The inverse (n columns) gives thread c
// column c instead, swept with the same register shift as the elimination and no
// barrier (U is read-only by then). The factorization writes row s of LU from the U
// block and the multipliers of row order[s].
//
// G = WG / n matrices share a workgroup (n ≤ WG/2), each with its own keys and U block.
//
// Bindings (src/backend/gpu/lu.ts, luRegProgram): FACTOR A → LU, PIV, INFO; INV A → X,
// INFO; SOLVE A, B, bmap → X, INFO. A is an array of ${AT} (vec4f when n % 4 == 0).
// Uniforms: count (matrices), use_b (SOLVE: read B through bmap).
#include "common/linear_id.wgsl"

const N: u32 = ${N}u;
const G: u32 = ${G}u;       // matrices per workgroup
const GN: u32 = ${G}u * ${N}u;
const W4: u32 = ${W4}u;     // row stride of the buffers in vec4s (odd: conflict-free vec4 access)
const KP4: u32 = ${KP4}u;   // key vec4s per matrix

// U, row k written at step k by the pivot row.
var<workgroup> rows: array<vec4f, ${ROWS4}>;
var<workgroup> keys: array<vec4u, ${KEYS4}>;
var<workgroup> bad_s: array<atomic<u32>, ${G}>;
#if MODE_FACTOR
var<workgroup> lmul: array<f32, ${LMUL}>;   // multiplier of (row, step)
var<workgroup> order: array<u32, ${GN}>;    // row of each step
var<workgroup> pivpos: array<u32, ${GN}>;   // LAPACK pivot (0-based) of each step
#endif

fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

fn nonfinite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u; }
fn nonfinite4(v: vec4f) -> bool { return any((bitcast<vec4u>(v) & vec4u(0x7f800000u)) == vec4u(0x7f800000u)); }

@compute @workgroup_size(${WG})
fn ${ENTRY}_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) t: u32) {
  let m0 = linear_workgroup_id(wid, nwg) * G;
  if (m0 >= p.count) { return; }
  let g = min(t / N, G - 1u);  // threads past G·N act as row N−1's shadow of the last matrix, storing nothing
  let tl = t - g * N;
  let m = m0 + g;
  let owns = t < GN;              // this thread has a row slot
  let live = owns && m < p.count;  // ... of a real matrix
  for (var i = t; i < ${KEYS4}u; i += ${WG}u) { keys[i] = vec4u(0u); }
  if (t < G) { atomicStore(&bad_s[t], 0u); }
${DECL}
  if (live) {
    var bad = false;
${LOAD}
#if MODE_SOLVE
    var bm = m;
    if (p.use_b != 0u) { bm = u32(bmap[m]); }
    let bb = (bm * N + tl) * ${R}u;
#endif
#if HAS_B
${LOADB}
#endif
    if (bad) { atomicStore(&bad_s[g], 1u); }
  }
  workgroupBarrier();

  var undone = live;
  var pos = tl;  // the row's position in LAPACK's row order (rows k, pivot swapped each step)
  var info = 0;
#if HAS_B
  if (live && atomicLoad(&bad_s[g]) != 0u) { info = -1; }
#endif
  // U row k (left-aligned: u_{k, k+c} at column c, then the B part) goes to row k of
  // this matrix's U block at step k.
  let ub = g * N;
  for (var k = 0u; k < N; k++) {
    let L = N - k;  // live registers of an undone row: r0 .. r(L−1)
    let b = k & 1u;
    if (owns) {
      var key = 0u;
      if (undone) { key = ((bitcast<u32>(abs(r0)) >> 5u) << 5u) | (31u - pos); }
      // Constant components: four rows share a vec4, and a store through a dynamic
      // component index may be lowered to a read-modify-write of the whole vector.
      let ki = (b * G + g) * KP4 + tl / 4u;
      switch (tl % 4u) {
        case 0u: { keys[ki].x = key; }
        case 1u: { keys[ki].y = key; }
        case 2u: { keys[ki].z = key; }
        default: { keys[ki].w = key; }
      }
    }
    workgroupBarrier();
    var pr = 0u;
    if (live) {
      let kb = (b * G + g) * KP4;
${KEYMAX}
      let kmax = max(max(km.x, km.y), max(km.z, km.w));
      let pp = 31u - (kmax & 31u);  // the pivot row's position
      let piv = undone && pos == pp;
      pr = (ub + k) * W4;
      if (piv) {
        let sb = pr;
${STORE_ROW}
      }
      // LAPACK's swap of rows k and pp
      if (piv) {
        undone = false;
#if MODE_FACTOR
        order[g * N + k] = tl;
        pivpos[g * N + k] = pp;
#endif
        pos = k;
      } else if (undone && pos == k) {
        pos = pp;
      }
    }
    workgroupBarrier();
    if (live) {
      let pv = rows[pr].x;
      let zero = pv == 0.0;
      info = select(info, i32(k + 1u), zero && info == 0);
      // l = a·(1/p); below the smallest normal 1/p would overflow, so both are scaled by
      // 2²⁴ first (exact; |a| ≤ |p| keeps a·2²⁴ finite). No branches: the pivot-row loads
      // below can issue right after the reciprocal.
      let sc = select(1.0, 16777216.0, abs(pv) < 1.17549435e-38);
      let rps = 1.0 / (pv * sc);
      if (undone) {
        // exactly ±1 when r0 = ±p: a duplicated row cancels to exact zeros (a·(1/p) may be
        // 1 − 2⁻²⁴ and leave a tiny pivot where the exact zero is due)
        let l = select(select(select((r0 * sc) * rps, -1.0, r0 == -pv), 1.0, r0 == pv), 0.0, zero);
#if MODE_FACTOR
        lmul[(g * N + tl) * N + k] = l;
#endif
        let nl = -l;
${UPDATE}
      }
    }
  }

  workgroupBarrier();
#if MODE_SOLVE
  // Thread tl owns row tl of X; row j is final after the sweep of column j+1.
  let me = (ub + tl) * W4;
  if (live) {
${LOAD_C}
    if (tl == N - 1u) {
      let d = rows[me].x;
${FINISH}
    }
  }
  workgroupBarrier();
  for (var j = N - 1u; j >= 1u; j--) {
    if (live && tl < j) {
      let c = j - tl;
      let u = rows[me + c / 4u][c % 4u];
      let xj = (ub + j) * W4;
${SWEEP}
      if (tl + 1u == j) {
        let d = rows[me].x;
${FINISH}
      }
    }
    workgroupBarrier();
  }
  if (live) {
    let failed = info != 0;
    let xb = (m * N + tl) * ${R}u;
${STORE_X}
    if (tl == 0u) { INFO[m] = info; }
  }
#elif MODE_INV
  // Thread tl owns column tl of X. At step j (from the last) r_m holds row j − m of it;
  // the sweep reads only the finished U block, so it needs no barrier.
  if (live) {
    let col = tl;
    let col4 = ${NB4}u + col / 4u;
    {
      let jb = i32((ub + N - 1u) * W4);
${LOAD_Y}
    }
    let failed = info != 0;
    for (var j = i32(N) - 1; j >= 0; j--) {
      let L = u32(j) + 1u;
      let jb = i32((ub + u32(j)) * W4);
      let xj = r0 / rows[u32(jb)].x;
      X[(m * N + u32(j)) * N + col] = select(xj, nan_f32(), failed);
      let nx = -xj;
${BSWEEP}
    }
    if (tl == 0u) { INFO[m] = info; }
  }
#else
  // Row s of LU: the multipliers of row order[s] left of the diagonal, U row s from it on.
  if (live) {
    for (var s = 0u; s < N; s++) {
      var v: f32;
      if (tl < s) {
        v = lmul[(g * N + order[g * N + s]) * N + tl];
      } else {
        let c = tl - s;
        v = rows[(ub + s) * W4 + c / 4u][c % 4u];
      }
      LU[(m * N + s) * N + tl] = v;
    }
    PIV[m * N + tl] = i32(pivpos[g * N + tl] + 1u);
    if (tl == 0u) { INFO[m] = info; }
  }
#endif
}
