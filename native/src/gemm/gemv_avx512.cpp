// AVX-512 build of the matrix-vector kernels (gemv_impl.hpp). No ISA flags from the build:
// the target is set per function here, as in kernels_avx512.cpp, and gemv_kernels() calls
// in only after active_isa() chose avx512.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_X86
#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#include "gemv.hpp"
#include "lapis/simd.hpp"

LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)

namespace lapis::gemm_detail::gemv_avx512 {
template <class R> using Pk = simd::Pack<simd::Avx512, R>;
constexpr int kVecRegs = 32;
#include "gemv_impl.hpp"
}  // namespace lapis::gemm_detail::gemv_avx512

LAPIS_TARGET_END
#endif
