// Shared by the Gated DeltaNet WY kernels (src/backend/gpu/gdn_wy.ts). Their input loaders
// (ld_k, ld_beta, …: element index b·sB + t·sT + h·sH + d → f32, from float32 words or from
// float16 halves packed two to a u32 word, element 2i in the low bits, through WGSL's core
// unpack2x16float) are generated per binding and dtype by gdn_wy.ts (the LOADERS define).
fn is_finite(x: f32) -> bool {
  // on the bits: WGSL lets compilers assume x == x
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}
