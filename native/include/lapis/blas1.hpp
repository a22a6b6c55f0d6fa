// Level-1 BLAS over real and complex scalars, with reference BLAS's argument order:
// n first, then each vector followed by its increment (increments > 0), scalars where
// BLAS puts them: dot(n, x, incx, y, incy), axpy(n, alpha, x, incx, y, incy), scal(n,
// alpha, x, incx), nrm2(n, x, incx), iamax(n, x, incx), swap(n, x, incx, y, incy),
// rot(n, x, incx, y, incy, c, s).
//
// Plain C++ built with the portable flags: kernels that need a vectorised variant of one
// of these (the SVD's Jacobi rotations, the LU's fused rank-4 updates) keep their own.
// Unit-stride sums use independent partial sums: one running sum is a chain of dependent
// adds (latency bound), and the compiler may not reorder it into vector registers.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

#include "lapis/common.hpp"

namespace lapis::blas1 {

// a·b without std::complex's operator*, which checks for Inf/NaN recovery (a libcall in
// GCC) and keeps the loops below from vectorising.
template <class T>
inline T mul(T a, T b) {
  if constexpr (is_complex_v<T>)
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else
    return a * b;
}

// Σ conj(x_i)·y_i (BLAS dotc; dot for real T).
template <class T>
T dotc(index n, const T* x, index incx, const T* y, index incy) {
  using R = real_t<T>;
  if (incx != 1 || incy != 1) {
    T s{};
    for (index i = 0; i < n; ++i) s += mul(conj(x[i * incx]), y[i * incy]);
    return s;
  }
  if constexpr (!is_complex_v<T>) {
    R s[8] = {};
    index i = 0;
    for (; i + 8 <= n; i += 8)
      for (int l = 0; l < 8; ++l) s[l] += x[i + l] * y[i + l];
    R t = 0;
    for (; i < n; ++i) t += x[i] * y[i];
    return (((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]))) + t;
  } else {
    const R* a = reinterpret_cast<const R*>(x);
    const R* b = reinterpret_cast<const R*>(y);
    R re[4] = {}, im[4] = {};
    index i = 0;
    for (; i + 4 <= n; i += 4)
      for (int l = 0; l < 4; ++l) {
        const R ar = a[2 * (i + l)], ai = a[2 * (i + l) + 1], br = b[2 * (i + l)], bi = b[2 * (i + l) + 1];
        re[l] += ar * br + ai * bi;
        im[l] += ar * bi - ai * br;
      }
    R tr = 0, ti = 0;
    for (; i < n; ++i) {
      const R ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1];
      tr += ar * br + ai * bi;
      ti += ar * bi - ai * br;
    }
    return T(((re[0] + re[2]) + (re[1] + re[3])) + tr, ((im[0] + im[2]) + (im[1] + im[3])) + ti);
  }
}

// Σ x_i·y_i, unconjugated (BLAS dotu; dot for real T).
template <class T>
T dotu(index n, const T* x, index incx, const T* y, index incy) {
  if constexpr (!is_complex_v<T>) {
    return dotc(n, x, incx, y, incy);
  } else {
    T s{};
    for (index i = 0; i < n; ++i) s += mul(x[i * incx], y[i * incy]);
    return s;
  }
}

// y ← alpha·x + y.
template <class T>
void axpy(index n, T alpha, const T* x, index incx, T* y, index incy) {
  if (incx == 1 && incy == 1) {
    for (index i = 0; i < n; ++i) y[i] += mul(alpha, x[i]);
  } else {
    for (index i = 0; i < n; ++i) y[i * incy] += mul(alpha, x[i * incx]);
  }
}

// x ← alpha·x (alpha real or of x's type).
template <class T, class S>
void scal(index n, S alpha, T* x, index incx) {
  for (index i = 0; i < n; ++i) x[i * incx] *= alpha;
}

// x ↔ y.
template <class T>
void swap(index n, T* x, index incx, T* y, index incy) {
  if (incx == 1 && incy == 1) {
    std::swap_ranges(x, x + n, y);
  } else {
    for (index i = 0; i < n; ++i) std::swap(x[i * incx], y[i * incy]);
  }
}

// [x, y] ← [c·x + s·y, −conj(s)·x + c·y] (BLAS rot / LAPACK rot with a complex s).
template <class T>
void rot(index n, T* x, index incx, T* y, index incy, real_t<T> c, T s) {
  for (index i = 0; i < n; ++i) {
    const T a = x[i * incx], b = y[i * incy];
    x[i * incx] = c * a + mul(s, b);
    y[i * incy] = c * b - mul(conj(s), a);
  }
}

// First index of the largest |re| + |im| (BLAS icamax's measure; |x| for real T); −1 when n = 0.
template <class T>
index iamax(index n, const T* x, index incx) {
  if (n <= 0) return -1;
  index best = 0;
  real_t<T> m = abs1(x[0]);
  for (index i = 1; i < n; ++i) {
    const real_t<T> a = abs1(x[i * incx]);
    if (a > m) {
      m = a;
      best = i;
    }
  }
  return best;
}

// ‖x‖₂ without spurious over/underflow (as LAPACK's nrm2): one plain pass, and a pass
// scaled by a power of two only when the largest entry is near the ends of the exponent
// range. NaN in → NaN out.
template <class T>
real_t<T> nrm2(index n, const T* x, index incx) {
  using R = real_t<T>;
  // First pass over the real components with independent partial sums and maxima, so it
  // runs in vector registers. A NaN anywhere makes the sum NaN (squares are never
  // negative, so Inf alone cannot); the maxima only steer the scaling below.
  constexpr int kL = 8;
  R sp[kL] = {}, mp[kL] = {};
  const R* xr = reinterpret_cast<const R*>(x);
  constexpr index kc = is_complex_v<T> ? 2 : 1;
  const index len = n * kc;
  index i = 0;
  if (incx == 1) {
    for (; i + kL <= len; i += kL)
      for (int l = 0; l < kL; ++l) {
        const R a = std::abs(xr[i + l]);
        sp[l] += a * a;
        mp[l] = mp[l] < a ? a : mp[l];
      }
  }
  R s = 0, mx = 0;
  for (; i < len; ++i) {
    const R a = std::abs(xr[(i / kc) * incx * kc + i % kc]);
    s += a * a;
    mx = mx < a ? a : mx;
  }
  s += ((sp[0] + sp[4]) + (sp[1] + sp[5])) + ((sp[2] + sp[6]) + (sp[3] + sp[7]));
  for (int l = 0; l < kL; ++l) mx = mx < mp[l] ? mp[l] : mx;
  if (s != s) return std::numeric_limits<R>::quiet_NaN();
  // The plain sum is exact enough unless squares over- or underflow.
  const R small = std::sqrt(smallest_normal<T>() / eps<T>());
  const R big = std::sqrt(std::numeric_limits<R>::max()) / R(4 * (n + 1));
  if (mx == 0) return 0;
  if (std::isinf(mx)) return mx;
  if (mx > small && mx < big) return std::sqrt(s);
  // Scale by a power of two near 1/mx: exact, and 1/mx itself overflows when mx is
  // subnormal (float: 2^-e is finite only for e > -128, not for the -1000 of double).
  const int e = std::ilogb(mx);
  const bool direct = e > -std::numeric_limits<R>::max_exponent && e < std::numeric_limits<R>::max_exponent;
  const R inv = direct ? std::ldexp(R(1), -e) : R(1);
  auto sc = [&](R v) { return direct ? v * inv : std::ldexp(v, -e); };
  s = 0;
  for (index j = 0; j < n; ++j) {
    const T v = x[j * incx];
    if constexpr (is_complex_v<T>) {
      const R a = sc(v.real()), b = sc(v.imag());
      s += a * a + b * b;
    } else {
      const R a = sc(v);
      s += a * a;
    }
  }
  return std::ldexp(std::sqrt(s), e);
}

}  // namespace lapis::blas1
