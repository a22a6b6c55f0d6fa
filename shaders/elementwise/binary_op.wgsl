// The op of binary.wgsl for one OP_* define: `fn op` (specialised kernels), or renamed
// op_<name> once per op of a group (src/backend/gpu/elementwise.ts, op chosen by a uniform).
fn op(a: ${T}, b: ${T}) -> ${R} {
#if OP_ADD
#if IS_BOOL
  return a | b;
#else
  return a + b;
#endif
#elif OP_SUB
  return a - b;
#elif OP_MUL
#if IS_COMPLEX
  return c_mul(a, b);
#elif IS_BOOL
  return a & b;
#else
  return a * b;
#endif
#elif OP_DIV
#if IS_COMPLEX
  return c_div(a, b);
#elif IS_FLOAT
  return div_f(a, b);
#elif IS_INT
  return idiv(a, b);
#else
  return select(a / b, 0u, b == 0u);
#endif
#elif OP_POW
#if IS_COMPLEX
  return c_pow(a, b);
#elif IS_FLOAT
  return pow_f(a, b);
#elif IS_INT
  return ipow(a, b);
#else
  return upow(a, b);
#endif
#elif OP_MINIMUM
#if IS_FLOAT
  return f_min(a, b);
#elif IS_BOOL
  return a & b;
#else
  return min(a, b);
#endif
#elif OP_MAXIMUM
#if IS_FLOAT
  return f_max(a, b);
#elif IS_BOOL
  return a | b;
#else
  return max(a, b);
#endif
#elif OP_EQ
#if IS_COMPLEX
  return select(0u, 1u, f_eq(a.x, b.x) && f_eq(a.y, b.y));
#elif IS_FLOAT
  return select(0u, 1u, f_eq(a, b));
#else
  return select(0u, 1u, a == b);
#endif
#elif OP_NE
#if IS_COMPLEX
  return select(1u, 0u, f_eq(a.x, b.x) && f_eq(a.y, b.y));
#elif IS_FLOAT
  return select(1u, 0u, f_eq(a, b));
#else
  return select(0u, 1u, a != b);
#endif
#elif OP_LT
#if IS_FLOAT
  return select(0u, 1u, f_lt(a, b));
#else
  return select(0u, 1u, a < b);
#endif
#elif OP_LE
#if IS_FLOAT
  return select(0u, 1u, f_le(a, b));
#else
  return select(0u, 1u, a <= b);
#endif
#elif OP_GT
#if IS_FLOAT
  return select(0u, 1u, f_lt(b, a));
#else
  return select(0u, 1u, a > b);
#endif
#elif OP_GE
#if IS_FLOAT
  return select(0u, 1u, f_le(b, a));
#else
  return select(0u, 1u, a >= b);
#endif
#elif OP_LOGICALAND
  return select(0u, 1u, truth(a) && truth(b));
#elif OP_LOGICALOR
  return select(0u, 1u, truth(a) || truth(b));
#endif
}
