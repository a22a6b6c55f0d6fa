// logspace with torch's exponents: the first half counts up from start and the second
// half down from end, so both endpoints get their exponent exactly. Everything is
// computed in double and rounded once.
//
// base^e = 2^(e·log2 b), with e·log2 b as a double-double (log2 b from long double, the
// product's rounding error by Dekker's split; -ffp-contract=off keeps it exact) and
// exp2 of the high part corrected by the low part: within about 1 ulp, at a quarter of
// pow's cost. The two endpoints use pow itself, so base^start and base^end are exact
// wherever pow is (10^k, 2^k). Bases outside (0, Inf) other than 1 take pow throughout.
#include <cfloat>
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

constexpr double kLn2 = 0.6931471805599453;

struct Log2Base {
  double hi, lo;
};

#if defined(__EMSCRIPTEN__) && LDBL_MANT_DIG == 113
// WebAssembly: long double is binary128 but musl's log2l is log2 in double, so the
// series ln m = 2·atanh((m − 1)/(m + 1)), b = m·2^k, is summed in long double instead.
inline long double log2_long(long double b) {
  int k = 0;
  long double m = std::frexp(b, &k);
  if (m < 0.70710678118654752440L) {
    m *= 2;
    --k;
  }
  const long double s = (m - 1) / (m + 1), s2 = s * s;  // |s| ≤ 0.172: 40 terms reach 1e-60
  long double sum = 0, pw = 1;
  for (int j = 0; j < 40; ++j, pw *= s2) sum += pw / (2 * j + 1);
  return k + 2 * s * sum * 1.442695040888963407359924681001892137L;
}
#else
inline long double log2_long(long double b) { return std::log2(b); }
#endif

// Where long double is double (MSVC, Apple arm64) lo is 0 and the error grows to about
// |e·log2 b|·eps/2 relative; elsewhere it is negligible.
inline Log2Base log2_base(double b) {
  const long double l = log2_long(static_cast<long double>(b));
  const double hi = static_cast<double>(l);
  return {hi, static_cast<double>(l - static_cast<long double>(hi))};
}

// The rounding error of a·b (exact unless a·b is near the overflow range).
inline double two_prod_err(double a, double b, double p) {
  constexpr double kSplit = 134217729.0;  // 2^27 + 1
  const double ca = kSplit * a, cb = kSplit * b;
  const double ah = ca - (ca - a), al = a - ah;
  const double bh = cb - (cb - b), bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

inline double pow_dd(double e, const Log2Base& L) {
  const double p = e * L.hi;
  if (!(std::fabs(p) < 2048.0)) return std::exp2(p);  // overflow, underflow to 0, NaN
  const double lo = two_prod_err(e, L.hi, p) + e * L.lo;
  const double r = std::exp2(p);
  return r + r * (lo * kLn2);
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
  const bool fast = base > 0 && base < HUGE_VAL && base != 1;
  const Log2Base L = fast ? log2_base(base) : Log2Base{0, 0};
  parallel_for(steps, 1 << 14, [&](index b, index e) {
    for (index i = b; i < e; ++i) {
      const double ex = i < half ? start + step * static_cast<double>(i)
                                 : end - step * static_cast<double>(steps - 1 - i);
      const bool ends = i == 0 || i == steps - 1;
      out[i] = from_double<T>(fast && !ends ? pow_dd(ex, L) : std::pow(base, ex));
    }
  });
}

template void logspace<float>(index, double, double, double, float*);
template void logspace<double>(index, double, double, double, double*);
template void logspace<int32_t>(index, double, double, double, int32_t*);

}  // namespace lapis
