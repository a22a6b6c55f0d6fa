// The kernels behind gemv.hpp, included by gemv.cpp (portable) and gemv_{avx2,avx512,neon}.cpp
// inside their own namespace, which first defines Pk<R> (that build's packet, lapis/simd.hpp)
// and kVecRegs (how many vector registers the ISA has).
// Complex values are handled as interleaved (re, im) reals: the products are accumulated
// as Σ a·x and Σ a·swap(x) (rows) or Σ a·re(x) and Σ a·im(x) (cols), and the real and
// imaginary parts formed once at the end, where conjugating M only flips signs.

// Real rows: RR rows at a time, NV vectors of x per step (RR·NV independent accumulators;
// RR streams of M in flight keep the memory busy).
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
    index p = 0;
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
    simd::unroll<RR>([&](auto r) {
      V acc = s[r][0];
      simd::unroll<NV - 1>([&](auto v) { acc = P::add(acc, s[r][v + 1]); });
      R sum = P::hsum(acc);
      for (index q = p; q < k; ++q) sum += ar[r][q] * x[q];
      t[i + r] = sum;
    });
  }
  for (; i < m; ++i) {
    const R* ar = a + i * lda;
    V s[4];
    simd::unroll<4>([&](auto v) { s[v] = P::zero(); });
    index p = 0;
    for (; p + 4 * L <= k; p += 4 * L)
      simd::unroll<4>([&](auto v) { s[v] = P::fma(P::load(ar + p + v * L), P::load(x + p + v * L), s[v]); });
    for (; p + L <= k; p += L) s[0] = P::fma(P::load(ar + p), P::load(x + p), s[0]);
    R r = P::hsum(P::add(P::add(s[0], s[1]), P::add(s[2], s[3])));
    for (; p < k; ++p) r += ar[p] * x[p];
    t[i] = r;
  }
}

// Real cols: groups of CB columns are added into a block of RB entries of t (CB streams
// of M in flight, one load and store of t per CB columns). Long blocks keep each stream
// sequential for longer, which is what a matrix from DRAM needs.
template <class R, int CB = 4, index RB = 4096>
void cols_real(index m, index k, const R* a, index lda, const R* x, R* t) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  for (index i0 = 0; i0 < m; i0 += RB) {
    const index mb = m - i0 < RB ? m - i0 : RB;
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
      index i = 0;
      for (; i + 2 * L <= mb; i += 2 * L) {
        V y0 = P::load(tb + i), y1 = P::load(tb + i + L);
        simd::unroll<CB>([&](auto j) {
          y0 = P::fma(P::load(c[j] + i), xv[j], y0);
          y1 = P::fma(P::load(c[j] + i + L), xv[j], y1);
        });
        P::store(tb + i, y0);
        P::store(tb + i + L, y1);
      }
      for (; i < mb; ++i) {
        R y = tb[i];
        for (int j = 0; j < CB; ++j) y += c[j][i] * x[p + j];
        tb[i] = y;
      }
    }
    for (; p < k; ++p) {
      const R* c = a + i0 + p * lda;
      const V xv = P::set1(x[p]);
      index i = 0;
      for (; i + L <= mb; i += L) P::store(tb + i, P::fma(P::load(c + i), xv, P::load(tb + i)));
      for (; i < mb; ++i) tb[i] += c[i] * x[p];
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
  auto xs = [&](const R* xp, V& x1, V& x2) {
    const V xv = P::load(xp);
    if constexpr (CJ) {
      x1 = xv;
      x2 = P::conj(P::swap_pairs(xv));
    } else {
      x1 = P::conj(xv);
      x2 = P::swap_pairs(xv);
    }
  };
  auto finish = [&](V s1, V s2, index q0, const R* ar, R* out) {
    R re = P::hsum(s1), im = P::hsum(s2);
    for (index q = q0; q < k2; q += 2) {
      const R a0 = ar[q], a1 = ar[q + 1], x0 = x[q], x1 = x[q + 1];
      if constexpr (CJ) re += a0 * x0 + a1 * x1, im += a0 * x1 - a1 * x0;
      else re += a0 * x0 - a1 * x1, im += a0 * x1 + a1 * x0;
    }
    out[0] = re;
    out[1] = im;
  };
  index i = 0;
  for (; i + RR <= m; i += RR) {
    const R* ar[RR];
    V s1[RR], s2[RR];
    simd::unroll<RR>([&](auto r) {
      ar[r] = a + (i + r) * ld2;
      s1[r] = s2[r] = P::zero();
    });
    index q = 0;
    for (; q + L <= k2; q += L) {
      V x1, x2;
      xs(x + q, x1, x2);
      simd::unroll<RR>([&](auto r) {
        const V av = in_reg(P::load(ar[r] + q));
        if (kLine || q % (64 / static_cast<index>(sizeof(R))) == 0) prefetch(ar[r] + q + kPrefetch);
        s1[r] = P::fma(av, x1, s1[r]);
        s2[r] = P::fma(av, x2, s2[r]);
      });
    }
    simd::unroll<RR>([&](auto r) { finish(s1[r], s2[r], q, ar[r], t + 2 * (i + r)); });
  }
  for (; i < m; ++i) {
    const R* ar = a + i * ld2;
    V s1 = P::zero(), s2 = P::zero();
    index q = 0;
    for (; q + L <= k2; q += L) {
      V x1, x2;
      xs(x + q, x1, x2);
      const V av = in_reg(P::load(ar + q));
      s1 = P::fma(av, x1, s1);
      s2 = P::fma(av, x2, s2);
    }
    finish(s1, s2, q, ar, t + 2 * i);
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
  alignas(64) R tA[2 * RB], tB[2 * RB];
  for (index i0 = 0; i0 < m; i0 += RB) {
    const index mb = m - i0 < RB ? m - i0 : RB, n2 = 2 * mb;
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
      index q = 0;
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
      for (; q < n2; ++q)
        for (int j = 0; j < CB; ++j) tA[q] += c[j][q] * x[2 * (p + j)], tB[q] += c[j][q] * x[2 * (p + j) + 1];
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
