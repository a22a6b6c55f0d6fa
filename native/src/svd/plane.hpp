// Plane helpers shared by the bidiagonal routes (bidiag.cpp, bdsdc.cpp): the 2×2 upper
// triangular SVD values (LAPACK las2) and the Givens rotation (lartg). Internal to native/src/svd.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

namespace lapis::svd_detail {

// LAPACK las2: the singular values of [f g; 0 h], smaller first.
template <class R>
void las2(R f, R g, R h, R& ssmin, R& ssmax) {
  const R fa = std::abs(f), ga = std::abs(g), ha = std::abs(h);
  const R fhmn = std::min(fa, ha), fhmx = std::max(fa, ha);
  if (fhmn == 0) {
    ssmin = 0;
    if (fhmx == 0) ssmax = ga;
    else {
      const R mx = std::max(fhmx, ga), mn = std::min(fhmx, ga);
      ssmax = mx * std::sqrt(1 + (mn / mx) * (mn / mx));
    }
  } else if (ga < fhmx) {
    const R as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx, au = (ga / fhmx) * (ga / fhmx);
    const R c = 2 / (std::sqrt(as * as + au) + std::sqrt(at * at + au));
    ssmin = fhmn * c;
    ssmax = fhmx / c;
  } else {
    const R au = fhmx / ga;
    if (au == 0) {
      // Avoid underflow of fhmn·fhmx·au: the values are fhmn·fhmx/ga and ga.
      ssmin = (fhmn * fhmx) / ga;
      ssmax = ga;
    } else {
      const R as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx;
      const R c = 1 / (std::sqrt(1 + (as * au) * (as * au)) + std::sqrt(1 + (at * au) * (at * au)));
      ssmin = (fhmn * c) * au;
      ssmin = ssmin + ssmin;
      ssmax = ga / (c + c);
    }
  }
}

// LAPACK lartg (3.10 form): c·f + s·g = r, −s·f + c·g = 0, c ≥ 0 when f ≠ 0; the plain
// square root while f² + g² cannot under/overflow, scaled otherwise.
template <class R>
inline void lartg(R f, R g, R& c, R& s, R& r) {
  constexpr R safmin = std::numeric_limits<R>::min();
  const R safmax = 1 / safmin;
  const R rtmin = std::sqrt(safmin), rtmax = std::sqrt(safmax / 2);
  if (g == 0) {
    c = 1;
    s = 0;
    r = f;
  } else if (f == 0) {
    c = 0;
    s = std::copysign(R(1), g);
    r = std::abs(g);
  } else {
    const R f1 = std::abs(f), g1 = std::abs(g);
    if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
      const R dd = std::sqrt(f * f + g * g);
      c = f1 / dd;
      r = std::copysign(dd, f);
      s = g / r;
    } else {
      const R u = std::min(safmax, std::max(safmin, std::max(f1, g1)));
      const R fs = f / u, gs = g / u;
      const R dd = std::sqrt(fs * fs + gs * gs);
      c = std::abs(fs) / dd;
      r = std::copysign(dd, f);
      s = gs / r;
      r *= u;
    }
  }
}

}  // namespace lapis::svd_detail
