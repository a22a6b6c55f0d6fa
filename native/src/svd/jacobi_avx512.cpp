// AVX-512F Jacobi kernels for real data, picked when the GEMM runs its AVX-512 family
// (the CPU and OS support it). On a core with full-width 512-bit units (Zen 5, Xeon) the
// rotation of a column pair, bound by loads and stores, takes half the instructions of
// the AVX2 kernel; tails use masked loads and stores instead of a scalar loop. Complex
// data keeps the AVX2 kernels. As in native/src/gemm/kernels_avx512.cpp the build gives
// this file no ISA flags: the target is set per function, and the dispatch only calls
// in after the CPUID check.
#include "jacobi_kernels.hpp"

#if LAPIS_SVD_X86
#include <immintrin.h>

#include <cstdint>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
// GCC 12's AVX-512 intrinsics (sqrt, unpack, shuffle, integer and/or) pass an
// _mm512_undefined_* operand, which -Wall reports as uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace lapis::svd_detail {
namespace {

struct D {
  using R = double;
  using V = __m512d;
  using M = __mmask8;
  static constexpr int W = 8;
  static M mask(index n) { return static_cast<M>((1u << n) - 1u); }
  static V load(const R* p) { return _mm512_loadu_pd(p); }
  static V loadm(const R* p, M m) { return _mm512_maskz_loadu_pd(m, p); }
  static void store(R* p, V v) { _mm512_storeu_pd(p, v); }
  static void storem(R* p, M m, V v) { _mm512_mask_storeu_pd(p, m, v); }
  static V set1(R x) { return _mm512_set1_pd(x); }
  static V zero() { return _mm512_setzero_pd(); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V fnma(V a, V b, V c) { return _mm512_fnmadd_pd(a, b, c); }  // c − a·b
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  // Through memory: GCC 12's lane extracts (and so _mm512_reduce_add_pd) warn about an
  // undefined operand under -Wall.
  static R hsum(V v) {
    alignas(64) R t[W];
    _mm512_store_pd(t, v);
    return ((t[0] + t[4]) + (t[1] + t[5])) + ((t[2] + t[6]) + (t[3] + t[7]));
  }
};

struct F {
  using R = float;
  using V = __m512;
  using M = __mmask16;
  static constexpr int W = 16;
  static M mask(index n) { return static_cast<M>((1u << n) - 1u); }
  static V load(const R* p) { return _mm512_loadu_ps(p); }
  static V loadm(const R* p, M m) { return _mm512_maskz_loadu_ps(m, p); }
  static void store(R* p, V v) { _mm512_storeu_ps(p, v); }
  static void storem(R* p, M m, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V set1(R x) { return _mm512_set1_ps(x); }
  static V zero() { return _mm512_setzero_ps(); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V fnma(V a, V b, V c) { return _mm512_fnmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static R hsum(V v) {
    alignas(64) R t[W];
    _mm512_store_ps(t, v);
    R s = 0;
    for (int i = 0; i < 8; ++i) s += t[i] + t[i + 8];
    return s;
  }
};

template <class S>
typename S::R dot(const typename S::R* a, const typename S::R* b, index len) {
  using V = typename S::V;
  constexpr int W = S::W;
  // Four independent chains: one FMA chain is latency bound.
  V s0 = S::zero(), s1 = S::zero(), s2 = S::zero(), s3 = S::zero();
  index i = 0;
  for (; i + 4 * W <= len; i += 4 * W) {
    s0 = S::fma(S::load(a + i), S::load(b + i), s0);
    s1 = S::fma(S::load(a + i + W), S::load(b + i + W), s1);
    s2 = S::fma(S::load(a + i + 2 * W), S::load(b + i + 2 * W), s2);
    s3 = S::fma(S::load(a + i + 3 * W), S::load(b + i + 3 * W), s3);
  }
  for (; i + W <= len; i += W) s0 = S::fma(S::load(a + i), S::load(b + i), s0);
  if (i < len) {
    const auto m = S::mask(len - i);
    s1 = S::fma(S::loadm(a + i, m), S::loadm(b + i, m), s1);
  }
  return S::hsum(S::add(S::add(s0, s1), S::add(s2, s3)));
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
  if (i < len) {
    const auto m = S::mask(len - i);
    V a = S::loadm(x + i, m), b = S::loadm(y + i, m);
    S::storem(x + i, m, S::fnma(vs, b, S::mul(vc, a)));
    S::storem(y + i, m, S::fma(vs, a, S::mul(vc, b)));
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
  if (i < len) {
    const auto m = S::mask(len - i);
    V a = S::loadm(x + i, m), b = S::loadm(y + i, m);
    V xn = S::fnma(vs, b, S::mul(vc, a));
    S::storem(x + i, m, xn);
    S::storem(y + i, m, S::fma(vs, a, S::mul(vc, b)));
    a1 = S::fma(xn, S::loadm(w + i, m), a1);
  }
  return S::hsum(S::add(a0, a1));
}

// The angles of eight pairs in one register (`angles`, jacobi_kernels.hpp, whose
// formulas these are): the divisions and square roots of eight pairs cost about what one
// pair's chain does in scalar code. Both branches of |ζ| < 1/eps are computed and
// blended (masked-out lanes may hold Inf or NaN); AVX-512F has no and/or/xor for doubles,
// hence the integer casts. m: the lanes that rotate (computed by the caller).
inline void angles_v(__m512d G, __m512d A, __m512d B, double* c, double* z, double* a2, double* b2) {
  const __m512i sign = _mm512_set1_epi64(static_cast<long long>(0x8000000000000000ull));
  const __m512d one = _mm512_set1_pd(1.0), half = _mm512_set1_pd(0.5);
  auto vabs = [&](__m512d v) { return _mm512_castsi512_pd(_mm512_andnot_si512(sign, _mm512_castpd_si512(v))); };
  const __m512d ag = vabs(G);
  const __m512d zeta = _mm512_mul_pd(_mm512_sub_pd(B, A), _mm512_div_pd(half, ag));
  const __m512d az = vabs(zeta);
  const __m512d w = _mm512_sqrt_pd(_mm512_add_pd(one, _mm512_mul_pd(az, az)));
  const __mmask8 small = _mm512_cmp_pd_mask(az, _mm512_set1_pd(1.0 / 2.220446049250313080847e-16), _CMP_LT_OQ);
  const __m512d ta = _mm512_mask_blend_pd(small, _mm512_div_pd(half, az), _mm512_div_pd(one, _mm512_add_pd(az, w)));
  const __m512d cc =
      _mm512_mask_blend_pd(small, one, _mm512_sqrt_pd(_mm512_add_pd(half, _mm512_mul_pd(half, _mm512_div_pd(az, w)))));
  const __m512d t = _mm512_castsi512_pd(
      _mm512_or_si512(_mm512_castpd_si512(ta), _mm512_and_si512(sign, _mm512_castpd_si512(zeta))));
  const __m512d s = _mm512_mul_pd(cc, t);
  const __m512d tg = _mm512_mul_pd(t, ag);
  _mm512_store_pd(c, cc);
  _mm512_store_pd(z, _mm512_castsi512_pd(
                         _mm512_xor_si512(_mm512_castpd_si512(s), _mm512_and_si512(sign, _mm512_castpd_si512(G)))));
  _mm512_storeu_pd(a2, _mm512_sub_pd(A, tg));
  _mm512_storeu_pd(b2, _mm512_add_pd(B, tg));
}

inline __mmask8 rotates(__m512d G, __m512d A, __m512d B, double tol2) {
  return _mm512_cmp_pd_mask(_mm512_mul_pd(G, G), _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(tol2), A), B), _CMP_GT_OQ);
}

unsigned angles_d(const double* g, const double* ap, const double* bq, double tol2, double* c, double* z, double* a2,
                  double* b2) {
  const __m512d G = _mm512_loadu_pd(g), A = _mm512_loadu_pd(ap), B = _mm512_loadu_pd(bq);
  const __mmask8 m = rotates(G, A, B, tol2);
  if (!m) return 0;
  alignas(64) double cv[8], zv[8];
  angles_v(G, A, B, cv, zv, a2, b2);
  for (int l = 0; l < 8; ++l) {
    c[l] = cv[l];
    z[l] = zv[l];
  }
  return m;
}

inline double hsum(__m512d v) { return D::hsum(v); }

// The mask of reversed lanes (bit i → bit 7 − i).
inline __mmask8 rev_mask(__mmask8 m) {
  unsigned r = 0;
  for (int i = 0; i < 8; ++i) r |= (m >> i & 1u) << (7 - i);
  return static_cast<__mmask8>(r);
}

// Σ a_i·b_i as a register (two chains; the caller reduces eight of them at once).
inline __m512d dot_v(const double* a, const double* b, index len) {
  __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
  index i = 0;
  for (; i + 16 <= len; i += 16) {
    s0 = _mm512_fmadd_pd(_mm512_loadu_pd(a + i), _mm512_loadu_pd(b + i), s0);
    s1 = _mm512_fmadd_pd(_mm512_loadu_pd(a + i + 8), _mm512_loadu_pd(b + i + 8), s1);
  }
  if (i + 8 <= len) {
    s0 = _mm512_fmadd_pd(_mm512_loadu_pd(a + i), _mm512_loadu_pd(b + i), s0);
    i += 8;
  }
  if (i < len) {
    const __mmask8 m = static_cast<__mmask8>((1u << (len - i)) - 1u);
    s1 = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, a + i), _mm512_maskz_loadu_pd(m, b + i), s1);
  }
  return _mm512_add_pd(s0, s1);
}

// (Σ v0, …, Σ v7): the horizontal sums of eight registers as one, by a transpose tree.
inline __m512d hsum8(const __m512d* v) {
  const __m512d t0 = _mm512_add_pd(_mm512_unpacklo_pd(v[0], v[1]), _mm512_unpackhi_pd(v[0], v[1]));
  const __m512d t1 = _mm512_add_pd(_mm512_unpacklo_pd(v[2], v[3]), _mm512_unpackhi_pd(v[2], v[3]));
  const __m512d t2 = _mm512_add_pd(_mm512_unpacklo_pd(v[4], v[5]), _mm512_unpackhi_pd(v[4], v[5]));
  const __m512d t3 = _mm512_add_pd(_mm512_unpacklo_pd(v[6], v[7]), _mm512_unpackhi_pd(v[6], v[7]));
  // 128-bit chunk k of t0: (v0, v1) summed over elements 2k, 2k + 1.
  const __m512d u0 = _mm512_add_pd(_mm512_shuffle_f64x2(t0, t1, 0x88), _mm512_shuffle_f64x2(t0, t1, 0xDD));
  const __m512d u1 = _mm512_add_pd(_mm512_shuffle_f64x2(t2, t3, 0x88), _mm512_shuffle_f64x2(t2, t3, 0xDD));
  return _mm512_add_pd(_mm512_shuffle_f64x2(u0, u1, 0x88), _mm512_shuffle_f64x2(u0, u1, 0xDD));
}

unsigned wave_step_d(double* const* x, double* const* y, double* const* v, double* const* w, int nl, index len,
                     index nv, const double* ap, const double* bq, double tol2, double* a2, double* b2) {
  __m512d G[2];
  __mmask8 m[2] = {0, 0};
  for (int h = 0; h < 2; ++h) {
    __m512d acc[8];
    for (int l = 0; l < 8; ++l) {
      const int L = 8 * h + l;
      acc[l] = L < nl ? dot_v(x[L], y[L], len) : _mm512_setzero_pd();
    }
    G[h] = hsum8(acc);
    m[h] = rotates(G[h], _mm512_loadu_pd(ap + 8 * h), _mm512_loadu_pd(bq + 8 * h), tol2);
    if (8 * h + 8 >= nl) break;
  }
  if (!(m[0] | m[1])) return 0;
  alignas(64) double c[16], z[16];
  for (int h = 0; h < 2; ++h)
    if (m[h]) angles_v(G[h], _mm512_loadu_pd(ap + 8 * h), _mm512_loadu_pd(bq + 8 * h), c + 8 * h, z + 8 * h, a2 + 8 * h,
                       b2 + 8 * h);
  const unsigned mask = static_cast<unsigned>(m[0]) | static_cast<unsigned>(m[1]) << 8;
  for (int L = 0; L < nl; ++L) {
    if (!(mask >> L & 1u)) continue;
    rot<D>(x[L], y[L], len, c[L], z[L]);
    if (v) rot<D>(v[L], w[L], nv, c[L], z[L]);
  }
  return mask;
}

// Eight lanes of e[t − j], j = 8h … 8h + 7 (lane i holds j = 8h + i): a load of
// e[t − 8h − 7 …] reversed.
inline __m512d load_rev(const double* e, index t, int h, __mmask8 m, __m512i rev) {
  return _mm512_permutexvar_pd(rev, _mm512_maskz_loadu_pd(rev_mask(m), e + t - 8 * h - 7));
}

index wave_d(double* X, index len, double* V, index nv, index p, index k, index qa, index qe, index t0, double* e,
             double tol2, double lo2, double hi2, index* rotations) {
  const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  const __m512d half = _mm512_set1_pd(0.5), vlo = _mm512_set1_pd(lo2), vhi = _mm512_set1_pd(hi2);
  const index tend = qe + k - 1;
  index cnt = 0;
  for (index t = t0; t < tend; ++t) {
    const index j0 = std::max<index>(0, t - (qe - 1));
    const index j1 = std::min<index>(k - 1, std::min<index>(t - qa, (t - p - 1) / 2));
    if (j0 > j1) continue;
    const unsigned lanes = ((2u << j1) - 1u) & ~((1u << j0) - 1u);
    __m512d acc[16];
    for (int j = 0; j < 16; ++j)
      acc[j] = lanes >> j & 1u ? dot_v(X + (p + j) * len, X + (t - j) * len, len) : _mm512_setzero_pd();
    __m512d G[2], A[2], B[2];
    __mmask8 m[2];
    for (int h = 0; h < 2; ++h) {
      const __mmask8 lh = static_cast<__mmask8>(lanes >> (8 * h));
      G[h] = hsum8(acc + 8 * h);
      A[h] = _mm512_maskz_loadu_pd(lh, e + p + 8 * h);
      B[h] = load_rev(e, t, h, lh, rev);
      m[h] = lh ? rotates(G[h], A[h], B[h], tol2) & lh : 0;
    }
    if (!(m[0] | m[1])) continue;
    alignas(64) double c[16], z[16], a2[16], b2[16];
    unsigned slow = 0;
    for (int h = 0; h < 2; ++h) {
      if (!m[h]) continue;
      angles_v(G[h], A[h], B[h], c + 8 * h, z + 8 * h, a2 + 8 * h, b2 + 8 * h);
      // Lanes whose tracked norms stay valid and in range: stored at once.
      const __m512d na = _mm512_load_pd(a2 + 8 * h), nb = _mm512_load_pd(b2 + 8 * h);
      const __mmask8 ok = m[h] & _mm512_cmp_pd_mask(na, _mm512_mul_pd(half, A[h]), _CMP_GT_OQ) &
                          _mm512_cmp_pd_mask(nb, _mm512_mul_pd(half, B[h]), _CMP_GT_OQ) &
                          _mm512_cmp_pd_mask(na, vlo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(na, vhi, _CMP_LE_OQ) &
                          _mm512_cmp_pd_mask(nb, vlo, _CMP_GE_OQ) & _mm512_cmp_pd_mask(nb, vhi, _CMP_LE_OQ);
      _mm512_mask_storeu_pd(e + p + 8 * h, ok, na);
      _mm512_mask_storeu_pd(e + t - 8 * h - 7, rev_mask(ok), _mm512_permutexvar_pd(rev, nb));
      slow |= static_cast<unsigned>(m[h] & ~ok) << (8 * h);
    }
    const unsigned mask = static_cast<unsigned>(m[0]) | static_cast<unsigned>(m[1]) << 8;
    for (int j = 0; j < 16; ++j) {
      if (!(mask >> j & 1u)) continue;
      ++cnt;
      double* x = X + (p + j) * len;
      double* y = X + (t - j) * len;
      rot<D>(x, y, len, c[j], z[j]);
      if (V) rot<D>(V + (p + j) * nv, V + (t - j) * nv, nv, c[j], z[j]);
    }
    if (slow) {
      // Lanes whose tracked norm cancelled or left the range (rare): recomputed from the
      // rotated columns where the plain sum of squares is safe.
      bool out = false;
      for (int j = 0; j < 16; ++j) {
        if (!(slow >> j & 1u)) continue;
        const index pj = p + j, q = t - j;
        double na = a2[j], nb = b2[j];
        if (!(na > 0.5 * e[pj])) {
          na = hsum(dot_v(X + pj * len, X + pj * len, len));
          if (!(na >= lo2 && na <= hi2)) na = -1;
        }
        if (!(nb > 0.5 * e[q])) {
          nb = hsum(dot_v(X + q * len, X + q * len, len));
          if (!(nb >= lo2 && nb <= hi2)) nb = -1;
        }
        e[pj] = na;
        e[q] = nb;
        out = out || !(na >= lo2 && na <= hi2 && nb >= lo2 && nb <= hi2);
      }
      if (out) {
        *rotations += cnt;
        return t + 1;
      }
    }
  }
  *rotations += cnt;
  return tend;
}

}  // namespace

template <> JacobiKernels<double> avx512_jacobi<double>() {
  JacobiKernels<double> k = avx2_jacobi<double>();
  k.dot = &dot<D>;
  k.rot = &rot<D>;
  k.rot_dot = &rot_dot<D>;
  k.angles = &angles_d;
  k.wave_step = &wave_step_d;
  k.wave = &wave_d;
  return k;
}
template <> JacobiKernels<float> avx512_jacobi<float>() {
  JacobiKernels<float> k = avx2_jacobi<float>();
  k.dot = &dot<F>;
  k.rot = &rot<F>;
  k.rot_dot = &rot_dot<F>;
  return k;
}

}  // namespace lapis::svd_detail

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#pragma GCC pop_options
#endif

#endif  // LAPIS_SVD_X86
