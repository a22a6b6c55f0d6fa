// The peak probe's loop, written once over the packet P (lapis/simd.hpp) and instantiated
// by each ISA's file with its own packet. N independent accumulator chains
// a ← a·m + c: enough to cover the FMA latency on every pipe (latency 4–5 × 2 pipes needs
// ≥ 10 in flight), kept in registers (N + 2 ≤ the register file). m and c arrive at run
// time and every accumulator feeds the returned sum, so nothing folds away; m < 1 keeps
// each chain bounded and away from subnormals (it converges to c / (1 − m)).
#pragma once
#include <cstdint>

#include "lapis/simd.hpp"

namespace lapis::peak_detail {

template <class P, int N>
double fma_rounds(uint64_t rounds, double m_in, double c_in, uint64_t* lanes) {
  using R = typename P::R;
  using V = typename P::V;
  const V m = P::set1(static_cast<R>(m_in)), c = P::set1(static_cast<R>(c_in));
  V a[N];
  simd::unroll<N>([&](auto i) { a[i] = P::set1(static_cast<R>(0.5 + 0.01 * i)); });
  for (uint64_t r = 0; r < rounds; ++r) simd::unroll<N>([&](auto i) { a[i] = P::fma(a[i], m, c); });
  V s = a[0];
  simd::unroll<N - 1>([&](auto i) { s = P::add(s, a[i + 1]); });
  *lanes = rounds * static_cast<uint64_t>(N) * static_cast<uint64_t>(P::L);
  return static_cast<double>(P::hsum(s));
}

}  // namespace lapis::peak_detail
