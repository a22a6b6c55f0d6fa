// Singular value decomposition A = U·diag(S)·Vᴴ by one-sided (Hestenes) Jacobi after QR
// preconditioning (the structure of LAPACK's gejsv/gesvj): accurate to high relative
// precision for the small singular values of graded matrices. See docs/svd.md.
#pragma once
#include <cstdint>
#include "lapis/common.hpp"

namespace lapis {

// A is row-major m×n (read only). S gets k = min(m, n) values, descending, ≥ 0.
// With compute_uv: U is m×m (full) or m×k, Vh is n×n (full) or k×n, both row-major.
// Returns info: 0 on success; -1 when A holds NaN/Inf (S, U, Vh are then filled with
// NaN); k > 0 when the Jacobi sweeps did not converge within the sweep cap (the
// results are returned anyway, as accurate as the last sweep left them).
//
// opts: the algorithm's internal choices, defaults as the benchmarks and accuracy tests
// picked them; tests pass the alternatives to cover every path.
struct SvdOptions {
  // Column-pivoted first QR (geqp2) instead of geqrf after the static column sort. Auto:
  // when the row grading (largest / smallest nonzero row max-norm) exceeds 2^30.
  enum class Pivot { Auto, Always, Never } pivot = Pivot::Auto;
  // For n ≥ 24 with vectors: sweep without accumulating the rotations and recover V from
  // R·V = X by one triangular solve when R is well conditioned (checked; the sweeps are
  // redone with accumulation otherwise). false: always accumulate.
  bool solve_for_v = true;
  // Any dtype. Auto: the bidiagonal route (gebrd, then dqds for values only or divide and
  // conquer with vectors: native/src/svd/svd.cpp, bidiag.cpp, bdsdc.cpp) unless
  // the input is graded (largest / smallest nonzero row or column max-norm above 2^6),
  // where Jacobi keeps the small values' relative accuracy.
  enum class Values { Auto, Jacobi, Bidiagonal } values = Values::Auto;
};

template <class T>
int svd(const T* A, index m, index n, real_t<T>* S, T* U, T* Vh, bool compute_uv, bool full,
        int max_threads = 0, const SvdOptions& opts = {});

}  // namespace lapis
