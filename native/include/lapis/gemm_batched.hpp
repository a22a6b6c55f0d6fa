// Batched GEMM: C[b] ← alpha · op(A[ia(b)]) · op(B[ib(b)]) + beta · C[b] for 0 ≤ b < count.
// A, B and C are the views of matrix 0 (op expressed by strides and .conj, as in
// lapis::gemm); matrix i of an operand starts i·step elements after matrix 0. The index
// maps carry a broadcast batch: ia(b) = a_idx[b] (null: b), ib(b) likewise. Every C[b] must
// be distinct storage. beta == 0 never reads C.
//
// Small products (m, n ≤ 16, k ≤ 64: docs/gemm.md, "Small products") run register-resident
// kernels with no packing, the whole batch in one call per thread and the batch split
// over the threads in large chunks; larger ones run one lapis::gemm each, on one thread
// per group of matrices, or threaded inside when each product is big.
#pragma once
#include <cstdint>

#include "lapis/common.hpp"

namespace lapis {

template <class T>
void gemm_batched(index count, T alpha, MatRef<T> A, index a_step, const int32_t* a_idx, MatRef<T> B, index b_step,
                  const int32_t* b_idx, T beta, MatMut<T> C, index c_step, int max_threads = 0);

}  // namespace lapis
