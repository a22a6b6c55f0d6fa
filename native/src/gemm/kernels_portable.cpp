// Portable micro-kernels: the same contract in plain C++ over small fixed-size arrays, which
// compilers map onto whatever SIMD the baseline target has (SSE2 on x86-64). Smaller tiles
// than the ISA kernels so the accumulators fit 16 baseline registers. Also the reference
// the ISA kernels are tested against (LAPIS_KERNELS=portable forces them).
#include "gemm_kernels.hpp"
#include "ukernel.hpp"

namespace lapis::gemm_detail {
namespace {

template <class Rt, int Lt>
struct PortableVT {
  using R = Rt;
  static constexpr int L = Lt;
  static constexpr bool kMasked = false;
  struct V {
    R x[L];
  };
  static V zero() {
    V r;
    for (int i = 0; i < L; ++i) r.x[i] = R(0);
    return r;
  }
  static V load(const R* p) {
    V r;
    for (int i = 0; i < L; ++i) r.x[i] = p[i];
    return r;
  }
  static void store(R* p, V v) {
    for (int i = 0; i < L; ++i) p[i] = v.x[i];
  }
  static V bcast(const R* p) { return set1(*p); }
  static V set1(R s) {
    V r;
    for (int i = 0; i < L; ++i) r.x[i] = s;
    return r;
  }
  static V fma(V a, V b, V c) {
    for (int i = 0; i < L; ++i) c.x[i] += a.x[i] * b.x[i];
    return c;
  }
  static V mul(V a, V b) {
    for (int i = 0; i < L; ++i) a.x[i] *= b.x[i];
    return a;
  }
  static V add(V a, V b) {
    for (int i = 0; i < L; ++i) a.x[i] += b.x[i];
    return a;
  }
  static V swap(V v) {
    V r;
    for (int i = 0; i < L; i += 2) {
      r.x[i] = v.x[i + 1];
      r.x[i + 1] = v.x[i];
    }
    return r;
  }
  static V addsub(V x, V y) {
    for (int i = 0; i < L; i += 2) {
      x.x[i] -= y.x[i];
      x.x[i + 1] += y.x[i + 1];
    }
    return x;
  }
  static V neg(V v) {
    for (int i = 0; i < L; ++i) v.x[i] = -v.x[i];
    return v;
  }
  static V conj(V v) {
    for (int i = 1; i < L; i += 2) v.x[i] = -v.x[i];
    return v;
  }
};

}  // namespace

Family portable_family() {
  Family f;
  f.name = "portable";
  f.d = real_set<PortableVT<double, 2>, 4, 2>(128, 256, 4096);
  f.s = real_set<PortableVT<float, 4>, 4, 2>(128, 256, 4096);
  f.z = complex_set<PortableVT<double, 2>, 2, 2>(64, 256, 2048);
  f.c = complex_set<PortableVT<float, 4>, 2, 2>(128, 256, 2048);
  return f;
}

}  // namespace lapis::gemm_detail
