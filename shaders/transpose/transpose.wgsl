// Batched matrix transpose (adjoint with CONJ on complex data): out[b, j, i] = in[b, i, j].
// Moves raw bits (E = u32 or vec2u), so float32, int32 and complex64 share one kernel;
// conjugation flips the sign bit of the imaginary part.
#include "common/linear_id.wgsl"

struct Params {
  m: u32,      // rows of the input matrix
  n: u32,      // cols of the input matrix
  total: u32,  // batch * m * n
  conj: u32,
}

@group(0) @binding(0) var<storage, read> src: array<${E}>;
@group(0) @binding(1) var<storage, read_write> dst: array<${E}>;
@group(0) @binding(2) var<uniform> p: Params;

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
  var v = src[b * mn + j * p.n + i];
#if IS_COMPLEX
  if (p.conj != 0u) { v.y = v.y ^ 0x80000000u; }
#endif
  dst[o] = v;
}
