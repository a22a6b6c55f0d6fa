// Batched inverse: n ≤ 4 through the closed-form/batched kernel (inv_small.hpp); larger
// n by LU and a solve against the identity, with the same info contract.
#include <cstring>
#include <limits>
#include <vector>

#include "lapis/inv_small.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"
#include "../solve/equilibrate.hpp"
#include "lapis/parallel.hpp"

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
    // The n ≤ 4 kernels do not scale: matrices near overflow/underflow are redone through
    // R·A·C (real lanes flag them in info; complex matrices are classified here).
    parallel_for(count, 4096, [&](index b0, index b1) {
      for (index b = b0; b < b1; ++b) {
        const T* a = A + b * n * n;
        if constexpr (is_complex_v<T>) {
          if (detail::scale_class(n * n, a) != detail::Scale::Extreme) continue;
        } else {
          if (info[b] != kInvInfoEquilibrate) continue;
        }
        T* x = X + b * n * n;
        info[b] = detail::inv_equilibrated(n, a, x, 1);
        if (info[b] != 0)
          for (index i = 0; i < n * n; ++i) x[i] = nan_value<T>();
      }
    });
    return;
  }
  const double flops = 8.0 / 3.0 * n * n * n;
  for_each_item(count, flops, [&](index b, int threads) {
    const T* a = A + b * n * n;
    T* x = X + b * n * n;
    const T nan = nan_value<T>();
    const detail::Scale cls = detail::scale_class(n * n, a);
    if (cls == detail::Scale::NonFinite) {
      info[b] = -1;
      for (index i = 0; i < n * n; ++i) x[i] = nan;
      return;
    }
    thread_local std::vector<T> lu;
    thread_local std::vector<int32_t> piv;
    int32_t st = 0;
    bool scaled = cls == detail::Scale::Extreme;
    if (!scaled) {
      lu.assign(a, a + n * n);
      piv.resize(static_cast<size_t>(n));
      st = getrf(n, n, lu.data(), n, piv.data(), threads);
      scaled = detail::growth_can_overflow<T>(n) && !all_finite(n * n, lu.data());  // growth overflowed
    }
    if (scaled) {
      info[b] = detail::inv_equilibrated(n, a, x, threads);
      if (info[b] != 0)
        for (index i = 0; i < n * n; ++i) x[i] = nan;
      return;
    }
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
