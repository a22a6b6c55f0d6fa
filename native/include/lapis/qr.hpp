// Householder QR with the compact WY representation (LAPACK geqrf/orgqr/ormqr):
// Q = H_0 H_1 … H_{k-1}, H_i = I − τ_i v_i v_iᴴ, v_i(i) = 1, v_i(0:i) = 0. Panels of
// `nb` columns are factored recursively (level-2 code only in leaves of 8 columns, T
// built along); each panel's block reflector I − V·T·Vᴴ (T upper triangular) is then
// applied to the trailing matrix with GEMMs, so large QRs run at GEMM speed. Complex Q
// is unitary; R's diagonal is real (LAPACK's convention; its sign is not normalised, as
// in LAPACK and torch).
#pragma once
#include "lapis/common.hpp"

namespace lapis {

enum class QrMode { Reduced = 0, Complete = 1, R = 2 };

// Panel width of the blocked algorithms, passed down explicitly (as faer's Params): 0 (the
// default) chooses it per matrix, 32 for matrices up to 1 MiB and 48 above. Tests pass
// small widths so the blocked paths run at small n (native/tests/test_blocking.cpp).
struct QrParams {
  index nb = 0;
};

// In place on A (m×n view): R in the upper triangle/trapezoid, v_i below the diagonal;
// tau has min(m, n) entries. max_threads is passed to the GEMM (1 = this thread only).
template <class T>
void geqrf(MatMut<T> A, T* tau, int max_threads = 0, const QrParams& p = {});

// C ← Q·C (adjoint = false) or Qᴴ·C, Q from geqrf's first k reflectors held in V's
// lower part (V is m×k or wider; only the strict lower triangle of its first k columns
// is read). C has m rows.
template <class T>
void apply_q(MatRef<T> V, const T* tau, index k, bool adjoint, MatMut<T> C, int max_threads = 0,
             const QrParams& p = {});

// The first Q.cols columns of Q (k ≤ Q.cols ≤ m), formed blockwise; Q is m×cols.
template <class T>
void orgqr(MatRef<T> V, const T* tau, index k, MatMut<T> Q, int max_threads = 0, const QrParams& p = {});

// Row-major A (m×n) → Q and R as torch.linalg.qr returns them. Reduced: Q m×k, R k×n;
// complete: Q m×m, R m×n; R mode: Q untouched (may be null), R k×n (k = min(m, n)).
template <class T>
void qr(const T* A, index m, index n, QrMode mode, T* Q, T* R, int max_threads = 0, const QrParams& p = {});

}  // namespace lapis
