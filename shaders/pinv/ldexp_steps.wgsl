// x·2^e for any i32 e: WGSL's ldexp takes exponents in the f32 range only, so steps of at most 100.
fn ldexp_steps(x: f32, e: i32) -> f32 {
  var y = x;
  var r = e;
  while (r > 100) { y = ldexp(y, 100); r -= 100; }
  while (r < -100) { y = ldexp(y, -100); r += 100; }
  return ldexp(y, r);
}
