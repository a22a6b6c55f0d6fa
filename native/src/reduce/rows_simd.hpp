// The contiguous-row kernels of float/double reductions, written once over a SIMD packet P
// (lapis/simd.hpp) and instantiated by reduce.cpp (the baseline's Generic<16>) and
// reduce_avx2.cpp (Avx2): pairwise sums (of the elements, their squares or magnitudes),
// NaN-propagating max/min, and the first index holding a value. Each ISA file includes this header once, inside its own namespace.
#pragma once
#include <cstring>

#include "lapis/common.hpp"
#include "lapis/simd.hpp"

namespace lapis::reduce_rows_detail {
// Internal linkage: each ISA's translation unit keeps its own copies (no ODR merging of
// code built for different targets).
namespace {

constexpr int kAcc = 4;  // independent vector accumulators (hides the add latency)

// What the sums add: the elements (kPlain), their squares (kSquares) or their magnitudes
// (kMagnitudes), the last two for vector and matrix norms.
enum Terms : int { kPlain = 0, kSquares = 1, kMagnitudes = 2 };

template <class P, int Tm>
LAPIS_SIMD_INLINE typename P::V term(typename P::V v) {
  if constexpr (Tm == kSquares) return P::mul(v, v);
  else if constexpr (Tm == kMagnitudes) return P::abs(v);
  else return v;
}

// acc[k] += pairwise sums of the terms of x[0, m): lane l of acc[k] gets the elements ≡
// k·L + l (mod kAcc·L). Leaves of 16 elements per lane (numpy's 128 over 8 lanes); halves
// split at multiples of kAcc·L so every element keeps its lane.
template <class P, int Tm = kPlain>
void pairwise(const typename P::R* x, index m, typename P::V* acc) {
  using R = typename P::R;
  using V = typename P::V;
  constexpr index W = kAcc * P::L, kLeaf = 16 * W;
  if (m > kLeaf) {
    const index h = (m / 2) / W * W;
    V b[kAcc];
    for (int k = 0; k < kAcc; ++k) b[k] = P::zero();
    pairwise<P, Tm>(x, h, acc);
    pairwise<P, Tm>(x + h, m - h, b);
    for (int k = 0; k < kAcc; ++k) acc[k] = P::add(acc[k], b[k]);
    return;
  }
  V a[kAcc];
  for (int k = 0; k < kAcc; ++k) a[k] = P::zero();
  index i = 0;
  for (; i + W <= m; i += W) {
    for (int k = 0; k < kAcc; ++k) a[k] = P::add(a[k], term<P, Tm>(P::load(x + i + k * P::L)));
  }
  if (i < m) {
    // The ragged end through a zero-padded copy keeps each element in its lane.
    alignas(64) R buf[W] = {};
    std::memcpy(buf, x + i, static_cast<size_t>(m - i) * sizeof(R));
    for (int k = 0; k < kAcc; ++k) a[k] = P::add(a[k], term<P, Tm>(P::load(buf + k * P::L)));
  }
  for (int k = 0; k < kAcc; ++k) acc[k] = P::add(acc[k], a[k]);
}

template <class R> inline R tree_sum(const R* v, int count, int stride) {
  if (count == 1) return v[0];
  const int h = count / 2;
  return tree_sum(v, h, stride) + tree_sum(v + h * stride, count - h, stride);
}

// Sum of x[0, m) (pairs = false) or of the interleaved pairs x[0, 2m) into out[0], out[1].
template <class P>
void sum(const typename P::R* x, index m, bool pairs, typename P::R* out) {
  using R = typename P::R;
  using V = typename P::V;
  V acc[kAcc];
  for (int k = 0; k < kAcc; ++k) acc[k] = P::zero();
  pairwise<P>(x, pairs ? 2 * m : m, acc);
  alignas(64) R lanes[kAcc * P::L];
  for (int k = 0; k < kAcc; ++k) P::store(lanes + k * P::L, acc[k]);
  if (pairs) {
    out[0] = tree_sum(lanes, kAcc * P::L / 2, 2);
    out[1] = tree_sum(lanes + 1, kAcc * P::L / 2, 2);
  } else {
    out[0] = tree_sum(lanes, kAcc * P::L, 1);
  }
}

// Σ x² (Tm = kSquares) or Σ |x| (kMagnitudes) of x[0, m), pairwise.
template <class P, int Tm>
typename P::R sum_terms(const typename P::R* x, index m) {
  using R = typename P::R;
  using V = typename P::V;
  V acc[kAcc];
  for (int k = 0; k < kAcc; ++k) acc[k] = P::zero();
  pairwise<P, Tm>(x, m, acc);
  alignas(64) R lanes[kAcc * P::L];
  for (int k = 0; k < kAcc; ++k) P::store(lanes + k * P::L, acc[k]);
  return tree_sum(lanes, kAcc * P::L, 1);
}

// max (is_max) or min of x[0, m), m ≥ 1; NaN anywhere gives NaN.
template <class P>
typename P::R extremum(const typename P::R* x, index m, bool is_max) {
  using R = typename P::R;
  using V = typename P::V;
  using M = typename P::M;
  constexpr index W = kAcc * P::L;
  R best = x[0];
  bool nan = x[0] != x[0];
  index i = 0;
  if (m >= W) {
    V a[kAcc];
    M bad[kAcc];
    for (int k = 0; k < kAcc; ++k) {
      a[k] = P::set1(best);
      bad[k] = P::ne(a[k], a[k]);
    }
    if (is_max) {
      for (; i + W <= m; i += W) {
        for (int k = 0; k < kAcc; ++k) {
          const V v = P::load(x + i + k * P::L);
          a[k] = P::blend(a[k], v, P::gt(v, a[k]));
          bad[k] = P::mor(bad[k], P::ne(v, v));
        }
      }
    } else {
      for (; i + W <= m; i += W) {
        for (int k = 0; k < kAcc; ++k) {
          const V v = P::load(x + i + k * P::L);
          a[k] = P::blend(a[k], v, P::lt(v, a[k]));
          bad[k] = P::mor(bad[k], P::ne(v, v));
        }
      }
    }
    alignas(64) R lanes[W];
    for (int k = 0; k < kAcc; ++k) {
      P::store(lanes + k * P::L, a[k]);
      nan = nan || P::any(bad[k]);
    }
    for (index l = 0; l < W; ++l) best = is_max ? (lanes[l] > best ? lanes[l] : best) : (lanes[l] < best ? lanes[l] : best);
  }
  for (; i < m; ++i) {
    const R v = x[i];
    nan = nan || v != v;
    best = is_max ? (v > best ? v : best) : (v < best ? v : best);
  }
  return nan ? R(NAN) : best;
}

// First i < m with x[i] == v (x[i] NaN when v is NaN), or −1.
template <class P>
index find_first(const typename P::R* x, index m, typename P::R v) {
  using V = typename P::V;
  const bool want_nan = v != v;
  const V t = P::set1(v);
  index i = 0;
  for (; i + P::L <= m; i += P::L) {
    const V a = P::load(x + i);
    if (P::any(want_nan ? P::ne(a, a) : P::eq(a, t))) break;
  }
  for (; i < m; ++i) {
    if (want_nan ? x[i] != x[i] : x[i] == v) return i;
  }
  return -1;
}

}  // namespace
}  // namespace lapis::reduce_rows_detail
