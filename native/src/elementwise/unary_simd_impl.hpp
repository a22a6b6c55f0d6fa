// exp, expm1, log, log1p, sin, cos, sigmoid and tanh over contiguous real spans, written once over the packet Pk<R>; included
// inside each ISA's namespace (unary_avx2.cpp, unary_avx512.cpp), which also defines
// round_nearest(v), scale2(p, n) = p·2^n (n integral, the result rounded once, subnormals
// included) and decompose(x, m, e): x = m·2^e, m in [1, 2), for x > 0 finite (subnormal
// included; other lanes are overwritten by the caller).
//
// exp(x) = 2^n·e^r with n = round(x·log2 e) and r = x − n·ln 2 (Cody–Waite: ln 2 split in a
// high part whose products with n are exact and a low part), |r| ≤ ln2/2, and e^r by its
// Taylor polynomial (degree 7 for float, 13 for double: the first omitted term is below
// 0.1 ulp), evaluated by Horner's rule in FMAs. Arguments are clamped to where the result
// is already 0 or ∞, and NaN passes through.

template <class R> struct ExpConst;
template <> struct ExpConst<float> {
  static constexpr float lo = -104.0f, hi = 89.0f;  // e^lo rounds to 0, e^hi overflows
  static constexpr float log2e = 1.44269504088896341f;
  static constexpr float ln2_hi = 0.693359375f, ln2_lo = -2.12194440054690583e-4f;
  static constexpr int degree = 7;
};
template <> struct ExpConst<double> {
  static constexpr double lo = -746.0, hi = 710.0;
  static constexpr double log2e = 1.4426950408889634074;
  static constexpr double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  static constexpr int degree = 13;
};

// 1/k! rounded to R (k! is exact in double up to 22!).
template <class R>
constexpr R inv_factorial(int k) {
  double f = 1;
  for (int i = 2; i <= k; ++i) f *= i;
  return static_cast<R>(1.0 / f);
}

// Σ_{k=First..Last} r^(k−First)/k! by Horner's rule.
template <class R, int First, int K>
LAPIS_SIMD_INLINE typename Pk<R>::V taylor_down(typename Pk<R>::V r, typename Pk<R>::V p) {
  using P = Pk<R>;
  if constexpr (K < First) return p;
  else return taylor_down<R, First, K - 1>(r, P::fma(p, r, P::set1(inv_factorial<R>(K))));
}
template <class R, int First, int Last>
LAPIS_SIMD_INLINE typename Pk<R>::V taylor_exp_from(typename Pk<R>::V r) {
  return taylor_down<R, First, Last - 1>(r, Pk<R>::set1(inv_factorial<R>(Last)));
}

// x = n·ln 2 + r: n = round(x·log2 e), r by two FMAs with ln 2 split high/low (Cody–Waite).
template <class R>
LAPIS_SIMD_INLINE void reduce_ln2(typename Pk<R>::V x, typename Pk<R>::V& n, typename Pk<R>::V& r) {
  using P = Pk<R>;
  using C = ExpConst<R>;
  n = round_nearest(P::mul(x, P::set1(C::log2e)));
  r = P::fnma(n, P::set1(C::ln2_hi), x);
  r = P::fnma(n, P::set1(C::ln2_lo), r);
}

template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V exp_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using C = ExpConst<R>;
  using V = typename P::V;
  V xc = P::max(P::set1(C::lo), x);  // NaN stays NaN (max takes its second operand)
  xc = P::blend(xc, P::set1(C::hi), P::gt(xc, P::set1(C::hi)));
  V n, r;
  reduce_ln2<R>(xc, n, r);
  const V p = taylor_exp_from<R, 0, C::degree>(r);
  return P::blend(scale2(p, n), x, P::ne(x, x));
}

// 1/(1 + e^−x) for x ≥ 0, e^x/(1 + e^x) below: e^−|x| never overflows (as sigmoid_real).
template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V sigmoid_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using V = typename P::V;
  const V e = exp_v<R>(P::neg(P::abs(x)));
  const V one = P::set1(R(1)), d = P::add(one, e);
  return P::blend(P::div(one, d), P::div(e, d), P::lt(x, P::zero()));
}

// expm1(r) = r + r²·(1/2! + r/3! + …) for |r| ≤ ln2/2: no 1 added and taken away again.
template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V expm1_reduced(typename Pk<R>::V r) {
  using P = Pk<R>;
  return P::fma(P::mul(r, r), taylor_exp_from<R, 2, ExpConst<R>::degree>(r), r);
}

// e^y − 1 for 0 ≤ y < 1.25 (n = round(y·log2 e) ∈ {0, 1, 2}): 2^n·expm1(r) + (2^n − 1).
template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V expm1_small(typename Pk<R>::V y) {
  using P = Pk<R>;
  using V = typename P::V;
  V n, r;
  reduce_ln2<R>(y, n, r);
  const V em = expm1_reduced<R>(r);
  const V p2 = scale2(P::set1(R(1)), n);
  return P::fma(p2, em, P::sub(p2, P::set1(R(1))));
}

template <class R> constexpr unsigned kAllLanes = (1u << Pk<R>::L) - 1u;

// tanh(|x|) = e/(e + 2), e = expm1(2|x|), below 0.625 (no cancellation); above it
// (1 − e)/(1 + e), e = e^−2|x| (at most e/(1 − e) ≤ 0.4 of an ulp lost); the sign of x
// (−0 included) put back, NaN passed through.
template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V tanh_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using V = typename P::V;
  const V a = P::abs(x), one = P::set1(R(1));
  const auto large = P::gt(a, P::set1(R(0.625)));
  V t = P::zero();
  if (P::mask_bits(large) != kAllLanes<R>) {  // some lane small (or NaN)
    const V small = P::blend(a, P::zero(), large);  // keeps expm1_small in its range
    const V em = expm1_small<R>(P::add(small, small));
    t = P::div(em, P::add(em, P::set1(R(2))));
  }
  if (P::any(large)) {
    const V e = exp_v<R>(P::mul(P::set1(R(-2)), a));
    t = P::blend(t, P::div(P::sub(one, e), P::add(one, e)), large);
  }
  t = P::or_(t, P::and_(x, P::set1(R(-0.0))));
  return P::blend(t, x, P::ne(x, x));
}

// log(x) = e·ln 2 + log(m), x = 2^e·m with m in [√½, √2) (decompose(x, m, e) gives m in
// [1, 2), subnormal x included), f = m − 1 and s = f/(2 + f): log(1 + f) = 2·atanh(s) =
// f − f²/2 + s·(f²/2 + R), R = Σ 2s^(2k)/(2k + 1) (fdlibm's arrangement: f, exact, carries
// the value; the series adds less than a third of it), with terms to s^10 (float) or s^20
// (double), past which they fall under 0.1 ulp for |s| ≤ 0.1716. ±0 → −∞, x < 0 → NaN,
// +∞ and NaN pass through.
template <class R> constexpr int kLogTerms = std::is_same_v<R, float> ? 5 : 10;

template <class R, int K>
LAPIS_SIMD_INLINE typename Pk<R>::V log_series(typename Pk<R>::V z, typename Pk<R>::V p) {
  using P = Pk<R>;
  if constexpr (K < 1) return P::mul(p, z);
  else return log_series<R, K - 1>(z, P::fma(p, z, P::set1(R(2.0 / (2 * K + 1)))));
}

template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V log_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using C = ExpConst<R>;
  using V = typename P::V;
  V m, e;
  decompose(x, m, e);
  const auto big = P::gt(m, P::set1(R(1.41421356237309504880)));
  m = P::blend(m, P::mul(m, P::set1(R(0.5))), big);
  e = P::blend(e, P::add(e, P::set1(R(1))), big);
  const V f = P::sub(m, P::set1(R(1)));
  const V s = P::div(f, P::add(f, P::set1(R(2))));
  const V z = P::mul(s, s);
  // Σ_{k=1..K} 2z^k/(2k + 1) by Horner's rule from the last term.
  const V Rz = log_series<R, kLogTerms<R> - 1>(z, P::set1(R(2.0 / (2 * kLogTerms<R> + 1))));
  const V hfsq = P::mul(P::set1(R(0.5)), P::mul(f, f));
  const V t = P::fma(s, P::add(hfsq, Rz), P::mul(e, P::set1(C::ln2_lo)));
  V y = P::fma(e, P::set1(C::ln2_hi), P::sub(f, P::sub(hfsq, t)));
  y = P::blend(y, P::set1(-std::numeric_limits<R>::infinity()), P::eq(x, P::zero()));
  y = P::blend(y, P::set1(std::numeric_limits<R>::quiet_NaN()), P::lt(x, P::zero()));
  return P::blend(y, x, P::mor(P::ne(x, x), P::eq(x, P::set1(std::numeric_limits<R>::infinity()))));
}

// e^x − 1 over the whole range: 2^n·expm1(r) + (2^n − 1) as in expm1_small while 2^n − 1 is
// exact (n up to 24 / 53; tending to −1 below); ±0 kept, NaN passed through (arguments
// clamped as in exp_v).
template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V expm1_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using C = ExpConst<R>;
  using V = typename P::V;
  V xc = P::max(P::set1(C::lo), x);
  xc = P::blend(xc, P::set1(C::hi), P::gt(xc, P::set1(C::hi)));
  V n, r;
  reduce_ln2<R>(xc, n, r);
  const V em = expm1_reduced<R>(r);
  // Past the significand's width 2^n − 1 is no longer exact (and 2^n may overflow where the
  // answer does not): there (1 + em)·2^n − 1, whose −1 is under half an ulp.
  const V one = P::set1(R(1));
  const auto big = P::gt(n, P::set1(R(std::numeric_limits<R>::digits)));
  const V p2 = scale2(one, P::blend(n, P::zero(), big));
  V y = P::fma(p2, em, P::sub(p2, one));
  y = P::blend(y, P::sub(scale2(P::add(one, em), n), one), big);
  return P::blend(y, x, P::mor(P::ne(x, x), P::eq(x, P::zero())));
}

// log(1 + x) = log(u) + (x − (u − 1))/u with u = 1 + x rounded (the quotient restores what
// the rounding of u lost; for |x| under half an ulp of 1 it is all of the answer): −1 → −∞,
// below −1 NaN, ±0 and +∞ and NaN passed through.
template <class R>
LAPIS_SIMD_INLINE typename Pk<R>::V log1p_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using V = typename P::V;
  const V one = P::set1(R(1));
  const V u = P::add(one, x);
  const V c = P::sub(x, P::sub(u, one));
  V y = P::add(log_v<R>(u), P::div(c, u));
  y = P::blend(y, P::set1(-std::numeric_limits<R>::infinity()), P::eq(u, P::zero()));
  return P::blend(y, x, P::mor(P::mor(P::ne(x, x), P::eq(x, P::zero())), P::eq(x, P::set1(std::numeric_limits<R>::infinity()))));
}

// sin and cos: k = round(x·2/π), r = x − k·π/2 by three FMAs with π/2 split in three parts
// (the first product is exact, so r carries about 3·24 / 3·53 bits of π/2), then the Taylor
// polynomials of sin and cos on |r| ≤ π/4 (+ a rounding of k), their first omitted terms
// under 0.1 ulp, and the quadrant k mod 4 picking ±sin r or ±cos r. Beyond |x| = 71476
// (float, numpy's bound for the same reduction) or 1e5 (double) the lanes go to libm;
// ±∞ give NaN there too.
template <class R> struct TrigConst;
template <> struct TrigConst<float> {
  static constexpr float two_over_pi = 0.6366197466850281f;
  static constexpr float p1 = 1.5707963705062866f, p2 = -4.371138828673793e-08f, p3 = -1.7151245100058819e-15f;
  static constexpr float limit = 71476.0f;
  static constexpr int sin_terms = 5, cos_terms = 5;  // r^3 … r^11, r^2 … r^10
};
template <> struct TrigConst<double> {
  static constexpr double two_over_pi = 0.6366197723675814;
  static constexpr double p1 = 1.5707963267948966, p2 = 6.123233995736766e-17, p3 = -1.4973849048591698e-33;
  static constexpr double limit = 1e5;
  static constexpr int sin_terms = 8, cos_terms = 8;  // r^3 … r^17, r^2 … r^16
};

// (−1)^j/(2j + Odd)! for the j-th term of sin (Odd 1) or cos (Odd 0).
template <class R>
constexpr R trig_coef(int j, int odd) {
  double f = 1;
  for (int i = 2; i <= 2 * j + odd; ++i) f *= i;
  return static_cast<R>((j % 2 ? -1.0 : 1.0) / f);
}

// Σ_{j=1..K} c_j z^(j−1) by Horner's rule.
template <class R, int Odd, int J, int K>
LAPIS_SIMD_INLINE typename Pk<R>::V trig_series(typename Pk<R>::V z, typename Pk<R>::V p) {
  using P = Pk<R>;
  if constexpr (J < 1) return p;
  else return trig_series<R, Odd, J - 1, K>(z, P::fma(p, z, P::set1(trig_coef<R>(J, Odd))));
}

template <class R, bool Cos>
LAPIS_SIMD_INLINE typename Pk<R>::V sincos_v(typename Pk<R>::V x) {
  using P = Pk<R>;
  using C = TrigConst<R>;
  using V = typename P::V;
  const V k = round_nearest(P::mul(x, P::set1(C::two_over_pi)));
  V r = P::fnma(k, P::set1(C::p1), x);
  r = P::fnma(k, P::set1(C::p2), r);
  r = P::fnma(k, P::set1(C::p3), r);
  const V z = P::mul(r, r);
  const V sn = P::fma(P::mul(z, r), trig_series<R, 1, C::sin_terms - 1, C::sin_terms>(z, P::set1(trig_coef<R>(C::sin_terms, 1))), r);
  const V cs = P::fma(z, trig_series<R, 0, C::cos_terms - 1, C::cos_terms>(z, P::set1(trig_coef<R>(C::cos_terms, 0))), P::set1(R(1)));
  // q = k mod 4 in {−2, …, 2}: odd quadrants swap sin and cos; the sign from q.
  const V q = P::fnma(P::set1(R(4)), round_nearest(P::mul(k, P::set1(R(0.25)))), k);
  const V aq = P::abs(q), one = P::set1(R(1)), two = P::set1(R(2)), mone = P::set1(R(-1));
  const auto odd = P::eq(aq, one);
  V y;
  if constexpr (Cos) {
    y = P::blend(cs, sn, odd);
    y = P::blend(y, P::neg(y), P::mor(P::eq(q, one), P::eq(aq, two)));
  } else {
    y = P::blend(sn, cs, odd);
    y = P::blend(y, P::neg(y), P::mor(P::eq(q, mone), P::eq(aq, two)));
    y = P::blend(y, x, P::eq(x, P::zero()));  // sin(±0) = ±0
  }
  const auto far = P::gt(P::abs(x), P::set1(C::limit));
  if (P::any(far)) {
    alignas(64) R xs[P::L], ys[P::L];
    P::store(xs, x);
    P::store(ys, y);
    const unsigned bits = P::mask_bits(far);
    for (int l = 0; l < P::L; ++l)
      if (bits >> l & 1u) ys[l] = Cos ? std::cos(xs[l]) : std::sin(xs[l]);
    y = P::load(ys);
  }
  return y;
}

enum class SimdOp { exp, sigmoid, tanh, log, expm1, log1p, sin, cos };

template <class R, SimdOp Op>
LAPIS_SIMD_INLINE typename Pk<R>::V op_v(typename Pk<R>::V v) {
  if constexpr (Op == SimdOp::sigmoid) return sigmoid_v<R>(v);
  else if constexpr (Op == SimdOp::tanh) return tanh_v<R>(v);
  else if constexpr (Op == SimdOp::log) return log_v<R>(v);
  else if constexpr (Op == SimdOp::expm1) return expm1_v<R>(v);
  else if constexpr (Op == SimdOp::log1p) return log1p_v<R>(v);
  else if constexpr (Op == SimdOp::sin) return sincos_v<R, false>(v);
  else if constexpr (Op == SimdOp::cos) return sincos_v<R, true>(v);
  else return exp_v<R>(v);
}

// One span of the op: two vectors a step, the ragged end masked.
template <class R, SimdOp Op>
void span(const R* x, R* o, index n) {
  using P = Pk<R>;
  constexpr int L = P::L;
  index i = 0;
  for (; i + 2 * L <= n; i += 2 * L) {
    const auto a = op_v<R, Op>(P::load(x + i)), b = op_v<R, Op>(P::load(x + i + L));
    P::store(o + i, a);
    P::store(o + i + L, b);
  }
  for (; i + L <= n; i += L) P::store(o + i, op_v<R, Op>(P::load(x + i)));
  if (i < n) {
    const auto t = P::tail(static_cast<int>(n - i));
    P::storet(o + i, t, op_v<R, Op>(P::loadt(x + i, t)));
  }
}

template <class R>
UnarySimd<R> make() {
  UnarySimd<R> s;
  s.exp = &span<R, SimdOp::exp>;
  s.sigmoid = &span<R, SimdOp::sigmoid>;
  s.tanh = &span<R, SimdOp::tanh>;
  s.log = &span<R, SimdOp::log>;
  s.expm1 = &span<R, SimdOp::expm1>;
  s.log1p = &span<R, SimdOp::log1p>;
  s.sin = &span<R, SimdOp::sin>;
  s.cos = &span<R, SimdOp::cos>;
  return s;
}
