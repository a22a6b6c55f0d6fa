// Helpers of the QR kernels that the SVD reuses (not part of the public header).
#pragma once
#include "lapis/common.hpp"

namespace lapis::qr_detail {

// LAPACK larfg.
template <class T>
void larfg(T& alpha, T* x, index n, index inc, T& tau);

}  // namespace lapis::qr_detail
