// Helpers shared by the C++ kernel tests (native/tests/*.cpp): type names for messages,
// random scalars of each type, and long-double references for the error ratios.
#pragma once
#include <complex>
#include <random>
#include <type_traits>

#include "lapis/common.hpp"

namespace lapis_test {

template <class T> struct Info;
template <> struct Info<float> { static constexpr const char* name = "float"; };
template <> struct Info<double> { static constexpr const char* name = "double"; };
template <> struct Info<std::complex<float>> { static constexpr const char* name = "complex<float>"; };
template <> struct Info<std::complex<double>> { static constexpr const char* name = "complex<double>"; };

// One draw per component, real part first (the order is fixed, unlike two draws in one call).
template <class T, class Dist, class Rng>
T draw(Dist& d, Rng& rng) {
  if constexpr (lapis::is_complex_v<T>) {
    using R = typename T::value_type;
    const double re = d(rng), im = d(rng);
    return T(static_cast<R>(re), static_cast<R>(im));
  } else {
    return static_cast<T>(d(rng));
  }
}
template <class T, class Rng>
T uniform(Rng& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return draw<T>(u, rng);
}
template <class T, class Rng>
T normal(Rng& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  return draw<T>(g, rng);
}

// The reference precision of the checks: long double, complex for complex T.
template <class T>
using Wide = std::conditional_t<lapis::is_complex_v<T>, std::complex<long double>, long double>;
template <class T>
Wide<T> wide(T x) {
  if constexpr (lapis::is_complex_v<T>) return Wide<T>(x.real(), x.imag());
  else return static_cast<long double>(x);
}
template <class W>
W wconj(W v) {
  if constexpr (lapis::is_complex_v<W>) return std::conj(v);
  else return v;
}

}  // namespace lapis_test
