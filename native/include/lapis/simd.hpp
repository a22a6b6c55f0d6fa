// SIMD packets: one type per (ISA, scalar) with the same static interface, so a kernel is
// written once as a template over its packet P and each ISA's translation unit
// instantiates it with that ISA's packet (kernels_avx2.cpp: P = Pack<Avx2, double>, …).
//
//   types     P::R (scalar), P::V (vector of P::L lanes), P::M (lane mask from compares),
//             P::Tail (mask of the first n lanes, for loads and stores of a ragged end)
//   memory    zero(), set1(x), bcast(p) (*p in every lane), load(p), store(p, v) (unaligned),
//             tail(n), loadt(p, t) (lanes outside t read as 0, never touching memory),
//             storet(p, t, v) (lanes outside t untouched); kTail: false where the ISA has no
//             cheap masked access (tail/loadt/storet are then absent)
//   arithmetic add, sub, mul, div, sqrt, neg, abs, max(a, b) = a > b ? a : b (b when
//             either is NaN, as x86's max), fma(a, b, c) = a·b + c,
//             fnma(a, b, c) = c − a·b, hsum (sum of the lanes)
//   bits      and_, or_, xor_, andnot(a, b) = ~a & b
//   compares  gt, lt, eq (ordered, false on NaN), ne (true on NaN); blend(a, b, m) = m ? b : a;
//             mand, mor; mask_bits(m) (bit l = lane l); any(m)
//   complex   interleaved (re, im) pairs: swap_pairs (exchange re and im), addsub(x, y) =
//             (x0 − y0, x1 + y1, …), conj (negate the odd lanes), alt(x) = (x, −x, x, −x, …)
//   other     transpose(V (&r)[L]) (r[i] lane j ↔ r[j] lane i); to_i32(v, int32_t* out)
//             (truncating, L values)
//
// fma: fused on the ISA packets (Avx2, Avx512, Neon); Generic's is a multiply then an add,
// so the portable builds give the same bits with every compiler (they are built with
// -ffp-contract=off).
//
// ISA code: every function of the Avx2 / Avx512 packets carries its target (the pragmas
// below), so this header can be included anywhere; they inline only into callers built
// for that ISA (a *_avx2.cpp file, or a target region in an *_avx512.cpp file) and must
// only run after active_isa() (lapis/isa.hpp) chose that ISA. Generic<Bytes> is plain
// C++ (GCC/Clang vector extensions, arrays on other compilers); a kernel instantiated
// with it in an ISA file would compile that ISA's instructions into it, so each file
// instantiates only its own ISA's packets.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#if defined(__x86_64__) || defined(_M_X64)
#define LAPIS_SIMD_X86 1
#include <immintrin.h>
#else
#define LAPIS_SIMD_X86 0
#endif

// Functions between LAPIS_TARGET_BEGIN(isa) and LAPIS_TARGET_END are built for that ISA: the
// packets below and every per-ISA kernel file use these, so the target strings live once.
#define LAPIS_TARGET_AVX2 "avx2,fma"
#define LAPIS_TARGET_AVX512 "avx512f,avx512dq,avx512vl,avx2,fma"
#define LAPIS_PRAGMA_(x) _Pragma(#x)
#if defined(__clang__)
#define LAPIS_TARGET_BEGIN(isa) LAPIS_PRAGMA_(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define LAPIS_TARGET_END _Pragma("clang attribute pop")
#elif defined(__GNUC__)
#define LAPIS_TARGET_BEGIN(isa) _Pragma("GCC push_options") LAPIS_PRAGMA_(GCC target(isa))
#define LAPIS_TARGET_END _Pragma("GCC pop_options")
#else
#define LAPIS_TARGET_BEGIN(isa)
#define LAPIS_TARGET_END
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif
#if defined(__aarch64__) || defined(_M_ARM64)
#define LAPIS_SIMD_NEON 1
#include <arm_neon.h>
#else
#define LAPIS_SIMD_NEON 0
#endif
#if defined(__GNUC__) || defined(__clang__)
#define LAPIS_SIMD_VECTOR_EXT 1
#define LAPIS_SIMD_INLINE inline __attribute__((always_inline))
#else
#define LAPIS_SIMD_VECTOR_EXT 0
#define LAPIS_SIMD_INLINE inline
#endif

namespace lapis::simd {

// ISA tags.
template <int Bytes> struct Generic {};  // the baseline target's vectors, Bytes wide
struct Wasm128 {};                       // WebAssembly SIMD128 (Generic<16> with explicit splats and shuffles)
#if defined(__wasm_simd128__)
using Portable = Wasm128;
#else
using Portable = Generic<16>;  // SSE2 / NEON width
#endif
struct Avx2 {};
struct Avx512 {};
struct Neon {};

template <class Isa, class R> struct Pack;

// Compile-time loop: f(integral_constant<int, 0>) … f(integral_constant<int, N−1>).
template <class F, int... I> LAPIS_SIMD_INLINE void unroll_seq(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F> LAPIS_SIMD_INLINE void unroll(F&& f) { unroll_seq(f, std::make_integer_sequence<int, N>{}); }

template <class T> struct SameBitsInt;
template <> struct SameBitsInt<float> { using type = int32_t; };
template <> struct SameBitsInt<double> { using type = long long; };

// ---------------------------------------------------------------------------------------
// Generic: plain C++.
#if LAPIS_SIMD_VECTOR_EXT
// Wider-than-baseline Generic vectors are passed by value only into always-inline functions.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
// Two-input shuffle with constant lane indices (GCC before 12 has only __builtin_shuffle,
// with the indices as an integer vector IV).
#if defined(__clang__) || __GNUC__ >= 12
#define LAPIS_SIMD_SHUFFLE(IV, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define LAPIS_SIMD_SHUFFLE(IV, a, b, ...) __builtin_shuffle(a, b, IV{__VA_ARGS__})
#endif

namespace vx {
// One butterfly stage of an in-register L×L transpose: swaps the off-diagonal D×D blocks.
template <class V, class IV, int L, int D, int... J>
LAPIS_SIMD_INLINE void transpose_stage(V* r, std::integer_sequence<int, J...>) {
  for (int i = 0; i < L; ++i)
    if (!(i & D)) {
      const V a = r[i], b = r[i + D];
      r[i] = LAPIS_SIMD_SHUFFLE(IV, a, b, ((J & D) ? L + J - D : J)...);
      r[i + D] = LAPIS_SIMD_SHUFFLE(IV, a, b, ((J & D) ? L + J : J + D)...);
    }
}
template <class V, class IV, int L, int D = 1> LAPIS_SIMD_INLINE void transpose(V* r) {
  if constexpr (D < L) {
    transpose_stage<V, IV, L, D>(r, std::make_integer_sequence<int, L>{});
    transpose<V, IV, L, D * 2>(r);
  }
}
template <class M, int L, int D, int... J> LAPIS_SIMD_INLINE M rot(M m, std::integer_sequence<int, J...>) {
  return LAPIS_SIMD_SHUFFLE(M, m, m, ((J + D) % L)...);
}
// Some lane set: log2 L rotate-and-or steps, then one extract.
template <class M, int L, int D = L / 2> LAPIS_SIMD_INLINE bool any(M m) {
  if constexpr (D >= 1) {
    m |= rot<M, L, D>(m, std::make_integer_sequence<int, L>{});
    return any<M, L, D / 2>(m);
  } else {
    return m[0] != 0;
  }
}
}  // namespace vx

template <int Bytes, class Rt> struct Pack<Generic<Bytes>, Rt> {
  using R = Rt;
  using I = typename SameBitsInt<R>::type;
  static constexpr int L = Bytes / static_cast<int>(sizeof(R));
  typedef R V __attribute__((vector_size(Bytes)));
  typedef I M __attribute__((vector_size(Bytes)));
  static constexpr bool kTail = false;

  static LAPIS_SIMD_INLINE V zero() { return V{}; }
  static LAPIS_SIMD_INLINE V set1(R x) {
    V v;
    for (int l = 0; l < L; ++l) v[l] = x;  // (not V{} + x: 0 + −0 is +0)
    return v;
  }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return set1(*p); }
  static LAPIS_SIMD_INLINE V load(const R* p) {
    V v;
    __builtin_memcpy(&v, p, sizeof(V));
    return v;
  }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { __builtin_memcpy(p, &v, sizeof(V)); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return a + b; }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return a - b; }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return a * b; }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return a / b; }
  static LAPIS_SIMD_INLINE V neg(V a) { return -a; }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return a > b ? a : b; }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return a * b + c; }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return c - a * b; }
  static LAPIS_SIMD_INLINE V sqrt(V a) {
    for (int l = 0; l < L; ++l) a[l] = __builtin_sqrt(a[l]);
    return a;
  }
  static LAPIS_SIMD_INLINE M bits(V a) { return (M)a; }
  static LAPIS_SIMD_INLINE V from_bits(M m) { return (V)m; }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return from_bits(bits(a) & bits(b)); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return from_bits(bits(a) | bits(b)); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return from_bits(bits(a) ^ bits(b)); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return from_bits(~bits(a) & bits(b)); }
  static LAPIS_SIMD_INLINE V abs(V a) { return from_bits(bits(a) & (M{} + std::numeric_limits<I>::max())); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return a > b; }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return a < b; }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return a == b; }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return a != b; }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return a & b; }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return a | b; }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return m ? b : a; }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) {
    unsigned r = 0;
    for (int l = 0; l < L; ++l) r |= unsigned(m[l] != 0) << l;
    return r;
  }
  static LAPIS_SIMD_INLINE bool any(M m) { return vx::any<M, L>(m); }
  static LAPIS_SIMD_INLINE R hsum(V v) {
    R s = v[0];
    for (int l = 1; l < L; ++l) s += v[l];
    return s;
  }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) {
    V r;
    for (int l = 0; l < L; l += 2) {
      r[l] = v[l + 1];
      r[l + 1] = v[l];
    }
    return r;
  }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) {
    for (int l = 0; l < L; l += 2) {
      x[l] -= y[l];
      x[l + 1] += y[l + 1];
    }
    return x;
  }
  static LAPIS_SIMD_INLINE V conj(V v) {
    for (int l = 1; l < L; l += 2) v[l] = -v[l];
    return v;
  }
  static LAPIS_SIMD_INLINE V alt(R x) {
    V r;
    for (int l = 0; l < L; ++l) r[l] = l % 2 ? -x : x;
    return r;
  }
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) { vx::transpose<V, M, L>(r); }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) {
    typedef int32_t I32 __attribute__((vector_size(4 * L)));
    const I32 w = __builtin_convertvector(v, I32);
    __builtin_memcpy(out, &w, sizeof(I32));
  }
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#else  // no vector extensions (MSVC): arrays the compiler may vectorise

template <int Bytes, class Rt> struct Pack<Generic<Bytes>, Rt> {
  using R = Rt;
  using I = typename SameBitsInt<R>::type;
  static constexpr int L = Bytes / static_cast<int>(sizeof(R));
  struct V { R x[L]; R& operator[](int l) { return x[l]; } const R& operator[](int l) const { return x[l]; } };
  struct M { I x[L]; I& operator[](int l) { return x[l]; } const I& operator[](int l) const { return x[l]; } };
  static constexpr bool kTail = false;
  template <class F> static V map(F f) { V r; for (int l = 0; l < L; ++l) r.x[l] = f(l); return r; }
  template <class F> static M mmap(F f) { M r; for (int l = 0; l < L; ++l) r.x[l] = f(l) ? I(-1) : I(0); return r; }
  static V zero() { return set1(R(0)); }
  static V set1(R x) { return map([&](int) { return x; }); }
  static V bcast(const R* p) { return set1(*p); }
  static V load(const R* p) { return map([&](int l) { return p[l]; }); }
  static void store(R* p, V v) { for (int l = 0; l < L; ++l) p[l] = v.x[l]; }
  static V add(V a, V b) { return map([&](int l) { return a.x[l] + b.x[l]; }); }
  static V sub(V a, V b) { return map([&](int l) { return a.x[l] - b.x[l]; }); }
  static V mul(V a, V b) { return map([&](int l) { return a.x[l] * b.x[l]; }); }
  static V div(V a, V b) { return map([&](int l) { return a.x[l] / b.x[l]; }); }
  static V neg(V a) { return map([&](int l) { return -a.x[l]; }); }
  static V max(V a, V b) { return map([&](int l) { return a.x[l] > b.x[l] ? a.x[l] : b.x[l]; }); }
  static V fma(V a, V b, V c) { return map([&](int l) { return a.x[l] * b.x[l] + c.x[l]; }); }
  static V fnma(V a, V b, V c) { return map([&](int l) { return c.x[l] - a.x[l] * b.x[l]; }); }
  static V sqrt(V a) { return map([&](int l) { return std::sqrt(a.x[l]); }); }
  static I ibits(R x) { I i; std::memcpy(&i, &x, sizeof i); return i; }
  static R fbits(I i) { R x; std::memcpy(&x, &i, sizeof x); return x; }
  static V and_(V a, V b) { return map([&](int l) { return fbits(ibits(a.x[l]) & ibits(b.x[l])); }); }
  static V or_(V a, V b) { return map([&](int l) { return fbits(ibits(a.x[l]) | ibits(b.x[l])); }); }
  static V xor_(V a, V b) { return map([&](int l) { return fbits(ibits(a.x[l]) ^ ibits(b.x[l])); }); }
  static V andnot(V a, V b) { return map([&](int l) { return fbits(~ibits(a.x[l]) & ibits(b.x[l])); }); }
  static V abs(V a) { return map([&](int l) { return fbits(ibits(a.x[l]) & std::numeric_limits<I>::max()); }); }
  static M gt(V a, V b) { return mmap([&](int l) { return a.x[l] > b.x[l]; }); }
  static M lt(V a, V b) { return mmap([&](int l) { return a.x[l] < b.x[l]; }); }
  static M eq(V a, V b) { return mmap([&](int l) { return a.x[l] == b.x[l]; }); }
  static M ne(V a, V b) { return mmap([&](int l) { return !(a.x[l] == b.x[l]); }); }
  static M mand(M a, M b) { return mmap([&](int l) { return a.x[l] && b.x[l]; }); }
  static M mor(M a, M b) { return mmap([&](int l) { return a.x[l] || b.x[l]; }); }
  static V blend(V a, V b, M m) { return map([&](int l) { return m.x[l] ? b.x[l] : a.x[l]; }); }
  static unsigned mask_bits(M m) { unsigned r = 0; for (int l = 0; l < L; ++l) r |= unsigned(m.x[l] != 0) << l; return r; }
  static bool any(M m) { return mask_bits(m) != 0; }
  static R hsum(V v) { R s = v.x[0]; for (int l = 1; l < L; ++l) s += v.x[l]; return s; }
  static V swap_pairs(V v) { return map([&](int l) { return v.x[l ^ 1]; }); }
  static V addsub(V x, V y) { return map([&](int l) { return l % 2 ? x.x[l] + y.x[l] : x.x[l] - y.x[l]; }); }
  static V conj(V v) { return map([&](int l) { return l % 2 ? -v.x[l] : v.x[l]; }); }
  static V alt(R x) { return map([&](int l) { return l % 2 ? -x : x; }); }
  static void transpose(V (&r)[L]) {
    for (int i = 0; i < L; ++i)
      for (int j = i + 1; j < L; ++j) std::swap(r[i].x[j], r[j].x[i]);
  }
  static void to_i32(V v, int32_t* out) { for (int l = 0; l < L; ++l) out[l] = static_cast<int32_t>(v.x[l]); }
};
#endif

// ---------------------------------------------------------------------------------------
// WebAssembly SIMD128: Generic<16> (same types, same bits) with every lane loop written as
// a splat, a shuffle or a bitmask. Clang 14 left Generic's per-lane loops (set1, addsub, …)
// for f32x4 as stack stores and reloads, which made the float32 GEMM 200× slower than f64.
#if defined(__wasm_simd128__) && LAPIS_SIMD_VECTOR_EXT

template <class Rt> struct Pack<Wasm128, Rt> : Pack<Generic<16>, Rt> {
  using Base = Pack<Generic<16>, Rt>;
  using typename Base::M;
  using typename Base::R;
  using typename Base::V;
  using Base::L;
  static constexpr bool kF32 = sizeof(R) == 4;

  static LAPIS_SIMD_INLINE V set1(R x) {
    if constexpr (kF32) return (V)wasm_f32x4_splat(x);
    else return (V)wasm_f64x2_splat(x);
  }
  static LAPIS_SIMD_INLINE V bcast(const R* p) {
    if constexpr (kF32) return (V)wasm_v128_load32_splat(p);
    else return (V)wasm_v128_load64_splat(p);
  }
  static LAPIS_SIMD_INLINE V sqrt(V a) {
    if constexpr (kF32) return (V)wasm_f32x4_sqrt((v128_t)a);
    else return (V)wasm_f64x2_sqrt((v128_t)a);
  }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) {
    if constexpr (kF32) return wasm_i32x4_bitmask((v128_t)m);
    else return wasm_i64x2_bitmask((v128_t)m);
  }
  static LAPIS_SIMD_INLINE bool any(M m) { return wasm_v128_any_true((v128_t)m); }
  static LAPIS_SIMD_INLINE R hsum(V v) {
    // ((v0 + v1) + v2) + v3, Generic's order
    if constexpr (kF32) return ((v[0] + v[1]) + v[2]) + v[3];
    else return v[0] + v[1];
  }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) {
    if constexpr (kF32) return __builtin_shufflevector(v, v, 1, 0, 3, 2);
    else return __builtin_shufflevector(v, v, 1, 0);
  }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) {
    const V d = x - y, s = x + y;
    if constexpr (kF32) return __builtin_shufflevector(d, s, 0, 5, 2, 7);
    else return __builtin_shufflevector(d, s, 0, 3);
  }
  static LAPIS_SIMD_INLINE V conj(V v) {
    const V n = -v;
    if constexpr (kF32) return __builtin_shufflevector(v, n, 0, 5, 2, 7);
    else return __builtin_shufflevector(v, n, 0, 3);
  }
  static LAPIS_SIMD_INLINE V alt(R x) {
    const V p = set1(x), n = -p;
    if constexpr (kF32) return __builtin_shufflevector(p, n, 0, 5, 2, 7);
    else return __builtin_shufflevector(p, n, 0, 3);
  }
};
#endif

// ---------------------------------------------------------------------------------------
// x86-64: AVX2+FMA and AVX-512 (F, DQ, VL).
#if LAPIS_SIMD_X86
LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX2)

template <> struct Pack<Avx2, double> {
  using R = double;
  using V = __m256d;
  using M = __m256d;
  using Tail = __m256i;
  static constexpr int L = 4;
  static constexpr bool kTail = true;
  static LAPIS_SIMD_INLINE V zero() { return _mm256_setzero_pd(); }
  static LAPIS_SIMD_INLINE V set1(R x) { return _mm256_set1_pd(x); }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return _mm256_broadcast_sd(p); }
  static LAPIS_SIMD_INLINE V load(const R* p) { return _mm256_loadu_pd(p); }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { _mm256_storeu_pd(p, v); }
  static LAPIS_SIMD_INLINE Tail tail(int n) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  static LAPIS_SIMD_INLINE V loadt(const R* p, Tail t) { return _mm256_maskload_pd(p, t); }
  static LAPIS_SIMD_INLINE void storet(R* p, Tail t, V v) { _mm256_maskstore_pd(p, t, v); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return _mm256_add_pd(a, b); }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return _mm256_div_pd(a, b); }
  static LAPIS_SIMD_INLINE V sqrt(V a) { return _mm256_sqrt_pd(a); }
  static LAPIS_SIMD_INLINE V neg(V v) { return _mm256_xor_pd(v, _mm256_set1_pd(-0.0)); }
  static LAPIS_SIMD_INLINE V abs(V v) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), v); }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return _mm256_max_pd(a, b); }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return _mm256_fnmadd_pd(a, b, c); }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return _mm256_and_pd(a, b); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return _mm256_or_pd(a, b); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return _mm256_xor_pd(a, b); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return _mm256_andnot_pd(a, b); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_UQ); }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return _mm256_and_pd(a, b); }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return _mm256_or_pd(a, b); }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return _mm256_blendv_pd(a, b, m); }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) { return static_cast<unsigned>(_mm256_movemask_pd(m)); }
  static LAPIS_SIMD_INLINE bool any(M m) { return _mm256_movemask_pd(m) != 0; }
  static LAPIS_SIMD_INLINE R hsum(V v) {
    __m128d lo = _mm256_castpd256_pd128(v), hi = _mm256_extractf128_pd(v, 1);
    lo = _mm_add_pd(lo, hi);
    return _mm_cvtsd_f64(_mm_add_sd(lo, _mm_unpackhi_pd(lo, lo)));
  }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) { return _mm256_permute_pd(v, 0x5); }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) { return _mm256_addsub_pd(x, y); }
  static LAPIS_SIMD_INLINE V conj(V v) { return _mm256_xor_pd(v, _mm256_setr_pd(0.0, -0.0, 0.0, -0.0)); }
  static LAPIS_SIMD_INLINE V alt(R x) { return _mm256_setr_pd(x, -x, x, -x); }
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) {
    const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    r[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
  }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_cvttpd_epi32(v));
  }
};

template <> struct Pack<Avx2, float> {
  using R = float;
  using V = __m256;
  using M = __m256;
  using Tail = __m256i;
  static constexpr int L = 8;
  static constexpr bool kTail = true;
  static LAPIS_SIMD_INLINE V zero() { return _mm256_setzero_ps(); }
  static LAPIS_SIMD_INLINE V set1(R x) { return _mm256_set1_ps(x); }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return _mm256_broadcast_ss(p); }
  static LAPIS_SIMD_INLINE V load(const R* p) { return _mm256_loadu_ps(p); }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { _mm256_storeu_ps(p, v); }
  static LAPIS_SIMD_INLINE Tail tail(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static LAPIS_SIMD_INLINE V loadt(const R* p, Tail t) { return _mm256_maskload_ps(p, t); }
  static LAPIS_SIMD_INLINE void storet(R* p, Tail t, V v) { _mm256_maskstore_ps(p, t, v); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return _mm256_add_ps(a, b); }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return _mm256_div_ps(a, b); }
  static LAPIS_SIMD_INLINE V sqrt(V a) { return _mm256_sqrt_ps(a); }
  static LAPIS_SIMD_INLINE V neg(V v) { return _mm256_xor_ps(v, _mm256_set1_ps(-0.0f)); }
  static LAPIS_SIMD_INLINE V abs(V v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return _mm256_max_ps(a, b); }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return _mm256_fnmadd_ps(a, b, c); }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return _mm256_and_ps(a, b); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return _mm256_or_ps(a, b); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return _mm256_xor_ps(a, b); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return _mm256_andnot_ps(a, b); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return _mm256_and_ps(a, b); }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return _mm256_or_ps(a, b); }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return _mm256_blendv_ps(a, b, m); }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) { return static_cast<unsigned>(_mm256_movemask_ps(m)); }
  static LAPIS_SIMD_INLINE bool any(M m) { return _mm256_movemask_ps(m) != 0; }
  static LAPIS_SIMD_INLINE R hsum(V v) {
    __m128 lo = _mm256_castps256_ps128(v), hi = _mm256_extractf128_ps(v, 1);
    lo = _mm_add_ps(lo, hi);
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    return _mm_cvtss_f32(lo);
  }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) { return _mm256_permute_ps(v, 0xB1); }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) { return _mm256_addsub_ps(x, y); }
  static LAPIS_SIMD_INLINE V conj(V v) {
    return _mm256_xor_ps(v, _mm256_setr_ps(0.f, -0.f, 0.f, -0.f, 0.f, -0.f, 0.f, -0.f));
  }
  static LAPIS_SIMD_INLINE V alt(R x) { return _mm256_setr_ps(x, -x, x, -x, x, -x, x, -x); }
  // The standard unpack / shuffle / permute network.
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
  }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvttps_epi32(v));
  }
};

LAPIS_TARGET_END
LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's AVX-512 intrinsics pass an _mm512_undefined_* operand, which -Wall reports.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

template <> struct Pack<Avx512, double> {
  using R = double;
  using V = __m512d;
  using M = __mmask8;
  using Tail = __mmask8;
  static constexpr int L = 8;
  static constexpr bool kTail = true;
  static LAPIS_SIMD_INLINE V zero() { return _mm512_setzero_pd(); }
  static LAPIS_SIMD_INLINE V set1(R x) { return _mm512_set1_pd(x); }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return _mm512_set1_pd(*p); }
  static LAPIS_SIMD_INLINE V load(const R* p) { return _mm512_loadu_pd(p); }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { _mm512_storeu_pd(p, v); }
  static LAPIS_SIMD_INLINE Tail tail(int n) { return static_cast<Tail>((1u << n) - 1u); }
  static LAPIS_SIMD_INLINE V loadt(const R* p, Tail t) { return _mm512_maskz_loadu_pd(t, p); }
  static LAPIS_SIMD_INLINE void storet(R* p, Tail t, V v) { _mm512_mask_storeu_pd(p, t, v); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return _mm512_add_pd(a, b); }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return _mm512_sub_pd(a, b); }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return _mm512_div_pd(a, b); }
  static LAPIS_SIMD_INLINE V sqrt(V a) { return _mm512_sqrt_pd(a); }
  static LAPIS_SIMD_INLINE V flip(V v, __m512i m) {
    return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(v), m));
  }
  static LAPIS_SIMD_INLINE V neg(V v) { return flip(v, _mm512_set1_epi64(INT64_MIN)); }
  static LAPIS_SIMD_INLINE V abs(V v) { return _mm512_abs_pd(v); }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return _mm512_max_pd(a, b); }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return _mm512_fnmadd_pd(a, b, c); }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return _mm512_and_pd(a, b); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return _mm512_or_pd(a, b); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return _mm512_xor_pd(a, b); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return _mm512_andnot_pd(a, b); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ); }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return static_cast<M>(a & b); }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return static_cast<M>(a | b); }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return _mm512_mask_blend_pd(m, a, b); }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) { return static_cast<unsigned>(m); }
  static LAPIS_SIMD_INLINE bool any(M m) { return m != 0; }
  // Through memory: GCC 12's lane extracts (and so _mm512_reduce_add_pd) warn under -Wall.
  static LAPIS_SIMD_INLINE R hsum(V v) {
    alignas(64) R t[L];
    _mm512_store_pd(t, v);
    return ((t[0] + t[4]) + (t[1] + t[5])) + ((t[2] + t[6]) + (t[3] + t[7]));
  }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) { return _mm512_shuffle_pd(v, v, 0x55); }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) { return _mm512_mask_sub_pd(_mm512_add_pd(x, y), 0x55, x, y); }
  static LAPIS_SIMD_INLINE V conj(V v) { return flip(v, _mm512_maskz_mov_epi64(0xAA, _mm512_set1_epi64(INT64_MIN))); }
  static LAPIS_SIMD_INLINE V alt(R x) { return _mm512_setr_pd(x, -x, x, -x, x, -x, x, -x); }
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) {
#if LAPIS_SIMD_VECTOR_EXT
    vx::transpose<V, __v8di, L>(r);
#else
    alignas(64) R t[L][L];
    for (int i = 0; i < L; ++i) _mm512_store_pd(t[i], r[i]);
    for (int i = 0; i < L; ++i) r[i] = _mm512_set_pd(t[7][i], t[6][i], t[5][i], t[4][i], t[3][i], t[2][i], t[1][i], t[0][i]);
#endif
  }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_cvttpd_epi32(v));
  }
};

template <> struct Pack<Avx512, float> {
  using R = float;
  using V = __m512;
  using M = __mmask16;
  using Tail = __mmask16;
  static constexpr int L = 16;
  static constexpr bool kTail = true;
  static LAPIS_SIMD_INLINE V zero() { return _mm512_setzero_ps(); }
  static LAPIS_SIMD_INLINE V set1(R x) { return _mm512_set1_ps(x); }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return _mm512_set1_ps(*p); }
  static LAPIS_SIMD_INLINE V load(const R* p) { return _mm512_loadu_ps(p); }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { _mm512_storeu_ps(p, v); }
  static LAPIS_SIMD_INLINE Tail tail(int n) { return static_cast<Tail>((1u << n) - 1u); }
  static LAPIS_SIMD_INLINE V loadt(const R* p, Tail t) { return _mm512_maskz_loadu_ps(t, p); }
  static LAPIS_SIMD_INLINE void storet(R* p, Tail t, V v) { _mm512_mask_storeu_ps(p, t, v); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return _mm512_add_ps(a, b); }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return _mm512_div_ps(a, b); }
  static LAPIS_SIMD_INLINE V sqrt(V a) { return _mm512_sqrt_ps(a); }
  static LAPIS_SIMD_INLINE V flip(V v, __m512i m) {
    return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(v), m));
  }
  static LAPIS_SIMD_INLINE V neg(V v) { return flip(v, _mm512_set1_epi32(INT32_MIN)); }
  static LAPIS_SIMD_INLINE V abs(V v) { return _mm512_abs_ps(v); }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return _mm512_max_ps(a, b); }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return _mm512_fnmadd_ps(a, b, c); }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return _mm512_and_ps(a, b); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return _mm512_or_ps(a, b); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return _mm512_xor_ps(a, b); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return _mm512_andnot_ps(a, b); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return static_cast<M>(a & b); }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return static_cast<M>(a | b); }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return _mm512_mask_blend_ps(m, a, b); }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) { return static_cast<unsigned>(m); }
  static LAPIS_SIMD_INLINE bool any(M m) { return m != 0; }
  static LAPIS_SIMD_INLINE R hsum(V v) {
    alignas(64) R t[L];
    _mm512_store_ps(t, v);
    R s = 0;
    for (int i = 0; i < 8; ++i) s += t[i] + t[i + 8];
    return s;
  }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) { return _mm512_shuffle_ps(v, v, 0xB1); }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) { return _mm512_mask_sub_ps(_mm512_add_ps(x, y), 0x5555, x, y); }
  static LAPIS_SIMD_INLINE V conj(V v) { return flip(v, _mm512_maskz_mov_epi32(0xAAAA, _mm512_set1_epi32(INT32_MIN))); }
  static LAPIS_SIMD_INLINE V alt(R x) {
    return _mm512_setr_ps(x, -x, x, -x, x, -x, x, -x, x, -x, x, -x, x, -x, x, -x);
  }
  // Pairs, quads (within 128-bit lanes), then 128-bit blocks across the register.
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) {
    __m512 t[16], u[16];
    for (int i = 0; i < 8; ++i) {
      t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
      t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int q = 0; q < 4; ++q) {
      u[4 * q + 0] = _mm512_shuffle_ps(t[4 * q], t[4 * q + 2], 0x44);
      u[4 * q + 1] = _mm512_shuffle_ps(t[4 * q], t[4 * q + 2], 0xEE);
      u[4 * q + 2] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0x44);
      u[4 * q + 3] = _mm512_shuffle_ps(t[4 * q + 1], t[4 * q + 3], 0xEE);
    }
    // u[4q + e] holds, in 128-bit lane k, element 4k + e of rows 4q..4q+3.
    for (int e = 0; e < 4; ++e) {
      const __m512 a = u[e], b = u[4 + e], c = u[8 + e], d = u[12 + e];
      const __m512 ab0 = _mm512_shuffle_f32x4(a, b, 0x44), ab1 = _mm512_shuffle_f32x4(a, b, 0xEE);
      const __m512 cd0 = _mm512_shuffle_f32x4(c, d, 0x44), cd1 = _mm512_shuffle_f32x4(c, d, 0xEE);
      r[0 + e] = _mm512_shuffle_f32x4(ab0, cd0, 0x88);
      r[4 + e] = _mm512_shuffle_f32x4(ab0, cd0, 0xDD);
      r[8 + e] = _mm512_shuffle_f32x4(ab1, cd1, 0x88);
      r[12 + e] = _mm512_shuffle_f32x4(ab1, cd1, 0xDD);
    }
  }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) {
    _mm512_storeu_si512(reinterpret_cast<void*>(out), _mm512_cvttps_epi32(v));
  }
};

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
LAPIS_TARGET_END
#endif  // LAPIS_SIMD_X86

// ---------------------------------------------------------------------------------------
// arm64: NEON (always there). Only the GEMM has NEON builds; the lane kernels run Portable.
#if LAPIS_SIMD_NEON
template <> struct Pack<Neon, double> {
  using R = double;
  using V = float64x2_t;
  using M = uint64x2_t;
  static constexpr int L = 2;
  static constexpr bool kTail = false;
  static LAPIS_SIMD_INLINE V zero() { return vdupq_n_f64(0.0); }
  static LAPIS_SIMD_INLINE V set1(R x) { return vdupq_n_f64(x); }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return vld1q_dup_f64(p); }
  static LAPIS_SIMD_INLINE V load(const R* p) { return vld1q_f64(p); }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { vst1q_f64(p, v); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return vaddq_f64(a, b); }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return vsubq_f64(a, b); }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return vmulq_f64(a, b); }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return vdivq_f64(a, b); }
  static LAPIS_SIMD_INLINE V sqrt(V a) { return vsqrtq_f64(a); }
  static LAPIS_SIMD_INLINE V neg(V v) { return vnegq_f64(v); }
  static LAPIS_SIMD_INLINE V abs(V v) { return vabsq_f64(v); }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return vbslq_f64(vcgtq_f64(a, b), a, b); }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return vfmaq_f64(c, a, b); }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return vfmsq_f64(c, a, b); }
  static LAPIS_SIMD_INLINE uint64x2_t u(V v) { return vreinterpretq_u64_f64(v); }
  static LAPIS_SIMD_INLINE V f(uint64x2_t v) { return vreinterpretq_f64_u64(v); }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return f(vandq_u64(u(a), u(b))); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return f(vorrq_u64(u(a), u(b))); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return f(veorq_u64(u(a), u(b))); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return f(vbicq_u64(u(b), u(a))); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return vcgtq_f64(a, b); }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return vcltq_f64(a, b); }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return vceqq_f64(a, b); }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return veorq_u64(vceqq_f64(a, b), vdupq_n_u64(~0ull)); }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return vandq_u64(a, b); }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return vorrq_u64(a, b); }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return vbslq_f64(m, b, a); }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) {
    return unsigned(vgetq_lane_u64(m, 0) & 1) | unsigned(vgetq_lane_u64(m, 1) & 1) << 1;
  }
  static LAPIS_SIMD_INLINE bool any(M m) { return mask_bits(m) != 0; }
  static LAPIS_SIMD_INLINE R hsum(V v) { return vaddvq_f64(v); }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) { return vextq_f64(v, v, 1); }
  static LAPIS_SIMD_INLINE V conj(V v) {
    static const uint64_t mk[2] = {0, 0x8000000000000000ull};
    return f(veorq_u64(u(v), vld1q_u64(mk)));
  }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) {
    static const uint64_t mk[2] = {0x8000000000000000ull, 0};
    return vaddq_f64(x, f(veorq_u64(u(y), vld1q_u64(mk))));
  }
  static LAPIS_SIMD_INLINE V alt(R x) {
    const R t[2] = {x, -x};
    return vld1q_f64(t);
  }
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) {
    const V a = vzip1q_f64(r[0], r[1]), b = vzip2q_f64(r[0], r[1]);
    r[0] = a;
    r[1] = b;
  }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) {
    const int64x2_t w = vcvtq_s64_f64(v);
    out[0] = static_cast<int32_t>(vgetq_lane_s64(w, 0));
    out[1] = static_cast<int32_t>(vgetq_lane_s64(w, 1));
  }
};

template <> struct Pack<Neon, float> {
  using R = float;
  using V = float32x4_t;
  using M = uint32x4_t;
  static constexpr int L = 4;
  static constexpr bool kTail = false;
  static LAPIS_SIMD_INLINE V zero() { return vdupq_n_f32(0.0f); }
  static LAPIS_SIMD_INLINE V set1(R x) { return vdupq_n_f32(x); }
  static LAPIS_SIMD_INLINE V bcast(const R* p) { return vld1q_dup_f32(p); }
  static LAPIS_SIMD_INLINE V load(const R* p) { return vld1q_f32(p); }
  static LAPIS_SIMD_INLINE void store(R* p, V v) { vst1q_f32(p, v); }
  static LAPIS_SIMD_INLINE V add(V a, V b) { return vaddq_f32(a, b); }
  static LAPIS_SIMD_INLINE V sub(V a, V b) { return vsubq_f32(a, b); }
  static LAPIS_SIMD_INLINE V mul(V a, V b) { return vmulq_f32(a, b); }
  static LAPIS_SIMD_INLINE V div(V a, V b) { return vdivq_f32(a, b); }
  static LAPIS_SIMD_INLINE V sqrt(V a) { return vsqrtq_f32(a); }
  static LAPIS_SIMD_INLINE V neg(V v) { return vnegq_f32(v); }
  static LAPIS_SIMD_INLINE V abs(V v) { return vabsq_f32(v); }
  static LAPIS_SIMD_INLINE V max(V a, V b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
  static LAPIS_SIMD_INLINE V fma(V a, V b, V c) { return vfmaq_f32(c, a, b); }
  static LAPIS_SIMD_INLINE V fnma(V a, V b, V c) { return vfmsq_f32(c, a, b); }
  static LAPIS_SIMD_INLINE uint32x4_t u(V v) { return vreinterpretq_u32_f32(v); }
  static LAPIS_SIMD_INLINE V f(uint32x4_t v) { return vreinterpretq_f32_u32(v); }
  static LAPIS_SIMD_INLINE V and_(V a, V b) { return f(vandq_u32(u(a), u(b))); }
  static LAPIS_SIMD_INLINE V or_(V a, V b) { return f(vorrq_u32(u(a), u(b))); }
  static LAPIS_SIMD_INLINE V xor_(V a, V b) { return f(veorq_u32(u(a), u(b))); }
  static LAPIS_SIMD_INLINE V andnot(V a, V b) { return f(vbicq_u32(u(b), u(a))); }
  static LAPIS_SIMD_INLINE M gt(V a, V b) { return vcgtq_f32(a, b); }
  static LAPIS_SIMD_INLINE M lt(V a, V b) { return vcltq_f32(a, b); }
  static LAPIS_SIMD_INLINE M eq(V a, V b) { return vceqq_f32(a, b); }
  static LAPIS_SIMD_INLINE M ne(V a, V b) { return vmvnq_u32(vceqq_f32(a, b)); }
  static LAPIS_SIMD_INLINE M mand(M a, M b) { return vandq_u32(a, b); }
  static LAPIS_SIMD_INLINE M mor(M a, M b) { return vorrq_u32(a, b); }
  static LAPIS_SIMD_INLINE V blend(V a, V b, M m) { return vbslq_f32(m, b, a); }
  static LAPIS_SIMD_INLINE unsigned mask_bits(M m) {
    static const uint32_t w[4] = {1, 2, 4, 8};
    return vaddvq_u32(vandq_u32(m, vld1q_u32(w)));
  }
  static LAPIS_SIMD_INLINE bool any(M m) { return vmaxvq_u32(m) != 0; }
  static LAPIS_SIMD_INLINE R hsum(V v) { return vaddvq_f32(v); }
  static LAPIS_SIMD_INLINE V swap_pairs(V v) { return vrev64q_f32(v); }
  static LAPIS_SIMD_INLINE V conj(V v) {
    static const uint32_t mk[4] = {0, 0x80000000u, 0, 0x80000000u};
    return f(veorq_u32(u(v), vld1q_u32(mk)));
  }
  static LAPIS_SIMD_INLINE V addsub(V x, V y) {
    static const uint32_t mk[4] = {0x80000000u, 0, 0x80000000u, 0};
    return vaddq_f32(x, f(veorq_u32(u(y), vld1q_u32(mk))));
  }
  static LAPIS_SIMD_INLINE V alt(R x) {
    const R t[4] = {x, -x, x, -x};
    return vld1q_f32(t);
  }
  static LAPIS_SIMD_INLINE void transpose(V (&r)[L]) {
    const float32x4x2_t a = vtrnq_f32(r[0], r[1]), b = vtrnq_f32(r[2], r[3]);
    r[0] = vcombine_f32(vget_low_f32(a.val[0]), vget_low_f32(b.val[0]));
    r[1] = vcombine_f32(vget_low_f32(a.val[1]), vget_low_f32(b.val[1]));
    r[2] = vcombine_f32(vget_high_f32(a.val[0]), vget_high_f32(b.val[0]));
    r[3] = vcombine_f32(vget_high_f32(a.val[1]), vget_high_f32(b.val[1]));
  }
  static LAPIS_SIMD_INLINE void to_i32(V v, int32_t* out) { vst1q_s32(out, vcvtq_s32_f32(v)); }
};
#endif  // LAPIS_SIMD_NEON

}  // namespace lapis::simd
