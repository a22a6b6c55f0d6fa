// The LAPACK route to singular values (gebrd + bdsqr), internal to native/src/svd: blocked
// Householder bidiagonalization (a QR first when the matrix is much taller than wide;
// complex input gets a real bidiagonal, as in zgebrd) and dqds on the bidiagonal
// (Demmel–Kahan implicit QR where dqds declines). Backward stable (absolute error about
// eps·σ_max per value), several times fewer flops than one-sided Jacobi; svd.cpp uses it
// when the input is not graded (docs/svd.md).
#pragma once
#include "lapis/common.hpp"

namespace lapis::svd_detail {

// Column-major m×n A (m ≥ n, leading dimension lda) → real upper bidiagonal B = Qᴴ·A·P:
// d (n), e (n − 1); the reflectors stay in A (LAPACK gebrd/zgebrd storage: Q's v below
// the diagonal, P's u right of the superdiagonal as uᴴ, i.e. conjugated for complex T),
// tauq and taup (n). Panels of nb columns (labrd; 0: 16), the trailing matrix updated by
// two GEMMs per panel; the last max(nb, nx) columns (nx 0: 128 real, 16 complex) unblocked
// (gebd2).
template <class T>
void gebrd(T* A, index m, index n, index lda, real_t<T>* d, real_t<T>* e, T* tauq, T* taup, int max_threads,
           index nb = 0, index nx = 0);

// Singular values of the real upper bidiagonal (d, e) in place into d (unsorted, signs
// kept), e destroyed: implicit zero-shift / shifted QR with Demmel–Kahan's relative
// convergence tests (LAPACK bdsqr without vectors), so every value has high relative
// accuracy in the bidiagonal's entries. Returns 0, or the number of e entries left
// nonzero when the iteration cap (6·n² inner steps) ran out.
template <class R>
int bdsqr_values(index n, R* d, R* e);

// The same values by dqds on the squares q = d², e² (Fernando–Parlett; one division and
// no square root a step), to high relative accuracy; d gets the values (unsorted, ≥ 0).
// Returns false, d then undefined, where it declines: entries whose squares would leave
// the normal range, a zero diagonal entry, or no convergence within 30·n² steps.
template <class R>
bool dqds_values(index n, R* d, const R* e);

// Singular values (descending) of the row-major m×n A divided by `scale` (a power of
// two, so the division is exact), multiplied back by scale on output. Real or complex T.
// dqds first, bdsqr where it declines. Returns 0, or bdsqr_values' info.
template <class T>
int svdvals_bidiag(const T* A, index m, index n, real_t<T> scale, real_t<T>* S, int max_threads);

// The full SVD of the row-major m×n A divided by `scale` (a power of two), real or
// complex T, in lapis::svd's output layout (S descending, multiplied back by scale; U m×m
// or m×k, Vh = Vᴴ n×n or k×n, row-major): gebrd (a QR first when much taller than wide),
// bdsdc on the real bidiagonal, then Q and P applied to its vectors as block reflectors
// (GEMM). Returns false, outputs undefined, when bdsdc declines; the caller then runs
// Jacobi.
template <class T>
bool svd_bidiag(const T* A, index m, index n, real_t<T> scale, real_t<T>* S, T* U, T* Vh, bool full,
                int max_threads);

}  // namespace lapis::svd_detail
