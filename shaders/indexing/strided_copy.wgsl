// stridedCopy: out[i…] = x.flat[offset + Σ i_d·stride_d] (src/backend/gpu/indexing.ts).
// Moves raw bits (E = u32 for every 4-byte dtype, vec2u for complex64), so one kernel per
// element width serves float32, int32, uint32 and bool; conj flips the imaginary sign bit.
// Index arithmetic is u32 and wraps: negative strides arrive as their two's complement and
// the sum lands in range (the caller checked every reachable offset).
// Uniforms: dims0…dims3 / strides0…strides3 hold up to 16 (collapsed) dims, innermost last.
// GENERAL: one thread per output element (PER per thread, WG apart: coalesced writes),
// out[out_base + e]; total = elements of this dispatch.
// TILED: the transpose pattern, out (batch…, R, C) with source strides (…, 1, ld): one
// workgroup per 32×32 tile staged in workgroup memory, so reads (along R) and writes
// (along C) are both contiguous; the batch dims are dims/strides[0, ndim); total = workgroups.
#include "common/linear_id.wgsl"

fn conj_bits(v: ${E}) -> ${E} {
#if IS_COMPLEX
  if (p.conj != 0u) { return vec2u(v.x, v.y ^ 0x80000000u); }
#endif
  return v;
}

fn dim_at(d: u32) -> u32 {
  switch (d >> 2u) {
    case 0u: { return p.dims0[d & 3u]; }
    case 1u: { return p.dims1[d & 3u]; }
    case 2u: { return p.dims2[d & 3u]; }
    default: { return p.dims3[d & 3u]; }
  }
}

fn stride_at(d: u32) -> u32 {
  switch (d >> 2u) {
    case 0u: { return p.strides0[d & 3u]; }
    case 1u: { return p.strides1[d & 3u]; }
    case 2u: { return p.strides2[d & 3u]; }
    default: { return p.strides3[d & 3u]; }
  }
}

// Source offset of flat index e over dims [0, ndim) (row-major, innermost last).
fn source_of(e: u32, ndim: u32) -> u32 {
  var rem = e;
  var s = p.offset;
  for (var k = 0u; k < ndim; k++) {
    let d = ndim - 1u - k;
    let n = dim_at(d);
    let q = rem / n;
    s += (rem - q * n) * stride_at(d);
    rem = q;
  }
  return s;
}

#if TILED
var<workgroup> tile: array<${E}, 1056>;   // 32 × 33 (the pad keeps column reads off one bank)

@compute @workgroup_size(32, 8, 1)
fn strided_copy_tiled_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                           @builtin(local_invocation_id) lid: vec3u) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.total) { return; }
  let b = w / p.tiles_per_mat;
  let t = w - b * p.tiles_per_mat;
  let r0 = (t / p.tiles_c) * 32u;
  let c0 = (t % p.tiles_c) * 32u;
  let src_base = source_of(b, p.ndim);
  let dst_base = b * p.rows * p.cols;
  // tile[c][r]: thread x walks r, the source's contiguous direction
  for (var j = 0u; j < 32u; j += 8u) {
    let r = r0 + lid.x;
    let c = c0 + lid.y + j;
    if (r < p.rows && c < p.cols) { tile[(lid.y + j) * 33u + lid.x] = x[src_base + r + c * p.ld]; }
  }
  workgroupBarrier();
  for (var j = 0u; j < 32u; j += 8u) {
    let r = r0 + lid.y + j;
    let c = c0 + lid.x;
    if (r < p.rows && c < p.cols) { out[dst_base + r * p.cols + c] = conj_bits(tile[lid.x * 33u + lid.y + j]); }
  }
}
#else
@compute @workgroup_size(${WG})
fn strided_copy_general_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                             @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * ${TILE}u + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let e = base + k * ${WG}u;
    if (e >= p.total) { return; }
    out[p.out_base + e] = conj_bits(x[source_of(e, p.ndim)]);
  }
}
#endif
