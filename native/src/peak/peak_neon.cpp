// The peak loop with NEON (arm64 only; CMake drops *_neon.cpp elsewhere): 24 of the 32
// q registers accumulate (4 FMA pipes of latency 4 need 16 in flight).
#include "lapis/simd.hpp"

#if LAPIS_SIMD_NEON
#include "peak_kernels.hpp"
#include "peak_loop.hpp"

namespace lapis::peak_detail {

Loops neon_loops() {
  return {&fma_rounds<simd::Pack<simd::Neon, float>, 24>, &fma_rounds<simd::Pack<simd::Neon, double>, 24>};
}

}  // namespace lapis::peak_detail
#endif
