// General matrix multiply, the building block of every blocked algorithm:
//   C ← alpha · op(A) · op(B) + beta · C
// with op expressed by the views (stride swap = transpose, .conj = conjugate). C is m×n,
// A is m×k, B is k×n as views. beta == 0 means C is written without being read (NaN in C
// is ignored), as in BLAS. Small or skinny products take an unpacked path; large ones a
// packed, cache-blocked path with ISA micro-kernels, spread over the thread pool.
#pragma once
#include "lapis/common.hpp"

namespace lapis {

template <class T>
void gemm(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C);

// Same, with an explicit thread cap (1 = run on the calling thread only). Kernels that
// already parallelise over a batch call this with 1.
template <class T>
void gemm(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int max_threads);

// Which micro-kernel family is active ("avx512", "avx2", "neon", "portable"; isa_name(active_isa())).
const char* gemm_kernel_name();

}  // namespace lapis
