// Status of batched triangular solves (LAPACK's trtrs): the first exactly zero diagonal
// entry per distinct A, 1-based, and NaN ("not computed") in the failing items' X. O(n)
// per matrix beside the O(n²k) solve; unit-diagonal solves never read the diagonal.
#include <limits>
#include <vector>

#include "lapis/solve.hpp"

namespace lapis {

template <class T>
void trsm_diag_info(bool unit, index count, index n, index k, const T* A, const int32_t* aIdx, index aCount, T* X,
                    int32_t* info) {
  if (unit) {
    for (index b = 0; b < count; ++b) info[b] = 0;
    return;
  }
  std::vector<int32_t> st(static_cast<size_t>(aCount), 0);
  for (index a = 0; a < aCount; ++a) {
    const T* p = A + a * n * n;
    for (index i = 0; i < n; ++i)
      if (p[i * n + i] == T(0)) { st[static_cast<size_t>(a)] = static_cast<int32_t>(i + 1); break; }
  }
  const T nan = nan_value<T>();
  for (index b = 0; b < count; ++b) {
    info[b] = st[static_cast<size_t>(aIdx ? aIdx[b] : b)];
    if (info[b] != 0)
      for (index i = 0; i < n * k; ++i) X[b * n * k + i] = nan;
  }
}

#define LAPIS_INST(T) \
  template void trsm_diag_info<T>(bool, index, index, index, const T*, const int32_t*, index, T*, int32_t*);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
