// Bidiagonal route to the singular values: gebrd (labrd panels, trailing update in GEMM)
// and Demmel–Kahan bdsqr without vectors; with vectors, bdsdc and the back-transforms.
// See bidiag.hpp and docs/svd.md.
#include "bidiag.hpp"

#include "bdsdc.hpp"
#include "jacobi_kernels.hpp"
#include "plane.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "../qr/qr_internal.hpp"
#include "lapis/blas1.hpp"
#include "lapis/gemm.hpp"
#include "lapis/qr.hpp"

namespace lapis::svd_detail {
namespace {

// Column-major r×c block of p at (i, j), leading dimension ld.
template <class T>
MatRef<T> cm(const T* p, index ld, index i, index j, index r, index c) {
  return MatRef<T>{p + i + j * ld, r, c, 1, ld, false};
}

// Mᴴ (Mᵀ for real T, which keeps the real GEMM off its conjugating paths).
template <class T>
MatRef<T> adj(MatRef<T> M) {
  if constexpr (is_complex_v<T>) return M.h();
  else return M.t();
}

// y ← alpha·M·x̃ + beta·y (x, y strided vectors; x̃ = conj(x) when conjx); M may be empty.
template <class T>
void mv(T alpha, MatRef<T> M, const T* x, index incx, T beta, T* y, index incy, int threads, bool conjx = false) {
  if (M.rows <= 0) return;
  if (M.cols <= 0) {
    if (beta != T(1))
      for (index i = 0; i < M.rows; ++i) y[i * incy] = beta == T(0) ? T(0) : beta * y[i * incy];
    return;
  }
  gemm<T>(alpha, M, MatRef<T>{x, M.cols, 1, incx, 1, conjx}, beta, MatMut<T>{y, M.rows, 1, incy, 1}, threads);
}

// Conjugates n entries at stride inc (LAPACK lacgv); nothing for real T.
template <class T>
void lacgv(index n, T* x, index inc) {
  if constexpr (is_complex_v<T>)
    for (index i = 0; i < n; ++i) x[i * inc] = std::conj(x[i * inc]);
}

// LAPACK labrd (zlabrd for complex T) for m ≥ n: reduces the first nb rows and columns
// of the m×n column-major a to real bidiagonal form, returning X (m×nb) and Y (n×nb) for
// the trailing update A ← A − V·Yᴴ − X·Uᴴ, where V (columns) and Uᴴ (rows: the conjugated
// u, as zgebrd stores them) are the reflectors left in a.
template <class T>
void labrd(index m, index n, index nb, T* a, index lda, real_t<T>* d, real_t<T>* e, T* tauq, T* taup, T* X,
           index ldx, T* Y, index ldy, int th) {
  constexpr bool cx = is_complex_v<T>;
  auto A = [&](index i, index j) -> T& { return a[i + j * lda]; };
  auto Xe = [&](index i, index j) -> T& { return X[i + j * ldx]; };
  auto Ye = [&](index i, index j) -> T& { return Y[i + j * ldy]; };
  for (index i = 0; i < nb; ++i) {
    // Column i with the previous panel reflectors applied.
    mv<T>(-1, cm<T>(a, lda, i, 0, m - i, i), &Ye(i, 0), ldy, 1, &A(i, i), 1, th, cx);
    mv<T>(-1, cm<T>(X, ldx, i, 0, m - i, i), &A(0, i), 1, 1, &A(i, i), 1, th);
    qr_detail::larfg<T>(A(i, i), &A(std::min(i + 1, m - 1), i), m - i - 1, 1, tauq[i]);
    d[i] = real_part(A(i, i));
    if (i < n - 1) {
      A(i, i) = T(1);
      T* y = &Ye(0, i);
      mv<T>(1, adj(cm<T>(a, lda, i, i + 1, m - i, n - i - 1)), &A(i, i), 1, 0, y + i + 1, 1, th);
      mv<T>(1, adj(cm<T>(a, lda, i, 0, m - i, i)), &A(i, i), 1, 0, y, 1, th);
      mv<T>(-1, cm<T>(Y, ldy, i + 1, 0, n - i - 1, i), y, 1, 1, y + i + 1, 1, th);
      mv<T>(1, adj(cm<T>(X, ldx, i, 0, m - i, i)), &A(i, i), 1, 0, y, 1, th);
      mv<T>(-1, adj(cm<T>(a, lda, 0, i + 1, i, n - i - 1)), y, 1, 1, y + i + 1, 1, th);
      blas1::scal(n - i - 1, tauq[i], y + i + 1, 1);
      // Row i with the panel's reflectors applied, conjugated (the reflector is built
      // from conj(row) so that row·G comes out real, as in zlabrd).
      lacgv(n - i - 1, &A(i, i + 1), lda);
      mv<T>(-1, cm<T>(Y, ldy, i + 1, 0, n - i - 1, i + 1), &A(i, 0), lda, 1, &A(i, i + 1), lda, th, cx);
      mv<T>(-1, adj(cm<T>(a, lda, 0, i + 1, i, n - i - 1)), &Xe(i, 0), ldx, 1, &A(i, i + 1), lda, th, cx);
      qr_detail::larfg<T>(A(i, i + 1), &A(i, std::min(i + 2, n - 1)), n - i - 2, lda, taup[i]);
      e[i] = real_part(A(i, i + 1));
      A(i, i + 1) = T(1);
      T* x = &Xe(0, i);
      mv<T>(1, cm<T>(a, lda, i + 1, i + 1, m - i - 1, n - i - 1), &A(i, i + 1), lda, 0, x + i + 1, 1, th);
      mv<T>(1, adj(cm<T>(Y, ldy, i + 1, 0, n - i - 1, i + 1)), &A(i, i + 1), lda, 0, x, 1, th);
      mv<T>(-1, cm<T>(a, lda, i + 1, 0, m - i - 1, i + 1), x, 1, 1, x + i + 1, 1, th);
      mv<T>(1, cm<T>(a, lda, 0, i + 1, i, n - i - 1), &A(i, i + 1), lda, 0, x, 1, th);
      mv<T>(-1, cm<T>(X, ldx, i + 1, 0, m - i - 1, i), x, 1, 1, x + i + 1, 1, th);
      blas1::scal(m - i - 1, taup[i], x + i + 1, 1);
      lacgv(n - i - 1, &A(i, i + 1), lda);
    } else {
      taup[i] = T(0);
    }
  }
}

// Columns left to gebd2 at the end of gebrd (all of them below it): the unblocked reduction
// led labrd's panels there, at 128 for real T (its larf kernels) and 16 for complex (docs/svd.md).
template <class T> constexpr index kGebrdTail = is_complex_v<T> ? 16 : 128;

// LAPACK gebd2 (zgebd2): the unblocked reduction of the column-major m×n A (m ≥ n) to the
// same bidiagonal and reflector storage as labrd's panels, each reflector applied at once to
// the rest (real T: one larf kernel call a side; complex: a matrix-vector product and a
// rank-1 update in GEMM, against labrd's twelve products a column). w: max(m, n) entries.
template <class T>
void gebd2(index m, index n, T* a, index lda, real_t<T>* d, real_t<T>* e, T* tauq, T* taup, T* w, int th) {
  auto A = [&](index i, index j) -> T& { return a[i + j * lda]; };
  for (index i = 0; i < n; ++i) {
    qr_detail::larfg<T>(A(i, i), &A(std::min(i + 1, m - 1), i), m - i - 1, 1, tauq[i]);
    d[i] = real_part(A(i, i));
    if (i == n - 1) {
      taup[i] = T(0);
      break;
    }
    const index r = m - i, c = n - i - 1;
    // H(i)ᴴ from the left on A(i:, i+1:): w = Cᴴ·v, C −= conj(tauq)·v·wᴴ.
    A(i, i) = T(1);
    if constexpr (!is_complex_v<T>) {
      jacobi_kernels<T>().larf_left(r, c, &A(i, i), tauq[i], &A(i, i + 1), lda);
    } else {
      const MatRef<T> v{&A(i, i), r, 1, 1, 1, false};
      gemm<T>(T(1), adj(cm<T>(a, lda, i, i + 1, r, c)), v, T(0), MatMut<T>{w, c, 1, 1, 1}, th);
      gemm<T>(-conj(tauq[i]), v, MatRef<T>{w, 1, c, c, 1, true}, T(1), MatMut<T>{&A(i, i + 1), r, c, 1, lda}, th);
    }
    A(i, i) = T(d[i]);
    // G(i) from the right on A(i+1:, i+1:), built from the conjugated row (as in labrd):
    // w = C·u, C −= taup·w·uᴴ.
    lacgv(c, &A(i, i + 1), lda);
    qr_detail::larfg<T>(A(i, i + 1), &A(i, std::min(i + 2, n - 1)), c - 1, lda, taup[i]);
    e[i] = real_part(A(i, i + 1));
    A(i, i + 1) = T(1);
    const index r2 = m - i - 1;
    if constexpr (!is_complex_v<T>) {
      jacobi_kernels<T>().larf_right(r2, c, &A(i, i + 1), lda, taup[i], &A(i + 1, i + 1), lda, w);
    } else {
      gemm<T>(T(1), cm<T>(a, lda, i + 1, i + 1, r2, c), MatRef<T>{&A(i, i + 1), c, 1, lda, 1, false}, T(0),
              MatMut<T>{w, r2, 1, 1, 1}, th);
      gemm<T>(-taup[i], MatRef<T>{w, r2, 1, 1, 1, false}, MatRef<T>{&A(i, i + 1), 1, c, 1, lda, true}, T(1),
              MatMut<T>{&A(i + 1, i + 1), r2, c, 1, lda}, th);
    }
    lacgv(c, &A(i, i + 1), lda);
    A(i, i + 1) = T(e[i]);
  }
}

// Conjugates P's reflectors (the rows right of the superdiagonal of the nn×nn top of the
// column-major W): gebrd keeps uᴴ there, apply_q reads u.
template <class T>
void conj_p_rows(T* W, index nn, index ldw) {
  if constexpr (is_complex_v<T>)
    for (index j = 2; j < nn; ++j)
      for (index i = 0; i + 1 < j; ++i) W[i + j * ldw] = std::conj(W[i + j * ldw]);
}

}  // namespace

template <class T>
void gebrd(T* A, index m, index n, index lda, real_t<T>* d, real_t<T>* e, T* tauq, T* taup, int max_threads,
           index nb, index nx) {
  if (n <= 0) return;
  // Narrow panels and a short unblocked tail by default: a panel's own products grow with
  // its width (labrd applies its earlier reflectors to each new column and row) while the
  // GEMM updates stay efficient at 16 (docs/svd.md: complex 128×128 1.13 → 0.94 ms).
  if (nb <= 0) nb = 16;
  // Below this many remaining columns gebd2 finishes the reduction (no GEMM update).
  nx = std::max<index>(nb, nx > 0 ? nx : kGebrdTail<T>);
  const bool panels = n > nx;
  std::vector<T> X(panels ? static_cast<size_t>(m * nb) : 0), Y(panels ? static_cast<size_t>(n * nb) : 0);
  index i = 0;
  for (; n - i > nx; i += nb) {
    const index mr = m - i, nr = n - i;
    T* a = A + i + i * lda;
    labrd<T>(mr, nr, nb, a, lda, d + i, e + i, tauq + i, taup + i, X.data(), mr, Y.data(), nr, max_threads);
    // A(nb:, nb:) −= V·Yᴴ + X·Uᴴ (Uᴴ's unit entry A(nb−1, nb) is still 1 here).
    MatMut<T> C{a + nb + nb * lda, mr - nb, nr - nb, 1, lda};
    gemm<T>(T(-1), cm<T>(a, lda, nb, 0, mr - nb, nb), adj(cm<T>(Y.data(), nr, nb, 0, nr - nb, nb)), T(1), C,
            max_threads);
    gemm<T>(T(-1), cm<T>(X.data(), mr, nb, 0, mr - nb, nb), cm<T>(a, lda, 0, nb, nb, nr - nb), T(1), C, max_threads);
    for (index j = 0; j < nb; ++j) {
      a[j + j * lda] = T(d[i + j]);
      a[j + (j + 1) * lda] = T(e[i + j]);
    }
  }
  std::vector<T> w(static_cast<size_t>(std::max(m, n)));
  gebd2<T>(m - i, n - i, A + i + i * lda, lda, d + i, e + i, tauq + i, taup + i, w.data(), max_threads);
}

template <class R>
int bdsqr_values(index n, R* d, R* e) {
  if (n <= 1) return 0;
  const R eps = std::numeric_limits<R>::epsilon() / 2;  // LAPACK's dlamch('E'): unit roundoff
  const R unfl = std::numeric_limits<R>::min();
  const R tolmul = std::max(R(10), std::min(R(100), std::pow(eps, R(-0.125))));
  const R tol = tolmul * eps;
  constexpr int maxitr = 6;
  // Estimate of the smallest singular value (for the absolute threshold).
  R smax = 0;
  for (index i = 0; i < n; ++i) smax = std::max(smax, std::abs(d[i]));
  for (index i = 0; i < n - 1; ++i) smax = std::max(smax, std::abs(e[i]));
  R sminoa = std::abs(d[0]);
  if (sminoa != 0) {
    R mu = sminoa;
    for (index i = 1; i < n; ++i) {
      mu = std::abs(d[i]) * (mu / (mu + std::abs(e[i - 1])));
      sminoa = std::min(sminoa, mu);
      if (sminoa == 0) break;
    }
  }
  sminoa = sminoa / std::sqrt(R(n));
  const R thresh = std::max(tol * sminoa, R(maxitr) * R(n) * R(n) * unfl);
  const double maxit = double(maxitr) * double(n) * double(n);
  double iter = 0;
  index oldll = -1, oldm = -1, m = n - 1;
  int idir = 0;
  while (m > 0) {
    if (iter > maxit) {
      int left = 0;
      for (index i = 0; i < n - 1; ++i) left += e[i] != 0;
      return left;
    }
    // Find the bottom unreduced block d[ll..m].
    R smaxb = std::abs(d[m]);
    index ll = -1;
    for (index l = m - 1; l >= 0; --l) {
      const R abss = std::abs(d[l]), abse = std::abs(e[l]);
      if (abse <= thresh) {
        ll = l;
        break;
      }
      smaxb = std::max(smaxb, std::max(abss, abse));
    }
    if (ll >= 0) {
      e[ll] = 0;
      if (ll == m - 1) {
        --m;
        continue;
      }
    }
    ++ll;
    if (ll == m - 1) {
      // 2×2 block: finish it directly.
      R sigmn, sigmx;
      las2(d[m - 1], e[m - 1], d[m], sigmn, sigmx);
      d[m - 1] = sigmx;
      e[m - 1] = 0;
      d[m] = sigmn;
      m -= 2;
      continue;
    }
    // A new block: chase the bulge from the larger end.
    if (ll > oldm || m < oldll) idir = std::abs(d[ll]) >= std::abs(d[m]) ? 1 : 2;
    // Convergence tests (relative, Demmel–Kahan).
    R sminl;
    bool split = false;
    if (idir == 1) {
      if (std::abs(e[m - 1]) <= tol * std::abs(d[m])) {
        e[m - 1] = 0;
        continue;
      }
      R mu = std::abs(d[ll]);
      sminl = mu;
      for (index l = ll; l < m; ++l) {
        if (std::abs(e[l]) <= tol * mu) {
          e[l] = 0;
          split = true;
          break;
        }
        mu = std::abs(d[l + 1]) * (mu / (mu + std::abs(e[l])));
        sminl = std::min(sminl, mu);
      }
    } else {
      if (std::abs(e[ll]) <= tol * std::abs(d[ll])) {
        e[ll] = 0;
        continue;
      }
      R mu = std::abs(d[m]);
      sminl = mu;
      for (index l = m - 1; l >= ll; --l) {
        if (std::abs(e[l]) <= tol * mu) {
          e[l] = 0;
          split = true;
          break;
        }
        mu = std::abs(d[l]) * (mu / (mu + std::abs(e[l])));
        sminl = std::min(sminl, mu);
      }
    }
    if (split) continue;
    oldll = ll;
    oldm = m;
    // Shift: zero when it would spoil the relative accuracy of the smallest value.
    R shift = 0, r;
    if (!(R(n) * tol * (sminl / smaxb) <= std::max(eps, R(0.01) * tol))) {
      R sll;
      if (idir == 1) {
        sll = std::abs(d[ll]);
        las2(d[m - 1], e[m - 1], d[m], shift, r);
      } else {
        sll = std::abs(d[m]);
        las2(d[ll], e[ll], d[ll + 1], shift, r);
      }
      if (sll > 0 && (shift / sll) * (shift / sll) < eps) shift = 0;
    }
    iter += double(m - ll);
    R cs, sn, oldcs, oldsn, h;
    if (shift == 0) {
      if (idir == 1) {
        cs = 1;
        oldcs = 1;
        oldsn = 0;
        for (index i = ll; i < m; ++i) {
          lartg(d[i] * cs, e[i], cs, sn, r);
          if (i > ll) e[i - 1] = oldsn * r;
          lartg(oldcs * r, d[i + 1] * sn, oldcs, oldsn, d[i]);
        }
        h = d[m] * cs;
        d[m] = h * oldcs;
        e[m - 1] = h * oldsn;
        if (std::abs(e[m - 1]) <= thresh) e[m - 1] = 0;
      } else {
        cs = 1;
        oldcs = 1;
        oldsn = 0;
        for (index i = m; i > ll; --i) {
          lartg(d[i] * cs, e[i - 1], cs, sn, r);
          if (i < m) e[i] = oldsn * r;
          lartg(oldcs * r, d[i - 1] * sn, oldcs, oldsn, d[i]);
        }
        h = d[ll] * cs;
        d[ll] = h * oldcs;
        e[ll] = h * oldsn;
        if (std::abs(e[ll]) <= thresh) e[ll] = 0;
      }
    } else {
      R cosr, sinr, cosl, sinl, f, g;
      if (idir == 1) {
        f = (std::abs(d[ll]) - shift) * (std::copysign(R(1), d[ll]) + shift / d[ll]);
        g = e[ll];
        for (index i = ll; i < m; ++i) {
          lartg(f, g, cosr, sinr, r);
          if (i > ll) e[i - 1] = r;
          f = cosr * d[i] + sinr * e[i];
          e[i] = cosr * e[i] - sinr * d[i];
          g = sinr * d[i + 1];
          d[i + 1] = cosr * d[i + 1];
          lartg(f, g, cosl, sinl, r);
          d[i] = r;
          f = cosl * e[i] + sinl * d[i + 1];
          d[i + 1] = cosl * d[i + 1] - sinl * e[i];
          if (i < m - 1) {
            g = sinl * e[i + 1];
            e[i + 1] = cosl * e[i + 1];
          }
        }
        e[m - 1] = f;
        if (std::abs(e[m - 1]) <= thresh) e[m - 1] = 0;
      } else {
        f = (std::abs(d[m]) - shift) * (std::copysign(R(1), d[m]) + shift / d[m]);
        g = e[m - 1];
        for (index i = m; i > ll; --i) {
          lartg(f, g, cosr, sinr, r);
          if (i < m) e[i] = r;
          f = cosr * d[i] + sinr * e[i - 1];
          e[i - 1] = cosr * e[i - 1] - sinr * d[i];
          g = sinr * d[i - 1];
          d[i - 1] = cosr * d[i - 1];
          lartg(f, g, cosl, sinl, r);
          d[i] = r;
          f = cosl * e[i - 1] + sinl * d[i - 1];
          d[i - 1] = cosl * d[i - 1] - sinl * e[i - 1];
          if (i > ll + 1) {
            g = sinl * e[i - 2];
            e[i - 2] = cosl * e[i - 2];
          }
        }
        e[ll] = f;
        if (std::abs(e[ll]) <= thresh) e[ll] = 0;
      }
    }
  }
  return 0;
}

template <class R>
bool dqds_values(index n, R* d, const R* e) {
  if (n <= 1) {
    if (n == 1) d[0] = std::abs(d[0]);
    return true;
  }
  // Squares must stay normal and finite: otherwise bdsqr (which never squares) runs.
  const R lo_ok = std::sqrt(std::numeric_limits<R>::min()) / std::numeric_limits<R>::epsilon();
  const R hi_ok = std::sqrt(std::numeric_limits<R>::max()) * std::numeric_limits<R>::epsilon();
  std::vector<R> q(static_cast<size_t>(n)), ee(static_cast<size_t>(n)), qn(q), en(ee);
  for (index i = 0; i < n; ++i) {
    const R a = std::abs(d[i]);
    if (!(a >= lo_ok && a <= hi_ok)) return false;
    q[i] = a * a;
  }
  for (index i = 0; i + 1 < n; ++i) {
    const R a = std::abs(e[i]);
    if (a != 0 && !(a >= lo_ok && a <= hi_ok)) return false;
    ee[i] = a * a;
  }
  ee[n - 1] = 0;
  const R eps = std::numeric_limits<R>::epsilon();
  const R tol2 = (100 * eps) * (100 * eps);
  // Pending blocks: each keeps the shift accumulated when it split off.
  struct Block { index hi, floor; R sigma; };
  std::vector<Block> stack{{n - 1, 0, R(0)}};
  std::vector<R> out;
  out.reserve(static_cast<size_t>(n));
  double work = 0;
  const double cap = 30.0 * double(n) * double(n);
  while (!stack.empty()) {
    index hi = stack.back().hi, floor = stack.back().floor;
    R sigma = stack.back().sigma;
    stack.pop_back();
    // dmin_prev: the last transform's smallest d (an upper bound of the block's smallest
    // value); dmin1_prev: the same without its bottom entry, the bound for what is left
    // after that entry deflates (so the next transform is shifted, not a zero-shift one).
    R tau = 0, dmin_prev = 0, dmin1_prev = 0;
    bool have_dmin = false, fresh = false;
    while (hi >= floor) {
      if (hi == floor) {
        out.push_back(q[hi] + sigma);
        break;
      }
      // Bottom negligible against σ + q_hi: it moves the bottom value by a relative
      // (100·eps)² at most.
      if (ee[hi - 1] <= tol2 * (sigma + q[hi])) {
        out.push_back(q[hi] + sigma);
        --hi;
        have_dmin = fresh;
        dmin_prev = dmin1_prev;
        fresh = false;
        continue;
      }
      // Split off the bottom unreduced block [lo, hi] where an e is exactly zero (the
      // rest waits with this sigma). A merely small e is not dropped: the block's smallest
      // value can lie far below its neighbouring q (random-order grading), so only the
      // bottom deflation, relative to σ + q_hi as in LAPACK's dlasq3, removes entries.
      index lo = hi - 1;
      while (lo > floor && ee[lo - 1] != 0) --lo;
      if (lo > floor) {
        stack.push_back({lo - 1, floor, sigma});
        floor = lo;
      }
      if (!have_dmin && hi > lo + 1 && R(1.5) * q[lo] < q[hi]) {
        // dqds pushes small values down: start with the larger end on top (LAPACK's flip).
        std::reverse(q.begin() + lo, q.begin() + hi + 1);
        std::reverse(ee.begin() + lo, ee.begin() + hi);
      }
      if (hi == lo + 1) {
        // 2×2 block: its values directly.
        R smin, smax;
        las2(std::sqrt(q[lo]), std::sqrt(ee[lo]), std::sqrt(q[hi]), smin, smax);
        out.push_back(smax * smax + sigma);
        out.push_back(smin * smin + sigma);
        break;
      }
      // Shift: below the smallest value of the trailing 2×2 and below the last dmin (both
      // upper bounds of the block's smallest eigenvalue), closer to them as the bottom
      // off-diagonal shrinks (a failed transform retries with less).
      {
        // The trailing 2×2 of B·Bᵀ, [q₁ + e, √(e·q₂); √(e·q₂), q₂] with q₁ = q[hi − 1],
        // e = ee[hi − 1], q₂ = q[hi]: its smaller eigenvalue as det / λ_max (no cancellation),
        // all scaled by the larger diagonal entry so that no square overflows.
        const R big = std::max(q[hi - 1] + ee[hi - 1], q[hi]), inv = R(1) / big;
        const R a2 = (q[hi - 1] + ee[hi - 1]) * inv, b2 = q[hi] * inv, h = (a2 - b2) / 2;
        const R lmax = (a2 + b2) / 2 + std::sqrt(h * h + (ee[hi - 1] * inv) * b2);
        R est = ((q[hi - 1] * inv) * b2 / lmax) * big;
        if (!have_dmin) tau = 0;
        else if (dmin_prev < R(0.5) * q[hi]) tau = R(0.25) * dmin_prev;  // smallest not at the bottom yet
        else {
          est = std::min(est, dmin_prev);
          const R r = ee[hi - 1] / q[hi - 1];
          tau = est * (r < R(0.01) ? R(1) - std::max(R(4) * eps, r) : R(0.5));
        }
      }
      // One dqds transform with shift tau on [lo, hi], kept only if it stays positive.
      for (int attempt = 0;; ++attempt) {
        R dd = q[lo] - tau, dmin = dd, dmin1 = dd;
        for (index i = lo; i < hi; ++i) {
          const R qh = dd + ee[i];
          const R t = q[i + 1] / qh;
          qn[i] = qh;
          en[i] = ee[i] * t;
          dmin1 = dmin;
          dd = dd * t - tau;
          dmin = std::min(dmin, dd);
        }
        qn[hi] = dd;
        work += double(hi - lo + 1);
        if (dmin > 0 || (tau == 0 && dmin >= 0)) {
          std::copy(qn.begin() + lo, qn.begin() + hi + 1, q.begin() + lo);
          std::copy(en.begin() + lo, en.begin() + hi, ee.begin() + lo);
          // Squares near the bottom of the normal range lose digits: bdsqr takes over.
          if (dmin < std::numeric_limits<R>::min() / eps) return false;
          sigma += tau;
          dmin_prev = dmin;
          dmin1_prev = dmin1;
          have_dmin = fresh = true;
          break;
        }
        if (tau == 0 || work > cap) return false;
        tau = attempt == 0 ? tau * R(0.9) : attempt == 1 ? tau * R(0.25) : R(0);
      }
      if (work > cap) return false;
    }
  }
  if (index(out.size()) != n) return false;
  for (index i = 0; i < n; ++i) {
    if (!(out[i] >= lo_ok * lo_ok)) return false;
    d[i] = std::sqrt(out[i]);
  }
  return true;
}

template <class T>
int svdvals_bidiag(const T* A, index m, index n, real_t<T> scale, real_t<T>* S, int max_threads) {
  using R = real_t<T>;
  // Work on the tall one of A and Aᵀ, column-major: row-major A (m < n) is Aᵀ column-major.
  const index mm = std::max(m, n), nn = std::min(m, n);
  if (nn == 0) return 0;
  const R inv = R(1) / scale;
  // Subnormal data: 1/scale overflows, so divide (exact for a power of two either way).
  const bool recip = std::isfinite(inv);
  auto sc = [&](T x) { return recip ? x * inv : x / scale; };
  // Leading dimensions off multiples of 512 bytes: columns at such strides share cache sets
  // (gebrd 512×512 24.7 → 17.8 ms with 513 instead of 512).
  auto padded = [](index rows) { return (rows * index(sizeof(T))) % 512 == 0 ? rows + 64 / index(sizeof(T)) : rows; };
  const index ldb = padded(mm);
  std::vector<T> B(static_cast<size_t>(ldb * nn));
  if (m >= n) {
    for (index j0 = 0; j0 < n; j0 += 32)
      for (index i = 0; i < m; ++i)
        for (index j = j0; j < std::min(n, j0 + 32); ++j) B[i + j * ldb] = sc(A[i * n + j]);
  } else {
    for (index j = 0; j < m; ++j)
      for (index i = 0; i < n; ++i) B[i + j * ldb] = sc(A[j * n + i]);
  }
  T* W = B.data();
  index ldw = ldb, rows = mm;
  std::vector<T> Rm;
  // Much taller than wide: a QR first, and the bidiagonalization works on the n×n R
  // (LAPACK's crossover, about 1.6·n rows).
  if (mm * 10 >= nn * 16 && nn > 1) {
    std::vector<T> tau(static_cast<size_t>(nn));
    geqrf<T>(MatMut<T>{B.data(), mm, nn, 1, ldb}, tau.data(), max_threads);
    ldw = padded(nn);
    Rm.assign(static_cast<size_t>(ldw * nn), T(0));
    for (index j = 0; j < nn; ++j)
      for (index i = 0; i <= j; ++i) Rm[i + j * ldw] = B[i + j * ldb];
    W = Rm.data();
    rows = nn;
  }
  std::vector<R> e(static_cast<size_t>(nn));
  std::vector<T> tq(static_cast<size_t>(nn)), tp(static_cast<size_t>(nn));
  gebrd<T>(W, rows, nn, ldw, S, e.data(), tq.data(), tp.data(), max_threads);
  // dqds first (no square roots in its inner loop); bdsqr when it declines.
  std::vector<R> d0(S, S + nn), e0(e.begin(), e.end());
  int info = 0;
  if (!dqds_values<R>(nn, S, e.data())) {
    std::copy(d0.begin(), d0.end(), S);
    info = bdsqr_values<R>(nn, S, e0.data());
  }
  for (index i = 0; i < nn; ++i) S[i] = std::abs(S[i]);
  std::sort(S, S + nn, std::greater<R>());
  for (index i = 0; i < nn; ++i) S[i] *= scale;
  return info;
}

template <class T>
bool svd_bidiag(const T* A, index m, index n, real_t<T> scale, real_t<T>* S, T* U, T* Vh, bool full,
                int max_threads) {
  using R = real_t<T>;
  // The tall one of A and Aᵀ, column-major (row-major A with m < n is Aᵀ column-major).
  const index mm = std::max(m, n), nn = std::min(m, n);
  if (nn == 0) return false;
  const R inv = R(1) / scale;
  // Subnormal data: 1/scale overflows, so divide (exact for a power of two either way).
  const bool recip = std::isfinite(inv);
  auto sc = [&](T x) { return recip ? x * inv : x / scale; };
  auto padded = [](index rows) { return (rows * index(sizeof(T))) % 512 == 0 ? rows + 64 / index(sizeof(T)) : rows; };
  const index ldb = padded(mm), ldr = padded(nn), ldv = padded(nn);
  const bool qr_first = mm * 10 >= nn * 16 && nn > 1;
  // Scratch kept per thread between calls (as bdsdc's): fresh pages cost page faults.
  thread_local std::vector<T> ws;
  const size_t need = static_cast<size_t>(ldb * nn + (qr_first ? ldr * nn : 0) + 2 * ldv * nn + 3 * nn);
  if (ws.size() < need) ws.resize(need);
  T* B = ws.data();
  T* Rm = B + ldb * nn;
  T* Ub = Rm + (qr_first ? ldr * nn : 0);
  T* Vb = Ub + ldv * nn;
  T* tauA = Vb + ldv * nn;
  T* tq = tauA + nn;
  T* tp = tq + nn;
  if (m >= n) {
    for (index j0 = 0; j0 < n; j0 += 32)
      for (index i = 0; i < m; ++i)
        for (index j = j0; j < std::min(n, j0 + 32); ++j) B[i + j * ldb] = sc(A[i * n + j]);
  } else {
    for (index j = 0; j < m; ++j)
      for (index i = 0; i < n; ++i) B[i + j * ldb] = sc(A[j * n + i]);
  }
  T* W = B;
  index ldw = ldb, rows = mm;
  if (qr_first) {
    geqrf<T>(MatMut<T>{B, mm, nn, 1, ldb}, tauA, max_threads);
    for (index j = 0; j < nn; ++j) {
      for (index i = 0; i <= j; ++i) Rm[i + j * ldr] = B[i + j * ldb];
      std::fill(Rm + j + 1 + j * ldr, Rm + nn + j * ldr, T(0));
    }
    W = Rm;
    ldw = ldr;
    rows = nn;
  }
  std::vector<R> d(static_cast<size_t>(nn)), e(static_cast<size_t>(nn));
  gebrd<T>(W, rows, nn, ldw, d.data(), e.data(), tq, tp, max_threads);
  // Row-major Vh of a tall A is V column-major (Vᵀ = conj(Vh) for complex, conjugated at
  // the end): bdsdc writes it in place.
  T* V = m >= n ? Vh : Vb;
  const index ldvv = m >= n ? n : ldv;
  if constexpr (!is_complex_v<T>) {
    if (!bdsdc<R>(nn, d.data(), e.data(), S, Ub, ldv, V, ldvv, max_threads)) return false;
  } else {
    // The bidiagonal is real: bdsdc's real vectors, widened to complex for the
    // back-transforms (as zgesdd does).
    thread_local std::vector<R> wsr;
    const index ldq = (nn * index(sizeof(R))) % 512 == 0 ? nn + 64 / index(sizeof(R)) : nn;
    if (wsr.size() < static_cast<size_t>(2 * ldq * nn)) wsr.resize(static_cast<size_t>(2 * ldq * nn));
    R* Ur = wsr.data();
    R* Vr = Ur + ldq * nn;
    if (!bdsdc<R>(nn, d.data(), e.data(), S, Ur, ldq, Vr, ldq, max_threads)) return false;
    for (index j = 0; j < nn; ++j)
      for (index i = 0; i < nn; ++i) {
        Ub[i + j * ldv] = T(Ur[i + j * ldq]);
        V[i + j * ldvv] = T(Vr[i + j * ldq]);
      }
    conj_p_rows(W, nn, ldw);
  }
  // V = P·Vb: P's reflectors sit in W's rows right of the superdiagonal, read as the
  // columns of a QR factor through swapped strides; P leaves row 0 alone.
  if (nn > 1)
    apply_q<T>(MatRef<T>{W + ldw, nn - 1, nn - 1, ldw, 1, false}, tp, nn - 1, false,
               MatMut<T>{V + 1, nn - 1, nn, 1, ldvv}, max_threads);
  // U = Q·[Ub 0; 0 I] (Q_A·[Q_B·Ub 0; 0 I] with the QR first), written straight into the
  // output: row-major U of a tall A (strides uc, 1), or row-major Vh of a wide one, which
  // is Uc column-major with leading dimension n.
  const index uc = full ? mm : nn;
  const MatMut<T> Uc = m >= n ? MatMut<T>{U, mm, uc, uc, 1} : MatMut<T>{Vh, mm, uc, 1, n};
  if (qr_first)
    apply_q<T>(MatRef<T>{W, nn, nn, 1, ldw, false}, tq, nn, false, MatMut<T>{Ub, nn, nn, 1, ldv}, max_threads);
  for (index j = 0; j < uc; ++j)
    for (index i = 0; i < mm; ++i) Uc(i, j) = i < nn && j < nn ? Ub[i + j * ldv] : T(i == j ? 1 : 0);
  if (qr_first) apply_q<T>(MatRef<T>{B, mm, nn, 1, ldb, false}, tauA, nn, false, Uc, max_threads);
  else apply_q<T>(MatRef<T>{W, mm, nn, 1, ldw, false}, tq, nn, false, Uc, max_threads);
  for (index i = 0; i < nn; ++i) S[i] *= scale;
  if (m < n) {
    // Aᵀ = Uc·Σ·Vbᴴ, so A = conj(Vb)·Σ·Ucᵀ: U (m×m) is conj(Vb), Vh is Ucᵀ as written.
    for (index i = 0; i < m; ++i)
      for (index j = 0; j < m; ++j) {
        if constexpr (is_complex_v<T>) U[i * m + j] = std::conj(Vb[i + j * ldv]);
        else U[i * m + j] = Vb[i + j * ldv];
      }
  } else if constexpr (is_complex_v<T>) {
    // Vh holds V by columns, i.e. Vᵀ by rows: Vh = Vᴴ is its conjugate.
    for (index i = 0; i < n * n; ++i) Vh[i] = std::conj(Vh[i]);
  }
  return true;
}

#define LAPIS_INST(T)                                                                                      \
  template void gebrd<T>(T*, index, index, index, real_t<T>*, real_t<T>*, T*, T*, int, index, index);     \
  template int bdsqr_values<T>(index, T*, T*);                                                             \
  template bool dqds_values<T>(index, T*, const T*);                                                       \
  template int svdvals_bidiag<T>(const T*, index, index, real_t<T>, real_t<T>*, int);                    \
  template bool svd_bidiag<T>(const T*, index, index, real_t<T>, real_t<T>*, T*, T*, bool, int);
LAPIS_INST(float)
LAPIS_INST(double)
#undef LAPIS_INST

#define LAPIS_INST_C(T)                                                                                    \
  template void gebrd<T>(T*, index, index, index, real_t<T>*, real_t<T>*, T*, T*, int, index, index);     \
  template int svdvals_bidiag<T>(const T*, index, index, real_t<T>, real_t<T>*, int);                    \
  template bool svd_bidiag<T>(const T*, index, index, real_t<T>, real_t<T>*, T*, T*, bool, int);
LAPIS_INST_C(std::complex<float>)
LAPIS_INST_C(std::complex<double>)
#undef LAPIS_INST_C

}  // namespace lapis::svd_detail
