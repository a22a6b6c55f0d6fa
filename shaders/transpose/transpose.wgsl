// Batched matrix transpose (adjoint with conj on complex data): out[b, j, i] = in[b, i, j].
// Moves raw bits (E = u32 or vec2u), so float32, int32 and complex64 share one kernel;
// conjugation flips the sign bit of the imaginary part.
// TILED: one workgroup per 32×32 tile, staged in workgroup memory so both the reads and
// the writes are contiguous (for matrices of at least 32×32). Otherwise one thread per
// output element (small matrices, where a tile would mostly idle).
// Bindings (src/backend/gpu/tensor-ops.ts): src → dst, arrays of E. Uniforms: m, n (the
// input's rows and columns), total (TILED: workgroups, batch · tilesPerMat; otherwise
// batch · m · n), conj; TILED also tilesN (tiles across the input's columns), tilesPerMat.
#include "common/linear_id.wgsl"

fn conj_bits(v: ${E}) -> ${E} {
#if IS_COMPLEX
  if (p.conj != 0u) { return vec2u(v.x, v.y ^ 0x80000000u); }
#endif
  return v;
}

#if TILED
var<workgroup> tile: array<${E}, 1056>;   // 32 rows × 33 (the pad keeps column reads off one bank)

@compute @workgroup_size(32, 8, 1)
fn transpose_tiled_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                            @builtin(local_invocation_id) lid: vec3u) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.total) { return; }
  let b = w / p.tilesPerMat;
  let t = w - b * p.tilesPerMat;
  let r0 = (t / p.tilesN) * 32u;
  let c0 = (t % p.tilesN) * 32u;
  let base = b * p.m * p.n;
  for (var j = 0u; j < 32u; j += 8u) {
    let r = r0 + lid.y + j;
    let c = c0 + lid.x;
    if (r < p.m && c < p.n) { tile[(lid.y + j) * 33u + lid.x] = src[base + r * p.n + c]; }
  }
  workgroupBarrier();
  for (var j = 0u; j < 32u; j += 8u) {
    let orow = c0 + lid.y + j;   // output row = input column
    let ocol = r0 + lid.x;       // output column = input row
    if (orow < p.n && ocol < p.m) { dst[base + orow * p.m + ocol] = conj_bits(tile[lid.x * 33u + lid.y + j]); }
  }
}
#else
@compute @workgroup_size(${WG})
fn transpose_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let o = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (o >= p.total) { return; }
  let mn = p.m * p.n;
  let b = o / mn;
  let r = o - b * mn;
  let i = r / p.m;       // output row = input column
  let j = r - i * p.m;   // output column = input row
  dst[o] = conj_bits(src[b * mn + j * p.n + i]);
}
#endif
