// The peak loop with AVX-512F: 24 of the 32 zmm registers accumulate. The build applies no
// ISA flags to this file (the addon targets x86-64-v3 at most): the loops carry the target
// (LAPIS_TARGET_BEGIN), and peak.cpp only calls them after active_isa() chose avx512.
#include <cstdint>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#include "lapis/simd.hpp"

#if LAPIS_SIMD_X86
#include "peak_kernels.hpp"

LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)
#include "peak_loop.hpp"

namespace lapis::peak_detail {
namespace {
double f32_avx512(uint64_t rounds, double m, double c, uint64_t* lanes) {
  return fma_rounds<simd::Pack<simd::Avx512, float>, 24>(rounds, m, c, lanes);
}
double f64_avx512(uint64_t rounds, double m, double c, uint64_t* lanes) {
  return fma_rounds<simd::Pack<simd::Avx512, double>, 24>(rounds, m, c, lanes);
}
}  // namespace
}  // namespace lapis::peak_detail
LAPIS_TARGET_END

namespace lapis::peak_detail {
Loops avx512_loops() { return {&f32_avx512, &f64_avx512}; }
}  // namespace lapis::peak_detail
#endif
