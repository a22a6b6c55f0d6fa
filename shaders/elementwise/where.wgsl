// out = cond ? a : b over a 3-operand broadcast layout; cond is bool (one u32 per
// element), a and b of one dtype (T = R). A plain select: NaN and −0 pass bit for bit.
fn op(c: u32, a: ${T}, b: ${T}) -> ${T} {
  return select(b, a, c != 0u);
}

#if VEC
fn apply4(q: u32) {
  let c = ld4_c(q);
  let x = ld4_a(q);
  let y = ld4_b(q);
  var r: array<${T}, 4>;
  for (var j = 0u; j < 4u; j++) { r[j] = op(c[j], x[j], y[j]); }
  st4_out(q, r);
}
#else
fn apply1(i: u32) {
  let o = offsets(i);
  st_out(i, op(ld_c(o[0]), ld_a(o[1]), ld_b(o[2])));
}
#endif

#include "elementwise/driver.wgsl"
