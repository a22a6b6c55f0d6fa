// The lane kernel behind tiny.hpp, included by tiny_{portable,avx2,avx512}.cpp inside their
// own namespace with LAPIS_TINY_BYTES set to the vector width of that build.
//
// One group = L systems (L = lanes of one vector). Load: the L matrices are read as L×L
// blocks of consecutive elements and transposed in registers, so element (i, j) of all L
// systems lands in one vector. Elimination works on the augmented N×(N+1) array of those
// vectors, fully unrolled for each N. Partial pivoting per lane without branches or
// memory swaps: the pivot row is gathered with masked selects, and the row it came from
// receives the old row k in the same select that feeds its update. The only branch asks
// whether any lane has a pivot below the smallest normal number; that lane then divides
// (the result of every other lane is the same either way).

template <class T, int L> struct TinyVec {
  typedef T V __attribute__((vector_size(sizeof(T) * L)));
  typedef std::conditional_t<sizeof(T) == 8, long long, int> I;
  typedef I M __attribute__((vector_size(sizeof(T) * L)));
  typedef int32_t I32 __attribute__((vector_size(4 * L)));
};

#define LAPIS_TINY_INLINE inline __attribute__((always_inline))
// Two-input shuffle with constant lane indices; IV is the matching integer vector type
// (GCC before 12 has only __builtin_shuffle, with the indices as a vector).
#if !defined(LAPIS_TINY_OLD_SHUFFLE) && (defined(__clang__) || __GNUC__ >= 12)
#define LAPIS_TINY_SHUFFLE(IV, a, b, idx) __builtin_shufflevector(a, b, idx)
#else
#define LAPIS_TINY_SHUFFLE(IV, a, b, idx) __builtin_shuffle(a, b, IV{idx})
#endif

// One butterfly stage of an in-register L×L transpose: swaps the off-diagonal D×D blocks.
template <class V, class IV, int L, int D, int... J>
LAPIS_TINY_INLINE void tiny_stage(V* r, std::integer_sequence<int, J...>) {
  for (int i = 0; i < L; ++i)
    if (!(i & D)) {
      const V a = r[i], b = r[i + D];
      r[i] = LAPIS_TINY_SHUFFLE(IV, a, b, ((J & D) ? L + J - D : J)...);
      r[i + D] = LAPIS_TINY_SHUFFLE(IV, a, b, ((J & D) ? L + J : J + D)...);
    }
}
template <class V, class IV, int L, int D = 1> LAPIS_TINY_INLINE void tiny_transpose(V* r) {
  if constexpr (D < L) {
    tiny_stage<V, IV, L, D>(r, std::make_integer_sequence<int, L>{});
    tiny_transpose<V, IV, L, D * 2>(r);
  }
}
template <class M, int L, int D, int... J> LAPIS_TINY_INLINE M tiny_rot(M m, std::integer_sequence<int, J...>) {
  return LAPIS_TINY_SHUFFLE(M, m, m, ((J + D) % L)...);
}
// Some lane set (log2 L shuffles, then one extract).
template <class M, int L, int D = L / 2> LAPIS_TINY_INLINE bool tiny_any(M m) {
  if constexpr (D >= 1) {
    m |= tiny_rot<M, L, D>(m, std::make_integer_sequence<int, L>{});
    return tiny_any<M, L, D / 2>(m);
  } else {
    return m[0] != 0;
  }
}

inline constexpr int kTinyAhead = 2;  // groups

template <class T, int N, int L>
void tiny_groups_n(index ngroups, const T* __restrict A, const T* __restrict B, T* __restrict X,
                   int32_t* __restrict info) {
  using V = typename TinyVec<T, L>::V;
  using M = typename TinyVec<T, L>::M;
  using I = typename TinyVec<T, L>::I;
  using I32 = typename TinyVec<T, L>::I32;
  constexpr int NN = N * N, C = N + 1;
  const T sfmin = std::numeric_limits<T>::min();
  for (index g = 0; g < ngroups; ++g, A += L * NN, B += L * N, X += L * N, info += L) {
    // The next groups' matrices are one sequential stream, but the hardware prefetcher
    // ramps up too slowly to hide it behind ~1 µs of arithmetic per group: ask for them.
    // (Prefetches past the end of the batch are harmless hints.)
#pragma GCC unroll 64
    for (int q = 0; q < int(L * NN * sizeof(T)); q += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(A + kTinyAhead * L * NN) + q);
    V a[N][C];
    // v·0 is NaN exactly for ±Inf and NaN: the sum flags a non-finite matrix per lane (one
    // FMA per element where contraction is on); mx: the largest |a_ij| per lane
    V fin = V{}, mx = V{};
    {
      V r[L];
      int e0 = 0;
#pragma GCC unroll 32
      for (; e0 + L <= NN; e0 += L) {
        for (int l = 0; l < L; ++l) __builtin_memcpy(&r[l], A + l * NN + e0, sizeof(V));
        tiny_transpose<V, M, L>(r);
        for (int e = 0; e < L; ++e) {
          a[(e0 + e) / N][(e0 + e) % N] = r[e];
          fin += r[e] * T(0);
          const V av = r[e] < T(0) ? -r[e] : r[e];
          mx = av > mx ? av : mx;
        }
      }
      for (; e0 < NN; ++e0) {
        V v;
        for (int l = 0; l < L; ++l) v[l] = A[l * NN + e0];
        a[e0 / N][e0 % N] = v;
        fin += v * T(0);
        const V av = v < T(0) ? -v : v;
        mx = av > mx ? av : mx;
      }
      int i0 = 0;
      for (; i0 + L <= N; i0 += L) {
        for (int l = 0; l < L; ++l) __builtin_memcpy(&r[l], B + l * N + i0, sizeof(V));
        tiny_transpose<V, M, L>(r);
        for (int e = 0; e < L; ++e) a[i0 + e][N] = r[e];
      }
      for (; i0 < N; ++i0) {
        V v;
        for (int l = 0; l < L; ++l) v[l] = B[l * N + i0];
        a[i0][N] = v;
      }
    }
    M st = M{};
    V rinv[N];  // 1/pivot, again needed by the back substitution (divisions are the slowest ops here)
#pragma GCC unroll 16
    for (int k = 0; k < N; ++k) {
      V best = a[k][k] < T(0) ? -a[k][k] : a[k][k];
      M p = M{} + I(k);
#pragma GCC unroll 16
      for (int i = k + 1; i < N; ++i) {
        const V v = a[i][k] < T(0) ? -a[i][k] : a[i][k];
        const M gt = v > best;
        best = gt ? v : best;
        p = gt ? M{} + I(i) : p;
      }
      V pr[C];
#pragma GCC unroll 17
      for (int j = k; j < C; ++j) pr[j] = a[k][j];
#pragma GCC unroll 16
      for (int i = k + 1; i < N; ++i) {
        const M s = p == I(i);
#pragma GCC unroll 17
        for (int j = k; j < C; ++j) pr[j] = s ? a[i][j] : pr[j];
      }
      const V piv = pr[k];
      st = ((piv == T(0)) & (st == I(0))) ? M{} + I(k + 1) : st;
      const M tiny = (piv < T(0) ? -piv : piv) < sfmin;
      const bool any_tiny = tiny_any<M, L>(tiny);
      const V r = T(1) / piv;
      rinv[k] = r;
#pragma GCC unroll 16
      for (int i = k + 1; i < N; ++i) {
        const M s = p == I(i);
        const V lik = s ? a[k][k] : a[i][k];
        V l = lik * r;
        if (any_tiny) l = tiny ? lik / piv : l;
#pragma GCC unroll 17
        for (int j = k + 1; j < C; ++j) a[i][j] = (s ? a[k][j] : a[i][j]) - l * pr[j];
      }
#pragma GCC unroll 17
      for (int j = k; j < C; ++j) a[k][j] = pr[j];
    }
    V x[N];
#pragma GCC unroll 16
    for (int i = N - 1; i >= 0; --i) {
      V s = a[i][N];
#pragma GCC unroll 16
      for (int j = i + 1; j < N; ++j) s -= a[i][j] * x[j];
      const V d = a[i][i];
      const M tiny = (d < T(0) ? -d : d) < sfmin;
      V xi = s * rinv[i];
      if (tiny_any<M, L>(tiny)) xi = tiny ? s / d : xi;
      x[i] = xi;
    }
    {
      V r[L];
      int i0 = 0;
      for (; i0 + L <= N; i0 += L) {
        for (int e = 0; e < L; ++e) r[e] = x[i0 + e];
        tiny_transpose<V, M, L>(r);
        for (int l = 0; l < L; ++l) __builtin_memcpy(X + l * N + i0, &r[l], sizeof(V));
      }
      for (; i0 < N; ++i0)
        for (int l = 0; l < L; ++l) X[l * N + i0] = x[i0][l];
    }
    const M bad = fin != fin;
    // beyond LAPACK's BIGNUM / below SMLNUM (equilibrate.hpp's test): the caller rescales
    const T smlnum = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
    const M extreme = (mx > T(1) / smlnum) | ((mx < smlnum) & (mx > T(0)));
    st = extreme ? M{} + I(kTinyInfoEquilibrate) : st;
    st = bad ? M{} - I(1) : st;
    const I32 st32 = __builtin_convertvector(st, I32);
    __builtin_memcpy(info, &st32, sizeof(I32));
    if (tiny_any<M, L>(st != I(0))) {
      for (int l = 0; l < L; ++l)
        if (st[l] != 0)
          for (int i = 0; i < N; ++i) X[l * N + i] = std::numeric_limits<T>::quiet_NaN();
    }
  }
}

template <class T> void tiny_groups(index n, index ngroups, const T* A, const T* B, T* X, int32_t* info) {
  constexpr int L = LAPIS_TINY_BYTES / sizeof(T);
  switch (n) {
    case 2: tiny_groups_n<T, 2, L>(ngroups, A, B, X, info); break;
    case 3: tiny_groups_n<T, 3, L>(ngroups, A, B, X, info); break;
    case 4: tiny_groups_n<T, 4, L>(ngroups, A, B, X, info); break;
    case 5: tiny_groups_n<T, 5, L>(ngroups, A, B, X, info); break;
    case 6: tiny_groups_n<T, 6, L>(ngroups, A, B, X, info); break;
    case 7: tiny_groups_n<T, 7, L>(ngroups, A, B, X, info); break;
    case 8: tiny_groups_n<T, 8, L>(ngroups, A, B, X, info); break;
    case 9: tiny_groups_n<T, 9, L>(ngroups, A, B, X, info); break;
    case 10: tiny_groups_n<T, 10, L>(ngroups, A, B, X, info); break;
    case 11: tiny_groups_n<T, 11, L>(ngroups, A, B, X, info); break;
    case 12: tiny_groups_n<T, 12, L>(ngroups, A, B, X, info); break;
    default: break;
  }
}

template <class T> TinySolver<T> make() {
  TinySolver<T> s;
  s.lanes = LAPIS_TINY_BYTES / sizeof(T);
  s.groups = &tiny_groups<T>;
  return s;
}
template TinySolver<float> make<float>();
template TinySolver<double> make<double>();

#undef LAPIS_TINY_INLINE
#undef LAPIS_TINY_SHUFFLE
