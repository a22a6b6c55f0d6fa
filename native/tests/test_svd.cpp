// C++-only test of lapis::svd through every path SvdOptions selects: the first QR pivoted
// (geqp2) or not, V recovered by a triangular solve or accumulated, each on random,
// row-graded and column-graded inputs, tall and wide, real and complex, with and
// without vectors. Checks LAPACK-style scale-free ratios: ‖A − U·Σ·Vᴴ‖ / (max(m, n)·eps·‖A‖),
// ‖I − UᴴU‖ / (n·eps), ‖I − VᴴV‖ / (n·eps) below 30; S sorted and ≥ 0; the singular values of
// every path agreeing to high relative accuracy (graded inputs: the small values too);
// and that each option does reach its path (its results differ in the last bits).
// Exits non-zero on any failure.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <vector>

#include "lapis/parallel.hpp"
#include "lapis/svd.hpp"
#include "test_util.hpp"

using lapis::index;
using lapis::SvdOptions;
using lapis_test::Info;
using lapis_test::wconj;
using lapis_test::wide;
using lapis_test::Wide;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261201);

template <class T>
T rnd() {
  return lapis_test::normal<T>(g_rng);
}

void check(bool ok, const char* what, const char* type, const char* kind, index m, index n, const char* path,
           long double v) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s %s %s %tdx%td %s: %Lg\n", what, type, kind, m, n, path, v);
  }
}

enum class Kind { Random, RowGraded, ColGraded };
const char* kind_name(Kind k) { return k == Kind::Random ? "random" : k == Kind::RowGraded ? "row-graded" : "col-graded"; }

// Row- or column-graded: scales 1 … 1e-(span) geometrically (float: 1e-6, double: 1e-12).
template <class T>
std::vector<T> make(index m, index n, Kind kind) {
  using R = lapis::real_t<T>;
  const long double span = sizeof(R) == 4 ? 6 : 12;
  std::vector<T> A(static_cast<size_t>(m * n));
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      long double s = 1;
      if (kind == Kind::RowGraded) s = std::pow(10.0L, -span * i / std::max<index>(1, m - 1));
      if (kind == Kind::ColGraded) s = std::pow(10.0L, -span * j / std::max<index>(1, n - 1));
      A[i * n + j] = rnd<T>() * static_cast<R>(s);
    }
  return A;
}

struct Result {
  std::vector<long double> s;
  std::vector<long double> bits;  // U and Vh, to see whether two paths differ
};

template <class T>
Result run(const std::vector<T>& A, index m, index n, const SvdOptions& opts, bool uv, Kind kind, const char* path) {
  using R = lapis::real_t<T>;
  const index k = std::min(m, n);
  const long double u = std::numeric_limits<R>::epsilon();
  std::vector<R> S(static_cast<size_t>(k));
  std::vector<T> U(uv ? static_cast<size_t>(m * k) : 0), Vh(uv ? static_cast<size_t>(k * n) : 0);
  const int info = lapis::svd<T>(A.data(), m, n, S.data(), U.data(), Vh.data(), uv, false, 0, opts);
  const char* tn = Info<T>::name;
  const char* kn = kind_name(kind);
  check(info == 0, "info", tn, kn, m, n, path, info);
  Result res;
  bool sorted = true;
  for (index i = 0; i < k; ++i) {
    res.s.push_back(S[i]);
    sorted = sorted && S[i] >= 0 && (i == 0 || S[i] <= S[i - 1]);
  }
  check(sorted, "S sorted, >= 0", tn, kn, m, n, path, 0);
  if (!uv) return res;
  long double anorm = 0, resid = 0;
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      Wide<T> s{};
      for (index l = 0; l < k; ++l) s += wide(U[i * k + l]) * (long double)S[l] * wide(Vh[l * n + j]);
      resid += std::norm(wide(A[i * n + j]) - s);
      anorm += std::norm(wide(A[i * n + j]));
    }
  const long double r = std::sqrt(resid) / (std::max(m, n) * u * std::sqrt(anorm));
  check(r < 30, "||A - U S Vh|| / (max(m,n) eps ||A||)", tn, kn, m, n, path, r);
  long double ou = 0, ov = 0;
  for (index a = 0; a < k; ++a)
    for (index b = 0; b < k; ++b) {
      Wide<T> su{}, sv{};
      for (index i = 0; i < m; ++i) su += wconj(wide(U[i * k + a])) * wide(U[i * k + b]);
      for (index j = 0; j < n; ++j) sv += wide(Vh[a * n + j]) * wconj(wide(Vh[b * n + j]));
      const long double id = a == b ? 1 : 0;
      ou += std::norm(su - id);
      ov += std::norm(sv - id);
    }
  check(std::sqrt(ou) / (k * u) < 30, "||I - U^H U|| / (n eps)", tn, kn, m, n, path, std::sqrt(ou) / (k * u));
  check(std::sqrt(ov) / (k * u) < 30, "||I - V^H V|| / (n eps)", tn, kn, m, n, path, std::sqrt(ov) / (k * u));
  for (const T& v : U) res.bits.push_back(std::abs(wide(v)));
  for (const T& v : Vh) res.bits.push_back(std::abs(wide(v)));
  return res;
}

template <class T>
void run_type() {
  using R = lapis::real_t<T>;
  const long double u = std::numeric_limits<R>::epsilon();
  const char* tn = Info<T>::name;
  struct Path {
    const char* name;
    SvdOptions opts;
  };
  const Path paths[] = {
      {"default", SvdOptions{}},
      {"pivot=always", SvdOptions{SvdOptions::Pivot::Always, true}},
      {"pivot=never", SvdOptions{SvdOptions::Pivot::Never, true}},
      {"accumulate", SvdOptions{SvdOptions::Pivot::Auto, false}},
      {"pivot=always,accumulate", SvdOptions{SvdOptions::Pivot::Always, false}},
  };
  const index shapes[][2] = {{40, 30}, {30, 40}, {33, 33}, {12, 7}};
  for (Kind kind : {Kind::Random, Kind::RowGraded, Kind::ColGraded}) {
    for (const auto& sh : shapes) {
      const index m = sh[0], n = sh[1], k = std::min(m, n);
      const auto A = make<T>(m, n, kind);
      std::vector<Result> res;
      for (const Path& p : paths) res.push_back(run<T>(A, m, n, p.opts, true, kind, p.name));
      // values without vectors take the same sweeps as the accumulating path
      res.push_back(run<T>(A, m, n, SvdOptions{}, false, kind, "values only"));
      // Every path gives the same values to high relative accuracy: graded inputs keep
      // their small values as accurately as their large ones.
      long double worst = 0;
      for (const Result& r : res)
        for (index i = 0; i < k; ++i)
          worst = std::max(worst, std::abs(r.s[i] - res[0].s[i]) / (k * u * res[0].s[i]));
      check(worst < 30, "S of every path agree (relative, / (n eps))", tn, kind_name(kind), m, n, "all", worst);
      // The options reach their paths: each changes the vectors' last bits. The solve for
      // V runs from n = 24 on and only where R is well conditioned (κ below
      // 1/(64·√eps): a random rectangular double matrix, not a graded one).
      if (k >= 24)
        check(res[1].bits != res[2].bits, "pivot=always differs from pivot=never", tn, kind_name(kind), m, n, "", 0);
      if (k >= 24 && m != n && kind == Kind::Random && sizeof(R) == 8)
        check(res[0].bits != res[3].bits, "accumulate differs from solve-for-V", tn, kind_name(kind), m, n, "", 0);
    }
  }
}

}  // namespace

int main() {
  std::printf("test_svd: threads=%d\n", lapis::num_threads());
  run_type<float>();
  run_type<double>();
  run_type<std::complex<float>>();
  run_type<std::complex<double>>();
  std::printf("test_svd: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
