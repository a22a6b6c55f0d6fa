// getrf on one thread and on two (parallel row interchanges and leaf-panel copies), every
// type, square and tall, sizes large enough that the threaded paths run: the backward
// error ‖P·A − L·U‖ of both. (Not bit for bit: the threaded GEMM and TRSM may round
// differently, e.g. float at n = 1030.)
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lapis/lu.hpp"
#include "lapis/parallel.hpp"
#include "test_util.hpp"

namespace {

int failures = 0, checks = 0;
int row_step = 7;  // rows of P·A − L·U checked: every row_step-th

template <class T> void check(int m, int n, int threads) {
  using R = lapis::real_t<T>;
  std::mt19937_64 rng(static_cast<unsigned>(m * 131 + n));
  std::vector<T> A(static_cast<size_t>(m) * n);
  for (auto& x : A) x = lapis_test::uniform<T>(rng);
  std::vector<T> f = A;
  const int mn = std::min(m, n);
  std::vector<int32_t> piv(mn);
  const int32_t info = lapis::getrf<T>(m, n, f.data(), n, piv.data(), threads);
  // P·A − L·U on every row_step-th row, max norm, relative to max|A|·n·eps
  std::vector<T> PA = A;
  for (int i = 0; i < mn; ++i) {
    const int p = piv[i] - 1;
    if (p != i)
      for (int j = 0; j < n; ++j) std::swap(PA[static_cast<size_t>(i) * n + j], PA[static_cast<size_t>(p) * n + j]);
  }
  double err = 0, amax = 0;
  for (int i = 0; i < m; i += row_step)
    for (int j = 0; j < n; ++j) {
      std::complex<long double> s = 0;
      for (int k = 0; k <= std::min({i, j, mn - 1}); ++k) {
        const T l = k == i ? T(1) : f[static_cast<size_t>(i) * n + k];
        const T u = f[static_cast<size_t>(k) * n + j];
        s += std::complex<long double>(std::real(l), std::imag(l)) * std::complex<long double>(std::real(u), std::imag(u));
      }
      const T a = PA[static_cast<size_t>(i) * n + j];
      err = std::max(err, static_cast<double>(std::abs(std::complex<long double>(std::real(a), std::imag(a)) - s)));
      amax = std::max(amax, static_cast<double>(std::abs(a)));
    }
  const double ratio = err / (amax * n * static_cast<double>(std::numeric_limits<R>::epsilon()));
  ++checks;
  if (info != 0 || !(ratio < 4.0)) {
    ++failures;
    std::printf("FAIL %s %dx%d threads=%d: info %d, backward error %.3g n·eps\n", lapis_test::Info<T>::name, m, n,
                threads, info, ratio);
  }
}

template <class T> void one(int m, int n) {
  check<T>(m, n, 1);
  check<T>(m, n, 2);
}

}  // namespace

int main(int argc, char** argv) {
  // --quick (the qemu runs, where long double is emulated in software): one size, fewer rows.
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  if (quick) row_step = 41;
  lapis::set_num_threads(2);
  const std::vector<std::pair<int, int>> sizes =
      quick ? std::vector<std::pair<int, int>>{{520, 520}} : std::vector<std::pair<int, int>>{{520, 520}, {1030, 1030}, {1300, 600}};
  for (auto [m, n] : sizes) {
    one<float>(m, n);
    one<double>(m, n);
    one<std::complex<float>>(m, n);
    one<std::complex<double>>(m, n);
  }
  std::printf("test_lu_threads: %d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
