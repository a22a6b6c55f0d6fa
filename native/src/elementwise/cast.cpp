// Dtype conversion between the seven dtypes, one straight loop per (from, to) pair.
#include "elementwise_common.hpp"

namespace lapis {
namespace {

using namespace ew;

// float → integer: truncation toward zero, NaN → 0, saturating at the range ends (the
// registry contract; a C++ cast of an out-of-range float is undefined behaviour).
template <class D, class S>
inline D float_to_int(S x) {
  constexpr S lo = static_cast<S>(std::numeric_limits<D>::min());
  // 2^31 or 2^32: exact in float and double, the first value past the range.
  constexpr S hi = static_cast<S>(std::numeric_limits<D>::max()) + S(1);
  if (!(x == x)) return D(0);
  if (x <= lo) return std::numeric_limits<D>::min();
  if (x >= hi) return std::numeric_limits<D>::max();
  return static_cast<D>(x);
}

template <class D, class S>
inline D convert(S x) {
  if constexpr (std::is_same_v<D, uint8_t>) {
    return nonzero(x) ? 1 : 0;
  } else if constexpr (is_complex_v<D>) {
    using R = real_t<D>;
    if constexpr (is_complex_v<S>) return D(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    else return D(static_cast<R>(x), R(0));
  } else if constexpr (is_int_v<D> && is_float_v<S>) {
    return float_to_int<D>(x);
  } else {
    // integer ↔ integer wraps (two's complement); int/bool → float rounds to nearest.
    return static_cast<D>(x);
  }
}

template <class S, class D>
void cast_loop(index n, const S* x, D* out) {
  parallel_for(n, kGrain, [&](index b, index e) {
    const S* __restrict xs = x;
    D* __restrict o = out;
    for (index i = b; i < e; ++i) o[i] = convert<D>(xs[i]);
  });
}

}  // namespace

bool cast(ElemType from, ElemType to, index n, const void* x, void* out) {
  const bool fc = from == ElemType::c64 || from == ElemType::c128;
  const bool tc = to == ElemType::c64 || to == ElemType::c128;
  if (fc && !tc && to != ElemType::b8) return false;
  with_type(from, [&](auto s) {
    using S = decltype(s);
    with_type(to, [&](auto d) {
      using D = decltype(d);
      if constexpr (is_complex_v<S> && !is_complex_v<D> && !std::is_same_v<D, uint8_t>) {
        return;  // refused above
      } else {
        cast_loop<S, D>(n, static_cast<const S*>(x), static_cast<D*>(out));
      }
    });
  });
  return true;
}

}  // namespace lapis
