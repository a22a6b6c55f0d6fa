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

template <class T>
void trsm(Side side, bool upper, bool unit, T alpha, MatRef<T> A, MatMut<T> B, int max_threads = 0);

}  // namespace lapis
