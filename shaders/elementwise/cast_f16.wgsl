// cast between float16 (two halves per u32 word, element 2i in the low bits) and float32,
// on the bits (common/half.wgsl), so the result is the CPU's bit for bit. One thread per
// word of halves: a packed word is written whole by one thread, and an odd count's last
// word holds the last element and a zero. TO_HALF: float32 x → float16 out; else the
// reverse. Uniforms: count (elements), words (⌈count/2⌉). Each thread takes PER words WG apart.
#include "common/linear_id.wgsl"
#include "common/half.wgsl"

fn cast_word(w: u32) {
  let i = 2u * w;
#if TO_HALF
  var hi = 0u;
  if (i + 1u < p.count) { hi = f16_from_f32_bits(x[i + 1u]); }
  out[w] = f16_from_f32_bits(x[i]) | (hi << 16u);
#else
  let v = x[w];
  out[i] = f32_bits_from_f16(v & 0xffffu);
  if (i + 1u < p.count) { out[i + 1u] = f32_bits_from_f16(v >> 16u); }
#endif
}

@compute @workgroup_size(${WG})
fn ${ENTRY}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * (${WG}u * ${PER}u) + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let w = base + k * ${WG}u;
    if (w >= p.words) { return; }
    cast_word(w);
  }
}
