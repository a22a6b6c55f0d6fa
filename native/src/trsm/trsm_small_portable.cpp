// Small-trsm kernel at the baseline vector width (16 bytes: SSE2, NEON; no FMA, so the
// results are the same on every compiler), and the run-time choice among the builds
// (trsm_small_avx2.cpp, trsm_small_avx512.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "lapis/isa.hpp"
#include "lapis/simd.hpp"
#include "trsm_small.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define LAPIS_TRSM_VECTORS 1
#else
#define LAPIS_TRSM_VECTORS 0  // MSVC has no vector extensions: solveTriangular keeps the blocked trsm
#endif

namespace lapis::detail {

namespace trsm_small_portable {
#if LAPIS_TRSM_VECTORS
template <class T> using Pk = simd::Pack<simd::Portable, T>;
constexpr int kTrsmNV = 2, kTrsmRows = 6;
#include "trsm_small_impl.hpp"
#else
template <class T> TrsmSmall<T> make() { return {}; }
template TrsmSmall<float> make<float>();
template TrsmSmall<double> make<double>();
#endif
}  // namespace trsm_small_portable

namespace {
// active_isa() on the builds this family has (no NEON build: arm64 runs the portable one).
Isa trsm_isa() {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  const Isa isa = active_isa();
  if (isa == Isa::avx512 || isa == Isa::avx2) return isa;
#endif
  return Isa::portable;
}
}  // namespace

template <class T> const TrsmSmall<T>& trsm_small() {
  static const TrsmSmall<T> s = [] {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    if (trsm_isa() == Isa::avx512) return trsm_small_avx512::make<T>();
    if (trsm_isa() == Isa::avx2) return trsm_small_avx2::make<T>();
#endif
    return trsm_small_portable::make<T>();
  }();
  return s;
}
template const TrsmSmall<float>& trsm_small<float>();
template const TrsmSmall<double>& trsm_small<double>();

const char* trsm_small_name() {
  return isa_name(trsm_isa());
}

}  // namespace lapis::detail
