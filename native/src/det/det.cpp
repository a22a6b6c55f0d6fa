// Determinants from a partial-pivoted LU: det = (−1)^(interchanges) · ∏ u_ii. The product
// is kept as mantissa · 2^exponent (renormalised at each step), so it overflows or
// underflows only if the determinant itself does; log|det| is a sum of logs.
#include "lapis/det.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "lapis/lu.hpp"
#include "lapis/solve.hpp"
#include "../solve/equilibrate.hpp"

namespace lapis {

template <class T>
void slogdet_batched(index count, index n, const T* A, T* sign, real_t<T>* logabs, T* det) {
  using R = real_t<T>;
  const double flops = 2.0 / 3.0 * n * n * n;
  for_each_item(count, flops, [&](index b, int threads) {
    const T* a = A + b * n * n;
    const R nan = std::numeric_limits<R>::quiet_NaN();
    const detail::Scale cls = detail::scale_class(n * n, a);
    if (cls == detail::Scale::NonFinite) {
      sign[b] = nan_value<T>();
      logabs[b] = nan;
      if (det) det[b] = nan_value<T>();
      return;
    }
    thread_local std::vector<T> lu;
    thread_local std::vector<int32_t> piv;
    thread_local std::vector<int> rs, cs;
    lu.assign(a, a + n * n);
    piv.resize(static_cast<size_t>(n));
    int32_t st = 0;
    bool scaled = cls == detail::Scale::Extreme;
    if (!scaled) {
      st = getrf(n, n, lu.data(), n, piv.data(), threads);
      scaled = detail::growth_can_overflow<T>(n) && !all_finite(n * n, lu.data());  // growth overflowed
    }
    // det(A) = det(R·A·C)·2^−(Σr + Σc): exact, the scales being powers of two.
    long long shift = 0;
    if (scaled) {
      rs.resize(static_cast<size_t>(n));
      cs.resize(static_cast<size_t>(n));
      detail::equilibrate_exponents(n, a, rs.data(), cs.data());
      detail::equilibrated_copy(n, a, rs.data(), cs.data(), lu.data());
      st = getrf(n, n, lu.data(), n, piv.data(), threads);
      for (index i = 0; i < n; ++i) shift -= static_cast<long long>(rs[i]) + cs[i];
    }
    if (st != 0) {
      sign[b] = T(0);
      logabs[b] = -std::numeric_limits<R>::infinity();
      if (det) det[b] = T(0);
      return;
    }
    T s = T(1);
    for (index i = 0; i < n; ++i) if (piv[i] - 1 != i) s = -s;
    // log|det| accumulated in double even for float inputs.
    double la = 0;
    T mant = s;
    long long expo = shift;
    la += static_cast<double>(shift) * 0.69314718055994530942;
    for (index i = 0; i < n; ++i) {
      const T u = lu[i * n + i];
      const R au = std::abs(u);
      la += std::log(static_cast<double>(au));
      s = s * (u / au);
      mant = mant * u;
      // renormalise: keep the largest component's magnitude in [0.5, 1)
      R big;
      if constexpr (is_complex_v<T>) big = std::max(std::abs(mant.real()), std::abs(mant.imag()));
      else big = std::abs(mant);
      int e = 0;
      std::frexp(big, &e);
      if (e != 0) {
        if constexpr (is_complex_v<T>) mant = T(std::ldexp(mant.real(), -e), std::ldexp(mant.imag(), -e));
        else mant = std::ldexp(mant, -e);
        expo += e;
      }
    }
    if constexpr (is_complex_v<T>) {
      const R as = std::abs(s);  // rounding drift over many unit factors
      s = s / as;
    }
    sign[b] = s;
    logabs[b] = static_cast<R>(la);
    if (det) {
      const int e = static_cast<int>(std::max<long long>(std::min<long long>(expo, 1 << 20), -(1 << 20)));
      if constexpr (is_complex_v<T>) det[b] = T(std::ldexp(mant.real(), e), std::ldexp(mant.imag(), e));
      else det[b] = std::ldexp(mant, e);
    }
  });
  if (n == 0) {
    for (index b = 0; b < count; ++b) {
      sign[b] = T(1);
      logabs[b] = 0;
      if (det) det[b] = T(1);
    }
  }
}

template void slogdet_batched<float>(index, index, const float*, float*, float*, float*);
template void slogdet_batched<double>(index, index, const double*, double*, double*, double*);
template void slogdet_batched<std::complex<float>>(index, index, const std::complex<float>*, std::complex<float>*,
                                                   float*, std::complex<float>*);
template void slogdet_batched<std::complex<double>>(index, index, const std::complex<double>*,
                                                    std::complex<double>*, double*, std::complex<double>*);

}  // namespace lapis
