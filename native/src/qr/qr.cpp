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

#include "lapis/blas1.hpp"
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"
#include "qr_internal.hpp"

namespace lapis {

namespace qr_detail {

// Panel width for an m×n factorization unless QrParams sets one: 32 while the matrix fits
// in a core's L2, 48 beyond, where each wider block update saves a pass over the trailing
// matrix in memory (timings: docs/decisions.md).
index block_size_for(index m, index n, std::size_t elem, const QrParams& p) {
  if (p.nb > 0) return p.nb;
  return double(m) * double(n) * double(elem) > double(1 << 20) ? 48 : 32;
}

}  // namespace qr_detail

namespace qr_detail {

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
  R xnorm = blas1::nrm2(n, x, inc);
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
      blas1::scal(n, rs, x, inc);
      beta *= rs;
      alpha *= rs;
    } while (std::abs(beta) < safmin && knt < 20);
    xnorm = blas1::nrm2(n, x, inc);
    ar = real_part(alpha);
    if constexpr (is_complex_v<T>) ai = alpha.imag();
    beta = -std::copysign(hypot3(ar, ai, xnorm), ar);
  }
  if constexpr (is_complex_v<T>) tau = T((beta - ar) / beta, -ai / beta);
  else tau = (beta - ar) / beta;
  T scal = T(1) / (alpha - T(beta));
  blas1::scal(n, scal, x, inc);
  for (int j = 0; j < knt; ++j) beta *= safmin;
  alpha = T(beta);
}

using blas1::mul;

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
      blas1::axpy(mr - i, -mul(ct, blas1::dotc(mr - i, col + i, 1, cj + i, 1)), col + i, 1, cj + i, 1);
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
// lower V twice — by columns (V, ld = mr) and by rows (Vr, ld = ldt) — and T (row-major,
// ld = ldt; all of its [c0, c0 + w) block). The caller zeroes V and Vr. wk holds w²/2
// scalars.
// The GEMM's micro-kernel streams B along its rows; both layouts of V let every product
// here present a row-contiguous B (Vr for the products over the long dimension, V for the
// update), so none of them packs an operand.
template <class T>
void rec_panel(T* P, index mr, index c0, index w, index leafw, T* tau, T* V, T* Vr, T* Tm, index ldt, T* wk,
               int threads) {
  const index rows = mr - c0;
  if (w <= leafw) {
    panel(P + c0 * mr + c0, rows, w, mr, tau + c0);
    for (index j = 0; j < w; ++j) {
      T* v = V + (c0 + j) * mr;
      const T* p = P + (c0 + j) * mr;
      v[c0 + j] = T(1);
      std::copy(p + c0 + j + 1, p + mr, v + c0 + j + 1);
    }
    for (index r = c0; r < mr; ++r) {
      T* vr = Vr + r * ldt + c0;
      const index lim = std::min(r - c0, w);
      for (index j = 0; j < lim; ++j) vr[j] = P[(c0 + j) * mr + r];
      if (r - c0 < w) vr[r - c0] = T(1);
    }
    // Gram matrix of the leaf's vectors, upper part (v_j is zero above row c0 + j).
    for (index i = 0; i < w; ++i)
      for (index j = 0; j < i; ++j)
        wk[j * w + i] = blas1::dotc(mr - c0 - i, V + (c0 + j) * mr + c0 + i, 1, V + (c0 + i) * mr + c0 + i, 1);
    t_from_gram(wk, w, w, tau + c0, Tm + c0 * ldt + c0, ldt);
    return;
  }
  const index n1 = ((w / 2 + leafw - 1) / leafw) * leafw, n2 = w - n1;
  rec_panel(P, mr, c0, n1, leafw, tau, V, Vr, Tm, ldt, wk, threads);
  const MatRef<T> V1{V + c0 * mr + c0, rows, n1, 1, mr, false};
  const MatRef<T> V1r{Vr + c0 * ldt + c0, rows, n1, ldt, 1, false};
  const MatRef<T> T11{Tm + c0 * ldt + c0, n1, n1, ldt, 1, false};
  // W1 (n1×n2) by columns: the GEMM then forms W1ᵀ = A₂ᵀ·conj(V₁) with B = conj(V₁) by rows.
  MatMut<T> W1{wk, n1, n2, 1, n1}, W2{wk + n1 * n2, n1, n2, n2, 1};
  {
    // A₂ ← Q₁ᴴ·A₂ = A₂ − V₁·T₁₁ᴴ·(V₁ᴴ·A₂)
    MatMut<T> A2{P + (c0 + n1) * mr + c0, rows, n2, 1, mr};
    gemm<T>(T(1), V1r.h(), A2.ref(), T(0), W1, threads);
    gemm<T>(T(1), T11.h(), W1.ref(), T(0), W2, threads);
    gemm<T>(T(-1), V1, W2.ref(), T(1), A2, threads);
  }
  rec_panel(P, mr, c0 + n1, n2, leafw, tau, V, Vr, Tm, ldt, wk, threads);
  // V₂ is zero above row c0 + n1, so V₁ᴴV₂ only needs the rows below.
  const MatRef<T> V1rb = V1r.block(n1, 0, rows - n1, n1);
  const MatRef<T> V2{V + (c0 + n1) * mr + c0 + n1, rows - n1, n2, 1, mr, false};
  const MatRef<T> T22{Tm + (c0 + n1) * ldt + c0 + n1, n2, n2, ldt, 1, false};
  gemm<T>(T(1), V1rb.h(), V2, T(0), W1, threads);
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

// Workspace of the blocked routines, per thread and per type, kept between calls so a
// repeated QR pays no allocation or page faults; released after a call that grew it past
// kKeepBytes, so one huge factorization does not pin its memory.
template <class T>
struct Scratch {
  std::vector<T> P, V, Vr, Tm, W, wk, work, keepV, keepT;
  void trim() {
    constexpr std::size_t kKeepBytes = std::size_t(16) << 20;
    std::size_t bytes = 0;
    for (auto* v : {&P, &V, &Vr, &Tm, &W, &wk, &work, &keepV, &keepT}) bytes += v->capacity() * sizeof(T);
    if (bytes > kKeepBytes)
      for (auto* v : {&P, &V, &Vr, &Tm, &W, &wk, &work, &keepV, &keepT}) std::vector<T>().swap(*v);
  }
};

template <class T>
Scratch<T>& scratch() {
  thread_local Scratch<T> s;
  return s;
}

template <class T>
T* grow(std::vector<T>& v, index n) {
  if (static_cast<index>(v.size()) < n) v.resize(static_cast<size_t>(n));
  return v.data();
}

// Threads the blocked routines may use: none more inside a parallel region (a batch
// already spread over the pool).
inline int qr_threads(int max_threads) {
  if (in_parallel_region()) return 1;
  return max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
}

// Column slices of a block update handed to the threads: several per thread (they are
// pulled from a shared counter, so a thread the OS parks for a while holds up no one),
// whole GEMM tiles wide.
inline index slice_count(index nc, int threads) {
  return std::max<index>(1, std::min<index>(nc / 32, 4 * static_cast<index>(threads)));
}

// C ← (I − V·op(T)·Vᴴ)·C, op(T) = Tᴴ when adjoint (applies Qᴴ), else T. V is explicit
// (mr×kb, column-major), T row-major kb×kb. When ident > 0, C's first ident columns hold
// identity columns e_{ident_off}, e_{ident_off+1}, … of the block (Q being formed):
// their part of Vᴴ·C is a copy of rows of V, not a product.
// C's columns are independent, so with threads C is cut into column slices, each updated
// with its own three single-threaded GEMMs: one parallel region per block instead of one
// or more per GEMM and per k-slice inside it (each a wake-up and a barrier; a tall-skinny
// QR has hundreds of them).
// wbuf: 2·kb·C.cols scalars of workspace, or null for this thread's scratch.
template <class T>
void apply_block(const T* Vp, const T* Tp, index mr, index kb, bool adjoint, MatMut<T> C, int max_threads,
                 index ident = 0, index ident_off = 0, T* wbuf = nullptr) {
  const index nc = C.cols;
  if (nc == 0 || mr == 0 || kb == 0) return;
  const int threads = qr_threads(max_threads);
  const MatRef<T> V{Vp, mr, kb, 1, mr, false};
  const MatRef<T> Tr{Tp, kb, kb, kb, 1, false};
  auto run = [&](index c0, index c1, T* W, T* W2) {
    const index w = c1 - c0;
    MatMut<T> Wm{W, kb, w, w, 1}, W2m{W2, kb, w, w, 1};
    const index id1 = std::min(std::max(ident, c0), c1);  // columns [c0, id1) are identity columns
    for (index i = 0; i < kb; ++i)
      for (index j = c0; j < id1; ++j) Wm(i, j - c0) = conj(V(ident_off + j, i));
    if (id1 < c1)
      gemm<T>(T(1), V.h(), C.block(0, id1, mr, c1 - id1).ref(), T(0), Wm.block(0, id1 - c0, kb, c1 - id1), 1);
    gemm<T>(T(1), adjoint ? Tr.h() : Tr, Wm.ref(), T(0), W2m, 1);
    gemm<T>(T(-1), V, W2m.ref(), T(1), C.block(0, c0, mr, w), 1);
  };
  T* W = wbuf ? wbuf : grow(scratch<T>().W, 2 * kb * nc);
  T* W2 = W + kb * nc;
  const index ns = threads > 1 && double(mr) * nc * kb >= 1.0e6 ? slice_count(nc, threads) : 1;
  if (ns == 1) return run(0, nc, W, W2);
  parallel_for(ns, 1, [&](index s0, index s1) {
    for (index sl = s0; sl < s1; ++sl) {
      const index c0 = nc * sl / ns, c1 = nc * (sl + 1) / ns;
      run(c0, c1, W + kb * c0, W2 + kb * c0);
    }
  }, threads);
}

// Panel copies between a (row-major or strided) view and a column-major buffer, eight
// rows at a time so that both sides move whole cache lines.
template <class T>
void to_colmajor(MatRef<T> A, T* P, index ld) {
  index r = 0;
  for (; r + 8 <= A.rows; r += 8)
    for (index j = 0; j < A.cols; ++j)
      for (index i = 0; i < 8; ++i) P[j * ld + r + i] = A(r + i, j);
  for (; r < A.rows; ++r)
    for (index j = 0; j < A.cols; ++j) P[j * ld + r] = A(r, j);
}

template <class T>
void from_colmajor(const T* P, index ld, MatMut<T> A) {
  index r = 0;
  for (; r + 8 <= A.rows; r += 8)
    for (index j = 0; j < A.cols; ++j)
      for (index i = 0; i < 8; ++i) A(r + i, j) = P[j * ld + r + i];
  for (; r < A.rows; ++r)
    for (index j = 0; j < A.cols; ++j) A(r, j) = P[j * ld + r];
}

// Blocked Householder QR in place on A. With keep_v/keep_t, every block's explicit V
// (column-major, mr×kb) and T are left there back to back, for forming Q.
// With threads, a panel is factored during the previous block's update (look-ahead): one
// task updates the next panel's columns and factors it at once while the other threads
// update the rest, so the level-2-heavy panel no longer leaves threads idle.
template <class T>
void geqrf_blocks(MatMut<T> A, T* tau, int max_threads, std::vector<T>* keep_v, std::vector<T>* keep_t,
                  const QrParams& p) {
  const index m = A.rows, n = A.cols, k = std::min(m, n);
  if (k == 0) return;
  const index nb = block_size_for(m, n, sizeof(T), p), leafw = leaf_width(nb);
  const int threads = qr_threads(max_threads);
  Scratch<T>& S = scratch<T>();
  const index nblocks = (k + nb - 1) / nb;
  std::vector<index> ov(static_cast<size_t>(nblocks) + 1, 0), ot(ov);
  for (index b = 0; b < nblocks; ++b) {
    const index j0 = b * nb, kb = std::min(nb, k - j0);
    ov[b + 1] = ov[b] + (keep_v ? (m - j0) * kb : 0);
    ot[b + 1] = ot[b] + (keep_t ? kb * kb : 0);
  }
  if (keep_v) {
    grow(*keep_v, ov[nblocks]);
    grow(*keep_t, ot[nblocks]);
  }
  // Two sets of panel buffers: block b + 1 is factored while block b's are read.
  const index pv = m * nb;
  T* Pb = grow(S.P, 2 * pv);
  T* Vrb = grow(S.Vr, 2 * pv);
  T* Vb = keep_v ? nullptr : grow(S.V, 2 * pv);
  T* Tb = keep_t ? nullptr : grow(S.Tm, 2 * nb * nb);
  T* wkb = grow(S.wk, 2 * nb * nb);
  auto v_of = [&](index b) { return keep_v ? keep_v->data() + ov[b] : Vb + (b & 1) * pv; };
  auto t_of = [&](index b) { return keep_t ? keep_t->data() + ot[b] : Tb + (b & 1) * nb * nb; };
  auto factor = [&](index b) {
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0;
    T* P = Pb + (b & 1) * pv;
    T* Vr = Vrb + (b & 1) * pv;
    T* V = v_of(b);
    to_colmajor<T>(A.block(j0, j0, mr, kb).ref(), P, mr);
    std::fill(V, V + mr * kb, T(0));
    std::fill(Vr, Vr + mr * kb, T(0));
    rec_panel(P, mr, 0, kb, leafw, tau + j0, V, Vr, t_of(b), kb, wkb + (b & 1) * nb * nb, threads);
    from_colmajor<T>(P, mr, A.block(j0, j0, mr, kb));
  };
  factor(0);
  for (index b = 0; b < nblocks; ++b) {
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0, j1 = j0 + kb;
    if (j1 >= n) break;
    const T* V = v_of(b);
    const T* Tm = t_of(b);
    const bool next = b + 1 < nblocks;
    const index kb1 = next ? std::min(nb, k - j1) : 0;
    const index rest = n - j1 - kb1;  // trailing columns beyond the next panel
    const index ns = rest > 0 ? slice_count(rest, threads) : 0;
    if (!next || threads <= 1 || double(mr) * (n - j1) * kb < 1.0e6 || ns < 2) {
      apply_block(V, Tm, mr, kb, true, A.block(j0, j1, mr, n - j1), threads);
      if (next) factor(b + 1);
      continue;
    }
    // Workspace of every task from this thread's scratch: the workers' own stays small.
    T* W = grow(S.W, 2 * kb * (n - j1));
    parallel_for(1 + ns, 1, [&](index t0, index t1) {
      for (index t = t0; t < t1; ++t) {
        if (t == 0) {
          apply_block(V, Tm, mr, kb, true, A.block(j0, j1, mr, kb1), 1, 0, 0, W);
          factor(b + 1);
        } else {
          const index c0 = j1 + kb1 + rest * (t - 1) / ns, c1 = j1 + kb1 + rest * t / ns;
          apply_block(V, Tm, mr, kb, true, A.block(j0, c0, mr, c1 - c0), 1, 0, 0, W + 2 * kb * (c0 - j1));
        }
      }
    }, threads);
  }
}

// Q's first cols (≥ k) columns from the kept blocks of a k-column factorization, in
// place: whatever Q holds is overwritten. The blocks run from the last to the first, each
// on the trailing submatrix only: the columns left of j0 are still identity columns, zero
// in the rows the block touches, and a block's own columns are set to identity columns
// just before it (so Q may hold the factorization itself, as in LAPACK's orgqr).
template <class T>
void form_q(const T* keep_v, const T* keep_t, index k, index nb, MatMut<T> Q, int max_threads) {
  const index m = Q.rows, cols = Q.cols;
  auto identity_cols = [&](index c0, index c1) {
    for (index i = 0; i < m; ++i)
      for (index j = c0; j < c1; ++j) Q(i, j) = i == j ? T(1) : T(0);
  };
  identity_cols(k, cols);
  const index nblocks = (k + nb - 1) / nb;
  std::vector<index> ov(static_cast<size_t>(nblocks) + 1, 0), ot(ov);
  for (index b = 0; b < nblocks; ++b) {
    const index j0 = b * nb, kb = std::min(nb, k - j0);
    ov[b + 1] = ov[b] + (m - j0) * kb;
    ot[b + 1] = ot[b] + kb * kb;
  }
  for (index b = nblocks - 1; b >= 0; --b) {
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0;
    identity_cols(j0, j0 + kb);
    apply_block(keep_v + ov[b], keep_t + ot[b], mr, kb, false, Q.block(j0, j0, mr, cols - j0), max_threads, kb);
  }
}

}  // namespace qr_detail

using namespace qr_detail;

template <class T>
void geqrf(MatMut<T> A, T* tau, int max_threads, const QrParams& p) {
  geqrf_blocks<T>(A, tau, max_threads, nullptr, nullptr, p);
  scratch<T>().trim();
}

template <class T>
void apply_q(MatRef<T> V, const T* tau, index k, bool adjoint, MatMut<T> C, int max_threads, const QrParams& p) {
  const index m = V.rows, nb = block_size_for(m, std::max(k, C.cols), sizeof(T), p);
  if (k == 0) return;
  Scratch<T>& S = scratch<T>();
  std::vector<T> G;
  const index nblocks = (k + nb - 1) / nb;
  for (index bi = 0; bi < nblocks; ++bi) {
    // Q·C applies the last block first; Qᴴ·C the first block first.
    const index b = adjoint ? bi : nblocks - 1 - bi;
    const index j0 = b * nb, kb = std::min(nb, k - j0), mr = m - j0;
    explicit_v<T>(V, j0, kb, S.V);
    larft(S.V.data(), mr, kb, tau + j0, S.Tm, G, max_threads);
    apply_block(S.V.data(), S.Tm.data(), mr, kb, adjoint, C.block(j0, 0, mr, C.cols), max_threads);
  }
  S.trim();
}

template <class T>
void orgqr(MatRef<T> V, const T* tau, index k, MatMut<T> Q, int max_threads, const QrParams& p) {
  const index m = Q.rows, nb = block_size_for(m, Q.cols, sizeof(T), p);
  Scratch<T>& S = scratch<T>();
  std::vector<T> G, Vb, Tb;
  index nv = 0, nt = 0;
  for (index j0 = 0; j0 < k; j0 += nb) {
    const index kb = std::min(nb, k - j0);
    nv += (m - j0) * kb;
    nt += kb * kb;
  }
  T* kv = grow(S.keepV, nv);
  T* kt = grow(S.keepT, nt);
  for (index j0 = 0; j0 < k; j0 += nb) {
    const index kb = std::min(nb, k - j0), mr = m - j0;
    explicit_v<T>(V, j0, kb, Vb);
    larft(Vb.data(), mr, kb, tau + j0, Tb, G, max_threads);
    kv = std::copy(Vb.begin(), Vb.end(), kv);
    kt = std::copy(Tb.begin(), Tb.end(), kt);
  }
  form_q(S.keepV.data(), S.keepT.data(), k, nb, Q, max_threads);
  S.trim();
}

template <class T>
void qr(const T* A, index m, index n, QrMode mode, T* Q, T* R, int max_threads, const QrParams& p) {
  const index k = std::min(m, n);
  const index qc = mode == QrMode::Complete ? m : k, rr = mode == QrMode::Complete ? m : k;
  Scratch<T>& S = scratch<T>();
  std::vector<T> tau(static_cast<size_t>(k));
  // With m ≥ n, A fits in Q's first n columns: factor there and form Q over it.
  const bool in_q = mode != QrMode::R && m >= n;
  MatMut<T> F = in_q ? MatMut<T>{Q, m, n, qc, 1} : MatMut<T>{grow(S.work, m * n), m, n, n, 1};
  for (index i = 0; i < m; ++i) std::copy(A + i * n, A + (i + 1) * n, &F(i, 0));
  // Far from 1 (beyond 2^±(maxexp/2)), factor 2^−e·A and scale R back: exact, so Q is
  // that of A, and no Householder product over- or underflows (float32 data at 3e38
  // overflowed vᴴa and alpha − beta; at 1e-41 every step rounded to the subnormal grid).
  using R_ = real_t<T>;
  R_ amax = 0;
  for (index i = 0; i < m * n; ++i) {
    if constexpr (is_complex_v<T>) amax = std::max(amax, std::max(std::abs(A[i].real()), std::abs(A[i].imag())));
    else amax = std::max(amax, std::abs(A[i]));
  }
  constexpr int half = std::numeric_limits<R_>::max_exponent / 2;
  int e = 0;
  if (amax > R_(0) && std::isfinite(amax) && (amax < std::ldexp(R_(1), -half) || amax > std::ldexp(R_(1), half))) {
    e = std::ilogb(amax);
    for (index i = 0; i < m; ++i)
      for (index j = 0; j < n; ++j) {
        if constexpr (is_complex_v<T>) F(i, j) = T(std::ldexp(F(i, j).real(), -e), std::ldexp(F(i, j).imag(), -e));
        else F(i, j) = std::ldexp(F(i, j), -e);
      }
  }
  const bool want_q = mode != QrMode::R;
  geqrf_blocks<T>(F, tau.data(), max_threads, want_q ? &S.keepV : nullptr, want_q ? &S.keepT : nullptr, p);
  for (index i = 0; i < rr; ++i)
    for (index j = 0; j < n; ++j) {
      T v = (i < k && j >= i) ? F(i, j) : T(0);
      if (e != 0) {
        if constexpr (is_complex_v<T>) v = T(std::ldexp(v.real(), e), std::ldexp(v.imag(), e));
        else v = std::ldexp(v, e);
      }
      R[i * n + j] = v;
    }
  if (want_q)
    form_q(S.keepV.data(), S.keepT.data(), k, block_size_for(m, n, sizeof(T), p), MatMut<T>{Q, m, qc, qc, 1},
           max_threads);
  S.trim();
}

#define LAPIS_INST(T)                                                                   \
  template void qr_detail::larfg<T>(T&, T*, index, index, T&);                          \
  template void geqrf<T>(MatMut<T>, T*, int, const QrParams&);                              \
  template void apply_q<T>(MatRef<T>, const T*, index, bool, MatMut<T>, int, const QrParams&); \
  template void orgqr<T>(MatRef<T>, const T*, index, MatMut<T>, int, const QrParams&);        \
  template void qr<T>(const T*, index, index, QrMode, T*, T*, int, const QrParams&);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
