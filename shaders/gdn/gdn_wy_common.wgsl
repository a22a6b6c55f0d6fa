// Loads of Gated DeltaNet inputs by element index (b·sB + t·sT + h·sH + d, plan strides):
// float32 words, or float16 halves packed two to a u32 word (element 2i in the low bits),
// widened with WGSL's core unpack2x16float (no shader-f16 feature needed).
// NAME is the binding (an array<u32>); each kernel instantiates the loaders it needs.
fn is_finite(x: f32) -> bool {
  // on the bits: WGSL lets compilers assume x == x
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}
