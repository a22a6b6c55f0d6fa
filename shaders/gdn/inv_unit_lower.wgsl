// T = (I + L)⁻¹ for a batch of C×C unit lower triangular matrices (C = 16, 32, 64; float32):
// only the strict lower triangle L of A is read (diagonal and upper part may hold anything,
// NaN included); T has exact ones on its diagonal and exact zeros above it. gdn.invUnitLower
// and the WY stage of the Gated DeltaNet forward (src/backend/gpu/gdn_wy.ts).
//
// The four-columns-per-thread substitution of trsm_unit_lower_v4.wgsl with B = I made in
// registers: thread (system m, column quad cv) holds a 16-row block of T's columns
// 4cv … 4cv+3 as 16 vec4 registers, acc = I_I − Σ_J L_IJ·T_J, then the unit 16×16 triangle,
// then 16 vec4 stores; T_J is read back from the thread's own earlier stores.
// Why the thread order: rows above 4cv of those columns are zero, so blocks I < ⌊cv/4⌋ are
// stored as zeros and the updates start at J = ⌊cv/4⌋ (about half the work at C = 64). The
// threads of a workgroup are ordered (block jc = ⌊cv/4⌋, system, cv mod 4), so a warp shares
// jc (uniform loop bounds) and its four-thread groups read the same L address (broadcast)
// and store 64 contiguous bytes.
//
// Bindings (src/backend/gpu/gdn_wy.ts): A (vec4f) → T (vec4f). Uniforms: count (systems).
#include "common/linear_id.wgsl"

const C: u32 = ${C}u;
const Q: u32 = C / 4u;           // column quads (threads) per system, vec4s per row
const NN4: u32 = C * C / 4u;
const NB: u32 = C / 16u;         // 16-row blocks
const S: u32 = ${WG}u / Q;       // systems per workgroup

fn eye4(d: i32) -> vec4f {
  return vec4f(vec4<bool>(d == 0, d == 1, d == 2, d == 3));
}

@compute @workgroup_size(${WG})
fn inv_unit_lower_f32(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let jc = lid / (4u * S);
  let rem = lid % (4u * S);
  let m = linear_workgroup_id(wid, nwg) * S + rem / 4u;
  if (m >= p.count) { return; }
  let cv = jc * 4u + rem % 4u;
  let c4 = i32(cv * 4u);
  let lb = m * NN4;

  for (var I = 0u; I < NB; I++) {
    let xb = (m * C + I * 16u) * Q + cv;
    if (I < jc) {
${ZERO}
      continue;
    }
${INIT}
    for (var J = jc; J < I; J++) {
      let xr = (m * C + J * 16u) * Q + cv;
${UPDATE}
    }
${TRIANGLE}
${STORE}
  }
}
