// The Gated DeltaNet fast path, four right-hand-side columns per thread: (I + L)·X = B for
// a batch of n×n unit lower triangular systems (n = 16, 32, 64; float32; the RHS count a
// multiple of 4). Only the strict lower triangle of A is read (diagonal and upper part may
// hold anything, NaN included).
//
// Thread t solves columns 4·(t mod CV) … +3 of system t / CV (CV = nrhs / 4), holding a
// 16-row block of them as 16 vec4 registers: acc = B_I − Σ_{J<I} L_IJ·X_J, then the unit
// 16×16 triangle in registers, then the block goes out as 16 coalesced vec4 stores. X_J
// is read back from the thread's own part of X (it wrote it one block earlier).
// Why four columns: the column-per-thread kernel (trsm_unit_lower.wgsl) issues one L load
// (a vec4 broadcast to the threads of a system) per four scalar FMAs; here each L load
// feeds four vec4 FMAs and B/X move as 16-byte accesses, so loads and address arithmetic
// (bounds-clamped under Dawn's robustness) are a quarter of the instructions.
//
// Bindings (src/backend/gpu/trsm.ts): A (vec4f), B, amap, bmap → X (B and X arrays of
// vec4f). Uniforms: count (systems), nrhs (a multiple of 4), use_a / use_b (read A / B
// through amap / bmap), cv (vec4 segments per row: nrhs / 4), tasks (count · cv).
#include "common/linear_id.wgsl"

const N: u32 = ${N}u;
const Q: u32 = N / 4u;           // vec4s per row of A
const NN4: u32 = N * N / 4u;
const NB: u32 = N / 16u;         // 16-row blocks

@compute @workgroup_size(${WG})
fn trsm_unit_lower_v4_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                               @builtin(local_invocation_index) lid: u32) {
  let t = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (t >= p.tasks) { return; }
  let CV = p.cv;
  let m = t / CV;
  let cv = t % CV;
  var bm = m;
  if (p.use_b != 0u) { bm = u32(bmap[m]); }
  var am = m;
  if (p.use_a != 0u) { am = u32(amap[m]); }
  let lb = am * NN4;

  for (var I = 0u; I < NB; I++) {
    let bb = (bm * N + I * 16u) * CV + cv;
${LOADB}
    for (var J = 0u; J < I; J++) {
      let xr = (m * N + J * 16u) * CV + cv;
${UPDATE}
    }
${TRIANGLE}
    let xb = (m * N + I * 16u) * CV + cv;
${STORE}
  }
}
