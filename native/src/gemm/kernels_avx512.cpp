// AVX-512F micro-kernels, used when the CPU and OS support AVX-512 (Zen 4/5, Skylake-X and
// later Xeons): twice the AVX2 flops per instruction, and 32 registers for bigger tiles.
//   double 8×24, float 8×48: 24 zmm accumulators + 3 for b + a broadcast; per k step 3
// loads and 8 broadcasts feed 24 FMAs (fewer loads per FMA than 8×16, which lost to it
// on a Xeon: bench/results/gemm-avx512-h200host.txt).
//   complex<double> 4×8, complex<float> 4×16: 16 accumulators.
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
  // B micro-panel kc·nr·size = 36 KiB of a 48 KiB L1; A block ≈ 300 KiB of L2.
  f.d = real_set<Avx512D, 8, 3>(192, 192, 4096);
  f.s = real_set<Avx512S, 8, 3>(384, 192, 4096);
  f.z = complex_set<Avx512D, 4, 2>(96, 192, 2048);
  f.c = complex_set<Avx512S, 4, 2>(192, 192, 2048);
  return f;
}

}  // namespace lapis::gemm_detail

#endif
