// Portable micro-kernels: the same contract over the Portable packet (16-byte vectors in
// plain C++, which compilers map onto the baseline target's SIMD: SSE2 on x86-64). Smaller
// tiles than the ISA kernels so the accumulators fit 16 baseline registers. Also the
// reference the ISA kernels are tested against (LAPIS_KERNELS=portable forces them).
#include "gemm_kernels.hpp"
#include "ukernel.hpp"
#include "small_kernel.hpp"

namespace lapis::gemm_detail {
namespace {
using PortD = simd::Pack<simd::Portable, double>;
using PortS = simd::Pack<simd::Portable, float>;
}  // namespace

Family portable_family() {
  Family f;
  f.name = "portable";
  f.d = real_set<PortD, 4, 2>(128, 256, 4096);
  f.s = real_set<PortS, 4, 2>(128, 256, 4096);
  f.z = complex_set<PortD, 2, 2>(64, 256, 2048);
  f.c = complex_set<PortS, 2, 2>(128, 256, 2048);
  // Small products: up to 8 accumulators (of 16 baseline registers), 4 rows, two vectors a tile.
  f.d.small = small_real<PortD, 8, 4, 2>();
  f.s.small = small_real<PortS, 8, 4, 2>();
  f.z.small = small_complex<PortD, 8, 4, 2>();
  f.c.small = small_complex<PortS, 8, 4, 2>();
  return f;
}

}  // namespace lapis::gemm_detail
