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

#include "trsm_small.hpp"

namespace lapis::detail::trsm_small_avx2 {
#define LAPIS_TRSM_BYTES 32
#define LAPIS_TRSM_NV 2
#define LAPIS_TRSM_R 6
#include "trsm_small_impl.hpp"
#undef LAPIS_TRSM_BYTES
#undef LAPIS_TRSM_NV
#undef LAPIS_TRSM_R
}  // namespace lapis::detail::trsm_small_avx2
