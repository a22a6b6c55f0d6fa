// Laguerre polynomials L_n(x) by the three-term recurrence
//   (k + 1)·L_{k+1} = (2k + 1 − x)·L_k − k·L_{k−1},
// run in its difference form: with D_k = L_k − L_{k−1},
//   D_{k+1} = (k·D_k − x·L_k) / (k + 1),   L_{k+1} = L_k + D_{k+1}.
// Same polynomial, same cost; the three-term form (torch's) cancels (2k+1)·L_k against
// k·L_{k−1} for small |x| and loses ~n²·eps there (2e-11 relative at n = 1000), the
// difference form stays within (n+1)·eps of the envelope (docs/special.md). The
// polynomials are the dominant solution outside the oscillatory region and bounded by
// e^{x/2} inside it, so the forward direction is stable.
//
// Elements are processed in blocks with k as the outer loop so the divisions vectorise
// across elements; a block runs to its largest degree and elements whose degree is
// reached stop updating.
//
// Overflow: intermediate L_k can exceed the double range while L_n does not (x ≈ 1420,
// say). The fast loop is unscaled; an element whose result is not finite while x is
// finite is redone by the scalar loop below, which keeps (L_k, D_k) scaled by a power of
// two and returns ldexp(L_n, e): it overflows only when the true value does.
#include <cmath>

#include "broadcast2.hpp"
#include "laguerre_asy.hpp"

namespace lapis {
namespace {

constexpr index kBlock = 64;
constexpr double kMaxDegree = 1048576.0;  // 2^20, LAGUERRE_MAX_DEGREE in src/special/laguerre.ts

// Degree as torch reads it (truncation toward zero); NaN for NaN and +Inf.
inline double degree_of(double n) {
  const double t = std::trunc(n);
  return (t == HUGE_VAL || t != t) ? NAN : t;
}

// Large degrees go to the Bessel-type expansion (laguerre_asy.hpp, O(1) per element)
// where it applies; the recurrence runs up to 2^20 only (the public function refuses
// larger degrees outside the expansion's region, so NaN here is a safety net).
inline bool use_expansion(double x, double t) {
  return std::isfinite(x) && t == t && laguerre_asy::applies(x, t);
}

// (L_k, D_k) = (l, d)·2^e with |l| + |d| kept near 1 whenever it passes 2^64, so the
// products in the step cannot overflow unless the true L_{k+1} is beyond the double
// range by far (then ±Inf is the answer: the sequence cannot come back from there).
double laguerre_scaled(double x, double n) {
  constexpr double kBig = 0x1p64;
  double d = -x, l = 1.0 + d;
  int64_t e = 0;
  auto normalise = [&] {
    const double m = std::fabs(l) + std::fabs(d);
    if (m > kBig) {
      const int s = std::ilogb(m);
      l = std::ldexp(l, -s);
      d = std::ldexp(d, -s);
      e += s;
    }
  };
  normalise();
  for (double k = 1; k < n; k += 1) {
    d = (k * d - x * l) / (k + 1);
    l = l + d;
    if (!std::isfinite(l)) return l;
    normalise();
  }
  return std::ldexp(l, static_cast<int>(std::min<int64_t>(e, 1 << 20)));
}

// Special values, then the recurrence result `q`, then the overflow redo.
inline double finish(double x, double t, double q) {
  if (t != t) return NAN;
  if (t < 0) return 0.0;
  if (x == 0 || t == 0) return 1.0;
  // L_n(x) ~ (−x)^n / n!: the limits, where the recurrence would make Inf − Inf.
  if (std::isinf(x)) return (x > 0 && std::fmod(t, 2.0) == 1.0) ? -HUGE_VAL : HUGE_VAL;
  if (!std::isfinite(q) && std::isfinite(x)) return laguerre_scaled(x, t);
  return q;
}

// One block of `len` ≤ kBlock elements: x[i] (stride sx) with degree t[i] (stride st).
template <class T, bool kVarying>
void block(const T* x, index sx, const T* nn, index sn, T* out, index len) {
  double xs[kBlock], l[kBlock], d[kBlock], t[kBlock];
  bool asy[kBlock];
  double tmax = -1;
  for (index j = 0; j < len; ++j) {
    xs[j] = static_cast<double>(x[j * sx]);
    t[j] = degree_of(static_cast<double>(nn[j * sn]));
    d[j] = -xs[j];
    l[j] = 1.0 + d[j];
    asy[j] = use_expansion(xs[j], t[j]);
    if (!asy[j] && t[j] > kMaxDegree) t[j] = NAN;
    if (!asy[j] && t[j] > tmax) tmax = t[j];
  }
  for (double k = 1; k < tmax; k += 1) {
    const double k1 = k + 1;
    if constexpr (kVarying) {
      for (index j = 0; j < len; ++j) {
        const double dn = (k * d[j] - xs[j] * l[j]) / k1;
        const bool on = k < t[j];
        d[j] = on ? dn : d[j];
        l[j] = on ? l[j] + dn : l[j];
      }
    } else {
      for (index j = 0; j < len; ++j) {
        const double dn = (k * d[j] - xs[j] * l[j]) / k1;
        d[j] = dn;
        l[j] = l[j] + dn;
      }
    }
  }
  for (index j = 0; j < len; ++j) {
    out[j] = static_cast<T>(asy[j] ? laguerre_asy::value(xs[j], t[j]) : finish(xs[j], t[j], l[j]));
  }
}

}  // namespace

template <class T>
void laguerre_polynomial_l(const Broadcast2& bc, const T* x, const T* n, T* out) {
  const int nd = bc.ndim;
  const index sa = bc.sa[nd - 1], sb = bc.sb[nd - 1];
  // Work per element is O(n): small chunks keep both threads busy.
  special_detail::walk(bc, [&](index a, index b, index o, index len) {
    for (index s = 0; s < len; s += kBlock) {
      const index l = std::min(kBlock, len - s);
      if (sb == 0) block<T, false>(x + a + s * sa, sa, n + b, 0, out + o + s, l);
      else block<T, true>(x + a + s * sa, sa, n + b + s * sb, sb, out + o + s, l);
    }
  }, 4096);
}

template void laguerre_polynomial_l<float>(const Broadcast2&, const float*, const float*, float*);
template void laguerre_polynomial_l<double>(const Broadcast2&, const double*, const double*, double*);

}  // namespace lapis
