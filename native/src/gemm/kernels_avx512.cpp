// AVX-512F micro-kernels, used when the CPU and OS support AVX-512 (Zen 4/5, Skylake-X and
// later Xeons): twice the AVX2 flops per instruction, and 32 registers for bigger tiles.
//   double 8×16, float 8×32, complex<double> 4×8, complex<float> 4×16:
// 16 zmm accumulators + 2 for b + broadcasts; per k step 2 loads and 8 broadcasts feed
// 16 FMAs.
// The build applies no ISA flags to this file (the addon targets x86-64-v3 at most): the
// target is set per function here (the packet's own), and the driver only calls in after
// active_isa() chose avx512.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_X86
#include <cstdint>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#include "lapis/simd.hpp"

LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)

#include "ukernel.hpp"

namespace lapis::gemm_detail {
namespace {
using Avx512D = simd::Pack<simd::Avx512, double>;
using Avx512S = simd::Pack<simd::Avx512, float>;
}  // namespace
}  // namespace lapis::gemm_detail

LAPIS_TARGET_END

namespace lapis::gemm_detail {

Family avx512_family() {
  Family f;
  f.name = "avx512";
  // B micro-panel kc·nr·size = 24 KiB of a 32–48 KiB L1; A block ≈ 300 KiB of L2.
  f.d = real_set<Avx512D, 8, 2>(192, 192, 4096);
  f.s = real_set<Avx512S, 8, 2>(384, 192, 4096);
  f.z = complex_set<Avx512D, 4, 2>(96, 192, 2048);
  f.c = complex_set<Avx512S, 4, 2>(192, 192, 2048);
  return f;
}

}  // namespace lapis::gemm_detail

#endif
