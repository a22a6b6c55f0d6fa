// AVX-512 lanes for the batched tiny inverse: 16 float / 8 double matrices per register,
// twice the AVX2 width. The build applies no ISA flags to this file (the addon targets
// x86-64-v3 at most): the target is set for the functions below, and inv_small.cpp only
// calls in after a CPUID check (LAPIS_KERNELS=avx2 or =portable narrows the choice). Same
// operations per lane as the AVX2 build, so the two give the same bits.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <utility>  // (before the target region: library inline code keeps the baseline ISA)

#include "lapis/common.hpp"
#include "lapis/parallel.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#include <immintrin.h>

#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 flags the _mm512_undefined_ps() inside its own unpack/shuffle intrinsics.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma")
#endif

#include "inv_small_lanes.hpp"

namespace lapis {
namespace {

struct F16 {
  using T = float;
  using M = __mmask16;
  static constexpr int L = 16;
  __m512 v;
  static F16 load(const float* p) { return {_mm512_load_ps(p)}; }
  static void store(float* p, F16 a) { _mm512_store_ps(p, a.v); }
  static F16 splat(float x) { return {_mm512_set1_ps(x)}; }
  static F16 add(F16 a, F16 b) { return {_mm512_add_ps(a.v, b.v)}; }
  static F16 mul(F16 a, F16 b) { return {_mm512_mul_ps(a.v, b.v)}; }
  static F16 div(F16 a, F16 b) { return {_mm512_div_ps(a.v, b.v)}; }
  static F16 fnmadd(F16 a, F16 b, F16 c) { return {_mm512_fnmadd_ps(a.v, b.v, c.v)}; }
  static F16 abs(F16 a) { return {_mm512_abs_ps(a.v)}; }
  static M gt(F16 a, F16 b) { return _mm512_cmp_ps_mask(a.v, b.v, _CMP_GT_OQ); }
  static M lt(F16 a, F16 b) { return _mm512_cmp_ps_mask(a.v, b.v, _CMP_LT_OQ); }
  static M eq(F16 a, F16 b) { return _mm512_cmp_ps_mask(a.v, b.v, _CMP_EQ_OQ); }
  static M ne(F16 a, F16 b) { return _mm512_cmp_ps_mask(a.v, b.v, _CMP_NEQ_UQ); }
  static F16 blend(F16 a, F16 b, M m) { return {_mm512_mask_blend_ps(m, a.v, b.v)}; }
  static unsigned mask_bits(M m) { return static_cast<unsigned>(m); }
};

struct D8 {
  using T = double;
  using M = __mmask8;
  static constexpr int L = 8;
  __m512d v;
  static D8 load(const double* p) { return {_mm512_load_pd(p)}; }
  static void store(double* p, D8 a) { _mm512_store_pd(p, a.v); }
  static D8 splat(double x) { return {_mm512_set1_pd(x)}; }
  static D8 add(D8 a, D8 b) { return {_mm512_add_pd(a.v, b.v)}; }
  static D8 mul(D8 a, D8 b) { return {_mm512_mul_pd(a.v, b.v)}; }
  static D8 div(D8 a, D8 b) { return {_mm512_div_pd(a.v, b.v)}; }
  static D8 fnmadd(D8 a, D8 b, D8 c) { return {_mm512_fnmadd_pd(a.v, b.v, c.v)}; }
  static D8 abs(D8 a) { return {_mm512_abs_pd(a.v)}; }
  static M gt(D8 a, D8 b) { return _mm512_cmp_pd_mask(a.v, b.v, _CMP_GT_OQ); }
  static M lt(D8 a, D8 b) { return _mm512_cmp_pd_mask(a.v, b.v, _CMP_LT_OQ); }
  static M eq(D8 a, D8 b) { return _mm512_cmp_pd_mask(a.v, b.v, _CMP_EQ_OQ); }
  static M ne(D8 a, D8 b) { return _mm512_cmp_pd_mask(a.v, b.v, _CMP_NEQ_UQ); }
  static D8 blend(D8 a, D8 b, M m) { return {_mm512_mask_blend_pd(m, a.v, b.v)}; }
  static unsigned mask_bits(M m) { return static_cast<unsigned>(m); }
};

// 16×16 transpose of float rows r[0..15] in place: pairs, quads (within 128-bit lanes),
// then 128-bit blocks across the register.
inline void transpose16(__m512 (&r)[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // t[4q + 0..3]: rows 4q..4q+3; per 128-bit lane: t[4q]=(a0 b0 a1 b1) t[4q+1]=(a2 b2 a3 b3)
  // t[4q+2]=(c0 d0 c1 d1) t[4q+3]=(c2 d2 c3 d3)
  for (int q = 0; q < 4; ++q) {
    u[4 * q + 0] = _mm512_shuffle_ps(t[4 * q], t[4 * q + 2], 0x44);      // a0 b0 c0 d0
    u[4 * q + 1] = _mm512_shuffle_ps(t[4 * q], t[4 * q + 2], 0xEE);      // a1 b1 c1 d1
    u[4 * q + 2] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0x44);  // a2 b2 c2 d2
    u[4 * q + 3] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0xEE);  // a3 b3 c3 d3
  }
  // u[4q + e] holds, in 128-bit lane k, element 4k + e of rows 4q..4q+3. Output row
  // 4k + e = the lane-k blocks of u[e], u[4 + e], u[8 + e], u[12 + e].
  for (int e = 0; e < 4; ++e) {
    const __m512 a = u[e], b = u[4 + e], c = u[8 + e], d = u[12 + e];
    const __m512 ab0 = _mm512_shuffle_f32x4(a, b, 0x44);  // a.l0 a.l1 b.l0 b.l1
    const __m512 ab1 = _mm512_shuffle_f32x4(a, b, 0xEE);  // a.l2 a.l3 b.l2 b.l3
    const __m512 cd0 = _mm512_shuffle_f32x4(c, d, 0x44);
    const __m512 cd1 = _mm512_shuffle_f32x4(c, d, 0xEE);
    r[0 + e] = _mm512_shuffle_f32x4(ab0, cd0, 0x88);   // a.l0 b.l0 c.l0 d.l0
    r[4 + e] = _mm512_shuffle_f32x4(ab0, cd0, 0xDD);   // a.l1 b.l1 c.l1 d.l1
    r[8 + e] = _mm512_shuffle_f32x4(ab1, cd1, 0x88);   // a.l2 ...
    r[12 + e] = _mm512_shuffle_f32x4(ab1, cd1, 0xDD);  // a.l3 ...
  }
}

// The hot case (4×4 float): 16 matrices are 16 rows of 16 floats; one 16×16 transpose
// turns them into the 16 element lanes without a trip through memory.
void inv4_f32_blocks16(index blocks, const float* A, float* X, int32_t* info) {
  for_pieces(blocks, 64, [&](index b0, index b1) {
    for (index b = b0; b < b1; ++b) {
      const float* a = A + b * 256;
      __m512 r[16];
      for (int l = 0; l < 16; ++l) r[l] = _mm512_loadu_ps(a + 16 * l);
      transpose16(r);
      F16 w[4][8];
      for (int k = 0; k < 16; ++k) w[k / 4][k % 4].v = r[k];
      gauss_jordan_lanes<F16, 4>(w, info + b * 16);
      for (int k = 0; k < 16; ++k) r[k] = w[k / 4][4 + k % 4].v;
      transpose16(r);
      float* x = X + b * 256;
      for (int l = 0; l < 16; ++l) _mm512_storeu_ps(x + 16 * l, r[l]);
    }
  });
}

}  // namespace

void inv_small_avx512(index n, index count, const float* A, float* X, int32_t* info) {
  if (n == 4) {
    const index blocks = count / 16;
    inv4_f32_blocks16(blocks, A, X, info);
    if (count > blocks * 16)
      inv_small_lanes_n<F16, 4>(count - blocks * 16, A + blocks * 256, X + blocks * 256, info + blocks * 16);
    return;
  }
  inv_small_lanes<F16>(n, count, A, X, info);
}

void inv_small_avx512(index n, index count, const double* A, double* X, int32_t* info) {
  inv_small_lanes<D8>(n, count, A, X, info);
}

}  // namespace lapis

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
