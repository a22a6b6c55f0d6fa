// SVD: scale, sort rows and columns, Householder QR, then one-sided Jacobi on R.
//
// Why this shape (docs/svd.md has the long version): one-sided Jacobi computes every
// singular value of A = B·D (D diagonal, B well conditioned) to high relative accuracy,
// which bidiagonalization cannot promise; the QR step first shrinks an m×n problem to
// n×n and makes Jacobi converge in fewer sweeps (Drmač–Veselić, LAPACK gejsv). Rows are
// sorted by decreasing max-norm before the QR so row-graded inputs keep that accuracy
// too (Cox–Higham); columns are sorted by decreasing norm as a static pivot.
#include "lapis/svd.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "../qr/qr_internal.hpp"
#include "lapis/qr.hpp"

namespace lapis {
namespace {

using qr_detail::nrm2;

constexpr int kMaxSweeps = 40;

// conj(x)·y over n elements, four accumulators (the compiler will not reassociate).
template <class T>
T dotc(const T* x, const T* y, index n) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    const R* a = reinterpret_cast<const R*>(x);
    const R* b = reinterpret_cast<const R*>(y);
    R r0 = 0, r1 = 0, i0 = 0, i1 = 0;
    index i = 0;
    for (; i + 1 < n; i += 2) {
      r0 += a[2 * i] * b[2 * i] + a[2 * i + 1] * b[2 * i + 1];
      i0 += a[2 * i] * b[2 * i + 1] - a[2 * i + 1] * b[2 * i];
      r1 += a[2 * i + 2] * b[2 * i + 2] + a[2 * i + 3] * b[2 * i + 3];
      i1 += a[2 * i + 2] * b[2 * i + 3] - a[2 * i + 3] * b[2 * i + 2];
    }
    for (; i < n; ++i) {
      r0 += a[2 * i] * b[2 * i] + a[2 * i + 1] * b[2 * i + 1];
      i0 += a[2 * i] * b[2 * i + 1] - a[2 * i + 1] * b[2 * i];
    }
    return T(r0 + r1, i0 + i1);
  } else {
    R s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    index i = 0;
    for (; i + 3 < n; i += 4) {
      s0 += x[i] * y[i];
      s1 += x[i + 1] * y[i + 1];
      s2 += x[i + 2] * y[i + 2];
      s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; ++i) s0 += x[i] * y[i];
    return (s0 + s1) + (s2 + s3);
  }
}

// [x, y] ← [c·x − z̄·y, z·x + c·y]: the unitary plane rotation of one Jacobi step.
template <class T>
void rot(T* x, T* y, index n, real_t<T> c, T z) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    R* a = reinterpret_cast<R*>(x);
    R* b = reinterpret_cast<R*>(y);
    const R zr = z.real(), zi = z.imag();
    for (index i = 0; i < n; ++i) {
      const R xr = a[2 * i], xi = a[2 * i + 1], yr = b[2 * i], yi = b[2 * i + 1];
      a[2 * i] = c * xr - (zr * yr + zi * yi);
      a[2 * i + 1] = c * xi - (zr * yi - zi * yr);
      b[2 * i] = (zr * xr - zi * xi) + c * yr;
      b[2 * i + 1] = (zr * xi + zi * xr) + c * yi;
    }
  } else {
    for (index i = 0; i < n; ++i) {
      const R xv = x[i], yv = y[i];
      x[i] = c * xv - z * yv;
      y[i] = z * xv + c * yv;
    }
  }
}

// One-sided Jacobi on the n columns of X (each `len` long, contiguous, stride len),
// accumulating the rotations into V (n columns of length n) when V is non-null.
// d holds the column norms on return. Returns the sweeps used, or -1 if the cap was hit.
template <class T>
int jacobi(T* X, index len, index n, T* V, std::vector<real_t<T>>& d) {
  using R = real_t<T>;
  const R tol = std::sqrt(static_cast<R>(std::max<index>(len, 1))) * eps<T>();
  const R tiny = smallest_normal<T>();
  const R scaled_below = smallest_normal<T>() / eps<T>();
  std::vector<T> tp, tq;
  auto col = [&](T* base, index j, index l) { return base + j * l; };
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    for (index j = 0; j < n; ++j) d[j] = nrm2(col(X, j, len), len, 1);
    index rotations = 0;
    for (index p = 0; p + 1 < n; ++p) {
      // de Rijk: bring the largest remaining column to p (faster convergence, and the
      // values come out nearly sorted).
      index best = p;
      for (index q = p + 1; q < n; ++q)
        if (d[q] > d[best]) best = q;
      if (best != p) {
        std::swap_ranges(col(X, p, len), col(X, p, len) + len, col(X, best, len));
        if (V) std::swap_ranges(col(V, p, n), col(V, p, n) + n, col(V, best, n));
        std::swap(d[p], d[best]);
      }
      if (d[p] < tiny) break;  // everything left is zero to working precision
      for (index q = p + 1; q < n; ++q) {
        if (d[q] < tiny) continue;
        T* xp = col(X, p, len);
        T* xq = col(X, q, len);
        // Cosine of the angle between the columns; computed from scaled copies when
        // the plain dot product could underflow.
        T cpq;
        if (d[p] * d[q] < scaled_below) {
          tp.resize(len);
          tq.resize(len);
          const R ip = R(1) / d[p], iq = R(1) / d[q];
          for (index i = 0; i < len; ++i) {
            tp[i] = xp[i] * ip;
            tq[i] = xq[i] * iq;
          }
          cpq = dotc(tp.data(), tq.data(), len);
        } else {
          cpq = dotc(xp, xq, len) / d[p] / d[q];
        }
        const R cosv = std::abs(cpq);
        if (!(cosv > tol)) continue;
        ++rotations;
        const R zeta = (d[q] / d[p] - d[p] / d[q]) / (2 * cosv);
        const R t = std::copysign(R(1) / (std::abs(zeta) + std::hypot(R(1), zeta)), zeta);
        const R c = R(1) / std::sqrt(1 + t * t), s = c * t;
        T z;
        if constexpr (is_complex_v<T>) z = (cpq / cosv) * s;
        else z = cpq > 0 ? s : -s;
        rot(xp, xq, len, c, z);
        if (V) rot(col(V, p, n), col(V, q, n), n, c, z);
        // Tracked norms; recomputed when cancellation would spoil them.
        const R fp = 1 - t * cosv * (d[q] / d[p]);
        const R fq = 1 + t * cosv * (d[p] / d[q]);
        d[p] = fp > R(0.5) ? d[p] * std::sqrt(fp) : nrm2(xp, len, 1);
        d[q] = fq > R(0.5) ? d[q] * std::sqrt(fq) : nrm2(xq, len, 1);
      }
    }
    if (rotations == 0) {
      for (index j = 0; j < n; ++j) d[j] = nrm2(col(X, j, len), len, 1);
      return sweep + 1;
    }
  }
  for (index j = 0; j < n; ++j) d[j] = nrm2(col(X, j, len), len, 1);
  return -1;
}

// Replaces the columns of W (n columns of length n, contiguous) whose flag is false by
// unit vectors orthogonal to all the others: unit vectors e_k, Gram–Schmidt'ed twice.
template <class T>
void complete_basis(T* W, index n, std::vector<char>& good) {
  using R = real_t<T>;
  std::vector<T> v(n);
  index cursor = 0;
  for (index j = 0; j < n; ++j) {
    if (good[j]) continue;
    for (index tries = 0; tries < n; ++tries) {
      const index k = (cursor + tries) % n;
      std::fill(v.begin(), v.end(), T(0));
      v[k] = T(1);
      for (int pass = 0; pass < 2; ++pass)
        for (index i = 0; i < n; ++i) {
          if (!good[i]) continue;
          const T* w = W + i * n;
          const T h = dotc(w, v.data(), n);
          for (index r = 0; r < n; ++r) v[r] -= h * w[r];
        }
      const R nv = nrm2(v.data(), n, 1);
      if (nv > R(0.5)) {
        for (index r = 0; r < n; ++r) W[j * n + r] = v[r] / nv;
        good[j] = 1;
        cursor = k + 1;
        break;
      }
    }
  }
}

// SVD of a tall matrix given by an accessor (m ≥ n): a(i, j) = element of the tall
// matrix. Outputs Ut (m×uc row-major, uc = full ? m : n) and Vt (n×n row-major) as
// U_tall, V_tall (not adjoint), S (n values). Returns info.
template <class T, class Get>
int svd_tall(Get a, index m, index n, real_t<T> scale, real_t<T>* S, T* Ut, T* Vt, bool uv, bool full,
             int max_threads) {
  using R = real_t<T>;
  const index uc = full ? m : n;
  const R inv = R(1) / scale;
  // Static pivoting: columns by decreasing 2-norm, rows by decreasing max-norm.
  std::vector<R> cn(n, R(0)), rn(m, R(0));
  {
    std::vector<T> colbuf(m);
    for (index j = 0; j < n; ++j) {
      for (index i = 0; i < m; ++i) {
        colbuf[i] = a(i, j) * inv;
        rn[i] = std::max(rn[i], abs1(colbuf[i]));
      }
      cn[j] = nrm2(colbuf.data(), m, 1);
    }
  }
  std::vector<index> cperm(n), rperm(m);
  std::iota(cperm.begin(), cperm.end(), 0);
  std::iota(rperm.begin(), rperm.end(), 0);
  std::stable_sort(cperm.begin(), cperm.end(), [&](index x, index y) { return cn[x] > cn[y]; });
  std::stable_sort(rperm.begin(), rperm.end(), [&](index x, index y) { return rn[x] > rn[y]; });

  std::vector<T> B(static_cast<size_t>(m * n)), tau(n);
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) B[i * n + j] = a(rperm[i], cperm[j]) * inv;
  MatMut<T> Bm{B.data(), m, n, n, 1};
  geqrf(Bm, tau.data(), max_threads);

  // X = R, stored by columns.
  std::vector<T> X(static_cast<size_t>(n * n), T(0)), V;
  for (index j = 0; j < n; ++j)
    for (index i = 0; i <= j; ++i) X[j * n + i] = B[i * n + j];
  if (uv) {
    V.assign(static_cast<size_t>(n * n), T(0));
    for (index j = 0; j < n; ++j) V[j * n + j] = T(1);
  }
  std::vector<R> d(n);
  const int sweeps = jacobi(X.data(), n, n, uv ? V.data() : nullptr, d);

  std::vector<index> order(n);
  std::iota(order.begin(), order.end(), 0);
  const R tiny = smallest_normal<T>();
  for (index j = 0; j < n; ++j)
    if (!(d[j] >= tiny)) d[j] = 0;  // below the smallest normal: zero
  std::stable_sort(order.begin(), order.end(), [&](index x, index y) { return d[x] > d[y]; });
  for (index i = 0; i < n; ++i) S[i] = d[order[i]] * scale;
  if (!uv) return sweeps < 0 ? 1 : 0;

  // Left vectors of R: normalised columns of X (completed where the value is zero),
  // then U = Rowperm⁻¹ · Q · [W 0; 0 I].
  std::vector<char> good(n);
  for (index j = 0; j < n; ++j) {
    good[j] = d[j] > 0;
    if (good[j]) {
      const R id = R(1) / d[j];
      for (index i = 0; i < n; ++i) X[j * n + i] *= id;
    }
  }
  complete_basis(X.data(), n, good);
  std::vector<T> C(static_cast<size_t>(m * uc), T(0));
  for (index i = 0; i < n; ++i)
    for (index c = 0; c < n; ++c) C[i * uc + c] = X[order[c] * n + i];
  for (index i = n; i < uc; ++i) C[i * uc + i] = T(1);
  apply_q<T>(Bm.ref(), tau.data(), n, false, MatMut<T>{C.data(), m, uc, uc, 1}, max_threads);
  for (index i = 0; i < m; ++i) std::copy(&C[i * uc], &C[i * uc] + uc, Ut + rperm[i] * uc);
  // Right vectors: A·P = Q·R and R = W·Σ·Vᴴ, so V_A = P·V.
  for (index r = 0; r < n; ++r)
    for (index c = 0; c < n; ++c) Vt[cperm[r] * n + c] = V[order[c] * n + r];
  return sweeps < 0 ? 1 : 0;
}

}  // namespace

template <class T>
int svd(const T* A, index m, index n, real_t<T>* S, T* U, T* Vh, bool uv, bool full, int max_threads) {
  using R = real_t<T>;
  const index k = std::min(m, n);
  const index ur = m, uc = full ? m : k, vr = full ? n : k, vc = n;
  R scale = 0;
  bool finite = true;
  for (index i = 0; i < m * n; ++i) {
    if (!is_finite(A[i])) { finite = false; break; }
    if constexpr (is_complex_v<T>) scale = std::max(scale, std::max(std::abs(A[i].real()), std::abs(A[i].imag())));
    else scale = std::max(scale, std::abs(A[i]));
  }
  if (!finite) {
    const R nan = std::numeric_limits<R>::quiet_NaN();
    std::fill(S, S + k, nan);
    if (uv) {
      std::fill(U, U + ur * uc, T(nan));
      std::fill(Vh, Vh + vr * vc, T(nan));
    }
    return -1;
  }
  if (scale == 0 || k == 0) {
    std::fill(S, S + k, R(0));
    if (uv) {
      for (index i = 0; i < ur; ++i)
        for (index j = 0; j < uc; ++j) U[i * uc + j] = i == j ? T(1) : T(0);
      for (index i = 0; i < vr; ++i)
        for (index j = 0; j < vc; ++j) Vh[i * vc + j] = i == j ? T(1) : T(0);
    }
    return 0;
  }
  if (m >= n) {
    std::vector<T> Vt(uv ? static_cast<size_t>(n * n) : 0);
    int info = svd_tall<T>([&](index i, index j) { return A[i * n + j]; }, m, n, scale, S, U, Vt.data(), uv,
                           full, max_threads);
    if (uv)
      for (index i = 0; i < n; ++i)
        for (index j = 0; j < n; ++j) Vh[i * n + j] = conj(Vt[j * n + i]);
    return info;
  }
  // Wide: Aᴴ = Uₜ·Σ·Vₜᴴ is tall, and A = Vₜ·Σ·Uₜᴴ.
  const index tuc = full ? n : m;
  std::vector<T> Ut(uv ? static_cast<size_t>(n * tuc) : 0);
  int info = svd_tall<T>([&](index i, index j) { return conj(A[j * n + i]); }, n, m, scale, S, Ut.data(), U, uv,
                         full, max_threads);
  if (uv)
    for (index i = 0; i < tuc; ++i)
      for (index j = 0; j < n; ++j) Vh[i * n + j] = conj(Ut[j * tuc + i]);
  return info;
}

#define LAPIS_INST(T) template int svd<T>(const T*, index, index, real_t<T>*, T*, T*, bool, bool, int);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
