// AVX-512 lanes for the batched tiny inverse: 16 float / 8 double matrices per register,
// twice the AVX2 width. The build applies no ISA flags to this file (the addon targets
// x86-64-v3 at most): the target is set for the functions below, and inv_small.cpp only
// calls in when active_isa() is avx512. Same operations per lane as the AVX2 build, so the
// two give the same bits.
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
#include "lapis/simd.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 flags the _mm512_undefined_ps() inside its own unpack/shuffle intrinsics.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)

#include "inv_small_lanes.hpp"

namespace lapis {
namespace {

using F16 = simd::Pack<simd::Avx512, float>;
using D8 = simd::Pack<simd::Avx512, double>;

// The hot case (4×4 float): 16 matrices are 16 rows of 16 floats; one 16×16 transpose
// turns them into the 16 element lanes without a trip through memory.
void inv4_f32_blocks16(index blocks, const float* A, float* X, int32_t* info) {
  for_pieces(blocks, 64, [&](index b0, index b1) {
    for (index b = b0; b < b1; ++b) {
      const float* a = A + b * 256;
      F16::V r[16];
      for (int l = 0; l < 16; ++l) r[l] = F16::load(a + 16 * l);
      F16::transpose(r);
      F16::V w[4][8];
      for (int k = 0; k < 16; ++k) w[k / 4][k % 4] = r[k];
      gauss_jordan_lanes<F16, 4>(w, info + b * 16);
      for (int k = 0; k < 16; ++k) r[k] = w[k / 4][4 + k % 4];
      F16::transpose(r);
      float* x = X + b * 256;
      for (int l = 0; l < 16; ++l) F16::store(x + 16 * l, r[l]);
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

LAPIS_TARGET_END
#endif
