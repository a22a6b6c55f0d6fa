// A/B timing driver for the kernel families (no Node): links lapis_kernels and times one
// call shape per family, best of several repetitions. Build against two checkouts and
// compare (issue 11: the SIMD refactor must not change speed). Usage: bench_kernels [reps]
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"
#include "lapis/special.hpp"
#include "lapis/trsm.hpp"

using lapis::index;

namespace {

std::mt19937_64 rng(7);

template <class T> std::vector<T> rnd(size_t n, double diag_boost = 0, index nn = 0) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (lapis::is_complex_v<T>) x = T(u(rng), u(rng));
    else x = T(u(rng));
  }
  if (diag_boost > 0 && nn > 0)
    for (size_t b = 0; b < n / (nn * nn); ++b)
      for (index i = 0; i < nn; ++i) v[b * nn * nn + i * nn + i] += T(diag_boost);
  return v;
}

int g_reps = 15;

void time(const char* name, const std::function<void()>& f) {
  f();
  double best = 1e30;
  for (int r = 0; r < g_reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::printf("%-34s %10.1f us\n", name, best);
}

template <class T> void gemm_case(const char* name, index m, index n, index k) {
  auto a = rnd<T>(m * k), b = rnd<T>(k * n);
  std::vector<T> c(m * n);
  time(name, [&] {
    lapis::gemm<T>(T(1), lapis::MatRef<T>{a.data(), m, k, k, 1}, lapis::MatRef<T>{b.data(), k, n, n, 1}, T(0),
                   lapis::MatMut<T>{c.data(), m, n, n, 1}, 1);
  });
}

template <class T> void solve_case(const char* name, index count, index n, index k) {
  auto A = rnd<T>(count * n * n, n, n), B = rnd<T>(count * n * k);
  std::vector<T> X(count * n * k);
  std::vector<int32_t> info(count);
  time(name, [&] { lapis::solve_batched<T>(count, n, k, A.data(), nullptr, B.data(), nullptr, X.data(), info.data()); });
}

template <class T> void inv_case(const char* name, index count, index n) {
  auto A = rnd<T>(count * n * n, n, n);
  std::vector<T> X(count * n * n);
  std::vector<int32_t> info(count);
  time(name, [&] { lapis::inv_batched<T>(count, n, A.data(), X.data(), info.data()); });
}

template <class T> void trsm_case(const char* name, index count, index n, index k) {
  auto A = rnd<T>(count * n * n, n, n), B = rnd<T>(count * n * k);
  std::vector<T> X(count * n * k);
  time(name, [&] {
    lapis::trsm_batched<T>(lapis::Op::None, false, false, count, n, k, A.data(), nullptr, B.data(), nullptr, X.data());
  });
}

template <class T> void lu_case(const char* name, index count, index n) {
  auto A = rnd<T>(count * n * n);
  std::vector<T> LU(count * n * n);
  std::vector<int32_t> piv(count * n), info(count);
  time(name, [&] { lapis::lu_factor_batched<T>(count, n, n, A.data(), LU.data(), piv.data(), info.data()); });
}

template <class T> void frexp_case(const char* name, index n) {
  auto x = rnd<T>(n);
  std::vector<T> m(n);
  std::vector<int32_t> e(n);
  time(name, [&] { lapis::frexp<T>(n, x.data(), m.data(), e.data()); });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) g_reps = std::atoi(argv[1]);
  std::printf("gemm family: %s\n", lapis::gemm_kernel_name());
  gemm_case<double>("gemm d 48x48x48", 48, 48, 48);
  gemm_case<double>("gemm d 384x384x384 (packed)", 384, 384, 384);
  gemm_case<float>("gemm s 384x384x384 (packed)", 384, 384, 384);
  gemm_case<std::complex<double>>("gemm z 192x192x192", 192, 192, 192);
  gemm_case<std::complex<float>>("gemm c 37x29x41 (edges)", 37, 29, 41);
  solve_case<double>("solve d 4x4 x20000 (tiny lanes)", 20000, 4, 1);
  solve_case<double>("solve d 8x8 x20000 (tiny lanes)", 20000, 8, 1);
  solve_case<float>("solve s 12x12 x20000 (tiny lanes)", 20000, 12, 1);
  solve_case<double>("solve d 16x16 k4 x5000 (lu small)", 5000, 16, 4);
  inv_case<float>("inv s 4x4 x100000", 100000, 4);
  inv_case<double>("inv d 3x3 x100000", 100000, 3);
  inv_case<double>("inv d 4x4 x100000", 100000, 4);
  trsm_case<double>("trsm d 64x64 k64 x256", 256, 64, 64);
  trsm_case<float>("trsm s 24x24 k20 x4000", 4000, 24, 20);
  lu_case<double>("lu d 64x64 x500", 500, 64);
  lu_case<std::complex<double>>("lu z 24x24 x1000", 1000, 24);
  lu_case<double>("lu d 400x400 x1", 1, 400);
  frexp_case<double>("frexp d 1M", 1 << 20);
  frexp_case<float>("frexp s 1M", 1 << 20);
  return 0;
}
