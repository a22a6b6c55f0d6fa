// out = a ∘ b elementwise over a broadcast layout, one op and dtype per variant (OP_*,
// dtype defines; T the operands' WGSL type, R the result's). Semantics as the CPU's
// (src/backend/ops.ts `binary`): int32/uint32 wrap; integer division truncates and
// x / 0 = 0; bool add/mul/minimum/maximum are or/and; comparisons and logical ops give
// bool (one u32, 0/1); float comparisons and minimum/maximum work on the bits (NaN-safe).
#include "elementwise/math.wgsl"

fn truth(x: ${T}) -> bool {
#if IS_COMPLEX
  return !is_zero(x.x) || !is_zero(x.y);
#elif IS_FLOAT
  return !is_zero(x);
#else
  return x != ${ZERO};
#endif
}

#if IS_INT
fn idiv(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  if (b == -1) { return bitcast<i32>(0u - bitcast<u32>(a)); }
  return a / b;
}
// integer power: wraps; a negative exponent gives trunc of the true value (1, ±1 or 0)
fn ipow(a: i32, b: i32) -> i32 {
  if (b < 0) {
    if (a == 1) { return 1; }
    if (a == -1) { return select(1, -1, (b & 1) != 0); }
    return 0;
  }
  var acc = 1u;
  var base = bitcast<u32>(a);
  var e = u32(b);
  while (e != 0u) {
    if ((e & 1u) == 1u) { acc *= base; }
    base *= base;
    e = e >> 1u;
  }
  return bitcast<i32>(acc);
}
#endif
#if IS_UINT
fn upow(a: u32, b: u32) -> u32 {
  var acc = 1u;
  var base = a;
  var e = b;
  while (e != 0u) {
    if ((e & 1u) == 1u) { acc *= base; }
    base *= base;
    e = e >> 1u;
  }
  return acc;
}
#endif

#if !OP_UNIFORM
#include "elementwise/binary_op.wgsl"
#endif

#if VEC
fn apply4(q: u32) {
  let x = ld4_a(q);
  let y = ld4_b(q);
  var r: array<${R}, 4>;
  for (var j = 0u; j < 4u; j++) { r[j] = op(x[j], y[j]); }
  st4_out(q, r);
}
#else
fn apply1(i: u32) {
  let o = offsets(i);
  st_out(i, op(ld_a(o[0]), ld_b(o[1])));
}
#endif

#include "elementwise/driver.wgsl"
