// Internal to the SVD: the level-1 kernels of one-sided Jacobi, on real scalars (a complex
// vector of n elements is 2n interleaved scalars). One family is picked at run time with
// the GEMM's: AVX-512 (real kernels; complex ones from AVX2) when the GEMM runs its
// AVX-512 kernels, AVX2+FMA when it runs AVX2 (so LAPIS_KERNELS=avx2 / portable force
// the narrower code here too), else the portable one.
#pragma once
#include "lapis/common.hpp"

namespace lapis::svd_detail {

template <class R>
struct JacobiKernels {
  // Σ a_i·b_i over len scalars.
  R (*dot)(const R* a, const R* b, index len) = nullptr;
  // Σ conj(a_i)·b_i over n complex elements (2n scalars): (re, im).
  void (*dotc)(const R* a, const R* b, index n, R* re, R* im) = nullptr;
  // [x, y] ← [c·x − s·y, s·x + c·y] over len real scalars.
  void (*rot)(R* x, R* y, index len, R c, R s) = nullptr;
  // [x, y] ← [c·x − z̄·y, z·x + c·y] over n complex elements, z = zr + i·zi.
  void (*rotc)(R* x, R* y, index n, R c, R zr, R zi) = nullptr;
  // rot, then returns Σ x'_i·w_i: the dot product of the next Jacobi pair, fused into
  // the rotation's pass over x.
  R (*rot_dot)(R* x, R* y, const R* w, index len, R c, R s) = nullptr;
  // rotc, then conj(x')·w into (re, im).
  void (*rotc_dotc)(R* x, R* y, const R* w, index n, R c, R zr, R zi, R* re, R* im) = nullptr;
};

template <class R> JacobiKernels<R> portable_jacobi();
#if defined(__x86_64__) || defined(_M_X64)
#define LAPIS_SVD_X86 1
template <class R> JacobiKernels<R> avx2_jacobi();
template <> JacobiKernels<float> avx2_jacobi<float>();
template <> JacobiKernels<double> avx2_jacobi<double>();
template <class R> JacobiKernels<R> avx512_jacobi();
template <> JacobiKernels<float> avx512_jacobi<float>();
template <> JacobiKernels<double> avx512_jacobi<double>();
#else
#define LAPIS_SVD_X86 0
#endif

}  // namespace lapis::svd_detail
