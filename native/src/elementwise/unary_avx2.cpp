// AVX2+FMA build of the SIMD unary spans (unary_simd_impl.hpp); this file alone is compiled
// with -mavx2 -mfma, and unary_simd() returns its spans only after active_isa() chose avx2.
#include "lapis/simd.hpp"

#if LAPIS_SIMD_X86
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

#include "unary_simd_impl.hpp"

template UnarySimd<float> make<float>();
template UnarySimd<double> make<double>();
}  // namespace lapis::ew::unary_avx2
#endif
