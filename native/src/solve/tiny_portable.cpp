// Lane kernels for tiny systems at the baseline vector width (16 bytes: SSE2, NEON), and the
// run-time choice among the builds (tiny_avx2.cpp, tiny_avx512.cpp).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "tiny.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define LAPIS_TINY_VECTORS 1
#else
#define LAPIS_TINY_VECTORS 0  // MSVC has no vector extensions: the driver keeps its per-system path
#endif

namespace lapis::detail {

namespace tiny_portable {
#if LAPIS_TINY_VECTORS
#define LAPIS_TINY_BYTES 16
#include "tiny_impl.hpp"
#undef LAPIS_TINY_BYTES
#else
template <class T> TinySolver<T> make() { return {}; }
template TinySolver<float> make<float>();
template TinySolver<double> make<double>();
#endif
}  // namespace tiny_portable

namespace {
enum class TinyIsa { portable, avx2, avx512 };
TinyIsa tiny_isa() {
  static const TinyIsa isa = [] {
    const char* env = std::getenv("LAPIS_KERNELS");  // the same switch as the GEMM
    const std::string want = env ? env : "";
    if (want == "portable") return TinyIsa::portable;
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    __builtin_cpu_init();  // (libgcc also checks that the OS saves the ymm / zmm state)
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx2 && __builtin_cpu_supports("avx512f") && want != "avx2") return TinyIsa::avx512;
    if (avx2) return TinyIsa::avx2;
#endif
    return TinyIsa::portable;
  }();
  return isa;
}
}  // namespace

template <class T> const TinySolver<T>& tiny_solver() {
  static const TinySolver<T> s = [] {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    if (tiny_isa() == TinyIsa::avx512) return tiny_avx512::make<T>();
    if (tiny_isa() == TinyIsa::avx2) return tiny_avx2::make<T>();
#endif
    return tiny_portable::make<T>();
  }();
  return s;
}
template const TinySolver<float>& tiny_solver<float>();
template const TinySolver<double>& tiny_solver<double>();

const char* tiny_solver_name() {
  switch (tiny_isa()) {
    case TinyIsa::avx512: return "avx512";
    case TinyIsa::avx2: return "avx2";
    default: return "portable";
  }
}

}  // namespace lapis::detail
