// AVX-512F micro-kernels, used when the CPU and OS support AVX-512 (Zen 4/5, Skylake-X and
// later Xeons): twice the AVX2 flops per instruction, and 32 registers for bigger tiles.
//   double 8×24, float 8×48: 24 zmm accumulators + 3 for b + a broadcast; per k step 3
// loads and 8 broadcasts feed 24 FMAs (fewer loads per FMA than 8×16, which lost to it
// on a Xeon: bench/results/gemm-avx512-h200host.txt).
//   complex<double> 4×12, complex<float> 4×24: 24 accumulators, the real kernels' loads per
// FMA (4×8 / 4×16 with 16 ran ~10 points of peak lower on a Xeon: docs/gemm.md).
// Packing uses whole vectors here (pack_copy / pack_trans in ukernel.hpp): element by
// element it took 18% of a float 1024³ product on Zen 5, now 5%.
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
#define LAPIS_SMALL_TARGET , target(LAPIS_TARGET_AVX512)
#include "small_kernel.hpp"

namespace lapis::gemm_detail {
namespace {
using Avx512D = simd::Pack<simd::Avx512, double>;
using Avx512S = simd::Pack<simd::Avx512, float>;
using Avx2D = simd::Pack<simd::Avx2, double>;
using Avx2S = simd::Pack<simd::Avx2, float>;

// The SIMD packs for the 8-row A panels and NR-wide B panels of the real kernels.
template <class KS, class PA, class TA, class PB, class TB, int MR, int NR>
void set_packs(KS& k) {
  k.pack_a_copy = &pack_copy<PA, MR>;
  k.pack_a_trans = &pack_trans<TA, MR>;
  k.pack_b_copy = &pack_copy<PB, NR>;
  k.pack_b_trans = &pack_trans<TB, NR>;
}

// Complex elements as whole units for the packs (moves only, so every bit is kept):
// complex<double> four to a zmm, complex<float> four to a ymm or eight to a zmm. The
// transposes move 128-bit (complex<double>) or 64-bit (complex<float>) units.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's _mm512_shuffle_f64x2 (as in simd.hpp)
#endif
struct ZUnits4 {
  using R = std::complex<double>;
  using V = __m512d;
  static constexpr int L = 4;
  static V load(const R* p) { return _mm512_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(R* p, V v) { _mm512_storeu_pd(reinterpret_cast<double*>(p), v); }
  static void transpose(V (&r)[4]) {
    const V t0 = _mm512_shuffle_f64x2(r[0], r[1], 0x44), t1 = _mm512_shuffle_f64x2(r[0], r[1], 0xEE);
    const V t2 = _mm512_shuffle_f64x2(r[2], r[3], 0x44), t3 = _mm512_shuffle_f64x2(r[2], r[3], 0xEE);
    r[0] = _mm512_shuffle_f64x2(t0, t2, 0x88);
    r[1] = _mm512_shuffle_f64x2(t0, t2, 0xDD);
    r[2] = _mm512_shuffle_f64x2(t1, t3, 0x88);
    r[3] = _mm512_shuffle_f64x2(t1, t3, 0xDD);
  }
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
struct CUnits4 {
  using R = std::complex<float>;
  using V = __m256d;
  static constexpr int L = 4;
  static V load(const R* p) { return _mm256_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(R* p, V v) { _mm256_storeu_pd(reinterpret_cast<double*>(p), v); }
  static void transpose(V (&r)[4]) { Avx2D::transpose(r); }
};
struct CUnits8 {
  using R = std::complex<float>;
  using V = __m512d;
  static constexpr int L = 8;
  static V load(const R* p) { return _mm512_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(R* p, V v) { _mm512_storeu_pd(reinterpret_cast<double*>(p), v); }
};
}  // namespace
}  // namespace lapis::gemm_detail

LAPIS_TARGET_END

namespace lapis::gemm_detail {

Family avx512_family() {
  Family f;
  f.name = "avx512";
  // kc = 512 (C tiles read and written half as often as at 192; the B micro-panel then
  // streams from L2 beside A, which measured faster on Zen 5 than an L1-sized 192 or 128),
  // mc = 96: A block 384 KiB (double) of a 1 MiB L2; complex<float> kc 512 (a 512-deep
  // product in one pass over C, not two of 256), complex<double> 256 (4×12 tile, Xeon).
  // Measurements: docs/gemm.md.
  // nc 2048: an 8 MiB (double) B block rather than 16 MiB, in an L3 shared with other work.
  f.d = real_set<Avx512D, 8, 3, true>(96, 512, 2048);
  f.s = real_set<Avx512S, 8, 3, true>(96, 512, 2048);
  f.z = complex_set<Avx512D, 4, 3, true>(96, 256, 2048);
  f.c = complex_set<Avx512S, 4, 3, true>(96, 512, 2048);
  // From 4 threads one B block is shared (packed_shared): the grid's per-thread B blocks
  // and repacked A lost to it from 4 threads on the 16-core Xeon (docs/gemm.md).
  f.d.shared_from = f.s.shared_from = f.z.shared_from = f.c.shared_from = 4;
  // One thread's products keep a B block in L2 (768 KiB real, 1.1 MiB complex64, 1.1 MiB
  // complex128) and 1024-row A blocks in L3, with one A micro-panel in L1 across the block
  // (B-resident order; docs/gemm.md).
  f.d.nb = 192;
  f.s.nb = 384;
  f.z.nb = f.c.nb = 288;
  f.d.mb = f.s.mb = f.z.mb = f.c.mb = 1024;
  set_packs<KernelSet<double>, Avx512D, Avx2D, Avx512D, Avx2D, 8, 24>(f.d);
  set_packs<KernelSet<float>, Avx2S, Avx2S, Avx512S, Avx512S, 8, 48>(f.s);
  set_packs<KernelSet<std::complex<double>>, ZUnits4, ZUnits4, ZUnits4, ZUnits4, 4, 12>(f.z);
  set_packs<KernelSet<std::complex<float>>, CUnits4, CUnits4, CUnits8, CUnits4, 4, 24>(f.c);
  // Small products: up to 24 accumulators, 8 rows, two vectors (16 doubles, 8 complex) a
  // tile; masked loads and stores cost what plain ones do, so only masked tiles are built.
  f.d.small = small_real<Avx512D, 24, 8, 2, true>();
  f.s.small = small_real<Avx512S, 24, 8, 1, true>();
  f.z.small = small_complex<Avx512D, 24, 8, 2, true>();
  f.c.small = small_complex<Avx512S, 24, 8, 2, true>();
  return f;
}

}  // namespace lapis::gemm_detail

#endif
