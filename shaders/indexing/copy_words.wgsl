// copy_words: n units from src at unit offset src_off to dst at dst_off, a unit being
// one u32 word or, in the VEC variant, one vec4<u32> (the caller checks both offsets are
// multiples of 4 words and copies the last words < 4 with the word variant). Replaces
// copyBufferToBuffer for contiguous runs: Dawn's buffer copy measured ~840 GB/s on the
// H200, a vec4 copy kernel ~3.5 TB/s. Uniforms: n, src_off, dst_off (in units).
#include "common/linear_id.wgsl"

@compute @workgroup_size(${WG})
fn copy_words_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * ${TILE}u + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let e = base + k * ${WG}u;
    if (e >= p.n) { return; }
    dst[p.dst_off + e] = src[p.src_off + e];
  }
}
