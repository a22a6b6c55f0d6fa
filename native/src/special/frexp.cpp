// frexp by bit manipulation, branch-free so the loop vectorises: subnormals are first
// scaled into the normal range by an exact power of two (libm's frexp and WGSL's builtin
// differ there, see docs/special.md), then the biased exponent is swapped for −1.
// x86-64 runs the AVX2 build of the same loop when active_isa() allows AVX2 (lapis/isa.hpp).
#include "frexp_impl.hpp"
#include "lapis/isa.hpp"
#include "lapis/parallel.hpp"
#include "lapis/special.hpp"

namespace lapis {

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
void frexp_range_avx2(const float* x, float* m, int32_t* e, index b, index end);
void frexp_range_avx2(const double* x, double* m, int32_t* e, index b, index end);
#define LAPIS_FREXP_HAVE_AVX2 1
#endif

namespace {

bool use_avx2() {
#if defined(LAPIS_FREXP_HAVE_AVX2)
  return runs_avx2(active_isa());
#else
  return false;
#endif
}

}  // namespace

template <class T>
void frexp(index n, const T* x, T* mantissa, int32_t* exponent) {
  const bool avx2 = use_avx2();
  parallel_for(n, 1 << 15, [&](index b, index e) {
#if defined(LAPIS_FREXP_HAVE_AVX2)
    if (avx2) return frexp_range_avx2(x, mantissa, exponent, b, e);
#endif
    (void)avx2;
    frexp_range(x, mantissa, exponent, b, e);
  });
}

template void frexp<float>(index, const float*, float*, int32_t*);
template void frexp<double>(index, const double*, double*, int32_t*);

}  // namespace lapis
