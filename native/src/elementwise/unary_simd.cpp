// unary_simd(): the active ISA's SIMD unary spans (unary_simd.hpp), chosen once.
#include "unary_simd.hpp"

#include "lapis/isa.hpp"
#include "lapis/simd.hpp"

namespace lapis::ew {

#if LAPIS_SIMD_X86
namespace unary_avx2 { template <class R> UnarySimd<R> make(); }
namespace unary_avx512 { template <class R> UnarySimd<R> make(); }
#endif

template <class R>
const UnarySimd<R>& unary_simd() {
  static const UnarySimd<R> s = [] {
    switch (active_isa()) {
#if LAPIS_SIMD_X86
      case Isa::avx512: return unary_avx512::make<R>();
      case Isa::avx2: return unary_avx2::make<R>();
#endif
      default: return UnarySimd<R>{};
    }
  }();
  return s;
}

template const UnarySimd<float>& unary_simd<float>();
template const UnarySimd<double>& unary_simd<double>();

}  // namespace lapis::ew
