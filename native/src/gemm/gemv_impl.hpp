// The kernels behind gemv.hpp, included by gemv.cpp (portable) and gemv_{avx2,avx512,neon}.cpp
// inside their own namespace, which first defines Pk<R> (that build's packet, lapis/simd.hpp)
// and kVecRegs (how many vector registers the ISA has).
// Complex values are handled as interleaved (re, im) reals: the products are accumulated
// as Σ a·x and Σ a·swap(x) (rows) or Σ a·re(x) and Σ a·im(x) (cols), and the real and
// imaginary parts formed once at the end, where conjugating M only flips signs.

// Elements from p to the next packet boundary (L·sizeof(R) bytes), 0 when p is there or
// is not aligned to whole units of `unit` elements. The kernels start their packet loops
// there: a typed array from JS is only 16-byte aligned, and loads that straddle cache
// lines cost 15-35% of the rate (docs/gemm.md, "Matrix-vector products").
template <class R, int L>
index lead(const R* p, index unit) {
  const uintptr_t vb = uintptr_t(L) * sizeof(R), mis = reinterpret_cast<uintptr_t>(p) % vb;
  if (mis == 0 || mis % (uintptr_t(unit) * sizeof(R)) != 0) return 0;
  return static_cast<index>((vb - mis) / sizeof(R));
}

// Lanes [0, n) of p, n < L, the others 0 (one masked load where the ISA has one), and
// their store.
template <class P, class R>
LAPIS_SIMD_INLINE typename P::V load_first(const R* p, index n) {
  if constexpr (P::kTail) {
    return P::loadt(p, P::tail(static_cast<int>(n)));
  } else {
    alignas(64) R b[P::L] = {};
    for (index l = 0; l < n; ++l) b[l] = p[l];
    return P::load(b);
  }
}
template <class P, class R>
LAPIS_SIMD_INLINE void store_first(R* p, index n, typename P::V v) {
  if constexpr (P::kTail) {
    P::storet(p, P::tail(static_cast<int>(n)), v);
  } else {
    alignas(64) R b[P::L];
    P::store(b, v);
    for (index l = 0; l < n; ++l) p[l] = b[l];
  }
}

// Real rows: RR rows at a time, NV vectors of x per step (RR·NV independent accumulators;
// RR streams of M in flight keep the memory busy). The first row's leading elements up to
// a packet boundary are one partial packet (the other rows share its alignment when lda does).
template <class R, int RR = 4, int NV = 2>
void rows_real(index m, index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  index i = 0;
  for (; i + RR <= m; i += RR) {
    const R* ar[RR];
    V s[RR][NV];
    simd::unroll<RR>([&](auto r) {
      ar[r] = a + (i + r) * lda;
      simd::unroll<NV>([&](auto v) { s[r][v] = P::zero(); });
    });
    const index h = std::min(lead<R, L>(ar[0], 1), k);
    if (h > 0) {
      const V xh = load_first<P>(x, h);
      simd::unroll<RR>([&](auto r) { s[r][0] = P::fma(load_first<P>(ar[r], h), xh, s[r][0]); });
    }
    index p = h;
    for (; p + NV * L <= k; p += NV * L) {
      V xv[NV];
      simd::unroll<NV>([&](auto v) { xv[v] = P::load(x + p + v * L); });
      simd::unroll<RR>([&](auto r) {
        simd::unroll<NV>([&](auto v) { s[r][v] = P::fma(P::load(ar[r] + p + v * L), xv[v], s[r][v]); });
      });
    }
    for (; p + L <= k; p += L) {
      const V x0 = P::load(x + p);
      simd::unroll<RR>([&](auto r) { s[r][0] = P::fma(P::load(ar[r] + p), x0, s[r][0]); });
    }
    if (p < k) {
      const V x0 = load_first<P>(x + p, k - p);
      simd::unroll<RR>([&](auto r) { s[r][0] = P::fma(load_first<P>(ar[r] + p, k - p), x0, s[r][0]); });
    }
    simd::unroll<RR>([&](auto r) {
      V acc = s[r][0];
      simd::unroll<NV - 1>([&](auto v) { acc = P::add(acc, s[r][v + 1]); });
      t[i + r] = P::hsum(acc);
    });
  }
  for (; i < m; ++i) {
    const R* ar = a + i * lda;
    V s[4];
    simd::unroll<4>([&](auto v) { s[v] = P::zero(); });
    const index h = std::min(lead<R, L>(ar, 1), k);
    if (h > 0) s[0] = P::mul(load_first<P>(ar, h), load_first<P>(x, h));
    index p = h;
    for (; p + 4 * L <= k; p += 4 * L)
      simd::unroll<4>([&](auto v) { s[v] = P::fma(P::load(ar + p + v * L), P::load(x + p + v * L), s[v]); });
    for (; p + L <= k; p += L) s[0] = P::fma(P::load(ar + p), P::load(x + p), s[0]);
    if (p < k) s[1] = P::fma(load_first<P>(ar + p, k - p), load_first<P>(x + p, k - p), s[1]);
    t[i] = P::hsum(P::add(P::add(s[0], s[1]), P::add(s[2], s[3])));
  }
}

// Real cols: groups of CB columns are added into a block of RB entries of t (CB streams
// of M in flight, one load and store of t per CB columns). Long blocks keep each stream
// sequential for longer, which is what a matrix from DRAM needs. The packet loops start
// where the block's first column reaches a packet boundary (lead); gemv.cpp places t so
// that it gets there at the same row.
template <class R, int CB = 4, index RB = 4096>
void cols_real(index m, index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  for (index i0 = 0; i0 < m; i0 += RB) {
    const index mb = m - i0 < RB ? m - i0 : RB;
    const index h = std::min(lead<R, L>(a + i0, 1), mb);
    R* tb = t + i0;
    for (index i = 0; i < mb; ++i) tb[i] = R(0);
    index p = 0;
    for (; p + CB <= k; p += CB) {
      const R* c[CB];
      V xv[CB];
      simd::unroll<CB>([&](auto j) {
        c[j] = a + i0 + (p + j) * lda;
        xv[j] = P::set1(x[p + j]);
      });
      if (h > 0) {
        V y = load_first<P>(tb, h);
        simd::unroll<CB>([&](auto j) { y = P::fma(load_first<P>(c[j], h), xv[j], y); });
        store_first<P>(tb, h, y);
      }
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
      if (i < mb) {
        V y = load_first<P>(tb + i, mb - i);
        simd::unroll<CB>([&](auto j) { y = P::fma(load_first<P>(c[j] + i, mb - i), xv[j], y); });
        store_first<P>(tb + i, mb - i, y);
      }
    }
    for (; p < k; ++p) {
      const R* c = a + i0 + p * lda;
      const V xv = P::set1(x[p]);
      if (h > 0) store_first<P>(tb, h, P::fma(load_first<P>(c, h), xv, load_first<P>(tb, h)));
      index i = h;
      for (; i + L <= mb; i += L) P::store(tb + i, P::fma(P::load(c + i), xv, P::load(tb + i)));
      if (i < mb)
        store_first<P>(tb + i, mb - i, P::fma(load_first<P>(c + i, mb - i), xv, load_first<P>(tb + i, mb - i)));
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
// x1 = x, x2 = conj(swap(x)) for conj(M). RR rows at a time, each row's lines prefetched
// kPrefetch bytes ahead.
template <class R, bool CJ, int RR = 4>
void rows_cplx_cj(index m, index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  constexpr index kPrefetch = 512 / static_cast<index>(sizeof(R));
  constexpr bool kLine = L * sizeof(R) >= 64;  // each step starts a new line
  const index k2 = 2 * k, ld2 = 2 * lda;
  auto xs = [&](const V xv, V& x1, V& x2) {
    if constexpr (CJ) {
      x1 = xv;
      x2 = P::conj(P::swap_pairs(xv));
    } else {
      x1 = P::conj(xv);
      x2 = P::swap_pairs(xv);
    }
  };
  auto finish = [&](V s1, V s2, R* out) {
    out[0] = P::hsum(s1);
    out[1] = P::hsum(s2);
  };
  index i = 0;
  for (; i + RR <= m; i += RR) {
    const R* ar[RR];
    V s1[RR], s2[RR];
    simd::unroll<RR>([&](auto r) {
      ar[r] = a + (i + r) * ld2;
      s1[r] = s2[r] = P::zero();
    });
    // the leading elements up to a packet boundary of the first row: one partial packet (lead)
    const index h = std::min(lead<R, L>(ar[0], 2), k2);
    if (h > 0) {
      V x1, x2;
      xs(load_first<P>(x, h), x1, x2);
      simd::unroll<RR>([&](auto r) {
        const V av = in_reg(load_first<P>(ar[r], h));
        s1[r] = P::fma(av, x1, s1[r]);
        s2[r] = P::fma(av, x2, s2[r]);
      });
    }
    index q = h;
    for (; q + L <= k2; q += L) {
      V x1, x2;
      xs(P::load(x + q), x1, x2);
      simd::unroll<RR>([&](auto r) {
        const V av = in_reg(P::load(ar[r] + q));
        if (kLine || q % (64 / static_cast<index>(sizeof(R))) == 0) prefetch(ar[r] + q + kPrefetch);
        s1[r] = P::fma(av, x1, s1[r]);
        s2[r] = P::fma(av, x2, s2[r]);
      });
    }
    if (q < k2) {
      V x1, x2;
      xs(load_first<P>(x + q, k2 - q), x1, x2);
      simd::unroll<RR>([&](auto r) {
        const V av = in_reg(load_first<P>(ar[r] + q, k2 - q));
        s1[r] = P::fma(av, x1, s1[r]);
        s2[r] = P::fma(av, x2, s2[r]);
      });
    }
    simd::unroll<RR>([&](auto r) { finish(s1[r], s2[r], t + 2 * (i + r)); });
  }
  for (; i < m; ++i) {
    const R* ar = a + i * ld2;
    V s1 = P::zero(), s2 = P::zero();
    const index h = std::min(lead<R, L>(ar, 2), k2);
    if (h > 0) {
      V x1, x2;
      xs(load_first<P>(x, h), x1, x2);
      const V av = in_reg(load_first<P>(ar, h));
      s1 = P::mul(av, x1);
      s2 = P::mul(av, x2);
    }
    index q = h;
    for (; q + L <= k2; q += L) {
      V x1, x2;
      xs(P::load(x + q), x1, x2);
      const V av = in_reg(P::load(ar + q));
      s1 = P::fma(av, x1, s1);
      s2 = P::fma(av, x2, s2);
    }
    if (q < k2) {
      V x1, x2;
      xs(load_first<P>(x + q, k2 - q), x1, x2);
      const V av = in_reg(load_first<P>(ar + q, k2 - q));
      s1 = P::fma(av, x1, s1);
      s2 = P::fma(av, x2, s2);
    }
    finish(s1, s2, t + 2 * i);
  }
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
template <class R, int CB, int QV, index RB = 1024>
void cols_cplx(index m, index k, const R* a, index lda, const R* x, R* t, bool conj_m) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  const R sa = conj_m ? R(-1) : R(1);
  alignas(64) R bufA[2 * RB + L], bufB[2 * RB + L];
  for (index i0 = 0; i0 < m; i0 += RB) {
    const index mb = m - i0 < RB ? m - i0 : RB, n2 = 2 * mb;
    // tA, tB and the block's first column reach a packet boundary together (lead)
    const index h = std::min(lead<R, L>(a + 2 * i0, 2), n2), sh = h % L ? L - h % L : 0;
    R *tA = bufA + sh, *tB = bufB + sh;
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
      // one packet of t at q, n < L of its lanes (the head before the boundary, the end)
      auto partial = [&](index q, index n) {
        V ya = load_first<P>(tA + q, n), yb = load_first<P>(tB + q, n);
        simd::unroll<CB>([&](auto j) {
          const V av = in_reg(load_first<P>(c[j] + q, n));
          ya = P::fma(av, xr[j], ya);
          yb = P::fma(av, xi[j], yb);
        });
        store_first<P>(tA + q, n, ya);
        store_first<P>(tB + q, n, yb);
      };
      if (h > 0) partial(0, h);
      index q = h;
      for (; q + QV * L <= n2; q += QV * L) {
        V ya[QV], yb[QV], za[QV], zb[QV];
        simd::unroll<QV>([&](auto u) {
          ya[u] = P::load(tA + q + u * L);
          yb[u] = P::load(tB + q + u * L);
          za[u] = zb[u] = P::zero();
        });
        simd::unroll<CB>([&](auto j) {
          simd::unroll<QV>([&](auto u) {
            const V av = in_reg(P::load(c[j] + q + u * L));
            if constexpr (j % 2 == 0) {
              ya[u] = P::fma(av, xr[j], ya[u]);
              yb[u] = P::fma(av, xi[j], yb[u]);
            } else {
              za[u] = P::fma(av, xr[j], za[u]);
              zb[u] = P::fma(av, xi[j], zb[u]);
            }
          });
        });
        simd::unroll<QV>([&](auto u) {
          P::store(tA + q + u * L, P::add(ya[u], za[u]));
          P::store(tB + q + u * L, P::add(yb[u], zb[u]));
        });
      }
      for (; q + L <= n2; q += L) {
        V ya = P::load(tA + q), yb = P::load(tB + q);
        simd::unroll<CB>([&](auto j) {
          const V av = in_reg(P::load(c[j] + q));
          ya = P::fma(av, xr[j], ya);
          yb = P::fma(av, xi[j], yb);
        });
        P::store(tA + q, ya);
        P::store(tB + q, yb);
      }
      if (q < n2) partial(q, n2 - q);
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
