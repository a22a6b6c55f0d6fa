// AVX2+FMA build of the matrix-vector kernels (gemv_impl.hpp); this file alone is compiled
// with -mavx2 -mfma, and gemv_kernels() calls it only after active_isa() chose avx2.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_X86
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "gemv.hpp"
#include "lapis/simd.hpp"

namespace lapis::gemm_detail::gemv_avx2 {
template <class R> using Pk = simd::Pack<simd::Avx2, R>;
constexpr int kVecRegs = 16;
#include "gemv_impl.hpp"
}  // namespace lapis::gemm_detail::gemv_avx2
#endif
