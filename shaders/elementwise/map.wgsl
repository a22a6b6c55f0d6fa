// out[i] = op(x[i]) through the driver, for the one-input kernels (cast, unary): vec4 or scalar.
#if VEC
fn apply4(q: u32) {
  let v = ld4_x(q);
  var r: array<${R}, 4>;
  for (var j = 0u; j < 4u; j++) { r[j] = op(v[j]); }
  st4_out(q, r);
}
#else
fn apply1(i: u32) {
  st_out(i, op(ld_x(i)));
}
#endif

#include "elementwise/driver.wgsl"
