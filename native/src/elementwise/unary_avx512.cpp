// AVX-512 build of the SIMD unary spans (unary_simd_impl.hpp). No ISA flags from the build:
// the target is set per function here, and unary_simd() returns these spans only after
// active_isa() chose avx512.
#include "lapis/simd.hpp"

#if LAPIS_SIMD_X86
#include <cmath>
#include <limits>
#include <type_traits>  // before the target region: library inline code keeps the baseline ISA

#include "unary_simd.hpp"

LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)

namespace lapis::ew::unary_avx512 {
template <class R> using Pk = simd::Pack<simd::Avx512, R>;

// The zero-masked forms with every lane set: GCC 12's unmasked ones pass an undefined
// vector that -Wmaybe-uninitialized reports.
LAPIS_SIMD_INLINE __m512 round_nearest(__m512 v) {
  return _mm512_maskz_roundscale_ps(__mmask16(0xFFFF), v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
LAPIS_SIMD_INLINE __m512d round_nearest(__m512d v) {
  return _mm512_maskz_roundscale_pd(__mmask8(0xFF), v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
// vscalef: p·2^⌊n⌋ rounded once, subnormal results included.
LAPIS_SIMD_INLINE __m512 scale2(__m512 p, __m512 n) { return _mm512_maskz_scalef_ps(__mmask16(0xFFFF), p, n); }
LAPIS_SIMD_INLINE __m512d scale2(__m512d p, __m512d n) { return _mm512_maskz_scalef_pd(__mmask8(0xFF), p, n); }

// vgetmant / vgetexp: x = m·2^e, m in [1, 2), subnormals included.
LAPIS_SIMD_INLINE void decompose(__m512 x, __m512& m, __m512& e) {
  m = _mm512_maskz_getmant_ps(__mmask16(0xFFFF), x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
  e = _mm512_maskz_getexp_ps(__mmask16(0xFFFF), x);
}
LAPIS_SIMD_INLINE void decompose(__m512d x, __m512d& m, __m512d& e) {
  m = _mm512_maskz_getmant_pd(__mmask8(0xFF), x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
  e = _mm512_maskz_getexp_pd(__mmask8(0xFF), x);
}

#include "unary_simd_impl.hpp"

template UnarySimd<float> make<float>();
template UnarySimd<double> make<double>();
}  // namespace lapis::ew::unary_avx512

LAPIS_TARGET_END
#endif
