// Unblocked inner kernels of LU and TRSM. This file is included twice, inside two
// namespaces: once compiled portably (kernels_portable.cpp) and once with AVX2+FMA
// (kernels_avx2.cpp); kernels.hpp picks one at run time. No includes here: the including
// file brings the headers in before opening its namespace.
//
// Everything is row-major with a leading dimension; the inner loops run along rows so
// they are contiguous and vectorise.

// Plain complex product: std::complex's operator* checks for NaN results and calls a
// library routine (C99 Annex G), which blocks vectorisation of the hot loops. Inf·finite
// corner cases are not worth that here: NaN/Inf inputs are reported before the kernels.
template <class T> inline T mul(T a, T b) { return a * b; }
template <class R> inline std::complex<R> mul(std::complex<R> a, std::complex<R> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// y[0..n) -= s · x[0..n)
template <class T> inline void axpy_neg(index n, T s, const T* __restrict x, T* __restrict y) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    const R sr = s.real(), si = s.imag();
    const R* xr = reinterpret_cast<const R*>(x);
    R* yr = reinterpret_cast<R*>(y);
    for (index j = 0; j < n; ++j) {
      const R a = xr[2 * j], b = xr[2 * j + 1];
      yr[2 * j] -= sr * a - si * b;
      yr[2 * j + 1] -= sr * b + si * a;
    }
  } else {
    for (index j = 0; j < n; ++j) y[j] -= s * x[j];
  }
}

// y[0..n) *= s
template <class T> inline void scal(index n, T s, T* __restrict y) {
  if constexpr (is_complex_v<T>) {
    for (index j = 0; j < n; ++j) y[j] = mul(y[j], s);
  } else {
    for (index j = 0; j < n; ++j) y[j] *= s;
  }
}

// Index of the entry of largest |re| + |im| in column 0 of rows [0, m) (stride lda); a NaN
// wins at once (LAPACK 3.10+'s i?amax), so NaN input spreads into the factors instead of
// being skipped over and leaving finite garbage.
template <class T> inline index iamax_col(index m, const T* a, index lda) {
  index p = 0;
  real_t<T> best = -1;
  for (index i = 0; i < m; ++i) {
    const real_t<T> v = abs1(a[i * lda]);
    if (v != v) return i;
    if (v > best) { best = v; p = i; }
  }
  return p;
}

template <class T> inline void swap_rows(index n, T* __restrict x, T* __restrict y) {
  for (index j = 0; j < n; ++j) { T t = x[j]; x[j] = y[j]; y[j] = t; }
}

// Right-looking unblocked LU of an m×n row-major block (dgetf2 with dgetrf2's rule for
// tiny pivots: a pivot below the smallest normal number is divided by, never inverted,
// since its reciprocal overflows).
template <class T> int32_t getf2(index m, index n, T* a, index lda, int32_t* ipiv) {
  using R = real_t<T>;
  const R sfmin = std::numeric_limits<R>::min();
  const index mn = m < n ? m : n;
  int32_t info = 0;
  for (index k = 0; k < mn; ++k) {
    T* rowk = a + k * lda;
    const index p = k + iamax_col(m - k, rowk + k, lda);
    ipiv[k] = static_cast<int32_t>(p + 1);
    const T piv = a[p * lda + k];
    if (piv != T(0)) {
      if (p != k) swap_rows(n, rowk, a + p * lda);
      if (std::abs(piv) >= sfmin) {
        const T r = T(1) / piv;
        for (index i = k + 1; i < m; ++i) a[i * lda + k] = mul(a[i * lda + k], r);
      } else {
        for (index i = k + 1; i < m; ++i) a[i * lda + k] /= piv;
      }
    } else if (info == 0) {
      info = static_cast<int32_t>(k + 1);
    }
    const index w = n - k - 1;
    if (w > 0) {
      for (index i = k + 1; i < m; ++i) {
        const T l = a[i * lda + k];
        if (l != T(0)) axpy_neg(w, l, rowk + k + 1, a + i * lda + k + 1);
      }
    }
  }
  return info;
}

// Solves T·X = B in place for a packed row-major n×n triangular T (only the named
// triangle is read; unit: the diagonal is taken as 1), B n×k row-major (ldb). The
// diagonal is applied as a reciprocal when that is safe and by division when the
// reciprocal would overflow (|t_ii| below the smallest normal number).
template <class T> void trsv_rows(bool upper, bool unit, index n, index k, const T* t, T* b, index ldb) {
  using R = real_t<T>;
  const R sfmin = std::numeric_limits<R>::min();
  auto diag = [&](index i) {
    if (unit) return;
    const T d = t[i * n + i];
    T* bi = b + i * ldb;
    if (std::abs(d) >= sfmin) scal(k, T(1) / d, bi);
    else for (index j = 0; j < k; ++j) bi[j] /= d;
  };
  if (!upper) {
    for (index i = 0; i < n; ++i) {
      T* bi = b + i * ldb;
      for (index j = 0; j < i; ++j) {
        const T l = t[i * n + j];
        if (l != T(0)) axpy_neg(k, l, b + j * ldb, bi);
      }
      diag(i);
    }
  } else {
    for (index i = n - 1; i >= 0; --i) {
      T* bi = b + i * ldb;
      for (index j = i + 1; j < n; ++j) {
        const T u = t[i * n + j];
        if (u != T(0)) axpy_neg(k, u, b + j * ldb, bi);
      }
      diag(i);
    }
  }
}
