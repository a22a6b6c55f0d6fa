// out = x converted to another dtype (src/backend/ops.ts `cast`): real → complex sets
// im = 0; float → integer truncates toward zero, NaN → 0, saturating at the range ends;
// int32 ↔ uint32 wrap (the bits); → bool is x ≠ 0 on the bits (NaN and subnormals are
// true, ±0 false); bool → 0/1. Source T, destination R; SRC_*/DST_* name the dtypes.
// Same-dtype casts are the plain copy kernel.
#include "elementwise/math.wgsl"

fn op(x: ${T}) -> ${R} {
#if DST_BOOL
#if SRC_COMPLEX
  return select(0u, 1u, !is_zero(x.x) || !is_zero(x.y));
#elif SRC_FLOAT
  return select(0u, 1u, !is_zero(x));
#else
  return select(0u, 1u, x != ${ZERO});
#endif
#elif DST_SAME
  return x;
#elif DST_COMPLEX
#if SRC_FLOAT
  return vec2f(x, 0.0);
#else
  return vec2f(f32(x), 0.0);
#endif
#elif DST_FLOAT
  return f32(x);
#elif DST_INT
#if SRC_FLOAT
  if (is_nan(x)) { return 0; }
  if (x >= 2147483648.0) { return 2147483647; }
  if (x <= -2147483648.0) { return i32(-2147483647) - 1; }
  return i32(x);
#else
  return bitcast<i32>(x);
#endif
#elif DST_UINT
#if SRC_FLOAT
  if (is_nan(x) || x <= 0.0) { return 0u; }
  if (x >= 4294967296.0) { return 4294967295u; }
  return u32(x);
#elif SRC_INT
  return bitcast<u32>(x);
#else
  return x;
#endif
#endif
}

#include "elementwise/map.wgsl"
