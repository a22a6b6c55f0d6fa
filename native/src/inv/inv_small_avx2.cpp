// AVX2+FMA lanes for the batched tiny inverse: 8 float / 4 double matrices per register.
// Compiled with -mavx2 -mfma (CMakeLists.txt); called only when the CPU has both and
// LAPIS_KERNELS is not "portable" (see inv_small.cpp).
#include <immintrin.h>

#include "inv_small_lanes.hpp"

namespace lapis {
namespace {

struct F8 {
  using T = float;
  using M = __m256;
  static constexpr int L = 8;
  __m256 v;
  static F8 load(const float* p) { return {_mm256_load_ps(p)}; }
  static void store(float* p, F8 a) { _mm256_store_ps(p, a.v); }
  static F8 splat(float x) { return {_mm256_set1_ps(x)}; }
  static F8 add(F8 a, F8 b) { return {_mm256_add_ps(a.v, b.v)}; }
  static F8 mul(F8 a, F8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
  static F8 div(F8 a, F8 b) { return {_mm256_div_ps(a.v, b.v)}; }
  static F8 fnmadd(F8 a, F8 b, F8 c) { return {_mm256_fnmadd_ps(a.v, b.v, c.v)}; }
  static F8 abs(F8 a) { return {_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v)}; }
  static M gt(F8 a, F8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ); }
  static M lt(F8 a, F8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ); }
  static M eq(F8 a, F8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ); }
  static M ne(F8 a, F8 b) { return _mm256_cmp_ps(a.v, b.v, _CMP_NEQ_UQ); }
  static F8 blend(F8 a, F8 b, M m) { return {_mm256_blendv_ps(a.v, b.v, m)}; }
  static unsigned mask_bits(M m) { return static_cast<unsigned>(_mm256_movemask_ps(m)); }
};

struct D4 {
  using T = double;
  using M = __m256d;
  static constexpr int L = 4;
  __m256d v;
  static D4 load(const double* p) { return {_mm256_load_pd(p)}; }
  static void store(double* p, D4 a) { _mm256_store_pd(p, a.v); }
  static D4 splat(double x) { return {_mm256_set1_pd(x)}; }
  static D4 add(D4 a, D4 b) { return {_mm256_add_pd(a.v, b.v)}; }
  static D4 mul(D4 a, D4 b) { return {_mm256_mul_pd(a.v, b.v)}; }
  static D4 div(D4 a, D4 b) { return {_mm256_div_pd(a.v, b.v)}; }
  static D4 fnmadd(D4 a, D4 b, D4 c) { return {_mm256_fnmadd_pd(a.v, b.v, c.v)}; }
  static D4 abs(D4 a) { return {_mm256_andnot_pd(_mm256_set1_pd(-0.0), a.v)}; }
  static M gt(D4 a, D4 b) { return _mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ); }
  static M lt(D4 a, D4 b) { return _mm256_cmp_pd(a.v, b.v, _CMP_LT_OQ); }
  static M eq(D4 a, D4 b) { return _mm256_cmp_pd(a.v, b.v, _CMP_EQ_OQ); }
  static M ne(D4 a, D4 b) { return _mm256_cmp_pd(a.v, b.v, _CMP_NEQ_UQ); }
  static D4 blend(D4 a, D4 b, M m) { return {_mm256_blendv_pd(a.v, b.v, m)}; }
  static unsigned mask_bits(M m) { return static_cast<unsigned>(_mm256_movemask_pd(m)); }
};

// 8×8 transpose of float rows r[0..7] in place (the standard unpack/shuffle/permute net).
inline void transpose8(__m256 (&r)[8]) {
  __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(s0, s4, 0x20); r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
  r[2] = _mm256_permute2f128_ps(s2, s6, 0x20); r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
  r[4] = _mm256_permute2f128_ps(s0, s4, 0x31); r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
  r[6] = _mm256_permute2f128_ps(s2, s6, 0x31); r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

// The hot case (4×4 float): 8 matrices are 16 rows of 8 floats; two 8×8 transposes turn
// them into the 16 element lanes without a trip through memory.
void inv4_f32_blocks(index blocks, const float* A, float* X, int32_t* info) {
  for_pieces(blocks, 64, [&](index b0, index b1) {
    for (index b = b0; b < b1; ++b) {
      const float* a = A + b * 128;
      __m256 lo[8], hi[8];
      for (int l = 0; l < 8; ++l) {
        lo[l] = _mm256_loadu_ps(a + 16 * l);
        hi[l] = _mm256_loadu_ps(a + 16 * l + 8);
      }
      transpose8(lo);
      transpose8(hi);
      F8 w[4][8];
      for (int k = 0; k < 8; ++k) {
        w[k / 4][k % 4].v = lo[k];
        w[2 + k / 4][k % 4].v = hi[k];
      }
      gauss_jordan_lanes<F8, 4>(w, info + b * 8);
      for (int k = 0; k < 8; ++k) {
        lo[k] = w[k / 4][4 + k % 4].v;
        hi[k] = w[2 + k / 4][4 + k % 4].v;
      }
      transpose8(lo);
      transpose8(hi);
      float* x = X + b * 128;
      for (int l = 0; l < 8; ++l) {
        _mm256_storeu_ps(x + 16 * l, lo[l]);
        _mm256_storeu_ps(x + 16 * l + 8, hi[l]);
      }
    }
  });
}

}  // namespace

void inv_small_avx2(index n, index count, const float* A, float* X, int32_t* info) {
  if (n == 4) {
    const index blocks = count / 8;
    inv4_f32_blocks(blocks, A, X, info);
    if (count > blocks * 8) inv_small_lanes_n<F8, 4>(count - blocks * 8, A + blocks * 128, X + blocks * 128, info + blocks * 8);
    return;
  }
  inv_small_lanes<F8>(n, count, A, X, info);
}

void inv_small_avx2(index n, index count, const double* A, double* X, int32_t* info) {
  inv_small_lanes<D4>(n, count, A, X, info);
}

}  // namespace lapis
