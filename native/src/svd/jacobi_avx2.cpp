// AVX2+FMA Jacobi kernels (this file alone is compiled with -mavx2 -mfma). The plain
// loops would stay scalar for the reductions: compilers do not reassociate FP sums.
#include <immintrin.h>

#include <limits>

#include "jacobi_kernels.hpp"

namespace lapis::svd_detail {
namespace {

struct D {
  using R = double;
  using V = __m256d;
  static constexpr int W = 4;
  static V load(const R* p) { return _mm256_loadu_pd(p); }
  static void store(R* p, V v) { _mm256_storeu_pd(p, v); }
  static V set1(R x) { return _mm256_set1_pd(x); }
  static V zero() { return _mm256_setzero_pd(); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V fnma(V a, V b, V c) { return _mm256_fnmadd_pd(a, b, c); }  // c − a·b
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V div(V a, V b) { return _mm256_div_pd(a, b); }
  static V sqrt(V a) { return _mm256_sqrt_pd(a); }
  static V vand(V a, V b) { return _mm256_and_pd(a, b); }
  static V vandnot(V a, V b) { return _mm256_andnot_pd(a, b); }  // ~a & b
  static V vor(V a, V b) { return _mm256_or_pd(a, b); }
  static V vxor(V a, V b) { return _mm256_xor_pd(a, b); }
  static V gt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
  static V lt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static V blend(V a, V b, V m) { return _mm256_blendv_pd(a, b, m); }  // m ? b : a
  static unsigned movemask(V m) { return static_cast<unsigned>(_mm256_movemask_pd(m)); }
  static V swap_pairs(V a) { return _mm256_permute_pd(a, 0b0101); }
  // (+x, −x, +x, −x): the sign pattern of the imaginary cross terms.
  static V alt(R x) { return _mm256_setr_pd(x, -x, x, -x); }
  static R hsum(V v) {
    __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
    lo = _mm_add_pd(lo, hi);
    return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
  }
  // Σ even lanes − Σ odd lanes.
  static R hdiff(V v) { return hsum(_mm256_mul_pd(v, _mm256_setr_pd(1, -1, 1, -1))); }
};

struct F {
  using R = float;
  using V = __m256;
  static constexpr int W = 8;
  static V load(const R* p) { return _mm256_loadu_ps(p); }
  static void store(R* p, V v) { _mm256_storeu_ps(p, v); }
  static V set1(R x) { return _mm256_set1_ps(x); }
  static V zero() { return _mm256_setzero_ps(); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V fnma(V a, V b, V c) { return _mm256_fnmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V sqrt(V a) { return _mm256_sqrt_ps(a); }
  static V vand(V a, V b) { return _mm256_and_ps(a, b); }
  static V vandnot(V a, V b) { return _mm256_andnot_ps(a, b); }
  static V vor(V a, V b) { return _mm256_or_ps(a, b); }
  static V vxor(V a, V b) { return _mm256_xor_ps(a, b); }
  static V gt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  static V lt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static V blend(V a, V b, V m) { return _mm256_blendv_ps(a, b, m); }
  static unsigned movemask(V m) { return static_cast<unsigned>(_mm256_movemask_ps(m)); }
  static V swap_pairs(V a) { return _mm256_permute_ps(a, 0b10110001); }
  static V alt(R x) { return _mm256_setr_ps(x, -x, x, -x, x, -x, x, -x); }
  static R hsum(V v) {
    __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
    lo = _mm_add_ps(lo, hi);
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    return _mm_cvtss_f32(lo);
  }
  static R hdiff(V v) { return hsum(_mm256_mul_ps(v, _mm256_setr_ps(1, -1, 1, -1, 1, -1, 1, -1))); }
};

template <class S>
typename S::R dot(const typename S::R* a, const typename S::R* b, index len) {
  using V = typename S::V;
  constexpr int W = S::W;
  // Four independent chains: one FMA chain is latency bound (4 cycles each).
  V s0 = S::zero(), s1 = S::zero(), s2 = S::zero(), s3 = S::zero();
  index i = 0;
  for (; i + 4 * W <= len; i += 4 * W) {
    s0 = S::fma(S::load(a + i), S::load(b + i), s0);
    s1 = S::fma(S::load(a + i + W), S::load(b + i + W), s1);
    s2 = S::fma(S::load(a + i + 2 * W), S::load(b + i + 2 * W), s2);
    s3 = S::fma(S::load(a + i + 3 * W), S::load(b + i + 3 * W), s3);
  }
  for (; i + W <= len; i += W) s0 = S::fma(S::load(a + i), S::load(b + i), s0);
  typename S::R s = S::hsum(S::add(S::add(s0, s1), S::add(s2, s3)));
  for (; i < len; ++i) s += a[i] * b[i];
  return s;
}

template <class S>
void dotc(const typename S::R* a, const typename S::R* b, index n, typename S::R* re, typename S::R* im) {
  using V = typename S::V;
  using R = typename S::R;
  constexpr int W = S::W;
  const index len = 2 * n;
  V r = S::zero(), c = S::zero(), r1 = S::zero(), c1 = S::zero();
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    V x = S::load(a + i), y = S::load(b + i);
    V x1 = S::load(a + i + W), y1 = S::load(b + i + W);
    r = S::fma(x, y, r);                 // ar·br, ai·bi
    c = S::fma(x, S::swap_pairs(y), c);  // ar·bi, ai·br
    r1 = S::fma(x1, y1, r1);
    c1 = S::fma(x1, S::swap_pairs(y1), c1);
  }
  for (; i + W <= len; i += W) {
    V x = S::load(a + i), y = S::load(b + i);
    r = S::fma(x, y, r);
    c = S::fma(x, S::swap_pairs(y), c);
  }
  R sr = S::hsum(S::add(r, r1)), si = S::hdiff(S::add(c, c1));
  for (; i < len; i += 2) {
    sr += a[i] * b[i] + a[i + 1] * b[i + 1];
    si += a[i] * b[i + 1] - a[i + 1] * b[i];
  }
  *re = sr;
  *im = si;
}

template <class S>
void rot(typename S::R* x, typename S::R* y, index len, typename S::R c, typename S::R s) {
  using V = typename S::V;
  constexpr int W = S::W;
  const V vc = S::set1(c), vs = S::set1(s);
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = S::load(x + i), b = S::load(y + i);
    S::store(x + i, S::fnma(vs, b, S::mul(vc, a)));
    S::store(y + i, S::fma(vs, a, S::mul(vc, b)));
  }
  for (; i < len; ++i) {
    auto a = x[i], b = y[i];
    x[i] = c * a - s * b;
    y[i] = s * a + c * b;
  }
}

template <class S>
void rotc(typename S::R* x, typename S::R* y, index n, typename S::R c, typename S::R zr, typename S::R zi) {
  using V = typename S::V;
  constexpr int W = S::W;
  const index len = 2 * n;
  const V vc = S::set1(c), vzr = S::set1(zr);
  const V zi_pm = S::alt(zi);   // conj(z)·y = zr·y + (zi, −zi)·swap(y)
  const V zi_mp = S::alt(-zi);  // z·x = zr·x + (−zi, zi)·swap(x)
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = S::load(x + i), b = S::load(y + i);
    V zby = S::fma(zi_pm, S::swap_pairs(b), S::mul(vzr, b));
    V zax = S::fma(zi_mp, S::swap_pairs(a), S::mul(vzr, a));
    S::store(x + i, S::fnma(S::set1(1), zby, S::mul(vc, a)));
    S::store(y + i, S::fma(vc, b, zax));
  }
  for (; i < len; i += 2) {
    auto xr = x[i], xi = x[i + 1], yr = y[i], yi = y[i + 1];
    x[i] = c * xr - (zr * yr + zi * yi);
    x[i + 1] = c * xi - (zr * yi - zi * yr);
    y[i] = (zr * xr - zi * xi) + c * yr;
    y[i + 1] = (zr * xi + zi * xr) + c * yi;
  }
}

template <class S>
typename S::R rot_dot(typename S::R* x, typename S::R* y, const typename S::R* w, index len, typename S::R c,
                      typename S::R s) {
  using V = typename S::V;
  constexpr int W = S::W;
  const V vc = S::set1(c), vs = S::set1(s);
  V a0 = S::zero(), a1 = S::zero();
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    V a = S::load(x + i), b = S::load(y + i), a2 = S::load(x + i + W), b2 = S::load(y + i + W);
    V xn = S::fnma(vs, b, S::mul(vc, a)), xn2 = S::fnma(vs, b2, S::mul(vc, a2));
    S::store(x + i, xn);
    S::store(x + i + W, xn2);
    S::store(y + i, S::fma(vs, a, S::mul(vc, b)));
    S::store(y + i + W, S::fma(vs, a2, S::mul(vc, b2)));
    a0 = S::fma(xn, S::load(w + i), a0);
    a1 = S::fma(xn2, S::load(w + i + W), a1);
  }
  for (; i + W <= len; i += W) {
    V a = S::load(x + i), b = S::load(y + i);
    V xn = S::fnma(vs, b, S::mul(vc, a));
    S::store(x + i, xn);
    S::store(y + i, S::fma(vs, a, S::mul(vc, b)));
    a0 = S::fma(xn, S::load(w + i), a0);
  }
  typename S::R acc = S::hsum(S::add(a0, a1));
  for (; i < len; ++i) {
    auto a = x[i], b = y[i];
    x[i] = c * a - s * b;
    y[i] = s * a + c * b;
    acc += x[i] * w[i];
  }
  return acc;
}

template <class S>
void rotc_dotc(typename S::R* x, typename S::R* y, const typename S::R* w, index n, typename S::R c,
               typename S::R zr, typename S::R zi, typename S::R* re, typename S::R* im) {
  using V = typename S::V;
  constexpr int W = S::W;
  const index len = 2 * n;
  const V vc = S::set1(c), vzr = S::set1(zr), zi_pm = S::alt(zi), zi_mp = S::alt(-zi);
  V r = S::zero(), cc = S::zero();
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = S::load(x + i), b = S::load(y + i);
    V zby = S::fma(zi_pm, S::swap_pairs(b), S::mul(vzr, b));
    V zax = S::fma(zi_mp, S::swap_pairs(a), S::mul(vzr, a));
    V xn = S::fnma(S::set1(1), zby, S::mul(vc, a));
    S::store(x + i, xn);
    S::store(y + i, S::fma(vc, b, zax));
    V wv = S::load(w + i);
    r = S::fma(xn, wv, r);
    cc = S::fma(xn, S::swap_pairs(wv), cc);
  }
  typename S::R sr = S::hsum(r), si = S::hdiff(cc);
  for (; i < len; i += 2) {
    auto xr = x[i], xi = x[i + 1], yr = y[i], yi = y[i + 1];
    x[i] = c * xr - (zr * yr + zi * yi);
    x[i + 1] = c * xi - (zr * yi - zi * yr);
    y[i] = (zr * xr - zi * xi) + c * yr;
    y[i + 1] = (zr * xi + zi * xr) + c * yi;
    sr += x[i] * w[i] + x[i + 1] * w[i + 1];
    si += x[i] * w[i + 1] - x[i + 1] * w[i];
  }
  *re = sr;
  *im = si;
}

// S::W lanes of `angles` (jacobi_kernels.hpp): jacobi_pair_sq's formulas, both branches
// of |ζ| < 1/eps computed and blended (the masked-out lanes may hold Inf or NaN).
template <class S>
unsigned angles_part(const typename S::R* g, const typename S::R* ap, const typename S::R* bq, typename S::R tol2,
                     typename S::R* c, typename S::R* z, typename S::R* a2, typename S::R* b2) {
  using V = typename S::V;
  using R = typename S::R;
  const V G = S::load(g), A = S::load(ap), B = S::load(bq);
  const unsigned m = S::movemask(S::gt(S::mul(G, G), S::mul(S::mul(S::set1(tol2), A), B)));
  if (!m) return 0;
  const V sign = S::set1(R(-0.0)), one = S::set1(R(1)), half = S::set1(R(0.5));
  const V ag = S::vandnot(sign, G);
  const V zeta = S::mul(S::sub(B, A), S::div(half, ag));
  const V az = S::vandnot(sign, zeta);
  const V w = S::sqrt(S::add(one, S::mul(az, az)));
  const V small = S::lt(az, S::set1(R(1) / std::numeric_limits<R>::epsilon()));
  const V ta = S::blend(S::div(half, az), S::div(one, S::add(az, w)), small);
  const V cc = S::blend(one, S::sqrt(S::add(half, S::mul(half, S::div(az, w)))), small);
  const V t = S::vor(ta, S::vand(sign, zeta));  // copysign(ta, ζ), ta ≥ 0
  const V s = S::mul(cc, t);
  const V tg = S::mul(t, ag);
  S::store(c, cc);
  S::store(z, S::vxor(s, S::vand(sign, G)));  // g > 0 ? s : −s (g ≠ 0 where it rotates)
  S::store(a2, S::sub(A, tg));
  S::store(b2, S::add(B, tg));
  return m;
}

template <class S>
unsigned angles(const typename S::R* g, const typename S::R* ap, const typename S::R* bq, typename S::R tol2,
                typename S::R* c, typename S::R* z, typename S::R* a2, typename S::R* b2) {
  unsigned m = 0;
  for (int h = 0; h < kWave; h += S::W) m |= angles_part<S>(g + h, ap + h, bq + h, tol2, c + h, z + h, a2 + h, b2 + h) << h;
  return m;
}

}  // namespace

template <> JacobiKernels<double> avx2_jacobi<double>() {
  return {&dot<D>, &dotc<D>, &rot<D>, &rotc<D>, &rot_dot<D>, &rotc_dotc<D>, &angles<D>};
}
template <> JacobiKernels<float> avx2_jacobi<float>() {
  return {&dot<F>, &dotc<F>, &rot<F>, &rotc<F>, &rot_dot<F>, &rotc_dotc<F>, &angles<F>};
}

}  // namespace lapis::svd_detail
