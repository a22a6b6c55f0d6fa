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

// Plain complex product: std::complex's operator* checks for Inf/NaN recovery (a libcall
// in GCC) and keeps the loops below from vectorising.
template <class T>
inline T mul(T a, T b) {
  if constexpr (is_complex_v<T>)
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else
    return a * b;
}

// Σ conj(x_i)·y_i with independent partial sums: a single running sum is one dependent
// add per element (latency-bound, and the compiler may not reorder it into vectors).
template <class T>
T dotc(const T* x, const T* y, index n) {
  using R = real_t<T>;
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

// y ← y − a·x
template <class T>
void axpy_neg(T a, const T* x, T* y, index n) {
  for (index i = 0; i < n; ++i) y[i] -= mul(a, x[i]);
}

// Unblocked (level-2) QR of the w columns at P: mr rows, column-major, leading dim ld.
template <class T>
void panel(T* P, index mr, index w, index ld, T* tau) {
  for (index i = 0; i < w && i < mr; ++i) {
    T* col = P + i * ld;
    larfg(col[i], col + i + 1, mr - i - 1, 1, tau[i]);
    if (tau[i] == T(0)) continue;
    const T aii = col[i];
    col[i] = T(1);
    const T ct = conj(tau[i]);
    for (index j = i + 1; j < w; ++j) {
      T* cj = P + j * ld;
      axpy_neg(mul(ct, dotc(col + i, cj + i, mr - i)), col + i, cj + i, mr - i);
    }
    col[i] = aii;
  }
}

// Upper triangular T (row-major, leading dim ldt) with H_0…H_{w−1} = I − V·T·Vᴴ from
// G = VᴴV (row-major, leading dim ldg, upper part read): LAPACK larft's recurrence
// T(0:i, i) = −τ_i·T(0:i, 0:i)·G(0:i, i), with the Gram matrix formed up front.
template <class T>
void t_from_gram(const T* G, index ldg, index w, const T* tau, T* Tm, index ldt) {
  for (index i = 0; i < w; ++i) {
    for (index j = 0; j < i; ++j) {
      T s{};
      for (index l = j; l < i; ++l) s += mul(Tm[j * ldt + l], G[l * ldg + i]);
      Tm[j * ldt + i] = -mul(tau[i], s);
    }
    Tm[i * ldt + i] = tau[i];
    for (index j = i + 1; j < w; ++j) Tm[j * ldt + i] = T(0);
  }
}

// Recursive panel factorization (Elmroth–Gustavson, LAPACK geqrt3): columns
// [c0, c0 + w) of the column-major panel P (mr rows, ld = mr), rows c0 and below. The
// left half is factored, applied to the right half with GEMMs, the right half factored,
// and T's off-diagonal block joined as −T₁₁·(V₁ᴴV₂)·T₂₂, so only the leaves (≤ leafw
// columns) run level-2 code and T costs no separate pass. Fills tau, the explicit unit
// lower V (ld = mr; the caller zeroes it) and T (row-major, ld = ldt; all of its
// [c0, c0 + w) block). wk holds w²/2 scalars.
template <class T>
void rec_panel(T* P, index mr, index c0, index w, index leafw, T* tau, T* V, T* Tm, index ldt, T* wk, int threads) {
  const index rows = mr - c0;
  if (w <= leafw) {
    panel(P + c0 * mr + c0, rows, w, mr, tau + c0);
    for (index j = 0; j < w; ++j) {
      T* v = V + (c0 + j) * mr;
      const T* p = P + (c0 + j) * mr;
      v[c0 + j] = T(1);
      std::copy(p + c0 + j + 1, p + mr, v + c0 + j + 1);
    }
    // Gram matrix of the leaf's vectors, upper part (v_j is zero above row c0 + j).
    for (index i = 0; i < w; ++i)
      for (index j = 0; j < i; ++j)
        wk[j * w + i] = dotc(V + (c0 + j) * mr + c0 + i, V + (c0 + i) * mr + c0 + i, mr - c0 - i);
    t_from_gram(wk, w, w, tau + c0, Tm + c0 * ldt + c0, ldt);
    return;
  }
  const index n1 = ((w / 2 + leafw - 1) / leafw) * leafw, n2 = w - n1;
  rec_panel(P, mr, c0, n1, leafw, tau, V, Tm, ldt, wk, threads);
  const MatRef<T> V1{V + c0 * mr + c0, rows, n1, 1, mr, false};
  const MatRef<T> T11{Tm + c0 * ldt + c0, n1, n1, ldt, 1, false};
  MatMut<T> W1{wk, n1, n2, n2, 1}, W2{wk + n1 * n2, n1, n2, n2, 1};
  {
    // A₂ ← Q₁ᴴ·A₂ = A₂ − V₁·T₁₁ᴴ·(V₁ᴴ·A₂)
    MatMut<T> A2{P + (c0 + n1) * mr + c0, rows, n2, 1, mr};
    gemm<T>(T(1), V1.h(), A2.ref(), T(0), W1, threads);
    gemm<T>(T(1), T11.h(), W1.ref(), T(0), W2, threads);
    gemm<T>(T(-1), V1, W2.ref(), T(1), A2, threads);
  }
  rec_panel(P, mr, c0 + n1, n2, leafw, tau, V, Tm, ldt, wk, threads);
  // V₂ is zero above row c0 + n1, so V₁ᴴV₂ only needs the rows below.
  const MatRef<T> V1b = V1.block(n1, 0, rows - n1, n1);
  const MatRef<T> V2{V + (c0 + n1) * mr + c0 + n1, rows - n1, n2, 1, mr, false};
  const MatRef<T> T22{Tm + (c0 + n1) * ldt + c0 + n1, n2, n2, ldt, 1, false};
  gemm<T>(T(1), V1b.h(), V2, T(0), W1, threads);
  gemm<T>(T(1), T11, W1.ref(), T(0), W2, threads);
  gemm<T>(T(-1), W2.ref(), T22, T(0), MatMut<T>{Tm + c0 * ldt + c0 + n1, n1, n2, ldt, 1}, threads);
  for (index i = 0; i < n2; ++i)
    for (index j = 0; j < n1; ++j) Tm[(c0 + n1 + i) * ldt + c0 + j] = T(0);
}

// Leaf width of the recursion: level-2 code below it, GEMMs above. Small panels (the
// tests shrink nb to 4) recurse down to single columns so every branch runs.
inline index leaf_width(index nb) { return nb >= 16 ? 8 : 1; }

// V of block j0 (kb columns) from geqrf's output: explicit unit lower, column-major
// (ld = mr = A.rows − j0). Rows are read along A's rows.
template <class T>
void explicit_v(MatRef<T> A, index j0, index kb, std::vector<T>& Vb) {
  const index mr = A.rows - j0;
  Vb.assign(static_cast<size_t>(mr * kb), T(0));
  for (index r = 0; r < mr; ++r) {
    const index lim = std::min(r, kb);
    for (index j = 0; j < lim; ++j) Vb[j * mr + r] = A(j0 + r, j0 + j);
    if (r < kb) Vb[r * mr + r] = T(1);
  }
}

// T of an explicit V (mr×kb, column-major) through its Gram matrix (one GEMM).
template <class T>
void larft(const T* V, index mr, index kb, const T* tau, std::vector<T>& Tm, std::vector<T>& G, int threads) {
  Tm.resize(static_cast<size_t>(kb * kb));
  G.resize(static_cast<size_t>(kb * kb));
  const MatRef<T> Vr{V, mr, kb, 1, mr, false};
  gemm<T>(T(1), Vr.h(), Vr, T(0), MatMut<T>{G.data(), kb, kb, kb, 1}, threads);
  t_from_gram(G.data(), kb, kb, tau, Tm.data(), kb);
}

// C ← (I − V·op(T)·Vᴴ)·C, op(T) = Tᴴ when adjoint (applies Qᴴ), else T.
template <class T>
void apply_block(const T* Vp, const T* Tp, index mr, index kb, bool adjoint, MatMut<T> C, std::vector<T>& W,
                 std::vector<T>& W2, int max_threads) {
  const index nc = C.cols;
  if (nc == 0 || mr == 0 || kb == 0) return;
  W.resize(static_cast<size_t>(kb * nc));
  W2.resize(static_cast<size_t>(kb * nc));
  MatRef<T> V{Vp, mr, kb, 1, mr, false};
  MatRef<T> Tr{Tp, kb, kb, kb, 1, false};
  MatMut<T> Wm{W.data(), kb, nc, nc, 1}, W2m{W2.data(), kb, nc, nc, 1};
  gemm<T>(T(1), V.h(), C.ref(), T(0), Wm, max_threads);
  gemm<T>(T(1), adjoint ? Tr.h() : Tr, Wm.ref(), T(0), W2m, max_threads);
  gemm<T>(T(-1), V, W2m.ref(), T(1), C, max_threads);
}

// The block reflectors of one factorization, kept so forming Q reuses V and T.
template <class T>
struct Blocks {
  std::vector<index> j0, kb;
  std::vector<std::vector<T>> V, Tm;
};

template <class T>
void geqrf_blocks(MatMut<T> A, T* tau, int max_threads, Blocks<T>* keep) {
  const index m = A.rows, n = A.cols, k = std::min(m, n);
  const index nb = qr_block_size(), leafw = leaf_width(nb);
  std::vector<T> P, Vown, Town, W, W2, wk(static_cast<size_t>(nb * nb));
  for (index j0 = 0; j0 < k; j0 += nb) {
    const index kb = std::min(nb, k - j0), mr = m - j0;
    std::vector<T>* Vb = &Vown;
    std::vector<T>* Tb = &Town;
    if (keep) {
      keep->j0.push_back(j0);
      keep->kb.push_back(kb);
      keep->V.emplace_back();
      keep->Tm.emplace_back();
      Vb = &keep->V.back();
      Tb = &keep->Tm.back();
    }
    P.resize(static_cast<size_t>(mr * kb));
    for (index r = 0; r < mr; ++r)
      for (index j = 0; j < kb; ++j) P[j * mr + r] = A(j0 + r, j0 + j);
    Vb->assign(static_cast<size_t>(mr * kb), T(0));
    Tb->assign(static_cast<size_t>(kb * kb), T(0));
    rec_panel(P.data(), mr, 0, kb, leafw, tau + j0, Vb->data(), Tb->data(), kb, wk.data(), max_threads);
    for (index r = 0; r < mr; ++r)
      for (index j = 0; j < kb; ++j) A(j0 + r, j0 + j) = P[j * mr + r];
    if (j0 + kb < n)
      apply_block(Vb->data(), Tb->data(), mr, kb, true, A.block(j0, j0 + kb, mr, n - j0 - kb), W, W2, max_threads);
  }
}

// Q's first cols columns from kept blocks: identity, then the blocks from the last to the
// first, each on the trailing submatrix only (columns left of j0 are still identity
// columns, zero in the rows the block touches).
template <class T>
void form_q(const Blocks<T>& B, MatMut<T> Q, int max_threads) {
  const index m = Q.rows, cols = Q.cols;
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < cols; ++j) Q(i, j) = i == j ? T(1) : T(0);
  std::vector<T> W, W2;
  for (index b = static_cast<index>(B.j0.size()) - 1; b >= 0; --b) {
    const index j0 = B.j0[b], kb = B.kb[b], mr = m - j0;
    apply_block(B.V[b].data(), B.Tm[b].data(), mr, kb, false, Q.block(j0, j0, mr, cols - j0), W, W2, max_threads);
  }
}

}  // namespace qr_detail

using namespace qr_detail;

template <class T>
void geqrf(MatMut<T> A, T* tau, int max_threads) {
  geqrf_blocks<T>(A, tau, max_threads, nullptr);
}

template <class T>
void apply_q(MatRef<T> V, const T* tau, index k, bool adjoint, MatMut<T> C, int max_threads) {
  const index m = V.rows, nb = qr_block_size();
  if (k == 0) return;
  std::vector<T> Vb, Tm, G, W, W2;
  const index nblocks = (k + nb - 1) / nb;
  for (index bi = 0; bi < nblocks; ++bi) {
    // Q·C applies the last block first; Qᴴ·C the first block first.
    const index b = adjoint ? bi : nblocks - 1 - bi;
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0;
    explicit_v<T>(V, j0, kb, Vb);
    larft(Vb.data(), mr, kb, tau + j0, Tm, G, max_threads);
    apply_block(Vb.data(), Tm.data(), mr, kb, adjoint, C.block(j0, 0, mr, C.cols), W, W2, max_threads);
  }
}

template <class T>
void orgqr(MatRef<T> V, const T* tau, index k, MatMut<T> Q, int max_threads) {
  const index m = Q.rows, nb = qr_block_size();
  Blocks<T> B;
  std::vector<T> G;
  for (index j0 = 0; j0 < k; j0 += nb) {
    const index kb = std::min(nb, k - j0);
    B.j0.push_back(j0);
    B.kb.push_back(kb);
    B.V.emplace_back();
    B.Tm.emplace_back();
    explicit_v<T>(V, j0, kb, B.V.back());
    larft(B.V.back().data(), m - j0, kb, tau + j0, B.Tm.back(), G, max_threads);
  }
  form_q(B, Q, max_threads);
}

template <class T>
void qr(const T* A, index m, index n, QrMode mode, T* Q, T* R, int max_threads) {
  const index k = std::min(m, n);
  std::vector<T> work(A, A + m * n), tau(static_cast<size_t>(k));
  MatMut<T> Wm{work.data(), m, n, n, 1};
  Blocks<T> B;
  geqrf_blocks(Wm, tau.data(), max_threads, mode == QrMode::R ? nullptr : &B);
  const index rr = mode == QrMode::Complete ? m : k;
  for (index i = 0; i < rr; ++i)
    for (index j = 0; j < n; ++j) R[i * n + j] = (i < k && j >= i) ? work[i * n + j] : T(0);
  if (mode == QrMode::R) return;
  const index qc = mode == QrMode::Complete ? m : k;
  form_q(B, MatMut<T>{Q, m, qc, qc, 1}, max_threads);
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
