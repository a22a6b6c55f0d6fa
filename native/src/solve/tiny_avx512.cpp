// Lane kernels for tiny systems, 64-byte vectors: 8 double or 16 float systems per group.
// The build applies no ISA flags to this file (the addon targets x86-64-v3 at most): the
// target is set for the functions below, and tiny_solver() only hands them out after a
// CPUID check.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>  // (before the target region: library inline code keeps the baseline ISA)

#include "lapis/simd.hpp"
#include "tiny.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)
#if defined(__clang__)
#pragma clang fp contract(fast)
#else
#pragma GCC optimize("fp-contract=fast")
#endif

namespace lapis::detail::tiny_avx512 {
template <class T> using Pk = simd::Pack<simd::Avx512, T>;
#include "tiny_impl.hpp"
}  // namespace lapis::detail::tiny_avx512

LAPIS_TARGET_END
#endif
