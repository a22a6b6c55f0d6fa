// Row interchanges of LU (LAPACK laswp), one thread per column of one batch member, 64
// columns per workgroup, workgroups = batch × tiles (folded past 65,535).
//
// GATHER (the blocked LU's step, lu_blocked.ts): the panel's interchanges piv[j..j+jb)
// applied to the ncols columns outside the panel (column t is t, or t + gap from `split`
// on). The panel leaves ROWID[r] = the original row now at position r; every row moved
// into a position ≥ j + jb came from the top block [j, j + jb), so per column: (1) the
// new top rows are gathered from ROWID into the scratch S, all loads independent;
// (2) the moved-down rows (pivot targets ≥ j + jb) copy their original top row, still in
// place; (3) S goes to the top rows. No sequential chain of dependent swaps.
// Bindings: PIV (i32, batch × mn), ROWID (i32, batch × m) → A (T), S (T, batch × jb ×
// ncols). Uniforms: batch, m, n, mn, j, jb, ncols, split, gap, tiles.
//
// SEQ (laswpGpu): the swaps piv[k0..k1) (reversed: k1−1 down to k0) in order on the
// columns [0, ncols) of the matrices at offset + b·stride with row stride ld; pivots of
// member b at PIV[b·piv_stride + i], 1-based rows of those matrices.
// Bindings: PIV (i32) → B (T). Uniforms: batch, ld, offset, stride, ncols, piv_stride,
// k0, k1, reverse, tiles.
#include "common/linear_id.wgsl"

#if GATHER
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
  for (var r = 0u; r < p.jb; r++) {
    A[base + (j + r) * n] = S[sb + r * p.ncols];
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
