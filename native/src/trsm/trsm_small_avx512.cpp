// Small-trsm kernel, 64-byte vectors (16 float / 8 double), tiles of 6 rows × 4 vectors
// (24 of the 32 zmm registers accumulate). The build applies no ISA flags to this file (the
// addon targets x86-64-v3 at most): the target is set for the functions below, and
// trsm_small() only hands them out after a CPUID check.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>  // (before the target region: library inline code keeps the baseline ISA)

#include "lapis/simd.hpp"
#include "trsm_small.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)
#if defined(__clang__)
#pragma clang fp contract(fast)
#else
#pragma GCC optimize("fp-contract=fast")
#endif

namespace lapis::detail::trsm_small_avx512 {
template <class T> using Pk = simd::Pack<simd::Avx512, T>;
constexpr int kTrsmNV = 4, kTrsmRows = 6;
#include "trsm_small_impl.hpp"
}  // namespace lapis::detail::trsm_small_avx512

LAPIS_TARGET_END
#endif
