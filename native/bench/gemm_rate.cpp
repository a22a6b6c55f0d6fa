// GEMM rate of one shape through lapis::gemm (no Node), best of `reps` calls: wall time, or
// the thread's CPU time with GB_CPU=1 (for a loaded machine, one thread). Link against the
// kernels-only build: g++ -O2 -std=c++17 -Inative/include native/bench/gemm_rate.cpp
// <build>/liblapis_kernels.a -pthread. Usage: gemm_rate s|d|c|z m n k threads reps [At] [Bt]
#include <chrono>
#include <ctime>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"
using namespace lapis; using idx = lapis::index;
template <class T> double run(idx m, idx n, idx k, int threads, int reps, bool ta, bool tb) {
  std::vector<T> a(m * k), b(k * n), c(m * n);
  std::mt19937 r(1); std::normal_distribution<double> d;
  for (auto& x : a) { if constexpr (is_complex_v<T>) x = T(d(r), d(r)); else x = T(d(r)); }
  for (auto& x : b) { if constexpr (is_complex_v<T>) x = T(d(r), d(r)); else x = T(d(r)); }
  MatRef<T> A = ta ? MatRef<T>{a.data(), m, k, 1, m} : MatRef<T>{a.data(), m, k, k, 1};
  MatRef<T> B = tb ? MatRef<T>{b.data(), k, n, 1, k} : MatRef<T>{b.data(), k, n, n, 1};
  MatMut<T> C{c.data(), m, n, n, 1};
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    timespec a0, a1; clock_gettime(getenv("GB_CPU") ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &a0);
    gemm<T>(T(1), A, B, T(0), C, threads);
    clock_gettime(getenv("GB_CPU") ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &a1);
    double s = (a1.tv_sec - a0.tv_sec) + 1e-9 * (a1.tv_nsec - a0.tv_nsec);
    if (s < best) best = s;
  }
  double fl = (is_complex_v<T> ? 8.0 : 2.0) * m * n * k;
  return fl / best / 1e9;
}
int main(int argc, char** argv) {
  // gb <dtype s|d|c|z> m n k threads reps [ta] [tb]
  char t = argv[1][0]; idx m = atol(argv[2]), n = atol(argv[3]), k = atol(argv[4]);
  int th = atoi(argv[5]), reps = atoi(argv[6]);
  bool ta = argc > 7 && argv[7][0] == '1', tb = argc > 8 && argv[8][0] == '1';
  double g = t == 's' ? run<float>(m, n, k, th, reps, ta, tb) : t == 'd' ? run<double>(m, n, k, th, reps, ta, tb)
           : t == 'c' ? run<std::complex<float>>(m, n, k, th, reps, ta, tb) : run<std::complex<double>>(m, n, k, th, reps, ta, tb);
  printf("%c %ldx%ldx%ld t%d%s%s: %.1f GFLOP/s\n", t, (long)m, (long)n, (long)k, th, ta?" At":"", tb?" Bt":"", g);
}
