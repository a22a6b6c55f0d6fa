// heaviside over a broadcast layout. The inner run is specialised on which operand is a
// splat so each variant is a straight vectorisable select.
#include "broadcast2.hpp"

namespace lapis {
namespace {

template <class T>
inline T step(T x, T v) {
  // NaN fails every comparison and falls through to x itself (numpy's NaN, not torch's 0).
  return x < T(0) ? T(0) : (x > T(0) ? T(1) : (x == T(0) ? v : x));
}

}  // namespace

template <class T>
void heaviside(const Broadcast2& bc, const T* x, const T* values, T* out) {
  const int nd = bc.ndim;
  const index sa = bc.sa[nd - 1], sb = bc.sb[nd - 1];
  special_detail::walk(bc, [&](index a, index b, index o, index len) {
    const T* xa = x + a;
    const T* vb = values + b;
    T* oo = out + o;
    if (sa == 1 && sb == 1) {
      for (index i = 0; i < len; ++i) oo[i] = step(xa[i], vb[i]);
    } else if (sa == 1) {
      const T v = vb[0];
      for (index i = 0; i < len; ++i) oo[i] = step(xa[i], v);
    } else if (sb == 1) {
      const T xv = xa[0];
      for (index i = 0; i < len; ++i) oo[i] = step(xv, vb[i]);
    } else {
      const T r = step(xa[0], vb[0]);
      for (index i = 0; i < len; ++i) oo[i] = r;
    }
  });
}

template void heaviside<float>(const Broadcast2&, const float*, const float*, float*);
template void heaviside<double>(const Broadcast2&, const double*, const double*, double*);

}  // namespace lapis
