// Batched inverse: n ≤ 4 through the closed-form/batched kernel (inv_small.hpp); larger
// n by LU and a solve against the identity, with the same info contract.
#include <cstring>
#include <limits>
#include <vector>

#include "lapis/inv_small.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"

namespace lapis {

template <class T>
void inv_batched(index count, index n, const T* A, T* X, int32_t* info) {
  if (count <= 0) return;
  if (n == 0) {
    for (index b = 0; b < count; ++b) info[b] = 0;
    return;
  }
  if (n <= 4) {
    inv_small_batched<T>(n, count, A, X, info);
    return;
  }
  const double flops = 8.0 / 3.0 * n * n * n;
  for_each_item(count, flops, [&](index b, int threads) {
    const T* a = A + b * n * n;
    T* x = X + b * n * n;
    const T nan = nan_value<T>();
    if (!all_finite(n * n, a)) {
      info[b] = -1;
      for (index i = 0; i < n * n; ++i) x[i] = nan;
      return;
    }
    thread_local std::vector<T> lu;
    thread_local std::vector<int32_t> piv;
    lu.assign(a, a + n * n);
    piv.resize(static_cast<size_t>(n));
    const int32_t st = getrf(n, n, lu.data(), n, piv.data(), threads);
    info[b] = st;
    if (st != 0) {
      for (index i = 0; i < n * n; ++i) x[i] = nan;
      return;
    }
    for (index i = 0; i < n * n; ++i) x[i] = T(0);
    for (index i = 0; i < n; ++i) x[i * n + i] = T(1);
    getrs(Op::None, n, n, lu.data(), n, piv.data(), x, n, threads);
  });
}

template void inv_batched<float>(index, index, const float*, float*, int32_t*);
template void inv_batched<double>(index, index, const double*, double*, int32_t*);
template void inv_batched<std::complex<float>>(index, index, const std::complex<float>*, std::complex<float>*, int32_t*);
template void inv_batched<std::complex<double>>(index, index, const std::complex<double>*, std::complex<double>*,
                                                int32_t*);

}  // namespace lapis
