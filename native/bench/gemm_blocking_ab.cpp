// Interleaved A/B of GEMM blockings in one process (docs/gemm.md): each round times one call per
// blocking (gemm_detail::set_blocking between calls, the order rotated every round), so every
// blocking sees the same minutes of a machine whose speed drifts; prints each blocking's median
// GFLOP/s and the median [quartiles] of its per-round ratio to the first blocking. One thread:
// the thread's CPU time; more: wall time.
// Build against the kernels-only library:
//   g++ -O2 -std=c++17 -Inative/include native/bench/gemm_blocking_ab.cpp <build>/liblapis_kernels.a -pthread
// Usage: gemm_blocking_ab s|d|c|z n threads rounds mc,kc,nc[,nb[,mb[,shared_from]]] …   (square n³ products;
// nb > 0: the B-resident order with a kc×nb B block and A blocks of mb rows, nb 0: the A-resident nest;
// shared_from 0: the grid at every thread count; -1 or absent keeps the family's value)
#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "lapis/gemm.hpp"
#include "../src/gemm/gemm_kernels.hpp"
using namespace lapis;
using ix = lapis::index;

static double now(int threads) {
  timespec t;
  clock_gettime(threads == 1 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

template <class T>
void run(char dt, ix n, int threads, int rounds, const std::vector<gemm_detail::Blocking>& bl) {
  std::vector<T> a(n * n), b(n * n), c(n * n);
  std::mt19937 r(1);
  std::normal_distribution<double> d;
  for (auto& x : a) x = T(d(r));
  for (auto& x : b) x = T(d(r));
  MatRef<T> A{a.data(), n, n, n, 1}, B{b.data(), n, n, n, 1};
  MatMut<T> C{c.data(), n, n, n, 1};
  const double flops = (is_complex_v<T> ? 8.0 : 2.0) * double(n) * n * n;
  const size_t nb = bl.size();
  std::vector<std::vector<double>> g(nb);
  for (size_t i = 0; i < nb; ++i) {  // warm-up: buffers sized for every blocking
    gemm_detail::set_blocking(dt, bl[i]);
    gemm<T>(T(1), A, B, T(0), C, threads);
  }
  for (int rd = 0; rd < rounds; ++rd)
    for (size_t j = 0; j < nb; ++j) {
      const size_t i = (j + rd) % nb;
      gemm_detail::set_blocking(dt, bl[i]);
      const double t0 = now(threads);
      gemm<T>(T(1), A, B, T(0), C, threads);
      g[i].push_back(flops / (now(threads) - t0) / 1e9);
    }
  for (size_t i = 0; i < nb; ++i) {
    std::vector<double> v = g[i], ratio;
    for (int rd = 0; rd < rounds; ++rd) ratio.push_back(g[i][rd] / g[0][rd]);
    std::sort(v.begin(), v.end());
    std::sort(ratio.begin(), ratio.end());
    std::printf("%c %ldx%ldx%ld t%d mc%ld kc%ld nc%ld nb%ld mb%ld sh%d: median %.1f (min %.1f max %.1f) ratio-vs-first median %.3f [%.3f..%.3f]\n",
                dt, long(n), long(n), long(n), threads, long(bl[i].mc), long(bl[i].kc), long(bl[i].nc), long(bl[i].nb), long(bl[i].mb), bl[i].shared_from, v[rounds / 2], v[0],
                v.back(), ratio[rounds / 2], ratio[rounds / 4], ratio[3 * rounds / 4]);
  }
}

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: gemm_blocking_ab s|d|c|z n threads rounds mc,kc,nc [mc,kc,nc ...]\n");
    return 2;
  }
  const char dt = argv[1][0];
  const ix n = std::atol(argv[2]);
  const int threads = std::atoi(argv[3]), rounds = std::atoi(argv[4]);
  if (n < 1 || threads < 1 || rounds < 1) {
    std::fprintf(stderr, "gemm_blocking_ab: n, threads and rounds must be positive\n");
    return 2;
  }
  std::vector<gemm_detail::Blocking> bl;
  for (int i = 5; i < argc; ++i) {
    long mc = 0, kc = 0, nc = 0, nb = -1, mb = -1, shared = -1;
    if (std::sscanf(argv[i], "%ld,%ld,%ld,%ld,%ld,%ld", &mc, &kc, &nc, &nb, &mb, &shared) < 3) {
      std::fprintf(stderr, "gemm_blocking_ab: blocking %s is not mc,kc,nc\n", argv[i]);
      return 2;
    }
    gemm_detail::Blocking b;
    b.mc = mc;
    b.kc = kc;
    b.nc = nc;
    b.nb = nb;
    b.mb = mb;
    b.shared_from = int(shared);
    bl.push_back(b);
  }
  switch (dt) {
    case 'd': run<double>(dt, n, threads, rounds, bl); break;
    case 's': run<float>(dt, n, threads, rounds, bl); break;
    case 'z': run<std::complex<double>>(dt, n, threads, rounds, bl); break;
    case 'c': run<std::complex<float>>(dt, n, threads, rounds, bl); break;
    default: std::fprintf(stderr, "gemm_blocking_ab: dtype %c is not s, d, c or z\n", dt); return 2;
  }
}
