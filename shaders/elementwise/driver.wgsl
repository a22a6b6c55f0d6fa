// The shared driver of the elementwise kernels (cast, unary, binary, where). Each kernel
// file defines apply4(q) (VEC path: elements 4q…4q+3, every operand contiguous or one
// element) or apply1(i) (strided path: output element i, operand offsets from `lay`).
// The ld4_*/st4_out/ld_*/st_out helpers are generated per operand by
// src/backend/gpu/elementwise.ts. Each thread takes PER items WG apart (coalesced).
// Uniforms: count (quads on the VEC path, elements otherwise), nd (dims of `lay`, STRIDED;
// quads per row on the VEC path when an operand is a row or column broadcast),
// zero (always 0: math.wgsl `opaque`).
// Without VEC or STRIDED (cast's fallback) element i of every operand is element i.
#include "common/linear_id.wgsl"

#if STRIDED
// `lay` holds the collapsed dims (nd), then each operand's strides (nd each), in elements.
fn offsets(i: u32) -> array<u32, ${NOPS}> {
  var rem = i;
  var o: array<u32, ${NOPS}>;
  let nd = p.nd;
  for (var d = i32(nd) - 1; d >= 0; d--) {
    let du = u32(d);
    let n = lay[du];
    let c = rem % n;
    rem = rem / n;
    for (var j = 0u; j < ${NOPS}u; j++) { o[j] += c * lay[(j + 1u) * nd + du]; }
  }
  return o;
}
#endif

@compute @workgroup_size(${WG})
fn ${ENTRY}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let tile = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u);
  let base = tile + lid;
  if (tile + ${WG}u * ${PER}u <= p.count) {
    // a whole tile: no bounds checks, so the unrolled loads can all be in flight
    for (var k = 0u; k < ${PER}u; k++) {
#if VEC
      apply4(base + k * ${WG}u);
#else
      apply1(base + k * ${WG}u);
#endif
    }
    return;
  }
  for (var k = 0u; k < ${PER}u; k++) {
    let i = base + k * ${WG}u;
    if (i >= p.count) { return; }
#if VEC
    apply4(i);
#else
    apply1(i);
#endif
  }
}
