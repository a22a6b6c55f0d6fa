// Small-trsm kernel, 32-byte vectors (CMake adds -mavx2 -mfma to *_avx2.cpp), tiles of
// 6 rows × 2 vectors (12 of the 16 ymm registers accumulate); contraction to FMA is
// allowed in this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=fast")
#elif defined(__clang__)
#pragma clang fp contract(fast)
#endif
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "lapis/simd.hpp"
#include "trsm_small.hpp"

namespace lapis::detail::trsm_small_avx2 {
template <class T> using Pk = simd::Pack<simd::Avx2, T>;
constexpr int kTrsmNV = 2, kTrsmRows = 6;
#include "trsm_small_impl.hpp"
}  // namespace lapis::detail::trsm_small_avx2
