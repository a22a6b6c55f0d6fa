// NEON build of the matrix-vector kernels (gemv_impl.hpp), arm64 only.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_ARM64
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "gemv.hpp"
#include "lapis/simd.hpp"

namespace lapis::gemm_detail::gemv_neon {
template <class R> using Pk = simd::Pack<simd::Neon, R>;
constexpr int kVecRegs = 32;
#include "gemv_impl.hpp"
}  // namespace lapis::gemm_detail::gemv_neon
#endif
