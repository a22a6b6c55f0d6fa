// out = f(x) elementwise, one op and dtype per variant (OP_*, dtype defines; T the input's
// WGSL type, R the result's: f32 for abs/real/imag/angle of complex, u32 for logicalNot).
// Semantics as the CPU's (src/backend/ops.ts `unary`, numpy 2 for NaN/Inf/−0): integer
// neg/abs wrap; float functions from elementwise/math.wgsl; sign(±0) = +0, sign(NaN) = NaN;
// angle of a real is π for a set sign bit (−0 included), NaN for NaN.
#include "elementwise/math.wgsl"

#if !OP_UNIFORM
#include "elementwise/unary_op.wgsl"
#endif

#include "elementwise/map.wgsl"
