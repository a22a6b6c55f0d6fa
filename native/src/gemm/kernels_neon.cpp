// NEON micro-kernels for arm64 (Apple silicon, Graviton, …; NEON is always there).
//   double 6×8, float 6×16, complex<double> 3×4, complex<float> 3×8:
// 24 of the 32 q registers hold accumulators, 4 hold b, the rest broadcasts.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_ARM64
#include "ukernel.hpp"
#include "small_kernel.hpp"

namespace lapis::gemm_detail {
namespace {
using NeonD = simd::Pack<simd::Neon, double>;
using NeonS = simd::Pack<simd::Neon, float>;
}  // namespace

Family neon_family() {
  Family f;
  f.name = "neon";
  f.d = real_set<NeonD, 6, 4>(192, 256, 4096);
  f.s = real_set<NeonS, 6, 4>(384, 256, 4096);
  f.z = complex_set<NeonD, 3, 4>(96, 256, 2048);
  f.c = complex_set<NeonS, 3, 4>(192, 256, 2048);
  // Small products: up to 24 accumulators (of 32 q registers), 8 rows, four vectors a tile.
  f.d.small = small_real<NeonD, 24, 8, 4>();
  f.s.small = small_real<NeonS, 24, 8, 4>();
  f.z.small = small_complex<NeonD, 24, 8, 4>();
  f.c.small = small_complex<NeonS, 24, 8, 4>();
  return f;
}

}  // namespace lapis::gemm_detail
#endif
