// AVX-512 Jacobi kernels for real data, picked when active_isa() is avx512 (the CPU and
// OS support AVX-512 F, DQ and VL). On a core with full-width 512-bit units (Zen 5, Xeon)
// the rotation of a column pair, bound by loads and stores, takes half the instructions of
// the AVX2 kernel; tails use masked loads and stores instead of a scalar loop. Complex
// data keeps the AVX2 kernels. As in native/src/gemm/kernels_avx512.cpp the build gives
// this file no ISA flags: the target is set for the region below, and the dispatch only
// calls in after the CPUID check.
#include "jacobi_kernels.hpp"

#if LAPIS_SVD_X86
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#include "lapis/simd.hpp"

// The packets' own target (lapis/simd.hpp): their always-inline functions inline only
// into code built for at least that ISA.
LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 intrinsics (sqrt, unpack, shuffle, integer and/or) pass an
// _mm512_undefined_* operand, which -Wall reports as uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "jacobi_impl.hpp"

namespace lapis::svd_detail {
namespace {

using PD = simd::Pack<simd::Avx512, double>;
using PF = simd::Pack<simd::Avx512, float>;

unsigned angles_d(const double* g, const double* ap, const double* bq, double tol2, double* c, double* z, double* a2,
                  double* b2) {
  return angles<PD>(g, ap, bq, tol2, c, z, a2, b2);
}

inline double hsum(__m512d v) { return PD::hsum(v); }

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
    m[h] = rotates<PD>(G[h], _mm512_loadu_pd(ap + 8 * h), _mm512_loadu_pd(bq + 8 * h), tol2);
    if (8 * h + 8 >= nl) break;
  }
  if (!(m[0] | m[1])) return 0;
  alignas(64) double c[16], z[16];
  for (int h = 0; h < 2; ++h)
    if (m[h]) angles_v<PD>(G[h], _mm512_loadu_pd(ap + 8 * h), _mm512_loadu_pd(bq + 8 * h), c + 8 * h, z + 8 * h, a2 + 8 * h,
                       b2 + 8 * h);
  const unsigned mask = static_cast<unsigned>(m[0]) | static_cast<unsigned>(m[1]) << 8;
  for (int L = 0; L < nl; ++L) {
    if (!(mask >> L & 1u)) continue;
    rot<PD, Tail::Masked>(x[L], y[L], len, c[L], z[L]);
    if (v) rot<PD, Tail::Masked>(v[L], w[L], nv, c[L], z[L]);
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
      m[h] = lh ? rotates<PD>(G[h], A[h], B[h], tol2) & lh : 0;
    }
    if (!(m[0] | m[1])) continue;
    alignas(64) double c[16], z[16], a2[16], b2[16];
    unsigned slow = 0;
    for (int h = 0; h < 2; ++h) {
      if (!m[h]) continue;
      angles_v<PD>(G[h], A[h], B[h], c + 8 * h, z + 8 * h, a2 + 8 * h, b2 + 8 * h);
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
      rot<PD, Tail::Masked>(x, y, len, c[j], z[j]);
      if (V) rot<PD, Tail::Masked>(V + (p + j) * nv, V + (t - j) * nv, nv, c[j], z[j]);
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
  k.dot = &dot<PD, Tail::Masked>;
  k.rot = &rot<PD, Tail::Masked>;
  k.rot_dot = &rot_dot<PD, Tail::Masked>;
  k.angles = &angles_d;
  k.wave_step = &wave_step_d;
  k.wave = &wave_d;
  k.larf_left = &larf_left<PD, Tail::Masked>;
  k.larf_right = &larf_right<PD, Tail::Masked>;
  return k;
}
template <> JacobiKernels<float> avx512_jacobi<float>() {
  JacobiKernels<float> k = avx2_jacobi<float>();
  k.dot = &dot<PF, Tail::Masked>;
  k.rot = &rot<PF, Tail::Masked>;
  k.rot_dot = &rot_dot<PF, Tail::Masked>;
  k.rot_dot2 = &rot_dot2<PF, Tail::Masked>;
  k.larf_left = &larf_left<PF, Tail::Masked>;
  k.larf_right = &larf_right<PF, Tail::Masked>;
  return k;
}

}  // namespace lapis::svd_detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
LAPIS_TARGET_END

#endif  // LAPIS_SVD_X86
