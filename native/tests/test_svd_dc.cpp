// C++-only test of the SVD with vectors by bidiagonalization and divide and conquer
// (native/src/svd/bdsdc.cpp, svd_bidiag in bidiag.cpp): LAPACK's ratios
// ‖A − U·Σ·Vᴴ‖/(max(m,n)·eps·‖A‖) < 30, ‖UᴴU − I‖/(n·eps) < 30 and the same for V,
// values sorted and matching Jacobi's to eps·σ_max, on random, rank-deficient, clustered
// and repeated, tiny and huge inputs, square sizes 1…300 around the leaf size and powers
// of two, tall, wide, full and thin, float, double, complex<float> and complex<double>
// (complex gebrd, real bdsdc, complex back-transforms; ratios with Uᴴ and Vᴴ); bdsdc
// alone with small leaves so every size runs many merges; and the routing of lapis::svd
// (ungraded input takes this route, bit for bit). Exits non-zero on any failure.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../src/svd/bdsdc.hpp"
#include "../src/svd/bidiag.hpp"
#include "lapis/qr.hpp"
#include "lapis/svd.hpp"
#include "test_util.hpp"

using lapis::index;
using lapis::SvdOptions;
using lapis_test::Info;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261203);

void check(bool ok, const char* what, const char* type, const char* kind, index m, index n, double v, double bound) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s %s %s %td×%td: %.3g (bound %.3g)\n", what, type, kind, m, n, v, bound);
  }
}

using lapis_test::Wide;
using lapis_test::wide;
using lapis_test::wconj;

// |x|² of a real or complex long double.
template <class W>
long double sq(W x) {
  if constexpr (lapis::is_complex_v<W>) return std::norm(x);
  else return x * x;
}

// a·b without the library's NaN/Inf recovery (__mulxc3, a call per product: most of the
// test's time otherwise).
template <class W>
W mulw(W a, W b) {
  if constexpr (lapis::is_complex_v<W>)
    return W(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else return a * b;
}

// ‖QᴴQ − I‖_F / (cols·eps) for the column-major-by-accessor rows×cols Q (q returns Wide).
template <class Get>
long double orth_ratio(Get q, index rows, index cols, long double eps) {
  using W = decltype(q(0, 0));
  long double s = 0;
  for (index a = 0; a < cols; ++a)
    for (index b = a; b < cols; ++b) {
      W dot = 0;
      for (index i = 0; i < rows; ++i) dot += mulw(wconj(q(i, a)), q(i, b));
      const long double r = sq(dot - W(a == b ? 1.0L : 0.0L));
      s += (a == b ? 1 : 2) * r;
    }
  return std::sqrt(s) / (static_cast<long double>(std::max<index>(cols, 1)) * eps);
}

// The double-precision type the inputs are built in: complex<double> for complex T.
template <class T>
using Base = std::conditional_t<lapis::is_complex_v<T>, std::complex<double>, double>;
template <class T>
T narrow(Base<T> x) {
  if constexpr (lapis::is_complex_v<T>) {
    using R = typename T::value_type;
    return T(static_cast<R>(x.real()), static_cast<R>(x.imag()));
  } else {
    return static_cast<T>(x);
  }
}
template <class B, class Dist>
B draw(Dist& d) {
  if constexpr (lapis::is_complex_v<B>) {
    const double re = d(g_rng), im = d(g_rng);
    return B(re, im);
  } else {
    return d(g_rng);
  }
}

// Random orthogonal (unitary for complex B) n×n (row-major) from the QR of a Gaussian matrix.
template <class B>
std::vector<B> orthogonal(index n) {
  std::vector<B> G(static_cast<size_t>(n * n)), Q(G.size()), Rr(G.size());
  std::normal_distribution<double> g(0.0, 1.0);
  for (auto& x : G) x = draw<B>(g);
  lapis::qr<B>(G.data(), n, n, lapis::QrMode::Reduced, Q.data(), Rr.data(), 1);
  return Q;
}

enum class Kind { Random, RankDeficient, Repeated, Clustered, Tiny, Huge };
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Random: return "random";
    case Kind::RankDeficient: return "rank-deficient";
    case Kind::Repeated: return "repeated";
    case Kind::Clustered: return "clustered";
    case Kind::Tiny: return "tiny";
    case Kind::Huge: return "huge";
  }
  return "?";
}

template <class T>
std::vector<T> make(Kind kind, index m, index n) {
  using B = Base<T>;
  using R = lapis::real_t<T>;
  const index k = std::min(m, n);
  std::vector<T> A(static_cast<size_t>(m * n));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if (kind == Kind::Random || kind == Kind::Tiny || kind == Kind::Huge) {
    const double f = kind == Kind::Random ? 1.0
                     : std::is_same_v<R, float> ? (kind == Kind::Tiny ? 1e-30 : 1e30)
                                                : (kind == Kind::Tiny ? 1e-300 : 1e300);
    for (auto& x : A) x = narrow<T>(draw<B>(u) * f);
    return A;
  }
  if (kind == Kind::RankDeficient) {
    const index r = std::max<index>(1, k / 3);
    std::vector<B> X(static_cast<size_t>(m * r)), Y(static_cast<size_t>(r * n));
    for (auto& x : X) x = draw<B>(u);
    for (auto& y : Y) y = draw<B>(u);
    for (index i = 0; i < m; ++i)
      for (index j = 0; j < n; ++j) {
        B s = 0;
        for (index l = 0; l < r; ++l) s += mulw(X[i * r + l], Y[l * n + j]);
        A[i * n + j] = narrow<T>(s);
      }
    return A;
  }
  // A = Q1[:, :k]·diag(σ)·Q2[:, :k]ᴴ with repeated or clustered σ.
  std::vector<double> sig(static_cast<size_t>(k));
  for (index i = 0; i < k; ++i) {
    if (kind == Kind::Repeated) sig[i] = i < k / 2 ? 1.0 : (i < 3 * k / 4 ? 1e-3 : 0.5);
    else sig[i] = (i % 3 == 0 ? 1.0 : 0.25) * (1.0 + 1e-13 * double(i));
  }
  const std::vector<B> Q1 = orthogonal<B>(m), Q2 = orthogonal<B>(n);
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      B s = 0;
      for (index l = 0; l < k; ++l) s += mulw(Q1[i * m + l] * sig[l], lapis_test::wconj(Q2[j * n + l]));
      A[i * n + j] = narrow<T>(s);
    }
  return A;
}

// lapis::svd's scaling: the power of two at or below the largest max(|re|, |im|).
template <class T>
lapis::real_t<T> pow2_scale(const std::vector<T>& A) {
  using R = lapis::real_t<T>;
  R mx = 0;
  for (T x : A) {
    if constexpr (lapis::is_complex_v<T>) mx = std::max(mx, std::max(std::abs(x.real()), std::abs(x.imag())));
    else mx = std::max(mx, std::abs(x));
  }
  return mx > 0 ? std::ldexp(R(1), std::ilogb(mx)) : R(1);
}

template <class T>
T ldexp_t(T x, int e) {
  if constexpr (lapis::is_complex_v<T>) return T(std::ldexp(x.real(), e), std::ldexp(x.imag(), e));
  else return std::ldexp(x, e);
}

long g_declined = 0;

template <class T>
void dense_case(Kind kind, index m, index n, bool full) {
  using R = lapis::real_t<T>;
  using W = Wide<T>;
  const char* tn = Info<T>::name;
  const char* kn = kind_name(kind);
  const index k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
  const std::vector<T> A = make<T>(kind, m, n);
  const R scale = pow2_scale(A);
  std::vector<R> S(static_cast<size_t>(k));
  std::vector<T> U(static_cast<size_t>(m * uc)), Vh(static_cast<size_t>(vr * n));
  const bool ok = lapis::svd_detail::svd_bidiag<T>(A.data(), m, n, scale, S.data(), U.data(), Vh.data(), full, 1);
  // Float with many equal values: bdsdc's trace check may decline a merge (then
  // lapis::svd answers by Jacobi, checked below); elsewhere a decline is a failure.
  const bool may_decline = kind == Kind::Repeated && std::is_same_v<R, float>;
  check(ok || may_decline, "svd_bidiag declined", tn, kn, m, n, 0, 0);
  if (!ok && may_decline) {
    ++g_declined;
    SvdOptions bo;
    bo.values = SvdOptions::Values::Bidiagonal;
    lapis::svd<T>(A.data(), m, n, S.data(), U.data(), Vh.data(), true, full, 1, bo);
  } else if (!ok) {
    return;
  }
  const long double eps = std::numeric_limits<R>::epsilon();
  long double an = 0, rn = 0;
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      W s = wide(A[i * n + j]);
      an += sq(s);
      for (index l = 0; l < k; ++l) s -= mulw(wide(U[i * uc + l]) * static_cast<long double>(S[l]), wide(Vh[l * n + j]));
      rn += sq(s);
    }
  an = std::sqrt(an);
  const long double res = an > 0 ? std::sqrt(rn) / (std::max(m, n) * eps * an) : std::sqrt(rn);
  check(res < 30, "‖A − UΣVᴴ‖ ratio", tn, kn, m, n, double(res), 30);
  const long double ou = orth_ratio([&](index i, index j) { return wide(U[i * uc + j]); }, m, uc, eps);
  check(ou < 30, "‖UᴴU − I‖ ratio", tn, kn, m, n, double(ou), 30);
  const long double ov = orth_ratio([&](index i, index j) { return wconj(wide(Vh[j * n + i])); }, n, vr, eps);
  check(ov < 30, "‖VᴴV − I‖ ratio", tn, kn, m, n, double(ov), 30);
  bool sorted = true;
  for (index i = 0; i < k; ++i) sorted = sorted && S[i] >= 0 && (i == 0 || S[i] <= S[i - 1]);
  check(sorted, "values sorted, ≥ 0", tn, kn, m, n, 0, 0);
  // Values against Jacobi's (values only): backward stable, so within c·k·eps·σ_max.
  SvdOptions jo;
  jo.values = SvdOptions::Values::Jacobi;
  std::vector<R> Sj(static_cast<size_t>(k));
  lapis::svd<T>(A.data(), m, n, Sj.data(), nullptr, nullptr, false, false, 1, jo);
  long double dev = 0;
  for (index i = 0; i < k; ++i) dev = std::max(dev, std::abs(static_cast<long double>(S[i]) - Sj[i]));
  const long double vr_ = Sj[0] > 0 ? dev / (std::max<index>(k, 1) * eps * Sj[0]) : dev;
  check(vr_ < 30, "values vs Jacobi", tn, kn, m, n, double(vr_), 30);
}

// bdsdc alone on a random bidiagonal with a small leaf: many merges at every size.
template <class T>
void bidiagonal_case(index n, index leaf, bool repeated) {
  const char* tn = Info<T>::name;
  std::vector<T> d(static_cast<size_t>(n)), e(static_cast<size_t>(std::max<index>(n - 1, 1)));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& x : d) x = T(repeated ? 1.0 : u(g_rng));
  for (auto& x : e) x = T(repeated ? 0.0 : u(g_rng));
  if (repeated)
    for (index i = 0; i + 1 < n; i += 7) e[i] = T(1e-3);
  std::vector<T> s(static_cast<size_t>(n)), U(static_cast<size_t>(n * n)), V(static_cast<size_t>(n * n));
  const bool ok = lapis::svd_detail::bdsdc<T>(n, d.data(), e.data(), s.data(), U.data(), n, V.data(), n, 1, leaf);
  check(ok, "bdsdc declined", tn, "bidiagonal", n, leaf, 0, 0);
  if (!ok) return;
  const long double eps = std::numeric_limits<T>::epsilon();
  long double an = 0, rn = 0;
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) {
      long double b = i == j ? d[i] : (j == i + 1 ? e[i] : 0);
      an += b * b;
      for (index l = 0; l < n; ++l) b -= static_cast<long double>(U[i + l * n]) * s[l] * V[j + l * n];
      rn += b * b;
    }
  const long double res = std::sqrt(rn) / (n * eps * std::sqrt(an));
  check(res < 30, "bdsdc ‖B − UΣVᵀ‖ ratio", tn, "bidiagonal", n, leaf, double(res), 30);
  const long double ou = orth_ratio([&](index i, index j) { return wide(U[i + j * n]); }, n, n, eps);
  const long double ov = orth_ratio([&](index i, index j) { return wide(V[i + j * n]); }, n, n, eps);
  check(ou < 30, "bdsdc ‖UᵀU − I‖ ratio", tn, "bidiagonal", n, leaf, double(ou), 30);
  check(ov < 30, "bdsdc ‖VᵀV − I‖ ratio", tn, "bidiagonal", n, leaf, double(ov), 30);
  bool sorted = true;
  for (index i = 0; i < n; ++i) sorted = sorted && s[i] >= 0 && (i == 0 || s[i] <= s[i - 1]);
  check(sorted, "bdsdc values sorted", tn, "bidiagonal", n, leaf, 0, 0);
}

// lapis::svd routes ungraded input with vectors and min(m, n) ≥ 72 (complex: ≥ 16) here
// (bit for bit), graded input not.
template <class T>
void routing_case(index m, index n) {
  using R = lapis::real_t<T>;
  const char* tn = Info<T>::name;
  const index k = std::min(m, n);
  std::vector<T> A = make<T>(Kind::Random, m, n);
  std::vector<R> S(static_cast<size_t>(k)), S2(S);
  std::vector<T> U(static_cast<size_t>(m * k)), Vh(static_cast<size_t>(k * n));
  std::vector<T> U2(U), Vh2(Vh);
  lapis::svd<T>(A.data(), m, n, S.data(), U.data(), Vh.data(), true, false, 1);
  lapis::svd_detail::svd_bidiag<T>(A.data(), m, n, pow2_scale(A), S2.data(), U2.data(), Vh2.data(), false, 1);
  check(S == S2 && U == U2 && Vh == Vh2, "ungraded input takes the bidiagonal route", tn, "random", m, n, 0, 0);
  // Graded: column j scaled by 2^(-4j) → Jacobi, whose values then differ in the last bits.
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) A[i * n + j] = ldexp_t(A[i * n + j], -int(4 * j));
  lapis::svd<T>(A.data(), m, n, S.data(), U.data(), Vh.data(), true, false, 1);
  lapis::svd_detail::svd_bidiag<T>(A.data(), m, n, pow2_scale(A), S2.data(), U2.data(), Vh2.data(), false, 1);
  // The smallest value is far below eps·σ_max: Jacobi has it to a few ulps, the bidiagonal
  // route only to eps·σ_max, so the two must not agree bit for bit.
  check(!(U == U2), "graded input keeps Jacobi", tn, "graded", m, n, 0, 0);
}

// --quick (qemu): the merges, leaves and deflation kinds up to n = 129; no 200…1000 sizes.
bool g_quick = false;

template <class T>
void run_all() {
  for (index n : {1, 2, 3, 5, 10, 24, 25, 26, 27, 49, 50, 51, 52, 64, 100, 127, 128, 129, 200, 256, 300})
    if (!g_quick || n <= 129) dense_case<T>(Kind::Random, n, n, n % 2 == 0);
  for (Kind kd : {Kind::RankDeficient, Kind::Repeated, Kind::Clustered, Kind::Tiny, Kind::Huge})
    for (index n : {7, 26, 60, 130})
      dense_case<T>(kd, n, n, false);
  for (bool full : {false, true})
    for (auto mn : {std::pair<index, index>{300, 20}, {1000, 50}, {20, 300}, {100, 60}, {60, 100}, {513, 256},
                    {200, 1}, {1, 200}, {33, 31}})
      for (Kind kd : {Kind::Random, Kind::RankDeficient, Kind::Repeated})
        if (!g_quick || mn.first * mn.second <= 20000) dense_case<T>(kd, mn.first, mn.second, full);
  // Float, a half of the values equal (1), a quarter 1e-3, a quarter 0.5: about 3% of these
  // draws gave bdsdc a merge whose largest root came out 1/√2 instead of 1; the trace check
  // (Σσ² = ‖M‖_F²) now declines there and Jacobi answers.
  if constexpr (std::is_same_v<T, float>)
    if (!g_quick)
      for (int rep = 0; rep < 60; ++rep) dense_case<T>(Kind::Repeated, 130, 130, false);
  for (index leaf : {2, 3, 5, 25})
    for (index n : {1, 2, 3, 4, 6, 9, 17, 33, 64, 100, 257})
      for (bool rep : {false, true})
        if (!g_quick || n <= 100) bidiagonal_case<T>(n, leaf, rep);
  routing_case<T>(100, 80);
  routing_case<T>(80, 100);
}

// Complex input: zgebrd's real bidiagonal through the same (real) bdsdc, tested above.
// Panel boundaries (16, and the last ≤ 16 columns as one panel), the QR-first crossover
// at 1.6, tall, wide, full and thin, every kind.
template <class T>
void run_complex() {
  for (index n : {1, 2, 3, 5, 26, 33, 64, 65, 97, 128, 129, 200})
    if (!g_quick || n <= 97) dense_case<T>(Kind::Random, n, n, n % 2 == 0);
  for (Kind kd : {Kind::RankDeficient, Kind::Repeated, Kind::Clustered, Kind::Tiny, Kind::Huge})
    for (index n : {7, 60, 130})
      if (!g_quick || n <= 60) dense_case<T>(kd, n, n, false);
  for (bool full : {false, true})
    for (auto mn : {std::pair<index, index>{300, 20}, {20, 300}, {100, 60}, {60, 100}, {100, 63}, {63, 100},
                    {100, 62}, {62, 100}, {200, 1}, {1, 200}, {33, 31}, {31, 33}, {260, 130}, {130, 260}})
      for (Kind kd : {Kind::Random, Kind::RankDeficient})
        if (!g_quick || mn.first * mn.second <= 7000) dense_case<T>(kd, mn.first, mn.second, full);
  routing_case<T>(100, 80);
  routing_case<T>(80, 100);
  routing_case<T>(40, 16);
  routing_case<T>(16, 40);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) g_quick = g_quick || std::string(argv[i]) == "--quick";
  run_all<double>();
  run_all<float>();
  run_complex<std::complex<double>>();
  run_complex<std::complex<float>>();
  // A few of the 60 + 8 float repeated-value draws (about 3–8% measured), never most.
  check(g_declined <= 12, "float repeated-value draws declined by bdsdc", "float", "repeated", g_declined, 0, double(g_declined), 12);
  std::printf("test_svd_dc: %ld checks, %d failures (%ld float repeated-value draws declined to Jacobi)\n", g_checks,
              g_failures, g_declined);
  return g_failures == 0 ? 0 : 1;
}
