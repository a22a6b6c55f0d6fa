// Lane kernels for tiny systems, 32-byte vectors (CMake adds -mavx2 -mfma to *_avx2.cpp);
// contraction to FMA is allowed in this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=fast")
#elif defined(__clang__)
#pragma clang fp contract(fast)
#endif
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "lapis/simd.hpp"
#include "tiny.hpp"

namespace lapis::detail::tiny_avx2 {
template <class T> using Pk = simd::Pack<simd::Avx2, T>;
#include "tiny_impl.hpp"
}  // namespace lapis::detail::tiny_avx2
