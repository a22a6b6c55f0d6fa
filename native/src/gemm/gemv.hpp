// Matrix-vector products for the GEMM driver: C ← alpha·op(A)·op(B) + beta·C when C is a
// single column (n == 1: y = A·x) or a single row (m == 1: yᵀ = xᵀ·B, computed as
// y = Bᵀ·x). The GEMM micro-kernel would run such a product as nr-wide tiles with one
// useful column; here each matrix element is loaded once and used once, at memory speed.
// Internal to native/src/gemm.
#pragma once
#include <complex>

#include "lapis/common.hpp"

namespace lapis::gemm_detail {

// Same contract as lapis::gemm (any strides, .conj flags, beta == 0 never reads C, alpha
// == 0 or k == 0 only scales C), for n == 1 or m == 1; returns false, doing nothing, for
// any other shape. Spread over at most `threads` threads (0 = the pool) when large.
template <class T>
bool gemv(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int threads);

// The kernels, t = M·x (t and x contiguous, m rows, k columns; for complex T, conj_m
// conjugates M's elements as they are read):
//   rows: M's rows contiguous, M(i, p) = a[i·lda + p] (dot products, several rows at once)
//   cols: M's columns contiguous, M(i, p) = a[i + p·lda] (axpy form over a block of t)
template <class T> struct GemvKernels {
  void (*rows)(index m, index k, const T* a, index lda, const T* x, T* t, bool conj_m) = nullptr;
  void (*cols)(index m, index k, const T* a, index lda, const T* x, T* t, bool conj_m) = nullptr;
};

// The widest build the CPU runs (LAPIS_KERNELS narrows it, as for the GEMM kernels).
template <class T> const GemvKernels<T>& gemv_kernels();

namespace gemv_portable { template <class T> GemvKernels<T> make(); }
namespace gemv_avx2 { template <class T> GemvKernels<T> make(); }
namespace gemv_avx512 { template <class T> GemvKernels<T> make(); }
namespace gemv_neon { template <class T> GemvKernels<T> make(); }

}  // namespace lapis::gemm_detail
