// Small-trsm kernel at the baseline vector width (16 bytes: SSE2, NEON; no FMA, so the
// results are the same on every compiler), and the run-time choice among the builds
// (trsm_small_avx2.cpp, trsm_small_avx512.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "trsm_small.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define LAPIS_TRSM_VECTORS 1
#else
#define LAPIS_TRSM_VECTORS 0  // MSVC has no vector extensions: solveTriangular keeps the blocked trsm
#endif

namespace lapis::detail {

namespace trsm_small_portable {
#if LAPIS_TRSM_VECTORS
#define LAPIS_TRSM_BYTES 16
#define LAPIS_TRSM_NV 2
#define LAPIS_TRSM_R 6
#include "trsm_small_impl.hpp"
#undef LAPIS_TRSM_BYTES
#undef LAPIS_TRSM_NV
#undef LAPIS_TRSM_R
#else
template <class T> TrsmSmall<T> make() { return {}; }
template TrsmSmall<float> make<float>();
template TrsmSmall<double> make<double>();
#endif
}  // namespace trsm_small_portable

namespace {
enum class TrsmIsa { portable, avx2, avx512 };
TrsmIsa trsm_isa() {
  static const TrsmIsa isa = [] {
    const char* env = std::getenv("LAPIS_KERNELS");  // the same switch as the GEMM
    const std::string want = env ? env : "";
    if (want == "portable") return TrsmIsa::portable;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    __builtin_cpu_init();  // (libgcc also checks that the OS saves the ymm / zmm state)
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx2 && __builtin_cpu_supports("avx512f") && want != "avx2") return TrsmIsa::avx512;
    if (avx2) return TrsmIsa::avx2;
#endif
    return TrsmIsa::portable;
  }();
  return isa;
}
}  // namespace

template <class T> const TrsmSmall<T>& trsm_small() {
  static const TrsmSmall<T> s = [] {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    if (trsm_isa() == TrsmIsa::avx512) return trsm_small_avx512::make<T>();
    if (trsm_isa() == TrsmIsa::avx2) return trsm_small_avx2::make<T>();
#endif
    return trsm_small_portable::make<T>();
  }();
  return s;
}
template const TrsmSmall<float>& trsm_small<float>();
template const TrsmSmall<double>& trsm_small<double>();

const char* trsm_small_name() {
  switch (trsm_isa()) {
    case TrsmIsa::avx512: return "avx512";
    case TrsmIsa::avx2: return "avx2";
    default: return "portable";
  }
}

}  // namespace lapis::detail
