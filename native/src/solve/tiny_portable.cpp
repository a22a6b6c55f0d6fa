// Lane kernels for tiny systems at the baseline vector width (16 bytes: SSE2, NEON), and the
// run-time choice among the builds (tiny_avx2.cpp, tiny_avx512.cpp).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "lapis/isa.hpp"
#include "lapis/simd.hpp"
#include "tiny.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define LAPIS_TINY_VECTORS 1
#else
#define LAPIS_TINY_VECTORS 0  // MSVC has no vector extensions: the driver keeps its per-system path
#endif

namespace lapis::detail {

namespace tiny_portable {
#if LAPIS_TINY_VECTORS
template <class T> using Pk = simd::Pack<simd::Portable, T>;
#include "tiny_impl.hpp"
#else
template <class T> TinySolver<T> make() { return {}; }
template TinySolver<float> make<float>();
template TinySolver<double> make<double>();
#endif
}  // namespace tiny_portable

namespace {
// active_isa() on the builds this family has (no NEON build: arm64 runs the portable one).
Isa tiny_isa() {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  const Isa isa = active_isa();
  if (isa == Isa::avx512 || isa == Isa::avx2) return isa;
#endif
  return Isa::portable;
}
}  // namespace

template <class T> const TinySolver<T>& tiny_solver() {
  static const TinySolver<T> s = [] {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    if (tiny_isa() == Isa::avx512) return tiny_avx512::make<T>();
    if (tiny_isa() == Isa::avx2) return tiny_avx2::make<T>();
#endif
    return tiny_portable::make<T>();
  }();
  return s;
}
template const TinySolver<float>& tiny_solver<float>();
template const TinySolver<double>& tiny_solver<double>();

const char* tiny_solver_name() {
  return isa_name(tiny_isa());
}

}  // namespace lapis::detail
