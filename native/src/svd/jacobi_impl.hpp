// The SIMD Jacobi kernels of jacobi_kernels.hpp, written once over a packet P of
// lapis/simd.hpp and instantiated by each ISA's translation unit (jacobi_avx2.cpp with
// Pack<Avx2, R>, jacobi_avx512.cpp with Pack<Avx512, R>). Everything is in an anonymous
// namespace so the instantiations, compiled for different ISAs, never merge at link time.
//
// Tail: how a length that is not a multiple of P::L ends. Scalar: a scalar loop after the
// vector one (the AVX2 kernels; the masked AVX2 loads are slow). Masked: one masked vector
// step (AVX-512's masked loads and stores cost what plain ones do).
//
// The plain loops would stay scalar for the reductions: compilers do not reassociate FP
// sums, hence the explicit chains of partial sums.
#pragma once
#include <limits>

#include "jacobi_kernels.hpp"
#include "lapis/simd.hpp"

namespace lapis::svd_detail {
namespace {

enum class Tail { Scalar, Masked };

// Σ a_i·b_i over len scalars.
template <class P, Tail TL>
typename P::R dot(const typename P::R* a, const typename P::R* b, index len) {
  using V = typename P::V;
  constexpr int W = P::L;
  // Four independent chains: one FMA chain is latency bound (4 cycles each).
  V s0 = P::zero(), s1 = P::zero(), s2 = P::zero(), s3 = P::zero();
  index i = 0;
  for (; i + 4 * W <= len; i += 4 * W) {
    s0 = P::fma(P::load(a + i), P::load(b + i), s0);
    s1 = P::fma(P::load(a + i + W), P::load(b + i + W), s1);
    s2 = P::fma(P::load(a + i + 2 * W), P::load(b + i + 2 * W), s2);
    s3 = P::fma(P::load(a + i + 3 * W), P::load(b + i + 3 * W), s3);
  }
  for (; i + W <= len; i += W) s0 = P::fma(P::load(a + i), P::load(b + i), s0);
  if constexpr (TL == Tail::Masked) {
    if (i < len) {
      const auto m = P::tail(static_cast<int>(len - i));
      s1 = P::fma(P::loadt(a + i, m), P::loadt(b + i, m), s1);
    }
    return P::hsum(P::add(P::add(s0, s1), P::add(s2, s3)));
  } else {
    typename P::R s = P::hsum(P::add(P::add(s0, s1), P::add(s2, s3)));
    for (; i < len; ++i) s += a[i] * b[i];
    return s;
  }
}

// Σ even lanes − Σ odd lanes: the imaginary part of the interleaved complex sums below.
template <class P>
typename P::R hdiff(typename P::V v) {
  return P::hsum(P::mul(v, P::alt(typename P::R(1))));
}

// Σ conj(a_i)·b_i over n complex elements (2n scalars): (re, im).
template <class P>
void dotc(const typename P::R* a, const typename P::R* b, index n, typename P::R* re, typename P::R* im) {
  using V = typename P::V;
  using R = typename P::R;
  constexpr int W = P::L;
  const index len = 2 * n;
  V r = P::zero(), c = P::zero(), r1 = P::zero(), c1 = P::zero();
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    V x = P::load(a + i), y = P::load(b + i);
    V x1 = P::load(a + i + W), y1 = P::load(b + i + W);
    r = P::fma(x, y, r);                 // ar·br, ai·bi
    c = P::fma(x, P::swap_pairs(y), c);  // ar·bi, ai·br
    r1 = P::fma(x1, y1, r1);
    c1 = P::fma(x1, P::swap_pairs(y1), c1);
  }
  for (; i + W <= len; i += W) {
    V x = P::load(a + i), y = P::load(b + i);
    r = P::fma(x, y, r);
    c = P::fma(x, P::swap_pairs(y), c);
  }
  R sr = P::hsum(P::add(r, r1)), si = hdiff<P>(P::add(c, c1));
  for (; i < len; i += 2) {
    sr += a[i] * b[i] + a[i + 1] * b[i + 1];
    si += a[i] * b[i + 1] - a[i + 1] * b[i];
  }
  *re = sr;
  *im = si;
}

// [x, y] ← [c·x − s·y, s·x + c·y] over len real scalars.
template <class P, Tail TL>
void rot(typename P::R* x, typename P::R* y, index len, typename P::R c, typename P::R s) {
  using V = typename P::V;
  constexpr int W = P::L;
  const V vc = P::set1(c), vs = P::set1(s);
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = P::load(x + i), b = P::load(y + i);
    P::store(x + i, P::fnma(vs, b, P::mul(vc, a)));
    P::store(y + i, P::fma(vs, a, P::mul(vc, b)));
  }
  if constexpr (TL == Tail::Masked) {
    if (i < len) {
      const auto m = P::tail(static_cast<int>(len - i));
      V a = P::loadt(x + i, m), b = P::loadt(y + i, m);
      P::storet(x + i, m, P::fnma(vs, b, P::mul(vc, a)));
      P::storet(y + i, m, P::fma(vs, a, P::mul(vc, b)));
    }
  } else {
    for (; i < len; ++i) {
      auto a = x[i], b = y[i];
      x[i] = c * a - s * b;
      y[i] = s * a + c * b;
    }
  }
}

// y ← y − a·x over len scalars.
template <class P, Tail TL>
void axmy(typename P::R* y, const typename P::R* x, typename P::R a, index len) {
  using V = typename P::V;
  constexpr int W = P::L;
  const V va = P::set1(a);
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    P::store(y + i, P::fnma(va, P::load(x + i), P::load(y + i)));
    P::store(y + i + W, P::fnma(va, P::load(x + i + W), P::load(y + i + W)));
  }
  for (; i + W <= len; i += W) P::store(y + i, P::fnma(va, P::load(x + i), P::load(y + i)));
  if constexpr (TL == Tail::Masked) {
    if (i < len) {
      const auto m = P::tail(static_cast<int>(len - i));
      P::storet(y + i, m, P::fnma(va, P::loadt(x + i, m), P::loadt(y + i, m)));
    }
  } else {
    for (; i < len; ++i) y[i] -= a * x[i];
  }
}

// C ← (I − tau·v·vᵀ)·C, C r×c with column j at C + j·ldc (JacobiKernels::larf_left).
template <class P, Tail TL>
void larf_left(index r, index c, const typename P::R* v, typename P::R tau, typename P::R* C, index ldc) {
  for (index j = 0; j < c; ++j) {
    typename P::R* cj = C + j * ldc;
    axmy<P, TL>(cj, v, tau * dot<P, TL>(v, cj, r), r);
  }
}

// C ← C·(I − tau·u·uᵀ), u at stride incu: w = C·u, then each column less tau·u_j·w.
template <class P, Tail TL>
void larf_right(index r, index c, const typename P::R* u, index incu, typename P::R tau, typename P::R* C, index ldc,
                typename P::R* w) {
  using V = typename P::V;
  using R = typename P::R;
  constexpr int W = P::L;
  index j = 0;
  // w from the columns two at a time (the first pair or single column sets it).
  auto pass = [&](index jj, int two, bool first) {
    const R a = u[jj * incu], b = two ? u[(jj + 1) * incu] : R(0);
    const V va = P::set1(a), vb = P::set1(b);
    const R* c0 = C + jj * ldc;
    const R* c1 = two ? c0 + ldc : c0;
    index i = 0;
    for (; i + W <= r; i += W) {
      V t = first ? P::mul(va, P::load(c0 + i)) : P::fma(va, P::load(c0 + i), P::load(w + i));
      if (two) t = P::fma(vb, P::load(c1 + i), t);
      P::store(w + i, t);
    }
    for (; i < r; ++i) {
      R t = first ? a * c0[i] : w[i] + a * c0[i];
      if (two) t += b * c1[i];
      w[i] = t;
    }
  };
  if (c <= 0) return;
  for (; j + 2 <= c; j += 2) pass(j, 1, j == 0);
  if (j < c) pass(j, 0, j == 0);
  for (j = 0; j < c; ++j) axmy<P, TL>(C + j * ldc, w, tau * u[j * incu], r);
}

// [x, y] ← [c·x − z̄·y, z·x + c·y] over n complex elements, z = zr + i·zi.
template <class P>
void rotc(typename P::R* x, typename P::R* y, index n, typename P::R c, typename P::R zr, typename P::R zi) {
  using V = typename P::V;
  constexpr int W = P::L;
  const index len = 2 * n;
  const V vc = P::set1(c), vzr = P::set1(zr);
  const V zi_pm = P::alt(zi);   // conj(z)·y = zr·y + (zi, −zi)·swap(y)
  const V zi_mp = P::alt(-zi);  // z·x = zr·x + (−zi, zi)·swap(x)
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = P::load(x + i), b = P::load(y + i);
    V zby = P::fma(zi_pm, P::swap_pairs(b), P::mul(vzr, b));
    V zax = P::fma(zi_mp, P::swap_pairs(a), P::mul(vzr, a));
    P::store(x + i, P::fnma(P::set1(1), zby, P::mul(vc, a)));
    P::store(y + i, P::fma(vc, b, zax));
  }
  for (; i < len; i += 2) {
    auto xr = x[i], xi = x[i + 1], yr = y[i], yi = y[i + 1];
    x[i] = c * xr - (zr * yr + zi * yi);
    x[i + 1] = c * xi - (zr * yi - zi * yr);
    y[i] = (zr * xr - zi * xi) + c * yr;
    y[i + 1] = (zr * xi + zi * xr) + c * yi;
  }
}

// rot, then returns Σ x'_i·w_i (the next pair's dot product) from the same pass.
template <class P, Tail TL>
typename P::R rot_dot(typename P::R* x, typename P::R* y, const typename P::R* w, index len, typename P::R c,
                      typename P::R s) {
  using V = typename P::V;
  constexpr int W = P::L;
  const V vc = P::set1(c), vs = P::set1(s);
  V a0 = P::zero(), a1 = P::zero();
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    V a = P::load(x + i), b = P::load(y + i), a2 = P::load(x + i + W), b2 = P::load(y + i + W);
    V xn = P::fnma(vs, b, P::mul(vc, a)), xn2 = P::fnma(vs, b2, P::mul(vc, a2));
    P::store(x + i, xn);
    P::store(x + i + W, xn2);
    P::store(y + i, P::fma(vs, a, P::mul(vc, b)));
    P::store(y + i + W, P::fma(vs, a2, P::mul(vc, b2)));
    a0 = P::fma(xn, P::load(w + i), a0);
    a1 = P::fma(xn2, P::load(w + i + W), a1);
  }
  for (; i + W <= len; i += W) {
    V a = P::load(x + i), b = P::load(y + i);
    V xn = P::fnma(vs, b, P::mul(vc, a));
    P::store(x + i, xn);
    P::store(y + i, P::fma(vs, a, P::mul(vc, b)));
    a0 = P::fma(xn, P::load(w + i), a0);
  }
  if constexpr (TL == Tail::Masked) {
    if (i < len) {
      const auto m = P::tail(static_cast<int>(len - i));
      V a = P::loadt(x + i, m), b = P::loadt(y + i, m);
      V xn = P::fnma(vs, b, P::mul(vc, a));
      P::storet(x + i, m, xn);
      P::storet(y + i, m, P::fma(vs, a, P::mul(vc, b)));
      a1 = P::fma(xn, P::loadt(w + i, m), a1);
    }
    return P::hsum(P::add(a0, a1));
  } else {
    typename P::R acc = P::hsum(P::add(a0, a1));
    for (; i < len; ++i) {
      auto a = x[i], b = y[i];
      x[i] = c * a - s * b;
      y[i] = s * a + c * b;
      acc += x[i] * w[i];
    }
    return acc;
  }
}

// rot, then *dx = Σ x'_i·wx_i and *dy = Σ y'_i·wy_i from the same pass.
template <class P, Tail TL>
void rot_dot2(typename P::R* x, typename P::R* y, const typename P::R* wx, const typename P::R* wy, index len,
              typename P::R c, typename P::R s, typename P::R* dx, typename P::R* dy) {
  using V = typename P::V;
  constexpr int W = P::L;
  const V vc = P::set1(c), vs = P::set1(s);
  V a0 = P::zero(), a1 = P::zero(), b0 = P::zero(), b1 = P::zero();
  index i = 0;
  for (; i + 2 * W <= len; i += 2 * W) {
    V a = P::load(x + i), b = P::load(y + i), a2 = P::load(x + i + W), b2 = P::load(y + i + W);
    V xn = P::fnma(vs, b, P::mul(vc, a)), xn2 = P::fnma(vs, b2, P::mul(vc, a2));
    V yn = P::fma(vs, a, P::mul(vc, b)), yn2 = P::fma(vs, a2, P::mul(vc, b2));
    P::store(x + i, xn);
    P::store(x + i + W, xn2);
    P::store(y + i, yn);
    P::store(y + i + W, yn2);
    a0 = P::fma(xn, P::load(wx + i), a0);
    a1 = P::fma(xn2, P::load(wx + i + W), a1);
    b0 = P::fma(yn, P::load(wy + i), b0);
    b1 = P::fma(yn2, P::load(wy + i + W), b1);
  }
  for (; i + W <= len; i += W) {
    V a = P::load(x + i), b = P::load(y + i);
    V xn = P::fnma(vs, b, P::mul(vc, a)), yn = P::fma(vs, a, P::mul(vc, b));
    P::store(x + i, xn);
    P::store(y + i, yn);
    a0 = P::fma(xn, P::load(wx + i), a0);
    b0 = P::fma(yn, P::load(wy + i), b0);
  }
  if constexpr (TL == Tail::Masked) {
    if (i < len) {
      const auto m = P::tail(static_cast<int>(len - i));
      V a = P::loadt(x + i, m), b = P::loadt(y + i, m);
      V xn = P::fnma(vs, b, P::mul(vc, a)), yn = P::fma(vs, a, P::mul(vc, b));
      P::storet(x + i, m, xn);
      P::storet(y + i, m, yn);
      a1 = P::fma(xn, P::loadt(wx + i, m), a1);
      b1 = P::fma(yn, P::loadt(wy + i, m), b1);
    }
    *dx = P::hsum(P::add(a0, a1));
    *dy = P::hsum(P::add(b0, b1));
  } else {
    typename P::R sx = P::hsum(P::add(a0, a1)), sy = P::hsum(P::add(b0, b1));
    for (; i < len; ++i) {
      auto a = x[i], b = y[i];
      x[i] = c * a - s * b;
      y[i] = s * a + c * b;
      sx += x[i] * wx[i];
      sy += y[i] * wy[i];
    }
    *dx = sx;
    *dy = sy;
  }
}
// rotc, then conj(x')·w into (re, im).
template <class P>
void rotc_dotc(typename P::R* x, typename P::R* y, const typename P::R* w, index n, typename P::R c, typename P::R zr,
               typename P::R zi, typename P::R* re, typename P::R* im) {
  using V = typename P::V;
  constexpr int W = P::L;
  const index len = 2 * n;
  const V vc = P::set1(c), vzr = P::set1(zr), zi_pm = P::alt(zi), zi_mp = P::alt(-zi);
  V r = P::zero(), cc = P::zero();
  index i = 0;
  for (; i + W <= len; i += W) {
    V a = P::load(x + i), b = P::load(y + i);
    V zby = P::fma(zi_pm, P::swap_pairs(b), P::mul(vzr, b));
    V zax = P::fma(zi_mp, P::swap_pairs(a), P::mul(vzr, a));
    V xn = P::fnma(P::set1(1), zby, P::mul(vc, a));
    P::store(x + i, xn);
    P::store(y + i, P::fma(vc, b, zax));
    V wv = P::load(w + i);
    r = P::fma(xn, wv, r);
    cc = P::fma(xn, P::swap_pairs(wv), cc);
  }
  typename P::R sr = P::hsum(r), si = hdiff<P>(cc);
  for (; i < len; i += 2) {
    auto xr = x[i], xi = x[i + 1], yr = y[i], yi = y[i + 1];
    x[i] = c * xr - (zr * yr + zi * yi);
    x[i + 1] = c * xi - (zr * yi - zi * yr);
    y[i] = (zr * xr - zi * xi) + c * yr;
    y[i + 1] = (zr * xi + zi * xr) + c * yi;
    sr += x[i] * w[i] + x[i + 1] * w[i + 1];
    si += x[i] * w[i + 1] - x[i + 1] * w[i];
  }
  *re = sr;
  *im = si;
}

// The lanes with g² > tol2·ap·bq: the pairs that rotate.
template <class P>
typename P::M rotates(typename P::V G, typename P::V A, typename P::V B, typename P::R tol2) {
  return P::gt(P::mul(G, G), P::mul(P::mul(P::set1(tol2), A), B));
}

// P::L lanes of `angles` (jacobi_kernels.hpp) from g, ap, bq in registers: jacobi_pair_sq's
// formulas, both branches of |ζ| < 1/eps computed and blended (the masked-out lanes may
// hold Inf or NaN). The divisions and square roots of P::L pairs cost about what one
// pair's chain does in scalar code.
template <class P>
void angles_v(typename P::V G, typename P::V A, typename P::V B, typename P::R* c, typename P::R* z,
              typename P::R* a2, typename P::R* b2) {
  using V = typename P::V;
  using R = typename P::R;
  const V sign = P::set1(R(-0.0)), one = P::set1(R(1)), half = P::set1(R(0.5));
  const V ag = P::andnot(sign, G);
  const V zeta = P::mul(P::sub(B, A), P::div(half, ag));
  const V az = P::andnot(sign, zeta);
  const V w = P::sqrt(P::add(one, P::mul(az, az)));
  const auto small = P::lt(az, P::set1(R(1) / std::numeric_limits<R>::epsilon()));
  const V ta = P::blend(P::div(half, az), P::div(one, P::add(az, w)), small);
  const V cc = P::blend(one, P::sqrt(P::add(half, P::mul(half, P::div(az, w)))), small);
  const V t = P::or_(ta, P::and_(sign, zeta));  // copysign(ta, ζ), ta ≥ 0
  const V s = P::mul(cc, t);
  const V tg = P::mul(t, ag);
  P::store(c, cc);
  P::store(z, P::xor_(s, P::and_(sign, G)));  // g > 0 ? s : −s (g ≠ 0 where it rotates)
  P::store(a2, P::sub(A, tg));
  P::store(b2, P::add(B, tg));
}

// `angles` (jacobi_kernels.hpp): kWave lanes, P::L at a time (P::L ≤ kWave).
template <class P>
unsigned angles(const typename P::R* g, const typename P::R* ap, const typename P::R* bq, typename P::R tol2,
                typename P::R* c, typename P::R* z, typename P::R* a2, typename P::R* b2) {
  static_assert(P::L <= kWave, "angles takes kWave lanes");
  unsigned m = 0;
  for (int h = 0; h < kWave; h += P::L) {
    const typename P::V G = P::load(g + h), A = P::load(ap + h), B = P::load(bq + h);
    const unsigned mh = P::mask_bits(rotates<P>(G, A, B, tol2));
    if (!mh) continue;
    angles_v<P>(G, A, B, c + h, z + h, a2 + h, b2 + h);
    m |= mh << h;
  }
  return m;
}

}  // namespace
}  // namespace lapis::svd_detail
