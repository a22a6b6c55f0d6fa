// where(cond, a, b) over a three-operand broadcast layout; the all-contiguous inner run is
// a plain select loop the compiler vectorises.
#include "elementwise_common.hpp"

namespace lapis {

using namespace ew;

void where(ElemType t, const Layout3& L, const uint8_t* cond, const void* a, const void* b, void* out) {
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    T* po = static_cast<T*>(out);
    const int nd = L.ndim;
    const index sc = L.s[0][nd - 1], sa = L.s[1][nd - 1], sb = L.s[2][nd - 1];
    walk<3>(L, kGrain, [&](const index* off, index o, index len) {
      const uint8_t* __restrict c = cond + off[0];
      const T* __restrict x = pa + off[1];
      const T* __restrict y = pb + off[2];
      T* __restrict r = po + o;
      if (sc && sa && sb) {
        for (index i = 0; i < len; ++i) r[i] = c[i] ? x[i] : y[i];
      } else {
        for (index i = 0; i < len; ++i) r[i] = c[i * sc] ? x[i * sa] : y[i * sb];
      }
    });
  });
}

}  // namespace lapis
