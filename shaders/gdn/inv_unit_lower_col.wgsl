// T = (I + L)⁻¹ for a batch of C×C unit lower triangular matrices (C = 16, 32, 64; float32),
// one column per thread: the same substitution as inv_unit_lower.wgsl (only the strict lower
// triangle L of A is read; exact ones on the diagonal and zeros above) with 16 scalar
// accumulators per thread instead of 16 vec4s. Why: four times the threads for the same
// systems (C per system), so the serial block chain of each thread is a quarter as long and
// the GPU holds enough warps to hide the latency of its loads.
// Thread order (block jc = ⌊c/16⌋, system, c mod 16): a warp shares jc (uniform loop bounds),
// its 16-thread groups read the same L address (broadcast) and store 64 contiguous bytes.
//
// Bindings (src/backend/gpu/gdn_wy.ts): A (vec4f) → T (f32). Uniforms: count (systems).
#include "common/linear_id.wgsl"

const C: u32 = ${C}u;
const Q: u32 = C / 4u;           // vec4s per row of A
const NB: u32 = C / 16u;         // 16-row blocks
const S: u32 = ${WG}u / C;       // systems per workgroup

@compute @workgroup_size(${WG})
fn inv_unit_lower_col(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let jc = lid / (16u * S);
  let rem = lid % (16u * S);
  let m = linear_workgroup_id(wid, nwg) * S + rem / 16u;
  if (m >= p.count) { return; }
  let c = jc * 16u + rem % 16u;
  let lb = m * C * Q;

  for (var I = 0u; I < NB; I++) {
    let xb = (m * C + I * 16u) * C + c;
    if (I < jc) {
${ZERO}
      continue;
    }
${INIT}
    for (var J = jc; J < I; J++) {
      let xr = (m * C + J * 16u) * C + c;
${UPDATE}
    }
${TRIANGLE}
${STORE}
  }
}
