// AVX2+FMA lanes for the batched tiny inverse: 8 float / 4 double matrices per register.
// Compiled with -mavx2 -mfma (CMakeLists.txt); called only when active_isa() allows AVX2
// (see inv_small.cpp).
#include "inv_small_lanes.hpp"

namespace lapis {
namespace {

using F8 = simd::Pack<simd::Avx2, float>;
using D4 = simd::Pack<simd::Avx2, double>;

// The hot case (4×4 float): 8 matrices are 16 rows of 8 floats; two 8×8 transposes turn
// them into the 16 element lanes without a trip through memory.
void inv4_f32_blocks(index blocks, const float* A, float* X, int32_t* info) {
  for_pieces(blocks, 64, [&](index b0, index b1) {
    for (index b = b0; b < b1; ++b) {
      const float* a = A + b * 128;
      F8::V lo[8], hi[8];
      for (int l = 0; l < 8; ++l) {
        lo[l] = F8::load(a + 16 * l);
        hi[l] = F8::load(a + 16 * l + 8);
      }
      F8::transpose(lo);
      F8::transpose(hi);
      F8::V w[4][8];
      for (int k = 0; k < 8; ++k) {
        w[k / 4][k % 4] = lo[k];
        w[2 + k / 4][k % 4] = hi[k];
      }
      gauss_jordan_lanes<F8, 4>(w, info + b * 8);
      for (int k = 0; k < 8; ++k) {
        lo[k] = w[k / 4][4 + k % 4];
        hi[k] = w[2 + k / 4][4 + k % 4];
      }
      F8::transpose(lo);
      F8::transpose(hi);
      float* x = X + b * 128;
      for (int l = 0; l < 8; ++l) {
        F8::store(x + 16 * l, lo[l]);
        F8::store(x + 16 * l + 8, hi[l]);
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
