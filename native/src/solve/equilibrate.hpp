// Power-of-two equilibration for the square solvers (LAPACK's dgeequb + dgesvx, FACT='E'):
// R·A·C with r_i, c_j powers of two, so the scaling itself is exact and det(A) is
// det(R·A·C) times a known power of two. Only matrices that need it take this path: a
// finite A whose largest entry is near overflow or underflow (scale_class), or whose
// unscaled factors came out non-finite. Internal to native/src.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "lapis/common.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"

namespace lapis::detail {

// LAPACK's SMLNUM = safmin/eps and BIGNUM = 1/SMLNUM (2^∓970 in float64, 2^∓103 in
// float32): beyond them a growth of 1/eps, or a product of two entries, leaves the range.
template <class R> constexpr R equil_small() {
  return std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
}
template <class R> constexpr R equil_big() { return R(1) / equil_small<R>(); }

// max(|re|, |im|): the scale measure (|re| + |im| itself overflows near the top).
template <class T> inline real_t<T> amax1(T x) {
  if constexpr (is_complex_v<T>) return std::max(std::abs(x.real()), std::abs(x.imag()));
  else return std::abs(x);
}

enum class Scale { Ordinary, NonFinite, Extreme };

// One vectorisable pass over a matrix (len entries): NonFinite if it holds NaN/Inf (x·0
// flags them, as all_finite), Extreme if its largest component is nonzero and outside
// [equil_small, equil_big], else Ordinary.
template <class T> Scale scale_class(index len, const T* p) {
  using R = real_t<T>;
  const R* r = reinterpret_cast<const R*>(p);
  const index n = len * static_cast<index>(sizeof(T) / sizeof(R));
  R acc[8] = {0, 0, 0, 0, 0, 0, 0, 0}, mx[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  index i = 0;
  for (; i + 8 <= n; i += 8)
    for (int u = 0; u < 8; ++u) {
      const R v = std::abs(r[i + u]);
      acc[u] += r[i + u] * R(0);
      mx[u] = v > mx[u] ? v : mx[u];
    }
  for (; i < n; ++i) {
    const R v = std::abs(r[i]);
    acc[0] += r[i] * R(0);
    mx[0] = v > mx[0] ? v : mx[0];
  }
  R s = 0, m = 0;
  for (int u = 0; u < 8; ++u) { s += acc[u]; m = std::max(m, mx[u]); }
  if (s != R(0)) return Scale::NonFinite;
  return m > 0 && (m > equil_big<R>() || m < equil_small<R>()) ? Scale::Extreme : Scale::Ordinary;
}

template <class T> inline T ldexp_t(T x, int e) {
  if constexpr (is_complex_v<T>) return T(std::ldexp(x.real(), e), std::ldexp(x.imag(), e));
  else return std::ldexp(x, e);
}

// Whether getrf's factors of an Ordinary (max|a_ij| ≤ 1/SMLNUM) n×n matrix can overflow:
// that needs an element growth above 1/eps, and partial pivoting bounds the growth by
// 2^(n−1) (real) or (1 + √2)^(n−1) (complex, |re| + |im| pivots), so small n skip the
// O(n²) check of the factors.
template <class T> inline bool growth_can_overflow(index n) {
  return n > std::numeric_limits<real_t<T>>::digits / 2;
}

// Binary exponent of the largest component (frexp's: x = f·2^e, f in [0.5, 1)); very
// negative for 0 so that zero entries never decide a maximum.
template <class T> inline int exp_of(T x) {
  const real_t<T> m = amax1(x);
  if (m == 0) return std::numeric_limits<int>::min() / 4;
  int e = 0;
  std::frexp(m, &e);
  return e;
}

// Row and column scale exponents of the n×n row-major A: row i scaled by 2^r[i] has its
// largest entry in [0.5, 1), then column j by 2^c[j] likewise (exponent arithmetic, so
// nothing over- or underflows while the scales are found). Zero rows/columns get 0.
template <class T> void equilibrate_exponents(index n, const T* a, int* r, int* c) {
  const int none = std::numeric_limits<int>::min() / 4;
  for (index i = 0; i < n; ++i) {
    int e = none;
    for (index j = 0; j < n; ++j) e = std::max(e, exp_of(a[i * n + j]));
    r[i] = e == none ? 0 : -e;
  }
  for (index j = 0; j < n; ++j) c[j] = none;
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) {
      const int e = exp_of(a[i * n + j]);
      if (e != none) c[j] = std::max(c[j], e + r[i]);
    }
  for (index j = 0; j < n; ++j) c[j] = c[j] == none ? 0 : -c[j];
}

// s = R·A·C (n×n, row-major).
template <class T> void equilibrated_copy(index n, const T* a, const int* r, const int* c, T* s) {
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) s[i * n + j] = ldexp_t(a[i * n + j], r[i] + c[j]);
}

// A·X = B through R·A·C: Y solves (R·A·C)·Y = R·B·2^s (s per column of B, chosen so the
// scaled right-hand side peaks near 1), X = C·Y·2^−s. Returns getrf's info (X untouched
// when it is not 0).
template <class T>
int32_t solve_equilibrated(index n, index k, const T* a, const T* b, T* x, int threads) {
  std::vector<int> r(static_cast<size_t>(n)), c(static_cast<size_t>(n)), s(static_cast<size_t>(k));
  std::vector<T> lu(static_cast<size_t>(n * n)), y(static_cast<size_t>(n * k));
  std::vector<int32_t> piv(static_cast<size_t>(n));
  equilibrate_exponents(n, a, r.data(), c.data());
  equilibrated_copy(n, a, r.data(), c.data(), lu.data());
  const int32_t info = getrf(n, n, lu.data(), n, piv.data(), threads);
  if (info != 0) return info;
  const int none = std::numeric_limits<int>::min() / 4;
  for (index j = 0; j < k; ++j) {
    int e = none;
    for (index i = 0; i < n; ++i) {
      const int ei = exp_of(b[i * k + j]);
      if (ei != none) e = std::max(e, ei + r[i]);
    }
    s[j] = e == none ? 0 : -e;
  }
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < k; ++j) y[i * k + j] = ldexp_t(b[i * k + j], r[i] + s[j]);
  getrs(Op::None, n, k, lu.data(), n, piv.data(), y.data(), k, threads);
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < k; ++j) x[i * k + j] = ldexp_t(y[i * k + j], c[i] - s[j]);
  return 0;
}

// inv(A) = C·inv(R·A·C)·R. Returns getrf's info (X untouched when it is not 0).
template <class T> int32_t inv_equilibrated(index n, const T* a, T* x, int threads) {
  std::vector<int> r(static_cast<size_t>(n)), c(static_cast<size_t>(n));
  std::vector<T> lu(static_cast<size_t>(n * n)), y(static_cast<size_t>(n * n), T(0));
  std::vector<int32_t> piv(static_cast<size_t>(n));
  equilibrate_exponents(n, a, r.data(), c.data());
  equilibrated_copy(n, a, r.data(), c.data(), lu.data());
  const int32_t info = getrf(n, n, lu.data(), n, piv.data(), threads);
  if (info != 0) return info;
  for (index i = 0; i < n; ++i) y[i * n + i] = T(1);
  getrs(Op::None, n, n, lu.data(), n, piv.data(), y.data(), n, threads);
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) x[i * n + j] = ldexp_t(y[i * n + j], c[i] + r[j]);
  return 0;
}

}  // namespace lapis::detail

namespace lapis::detail {

// info of a finite A whose LU factors are not representable (an entry of U overflows):
// the factors are returned as computed and must not be used; solve/inv/det equilibrate
// instead and are unaffected. −1 stays "A holds NaN or Inf".
inline constexpr int32_t kInfoFactorOverflow = -2;

// getrf of one m×n row-major matrix (in place), guarded at the ends of the range: a
// finite A near overflow or underflow is factored as 2^s·A (a uniform power of two,
// which leaves LAPACK's pivot order and L unchanged) and U is scaled back by 2^−s; then
// info is the first exactly zero diagonal entry of U, or kInfoFactorOverflow when U (or
// L, through growth) holds a non-finite value although A was finite.
template <class T> int32_t getrf_guarded(index m, index n, T* a, int32_t* ipiv, int threads) {
  const Scale cls = scale_class(m * n, a);
  if (cls != Scale::Extreme) {
    const int32_t info = getrf(m, n, a, n, ipiv, threads);
    if (cls == Scale::Ordinary && !all_finite(m * n, a)) return kInfoFactorOverflow;
    return info;
  }
  int e = std::numeric_limits<int>::min() / 4;
  for (index i = 0; i < m * n; ++i) e = std::max(e, exp_of(a[i]));
  for (index i = 0; i < m * n; ++i) a[i] = ldexp_t(a[i], -e);
  getrf(m, n, a, n, ipiv, threads);
  const index mn = std::min(m, n);
  for (index i = 0; i < mn; ++i)
    for (index j = i; j < n; ++j) a[i * n + j] = ldexp_t(a[i * n + j], e);
  if (!all_finite(m * n, a)) return kInfoFactorOverflow;
  for (index i = 0; i < mn; ++i)
    if (a[i * n + i] == T(0)) return static_cast<int32_t>(i + 1);
  return 0;
}

}  // namespace lapis::detail
