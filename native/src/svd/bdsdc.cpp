// Divide and conquer SVD of a real upper bidiagonal (bdsdc.hpp, docs/svd.md).
#include "bdsdc.hpp"
#include "plane.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "lapis/gemm.hpp"

namespace lapis::svd_detail {
namespace {

// x ← c·x + s·y, y ← c·y − s·x (the convention of every rotation below).
template <class R>
inline void rot(index len, R* x, R* y, R c, R s) {
  for (index i = 0; i < len; ++i) {
    const R a = x[i], b = y[i];
    x[i] = c * a + s * b;
    y[i] = c * b - s * a;
  }
}

// Implicit-shift QR (Demmel–Kahan, LAPACK bdsqr chasing from the top) on the upper
// bidiagonal (d, e) of order n: the rotations of B's rows go to the columns of L (lrows
// long), those of its columns to the columns of C (crows long), so B = L·diag(d)·Cᵀ on
// exit with L, C the identity on entry. d keeps signs. false: no convergence in 6·n² steps.
template <class R>
bool bdsqr_vec(index n, R* d, R* e, R* L, index lrows, index ldl, R* C, index crows, index ldc) {
  if (n <= 1) return true;
  const R eps = std::numeric_limits<R>::epsilon() / 2;
  const R unfl = std::numeric_limits<R>::min();
  const R tol = std::max(R(10), std::min(R(100), std::pow(eps, R(-0.125)))) * eps;
  R sminoa = std::abs(d[0]);
  if (sminoa != 0) {
    R mu = sminoa;
    for (index i = 1; i < n; ++i) {
      mu = std::abs(d[i]) * (mu / (mu + std::abs(e[i - 1])));
      sminoa = std::min(sminoa, mu);
      if (sminoa == 0) break;
    }
  }
  sminoa = sminoa / std::sqrt(R(n));
  const R thresh = std::max(tol * sminoa, R(6) * R(n) * R(n) * unfl);
  const double maxit = 6.0 * double(n) * double(n);
  double iter = 0;
  index m = n - 1;
  auto rotL = [&](index i, R c, R s) { rot(lrows, L + i * ldl, L + (i + 1) * ldl, c, s); };
  auto rotC = [&](index i, R c, R s) { rot(crows, C + i * ldc, C + (i + 1) * ldc, c, s); };
  while (m > 0) {
    if (iter > maxit) return false;
    R smaxb = std::abs(d[m]);
    index ll = -1;
    for (index l = m - 1; l >= 0; --l) {
      if (std::abs(e[l]) <= thresh) {
        ll = l;
        break;
      }
      smaxb = std::max(smaxb, std::max(std::abs(d[l]), std::abs(e[l])));
    }
    if (ll >= 0) {
      e[ll] = 0;
      if (ll == m - 1) {
        --m;
        continue;
      }
    }
    ++ll;
    if (std::abs(e[m - 1]) <= tol * std::abs(d[m])) {
      e[m - 1] = 0;
      continue;
    }
    R mu = std::abs(d[ll]), sminl = mu;
    bool split = false;
    for (index l = ll; l < m; ++l) {
      if (std::abs(e[l]) <= tol * mu) {
        e[l] = 0;
        split = true;
        break;
      }
      mu = std::abs(d[l + 1]) * (mu / (mu + std::abs(e[l])));
      sminl = std::min(sminl, mu);
    }
    if (split) continue;
    R shift = 0;
    if (!(R(n) * tol * (sminl / smaxb) <= std::max(eps, R(0.01) * tol))) {
      const R sll = std::abs(d[ll]);
      R smax;
      las2(d[m - 1], e[m - 1], d[m], shift, smax);
      if (sll > 0 && (shift / sll) * (shift / sll) < eps) shift = 0;
    }
    iter += double(m - ll);
    R r;
    if (shift == 0) {
      R cs = 1, sn = 0, oldcs = 1, oldsn = 0;
      for (index i = ll; i < m; ++i) {
        lartg(d[i] * cs, e[i], cs, sn, r);
        if (i > ll) e[i - 1] = oldsn * r;
        lartg(oldcs * r, d[i + 1] * sn, oldcs, oldsn, d[i]);
        rotC(i, cs, sn);
        rotL(i, oldcs, oldsn);
      }
      const R h = d[m] * cs;
      d[m] = h * oldcs;
      e[m - 1] = h * oldsn;
      if (std::abs(e[m - 1]) <= thresh) e[m - 1] = 0;
    } else {
      R cosr, sinr, cosl, sinl;
      R f = (std::abs(d[ll]) - shift) * (std::copysign(R(1), d[ll]) + shift / d[ll]);
      R g = e[ll];
      for (index i = ll; i < m; ++i) {
        lartg(f, g, cosr, sinr, r);
        if (i > ll) e[i - 1] = r;
        f = cosr * d[i] + sinr * e[i];
        e[i] = cosr * e[i] - sinr * d[i];
        g = sinr * d[i + 1];
        d[i + 1] = cosr * d[i + 1];
        lartg(f, g, cosl, sinl, r);
        d[i] = r;
        f = cosl * e[i] + sinl * d[i + 1];
        d[i + 1] = cosl * d[i + 1] - sinl * e[i];
        if (i < m - 1) {
          g = sinl * e[i + 1];
          e[i + 1] = cosl * e[i + 1];
        }
        rotC(i, cosr, sinr);
        rotL(i, cosl, sinl);
      }
      e[m - 1] = f;
      if (std::abs(e[m - 1]) <= thresh) e[m - 1] = 0;
    }
  }
  return true;
}

// Root i of the secular equation 1 + Σ_k z2_k/(d_k² − σ²) = 0 (d ascending, d_0 = 0,
// K ≥ 2; σ_i in (d_i, d_{i+1}), the last in (d_{K−1}, √(d_{K−1}² + Σz²))), found as
// x = σ² − d_o² with the origin d_o the nearer pole, so x and σ − d_o = τ keep full
// relative accuracy. Each step fits c + s1/(a − y) + s2/(b − y) to the two pole groups
// (values and derivatives at x) and takes its root; a step leaving the bracket bisects.
// big (K) gets d_k² − d_o², computed as (d_k − d_o)(d_k + d_o). false: not converged.
template <class R>
bool secular_root(index K, const R* d, const R* z2, R zz, index i, index& o, R& tau, R* big) {
  const R eps = std::numeric_limits<R>::epsilon();
  R lo, hi;
  if (i < K - 1) {
    const R xm = (d[i + 1] - d[i]) * (d[i + 1] + d[i]) / 2;
    R f = 1;
    for (index k = 0; k < K; ++k) f += z2[k] / ((d[k] - d[i]) * (d[k] + d[i]) - xm);
    if (f >= 0) {
      o = i;
      lo = 0;
      hi = xm;
    } else {
      o = i + 1;
      lo = -xm;
      hi = 0;
    }
  } else {
    o = K - 1;
    lo = 0;
    hi = zz;
  }
  const R dO = d[o];
  for (index k = 0; k < K; ++k) big[k] = (d[k] - dO) * (d[k] + dO);
  // Pole groups of the model: k ≤ split and k > split; a, b their nearest poles.
  const index split = i < K - 1 ? i : K - 2;
  const R pa = big[split], pb = big[split + 1];
  R x = (lo + hi) / 2;
  bool done = false;
  for (int it = 0; it < 200 && !done; ++it) {
    R psi = 0, dpsi = 0, phi = 0, dphi = 0;
    for (index k = 0; k <= split; ++k) {
      const R r = 1 / (big[k] - x), t = z2[k] * r;
      psi += t;
      dpsi += t * r;
    }
    for (index k = split + 1; k < K; ++k) {
      const R r = 1 / (big[k] - x), t = z2[k] * r;
      phi += t;
      dphi += t * r;
    }
    const R f = 1 + psi + phi;
    if (!std::isfinite(f)) return false;
    const R errb = eps * (8 * (std::abs(psi) + std::abs(phi)) + 4 + std::abs(x) * (dpsi + dphi));
    if (std::abs(f) <= errb) break;
    if (f > 0) hi = x;
    else lo = x;
    if (hi - lo <= 4 * eps * std::max(std::abs(lo), std::abs(hi))) break;
    const R a = pa - x, b = pb - x;
    const R s1 = dpsi * a * a, s2 = dphi * b * b;
    const R c = f - s1 / a - s2 / b;
    const R B = c * (a + b) + s1 + s2, Cc = a * b * f;
    const R elo = lo - x, ehi = hi - x;
    R eta = std::numeric_limits<R>::quiet_NaN();
    auto ok = [&](R v) { return std::isfinite(v) && v > elo && v < ehi; };
    if (c == 0) {
      if (B != 0) eta = Cc / B;
    } else {
      const R disc = std::sqrt(std::max(R(0), B * B - 4 * c * Cc));
      const R q = B >= 0 ? B + disc : B - disc;
      const R r1 = q / (2 * c), r2 = q != 0 ? 2 * Cc / q : std::numeric_limits<R>::quiet_NaN();
      eta = ok(r2) ? r2 : r1;
    }
    R xn;
    if (ok(eta)) {
      xn = x + eta;
      if (std::abs(eta) <= 2 * eps * std::abs(x)) done = true;
    } else if (lo >= 0) {
      xn = lo > 0 && hi > 4 * lo ? std::sqrt(lo) * std::sqrt(hi) : lo > 0 ? (lo + hi) / 2 : hi / 8;
    } else if (hi <= 0) {
      xn = hi < 0 && lo < 4 * hi ? -(std::sqrt(-lo) * std::sqrt(-hi)) : hi < 0 ? (lo + hi) / 2 : lo / 8;
    } else {
      xn = (lo + hi) / 2;
    }
    if (!(xn > lo && xn < hi)) break;  // the bracket is as narrow as R allows
    x = xn;
    if (it == 199) return false;
  }
  if (!(x != 0) || !(dO * dO + x >= 0)) return false;
  tau = x / (dO + std::sqrt(dO * dO + x));
  return std::isfinite(tau);
}

template <class R>
struct Dc {
  R* d;
  R* e;
  R* U;
  index ldu;
  R* V;
  index ldv;
  int th;
  index leaf;
  // Workspace shared by every merge (they run one at a time), (n + 1)² each.
  R *wGU, *wGV, *wG, *wH, *wUh, *wVh;

  bool leaf_solve(index r0, index n, int sqre) {
    const index m = n + sqre;
    R* Ub = U + r0 + r0 * ldu;
    R* Vb = V + r0 + r0 * ldv;
    for (index j = 0; j < n; ++j) Ub[j + j * ldu] = 1;
    for (index j = 0; j < m; ++j) Vb[j + j * ldv] = 1;
    R* dl = d + r0;
    R* el = e + r0;
    if (sqre) {
      // Right rotations turn the n×(n+1) upper bidiagonal into [L 0], L lower bidiagonal;
      // Lᵀ is upper, and its QR's row rotations act on V, its column rotations on U.
      std::vector<R> sub(static_cast<size_t>(std::max<index>(n - 1, 1)));
      for (index i = 0; i < n; ++i) {
        R c, s, r;
        lartg(dl[i], el[i], c, s, r);
        dl[i] = r;
        rot(m, Vb + i * ldv, Vb + (i + 1) * ldv, c, s);
        if (i + 1 < n) {
          sub[i] = s * dl[i + 1];
          dl[i + 1] = c * dl[i + 1];
        }
      }
      if (!bdsqr_vec(n, dl, sub.data(), Vb, m, ldv, Ub, n, ldu)) return false;
    } else {
      if (!bdsqr_vec(n, dl, el, Ub, n, ldu, Vb, n, ldv)) return false;
    }
    for (index j = 0; j < n; ++j)
      if (dl[j] < 0) {
        dl[j] = -dl[j];
        for (index i = 0; i < m; ++i) Vb[i + j * ldv] = -Vb[i + j * ldv];
      }
    return true;
  }

  bool node(index r0, index n, int sqre) {
    if (n <= leaf) return leaf_solve(r0, n, sqre);
    const index nl = n / 2, nr = n - nl - 1, m = n + sqre;
    if (!node(r0, nl, 1) || !node(r0 + nl + 1, nr, sqre)) return false;
    const R alpha = d[r0 + nl], beta = e[r0 + nl];
    R* Ub = U + r0 + r0 * ldu;
    R* Vb = V + r0 + r0 * ldv;
    // Working copies of the block-diagonal factors diag(U1, 1, U2), diag(V1, V2), whose
    // columns the deflation rotates; entries t < n − 1 are the children's values, entry t
    // sits in local column t (t < nl) or t + 1.
    R* GUn = wGU;
    R* GVn = wGV;
    for (index j = 0; j < n; ++j) std::copy(Ub + j * ldu, Ub + j * ldu + n, GUn + j * n);
    for (index j = 0; j < m; ++j) std::copy(Vb + j * ldv, Vb + j * ldv + m, GVn + j * m);
    GUn[nl + nl * n] = 1;
    const index ne = n - 1;
    std::vector<R> dv(static_cast<size_t>(ne)), zv(static_cast<size_t>(ne));
    std::vector<index> col(static_cast<size_t>(ne));
    // Which child block holds an entry's vectors: 1 left, 2 right, 3 both (after a
    // deflating rotation across them); the merge GEMMs skip the zero blocks.
    std::vector<unsigned char> side(static_cast<size_t>(ne));
    R dmax = 0;
    for (index t = 0; t < ne; ++t) {
      const index c = t < nl ? t : t + 1;
      col[t] = c;
      side[t] = t < nl ? 1 : 2;
      dv[t] = d[r0 + c];
      zv[t] = t < nl ? alpha * Vb[nl + c * ldv] : beta * Vb[(nl + 1) + c * ldv];
      dmax = std::max(dmax, dv[t]);
    }
    const R za = alpha * Vb[nl + nl * ldv], zb = sqre ? beta * Vb[(nl + 1) + (m - 1) * ldv] : R(0);
    const R eps = std::numeric_limits<R>::epsilon();
    const R tol = 8 * eps * std::max(dmax, std::max(std::abs(alpha), std::abs(beta)));
    // Entry 0: the null columns of the children (one rotation combines two), z0.
    R z0;
    if (sqre) {
      z0 = std::hypot(za, zb);
      R c = 1, s = 0;
      if (z0 <= tol) z0 = tol;
      else {
        c = za / z0;
        s = zb / z0;
      }
      rot(m, GVn + nl * m, GVn + (m - 1) * m, c, s);
    } else {
      z0 = std::abs(za) <= tol ? tol : za;
    }
    std::vector<index> ord(static_cast<size_t>(ne));
    std::iota(ord.begin(), ord.end(), index(0));
    std::stable_sort(ord.begin(), ord.end(), [&](index a, index b) { return dv[a] < dv[b]; });
    // Deflation (LAPACK dlasd2's two kinds): small z, or two values within tol, where a
    // rotation of both entries' vectors moves z onto one of them.
    std::vector<index> keep, defl;
    keep.reserve(static_cast<size_t>(ne));
    index prev = -1;
    for (index q = 0; q < ne; ++q) {
      const index t = ord[q];
      if (std::abs(zv[t]) <= tol) {
        defl.push_back(t);
        continue;
      }
      if (prev >= 0 && std::abs(dv[t] - dv[prev]) <= tol) {
        const R tau = std::hypot(zv[t], zv[prev]);
        const R c = zv[t] / tau, s = -zv[prev] / tau;
        zv[t] = tau;
        zv[prev] = 0;
        rot(n, GUn + col[prev] * n, GUn + col[t] * n, c, s);
        rot(m, GVn + col[prev] * m, GVn + col[t] * m, c, s);
        side[t] |= side[prev];
        defl.push_back(prev);
      } else if (prev >= 0) {
        keep.push_back(prev);
      }
      prev = t;
    }
    if (prev >= 0) keep.push_back(prev);
    const index K = index(keep.size()) + 1;
    std::vector<R> dh(static_cast<size_t>(K)), zh(static_cast<size_t>(K));
    dh[0] = 0;
    zh[0] = z0;
    for (index q = 1; q < K; ++q) {
      dh[q] = dv[keep[q - 1]];
      zh[q] = zv[keep[q - 1]];
    }
    if (K > 1 && dh[1] <= tol / 2) dh[1] = tol / 2;
    std::vector<R> sig(static_cast<size_t>(K));
    R* Uh = wUh;
    R* Vh = wVh;
    if (K == 1) {
      sig[0] = std::abs(z0);
      Uh[0] = 1;
      Vh[0] = z0 < 0 ? R(-1) : R(1);
    } else if (!merge_secular(K, dh.data(), zh.data(), sig.data(), Uh, Vh)) {
      return false;
    } else {
      // Σσ² = ‖M‖_F² = Σz² + Σdh²: a root far off breaks it (seen on float draws with many
      // equal values, docs/svd.md); declining sends the call to Jacobi.
      R lhs = 0, rhs = 0;
      for (index q = 0; q < K; ++q) {
        lhs += sig[q] * sig[q];
        rhs += zh[q] * zh[q] + dh[q] * dh[q];
      }
      if (!(std::abs(lhs - rhs) <= R(64) * R(K) * eps * rhs)) return false;
    }
    // U_node = GU·diag(Û, I), V_node = GV·diag(V̂, I, 1) with GU, GV the factors' columns
    // in the order entry 0, kept entries (ascending d), deflated ones, (sqre) V's null
    // column; per block of rows only the columns that are nonzero there take part.
    auto src = [&](index q) { return q == 0 ? nl : col[keep[q - 1]]; };
    auto rows_gemm = [&](const R* G, index ldg, index rlo, index rhi, const std::vector<index>& L, const R* H,
                         R* out, index ldo) {
      const index r = rhi - rlo, c = index(L.size());
      if (r <= 0) return;
      if (c == 0) {
        for (index j = 0; j < K; ++j) std::fill(out + rlo + j * ldo, out + rhi + j * ldo, R(0));
        return;
      }
      R* Gs = wG;
      R* Hs = wH;
      for (index p = 0; p < c; ++p) std::copy(G + rlo + src(L[p]) * ldg, G + rhi + src(L[p]) * ldg, Gs + p * r);
      for (index j = 0; j < K; ++j)
        for (index p = 0; p < c; ++p) Hs[p + j * c] = H[L[p] + j * K];
      gemm<R>(R(1), MatRef<R>{Gs, r, c, 1, r, false}, MatRef<R>{Hs, c, K, 1, c, false}, R(0),
              MatMut<R>{out + rlo, r, K, 1, ldo}, th);
    };
    std::vector<index> top, bot, vtop, vbot;
    for (index q = 0; q < K; ++q) {
      const unsigned char su = q == 0 ? 0 : side[keep[q - 1]];
      const unsigned char sv = q == 0 ? (sqre ? 3 : 1) : su;
      if (su & 1) top.push_back(q);
      if (su & 2) bot.push_back(q);
      if (sv & 1) vtop.push_back(q);
      if (sv & 2) vbot.push_back(q);
    }
    rows_gemm(GUn, n, 0, nl, top, Uh, Ub, ldu);
    rows_gemm(GUn, n, nl + 1, n, bot, Uh, Ub, ldu);
    for (index j = 0; j < K; ++j) Ub[nl + j * ldu] = Uh[j * K];
    rows_gemm(GVn, m, 0, nl + 1, vtop, Vh, Vb, ldv);
    rows_gemm(GVn, m, nl + 1, m, vbot, Vh, Vb, ldv);
    for (index q = 0; q < index(defl.size()); ++q) {
      std::copy(GUn + col[defl[q]] * n, GUn + (col[defl[q]] + 1) * n, Ub + (K + q) * ldu);
      std::copy(GVn + col[defl[q]] * m, GVn + (col[defl[q]] + 1) * m, Vb + (K + q) * ldv);
    }
    if (sqre) std::copy(GVn + (m - 1) * m, GVn + m * m, Vb + (m - 1) * ldv);
    for (index q = 0; q < K; ++q) d[r0 + q] = sig[q];
    for (index q = 0; q < index(defl.size()); ++q) d[r0 + K + q] = dv[defl[q]];
    return true;
  }

  // The K×K broken arrow [z; diag(dh)] (dh_0 = 0): values sig, left vectors Û, right V̂.
  static bool merge_secular(index K, const R* dh, const R* zh, R* sig, R* Uh, R* Vh) {
    std::vector<R> z2(static_cast<size_t>(K)), big(static_cast<size_t>(K));
    R zz = 0;
    for (index k = 0; k < K; ++k) {
      z2[k] = zh[k] * zh[k];
      zz += z2[k];
    }
    // Uh(k, i) = dh_k − σ_i, Vh(k, i) = dh_k + σ_i, both accurate through σ_i = d_o + τ.
    for (index i = 0; i < K; ++i) {
      index o;
      R tau;
      if (!secular_root(K, dh, z2.data(), zz, i, o, tau, big.data())) return false;
      sig[i] = dh[o] + tau;
      for (index k = 0; k < K; ++k) {
        Uh[k + i * K] = (dh[k] - dh[o]) - tau;
        Vh[k + i * K] = (dh[k] + dh[o]) + tau;
      }
    }
    // Gu–Eisenstat: the z for which the computed σ are exact, so the vectors are orthogonal.
    std::vector<R> zr(static_cast<size_t>(K));
    for (index k = 0; k < K; ++k) {
      R p = std::abs(Uh[k + (K - 1) * K] * Vh[k + (K - 1) * K]);
      for (index i = 0; i < k; ++i)
        p *= std::abs(Uh[k + i * K] * Vh[k + i * K]) / std::abs((dh[i] - dh[k]) * (dh[i] + dh[k]));
      for (index i = k; i < K - 1; ++i)
        p *= std::abs(Uh[k + i * K] * Vh[k + i * K]) / std::abs((dh[i + 1] - dh[k]) * (dh[i + 1] + dh[k]));
      zr[k] = std::copysign(std::sqrt(p), zh[k]);
    }
    for (index i = 0; i < K; ++i) {
      R* u = Uh + i * K;
      R* v = Vh + i * K;
      R nu = 1, nv = 0;
      for (index k = 0; k < K; ++k) {
        const R vk = zr[k] / (u[k] * v[k]);
        v[k] = vk;
        nv += vk * vk;
        if (k > 0) {
          u[k] = dh[k] * vk;
          nu += u[k] * u[k];
        }
      }
      u[0] = -1;
      nu = 1 / std::sqrt(nu);
      nv = 1 / std::sqrt(nv);
      for (index k = 0; k < K; ++k) {
        u[k] *= nu;
        v[k] *= nv;
      }
    }
    for (index q = 0; q < K * K; ++q)
      if (!std::isfinite(Uh[q]) || !std::isfinite(Vh[q])) return false;
    return true;
  }
};

}  // namespace

template <class R>
bool bdsdc(index n, const R* d, const R* e, R* s, R* U, index ldu, R* V, index ldv, int max_threads, index leaf) {
  if (n <= 0) return true;
  R mx = 0;
  for (index i = 0; i < n; ++i) mx = std::max(mx, std::abs(d[i]));
  for (index i = 0; i + 1 < n; ++i) mx = std::max(mx, std::abs(e[i]));
  if (!std::isfinite(mx)) return false;
  for (index j = 0; j < n; ++j) {
    std::fill(U + j * ldu, U + j * ldu + n, R(0));
    std::fill(V + j * ldv, V + j * ldv + n, R(0));
  }
  if (mx == 0) {
    for (index j = 0; j < n; ++j) {
      s[j] = 0;
      U[j + j * ldu] = 1;
      V[j + j * ldv] = 1;
    }
    return true;
  }
  // Exact scaling to max entry in [1, 2).
  const R scale = std::ldexp(R(1), std::ilogb(mx));
  std::vector<R> dd(static_cast<size_t>(n)), ee(static_cast<size_t>(n), R(0));
  for (index i = 0; i < n; ++i) dd[i] = d[i] / scale;
  for (index i = 0; i + 1 < n; ++i) ee[i] = e[i] / scale;
  // Kept per thread between calls (as the GEMM's packing buffers): fresh pages of this
  // size cost more in page faults than a merge's arithmetic (docs/svd.md).
  thread_local std::vector<R> ws;
  const size_t w = static_cast<size_t>(n + 1) * static_cast<size_t>(n + 1);
  if (ws.size() < 6 * w) ws.resize(6 * w);
  R* p0 = ws.data();
  Dc<R> dc{dd.data(), ee.data(), U, ldu, V, ldv, max_threads, leaf > 0 ? std::max<index>(leaf, 2) : kDcLeaf,
           p0, p0 + w, p0 + 2 * w, p0 + 3 * w, p0 + 4 * w, p0 + 5 * w};
  if (!dc.node(0, n, 0)) return false;
  // Descending order, columns of U and V permuted along.
  std::vector<index> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), index(0));
  std::stable_sort(p.begin(), p.end(), [&](index a, index b) { return dd[a] > dd[b]; });
  R* tmp = p0;
  for (R* M : {U, V}) {
    const index ld = M == U ? ldu : ldv;
    for (index j = 0; j < n; ++j) std::copy(M + p[j] * ld, M + p[j] * ld + n, tmp + j * n);
    for (index j = 0; j < n; ++j) std::copy(tmp + j * n, tmp + (j + 1) * n, M + j * ld);
  }
  for (index j = 0; j < n; ++j) {
    s[j] = dd[p[j]] * scale;
    if (!std::isfinite(s[j])) return false;
  }
  return true;
}

template bool bdsdc<float>(index, const float*, const float*, float*, float*, index, float*, index, int, index);
template bool bdsdc<double>(index, const double*, const double*, double*, double*, index, double*, index, int,
                            index);

}  // namespace lapis::svd_detail
