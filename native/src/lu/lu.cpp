// Recursive right-looking LU (Toledo; LAPACK's dgetrf2, faer's lu_in_place_recursion):
// factor the left half of the columns, apply its interchanges to the right half, solve
// with the unit-lower block (TRSM), update the trailing block with one GEMM, recurse on it.
// The GEMMs are as large as the matrix allows, so nearly all flops run in the packed GEMM.
// Narrow panels and small matrices take the unblocked kernel (no per-call overhead).
#include "lapis/lu.hpp"

#include <algorithm>
#include <vector>

#include "kernels.hpp"
#include "lapis/blas1.hpp"
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"
#include "lapis/trsm.hpp"

namespace lapis {

template <class T>
void laswp(index ncols, T* b, index ldb, const int32_t* ipiv, index k1, index k2, bool forward) {
  if (ncols <= 0) return;
  auto one = [&](index i) {
    const index p = ipiv[i] - 1;
    if (p != i) blas1::swap(ncols, b + i * ldb, 1, b + p * ldb, 1);
  };
  if (forward) for (index i = k1; i < k2; ++i) one(i);
  else for (index i = k2 - 1; i >= k1; --i) one(i);
}

namespace {

// Copies of rows [i0, i1) of an m×n row-major block to and from column-major (ld m), eight
// rows at a time: each row's few cache lines are read (written) once per block while the
// copy runs down contiguous columns (row by row, the copies were most of the leaf's time).
template <class T> void to_cm(index i0, index i1, index m, index n, const T* a, index lda, T* c) {
  constexpr index RB = 8;
  index i = i0;
  for (; i + RB <= i1; i += RB)
    for (index j = 0; j < n; ++j) {
      const T* s = a + i * lda + j;
      T* d = c + j * m + i;
      for (index r = 0; r < RB; ++r) d[r] = s[r * lda];
    }
  for (; i < i1; ++i)
    for (index j = 0; j < n; ++j) c[j * m + i] = a[i * lda + j];
}
template <class T> void from_cm(index i0, index i1, index m, index n, const T* c, T* a, index lda) {
  constexpr index RB = 8;
  index i = i0;
  for (; i + RB <= i1; i += RB)
    for (index j = 0; j < n; ++j) {
      T* d = a + i * lda + j;
      const T* s = c + j * m + i;
      for (index r = 0; r < RB; ++r) d[r * lda] = s[r];
    }
  for (; i < i1; ++i)
    for (index j = 0; j < n; ++j) a[i * lda + j] = c[j * m + i];
}

// Runs fn over row ranges of [0, m): split between threads when the panel is tall (the
// copies wait on memory, one strided row at a time; the panel is on the critical path of
// a threaded LU).
template <class F> void over_rows(index m, int threads, const F& fn) {
  constexpr index kMinRows = 256;
  if (threads == 1 || m < 2 * kMinRows || in_parallel_region()) {
    fn(index(0), m);
    return;
  }
  parallel_for(m / 8, kMinRows / 8, [&](index b0, index b1) { fn(b0 * 8, b1 * 8 == m / 8 * 8 ? m : b1 * 8); }, threads);
}

// The unblocked kernel on a row-major block. A tall, narrow block (a leaf panel of the
// recursion) is factored in a column-major copy: pivot searches, scaling and the fused
// rank-4 updates then run down contiguous columns, where the row-major kernel would touch
// only a few elements per row. Square blocks stay row-major (measured: the copies cost
// more than they save there).
template <class T>
int32_t getf2_any(index m, index n, T* a, index lda, int32_t* ipiv, int threads) {
  const auto& kern = detail::solver_kernels<T>();
  if (m < 4 * n) return kern.getf2(m, n, a, lda, ipiv);
  thread_local std::vector<T> buf;
  buf.resize(static_cast<size_t>(m * n));
  T* c = buf.data();
  over_rows(m, threads, [&](index i0, index i1) { to_cm(i0, i1, m, n, a, lda, c); });
  const int32_t info = kern.getf2_cm(m, n, c, m, ipiv);
  over_rows(m, threads, [&](index i0, index i1) { from_cm(i0, i1, m, n, c, a, lda); });
  return info;
}

// laswp inside the factorization: with several threads the columns are split between
// them (serial, it would stall every step of the recursion while the other threads wait).
template <class T>
void laswp_par(index ncols, T* b, index ldb, const int32_t* ipiv, index k1, index k2, int threads) {
  constexpr index kMinCols = 64;
  if (threads == 1 || ncols < 2 * kMinCols || static_cast<double>(ncols) * (k2 - k1) < 65536.0 ||
      in_parallel_region()) {
    laswp(ncols, b, ldb, ipiv, k1, k2, true);
    return;
  }
  parallel_for(ncols, kMinCols, [&](index c0, index c1) { laswp(c1 - c0, b + c0, ldb, ipiv, k1, k2, true); }, threads);
}

template <class T>
int32_t getrf_rec(index m, index n, T* a, index lda, int32_t* ipiv, index leaf, const TrsmParams& tp, int threads) {
  const index mn = std::min(m, n);
  if (mn == 0) return 0;
  if (mn <= leaf) return getf2_any(m, n, a, lda, ipiv, threads);
  const index n1 = std::max<index>(1, mn / 2), n2 = n - n1;
  // [A11; A21]
  int32_t info = getrf_rec(m, n1, a, lda, ipiv, leaf, tp, threads);
  // A12: interchanges, then L11⁻¹·A12
  laswp_par(n2, a + n1, lda, ipiv, 0, n1, threads);
  MatRef<T> L11{a, n1, n1, lda, 1};
  MatMut<T> A12{a + n1, n1, n2, lda, 1};
  trsm<T>(Side::Left, false, true, T(1), L11, A12, threads, tp);
  // A22 -= A21·A12
  MatMut<T> A22{a + n1 * lda + n1, m - n1, n2, lda, 1};
  if (m > n1) {
    MatRef<T> A21{a + n1 * lda, m - n1, n1, lda, 1};
    gemm<T>(T(-1), A21, A12.ref(), T(1), A22, threads);
    int32_t info2 = getrf_rec(m - n1, n2, A22.p, lda, ipiv + n1, leaf, tp, threads);
    if (info == 0 && info2 > 0) info = info2 + static_cast<int32_t>(n1);
    for (index i = n1; i < mn; ++i) ipiv[i] += static_cast<int32_t>(n1);
    laswp_par(n1, a, lda, ipiv, n1, mn, threads);
  }
  return info;
}

}  // namespace

template <class T>
int32_t getrf(index m, index n, T* a, index lda, int32_t* ipiv, int max_threads, const LuParams& p) {
  if (m <= 0 || n <= 0) return 0;
  const index mn = std::min(m, n);
  if (mn <= p.crossover) return getf2_any(m, n, a, lda, ipiv, max_threads);
  return getrf_rec(m, n, a, lda, ipiv, std::max<index>(1, p.leaf), TrsmParams{p.trsm_block}, max_threads);
}

template <class T>
void getrs(Op op, index n, index nrhs, const T* lu, index lda, const int32_t* ipiv, T* b, index ldb,
           int max_threads, const LuParams& p) {
  if (n <= 0 || nrhs <= 0) return;
  const TrsmParams tp{p.trsm_block};
  MatRef<T> A{lu, n, n, lda, 1};
  MatMut<T> B{b, n, nrhs, ldb, 1};
  if (op == Op::None) {
    laswp(nrhs, b, ldb, ipiv, 0, n, true);
    trsm<T>(Side::Left, false, true, T(1), A, B, max_threads, tp);
    trsm<T>(Side::Left, true, false, T(1), A, B, max_threads, tp);
  } else {
    // op(A) = op(U)·op(L)·Pᵀ: solve with op(U) (lower), op(L) (unit upper), then undo P.
    MatRef<T> At = op == Op::Trans ? A.t() : A.h();
    trsm<T>(Side::Left, false, false, T(1), At, B, max_threads, tp);
    trsm<T>(Side::Left, true, true, T(1), At, B, max_threads, tp);
    laswp(nrhs, b, ldb, ipiv, 0, n, false);
  }
}

#define LAPIS_INST(T)                                                                                 \
  template int32_t getrf<T>(index, index, T*, index, int32_t*, int, const LuParams&);                \
  template void laswp<T>(index, T*, index, const int32_t*, index, index, bool);                     \
  template void getrs<T>(Op, index, index, const T*, index, const int32_t*, T*, index, int, const LuParams&);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
