// The kernels behind gemv.hpp, included by gemv.cpp (portable) and gemv_{avx2,avx512,neon}.cpp
// inside their own namespace, which first defines Pk<R> (that build's packet, lapis/simd.hpp).
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

// Complex rows on interleaved reals (2k per row): s1 = Σ a·x = (ar·xr, ai·xi),
// s2 = Σ a·swap(x) = (ar·xi, ai·xr); RR rows at a time, NV vectors per step.
template <class R, int RR = 4, int NV = 1>
void rows_cplx(index m, index k, const R* a, index lda, const R* x, R* t, bool conj_m) {
  using P = Pk<R>;
  using V = typename P::V;
  constexpr int L = P::L;
  const index k2 = 2 * k, ld2 = 2 * lda;
  const R sa = conj_m ? R(-1) : R(1);
  auto finish = [&](V s1, V s2, index q0, const R* ar, R* out) {
    alignas(64) R b1[L], b2[L];
    P::store(b1, s1);
    P::store(b2, s2);
    R e1 = 0, o1 = 0, e2 = 0, o2 = 0;
    for (int l = 0; l < L; l += 2) e1 += b1[l], o1 += b1[l + 1], e2 += b2[l], o2 += b2[l + 1];
    for (index q = q0; q < k2; q += 2) {
      e1 += ar[q] * x[q], o1 += ar[q + 1] * x[q + 1];
      e2 += ar[q] * x[q + 1], o2 += ar[q + 1] * x[q];
    }
    out[0] = e1 - sa * o1;
    out[1] = e2 + sa * o2;
  };
  index i = 0;
  for (; i + RR <= m; i += RR) {
    const R* ar[RR];
    V s1[RR][NV], s2[RR][NV];
    simd::unroll<RR>([&](auto r) {
      ar[r] = a + (i + r) * ld2;
      simd::unroll<NV>([&](auto v) { s1[r][v] = s2[r][v] = P::zero(); });
    });
    index q = 0;
    for (; q + NV * L <= k2; q += NV * L) {
      V xv[NV], wv[NV];
      simd::unroll<NV>([&](auto v) { xv[v] = P::load(x + q + v * L); wv[v] = P::swap_pairs(xv[v]); });
      simd::unroll<RR>([&](auto r) {
        simd::unroll<NV>([&](auto v) {
          const V av = P::load(ar[r] + q + v * L);
          s1[r][v] = P::fma(av, xv[v], s1[r][v]);
          s2[r][v] = P::fma(av, wv[v], s2[r][v]);
        });
      });
    }
    for (; q + L <= k2; q += L) {
      const V x0 = P::load(x + q), w0 = P::swap_pairs(x0);
      simd::unroll<RR>([&](auto r) {
        const V a0 = P::load(ar[r] + q);
        s1[r][0] = P::fma(a0, x0, s1[r][0]);
        s2[r][0] = P::fma(a0, w0, s2[r][0]);
      });
    }
    simd::unroll<RR>([&](auto r) {
      V u1 = s1[r][0], u2 = s2[r][0];
      simd::unroll<NV - 1>([&](auto v) { u1 = P::add(u1, s1[r][v + 1]); u2 = P::add(u2, s2[r][v + 1]); });
      finish(u1, u2, q, ar[r], t + 2 * (i + r));
    });
  }
  for (; i < m; ++i) {
    const R* ar = a + i * ld2;
    V s1 = P::zero(), s2 = P::zero();
    index q = 0;
    for (; q + L <= k2; q += L) {
      const V x0 = P::load(x + q), a0 = P::load(ar + q);
      s1 = P::fma(a0, x0, s1);
      s2 = P::fma(a0, P::swap_pairs(x0), s2);
    }
    finish(s1, s2, q, ar, t + 2 * i);
  }
}

// Complex cols: tA = Σ a·re(x) = (ar·xr, ai·xr), tB = Σ a·im(x) = (ar·xi, ai·xi) over a
// block of RB rows, CB columns per pass.
template <class R, int CB = 6, index RB = 1024>
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
      for (; q + L <= n2; q += L) {
        V ya = P::load(tA + q), yb = P::load(tB + q);
        simd::unroll<CB>([&](auto j) {
          const V av = P::load(c[j] + q);
          ya = P::fma(av, xr[j], ya);
          yb = P::fma(av, xi[j], yb);
        });
        P::store(tA + q, ya);
        P::store(tB + q, yb);
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
    cols_cplx<R>(m, k, reinterpret_cast<const R*>(a), lda, reinterpret_cast<const R*>(x), reinterpret_cast<R*>(t),
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
