// Helpers of the QR kernels that the SVD reuses (not part of the public header).
#pragma once
#include "lapis/common.hpp"

namespace lapis::qr_detail {

// ‖x‖₂ without spurious over/underflow (one plain pass; a scaled pass only when the
// largest entry is near the ends of the exponent range). NaN in → NaN out.
template <class T>
real_t<T> nrm2(const T* x, index n, index inc);

// LAPACK larfg.
template <class T>
void larfg(T& alpha, T* x, index n, index inc, T& tau);

}  // namespace lapis::qr_detail
