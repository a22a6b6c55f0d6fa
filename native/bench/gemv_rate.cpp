// Matrix-vector product time through lapis::gemm (C = A·x, n == 1, the gemv path), best of
// `reps` rounds of `inner` calls (GB_MEDIAN=1: their median). Timing: one thread, the calling thread's CPU time (GB_WALL=1:
// wall clock); more threads, wall clock (GB_CPU=1: the process's CPU time divided by the thread count).
// Build against the kernels-only library (see gemm_rate.cpp):
//   g++ -O2 -std=c++17 -Inative/include native/bench/gemv_rate.cpp <build>/liblapis_kernels.a -pthread
// Usage: gemv_rate s|d|c|z m k rows|cols threads reps [inner]
//   rows: A row-major (its rows contiguous, numpy's a @ x); cols: A column-major (a.T @ x).
// A is 2 MiB-aligned and advised for huge pages, as numpy's arrays and lapis's CPU tensors
// of that size are (LAPIS_HUGEPAGES=0: 4 KiB pages, where a stream's prefetch stops at each page).
#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/pages.hpp"
#include "lapis/parallel.hpp"
using namespace lapis;
using idx = lapis::index;

static double now(int threads) {
  const bool cpu = (threads == 1 && std::getenv("GB_WALL") == nullptr) || std::getenv("GB_CPU") != nullptr;
  timespec t;
  clock_gettime(!cpu ? CLOCK_MONOTONIC : threads > 1 ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &t);
  const double s = t.tv_sec + 1e-9 * t.tv_nsec;
  return cpu && threads > 1 ? s / threads : s;
}

template <class T>
double run(idx m, idx k, bool cols, int threads, int reps, int inner) {
  const size_t bytes = (static_cast<size_t>(m * k) * sizeof(T) + (size_t(1) << 21) - 1) & ~((size_t(1) << 21) - 1);
  // GB_OFFSET=b: A starts b bytes past the 2 MiB boundary (a JS typed array's data need not be 64-byte aligned)
  const size_t off = std::getenv("GB_OFFSET") ? std::strtoul(std::getenv("GB_OFFSET"), nullptr, 10) : 0;
  char* base = static_cast<char*>(std::aligned_alloc(size_t(1) << 21, bytes + (off + 4095) / 4096 * 4096));
  lapis::detail::advise_hugepages(base, bytes);
  T* ap = reinterpret_cast<T*>(base + off);
  std::vector<T> x(static_cast<size_t>(k)), y(static_cast<size_t>(m));
  std::mt19937 r(1);
  std::normal_distribution<double> d;
  auto fill = [&](T* v, idx len) {
    for (idx i = 0; i < len; ++i) {
      if constexpr (is_complex_v<T>) v[i] = T(d(r), d(r));
      else v[i] = T(d(r));
    }
  };
  fill(ap, m * k), fill(x.data(), k);
  const MatRef<T> A = cols ? MatRef<T>{ap, m, k, 1, m} : MatRef<T>{ap, m, k, k, 1};
  const MatRef<T> X{x.data(), k, 1, 1, 1};
  const MatMut<T> Y{y.data(), m, 1, 1, 1};
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    const double t0 = now(threads);
    for (int j = 0; j < inner; ++j) gemm<T>(T(1), A, X, T(0), Y, threads);
    times.push_back((now(threads) - t0) / inner);
  }
  std::free(base);
  std::sort(times.begin(), times.end());
  return std::getenv("GB_MEDIAN") ? times[times.size() / 2] : times[0];
}

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: gemv_rate s|d|c|z m k rows|cols threads reps [inner]\n");
    return 2;
  }
  const char t = argv[1][0];
  const idx m = std::atol(argv[2]), k = std::atol(argv[3]);
  const bool cols = std::strcmp(argv[4], "cols") == 0;
  const int th = std::atoi(argv[5]), reps = std::atoi(argv[6]), inner = argc > 7 ? std::atoi(argv[7]) : 1;
  if (th > num_threads()) set_num_threads(th);
  const double s = t == 's'   ? run<float>(m, k, cols, th, reps, inner)
                   : t == 'd' ? run<double>(m, k, cols, th, reps, inner)
                   : t == 'c' ? run<std::complex<float>>(m, k, cols, th, reps, inner)
                              : run<std::complex<double>>(m, k, cols, th, reps, inner);
  const double bytes = double(m) * k * (t == 's' ? 4 : t == 'd' || t == 'c' ? 8 : 16);
  std::printf("%c %ldx%ld %s t%d: %.2f us  %.1f GB/s\n", t, long(m), long(k), cols ? "cols" : "rows", th, s * 1e6,
              bytes / s / 1e9);
}
