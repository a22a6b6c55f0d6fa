// Run-time choice between the portable and the AVX2+FMA build of the unblocked kernels
// (kernels_impl.hpp). Internal to native/src.
#pragma once
#include <complex>
#include <cstdint>

#include "lapis/common.hpp"

namespace lapis::detail {

template <class T> struct SolverKernels {
  int32_t (*getf2)(index m, index n, T* a, index lda, int32_t* ipiv);
  // the same on a column-major m×w panel (column j at c + j·ldc)
  int32_t (*getf2_cm)(index m, index w, T* c, index ldc, int32_t* ipiv);
  void (*trsv_rows)(bool upper, bool unit, index n, index k, const T* t, index ldt, T* b, index ldb);
  // A·X = B for n ≤ kSolveSmallMax, no allocation; returns info (X unset when info > 0).
  int32_t (*solve_small)(index n, index k, const T* A, const T* B, T* X);
};

inline constexpr index kSolveSmallMax = 16;

template <class T> const SolverKernels<T>& solver_kernels();

namespace portable { template <class T> SolverKernels<T> make_kernels(); }
namespace avx2 { template <class T> SolverKernels<T> make_kernels(); }

// "avx2" or "portable": what solver_kernels() hands out (LAPIS_KERNELS=portable forces portable).
const char* solver_kernel_name();

}  // namespace lapis::detail
