// Shared by the elementwise kernels: the typed view of ElemType, the parallel broadcast walk,
// and the per-element semantics (numpy 2's NaN/−0 rules, integer ops wrapping in unsigned).
#pragma once
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "lapis/elementwise.hpp"
#include "lapis/parallel.hpp"

namespace lapis::ew {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

// Memory-bound loops: chunks big enough to amortise the pool hand-off; transcendental
// functions cost ~20× more per element, so they split finer.
constexpr index kGrain = 1 << 15;
constexpr index kGrainHeavy = 1 << 12;
constexpr int kMaxDims = 64;

// Calls f(T{}) for the C++ type of an ElemType (bool is uint8_t).
template <class F>
auto with_type(ElemType t, F&& f) {
  switch (t) {
    case ElemType::f32: return f(float{});
    case ElemType::f64: return f(double{});
    case ElemType::c64: return f(c64{});
    case ElemType::c128: return f(c128{});
    case ElemType::i32: return f(int32_t{});
    case ElemType::u32: return f(uint32_t{});
    default: return f(uint8_t{});
  }
}

template <class T> constexpr bool is_int_v = std::is_integral_v<T>;
template <class T> constexpr bool is_float_v = std::is_floating_point_v<T>;

// Walks [begin, end) of the flat output of a broadcast layout with N operands, calling
// run(off, o, len) on maximal inner runs (off[k]: operand k's element offset at the run start).
template <int N, class Run>
void walk_range(const Layout3& L, index begin, index end, Run&& run) {
  const int nd = L.ndim;
  const index inner = L.shape[nd - 1];
  if (inner == 0 || begin >= end) return;
  index cnt[kMaxDims];
  index row = begin / inner, j = begin % inner;
  index base[N] = {};
  for (int d = nd - 2; d >= 0; --d) {
    cnt[d] = row % L.shape[d];
    row /= L.shape[d];
    for (int k = 0; k < N; ++k) base[k] += cnt[d] * L.s[k][d];
  }
  index o = begin;
  while (o < end) {
    const index len = std::min(inner - j, end - o);
    index off[N];
    for (int k = 0; k < N; ++k) off[k] = base[k] + j * L.s[k][nd - 1];
    run(off, o, len);
    o += len;
    j = 0;
    for (int d = nd - 2; d >= 0; --d) {
      for (int k = 0; k < N; ++k) base[k] += L.s[k][d];
      if (++cnt[d] < L.shape[d]) break;
      for (int k = 0; k < N; ++k) base[k] -= L.s[k][d] * cnt[d];
      cnt[d] = 0;
    }
  }
}

inline index layout_size(const Layout3& L) {
  index s = 1;
  for (int d = 0; d < L.ndim; ++d) s *= L.shape[d];
  return s;
}

template <int N, class Run>
void walk(const Layout3& L, index grain, Run&& run) {
  parallel_for(layout_size(L), grain, [&](index b, index e) { walk_range<N>(L, b, e, run); });
}

// ---- per-element helpers

template <class T> inline bool nonzero(T x) {
  if constexpr (is_complex_v<T>) return x.real() != 0 || x.imag() != 0;
  else return x != 0;
}

// Integer add/sub/mul/neg in the unsigned type: two's-complement wrap without UB.
template <class T> using uns = std::make_unsigned_t<T>;

}  // namespace lapis::ew
