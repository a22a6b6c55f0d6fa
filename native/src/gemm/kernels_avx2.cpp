// AVX2+FMA micro-kernels (this file alone is compiled with -mavx2 -mfma / MSVC /arch:AVX2;
// the driver calls it only after the CPU reported both features).
//   double 6×8, float 6×16, complex<double> 3×4, complex<float> 3×8:
// 12 ymm accumulators + 2 for b + 1–2 broadcasts, the Haswell-to-Zen sweet spot (two
// FMA pipes of latency 4–5 need ≥ 10 independent chains).
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_X86
#include "ukernel.hpp"
#include "small_kernel.hpp"

namespace lapis::gemm_detail {
namespace {
using Avx2D = simd::Pack<simd::Avx2, double>;
using Avx2S = simd::Pack<simd::Avx2, float>;
}  // namespace

Family avx2_family() {
  Family f;
  f.name = "avx2";
  // kc·nr·size ≈ 16 KiB keeps the B micro-panel in L1; mc·kc·size ≈ 384 KiB the A block
  // in L2; kc·nc the shared B block in L3.
  f.d = real_set<Avx2D, 6, 2, true>(192, 256, 4096);
  f.s = real_set<Avx2S, 6, 2, true>(384, 256, 4096);
  f.z = complex_set<Avx2D, 3, 2, true>(96, 256, 2048);
  f.c = complex_set<Avx2S, 3, 2, true>(192, 256, 2048);
  // Small products: up to 12 accumulators (of 16 ymm), 8 rows, two vectors a tile.
  f.d.small = small_real<Avx2D, 12, 8, 2>();
  f.s.small = small_real<Avx2S, 12, 8, 2>();
  f.z.small = small_complex<Avx2D, 12, 8, 2>();
  f.c.small = small_complex<Avx2S, 12, 8, 2>();
  return f;
}

}  // namespace lapis::gemm_detail
#endif
