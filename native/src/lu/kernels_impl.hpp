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
    if (!(v <= best)) {  // larger, or NaN
      if (v != v) return i;
      best = v;
      p = i;
    }
  }
  return p;
}

template <class T> inline void swap_rows(index n, T* __restrict x, T* __restrict y) {
  for (index j = 0; j < n; ++j) { T t = x[j]; x[j] = y[j]; y[j] = t; }
}

// y[0..n) -= l0·x0 + l1·x1 + l2·x2 + l3·x3: four rank-1 updates fused, so y is loaded
// and stored once per four multiply-adds (the plain axpy is store-bound).
template <class T>
inline void axpy4_neg(index n, const T* l, const T* __restrict x0, const T* __restrict x1, const T* __restrict x2,
                      const T* __restrict x3, T* __restrict y) {
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    const R a0 = l[0].real(), b0 = l[0].imag(), a1 = l[1].real(), b1 = l[1].imag();
    const R a2 = l[2].real(), b2 = l[2].imag(), a3 = l[3].real(), b3 = l[3].imag();
    const R* __restrict p0 = reinterpret_cast<const R*>(x0);
    const R* __restrict p1 = reinterpret_cast<const R*>(x1);
    const R* __restrict p2 = reinterpret_cast<const R*>(x2);
    const R* __restrict p3 = reinterpret_cast<const R*>(x3);
    R* __restrict q = reinterpret_cast<R*>(y);
    for (index j = 0; j < n; ++j) {
      R re = q[2 * j], im = q[2 * j + 1];
      re -= a0 * p0[2 * j] - b0 * p0[2 * j + 1]; im -= a0 * p0[2 * j + 1] + b0 * p0[2 * j];
      re -= a1 * p1[2 * j] - b1 * p1[2 * j + 1]; im -= a1 * p1[2 * j + 1] + b1 * p1[2 * j];
      re -= a2 * p2[2 * j] - b2 * p2[2 * j + 1]; im -= a2 * p2[2 * j + 1] + b2 * p2[2 * j];
      re -= a3 * p3[2 * j] - b3 * p3[2 * j + 1]; im -= a3 * p3[2 * j + 1] + b3 * p3[2 * j];
      q[2 * j] = re;
      q[2 * j + 1] = im;
    }
  } else {
    const T l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3];
    for (index j = 0; j < n; ++j) y[j] = y[j] - l0 * x0[j] - l1 * x1[j] - l2 * x2[j] - l3 * x3[j];
  }
}

// Same for two destination rows sharing the four sources (loads of x reused twice).
template <class T>
inline void axpy4x2_neg(index n, const T* l, const T* m, const T* __restrict x0, const T* __restrict x1,
                        const T* __restrict x2, const T* __restrict x3, T* __restrict y, T* __restrict z) {
  if constexpr (is_complex_v<T>) {
    axpy4_neg(n, l, x0, x1, x2, x3, y);
    axpy4_neg(n, m, x0, x1, x2, x3, z);
  } else {
    const T l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3];
    const T m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3];
    for (index j = 0; j < n; ++j) {
      const T a = x0[j], b = x1[j], c = x2[j], d = x3[j];
      y[j] = y[j] - l0 * a - l1 * b - l2 * c - l3 * d;
      z[j] = z[j] - m0 * a - m1 * b - m2 * c - m3 * d;
    }
  }
}

// Unblocked LU of an m×n row-major block (dgetf2), organised in 4-column steps: factor a
// 4-wide panel (pivot search, full-row interchanges, scaling), solve its 4 rows of U to
// the right, then update the trailing rows with one fused rank-4 update per row pair.
// A pivot below the smallest normal number is divided by, never inverted (dgetrf2's
// rule: its reciprocal overflows).
template <class T> int32_t getf2(index m, index n, T* a, index lda, int32_t* ipiv) {
  using R = real_t<T>;
  const R sfmin = std::numeric_limits<R>::min();
  const index mn = m < n ? m : n;
  constexpr index KB = 4;
  int32_t info = 0;
  for (index k0 = 0; k0 < mn; k0 += KB) {
    const index ke = k0 + KB < mn ? k0 + KB : mn;
    index pnext = k0 + iamax_col(m - k0, a + k0 * lda + k0, lda);
    for (index k = k0; k < ke; ++k) {
      T* rowk = a + k * lda;
      const index p = pnext;
      ipiv[k] = static_cast<int32_t>(p + 1);
      const T piv = a[p * lda + k];
      const bool nonzero = piv != T(0);
      if (nonzero) {
        if (p != k) swap_rows(n, rowk, a + p * lda);
      } else if (info == 0) {
        info = static_cast<int32_t>(k + 1);
      }
      // A tiny pivot divides its column up front (rare); otherwise the column is scaled
      // by the reciprocal inside the fused pass (by 1 when the pivot is zero).
      T r = T(1);
      if (nonzero) {
        if (std::abs(piv) < sfmin) for (index i = k + 1; i < m; ++i) a[i * lda + k] /= piv;
        else r = T(1) / piv;
      }
      // One pass over the rows: scale column k, update the rest of the panel, and search
      // the next column's pivot (the first NaN wins, as in iamax_col).
      auto pass = [&](auto wc) {
        constexpr int W = decltype(wc)::value;
        real_t<T> best = -1;
        index pn = k + 1;
        const T* uk = rowk + k + 1;
        for (index i = k + 1; i < m; ++i) {
          T* ai = a + i * lda;
          const T l = mul(ai[k], r);
          ai[k] = l;
          for (int j = 0; j < W; ++j) ai[k + 1 + j] -= mul(l, uk[j]);
          if constexpr (W > 0) {
            const real_t<T> v = abs1(ai[k + 1]);
            if (!(v <= best) && best == best) { best = v; pn = i; }
          }
        }
        return pn;
      };
      switch (ke - k - 1) {
        case 0: pass(std::integral_constant<int, 0>{}); break;
        case 1: pnext = pass(std::integral_constant<int, 1>{}); break;
        case 2: pnext = pass(std::integral_constant<int, 2>{}); break;
        default: pnext = pass(std::integral_constant<int, 3>{}); break;
      }
    }
    const index nr = n - ke;
    if (nr <= 0) continue;
    // U12 = L11⁻¹·A12 on the panel's rows
    for (index p = k0 + 1; p < ke; ++p)
      for (index q = k0; q < p; ++q) axpy_neg(nr, a[p * lda + q], a + q * lda + ke, a + p * lda + ke);
    // A22 -= L21·U12
    if (ke - k0 == KB) {
      const T* u0 = a + k0 * lda + ke;
      const T* u1 = u0 + lda;
      const T* u2 = u1 + lda;
      const T* u3 = u2 + lda;
      index i = ke;
      for (; i + 1 < m; i += 2)
        axpy4x2_neg(nr, a + i * lda + k0, a + (i + 1) * lda + k0, u0, u1, u2, u3, a + i * lda + ke,
                    a + (i + 1) * lda + ke);
      if (i < m) axpy4_neg(nr, a + i * lda + k0, u0, u1, u2, u3, a + i * lda + ke);
    } else {
      for (index i = ke; i < m; ++i)
        for (index q = k0; q < ke; ++q) axpy_neg(nr, a[i * lda + q], a + q * lda + ke, a + i * lda + ke);
    }
  }
  return info;
}

// The same factorization for a narrow, tall panel stored column-major (column j at
// c + j·ldc): the pivot search, the scaling and the fused rank-4 updates all run down
// contiguous columns. The recursive LU packs its leaf panels into this layout, where the
// row-major kernel would touch only a few elements per row.
template <class T> int32_t getf2_cm(index m, index w, T* c, index ldc, int32_t* ipiv) {
  using R = real_t<T>;
  const R sfmin = std::numeric_limits<R>::min();
  const index mn = m < w ? m : w;
  constexpr index KB = 4;
  int32_t info = 0;
  for (index k0 = 0; k0 < mn; k0 += KB) {
    const index ke = k0 + KB < mn ? k0 + KB : mn;
    for (index k = k0; k < ke; ++k) {
      T* col = c + k * ldc;
      const index p = k + iamax_col(m - k, col + k, 1);
      ipiv[k] = static_cast<int32_t>(p + 1);
      const T piv = col[p];
      if (piv != T(0)) {
        if (p != k)
          for (index j = 0; j < w; ++j) { T t = c[j * ldc + k]; c[j * ldc + k] = c[j * ldc + p]; c[j * ldc + p] = t; }
        if (std::abs(piv) >= sfmin) scal(m - k - 1, T(1) / piv, col + k + 1);
        else for (index i = k + 1; i < m; ++i) col[i] /= piv;
      } else if (info == 0) {
        info = static_cast<int32_t>(k + 1);
      }
      for (index j = k + 1; j < ke; ++j) {
        const T u = c[j * ldc + k];
        if (u != T(0)) axpy_neg(m - k - 1, u, col + k + 1, c + j * ldc + k + 1);
      }
    }
    for (index j = ke; j < w; ++j) {
      T* cj = c + j * ldc;
      for (index p = k0 + 1; p < ke; ++p)
        for (index q = k0; q < p; ++q) cj[p] -= mul(c[q * ldc + p], cj[q]);
      if (m > ke) {
        if (ke - k0 == KB) {
          const T* l0 = c + k0 * ldc + ke;
          axpy4_neg(m - ke, cj + k0, l0, l0 + ldc, l0 + 2 * ldc, l0 + 3 * ldc, cj + ke);
        } else {
          for (index q = k0; q < ke; ++q) axpy_neg(m - ke, cj[q], c + q * ldc + ke, cj + ke);
        }
      }
    }
  }
  return info;
}

// Two rows of X at once, register-resident over a W-wide column strip:
//   y0 -= Σ_j t0[j]·x_j,  y1 -= Σ_j t1[j]·x_j   over the source rows j in [j0, j1)
// Each source row strip is loaded once for both destination rows. Real types only.
template <class T, int W>
inline void strip2(index j0, index j1, const T* t0, const T* t1, const T* b, index ldb, index c0, T* y0, T* y1) {
  T acc0[W], acc1[W];
  for (int c = 0; c < W; ++c) { acc0[c] = y0[c0 + c]; acc1[c] = y1[c0 + c]; }
  for (index j = j0; j < j1; ++j) {
    const T l0 = t0[j], l1 = t1[j];
    const T* __restrict x = b + j * ldb + c0;
    for (int c = 0; c < W; ++c) { acc0[c] -= l0 * x[c]; acc1[c] -= l1 * x[c]; }
  }
  for (int c = 0; c < W; ++c) { y0[c0 + c] = acc0[c]; y1[c0 + c] = acc1[c]; }
}

// Solves T·X = B in place for a row-major n×n triangular T with row stride ldt (only the
// named triangle is read; unit: the diagonal is taken as 1 and never read), B n×k
// row-major (ldb). The diagonal is applied as a reciprocal when that is safe and by
// division when the reciprocal would overflow (|t_ii| below the smallest normal number).
template <class T> void trsv_rows(bool upper, bool unit, index n, index k, const T* t, index ldt, T* b, index ldb) {
  using R = real_t<T>;
  const R sfmin = std::numeric_limits<R>::min();
  auto diag = [&](index i) {
    if (unit) return;
    const T d = t[i * ldt + i];
    T* bi = b + i * ldb;
    if (std::abs(d) >= sfmin) scal(k, T(1) / d, bi);
    else for (index j = 0; j < k; ++j) bi[j] /= d;
  };
  // row i -= Σ_{j in [j0, j1)} t_ij · row j (fused by four)
  auto update = [&](index i, index j0, index j1, index c0, index c1) {
    T* bi = b + i * ldb + c0;
    const T* ti = t + i * ldt;
    const index w = c1 - c0;
    index j = j0;
    for (; j + 4 <= j1; j += 4)
      axpy4_neg(w, ti + j, b + j * ldb + c0, b + (j + 1) * ldb + c0, b + (j + 2) * ldb + c0, b + (j + 3) * ldb + c0, bi);
    for (; j < j1; ++j) axpy_neg(w, ti[j], b + j * ldb + c0, bi);
  };
  if constexpr (!is_complex_v<T>) {
    // Real: pairs of rows accumulate in registers over W-wide strips; a leftover
    // narrower strip takes the fused row updates.
    constexpr int W = 128 / sizeof(T);  // 4 AVX registers per row
    const index kw = k / W * W;
    if (kw > 0) {
      if (!upper) {
        index i = 0;
        for (; i + 1 < n; i += 2) {
          for (index c0 = 0; c0 < kw; c0 += W)
            strip2<T, W>(0, i, t + i * ldt, t + (i + 1) * ldt, b, ldb, c0, b + i * ldb, b + (i + 1) * ldb);
          if (kw < k) { update(i, 0, i, kw, k); update(i + 1, 0, i, kw, k); }
          diag(i);
          axpy_neg(k, t[(i + 1) * ldt + i], b + i * ldb, b + (i + 1) * ldb);
          diag(i + 1);
        }
        if (i < n) { update(i, 0, i, 0, k); diag(i); }
      } else {
        index i = n - 1;
        for (; i >= 1; i -= 2) {
          for (index c0 = 0; c0 < kw; c0 += W)
            strip2<T, W>(i + 1, n, t + i * ldt, t + (i - 1) * ldt, b, ldb, c0, b + i * ldb, b + (i - 1) * ldb);
          if (kw < k) { update(i, i + 1, n, kw, k); update(i - 1, i + 1, n, kw, k); }
          diag(i);
          axpy_neg(k, t[(i - 1) * ldt + i], b + i * ldb, b + (i - 1) * ldb);
          diag(i - 1);
        }
        if (i == 0) { update(0, 1, n, 0, k); diag(0); }
      }
      return;
    }
  }
  if (!upper) {
    for (index i = 0; i < n; ++i) { update(i, 0, i, 0, k); diag(i); }
  } else {
    for (index i = n - 1; i >= 0; --i) { update(i, i + 1, n, 0, k); diag(i); }
  }
}

// A·X = B for one small matrix (n = N ≤ 16) with everything in fixed-size local arrays:
// no scratch allocation, loops the compiler unrolls. Same pivoting and tiny-pivot rules as
// getf2. Returns info (X untouched when info > 0).
template <class T, int N> int32_t solve_fixed(index k, const T* A, const T* B, T* X) {
  using R = real_t<T>;
  const R sfmin = std::numeric_limits<R>::min();
  T a[N][N];
  int perm[N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) a[i][j] = A[i * N + j];
  for (int kk = 0; kk < N; ++kk) {
    int p = kk;
    R best = abs1(a[kk][kk]);
    if (best == best) {
      for (int i = kk + 1; i < N; ++i) {
        const R v = abs1(a[i][kk]);
        if (v != v) { p = i; break; }
        if (v > best) { best = v; p = i; }
      }
    }
    perm[kk] = p;
    if (p != kk)
      for (int j = 0; j < N; ++j) { T t = a[kk][j]; a[kk][j] = a[p][j]; a[p][j] = t; }
    const T piv = a[kk][kk];
    if (piv == T(0)) return kk + 1;
    if (std::abs(piv) >= sfmin) {
      const T r = T(1) / piv;
      for (int i = kk + 1; i < N; ++i) a[i][kk] = mul(a[i][kk], r);
    } else {
      for (int i = kk + 1; i < N; ++i) a[i][kk] /= piv;
    }
    for (int i = kk + 1; i < N; ++i) {
      const T l = a[i][kk];
      for (int j = kk + 1; j < N; ++j) a[i][j] -= mul(l, a[kk][j]);
    }
  }
  if (k == 1) {
    // one right-hand side: the vector lives in registers
    T x[N];
    for (int i = 0; i < N; ++i) x[i] = B[i];
    for (int i = 0; i < N; ++i)
      if (perm[i] != i) { T t = x[i]; x[i] = x[perm[i]]; x[perm[i]] = t; }
    for (int i = 1; i < N; ++i) {
      T s = x[i];
      for (int j = 0; j < i; ++j) s -= mul(a[i][j], x[j]);
      x[i] = s;
    }
    for (int i = N - 1; i >= 0; --i) {
      T s = x[i];
      for (int j = i + 1; j < N; ++j) s -= mul(a[i][j], x[j]);
      const T d = a[i][i];
      x[i] = std::abs(d) >= sfmin ? mul(s, T(1) / d) : s / d;
    }
    for (int i = 0; i < N; ++i) X[i] = x[i];
    return 0;
  }
  if (X != B)
    for (index i = 0; i < N * k; ++i) X[i] = B[i];
  for (int i = 0; i < N; ++i)
    if (perm[i] != i) swap_rows(k, X + i * k, X + perm[i] * k);
  for (int i = 1; i < N; ++i)
    for (int j = 0; j < i; ++j) axpy_neg(k, a[i][j], X + j * k, X + i * k);
  for (int i = N - 1; i >= 0; --i) {
    for (int j = i + 1; j < N; ++j) axpy_neg(k, a[i][j], X + j * k, X + i * k);
    const T d = a[i][i];
    if (std::abs(d) >= sfmin) scal(k, T(1) / d, X + i * k);
    else for (index c = 0; c < k; ++c) X[i * k + c] /= d;
  }
  return 0;
}

template <class T> int32_t solve_small(index n, index k, const T* A, const T* B, T* X) {
  switch (n) {
    case 1: return solve_fixed<T, 1>(k, A, B, X);
    case 2: return solve_fixed<T, 2>(k, A, B, X);
    case 3: return solve_fixed<T, 3>(k, A, B, X);
    case 4: return solve_fixed<T, 4>(k, A, B, X);
    case 5: return solve_fixed<T, 5>(k, A, B, X);
    case 6: return solve_fixed<T, 6>(k, A, B, X);
    case 7: return solve_fixed<T, 7>(k, A, B, X);
    case 8: return solve_fixed<T, 8>(k, A, B, X);
    case 9: return solve_fixed<T, 9>(k, A, B, X);
    case 10: return solve_fixed<T, 10>(k, A, B, X);
    case 11: return solve_fixed<T, 11>(k, A, B, X);
    case 12: return solve_fixed<T, 12>(k, A, B, X);
    case 13: return solve_fixed<T, 13>(k, A, B, X);
    case 14: return solve_fixed<T, 14>(k, A, B, X);
    case 15: return solve_fixed<T, 15>(k, A, B, X);
    case 16: return solve_fixed<T, 16>(k, A, B, X);
    default: return -2;
  }
}

