// Row permutations of the LU solvers, float32, complex64 or int32.
//
// MODE_PERM: the permutation of LAPACK pivots. The interchanges i ↔ piv[i] − 1 applied in
// order send row r of A to position pos(r); rather than replaying the swaps on an array
// (k dependent steps on one thread), thread r follows its own row through all k swaps,
// reading the pivots from workgroup memory a tile at a time: every row in parallel, no
// limit on m. It writes PERM[pos(r)] = r (L·U = rows PERM of A, the gather of a solve)
// and IPERM[r] = pos(r) (its inverse, for the adjoint solve). A pivot outside 1..m counts
// as no interchange (as the CPU's unpack) and STATUS gets (k + 1 of the first, its value),
// else (0, 0). Group g serves rows [g·WG, g·WG + WG) of matrix g / chunks.
//
// MODE_GATHER: DST[b, i, c] = SRC[smap(b), perm(i), c] over (count, rows, cols), one
// thread per element: perm(i) = PERM[pmap(b)·rows + i] (or i), smap/pmap the batch maps
// (or b); with ident, the value is 1 where perm(i) = c and 0 elsewhere (P·I, the inverse's
// right-hand side, SRC unread). Floats become NaN where STATUS[2·pmap(b)] ≠ 0 (use_status:
// a bad pivot) or INFO[pmap(b)] ≠ 0 (use_info: a failed factorization).
//
// MODE_MARK: the same NaN rule applied in place to DST (count matrices of `per` elements)
// after the triangular solves, which need not carry a NaN right-hand side through every
// entry of the result.
//
// Bindings (src/backend/gpu/lu_ops.ts): MODE_PERM PIV → PERM, IPERM, STATUS (i32);
// uniforms total (groups), chunks (groups per matrix), m (rows), k (pivots per matrix).
// MODE_GATHER SRC (T), PERM, SMAP, PMAP, STATUS, INFO (i32) → DST (T); uniforms total
// (elements), rows, cols, use_perm, use_smap, use_pmap, use_status, use_info, ident.
// MODE_MARK PMAP, STATUS, INFO → DST; uniforms total, per, use_pmap, use_status, use_info.
#include "common/linear_id.wgsl"

const WG: u32 = ${WG}u;

#if MODE_PERM
var<workgroup> piv_s: array<i32, ${WG}>;
var<workgroup> bad_s: atomic<u32>;

@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.total) { return; }
  let k = p.k;
  let m = p.m;
  let b = w / p.chunks;
  let r = (w % p.chunks) * WG + lid;
  if (lid == 0u) { atomicStore(&bad_s, k); }
  workgroupBarrier();
  var pos = i32(r);
  for (var t0 = 0u; t0 < k; t0 += WG) {
    let i = t0 + lid;
    if (i < k) {
      let q = PIV[b * k + i] - 1;
      if (q < 0 || q >= i32(m)) {
        atomicMin(&bad_s, i);
        piv_s[lid] = i32(i);
      } else {
        piv_s[lid] = q;
      }
    }
    workgroupBarrier();
    let len = min(WG, k - t0);
    for (var j = 0u; j < len; j++) {
      let ii = i32(t0 + j);
      let q = piv_s[j];
      if (pos == ii) { pos = q; } else if (pos == q) { pos = ii; }
    }
    workgroupBarrier();
  }
  if (r < m) {
    PERM[b * m + u32(pos)] = i32(r);
    IPERM[b * m + r] = pos;
  }
  if (w % p.chunks == 0u && lid == 0u) {
    let kb = atomicLoad(&bad_s);
    STATUS[2u * b] = 0;
    STATUS[2u * b + 1u] = 0;
    if (kb < k) {
      STATUS[2u * b] = i32(kb + 1u);
      STATUS[2u * b + 1u] = PIV[b * k + kb];
    }
  }
}
#else
#if !IS_INT
// A quiet NaN built at run time (a constant NaN is a WGSL compile error).
fn nan_f32() -> f32 {
  var bits = 0x7fc00000u;
  return bitcast<f32>(bits);
}

// Whether output matrix b's results are void: a bad pivot or a failed factorization of
// its LU (pm: b through the map).
fn failed(pm: u32) -> bool {
  return (p.use_status != 0u && STATUS[2u * pm] != 0) || (p.use_info != 0u && INFO[pm] != 0);
}
#endif

#if MODE_MARK
@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let t = linear_workgroup_id(wid, nwg) * WG + lid;
  if (t >= p.total) { return; }
  let b = t / p.per;
  var pm = b;
  if (p.use_pmap != 0u) { pm = u32(PMAP[b]); }
  if (failed(pm)) { DST[t] = ${T}(nan_f32()); }
}
#else

@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let t = linear_workgroup_id(wid, nwg) * WG + lid;
  if (t >= p.total) { return; }
  let rows = p.rows;
  let cols = p.cols;
  let b = t / (rows * cols);
  let i = (t / cols) % rows;
  let c = t % cols;
  // (ifs, not select: an unused map is a one-word dummy that must not be indexed)
  var pm = b;
  if (p.use_pmap != 0u) { pm = u32(PMAP[b]); }
  var row = i;
  if (p.use_perm != 0u) { row = u32(PERM[pm * rows + i]); }
  var v: ${T};
  if (p.ident != 0u) {
    v = select(${ZERO}, ${ONE}, row == c);
  } else {
    var sm = b;
    if (p.use_smap != 0u) { sm = u32(SMAP[b]); }
    v = SRC[(sm * rows + row) * cols + c];
  }
#if !IS_INT
  if (failed(pm)) { v = ${T}(nan_f32()); }
#endif
  DST[t] = v;
}
#endif
#endif
