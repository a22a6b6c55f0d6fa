// The lane kernel behind tiny.hpp, included by tiny_{portable,avx2,avx512}.cpp inside their
// own namespace, which first defines Pk<T>: that build's simd.hpp packet.
//
// One group = L systems (L = lanes of one vector). Load: the L matrices are read as L×L
// blocks of consecutive elements and transposed in registers, so element (i, j) of all L
// systems lands in one vector. Elimination works on the augmented N×(N+1) array of those
// vectors, fully unrolled for each N. Partial pivoting per lane without branches or
// memory swaps: the pivot row is gathered with masked selects, and the row it came from
// receives the old row k in the same select that feeds its update. The only branch asks
// whether any lane has a pivot below the smallest normal number; that lane then divides
// (the result of every other lane is the same either way).

inline constexpr int kTinyAhead = 2;  // groups

template <class T, int N>
void tiny_groups_n(index ngroups, const T* __restrict A, const T* __restrict B, T* __restrict X,
                   int32_t* __restrict info) {
  using P = Pk<T>;
  using V = typename P::V;
  using M = typename P::M;
  constexpr int L = P::L;
  constexpr int NN = N * N, C = N + 1;
  const T sfmin = std::numeric_limits<T>::min();
  const V zero = P::zero();
  for (index g = 0; g < ngroups; ++g, A += L * NN, B += L * N, X += L * N, info += L) {
    // The next groups' matrices are one sequential stream, but the hardware prefetcher
    // ramps up too slowly to hide it behind ~1 µs of arithmetic per group: ask for them.
    // (Prefetches past the end of the batch are harmless hints.)
#pragma GCC unroll 64
    for (int q = 0; q < int(L * NN * sizeof(T)); q += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(A + kTinyAhead * L * NN) + q);
    V a[N][C];
    // v·0 is NaN exactly for ±Inf and NaN: the sum flags a non-finite matrix per lane (one
    // FMA per element on the ISA packets); mx: the largest |a_ij| per lane
    V fin = zero, mx = zero;
    alignas(64) T lane[L];
    {
      V r[L];
      auto scan = [&](V v) {
        fin = P::fma(v, zero, fin);
        const V av = P::abs(v);
        mx = P::max(av, mx);  // (max, not compare + blend: this chain runs through every element)
      };
      int e0 = 0;
#pragma GCC unroll 32
      for (; e0 + L <= NN; e0 += L) {
        for (int l = 0; l < L; ++l) r[l] = P::load(A + l * NN + e0);
        P::transpose(r);
        for (int e = 0; e < L; ++e) {
          a[(e0 + e) / N][(e0 + e) % N] = r[e];
          scan(r[e]);
        }
      }
      for (; e0 < NN; ++e0) {
        for (int l = 0; l < L; ++l) lane[l] = A[l * NN + e0];
        const V v = P::load(lane);
        a[e0 / N][e0 % N] = v;
        scan(v);
      }
      int i0 = 0;
      for (; i0 + L <= N; i0 += L) {
        for (int l = 0; l < L; ++l) r[l] = P::load(B + l * N + i0);
        P::transpose(r);
        for (int e = 0; e < L; ++e) a[i0 + e][N] = r[e];
      }
      for (; i0 < N; ++i0) {
        for (int l = 0; l < L; ++l) lane[l] = B[l * N + i0];
        a[i0][N] = P::load(lane);
      }
    }
    // info and pivot rows as floating-point lanes (small integers, exact), so every select
    // is one blend on the packet's own masks
    V st = zero;
    V rinv[N];  // 1/pivot, again needed by the back substitution (divisions are the slowest ops here)
#pragma GCC unroll 16
    for (int k = 0; k < N; ++k) {
      V best = P::abs(a[k][k]);
      V p = P::set1(T(k));
#pragma GCC unroll 16
      for (int i = k + 1; i < N; ++i) {
        const V v = P::abs(a[i][k]);
        const M gt = P::gt(v, best);
        best = P::max(v, best);
        p = P::blend(p, P::set1(T(i)), gt);
      }
      V pr[C];
#pragma GCC unroll 17
      for (int j = k; j < C; ++j) pr[j] = a[k][j];
#pragma GCC unroll 16
      for (int i = k + 1; i < N; ++i) {
        const M s = P::eq(p, P::set1(T(i)));
#pragma GCC unroll 17
        for (int j = k; j < C; ++j) pr[j] = P::blend(pr[j], a[i][j], s);
      }
      const V piv = pr[k];
      st = P::blend(st, P::set1(T(k + 1)), P::mand(P::eq(piv, zero), P::eq(st, zero)));
      const M tiny = P::lt(P::abs(piv), P::set1(sfmin));
      const bool any_tiny = P::any(tiny);
      const V r = P::div(P::set1(T(1)), piv);
      rinv[k] = r;
#pragma GCC unroll 16
      for (int i = k + 1; i < N; ++i) {
        const M s = P::eq(p, P::set1(T(i)));
        const V lik = P::blend(a[i][k], a[k][k], s);
        V l = P::mul(lik, r);
        if (any_tiny) l = P::blend(l, P::div(lik, piv), tiny);
#pragma GCC unroll 17
        for (int j = k + 1; j < C; ++j) a[i][j] = P::fnma(l, pr[j], P::blend(a[i][j], a[k][j], s));
      }
#pragma GCC unroll 17
      for (int j = k; j < C; ++j) a[k][j] = pr[j];
    }
    V x[N];
#pragma GCC unroll 16
    for (int i = N - 1; i >= 0; --i) {
      V s = a[i][N];
#pragma GCC unroll 16
      for (int j = i + 1; j < N; ++j) s = P::fnma(a[i][j], x[j], s);
      const V d = a[i][i];
      const M tiny = P::lt(P::abs(d), P::set1(sfmin));
      V xi = P::mul(s, rinv[i]);
      if (P::any(tiny)) xi = P::blend(xi, P::div(s, d), tiny);
      x[i] = xi;
    }
    {
      V r[L];
      int i0 = 0;
      for (; i0 + L <= N; i0 += L) {
        for (int e = 0; e < L; ++e) r[e] = x[i0 + e];
        P::transpose(r);
        for (int l = 0; l < L; ++l) P::store(X + l * N + i0, r[l]);
      }
      for (; i0 < N; ++i0) {
        P::store(lane, x[i0]);
        for (int l = 0; l < L; ++l) X[l * N + i0] = lane[l];
      }
    }
    const M bad = P::ne(fin, fin);
    // beyond LAPACK's BIGNUM / below SMLNUM (equilibrate.hpp's test): the caller rescales
    const T smlnum = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
    const M extreme = P::mor(P::gt(mx, P::set1(T(1) / smlnum)), P::mand(P::lt(mx, P::set1(smlnum)), P::gt(mx, zero)));
    st = P::blend(st, P::set1(T(kTinyInfoEquilibrate)), extreme);
    st = P::blend(st, P::set1(T(-1)), bad);
    P::to_i32(st, info);
    if (P::any(P::ne(st, zero))) {
      for (int l = 0; l < L; ++l)
        if (info[l] != 0)
          for (int i = 0; i < N; ++i) X[l * N + i] = std::numeric_limits<T>::quiet_NaN();
    }
  }
}

template <class T> void tiny_groups(index n, index ngroups, const T* A, const T* B, T* X, int32_t* info) {
    switch (n) {
    case 2: tiny_groups_n<T, 2>(ngroups, A, B, X, info); break;
    case 3: tiny_groups_n<T, 3>(ngroups, A, B, X, info); break;
    case 4: tiny_groups_n<T, 4>(ngroups, A, B, X, info); break;
    case 5: tiny_groups_n<T, 5>(ngroups, A, B, X, info); break;
    case 6: tiny_groups_n<T, 6>(ngroups, A, B, X, info); break;
    case 7: tiny_groups_n<T, 7>(ngroups, A, B, X, info); break;
    case 8: tiny_groups_n<T, 8>(ngroups, A, B, X, info); break;
    case 9: tiny_groups_n<T, 9>(ngroups, A, B, X, info); break;
    case 10: tiny_groups_n<T, 10>(ngroups, A, B, X, info); break;
    case 11: tiny_groups_n<T, 11>(ngroups, A, B, X, info); break;
    case 12: tiny_groups_n<T, 12>(ngroups, A, B, X, info); break;
    default: break;
  }
}

template <class T> TinySolver<T> make() {
  TinySolver<T> s;
  s.lanes = Pk<T>::L;
  s.groups = &tiny_groups<T>;
  return s;
}
template TinySolver<float> make<float>();
template TinySolver<double> make<double>();

