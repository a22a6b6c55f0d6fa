// The frexp loop, shared by the portable build (frexp.cpp) and the AVX2 build
// (frexp_avx2.cpp, compiled with -mavx2: x86-64's baseline SSE2 has no 64-bit integer
// compares, so gcc leaves the float64 loop scalar there).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lapis/common.hpp"

namespace lapis {
namespace {

template <class T> struct Bits;
template <> struct Bits<double> {
  using U = uint64_t;
  static constexpr int kMantBits = 52;
  static constexpr U kExpMask = 0x7ffULL;
  static constexpr int kBias = 1022;  // 0.5 ≤ |m| < 1: one less than IEEE's bias
  static constexpr double kScale = 0x1p54;
  static constexpr int kScaleExp = 54;
};
template <> struct Bits<float> {
  using U = uint32_t;
  static constexpr int kMantBits = 23;
  static constexpr U kExpMask = 0xffU;
  static constexpr int kBias = 126;
  static constexpr float kScale = 0x1p25f;
  static constexpr int kScaleExp = 25;
};

// Selects are written as masks: gcc leaves ?: on these types as control flow and then
// refuses to vectorise the loop.
template <class T>
inline void frexp_one(T x, T& m, int32_t& e) {
  using B = Bits<T>;
  using U = typename B::U;
  using S = std::make_signed_t<U>;
  U bx;
  std::memcpy(&bx, &x, sizeof bx);
  const U sub = U(0) - U(((bx >> B::kMantBits) & B::kExpMask) == 0);  // all ones for ±0/subnormal
  const U one_bits = static_cast<U>(B::kBias + 1) << B::kMantBits;
  const U scale_bits = one_bits + (sub & (static_cast<U>(B::kScaleExp) << B::kMantBits));
  T scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  const T y = x * scale;  // exact; ±0 stays ±0
  U by;
  std::memcpy(&by, &y, sizeof by);
  const U ey = (by >> B::kMantBits) & B::kExpMask;
  const U special = U(0) - U((ey == 0) | (ey == B::kExpMask));  // ±0, ±Inf, NaN
  const U mb = (by & ~(B::kExpMask << B::kMantBits)) | (static_cast<U>(B::kBias) << B::kMantBits);
  const U out = (by & special) | (mb & ~special);
  std::memcpy(&m, &out, sizeof out);
  const S ex = static_cast<S>(ey) - B::kBias - static_cast<S>(sub & static_cast<U>(B::kScaleExp));
  e = static_cast<int32_t>(ex & static_cast<S>(~special));
}

template <class T>
inline void frexp_range(const T* __restrict x, T* __restrict m, int32_t* __restrict e, index b, index end) {
  for (index i = b; i < end; ++i) frexp_one(x[i], m[i], e[i]);
}

}  // namespace

}  // namespace lapis
