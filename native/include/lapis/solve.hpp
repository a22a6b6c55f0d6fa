// Batched solver drivers over contiguous row-major matrices. Each output item b reads
// input matrix aIdx[b] / bIdx[b] (null: b itself), which is how broadcast batch dims
// arrive without copies. Small matrices are spread over the thread pool one matrix per
// task; large ones run one at a time with the threads inside the GEMM.
//
// info per item: 0 ok; k > 0: U(k-1, k-1) is exactly zero (1-based, LAPACK), the output
// is then filled with NaN ("not computed"); -1 (solve, inv): A holds NaN or Inf, output
// filled with NaN; -2 (LU only): A is finite but its factors overflow (solve, inv and
// det equilibrate such matrices instead: src/solve/equilibrate.hpp). One failing item
// never changes its neighbours.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "lapis/common.hpp"
#include "lapis/lu.hpp"

namespace lapis {

// LU of count m×n matrices: LU (count·m·n), piv (count·min(m,n), 1-based), info (count).
template <class T>
void lu_factor_batched(index count, index m, index n, const T* A, T* LU, int32_t* piv, int32_t* info);

// op(A_b)·X_b = B_b with A_b = P·L·U given by (LU, piv) of item aIdx[b]; B n×k.
template <class T>
void lu_solve_batched(Op op, index count, index n, index k, const T* LU, const int32_t* piv, const int32_t* aIdx,
                      const T* B, const int32_t* bIdx, T* X);

// A_b·X_b = B_b for square A (n×n) and B (n×k).
template <class T>
void solve_batched(index count, index n, index k, const T* A, const int32_t* aIdx, const T* B, const int32_t* bIdx,
                   T* X, int32_t* info);

// Same, for aCount distinct matrices shared through aIdx (A broadcast over B's batch):
// each distinct A is factored once.
template <class T>
void solve_batched_shared(index count, index n, index k, const T* A, const int32_t* aIdx, index aCount, const T* B,
                          const int32_t* bIdx, T* X, int32_t* info);

// op(A_b)·X_b = B_b, A triangular (only the named triangle read), B n×k. op is the view
// of A as a row-major matrix: None, Trans or ConjTrans; `upper` names the triangle of
// op(A).
template <class T>
void trsm_batched(Op op, bool upper, bool unit, index count, index n, index k, const T* A, const int32_t* aIdx,
                  const T* B, const int32_t* bIdx, T* X);

// trtrs's status for trsm_batched's outputs: info[b] = first i (1-based) with A_aIdx[b](i-1, i-1)
// exactly zero, else 0 (always 0 when unit); X_b is then set to NaN. A: aCount n×n matrices.
template <class T>
void trsm_diag_info(bool unit, index count, index n, index k, const T* A, const int32_t* aIdx, index aCount, T* X,
                    int32_t* info);

// Inverses of count n×n matrices (n ≤ 4 goes to inv_small_batched).
template <class T>
void inv_batched(index count, index n, const T* A, T* X, int32_t* info);

// Runs fn(b, threads) for b in [0, count): spread over the pool when each item costs
// fewer than ~`flops` operations (threads = 1 inside), else one after the other with the
// pool inside each item (threads = 0).
void for_each_item(index count, double flops_per_item, void (*fn)(index, int, void*), void* ctx);

template <class F> void for_each_item(index count, double flops_per_item, F&& f) {
  using G = std::remove_reference_t<F>;
  for_each_item(count, flops_per_item, [](index b, int t, void* c) { (*static_cast<G*>(c))(b, t); },
                const_cast<void*>(static_cast<const void*>(&f)));
}

// NaN in every component (T(NaN) alone leaves a complex number's imaginary part 0).
template <class T> T nan_value() {
  const real_t<T> q = std::numeric_limits<real_t<T>>::quiet_NaN();
  if constexpr (is_complex_v<T>) return T(q, q);
  else return q;
}

// x·0 is 0 for finite x and NaN for NaN/Inf; eight independent sums of those vectorise
// (a single running sum would not: FP addition is not reassociated).
template <class T> bool all_finite(index len, const T* p) {
  using R = real_t<T>;
  const R* r = reinterpret_cast<const R*>(p);
  const index n = len * static_cast<index>(sizeof(T) / sizeof(R));
  R acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  index i = 0;
  for (; i + 8 <= n; i += 8)
    for (int u = 0; u < 8; ++u) acc[u] += r[i + u] * R(0);
  for (; i < n; ++i) acc[0] += r[i] * R(0);
  R s = 0;
  for (int u = 0; u < 8; ++u) s += acc[u];
  return s == R(0);
}

}  // namespace lapis
