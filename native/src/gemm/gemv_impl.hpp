// The kernels behind gemv.hpp, included by gemv.cpp (portable) and gemv_{avx2,avx512,neon}.cpp
// inside their own namespace, which first defines Pk<R> (that build's packet, lapis/simd.hpp)
// and kVecRegs (how many vector registers the ISA has).
// Complex values are handled as interleaved (re, im) reals: the products are accumulated
// as Σ a·x and Σ a·swap(x) (rows) or Σ a·re(x) and Σ a·im(x) (cols), and the real and
// imaginary parts formed once at the end, where conjugating M only flips signs.
//
// Aligned starts (docs/gemm.md, "Matrix-vector products"): a typed array from JS is only
// 16-byte aligned, and packet loads that straddle cache lines are slow from L1/L2, so
// where the ISA has masked loads (P::kTail) the packet loops start at a packet boundary of
// M, with the elements before it and the ragged end as masked packets. The result must not
// depend on the address (recomputed and saved states must agree bit for bit), so:
//   cols: every element of t gets the same fused operations in the same order wherever
//     the packets start (masked packets repeat the full packet's operations);
//   rows: each row has ONE accumulator chain, so a row starting `sk` elements past a
//     boundary holds element j in lane (j + sk) mod L; rotating it by sk lanes afterwards
//     gives the lanes, and the sums in them, of the start at a boundary, bit for bit.
//     Masked-off lanes add +0·(−0) = −0, which leaves every value (−0 included) unchanged.

// Elements of p past the previous packet boundary, 0 when the ISA has no masked access or
// p is not a whole number of `unit` elements from a boundary.
template <class P>
int skew(const typename P::R* p, int unit) {
  if constexpr (!P::kTail) {
    (void)p, (void)unit;
    return 0;
  } else {
    using R = typename P::R;
    const std::uintptr_t vb = std::uintptr_t(P::L) * sizeof(R), mis = reinterpret_cast<std::uintptr_t>(p) % vb;
    return mis % (std::uintptr_t(unit) * sizeof(R)) != 0 ? 0 : static_cast<int>(mis / sizeof(R));
  }
}

// Lanes [lo, hi) of the packet at p (only those elements are read), +0 in the others; and
// the store of those lanes. One masked access where the ISA has it, a copy where not.
template <class P>
LAPIS_SIMD_INLINE auto lanes_mask(int lo, int hi) {
  if constexpr (sizeof(typename P::Tail) < 32) {  // AVX-512: a bit mask
    return static_cast<typename P::Tail>(P::tail(hi) & ~P::tail(lo));
  } else {
#if LAPIS_SIMD_X86
    return _mm256_andnot_si256(P::tail(lo), P::tail(hi));  // AVX2: a lane mask
#endif
  }
}
template <class P>
LAPIS_SIMD_INLINE typename P::V load_lanes(const typename P::R* p, int lo, int hi) {
  if constexpr (P::kTail) {
    return P::loadt(p, lanes_mask<P>(lo, hi));
  } else {
    alignas(64) typename P::R b[P::L] = {};
    for (int l = lo; l < hi; ++l) b[l] = p[l];
    return P::load(b);
  }
}
template <class P>
LAPIS_SIMD_INLINE void store_lanes(typename P::R* p, int lo, int hi, typename P::V v) {
  if constexpr (P::kTail) {
    P::storet(p, lanes_mask<P>(lo, hi), v);
  } else {
    alignas(64) typename P::R b[P::L];
    P::store(b, v);
    for (int l = lo; l < hi; ++l) p[l] = b[l];
  }
}
// −0 outside lanes [lo, hi), +0 inside: or-ed into a masked packet of x, so that the
// products of masked-off lanes are +0·(−0) = −0 and c + (−0) = c for every c.
template <class P>
LAPIS_SIMD_INLINE typename P::V negzero_outside(int lo, int hi) {
  using R = typename P::R;
  alignas(64) R b[P::L];
  for (int l = 0; l < P::L; ++l) b[l] = l >= lo && l < hi ? R(0) : R(-0.0);
  return P::load(b);
}

// Lane l of the result is lane (l + s) mod L of v.
template <class P>
LAPIS_SIMD_INLINE typename P::V rotate(typename P::V v, int s) {
  using V = typename P::V;
  using R = typename P::R;
  constexpr int L = P::L;
#if LAPIS_SIMD_X86
  // the x86 packets (the only ones with kTail): one permute
  constexpr bool kF64 = std::is_same_v<R, double>;
  if constexpr (P::kTail && sizeof(V) == 64 && kF64) {
    const __m512i i = _mm512_add_epi64(_mm512_set1_epi64(s), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm512_permutex2var_pd(v, _mm512_and_si512(i, _mm512_set1_epi64(7)), v);  // (permutexvar: GCC 12 warns)
  } else if constexpr (P::kTail && sizeof(V) == 64) {
    const __m512i i = _mm512_add_epi32(_mm512_set1_epi32(s),
                                       _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    return _mm512_permutex2var_ps(v, _mm512_and_si512(i, _mm512_set1_epi32(15)), v);
  } else if constexpr (P::kTail && sizeof(V) == 32) {
    constexpr int w = kF64 ? 2 : 1;  // 32-bit words a lane
    const __m256i i = _mm256_and_si256(_mm256_add_epi32(_mm256_set1_epi32(w * s), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
                                       _mm256_set1_epi32(7));
    if constexpr (kF64) return _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), i));
    else return _mm256_permutevar8x32_ps(v, i);
  } else
#endif
  {
    alignas(64) R b[L], c[L];
    P::store(b, v);
    for (int l = 0; l < L; ++l) c[l] = b[(l + s) % L];
    return P::load(c);
  }
}

// Real rows: RR rows at a time (RR streams of M in flight keep the memory busy), one
// accumulator each; the packets cover the first kf = k − k mod L elements, the rest is a
// scalar tail.
template <class R, int RR>
void rows_real_block(index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  const index kf = k - k % L;
  const R* ar[RR];
  V s[RR];
  simd::unroll<RR>([&](auto r) {
    ar[r] = a + r * lda;
    s[r] = P::zero();
  });
  const int sk = skew<P>(ar[0], 1);  // the other rows share it when lda is a multiple of L
  index p = 0;
  if (sk > 0 && kf > 0) {
    const int hi = static_cast<int>(std::min<index>(L, sk + kf));
    const V xh = P::or_(load_lanes<P>(x - sk, sk, hi), negzero_outside<P>(sk, hi));
    simd::unroll<RR>([&](auto r) { s[r] = P::fma(load_lanes<P>(ar[r] - sk, sk, hi), xh, s[r]); });
    p = L - sk;
  }
  for (; p + L <= kf; p += L) {
    const V xv = P::load(x + p);
    simd::unroll<RR>([&](auto r) { s[r] = P::fma(P::load(ar[r] + p), xv, s[r]); });
  }
  if (p < kf) {
    const int n = static_cast<int>(kf - p);
    const V xv = P::or_(load_lanes<P>(x + p, 0, n), negzero_outside<P>(0, n));
    simd::unroll<RR>([&](auto r) { s[r] = P::fma(load_lanes<P>(ar[r] + p, 0, n), xv, s[r]); });
  }
  simd::unroll<RR>([&](auto r) {
    R sum = P::hsum(sk > 0 ? rotate<P>(s[r], sk) : s[r]);
    for (index q = kf; q < k; ++q) sum += ar[r][q] * x[q];
    t[r] = sum;
  });
}

template <class R>
void rows_real(index m, index k, const R* a, index lda, const R* x, R* t) {
  index i = 0;
  for (; i + 8 <= m; i += 8) rows_real_block<R, 8>(k, a + i * lda, lda, x, t + i);
  if (m - i >= 4) rows_real_block<R, 4>(k, a + i * lda, lda, x, t + i), i += 4;
  if (m - i >= 2) rows_real_block<R, 2>(k, a + i * lda, lda, x, t + i), i += 2;
  if (m - i >= 1) rows_real_block<R, 1>(k, a + i * lda, lda, x, t + i);
}

// Real cols: groups of CB columns are added into a block of RB entries of t (CB streams
// of M in flight, one load and store of t per CB columns). Long blocks keep each stream
// sequential for longer, which is what a matrix from DRAM needs. The packets start at a
// packet boundary of the block's first column (gemv.cpp gives t the same alignment), the
// leading and trailing entries are masked packets of the same operations.
template <class R, int CB = 4, index RB = 4096>
void cols_real(index m, index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  for (index i0 = 0; i0 < m; i0 += RB) {
    const index mb = m - i0 < RB ? m - i0 : RB;
    R* tb = t + i0;
    for (index i = 0; i < mb; ++i) tb[i] = R(0);
    const int sk = skew<P>(a + i0, 1), hi = static_cast<int>(std::min<index>(L, sk + mb));
    const index h = sk > 0 ? hi - sk : 0;  // entries before the first boundary
    index p = 0;
    for (; p + CB <= k; p += CB) {
      const R* c[CB];
      V xv[CB];
      simd::unroll<CB>([&](auto j) {
        c[j] = a + i0 + (p + j) * lda;
        xv[j] = P::set1(x[p + j]);
      });
      // lanes [lo, hi) of the packet at entry i (the loops' operations, masked)
      auto part = [&](index i, int lo, int up) {
        V y = load_lanes<P>(tb + i, lo, up);
        simd::unroll<CB>([&](auto j) { y = P::fma(load_lanes<P>(c[j] + i, lo, up), xv[j], y); });
        store_lanes<P>(tb + i, lo, up, y);
      };
      if (h > 0) part(-sk, sk, hi);
      index i = h;
      for (; i + 2 * L <= mb; i += 2 * L) {
        V y0 = P::load(tb + i), y1 = P::load(tb + i + L);
        simd::unroll<CB>([&](auto j) {
          y0 = P::fma(P::load(c[j] + i), xv[j], y0);
          y1 = P::fma(P::load(c[j] + i + L), xv[j], y1);
        });
        P::store(tb + i, y0);
        P::store(tb + i + L, y1);
      }
      for (; i + L <= mb; i += L) {
        V y = P::load(tb + i);
        simd::unroll<CB>([&](auto j) { y = P::fma(P::load(c[j] + i), xv[j], y); });
        P::store(tb + i, y);
      }
      if (i < mb) part(i, 0, static_cast<int>(mb - i));
    }
    for (; p < k; ++p) {
      const R* c = a + i0 + p * lda;
      const V xv = P::set1(x[p]);
      auto part = [&](index i, int lo, int up) {
        store_lanes<P>(tb + i, lo, up, P::fma(load_lanes<P>(c + i, lo, up), xv, load_lanes<P>(tb + i, lo, up)));
      };
      if (h > 0) part(-sk, sk, hi);
      index i = h;
      for (; i + L <= mb; i += L) P::store(tb + i, P::fma(P::load(c + i), xv, P::load(tb + i)));
      if (i < mb) part(i, 0, static_cast<int>(mb - i));
    }
  }
}

// A loaded packet kept in a register: without this the compiler folds one load into each of
// the two FMAs that use it, and the doubled loads of missing lines halve the rate from L2/L3.
template <class V> LAPIS_SIMD_INLINE V in_reg(V v) {
#if LAPIS_SIMD_VECTOR_EXT && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+v"(v));
#elif LAPIS_SIMD_VECTOR_EXT && defined(__GNUC__) && defined(__aarch64__)
  asm("" : "+w"(v));
#endif
  return v;
}

LAPIS_SIMD_INLINE void prefetch(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// Complex rows on interleaved reals (2k per row), the signs and the swap folded into x so
// that each accumulator's plain sum is a part of the result: s1 = Σ a·x1 (the real part)
// and s2 = Σ a·x2 (the imaginary part), with x1 = conj(x), x2 = swap(x) for M as stored and
// x1 = x, x2 = conj(swap(x)) for conj(M). RR rows at a time, one accumulator pair each
// (see the top of this file), each row's lines prefetched kPrefetch bytes ahead; the
// packets cover the first k2 − k2 mod L reals, the rest is a scalar tail.
template <class R, bool CJ, int RR>
void rows_cplx_block(index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  constexpr index kPrefetch = 512 / static_cast<index>(sizeof(R));
  constexpr bool kLine = L * sizeof(R) >= 64;  // each step starts a new line
  const index k2 = 2 * k, ld2 = 2 * lda, kf = k2 - k2 % L;
  auto xs = [&](const V xv, V& x1, V& x2) {
    if constexpr (CJ) {
      x1 = xv;
      x2 = P::conj(P::swap_pairs(xv));
    } else {
      x1 = P::conj(xv);
      x2 = P::swap_pairs(xv);
    }
  };
  // x's lanes [lo, hi) at xp as x1 and x2, −0 in the other lanes
  auto xs_lanes = [&](const R* xp, int lo, int hi, V& x1, V& x2) {
    xs(load_lanes<P>(xp, lo, hi), x1, x2);
    const V nz = negzero_outside<P>(lo, hi);
    x1 = P::or_(x1, nz);
    x2 = P::or_(x2, nz);
  };
  const R* ar[RR];
  V s1[RR], s2[RR];
  simd::unroll<RR>([&](auto r) {
    ar[r] = a + r * ld2;
    s1[r] = s2[r] = P::zero();
  });
  const int sk = skew<P>(ar[0], 2);  // even: whole (re, im) pairs stay in a packet
  index q = 0;
  if (sk > 0 && kf > 0) {
    const int hi = static_cast<int>(std::min<index>(L, sk + kf));
    V x1, x2;
    xs_lanes(x - sk, sk, hi, x1, x2);
    simd::unroll<RR>([&](auto r) {
      const V av = in_reg(load_lanes<P>(ar[r] - sk, sk, hi));
      s1[r] = P::fma(av, x1, s1[r]);
      s2[r] = P::fma(av, x2, s2[r]);
    });
    q = L - sk;
  }
  for (; q + L <= kf; q += L) {
    V x1, x2;
    xs(P::load(x + q), x1, x2);
    simd::unroll<RR>([&](auto r) {
      const V av = in_reg(P::load(ar[r] + q));
      if (kLine || (q + sk) % (64 / static_cast<index>(sizeof(R))) == 0) prefetch(ar[r] + q + kPrefetch);
      s1[r] = P::fma(av, x1, s1[r]);
      s2[r] = P::fma(av, x2, s2[r]);
    });
  }
  if (q < kf) {
    const int n = static_cast<int>(kf - q);
    V x1, x2;
    xs_lanes(x + q, 0, n, x1, x2);
    simd::unroll<RR>([&](auto r) {
      const V av = in_reg(load_lanes<P>(ar[r] + q, 0, n));
      s1[r] = P::fma(av, x1, s1[r]);
      s2[r] = P::fma(av, x2, s2[r]);
    });
  }
  simd::unroll<RR>([&](auto r) {
    R re = P::hsum(sk > 0 ? rotate<P>(s1[r], sk) : s1[r]), im = P::hsum(sk > 0 ? rotate<P>(s2[r], sk) : s2[r]);
    for (index j = kf; j < k2; j += 2) {
      const R a0 = ar[r][j], a1 = ar[r][j + 1], x0 = x[j], x1 = x[j + 1];
      if constexpr (CJ) re += a0 * x0 + a1 * x1, im += a0 * x1 - a1 * x0;
      else re += a0 * x0 - a1 * x1, im += a0 * x1 + a1 * x0;
    }
    t[2 * r] = re;
    t[2 * r + 1] = im;
  });
}

template <class R, bool CJ>
void rows_cplx_cj(index m, index k, const R* a, index lda, const R* x, R* t) {
  index i = 0;
  for (; i + 4 <= m; i += 4) rows_cplx_block<R, CJ, 4>(k, a + 2 * i * lda, lda, x, t + 2 * i);
  for (; i < m; ++i) rows_cplx_block<R, CJ, 1>(k, a + 2 * i * lda, lda, x, t + 2 * i);
}

template <class R>
void rows_cplx(index m, index k, const R* a, index lda, const R* x, R* t, bool conj_m) {
  if (conj_m) rows_cplx_cj<R, true>(m, k, a, lda, x, t);
  else rows_cplx_cj<R, false>(m, k, a, lda, x, t);
}

// Complex cols: tA = Σ a·re(x) = (ar·xr, ai·xr), tB = Σ a·im(x) = (ar·xi, ai·xi) over a
// block of RB rows, CB columns per pass (their 2·CB broadcasts stay in registers), QV
// packets of t per step, and the columns' terms split over two partial sums so no chain is
// longer than CB/2 FMAs. 32 vector registers take CB = 8, QV = 2; 16 take CB = 6, QV = 1.
// tA and tB take the alignment of the block's first column; its leading and trailing reals
// are masked packets of the same operations.
template <class R, int CB, int QV, index RB = 1024>
void cols_cplx(index m, index k, const R* a, index lda, const R* x, R* t, bool conj_m) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  const R sa = conj_m ? R(-1) : R(1);
  alignas(64) R bufA[2 * RB + L], bufB[2 * RB + L];
  for (index i0 = 0; i0 < m; i0 += RB) {
    const index mb = m - i0 < RB ? m - i0 : RB, n2 = 2 * mb;
    const int sk = skew<P>(a + 2 * i0, 2), hi = static_cast<int>(std::min<index>(L, sk + n2));
    const index h = sk > 0 ? hi - sk : 0;  // reals before the first boundary
    R *tA = bufA + sk, *tB = bufB + sk;
    for (index q = 0; q < n2; ++q) tA[q] = tB[q] = R(0);
    index p = 0;
    for (; p + CB <= k; p += CB) {
      const R* c[CB];
      V xr[CB], xi[CB];
      simd::unroll<CB>([&](auto j) {
        c[j] = a + 2 * (i0 + (p + j) * lda);
        xr[j] = P::set1(x[2 * (p + j)]);
        xi[j] = P::set1(x[2 * (p + j) + 1]);
      });
      // U packets of t from q, lanes [lo, up) of each (all of them when !Masked)
      auto step = [&](auto U, auto Masked, index q, int lo, int up) {
        constexpr int NU = decltype(U)::value;
        constexpr bool kM = decltype(Masked)::value;
        auto ld = [&](const R* ptr) { if constexpr (kM) return load_lanes<P>(ptr, lo, up); else return P::load(ptr); };
        auto st = [&](R* ptr, V v) { if constexpr (kM) store_lanes<P>(ptr, lo, up, v); else P::store(ptr, v); };
        V ya[NU], yb[NU], za[NU], zb[NU];
        simd::unroll<NU>([&](auto u) {
          ya[u] = ld(tA + q + u * L);
          yb[u] = ld(tB + q + u * L);
          za[u] = zb[u] = P::zero();
        });
        simd::unroll<CB>([&](auto j) {
          simd::unroll<NU>([&](auto u) {
            const V av = in_reg(ld(c[j] + q + u * L));
            if constexpr (j % 2 == 0) {
              ya[u] = P::fma(av, xr[j], ya[u]);
              yb[u] = P::fma(av, xi[j], yb[u]);
            } else {
              za[u] = P::fma(av, xr[j], za[u]);
              zb[u] = P::fma(av, xi[j], zb[u]);
            }
          });
        });
        simd::unroll<NU>([&](auto u) {
          st(tA + q + u * L, P::add(ya[u], za[u]));
          st(tB + q + u * L, P::add(yb[u], zb[u]));
        });
      };
      using One = std::integral_constant<int, 1>;
      if (h > 0) step(One{}, std::true_type{}, -sk, sk, hi);
      index q = h;
      for (; q + QV * L <= n2; q += QV * L) step(std::integral_constant<int, QV>{}, std::false_type{}, q, 0, L);
      for (; q + L <= n2; q += L) step(One{}, std::false_type{}, q, 0, L);
      if (q < n2) step(One{}, std::true_type{}, q, 0, static_cast<int>(n2 - q));
    }
    for (; p < k; ++p) {
      const R* c = a + 2 * (i0 + p * lda);
      const R xr = x[2 * p], xi = x[2 * p + 1];
      for (index q = 0; q < n2; ++q) tA[q] += c[q] * xr, tB[q] += c[q] * xi;
    }
    R* out = t + 2 * i0;
    for (index i = 0; i < mb; ++i) {
      out[2 * i] = tA[2 * i] - sa * tB[2 * i + 1];
      out[2 * i + 1] = tB[2 * i] + sa * tA[2 * i + 1];
    }
  }
}

template <class T>
void rows_fn(index m, index k, const T* a, index lda, const T* x, T* t, bool conj_m) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    rows_cplx<R>(m, k, reinterpret_cast<const R*>(a), lda, reinterpret_cast<const R*>(x), reinterpret_cast<R*>(t),
                 conj_m);
  } else {
    (void)conj_m;
    rows_real<T>(m, k, a, lda, x, t);
  }
}

template <class T>
void cols_fn(index m, index k, const T* a, index lda, const T* x, T* t, bool conj_m) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    cols_cplx<R, kVecRegs >= 32 ? 8 : 6, kVecRegs >= 32 ? 2 : 1>(m, k, reinterpret_cast<const R*>(a), lda, reinterpret_cast<const R*>(x), reinterpret_cast<R*>(t),
                 conj_m);
  } else {
    (void)conj_m;
    cols_real<T>(m, k, a, lda, x, t);
  }
}

template <class T> GemvKernels<T> make() {
  GemvKernels<T> g;
  g.rows = &rows_fn<T>;
  g.cols = &cols_fn<T>;
  return g;
}
template GemvKernels<float> make<float>();
template GemvKernels<double> make<double>();
template GemvKernels<std::complex<float>> make<std::complex<float>>();
template GemvKernels<std::complex<double>> make<std::complex<double>>();
