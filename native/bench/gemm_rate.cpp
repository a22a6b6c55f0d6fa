// GEMM rate of one shape through lapis::gemm (no Node), best of `reps` calls, with the
// measured FMA peak of the same thread count beside it. Timing: wall clock, or with
// GB_CPU=1 CPU time (one thread: the calling thread's; several: the process's, divided by
// the thread count), which is what a machine shared with other work allows.
// Build against the kernels-only library:
//   g++ -O2 -std=c++17 -Inative/include native/bench/gemm_rate.cpp <build>/liblapis_kernels.a -pthread
// Usage: gemm_rate s|d|c|z m n k threads reps [At] [Bt]   (GB_PEAK=0 skips the peak probe;
// GB_BLOCK=mc,kc,nc[,nc_thread[,shared_from]] replaces the family's blocking for the sweeps of docs/gemm.md)
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"
#include "lapis/peak.hpp"
#include "../src/gemm/gemm_kernels.hpp"
using namespace lapis;
using idx = lapis::index;

static double now(int threads) {
  const bool cpu = std::getenv("GB_CPU") != nullptr;
  timespec t;
  clock_gettime(!cpu ? CLOCK_MONOTONIC : threads > 1 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &t);
  const double s = t.tv_sec + 1e-9 * t.tv_nsec;
  return cpu && threads > 1 ? s / threads : s;
}

template <class T>
double run(idx m, idx n, idx k, int threads, int reps, bool ta, bool tb) {
  std::vector<T> a(m * k), b(k * n), c(m * n);
  std::mt19937 r(1);
  std::normal_distribution<double> d;
  for (auto& x : a) {
    if constexpr (is_complex_v<T>) x = T(d(r), d(r));
    else x = T(d(r));
  }
  for (auto& x : b) {
    if constexpr (is_complex_v<T>) x = T(d(r), d(r));
    else x = T(d(r));
  }
  MatRef<T> A = ta ? MatRef<T>{a.data(), m, k, 1, m} : MatRef<T>{a.data(), m, k, k, 1};
  MatRef<T> B = tb ? MatRef<T>{b.data(), k, n, 1, k} : MatRef<T>{b.data(), k, n, n, 1};
  MatMut<T> C{c.data(), m, n, n, 1};
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    const double t0 = now(threads);
    gemm<T>(T(1), A, B, T(0), C, threads);
    const double s = now(threads) - t0;
    if (s < best) best = s;
  }
  const double fl = (is_complex_v<T> ? 8.0 : 2.0) * m * n * k;
  return fl / best / 1e9;
}

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: gemm_rate s|d|c|z m n k threads reps [At] [Bt]\n");
    return 2;
  }
  const char t = argv[1][0];
  const idx m = std::atol(argv[2]), n = std::atol(argv[3]), k = std::atol(argv[4]);
  const int th = std::atoi(argv[5]), reps = std::atoi(argv[6]);
  const bool ta = argc > 7 && argv[7][0] == '1', tb = argc > 8 && argv[8][0] == '1';
  if (th > num_threads()) set_num_threads(th);
  if (const char* bl = std::getenv("GB_BLOCK")) {
    gemm_detail::Blocking b;
    long v[5] = {0, 0, 0, -1, -1};
    std::sscanf(bl, "%ld,%ld,%ld,%ld,%ld", &v[0], &v[1], &v[2], &v[3], &v[4]);
    b.mc = v[0], b.kc = v[1], b.nc = v[2], b.nc_thread = v[3], b.shared_from = int(v[4]);
    gemm_detail::set_blocking(t, b);
  }
  const gemm_detail::Blocking used = gemm_detail::blocking(t);
  const double g = t == 's'   ? run<float>(m, n, k, th, reps, ta, tb)
                   : t == 'd' ? run<double>(m, n, k, th, reps, ta, tb)
                   : t == 'c' ? run<std::complex<float>>(m, n, k, th, reps, ta, tb)
                              : run<std::complex<double>>(m, n, k, th, reps, ta, tb);
  const char* pk = std::getenv("GB_PEAK");
  const double peak = pk && pk[0] == '0' ? 0 : peak_gflops(t == 'd' || t == 'z', th, 0.25);
  std::printf("%c %ldx%ldx%ld t%d%s%s mc%ld kc%ld nc%ld nct%ld sh%d: %.1f GFLOP/s", t, long(m), long(n), long(k),
              th, ta ? " At" : "", tb ? " Bt" : "", long(used.mc), long(used.kc), long(used.nc), long(used.nc_thread),
              used.shared_from, g);
  if (peak > 0) std::printf("  peak %.1f  %.0f%%", peak, 100 * g / peak);
  std::printf("\n");
}
