// Elementwise special functions: frexp, heaviside, Laguerre polynomials, logspace.
// torch semantics (see docs/special.md); arrays are contiguous, binary ops take a
// broadcast layout instead of materialised broadcast copies.
#pragma once
#include <cstdint>
#include "lapis/common.hpp"

namespace lapis {

// How two contiguous operands line up with a broadcast output of `ndim` dims (already
// collapsed by the caller: adjacent dims merged where both strides allow). Strides count
// elements, 0 on a broadcast dim. The innermost strides are 0 or 1, so the inner loop
// is a contiguous run or a splat: both vectorise.
struct Broadcast2 {
  int ndim;
  const index* shape;
  const index* sa;
  const index* sb;
};

inline index broadcast_size(const Broadcast2& bc) {
  index s = 1;
  for (int d = 0; d < bc.ndim; ++d) s *= bc.shape[d];
  return s;
}

// x = mantissa · 2^exponent with 0.5 ≤ |mantissa| < 1, exact for subnormals;
// ±0 → (±0, 0); ±Inf and NaN → (x, 0). T is float or double.
template <class T> void frexp(index n, const T* x, T* mantissa, int32_t* exponent);

// 0 for x < 0, values for x == ±0, 1 for x > 0, NaN (x itself) for NaN x.
template <class T> void heaviside(const Broadcast2& bc, const T* x, const T* values, T* out);

// L_n(x) by the three-term recurrence, n truncated toward zero (torch); n < 0 → 0;
// n NaN, +Inf or above 2^31 − 1 → NaN. Intermediate overflow is avoided by rescaling,
// so the result overflows only when the true value does. float is computed in double.
template <class T> void laguerre_polynomial_l(const Broadcast2& bc, const T* x, const T* n, T* out);

// base^e_i with torch's exponents: e_i = start + step·i in the first half and
// end − step·(steps − 1 − i) in the second, step = (end − start)/(steps − 1), computed
// in double and rounded (int32: truncated toward zero, saturated, NaN → 0).
template <class T> void logspace(index steps, double start, double end, double base, T* out);

}  // namespace lapis
