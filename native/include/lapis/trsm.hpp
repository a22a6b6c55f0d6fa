// Triangular solve with multiple right-hand sides, in place on B:
//   left:  op(A) · X = alpha · B      right: X · op(A) = alpha · B
// A is square; only the triangle named by `upper` is read (the other may hold anything,
// NaN included); `unit` means the diagonal is taken as 1 and never read. op(A) is
// expressed by the view (stride swap = transpose, .conj = conjugate), so `upper` refers
// to the triangle of op(A) as the view presents it. Blocked: diagonal blocks are solved
// directly and the rest of B is updated with GEMM.
#pragma once
#include "lapis/common.hpp"

namespace lapis {

enum class Side { Left, Right };

// Diagonal blocks up to `block` are solved directly, the rest of B updated with GEMM
// (tests pass small blocks so the blocked path runs at small n).
struct TrsmParams {
  index block = 32;
};

template <class T>
void trsm(Side side, bool upper, bool unit, T alpha, MatRef<T> A, MatMut<T> B, int max_threads = 0,
          const TrsmParams& p = {});

}  // namespace lapis

namespace lapis {

// Batches of small real systems op(A_b)·X_b = B_b (A_b = A + aIdx[b]·n·n, B_b = B +
// bIdx[b]·n·k, null index maps meaning b itself; X_b = X + b·n·k; all row-major; trans
// reads A transposed; `upper` names the triangle of op(A), only it is read, and not its
// diagonal when `unit`). Each system is solved whole by one register-blocked kernel, the
// batch spread over the thread pool. Returns false, doing nothing, where that kernel does
// not apply (complex T, n > 128, k < 8, no vector build): the caller then takes the
// blocked trsm.
template <class T>
bool trsm_small_batched(bool trans, bool upper, bool unit, index count, index n, index k, const T* A,
                        const int32_t* aIdx, const T* B, const int32_t* bIdx, T* X);

}  // namespace lapis
