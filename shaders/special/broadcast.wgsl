// Offsets of output element i into two broadcast operands (src/core/broadcast.ts lays
// out the collapsed dims and strides). VARIANT picks the cheap cases at compile time.
// Uniforms (src/backend/gpu/special.ts, BROADCAST_UNIFORMS): total, ndim, and the dims and
// the two operands' strides, eight each as two vec4u (dims0/dims1, sa0/sa1, sb0/sb1).

fn bc_pick(lo: vec4u, hi: vec4u, d: u32) -> u32 {
  if (d < 4u) { return lo[d]; }
  return hi[d - 4u];
}

fn operand_offsets(i: u32) -> vec2u {
#if SAME
  return vec2u(i, i);
#elif SPLAT_B
  return vec2u(i, 0u);
#elif SPLAT_A
  return vec2u(0u, i);
#else
  var rem = i;
  var a = 0u;
  var b = 0u;
  for (var d = i32(p.ndim) - 1; d >= 0; d--) {
    let du = u32(d);
    let n = bc_pick(p.dims0, p.dims1, du);
    let c = rem % n;
    rem = rem / n;
    a += c * bc_pick(p.sa0, p.sa1, du);
    b += c * bc_pick(p.sb0, p.sb1, du);
  }
  return vec2u(a, b);
#endif
}
