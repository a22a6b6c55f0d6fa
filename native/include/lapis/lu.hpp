// LU factorization with partial pivoting (LAPACK getrf semantics) and solves with it.
//
// Storage is row-major with a leading dimension (the distance between rows), which is
// what the tensors hold; the factors overwrite A: L below the diagonal (unit diagonal
// implied), U on and above it. Pivots are 1-based as in LAPACK and torch: row i was
// swapped with row ipiv[i] - 1, in order i = 0, 1, ….
//
// Return value (info): 0, or k > 0 when U(k-1, k-1) is exactly zero for the first such k
// (1-based). The factorization is completed anyway, as LAPACK does.
#pragma once
#include <cstdint>

#include "lapis/common.hpp"
#include "lapis/trsm.hpp"

namespace lapis {

// Block sizes of the LU and its solves, passed down explicitly (as faer's Params): the
// defaults are the tuned values; tests pass small ones so the recursive and blocked paths
// run at small n (native/tests/test_blocking.cpp).
struct LuParams {
  index leaf = 16;                         // recursion stops at panels this wide (unblocked kernel below)
  index crossover = 64;                    // min(m, n) ≤ this: factored unblocked, no GEMM calls
  index trsm_block = TrsmParams{}.block;   // the TRSMs inside: diagonal blocks solved directly
};

// m×n LU in place. ipiv has min(m, n) entries. max_threads caps the threads of the GEMM
// calls inside (1 = this thread only, 0 = the pool).
template <class T>
int32_t getrf(index m, index n, T* a, index lda, int32_t* ipiv, int max_threads = 0, const LuParams& p = {});

// Applies the row interchanges ipiv[k1..k2) to the rows of B (row-major, ldb), forward
// (as getrf did them) or backward (their inverse).
template <class T>
void laswp(index ncols, T* b, index ldb, const int32_t* ipiv, index k1, index k2, bool forward);

enum class Op { None, Trans, ConjTrans };

// Solves op(A)·X = B with A = P·L·U from getrf (n×n, row-major lda), B n×nrhs in place.
template <class T>
void getrs(Op op, index n, index nrhs, const T* lu, index lda, const int32_t* ipiv, T* b, index ldb,
           int max_threads = 0, const LuParams& p = {});

}  // namespace lapis
