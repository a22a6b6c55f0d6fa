// The kernel behind trsm_small.hpp, included by trsm_small_{portable,avx2,avx512}.cpp
// inside their own namespace, which first defines Pk<T> (that build's simd.hpp packet),
// kTrsmNV (vectors per row of a register tile) and kTrsmRows (rows per tile).
//
// Left-looking, by tiles of R rows × NV vectors of right-hand sides: the tile's rows of B
// are loaded into R·NV accumulators, every finished row c above the tile is subtracted
// (acc[r] −= L(r, c)·X[c]: one row of X loaded, one broadcast per tile row), then the
// tile's own triangle is solved in the registers and its rows stored. X stays in L1 while
// the tile rows sweep down the system, L is read once per strip of right-hand sides,
// only its strict lower triangle (and the diagonal when not unit).

#define LAPIS_TRSM_INLINE inline __attribute__((always_inline))

// Rows i0 .. i0+RR−1, NV vectors of columns.
template <class T, bool Unit, int RR, int NV>
__attribute__((noinline)) void trsm_tile(index i0, const T* __restrict A, index ars, index acs, const T* B, index brs,
                                         T* X, index xrs) {
  using P = Pk<T>;
  using V = typename P::V;
  constexpr int L = P::L;
  const T* arow[RR];
  V acc[RR][NV];
#pragma GCC unroll 16
  for (int r = 0; r < RR; ++r) {
    arow[r] = A + (i0 + r) * ars;
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[r][v] = P::load(B + (i0 + r) * brs + v * L);
  }
  const T* xr = X;
  for (index c = 0; c < i0; ++c, xr += xrs) {
    V x[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) x[v] = P::load(xr + v * L);
    const index cc = c * acs;
#pragma GCC unroll 16
    for (int r = 0; r < RR; ++r) {
      const V a = P::set1(arow[r][cc]);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = P::fnma(x[v], a, acc[r][v]);
    }
  }
  const T sfmin = std::numeric_limits<T>::min();
#pragma GCC unroll 16
  for (int q = 0; q < RR; ++q) {
    const index cq = (i0 + q) * acs;
    if constexpr (!Unit) {
      // Reciprocal unless the pivot is subnormal (its reciprocal overflows), as trsm does.
      const T d = arow[q][cq];
      if (std::fabs(d) >= sfmin) {
        const V s = P::set1(T(1) / d);
#pragma GCC unroll 8
        for (int v = 0; v < NV; ++v) acc[q][v] = P::mul(acc[q][v], s);
      } else {
        const V dv = P::set1(d);
#pragma GCC unroll 8
        for (int v = 0; v < NV; ++v) acc[q][v] = P::div(acc[q][v], dv);
      }
    }
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) P::store(X + (i0 + q) * xrs + v * L, acc[q][v]);
#pragma GCC unroll 16
    for (int r = q + 1; r < RR; ++r) {
      const V a = P::set1(arow[r][cq]);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[r][v] = P::fnma(acc[q][v], a, acc[r][v]);
    }
  }
}

template <class T, bool Unit, int NV>
using TrsmTileFn = void (*)(index, const T*, index, index, const T*, index, T*, index);

template <class T, bool Unit, int NV, int... RR>
LAPIS_TRSM_INLINE void trsm_last_tile(int rr, index i0, const T* A, index ars, index acs, const T* B, index brs, T* X,
                                      index xrs, std::integer_sequence<int, RR...>) {
  static constexpr TrsmTileFn<T, Unit, NV> tab[] = {&trsm_tile<T, Unit, RR + 1, NV>...};
  tab[rr - 1](i0, A, ars, acs, B, brs, X, xrs);
}

// Prefetches of the next system's B, then A, a few lines before each tile: spread over the
// arithmetic, they overlap with it (all at once, they stall it as much as the misses did;
// the alternatives that lost are in docs/decisions.md).
struct TrsmPrefetch {
  const char* p[2];
  index left[2];
  index per_tile;
  LAPIS_TRSM_INLINE void step() {
    index m = per_tile;
    for (int s = 0; s < 2 && m > 0; ++s) {
      for (; left[s] > 0 && m > 0; --m, left[s] -= 64, p[s] += 64) __builtin_prefetch(p[s], 0, 3);
    }
  }
};

// All n rows for NV vectors of columns starting at B / X.
template <class T, bool Unit, int NV>
void trsm_strip(index n, const T* A, index ars, index acs, const T* B, index brs, T* X, index xrs,
                TrsmPrefetch& pf) {
  constexpr int R = kTrsmRows;
  index i0 = 0;
  for (; i0 + R <= n; i0 += R) {
    pf.step();
    trsm_tile<T, Unit, R, NV>(i0, A, ars, acs, B, brs, X, xrs);
  }
  if (i0 < n)
    trsm_last_tile<T, Unit, NV>(static_cast<int>(n - i0), i0, A, ars, acs, B, brs, X, xrs,
                                std::make_integer_sequence<int, R - 1>{});
}

template <class T, bool Unit, int... NV>
LAPIS_TRSM_INLINE void trsm_narrow_strip(int nv, index n, const T* A, index ars, index acs, const T* B, index brs,
                                         T* X, index xrs, TrsmPrefetch& pf, std::integer_sequence<int, NV...>) {
  using Fn = void (*)(index, const T*, index, index, const T*, index, T*, index, TrsmPrefetch&);
  static constexpr Fn tab[] = {&trsm_strip<T, Unit, NV + 1>...};
  tab[nv - 1](n, A, ars, acs, B, brs, X, xrs, pf);
}

template <class T, bool Unit>
void trsm_small_solve_u(index n, index k, const T* A, index ars, index acs, const T* B, index brs, T* X, index xrs,
                        const T* nextA, const T* nextB) {
  constexpr int L = Pk<T>::L, NV = kTrsmNV, W = NV * L;
  const index tiles = std::max<index>(1, (k + W - 1) / W * (n / kTrsmRows));
  const index bytes[2] = {nextA ? index(sizeof(T)) * n * n : 0, nextB ? index(sizeof(T)) * n * k : 0};
  TrsmPrefetch pf{{reinterpret_cast<const char*>(nextB), reinterpret_cast<const char*>(nextA)},
                  {bytes[1], bytes[0]},
                  (bytes[0] + bytes[1] + 64 * tiles - 1) / (64 * tiles)};
  index j = 0;
  for (; j + W <= k; j += W) trsm_strip<T, Unit, NV>(n, A, ars, acs, B + j, brs, X + j, xrs, pf);
  if constexpr (NV > 1) {
    if (const int nv = static_cast<int>((k - j) / L)) {
      trsm_narrow_strip<T, Unit>(nv, n, A, ars, acs, B + j, brs, X + j, xrs, pf,
                                 std::make_integer_sequence<int, NV - 1>{});
      j += nv * L;
    }
  }
  if (j < k) {
    // A ragged rest narrower than one vector: solved in a zero-padded copy (a vector load
    // of the last row would read past the end of B).
    const index m = k - j;
    alignas(64) T buf[kTrsmSmallMax * L];
    for (index i = 0; i < n; ++i) {
      const T* b = B + i * brs + j;
      for (index c = 0; c < L; ++c) buf[i * L + c] = c < m ? b[c] : T(0);
    }
    trsm_strip<T, Unit, 1>(n, A, ars, acs, buf, L, buf, L, pf);
    for (index i = 0; i < n; ++i)
      for (index c = 0; c < m; ++c) X[i * xrs + j + c] = buf[i * L + c];
  }
}

template <class T>
void trsm_small_solve(bool unit, index n, index k, const T* A, index ars, index acs, const T* B, index brs, T* X,
                      index xrs, const T* nextA, const T* nextB) {
  if (unit) trsm_small_solve_u<T, true>(n, k, A, ars, acs, B, brs, X, xrs, nextA, nextB);
  else trsm_small_solve_u<T, false>(n, k, A, ars, acs, B, brs, X, xrs, nextA, nextB);
}

template <class T> TrsmSmall<T> make() {
  TrsmSmall<T> s;
  s.solve = &trsm_small_solve<T>;
  return s;
}
template TrsmSmall<float> make<float>();
template TrsmSmall<double> make<double>();
