// NEON micro-kernels for arm64 (Apple silicon, Graviton, …; NEON is always there).
//   double 6×8, float 6×16, complex<double> 3×4, complex<float> 3×8:
// 24 of the 32 q registers hold accumulators, 4 hold b, the rest broadcasts.
#include "gemm_kernels.hpp"

#if LAPIS_GEMM_ARM64
#include <arm_neon.h>
#include <cstdint>

#include "ukernel.hpp"

namespace lapis::gemm_detail {
namespace {

struct NeonD {
  using R = double;
  using V = float64x2_t;
  static constexpr int L = 2;
  static constexpr bool kMasked = false;
  static V zero() { return vdupq_n_f64(0.0); }
  static V load(const R* p) { return vld1q_f64(p); }
  static void store(R* p, V v) { vst1q_f64(p, v); }
  static V bcast(const R* p) { return vld1q_dup_f64(p); }
  static V set1(R x) { return vdupq_n_f64(x); }
  static V fma(V a, V b, V c) { return vfmaq_f64(c, a, b); }
  static V mul(V a, V b) { return vmulq_f64(a, b); }
  static V add(V a, V b) { return vaddq_f64(a, b); }
  static V swap(V v) { return vextq_f64(v, v, 1); }
  static V neg(V v) { return vnegq_f64(v); }
  static V conj(V v) {
    static const uint64_t mk[2] = {0, 0x8000000000000000ull};
    const uint64x2_t m = vld1q_u64(mk);
    return vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(v), m));
  }
  static V addsub(V x, V y) {
    static const uint64_t mk[2] = {0x8000000000000000ull, 0};
    const uint64x2_t m = vld1q_u64(mk);
    return vaddq_f64(x, vreinterpretq_f64_u64(veorq_u64(vreinterpretq_u64_f64(y), m)));
  }
};

struct NeonS {
  using R = float;
  using V = float32x4_t;
  static constexpr int L = 4;
  static constexpr bool kMasked = false;
  static V zero() { return vdupq_n_f32(0.0f); }
  static V load(const R* p) { return vld1q_f32(p); }
  static void store(R* p, V v) { vst1q_f32(p, v); }
  static V bcast(const R* p) { return vld1q_dup_f32(p); }
  static V set1(R x) { return vdupq_n_f32(x); }
  static V fma(V a, V b, V c) { return vfmaq_f32(c, a, b); }
  static V mul(V a, V b) { return vmulq_f32(a, b); }
  static V add(V a, V b) { return vaddq_f32(a, b); }
  static V swap(V v) { return vrev64q_f32(v); }
  static V neg(V v) { return vnegq_f32(v); }
  static V conj(V v) {
    static const uint32_t mk[4] = {0, 0x80000000u, 0, 0x80000000u};
    const uint32x4_t m = vld1q_u32(mk);
    return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(v), m));
  }
  static V addsub(V x, V y) {
    static const uint32_t mk[4] = {0x80000000u, 0, 0x80000000u, 0};
    const uint32x4_t m = vld1q_u32(mk);
    return vaddq_f32(x, vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(y), m)));
  }
};

}  // namespace

Family neon_family() {
  Family f;
  f.name = "neon";
  f.d = real_set<NeonD, 6, 4>(192, 256, 4096);
  f.s = real_set<NeonS, 6, 4>(384, 256, 4096);
  f.z = complex_set<NeonD, 3, 4>(96, 256, 2048);
  f.c = complex_set<NeonS, 3, 4>(192, 256, 2048);
  return f;
}

}  // namespace lapis::gemm_detail
#endif
