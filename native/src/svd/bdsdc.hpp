// Singular values and vectors of a real upper bidiagonal by divide and conquer (the idea
// of LAPACK's dbdsdc / dlasd0–dlasd4, written anew): leaves of at most kDcLeaf rows by
// implicit-shift QR with the rotations accumulated; each merge deflates, solves the
// secular equation per root with the origin at the nearest pole, recomputes z
// (Gu–Eisenstat) so the vectors come out orthogonal, and updates the vectors by GEMM.
// Internal to native/src/svd; docs/svd.md ("With vectors: the bidiagonal route").
#pragma once
#include "lapis/common.hpp"

namespace lapis::svd_detail {

// Leaf size of the recursion (LAPACK's smlsiz is 25).
constexpr index kDcLeaf = 25;

// Upper bidiagonal n×n (d: n, e: n − 1) → B = U·diag(s)·Vᵀ with s descending, ≥ 0, and
// U, V column-major n×n (leading dimensions ldu, ldv ≥ n). Returns false (outputs then
// undefined) when it declines: non-finite entries, a leaf QR or a secular root that did
// not converge. leaf ≤ 0 takes kDcLeaf (tests pass small leaves to exercise the merges).
template <class R>
bool bdsdc(index n, const R* d, const R* e, R* s, R* U, index ldu, R* V, index ldv, int max_threads,
           index leaf = 0);

}  // namespace lapis::svd_detail
