// The peak loop with AVX2+FMA (CMake builds *_avx2.cpp with -mavx2 -mfma): 12 of the 16
// ymm registers accumulate, 2 hold m and c.
#include "lapis/simd.hpp"

#if LAPIS_SIMD_X86
#include "peak_kernels.hpp"
#include "peak_loop.hpp"

namespace lapis::peak_detail {

Loops avx2_loops() {
  return {&fma_rounds<simd::Pack<simd::Avx2, float>, 12>, &fma_rounds<simd::Pack<simd::Avx2, double>, 12>};
}

}  // namespace lapis::peak_detail
#endif
