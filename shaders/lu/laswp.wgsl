// Row interchanges of LU (LAPACK laswp), one thread per column of one batch member, 64
// columns per workgroup, workgroups = batch × tiles (folded past 65,535).
//
// GATHER (the blocked LU's step, lu_blocked.ts): the panel's interchanges piv[j..j+jb)
// applied to the ncols columns outside the panel (column t is t, or t + gap from `split`
// on). The panel leaves ROWID[r] = the original row now at position r; every row moved
// into a position ≥ j + jb came from the top block [j, j + jb), so per column: (1) the
// new top rows are gathered from ROWID into the scratch S, all loads independent;
// (2) the moved-down rows (pivot targets ≥ j + jb) copy their original top row, still in
// place; (3) S goes to the top rows. No sequential chain of dependent swaps. With `solve`,
// the columns right of the panel (t ≥ split) get U12 = L11⁻¹·(their new top rows) in step
// (3) instead of the plain copy (lu_trsm.wgsl's substitution, RB rows at a time in
// registers, L11 unit lower at (j, j)): the step's separate U12 pass is saved.
// Bindings: PIV (i32, batch × mn), ROWID (i32, batch × m) → A (T), S (T, batch × jb ×
// ncols). Uniforms: batch, m, n, mn, j, jb, ncols, split, gap, tiles, solve.
//
// SEQ (laswpGpu): the swaps piv[k0..k1) (reversed: k1−1 down to k0) in order on the
// columns [0, ncols) of the matrices at offset + b·stride with row stride ld; pivots of
// member b at PIV[b·piv_stride + i], 1-based rows of those matrices.
// Bindings: PIV (i32) → B (T). Uniforms: batch, ld, offset, stride, ncols, piv_stride,
// k0, k1, reverse, tiles.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

#if GATHER
const RB: u32 = ${RB}u;

@compute @workgroup_size(64)
fn laswp_gather_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                         @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.batch * p.tiles) { return; }
  let b = w / p.tiles;
  let t = (w % p.tiles) * 64u + lid;
  if (t >= p.ncols) { return; }
  let col = t + select(0u, p.gap, t >= p.split);
  let n = p.n;
  let base = b * p.m * n + col;
  let rb = b * p.m;
  let sb = b * p.jb * p.ncols + t;
  let j = p.j;
  let je = j + p.jb;
  for (var r = 0u; r < p.jb; r++) {
    S[sb + r * p.ncols] = A[base + u32(ROWID[rb + j + r]) * n];
  }
  for (var r = 0u; r < p.jb; r++) {
    let q = u32(PIV[b * p.mn + j + r] - 1);
    if (q >= je) { A[base + q * n] = A[base + u32(ROWID[rb + q]) * n]; }
  }
  if (p.solve == 0u || t < p.split) {
    for (var r = 0u; r < p.jb; r++) {
      A[base + (j + r) * n] = S[sb + r * p.ncols];
    }
    return;
  }
  let lb = b * p.m * n + j * n + j;  // L11(i, k) at lb + i·n + k
  var acc: array<${T}, ${RB}>;
  for (var i0 = 0u; i0 < p.jb; i0 += RB) {
    let h = min(RB, p.jb - i0);
    for (var q = 0u; q < RB; q++) {
      if (q < h) { acc[q] = S[sb + (i0 + q) * p.ncols]; }
    }
    for (var k = 0u; k < i0; k++) {
      let xk = A[base + (j + k) * n];
      for (var q = 0u; q < RB; q++) {
        if (q < h) { acc[q] = acc[q] - tmul(A[lb + (i0 + q) * n + k], xk); }
      }
    }
    for (var q = 1u; q < RB; q++) {
      for (var q2 = 0u; q2 < q; q2++) {
        if (q < h) { acc[q] = acc[q] - tmul(A[lb + (i0 + q) * n + i0 + q2], acc[q2]); }
      }
    }
    for (var q = 0u; q < RB; q++) {
      if (q < h) { A[base + (j + i0 + q) * n] = acc[q]; }
    }
  }
}
#else
@compute @workgroup_size(64)
fn laswp_seq_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.batch * p.tiles) { return; }
  let b = w / p.tiles;
  let t = (w % p.tiles) * 64u + lid;
  if (t >= p.ncols) { return; }
  let base = p.offset + b * p.stride + t;
  let pb = b * p.piv_stride;
  let cnt = p.k1 - p.k0;
  for (var s = 0u; s < cnt; s++) {
    let i = select(p.k0 + s, p.k1 - 1u - s, p.reverse != 0u);
    let q = u32(PIV[pb + i] - 1);
    if (q != i) {
      let v = B[base + i * p.ld];
      B[base + i * p.ld] = B[base + q * p.ld];
      B[base + q * p.ld] = v;
    }
  }
}
#endif
