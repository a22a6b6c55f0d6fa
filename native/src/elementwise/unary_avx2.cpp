// AVX2+FMA build of the SIMD unary spans (unary_simd_impl.hpp); this file alone is compiled
// with -mavx2 -mfma, and unary_simd() returns its spans only after active_isa() chose avx2.
#include "lapis/simd.hpp"

#if LAPIS_SIMD_X86
#include <cmath>
#include <limits>
#include <type_traits>

#include "unary_simd.hpp"

namespace lapis::ew::unary_avx2 {
template <class R> using Pk = simd::Pack<simd::Avx2, R>;

LAPIS_SIMD_INLINE __m256 round_nearest(__m256 v) { return _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
LAPIS_SIMD_INLINE __m256d round_nearest(__m256d v) { return _mm256_round_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }

// 2^k for integral k of the normal exponent range, from its bits.
LAPIS_SIMD_INLINE __m256 pow2i(__m256 k) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23));
}
LAPIS_SIMD_INLINE __m256d pow2i(__m256d k) {
  const __m256i k64 = _mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(k));
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(k64, _mm256_set1_epi64x(1023)), 52));
}

// p·2^n in two factors, each a normal power of two: the first product is exact, the second
// rounds once (subnormal results too).
LAPIS_SIMD_INLINE __m256 scale2(__m256 p, __m256 n) {
  const __m256 n1 = _mm256_floor_ps(_mm256_mul_ps(n, _mm256_set1_ps(0.5f)));
  return _mm256_mul_ps(_mm256_mul_ps(p, pow2i(n1)), pow2i(_mm256_sub_ps(n, n1)));
}
LAPIS_SIMD_INLINE __m256d scale2(__m256d p, __m256d n) {
  const __m256d n1 = _mm256_floor_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.5)));
  return _mm256_mul_pd(_mm256_mul_pd(p, pow2i(n1)), pow2i(_mm256_sub_pd(n, n1)));
}

// x = m·2^e, m in [1, 2), from the bits; subnormals scaled into the normal range first.
LAPIS_SIMD_INLINE void decompose(__m256 x, __m256& m, __m256& e) {
  const __m256 tiny = _mm256_cmp_ps(x, _mm256_set1_ps(std::numeric_limits<float>::min()), _CMP_LT_OQ);
  const __m256 xs = _mm256_blendv_ps(x, _mm256_mul_ps(x, _mm256_set1_ps(16777216.0f)), tiny);  // 2^24
  const __m256i b = _mm256_castps_si256(xs);
  e = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(b, 23), _mm256_set1_epi32(127)));
  e = _mm256_sub_ps(e, _mm256_and_ps(tiny, _mm256_set1_ps(24.0f)));
  m = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(b, _mm256_set1_epi32(0x007FFFFF)), _mm256_set1_epi32(0x3F800000)));
}
LAPIS_SIMD_INLINE void decompose(__m256d x, __m256d& m, __m256d& e) {
  const __m256d tiny = _mm256_cmp_pd(x, _mm256_set1_pd(std::numeric_limits<double>::min()), _CMP_LT_OQ);
  const __m256d xs = _mm256_blendv_pd(x, _mm256_mul_pd(x, _mm256_set1_pd(18014398509481984.0)), tiny);  // 2^54
  const __m256i b = _mm256_castpd_si256(xs);
  // The biased exponent (< 2^11) in the low bits of 2^52's bits reads as 2^52 + it: exact.
  const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
  const __m256d eb = _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(b, 52), _mm256_castpd_si256(two52)));
  e = _mm256_sub_pd(_mm256_sub_pd(eb, two52), _mm256_set1_pd(1023.0));
  e = _mm256_sub_pd(e, _mm256_and_pd(tiny, _mm256_set1_pd(54.0)));
  m = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(b, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFLL)),
                                          _mm256_set1_epi64x(0x3FF0000000000000LL)));
}

#include "unary_simd_impl.hpp"

template UnarySimd<float> make<float>();
template UnarySimd<double> make<double>();
}  // namespace lapis::ew::unary_avx2
#endif
