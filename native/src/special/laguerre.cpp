// Laguerre polynomials L_n(x) by the forward recurrence (torch's formula and order)
//   L_{k+1} = ((2k + (1 − x))·L_k − k·L_{k−1}) / (k + 1),
// which is stable here: the polynomials are the dominant solution for x outside the
// oscillatory region and bounded by e^{x/2} inside it. Elements are processed in blocks
// with k as the outer loop so the divisions vectorise across elements; a block runs to
// its largest degree and elements whose degree is reached stop updating.
//
// Overflow: intermediate L_k can exceed the double range while L_n does not (x ≈ 1420,
// say). The fast loop is unscaled; an element whose result is not finite while x is
// finite is redone by the scalar loop below, which keeps (L_{k−1}, L_k) scaled by a power
// of two and returns ldexp(L_n, e): it overflows only when the true value does.
#include <cmath>

#include "broadcast2.hpp"

namespace lapis {
namespace {

constexpr index kBlock = 64;
constexpr double kMaxDegree = 2147483647.0;

// Degree as torch reads it (truncation toward zero); NaN for degrees we refuse
// (NaN, +Inf, above 2^31 − 1: an O(n) loop that long is a hang, not an answer).
inline double degree_of(double n) {
  const double t = std::trunc(n);
  return (t > kMaxDegree || t != t) ? NAN : t;
}

// (L_{k−1}, L_k) = (p, q)·2^e with |q| kept near 1 whenever it passes 2^64, so the
// products in the step cannot overflow unless the true L_{k+1} is beyond the double
// range by far (then ±Inf is the answer: the sequence cannot come back from there).
double laguerre_scaled(double x, double n) {
  constexpr double kBig = 0x1p64;
  const double om = 1.0 - x;
  double p = 1.0, q = om;
  int64_t e = 0;
  auto normalise = [&] {
    if (std::fabs(q) > kBig) {
      const int s = std::ilogb(q);
      q = std::ldexp(q, -s);
      p = std::ldexp(p, -s);
      e += s;
    }
  };
  normalise();
  for (double k = 1; k < n; k += 1) {
    const double r = ((k + k + om) * q - k * p) / (k + 1);
    if (!std::isfinite(r)) return r;
    p = q;
    q = r;
    normalise();
  }
  return std::ldexp(q, static_cast<int>(std::min<int64_t>(e, 1 << 20)));
}

// Special values, then the recurrence result `q`, then the overflow redo.
inline double finish(double x, double t, double q) {
  if (t != t) return NAN;
  if (t < 0) return 0.0;
  if (x == 0 || t == 0) return 1.0;
  if (!std::isfinite(q) && std::isfinite(x)) return laguerre_scaled(x, t);
  return q;
}

// One block of `len` ≤ kBlock elements: x[i] (stride sx) with degree t[i] (stride st).
template <class T, bool kVarying>
void block(const T* x, index sx, const T* nn, index sn, T* out, index len) {
  double om[kBlock], p[kBlock], q[kBlock], t[kBlock];
  double tmax = -1;
  for (index j = 0; j < len; ++j) {
    const double xj = static_cast<double>(x[j * sx]);
    t[j] = degree_of(static_cast<double>(nn[j * sn]));
    om[j] = 1.0 - xj;
    p[j] = 1.0;
    q[j] = om[j];
    if (t[j] > tmax) tmax = t[j];
  }
  for (double k = 1; k < tmax; k += 1) {
    const double k2 = k + k, k1 = k + 1;
    if constexpr (kVarying) {
      for (index j = 0; j < len; ++j) {
        const double r = ((k2 + om[j]) * q[j] - k * p[j]) / k1;
        const bool on = k < t[j];
        p[j] = on ? q[j] : p[j];
        q[j] = on ? r : q[j];
      }
    } else {
      for (index j = 0; j < len; ++j) {
        const double r = ((k2 + om[j]) * q[j] - k * p[j]) / k1;
        p[j] = q[j];
        q[j] = r;
      }
    }
  }
  for (index j = 0; j < len; ++j) out[j] = static_cast<T>(finish(static_cast<double>(x[j * sx]), t[j], q[j]));
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
