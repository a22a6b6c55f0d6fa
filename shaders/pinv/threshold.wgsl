// The rank threshold of pinv, matrixRank and lstsq (torch's rule, src/backend/cpu/pinv.ts
// rankThreshold) for matrix b scaled by 2^−e: max(atol·2^−e, rtol·σ_max), atol = atol_m·2^atol_e
// given as mantissa and exponent so that atol·2^−e is formed without over- or underflow.
#include "pinv/ldexp_steps.wgsl"

fn rank_threshold(s_max: f32, e: i32) -> f32 {
  var a = 0.0;
  if (p.atol_m != 0.0) { a = ldexp_steps(p.atol_m, p.atol_e - e); }
  return max(a, p.rtol * s_max);
}
