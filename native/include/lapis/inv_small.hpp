// Batched inverses of tiny matrices (n ≤ 4), the whole batch in one call: no per-matrix
// overhead. A and X are `count` contiguous row-major n×n matrices (X may alias A). For
// each matrix, info[b] = 0 on success, k > 0 when the k-th pivot of partial-pivoted
// elimination is zero (X is then filled with NaN), -1 when the input holds NaN/Inf.
#pragma once
#include <cstdint>
#include "lapis/common.hpp"

namespace lapis {
// info the real lane kernels give a finite matrix whose largest entry lies beyond LAPACK's
// BIGNUM/SMLNUM: they do not scale, inv_batched redoes it through R·A·C.
inline constexpr int32_t kInvInfoEquilibrate = -100;


template <class T>
void inv_small_batched(index n, index count, const T* A, T* X, int32_t* info);

}  // namespace lapis
