// AVX-512F micro-kernels, used when the CPU and OS support AVX-512 (Zen 4/5, Skylake-X and
// later Xeons): twice the AVX2 flops per instruction, and 32 registers for bigger tiles.
//   double 8×16, float 8×32, complex<double> 4×8, complex<float> 4×16:
// 16 zmm accumulators + 2 for b + broadcasts; per k step 2 loads and 8 broadcasts feed
// 16 FMAs.
// The build applies no ISA flags to this file (the addon targets x86-64-v3 at most): the
// target is set per function here, and the driver only calls in after a CPUID check.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_X86
#include <immintrin.h>

#include <cstdint>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
#endif

#include "ukernel.hpp"

namespace lapis::gemm_detail {
namespace {

struct Avx512D {
  using R = double;
  using V = __m512d;
  static constexpr int L = 8;
  static constexpr bool kMasked = true;
  using M = __mmask8;
  static M mask(int n) { return static_cast<M>((1u << n) - 1u); }
  static V loadm(const R* p, M m) { return _mm512_maskz_loadu_pd(m, p); }
  static V zero() { return _mm512_setzero_pd(); }
  static V load(const R* p) { return _mm512_loadu_pd(p); }
  static void store(R* p, V v) { _mm512_storeu_pd(p, v); }
  static V bcast(const R* p) { return _mm512_set1_pd(*p); }
  static V set1(R x) { return _mm512_set1_pd(x); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  static V swap(V v) { return _mm512_shuffle_pd(v, v, 0x55); }
  static V addsub(V x, V y) { return _mm512_mask_sub_pd(_mm512_add_pd(x, y), 0x55, x, y); }
  static V flip(V v, __m512i m) { return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(v), m)); }
  static V neg(V v) { return flip(v, _mm512_set1_epi64(INT64_MIN)); }
  static V conj(V v) { return flip(v, _mm512_maskz_mov_epi64(0xAA, _mm512_set1_epi64(INT64_MIN))); }
};

struct Avx512S {
  using R = float;
  using V = __m512;
  static constexpr int L = 16;
  static constexpr bool kMasked = true;
  using M = __mmask16;
  static M mask(int n) { return static_cast<M>((1u << n) - 1u); }
  static V loadm(const R* p, M m) { return _mm512_maskz_loadu_ps(m, p); }
  static V zero() { return _mm512_setzero_ps(); }
  static V load(const R* p) { return _mm512_loadu_ps(p); }
  static void store(R* p, V v) { _mm512_storeu_ps(p, v); }
  static V bcast(const R* p) { return _mm512_set1_ps(*p); }
  static V set1(R x) { return _mm512_set1_ps(x); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V swap(V v) { return _mm512_shuffle_ps(v, v, 0xB1); }
  static V addsub(V x, V y) { return _mm512_mask_sub_ps(_mm512_add_ps(x, y), 0x5555, x, y); }
  static V flip(V v, __m512i m) { return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(v), m)); }
  static V neg(V v) { return flip(v, _mm512_set1_epi32(INT32_MIN)); }
  static V conj(V v) { return flip(v, _mm512_maskz_mov_epi32(0xAAAA, _mm512_set1_epi32(INT32_MIN))); }
};

}  // namespace
}  // namespace lapis::gemm_detail

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

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
