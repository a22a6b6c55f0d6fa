// logspace with torch's exponents: the first half counts up from start and the second
// half down from end, so both endpoints get their exponent exactly and base^end is exact
// wherever pow is (10^k, 2^k). Everything is computed in double and rounded once.
#include <cmath>
#include <limits>

#include "lapis/parallel.hpp"
#include "lapis/special.hpp"

namespace lapis {
namespace {

template <class T> inline T from_double(double v) { return static_cast<T>(v); }
// Saturating, NaN → 0: casting an out-of-range double to int is undefined in C++.
template <> inline int32_t from_double<int32_t>(double v) {
  if (!(v == v)) return 0;
  if (v >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (v <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(v);
}

}  // namespace

template <class T>
void logspace(index steps, double start, double end, double base, T* out) {
  if (steps <= 0) return;
  if constexpr (std::is_integral_v<T>) {
    // torch converts start and end to the output type first.
    start = std::trunc(start);
    end = std::trunc(end);
  }
  if (steps == 1) {
    out[0] = from_double<T>(std::pow(base, start));
    return;
  }
  const double step = (end - start) / static_cast<double>(steps - 1);
  const index half = steps / 2;
  parallel_for(steps, 1 << 14, [&](index b, index e) {
    for (index i = b; i < e; ++i) {
      const double ex = i < half ? start + step * static_cast<double>(i)
                                 : end - step * static_cast<double>(steps - 1 - i);
      out[i] = from_double<T>(std::pow(base, ex));
    }
  });
}

template void logspace<float>(index, double, double, double, float*);
template void logspace<double>(index, double, double, double, double*);
template void logspace<int32_t>(index, double, double, double, int32_t*);

}  // namespace lapis
