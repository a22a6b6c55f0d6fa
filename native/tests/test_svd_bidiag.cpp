// C++-only test of the bidiagonal route to singular values (native/src/svd/bidiag.cpp):
// bdsqr_values and dqds_values on random and graded bidiagonals against Jacobi on the same (dense)
// bidiagonal, every value to high relative accuracy; gebrd + bdsqr (svdvals_bidiag and
// gebrd with small panels) against Jacobi's values to eps·σ_max on random shapes that
// cross the panel width, the unblocked remainder and the QR-first crossover; and which
// route SvdOptions::Values::Auto takes (graded input keeps Jacobi's values bit for bit);
// the dense cases and the routing also for complex<float> and complex<double>.
// Exits non-zero on any failure.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "../src/svd/bidiag.hpp"
#include "lapis/svd.hpp"
#include "test_util.hpp"

using lapis::index;
using lapis::SvdOptions;
using lapis_test::Info;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261202);

void check(bool ok, const char* what, const char* type, index m, index n, double v, double bound) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s %s %td×%td: %.3g (bound %.3g)\n", what, type, m, n, v, bound);
  }
}

template <class T>
std::vector<lapis::real_t<T>> jacobi_values(const std::vector<T>& A, index m, index n) {
  SvdOptions o;
  o.values = SvdOptions::Values::Jacobi;
  std::vector<lapis::real_t<T>> S(static_cast<size_t>(std::min(m, n)));
  lapis::svd<T>(A.data(), m, n, S.data(), nullptr, nullptr, false, false, 1, o);
  return S;
}

// bdsqr on a bidiagonal whose entries span `decades` orders of magnitude: every value to
// a small multiple of n·eps relatively, against Jacobi on the same matrix.
template <class T>
void bidiagonal_case(index n, double decades) {
  std::vector<T> d(static_cast<size_t>(n)), e(static_cast<size_t>(std::max<index>(n - 1, 1)));
  std::uniform_real_distribution<double> u(0.5, 1.0);
  for (index i = 0; i < n; ++i) d[i] = T(u(g_rng) * std::pow(10.0, -decades * double(i) / double(std::max<index>(n - 1, 1))));
  for (index i = 0; i + 1 < n; ++i)
    e[i] = T(u(g_rng) * std::pow(10.0, -decades * (double(i) + 0.5) / double(std::max<index>(n - 1, 1))));
  std::vector<T> A(static_cast<size_t>(n * n), T(0));
  for (index i = 0; i < n; ++i) {
    A[i * n + i] = d[i];
    if (i + 1 < n) A[i * n + i + 1] = e[i];
  }
  const std::vector<T> ref = jacobi_values(A, n, n);
  std::vector<T> dq(d);
  const bool took = lapis::svd_detail::dqds_values<T>(n, dq.data(), e.data());
  // Graded float data leaves the range of normal squares: dqds may decline there.
  if (decades == 0) check(took, "dqds accepts an ungraded bidiagonal", Info<T>::name, n, n, took, 1);
  std::sort(dq.begin(), dq.end(), [](T a, T b) { return a > b; });
  const int info = lapis::svd_detail::bdsqr_values<T>(n, d.data(), e.data());
  check(info == 0, "bdsqr info", Info<T>::name, n, n, info, 0);
  for (auto& x : d) x = std::abs(x);
  std::sort(d.begin(), d.end(), [](T a, T b) { return a > b; });
  double worst = 0;
  for (index i = 0; i < n; ++i) worst = std::max(worst, double(std::abs(d[i] - ref[i]) / ref[i]));
  const double bound = 30.0 * double(n) * double(std::numeric_limits<T>::epsilon());
  check(worst <= bound, "bdsqr relative error", Info<T>::name, n, n, worst, bound);
  if (took) {
    worst = 0;
    for (index i = 0; i < n; ++i) worst = std::max(worst, double(std::abs(dq[i] - ref[i]) / ref[i]));
    check(worst <= bound, "dqds relative error", Info<T>::name, n, n, worst, bound);
  }
}

// Entries spread over `decades` in random order: the smallest value can lie far below
// every entry. σ_min against 1/σ_max(B⁻¹), B⁻¹ formed exactly up to rounding (its
// entries are signed products of e/d) and its largest value accurate in any backward
// stable SVD: dqds (where it accepts) and bdsqr to 30·n·eps relatively.
template <class T>
void random_order_case(index n, double decades) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<T> d(static_cast<size_t>(n)), e(static_cast<size_t>(n));
  for (index i = 0; i < n; ++i) {
    d[i] = T(std::pow(10.0, -decades * u(g_rng)));
    e[i] = T(std::pow(10.0, -decades * u(g_rng)));
  }
  std::vector<T> Bi(static_cast<size_t>(n * n), T(0));
  for (index i = 0; i < n; ++i) {
    T v = T(1) / d[i];
    Bi[i * n + i] = v;
    for (index j = i + 1; j < n; ++j) Bi[i * n + j] = v = -v * e[j - 1] / d[j];
  }
  const T ref = T(1) / jacobi_values(Bi, n, n)[0];
  const double bound = 30.0 * double(n) * double(std::numeric_limits<T>::epsilon());
  std::vector<T> dq(d);
  if (lapis::svd_detail::dqds_values<T>(n, dq.data(), e.data())) {
    const T s = *std::min_element(dq.begin(), dq.end());
    check(std::abs(s - ref) <= T(bound) * ref, "dqds σ_min, random-order grading", Info<T>::name, n, n,
          double(std::abs(s - ref) / ref), bound);
  }
  std::vector<T> db(d), eb(e);
  lapis::svd_detail::bdsqr_values<T>(n, db.data(), eb.data());
  T s = std::abs(db[0]);
  for (auto x : db) s = std::min(s, std::abs(x));
  check(std::abs(s - ref) <= T(bound) * ref, "bdsqr σ_min, random-order grading", Info<T>::name, n, n,
        double(std::abs(s - ref) / ref), bound);
}

// Values of a random m×n matrix by the bidiagonal route (svdvals_bidiag, or gebrd with
// panel width nb on `threads` threads then bdsqr) against Jacobi's: |σ − σ_ref| ≤
// 30·max(m, n)·eps·σ_max.
// Complex T: zgebrd's real bidiagonal.
template <class T>
void dense_case(index m, index n, index nb, int threads = 1) {
  using R = lapis::real_t<T>;
  std::vector<T> A(static_cast<size_t>(m * n));
  for (auto& x : A) x = lapis_test::normal<T>(g_rng);
  const std::vector<R> ref = jacobi_values(A, m, n);
  const index k = std::min(m, n);
  std::vector<R> S(static_cast<size_t>(k));
  if (nb == 0) {
    SvdOptions o;
    o.values = SvdOptions::Values::Bidiagonal;
    const int info = lapis::svd<T>(A.data(), m, n, S.data(), nullptr, nullptr, false, false, 0, o);
    check(info == 0, "svdvals_bidiag info", Info<T>::name, m, n, info, 0);
  } else {
    // gebrd directly (tall: A column-major is row-major Aᵀ's data, so use the transpose).
    const index mm = std::max(m, n), nn = k;
    std::vector<T> B(static_cast<size_t>(mm * nn));
    for (index i = 0; i < m; ++i)
      for (index j = 0; j < n; ++j) {
        if (m >= n) B[i + j * m] = A[i * n + j];
        else B[j + i * n] = A[i * n + j];
      }
    std::vector<R> e(static_cast<size_t>(nn));
    std::vector<T> tq(static_cast<size_t>(nn)), tp(static_cast<size_t>(nn));
    lapis::svd_detail::gebrd<T>(B.data(), mm, nn, mm, S.data(), e.data(), tq.data(), tp.data(), threads, nb);
    const int info = lapis::svd_detail::bdsqr_values<R>(nn, S.data(), e.data());
    check(info == 0, "gebrd+bdsqr info", Info<T>::name, m, n, info, 0);
    for (auto& x : S) x = std::abs(x);
    std::sort(S.begin(), S.end(), [](R a, R b) { return a > b; });
  }
  double worst = 0;
  for (index i = 0; i < k; ++i) worst = std::max(worst, double(std::abs(S[i] - ref[i])));
  const double ratio = k ? worst / (double(std::max(m, n)) * double(std::numeric_limits<R>::epsilon()) * double(ref[0])) : 0;
  check(ratio < 30, nb ? "gebrd(nb)+bdsqr vs Jacobi" : "svdvals_bidiag vs Jacobi", Info<T>::name, m, n, ratio, 30);
}

// labrd's trailing products cut into pieces over two threads (from 32768 real
// multiply-adds: every gebrd tries its first ones in pieces, later ones too unless a
// helper was late): square, tall and wide, uneven pieces, the last panels on one thread.
bool g_quick = false;  // --quick (qemu): one panel width and the smallest shapes that split

template <class T>
void two_thread_cases() {
  const index shapes[][2] = {{97, 97}, {130, 97}, {200, 180}, {97, 130}, {300, 260}, {260, 300}, {333, 333}};
  for (index k = 0; k < (g_quick ? 3 : 7); ++k) {
    dense_case<T>(shapes[k][0], shapes[k][1], 32, 2);
    if (!g_quick) dense_case<T>(shapes[k][0], shapes[k][1], 8, 2);
  }
}

// Auto: column-graded input keeps Jacobi (bit-identical values), ungraded takes bidiag.
template <class T>
void auto_choice(index n) {
  using R = lapis::real_t<T>;
  std::vector<T> A(static_cast<size_t>(n * n));
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) A[i * n + j] = lapis_test::normal<T>(g_rng) * R(std::pow(10.0, -0.25 * double(j)));
  std::vector<R> S(static_cast<size_t>(n));
  lapis::svd<T>(A.data(), n, n, S.data(), nullptr, nullptr, false, false, 1);
  const std::vector<R> ref = jacobi_values(A, n, n);
  check(S == ref, "graded input: Auto gives Jacobi's values", Info<T>::name, n, n, 0, 0);
  for (auto& x : A) x = lapis_test::normal<T>(g_rng);
  lapis::svd<T>(A.data(), n, n, S.data(), nullptr, nullptr, false, false, 1);
  SvdOptions o;
  o.values = SvdOptions::Values::Bidiagonal;
  std::vector<R> Sb(static_cast<size_t>(n));
  lapis::svd<T>(A.data(), n, n, Sb.data(), nullptr, nullptr, false, false, 1, o);
  check(S == Sb, "ungraded input: Auto takes the bidiagonal route", Info<T>::name, n, n, 0, 0);
}

// Dense shapes at the default panel width (16) and at 4 and 32 (unblocked remainder, QR-first
// crossover), two threads, and the Auto routing: shared by the real and complex runs.
template <class T>
void dense_and_routing() {
  const index shapes[][2] = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {5, 3}, {31, 31}, {33, 33}, {64, 64},
                             {65, 65}, {100, 100}, {130, 97}, {97, 130}, {160, 100}, {161, 100}, {300, 90},
                             {90, 300}, {200, 200}};
  for (const auto& s : shapes) dense_case<T>(s[0], s[1], 0);
  for (const auto& s : shapes) dense_case<T>(s[0], s[1], 4);
  dense_case<T>(150, 120, 32);
  two_thread_cases<T>();
  auto_choice<T>(40);
}

template <class T>
void run_type() {
  for (index n : {1, 2, 3, 5, 17, 64, 150}) {
    bidiagonal_case<T>(n, 0);
    bidiagonal_case<T>(n, std::is_same_v<T, float> ? 20 : 100);
  }
  // double: 20 decades over ≤ 13 entries keeps B⁻¹ finite (dqds used to drop e's that
  // were small only next to their q here); float: 3 decades over ≤ 8.
  for (int rep = 0; rep < 2000; ++rep)
    if constexpr (std::is_same_v<T, double>) random_order_case<T>(2 + rep % 12, 20);
    else random_order_case<T>(2 + rep % 7, 3);
  dense_and_routing<T>();
}

}  // namespace

// Complex: the same dense shapes (panel width, unblocked remainder, QR-first crossover)
// through zgebrd's real bidiagonal, and the Auto routing.
template <class T>
void run_complex() {
  dense_and_routing<T>();
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) g_quick = g_quick || std::string(argv[i]) == "--quick";
  run_type<double>();
  run_type<float>();
  run_complex<std::complex<double>>();
  run_complex<std::complex<float>>();
  std::printf("test_svd_bidiag: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures ? 1 : 0;
}
