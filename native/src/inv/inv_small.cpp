// Straightforward Gauss–Jordan with partial pivoting per matrix; correct for every n ≤ 4.
// (The batched SIMD kernel replaces this body; the contract in inv_small.hpp stays.)
#include "lapis/inv_small.hpp"

#include <cmath>
#include <limits>

#include "lapis/parallel.hpp"

namespace lapis {

template <class T>
static int32_t inv_one(index n, const T* a, T* x) {
  T w[4][8];
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) {
      w[i][j] = a[i * n + j];
      w[i][n + j] = i == j ? T(1) : T(0);
      if (!is_finite(w[i][j])) {
        for (index k = 0; k < n * n; ++k) x[k] = T(std::numeric_limits<real_t<T>>::quiet_NaN());
        return -1;
      }
    }
  for (index c = 0; c < n; ++c) {
    index p = c;
    for (index r = c + 1; r < n; ++r) if (abs1(w[r][c]) > abs1(w[p][c])) p = r;
    if (w[p][c] == T(0)) {
      for (index k = 0; k < n * n; ++k) x[k] = T(std::numeric_limits<real_t<T>>::quiet_NaN());
      return static_cast<int32_t>(c + 1);
    }
    if (p != c) for (index j = 0; j < 2 * n; ++j) std::swap(w[p][j], w[c][j]);
    T piv = w[c][c];
    for (index j = 0; j < 2 * n; ++j) w[c][j] /= piv;
    for (index r = 0; r < n; ++r) {
      if (r == c) continue;
      T f = w[r][c];
      for (index j = 0; j < 2 * n; ++j) w[r][j] -= f * w[c][j];
    }
  }
  for (index i = 0; i < n; ++i) for (index j = 0; j < n; ++j) x[i * n + j] = w[i][n + j];
  return 0;
}

template <class T>
void inv_small_batched(index n, index count, const T* A, T* X, int32_t* info) {
  parallel_for(count, 4096, [&](index b0, index b1) {
    for (index b = b0; b < b1; ++b) info[b] = inv_one(n, A + b * n * n, X + b * n * n);
  });
}

template void inv_small_batched<float>(index, index, const float*, float*, int32_t*);
template void inv_small_batched<double>(index, index, const double*, double*, int32_t*);
template void inv_small_batched<std::complex<float>>(index, index, const std::complex<float>*, std::complex<float>*, int32_t*);
template void inv_small_batched<std::complex<double>>(index, index, const std::complex<double>*, std::complex<double>*, int32_t*);

}  // namespace lapis
