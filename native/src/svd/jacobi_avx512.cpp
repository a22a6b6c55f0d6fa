// AVX-512F Jacobi kernels for real data, picked when the GEMM runs its AVX-512 family
// (the CPU and OS support it). On a core with full-width 512-bit units (Zen 5, Xeon) the
// rotation of a column pair, bound by loads and stores, takes half the instructions of
// the AVX2 kernel; tails use masked loads and stores instead of a scalar loop. Complex
// data keeps the AVX2 kernels. As in native/src/gemm/kernels_avx512.cpp the build gives
// this file no ISA flags: the target is set per function, and the dispatch only calls
// in after the CPUID check.
#include "jacobi_kernels.hpp"

#if LAPIS_SVD_X86
#include <immintrin.h>

#include <cstdint>
#include <utility>  // before the target region: library inline code must keep the baseline ISA

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx2,fma"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
#endif

namespace lapis::svd_detail {
namespace {

struct D {
  using R = double;
  using V = __m512d;
  using M = __mmask8;
  static constexpr int W = 8;
  static M mask(index n) { return static_cast<M>((1u << n) - 1u); }
  static V load(const R* p) { return _mm512_loadu_pd(p); }
  static V loadm(const R* p, M m) { return _mm512_maskz_loadu_pd(m, p); }
  static void store(R* p, V v) { _mm512_storeu_pd(p, v); }
  static void storem(R* p, M m, V v) { _mm512_mask_storeu_pd(p, m, v); }
  static V set1(R x) { return _mm512_set1_pd(x); }
  static V zero() { return _mm512_setzero_pd(); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V fnma(V a, V b, V c) { return _mm512_fnmadd_pd(a, b, c); }  // c − a·b
  static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V add(V a, V b) { return _mm512_add_pd(a, b); }
  // Through memory: GCC 12's lane extracts (and so _mm512_reduce_add_pd) warn about an
  // undefined operand under -Wall.
  static R hsum(V v) {
    alignas(64) R t[W];
    _mm512_store_pd(t, v);
    return ((t[0] + t[4]) + (t[1] + t[5])) + ((t[2] + t[6]) + (t[3] + t[7]));
  }
};

struct F {
  using R = float;
  using V = __m512;
  using M = __mmask16;
  static constexpr int W = 16;
  static M mask(index n) { return static_cast<M>((1u << n) - 1u); }
  static V load(const R* p) { return _mm512_loadu_ps(p); }
  static V loadm(const R* p, M m) { return _mm512_maskz_loadu_ps(m, p); }
  static void store(R* p, V v) { _mm512_storeu_ps(p, v); }
  static void storem(R* p, M m, V v) { _mm512_mask_storeu_ps(p, m, v); }
  static V set1(R x) { return _mm512_set1_ps(x); }
  static V zero() { return _mm512_setzero_ps(); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V fnma(V a, V b, V c) { return _mm512_fnmadd_ps(a, b, c); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static R hsum(V v) {
    alignas(64) R t[W];
    _mm512_store_ps(t, v);
    R s = 0;
    for (int i = 0; i < 8; ++i) s += t[i] + t[i + 8];
    return s;
  }
};

template <class S>
typename S::R dot(const typename S::R* a, const typename S::R* b, index len) {
  using V = typename S::V;
  constexpr int W = S::W;
  // Four independent chains: one FMA chain is latency bound.
  V s0 = S::zero(), s1 = S::zero(), s2 = S::zero(), s3 = S::zero();
  index i = 0;
  for (; i + 4 * W <= len; i += 4 * W) {
    s0 = S::fma(S::load(a + i), S::load(b + i), s0);
    s1 = S::fma(S::load(a + i + W), S::load(b + i + W), s1);
    s2 = S::fma(S::load(a + i + 2 * W), S::load(b + i + 2 * W), s2);
    s3 = S::fma(S::load(a + i + 3 * W), S::load(b + i + 3 * W), s3);
  }
  for (; i + W <= len; i += W) s0 = S::fma(S::load(a + i), S::load(b + i), s0);
  if (i < len) {
    const auto m = S::mask(len - i);
    s1 = S::fma(S::loadm(a + i, m), S::loadm(b + i, m), s1);
  }
  return S::hsum(S::add(S::add(s0, s1), S::add(s2, s3)));
}

template <class S>
void rot(typename S::R* x, typename S::R* y, index len, typename S::R c, typename S::R s) {
  using V = typename S::V;
  constexpr int W = S::W;
  const V vc = S::set1(c), vs = S::set1(s);
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = S::load(x + i), b = S::load(y + i);
    S::store(x + i, S::fnma(vs, b, S::mul(vc, a)));
    S::store(y + i, S::fma(vs, a, S::mul(vc, b)));
  }
  if (i < len) {
    const auto m = S::mask(len - i);
    V a = S::loadm(x + i, m), b = S::loadm(y + i, m);
    S::storem(x + i, m, S::fnma(vs, b, S::mul(vc, a)));
    S::storem(y + i, m, S::fma(vs, a, S::mul(vc, b)));
  }
}

template <class S>
typename S::R rot_dot(typename S::R* x, typename S::R* y, const typename S::R* w, index len, typename S::R c,
                      typename S::R s) {
  using V = typename S::V;
  constexpr int W = S::W;
  const V vc = S::set1(c), vs = S::set1(s);
  V a0 = S::zero(), a1 = S::zero();
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    V a = S::load(x + i), b = S::load(y + i), a2 = S::load(x + i + W), b2 = S::load(y + i + W);
    V xn = S::fnma(vs, b, S::mul(vc, a)), xn2 = S::fnma(vs, b2, S::mul(vc, a2));
    S::store(x + i, xn);
    S::store(x + i + W, xn2);
    S::store(y + i, S::fma(vs, a, S::mul(vc, b)));
    S::store(y + i + W, S::fma(vs, a2, S::mul(vc, b2)));
    a0 = S::fma(xn, S::load(w + i), a0);
    a1 = S::fma(xn2, S::load(w + i + W), a1);
  }
  for (; i + W <= len; i += W) {
    V a = S::load(x + i), b = S::load(y + i);
    V xn = S::fnma(vs, b, S::mul(vc, a));
    S::store(x + i, xn);
    S::store(y + i, S::fma(vs, a, S::mul(vc, b)));
    a0 = S::fma(xn, S::load(w + i), a0);
  }
  if (i < len) {
    const auto m = S::mask(len - i);
    V a = S::loadm(x + i, m), b = S::loadm(y + i, m);
    V xn = S::fnma(vs, b, S::mul(vc, a));
    S::storem(x + i, m, xn);
    S::storem(y + i, m, S::fma(vs, a, S::mul(vc, b)));
    a1 = S::fma(xn, S::loadm(w + i, m), a1);
  }
  return S::hsum(S::add(a0, a1));
}

}  // namespace

template <> JacobiKernels<double> avx512_jacobi<double>() {
  JacobiKernels<double> k = avx2_jacobi<double>();
  k.dot = &dot<D>;
  k.rot = &rot<D>;
  k.rot_dot = &rot_dot<D>;
  return k;
}
template <> JacobiKernels<float> avx512_jacobi<float>() {
  JacobiKernels<float> k = avx2_jacobi<float>();
  k.dot = &dot<F>;
  k.rot = &rot<F>;
  k.rot_dot = &rot_dot<F>;
  return k;
}

}  // namespace lapis::svd_detail

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif  // LAPIS_SVD_X86
