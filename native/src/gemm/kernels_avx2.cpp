// AVX2+FMA micro-kernels (this file alone is compiled with -mavx2 -mfma / MSVC /arch:AVX2;
// the driver calls it only after the CPU reported both features).
//   double 6×8, float 6×16, complex<double> 3×4, complex<float> 3×8:
// 12 ymm accumulators + 2 for b + 1–2 broadcasts, the Haswell-to-Zen sweet spot (two
// FMA pipes of latency 4–5 need ≥ 10 independent chains).
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_X86
#include <immintrin.h>

#include "ukernel.hpp"

namespace lapis::gemm_detail {
namespace {

struct Avx2D {
  using R = double;
  using V = __m256d;
  static constexpr int L = 4;
  static constexpr bool kMasked = true;
  using M = __m256i;
  static M mask(int n) { return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3)); }
  static V loadm(const R* p, M m) { return _mm256_maskload_pd(p, m); }
  static V zero() { return _mm256_setzero_pd(); }
  static V load(const R* p) { return _mm256_loadu_pd(p); }
  static void store(R* p, V v) { _mm256_storeu_pd(p, v); }
  static V bcast(const R* p) { return _mm256_broadcast_sd(p); }
  static V set1(R x) { return _mm256_set1_pd(x); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V swap(V v) { return _mm256_permute_pd(v, 0x5); }
  static V addsub(V x, V y) { return _mm256_addsub_pd(x, y); }
  static V neg(V v) { return _mm256_xor_pd(v, _mm256_set1_pd(-0.0)); }
  static V conj(V v) { return _mm256_xor_pd(v, _mm256_setr_pd(0.0, -0.0, 0.0, -0.0)); }
};

struct Avx2S {
  using R = float;
  using V = __m256;
  static constexpr int L = 8;
  static constexpr bool kMasked = true;
  using M = __m256i;
  static M mask(int n) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
  static V loadm(const R* p, M m) { return _mm256_maskload_ps(p, m); }
  static V zero() { return _mm256_setzero_ps(); }
  static V load(const R* p) { return _mm256_loadu_ps(p); }
  static void store(R* p, V v) { _mm256_storeu_ps(p, v); }
  static V bcast(const R* p) { return _mm256_broadcast_ss(p); }
  static V set1(R x) { return _mm256_set1_ps(x); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V swap(V v) { return _mm256_permute_ps(v, 0xB1); }
  static V addsub(V x, V y) { return _mm256_addsub_ps(x, y); }
  static V neg(V v) { return _mm256_xor_ps(v, _mm256_set1_ps(-0.0f)); }
  static V conj(V v) { return _mm256_xor_ps(v, _mm256_setr_ps(0.f, -0.f, 0.f, -0.f, 0.f, -0.f, 0.f, -0.f)); }
};

}  // namespace

Family avx2_family() {
  Family f;
  f.name = "avx2";
  // kc·nr·size ≈ 16 KiB keeps the B micro-panel in L1; mc·kc·size ≈ 384 KiB the A block
  // in L2; kc·nc the shared B block in L3.
  f.d = real_set<Avx2D, 6, 2>(192, 256, 4096);
  f.s = real_set<Avx2S, 6, 2>(384, 256, 4096);
  f.z = complex_set<Avx2D, 3, 2>(96, 256, 2048);
  f.c = complex_set<Avx2S, 3, 2>(192, 256, 2048);
  return f;
}

}  // namespace lapis::gemm_detail
#endif
