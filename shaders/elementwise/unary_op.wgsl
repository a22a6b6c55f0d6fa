// The op of unary.wgsl for one OP_* define: `fn op` (specialised kernels), or renamed
// op_<name> once per op of a group (src/backend/gpu/elementwise.ts, op chosen by a uniform).
fn op(x: ${T}) -> ${R} {
#if OP_NEG
#if IS_COMPLEX
  return vec2f(f_neg(x.x), f_neg(x.y));
#elif IS_FLOAT
  return f_neg(x);
#elif IS_INT
  return bitcast<i32>(0u - bitcast<u32>(x));
#else
  return 0u - x;
#endif
#elif OP_ABS
#if IS_COMPLEX
  return c_abs(x);
#elif IS_FLOAT
  return f_abs(x);
#elif IS_INT
  return select(x, bitcast<i32>(0u - bitcast<u32>(x)), x < 0);
#else
  return x;
#endif
#elif OP_SIGN
#if IS_COMPLEX
  return c_sign(x);
#elif IS_FLOAT
  if (is_nan(x)) { return x; }
  if (is_zero(x)) { return 0.0; }
  return copysign_f(1.0, x);
#elif IS_INT
  return select(select(0, 1, x > 0), -1, x < 0);
#else
  return min(x, 1u);
#endif
#elif OP_SQRT
#if IS_COMPLEX
  return c_sqrt(x);
#else
  return sqrt_f(x);
#endif
#elif OP_EXP
#if IS_COMPLEX
  return c_exp(x);
#else
  return exp_f(x);
#endif
#elif OP_LOG
#if IS_COMPLEX
  return c_log(x);
#else
  return log_f(x);
#endif
#elif OP_LOG1P
#if IS_COMPLEX
  return c_log1p(x);
#else
  return log1p_f(x);
#endif
#elif OP_EXPM1
#if IS_COMPLEX
  return c_expm1(x);
#else
  return expm1_f(x);
#endif
#elif OP_SIN
#if IS_COMPLEX
  return c_sin(x);
#else
  return sincos_f(x).x;
#endif
#elif OP_COS
#if IS_COMPLEX
  return c_cos(x);
#else
  return sincos_f(x).y;
#endif
#elif OP_TANH
#if IS_COMPLEX
  return c_tanh(x);
#else
  return tanh_f(x);
#endif
#elif OP_SIGMOID
#if IS_COMPLEX
  return c_sigmoid(x);
#else
  return sigmoid_f(x);
#endif
#elif OP_CONJ
#if IS_COMPLEX
  return vec2f(x.x, f_neg(x.y));
#else
  return x;
#endif
#elif OP_REAL
#if IS_COMPLEX
  return x.x;
#else
  return x;
#endif
#elif OP_IMAG
#if IS_COMPLEX
  return x.y;
#else
  return ${ZERO};
#endif
#elif OP_ANGLE
#if IS_COMPLEX
  return atan2_f(x.y, x.x);
#else
  if (is_nan(x)) { return x; }
  return select(0.0, 3.14159265358979, sign_bit(x));
#endif
#elif OP_LOGICALNOT
#if IS_COMPLEX
  return select(0u, 1u, is_zero(x.x) && is_zero(x.y));
#elif IS_FLOAT
  return select(0u, 1u, is_zero(x));
#else
  return select(0u, 1u, x == ${ZERO});
#endif
#endif
}
