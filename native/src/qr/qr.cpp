// Blocked Householder QR (compact WY). See lapis/qr.hpp for the conventions.
//
// Panels are copied into a column-major buffer before the level-2 factorization:
// tensors are row-major, so a Householder vector is a strided column there, and the
// panel loops would otherwise touch one cache line per element.
#include "lapis/qr.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "lapis/gemm.hpp"
#include "qr_internal.hpp"

namespace lapis {
namespace {

std::atomic<index> g_nb{32};

}  // namespace

void set_qr_block_size(index nb) { g_nb.store(nb <= 0 ? 32 : nb); }
index qr_block_size() { return g_nb.load(); }

namespace qr_detail {

template <class T>
real_t<T> nrm2(const T* x, index n, index inc) {
  using R = real_t<T>;
  R s = 0, mx = 0;
  bool nan = false;
  for (index i = 0; i < n; ++i) {
    T v = x[i * inc];
    if constexpr (is_complex_v<T>) {
      R a = std::abs(v.real()), b = std::abs(v.imag());
      s += a * a + b * b;
      nan |= (a != a) || (b != b);
      mx = std::max(mx, std::max(a, b));
    } else {
      R a = std::abs(v);
      s += a * a;
      nan |= (a != a);
      mx = std::max(mx, a);
    }
  }
  if (nan) return std::numeric_limits<R>::quiet_NaN();
  // The plain sum is exact enough unless squares over- or underflow.
  const R small = std::sqrt(smallest_normal<T>() / eps<T>());
  const R big = std::sqrt(std::numeric_limits<R>::max()) / R(4 * (n + 1));
  if (mx == 0) return 0;
  if (std::isinf(mx)) return mx;
  if (mx > small && mx < big) return std::sqrt(s);
  // Scale by a power of two near 1/mx: exact, and 1/mx itself overflows when mx is
  // subnormal.
  const int e = std::ilogb(mx);
  const bool direct = e > -1000 && e < 1000;
  const R inv = direct ? std::ldexp(R(1), -e) : R(1);
  auto sc = [&](R v) { return direct ? v * inv : std::ldexp(v, -e); };
  s = 0;
  for (index i = 0; i < n; ++i) {
    T v = x[i * inc];
    if constexpr (is_complex_v<T>) {
      R a = sc(v.real()), b = sc(v.imag());
      s += a * a + b * b;
    } else {
      R a = sc(v);
      s += a * a;
    }
  }
  return std::ldexp(std::sqrt(s), e);
}

template <class R>
static R hypot3(R a, R b, R c) {
  a = std::abs(a); b = std::abs(b); c = std::abs(c);
  R m = std::max(a, std::max(b, c));
  if (m == 0 || std::isinf(m)) return m;
  a /= m; b /= m; c /= m;
  return m * std::sqrt(a * a + b * b + c * c);
}

// LAPACK larfg: choose H = I − τ v vᴴ with Hᴴ·[alpha; x] = [beta; 0], beta real.
template <class T>
void larfg(T& alpha, T* x, index n, index inc, T& tau) {
  using R = real_t<T>;
  R xnorm = nrm2(x, n, inc);
  R ar = real_part(alpha), ai = 0;
  if constexpr (is_complex_v<T>) ai = alpha.imag();
  if (xnorm == 0 && ai == 0) {
    tau = T(0);
    return;
  }
  R beta = -std::copysign(hypot3(ar, ai, xnorm), ar);
  const R safmin = smallest_normal<T>() / eps<T>();
  int knt = 0;
  if (std::abs(beta) < safmin) {
    // Tiny column: rescale so 1/(alpha − beta) stays finite, then undo on beta.
    const R rs = R(1) / safmin;
    do {
      ++knt;
      for (index i = 0; i < n; ++i) x[i * inc] *= rs;
      beta *= rs;
      alpha *= rs;
    } while (std::abs(beta) < safmin && knt < 20);
    xnorm = nrm2(x, n, inc);
    ar = real_part(alpha);
    if constexpr (is_complex_v<T>) ai = alpha.imag();
    beta = -std::copysign(hypot3(ar, ai, xnorm), ar);
  }
  if constexpr (is_complex_v<T>) tau = T((beta - ar) / beta, -ai / beta);
  else tau = (beta - ar) / beta;
  T scal = T(1) / (alpha - T(beta));
  for (index i = 0; i < n; ++i) x[i * inc] *= scal;
  for (int j = 0; j < knt; ++j) beta *= safmin;
  alpha = T(beta);
}

// Level-2 QR of a column-major panel P (mr×kb, leading dim ld).
template <class T>
void panel(T* P, index mr, index kb, index ld, T* tau) {
  for (index i = 0; i < kb && i < mr; ++i) {
    T* col = P + i * ld;
    larfg(col[i], col + i + 1, mr - i - 1, 1, tau[i]);
    if (tau[i] == T(0)) continue;
    T aii = col[i];
    col[i] = T(1);
    const T ct = conj(tau[i]);
    for (index j = i + 1; j < kb; ++j) {
      T* cj = P + j * ld;
      T w{};
      for (index r = i; r < mr; ++r) w += conj(col[r]) * cj[r];
      w *= ct;
      for (index r = i; r < mr; ++r) cj[r] -= w * col[r];
    }
    col[i] = aii;
  }
}

// LAPACK larft (forward, columnwise): H_0…H_{kb−1} = I − V·T·Vᴴ, V explicit unit lower
// (column-major, ld = mr), T kb×kb row-major upper.
template <class T>
void larft(const T* V, index mr, index kb, const T* tau, T* Tm) {
  std::fill(Tm, Tm + kb * kb, T(0));
  std::vector<T> tmp(kb);
  for (index i = 0; i < kb; ++i) {
    if (tau[i] == T(0)) continue;  // column stays zero: H_i = I
    const T* vi = V + i * mr;
    for (index j = 0; j < i; ++j) {
      const T* vj = V + j * mr;
      T s{};
      for (index r = i; r < mr; ++r) s += conj(vj[r]) * vi[r];
      tmp[j] = -tau[i] * s;
    }
    for (index j = 0; j < i; ++j) {
      T s{};
      for (index l = j; l < i; ++l) s += Tm[j * kb + l] * tmp[l];
      Tm[j * kb + i] = s;
    }
    Tm[i * kb + i] = tau[i];
  }
}

template <class T>
void explicit_v(MatRef<T> A, index j0, index kb, std::vector<T>& Vb) {
  const index mr = A.rows - j0;
  Vb.assign(static_cast<size_t>(mr * kb), T(0));
  for (index j = 0; j < kb; ++j) {
    T* c = Vb.data() + j * mr;
    c[j] = T(1);
    for (index r = j + 1; r < mr; ++r) c[r] = A(j0 + r, j0 + j);
  }
}

template <class T>
void apply_block(const std::vector<T>& Vb, const std::vector<T>& Tm, index mr, index kb, bool adjoint,
                 MatMut<T> C, std::vector<T>& W, std::vector<T>& W2, int max_threads) {
  const index nc = C.cols;
  if (nc == 0 || mr == 0 || kb == 0) return;
  W.resize(static_cast<size_t>(kb * nc));
  W2.resize(static_cast<size_t>(kb * nc));
  MatRef<T> V{Vb.data(), mr, kb, 1, mr, false};
  MatRef<T> Tr{Tm.data(), kb, kb, kb, 1, false};
  MatMut<T> Wm{W.data(), kb, nc, nc, 1}, W2m{W2.data(), kb, nc, nc, 1};
  gemm<T>(T(1), V.h(), C.ref(), T(0), Wm, max_threads);
  gemm<T>(T(1), adjoint ? Tr.h() : Tr, Wm.ref(), T(0), W2m, max_threads);
  gemm<T>(T(-1), V, W2m.ref(), T(1), C, max_threads);
}

}  // namespace qr_detail

using namespace qr_detail;

template <class T>
void geqrf(MatMut<T> A, T* tau, int max_threads) {
  const index m = A.rows, n = A.cols, k = std::min(m, n);
  const index nb = qr_block_size();
  std::vector<T> P, Vb, Tm, W, W2;
  for (index j0 = 0; j0 < k; j0 += nb) {
    const index kb = std::min(nb, k - j0), mr = m - j0;
    P.resize(static_cast<size_t>(mr * kb));
    for (index r = 0; r < mr; ++r)
      for (index j = 0; j < kb; ++j) P[j * mr + r] = A(j0 + r, j0 + j);
    panel(P.data(), mr, kb, mr, tau + j0);
    for (index r = 0; r < mr; ++r)
      for (index j = 0; j < kb; ++j) A(j0 + r, j0 + j) = P[j * mr + r];
    if (j0 + kb < n) {
      explicit_v<T>(A.ref(), j0, kb, Vb);
      Tm.resize(static_cast<size_t>(kb * kb));
      larft(Vb.data(), mr, kb, tau + j0, Tm.data());
      apply_block(Vb, Tm, mr, kb, true, A.block(j0, j0 + kb, mr, n - j0 - kb), W, W2, max_threads);
    }
  }
}

template <class T>
void apply_q(MatRef<T> V, const T* tau, index k, bool adjoint, MatMut<T> C, int max_threads) {
  const index m = V.rows, nb = qr_block_size();
  if (k == 0) return;
  std::vector<T> Vb, Tm, W, W2;
  const index nblocks = (k + nb - 1) / nb;
  for (index bi = 0; bi < nblocks; ++bi) {
    // Q·C applies the last block first; Qᴴ·C the first block first.
    const index b = adjoint ? bi : nblocks - 1 - bi;
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0;
    explicit_v<T>(V, j0, kb, Vb);
    Tm.resize(static_cast<size_t>(kb * kb));
    larft(Vb.data(), mr, kb, tau + j0, Tm.data());
    apply_block(Vb, Tm, mr, kb, adjoint, C.block(j0, 0, mr, C.cols), W, W2, max_threads);
  }
}

template <class T>
void orgqr(MatRef<T> V, const T* tau, index k, MatMut<T> Q, int max_threads) {
  const index m = Q.rows, cols = Q.cols, nb = qr_block_size();
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < cols; ++j) Q(i, j) = i == j ? T(1) : T(0);
  if (k == 0) return;
  std::vector<T> Vb, Tm, W, W2;
  const index nblocks = (k + nb - 1) / nb;
  for (index b = nblocks - 1; b >= 0; --b) {
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0;
    explicit_v<T>(V, j0, kb, Vb);
    Tm.resize(static_cast<size_t>(kb * kb));
    larft(Vb.data(), mr, kb, tau + j0, Tm.data());
    // Columns left of j0 are still identity columns, zero in rows ≥ j0: skip them.
    apply_block(Vb, Tm, mr, kb, false, Q.block(j0, j0, mr, cols - j0), W, W2, max_threads);
  }
}

template <class T>
void qr(const T* A, index m, index n, QrMode mode, T* Q, T* R, int max_threads) {
  const index k = std::min(m, n);
  std::vector<T> work(A, A + m * n), tau(static_cast<size_t>(k));
  MatMut<T> Wm{work.data(), m, n, n, 1};
  geqrf(Wm, tau.data(), max_threads);
  const index rr = mode == QrMode::Complete ? m : k;
  for (index i = 0; i < rr; ++i)
    for (index j = 0; j < n; ++j) R[i * n + j] = (i < k && j >= i) ? work[i * n + j] : T(0);
  if (mode == QrMode::R) return;
  const index qc = mode == QrMode::Complete ? m : k;
  orgqr<T>(Wm.ref(), tau.data(), k, MatMut<T>{Q, m, qc, qc, 1}, max_threads);
}

#define LAPIS_INST(T)                                                                   \
  template real_t<T> qr_detail::nrm2<T>(const T*, index, index);                        \
  template void qr_detail::larfg<T>(T&, T*, index, index, T&);                          \
  template void geqrf<T>(MatMut<T>, T*, int);                                           \
  template void apply_q<T>(MatRef<T>, const T*, index, bool, MatMut<T>, int);           \
  template void orgqr<T>(MatRef<T>, const T*, index, MatMut<T>, int);                   \
  template void qr<T>(const T*, index, index, QrMode, T*, T*, int);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
