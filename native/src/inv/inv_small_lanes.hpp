// The batched tiny-inverse kernel, written once over a packet P (lapis/simd.hpp): each SIMD
// lane holds one matrix of the batch (structure of arrays), so n ≤ 4 Gauss–Jordan with
// partial pivoting runs on P::L matrices at a time with no branches on the data. Pivoting
// is a compare-and-swap of whole rows under a lane mask: after the swaps of column c the
// largest |a_rc| (r ≥ c) sits in row c in every lane, which is partial pivoting (the row
// order it leaves differs from LAPACK's single swap, the inverse does not).
//
// Included by inv_small.cpp (portable P), inv_small_avx2.cpp and inv_small_avx512.cpp.
// Everything is in an anonymous namespace so the instantiations, compiled with different
// ISA flags, can never be merged by the linker.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "lapis/common.hpp"
#include "lapis/inv_small.hpp"
#include "lapis/parallel.hpp"
#include "lapis/simd.hpp"

namespace lapis {
namespace {

// fn(b0, b1) over [0, count) in pieces of `piece` that the threads claim one by one
// (Schedule::Pieces). A helper thread is woken only for at least 8 pieces of its own: the
// caller still waits for every woken thread to check in, which on a loaded host can take
// longer than the whole of a small batch.
template <class F> void for_pieces(index count, index piece, const F& fn) {
  const index pieces = (count + piece - 1) / piece;
  const int helpers = static_cast<int>(std::max<index>(1, std::min<index>(num_threads(), pieces / 8)));
  parallel_for(count, piece, fn, helpers, Schedule::Pieces);
}

// Row-major n×n matrices b0..b0+L-1 → w[i][j] lanes.
template <class P, int N>
inline void load_lanes(const typename P::R* A, typename P::V (&w)[N][2 * N]) {
  using T = typename P::R;
  alignas(64) T buf[N * N][P::L];
  for (int l = 0; l < P::L; ++l)
    for (int k = 0; k < N * N; ++k) buf[k][l] = A[l * N * N + k];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) w[i][j] = P::load(buf[i * N + j]);
}

template <class P, int N>
inline void store_lanes(typename P::R* X, typename P::V (&w)[N][2 * N]) {
  using T = typename P::R;
  alignas(64) T buf[N * N][P::L];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) P::store(buf[i * N + j], w[i][N + j]);
  for (int l = 0; l < P::L; ++l)
    for (int k = 0; k < N * N; ++k) X[l * N * N + k] = buf[k][l];
}

// w holds A in columns [0, N) on entry and A⁻¹ in columns [N, 2N) on exit; info per lane
// (0 ok, k > 0 first zero pivot, -1 non-finite input). Failed lanes are set to NaN.
template <class P, int N>
inline void gauss_jordan_lanes(typename P::V (&w)[N][2 * N], int32_t* info) {
  using T = typename P::R;
  using V = typename P::V;
  const V zero = P::set1(T(0)), one = P::set1(T(1));
  // a·0 is NaN exactly when a is NaN or ±Inf: one sum flags every non-finite lane.
  V nf = zero, mx = zero;  // mx: the largest |a_ij| per lane
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      nf = P::add(nf, P::mul(w[i][j], zero));
      const V a = P::abs(w[i][j]);
      mx = P::max(a, mx);
    }
  const unsigned bad = P::mask_bits(P::ne(nf, nf));
  // beyond LAPACK's BIGNUM / below SMLNUM (solve/equilibrate.hpp's test): redone by the caller
  const T smlnum = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
  const unsigned extreme = P::mask_bits(P::gt(mx, P::set1(T(1) / smlnum))) |
                           (P::mask_bits(P::lt(mx, P::set1(smlnum))) & ~P::mask_bits(P::eq(mx, zero)));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) w[i][N + j] = i == j ? one : zero;
  unsigned zero_piv[N];
  for (int c = 0; c < N; ++c) {
    for (int r = c + 1; r < N; ++r) {
      const typename P::M m = P::gt(P::abs(w[r][c]), P::abs(w[c][c]));
      for (int j = c; j < 2 * N; ++j) {
        const V a = w[c][j], b = w[r][j];
        w[c][j] = P::blend(a, b, m);
        w[r][j] = P::blend(b, a, m);
      }
    }
    const V p = w[c][c];
    zero_piv[c] = P::mask_bits(P::eq(p, zero));
    // Below the smallest normal, 1/p can overflow: those lanes divide instead. The test
    // is rare, and the blend is per lane, so a lane's result never depends on its
    // neighbours (a matrix inverts to the same bits alone or in any batch).
    const V rp = P::div(one, p);
    const typename P::M tiny = P::lt(P::abs(p), P::set1(std::numeric_limits<T>::min()));
    if (P::mask_bits(tiny)) {
      for (int j = c + 1; j < 2 * N; ++j) w[c][j] = P::blend(P::mul(w[c][j], rp), P::div(w[c][j], p), tiny);
    } else {
      for (int j = c + 1; j < 2 * N; ++j) w[c][j] = P::mul(w[c][j], rp);
    }
    for (int r = 0; r < N; ++r) {
      if (r == c) continue;
      const V f = w[r][c];
      for (int j = c + 1; j < 2 * N; ++j) w[r][j] = P::fnma(f, w[c][j], w[r][j]);
    }
  }
  unsigned failed = bad;
  for (int c = 0; c < N; ++c) failed |= zero_piv[c];
  for (int l = 0; l < P::L; ++l) {
    int32_t s = 0;
    if (bad >> l & 1u) s = -1;
    else if (extreme >> l & 1u) s = kInvInfoEquilibrate;
    else
      for (int c = 0; c < N; ++c)
        if (zero_piv[c] >> l & 1u) { s = c + 1; break; }
    info[l] = s;
  }
  if (failed) {
    alignas(64) T nanl[P::L], keep[P::L];
    for (int l = 0; l < P::L; ++l) {
      nanl[l] = std::numeric_limits<T>::quiet_NaN();
      keep[l] = (failed >> l & 1u) ? T(0) : T(1);
    }
    const typename P::M m = P::eq(P::load(keep), zero);
    const V nv = P::load(nanl);
    for (int i = 0; i < N; ++i)
      for (int j = N; j < 2 * N; ++j) w[i][j] = P::blend(w[i][j], nv, m);
  }
}

template <class P, int N>
inline void inv_block(const typename P::R* A, typename P::R* X, int32_t* info) {
  typename P::V w[N][2 * N];
  load_lanes<P, N>(A, w);
  gauss_jordan_lanes<P, N>(w, info);
  store_lanes<P, N>(X, w);
}

// Whole batch: full blocks of L matrices in place, the tail through a padded copy
// (identity padding, so the spare lanes never fail).
template <class P, int N>
void inv_small_lanes_n(index count, const typename P::R* A, typename P::R* X, int32_t* info) {
  using T = typename P::R;
  constexpr index L = P::L, S = N * N;
  const index blocks = count / L;
  if (blocks > 0) {
    for_pieces(blocks, 64, [&](index b0, index b1) {
      for (index b = b0; b < b1; ++b) inv_block<P, N>(A + b * L * S, X + b * L * S, info + b * L);
    });
  }
  const index rest = count - blocks * L;
  if (rest > 0) {
    T a[L * S], x[L * S];
    int32_t inf[L];
    for (index l = 0; l < L; ++l)
      for (index k = 0; k < S; ++k) a[l * S + k] = l < rest ? A[(blocks * L + l) * S + k] : T(k % (N + 1) == 0);
    inv_block<P, N>(a, x, inf);
    std::memcpy(X + blocks * L * S, x, sizeof(T) * rest * S);
    std::memcpy(info + blocks * L, inf, sizeof(int32_t) * rest);
  }
}

template <class P>
void inv_small_lanes(index n, index count, const typename P::R* A, typename P::R* X, int32_t* info) {
  switch (n) {
    case 1: inv_small_lanes_n<P, 1>(count, A, X, info); break;
    case 2: inv_small_lanes_n<P, 2>(count, A, X, info); break;
    case 3: inv_small_lanes_n<P, 3>(count, A, X, info); break;
    default: inv_small_lanes_n<P, 4>(count, A, X, info); break;
  }
}

}  // namespace
}  // namespace lapis
