// Determinants from LU. For each of count n×n matrices: sign (T: ±1, or a unit complex
// number; 0 for a singular matrix), logabs = log|det| (−inf when singular), and det itself
// (may be null) computed as a running product with its exponent kept apart, so it only
// overflows or underflows when the determinant itself does. A matrix holding NaN or Inf
// gives NaN in all three (numpy returns det = 0 for some such inputs). n = 0: det = 1.
#pragma once
#include "lapis/common.hpp"

namespace lapis {

template <class T>
void slogdet_batched(index count, index n, const T* A, T* sign, real_t<T>* logabs, T* det);

}  // namespace lapis
