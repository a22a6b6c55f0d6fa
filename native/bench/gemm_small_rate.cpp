// Times of the two issue-17 shapes through the kernels library (no Node): a batch of small
// products (lapis::gemm_batched, as the matmul binding calls it) and a matrix-vector
// product (lapis::gemm with n = 1). Each figure is the median of `reps` calls, as thread
// CPU time on one thread (the kernels' own cost, robust on a shared machine) and as wall
// time on `threads` threads.
// Build against the kernels-only library:
//   g++ -O2 -std=c++17 -Inative/include native/bench/gemm_small_rate.cpp <build>/liblapis_kernels.a -pthread
// With -DLAPIS_BENCH_PER_MATRIX the batch runs as the binding did before gemm_batched
// (a parallel_for over the matrices, one lapis::gemm each), for old-vs-new comparisons
// against an older kernels library.
// Usage: gemm_small_rate batch s|d|c|z count m k n threads reps
//        gemm_small_rate gemv  s|d|c|z m k threads reps
#include <algorithm>
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
#ifndef LAPIS_BENCH_PER_MATRIX
#include "lapis/gemm_batched.hpp"
#endif
#include "lapis/parallel.hpp"
using namespace lapis;
using idx = lapis::index;

static double clock_s(clockid_t id) {
  timespec t;
  clock_gettime(id, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

template <class F>
double median_time(int reps, clockid_t id, F&& f) {
  std::vector<double> t;
  f();  // warm-up: page faults, pool start
  for (int r = 0; r < reps; ++r) {
    const double t0 = clock_s(id);
    f();
    t.push_back(clock_s(id) - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T>
void fill(std::vector<T>& v) {
  std::mt19937 r(1);
  std::normal_distribution<double> d;
  for (auto& x : v) {
    if constexpr (is_complex_v<T>) x = T(d(r), d(r));
    else x = T(d(r));
  }
}

template <class T>
void batch(idx count, idx m, idx k, idx n, int threads, int reps) {
  // GB_COFF: C starts this many elements into its buffer (4 KiB aliasing with A and B)
  const idx coff = std::getenv("GB_COFF") ? std::atol(std::getenv("GB_COFF")) : 0;
  std::vector<T> a(count * m * k), b(count * k * n), cbuf(count * m * n + coff);
  T* const cp = cbuf.data() + coff;
  fill(a);
  fill(b);
  auto run = [&](int thr) {
#ifdef LAPIS_BENCH_PER_MATRIX
    const double flops = double(m) * n * k;
    auto one = [&](idx i, int t) {
      gemm<T>(T(1), row_major<T>(a.data() + i * m * k, m, k), row_major<T>(b.data() + i * k * n, k, n), T(0),
              row_major<T>(cp + i * m * n, m, n), t);
    };
    if (count > 1 && flops < 2.0e6) {
      idx grain = std::max<idx>(1, static_cast<idx>(2.0e5 / (flops + 1)));
      parallel_for(count, grain, [&](idx b0, idx b1) {
        for (idx i = b0; i < b1; ++i) one(i, 1);
      }, thr);
    } else {
      for (idx i = 0; i < count; ++i) one(i, thr);
    }
#else
    gemm_batched<T>(count, T(1), row_major<T>(static_cast<const T*>(a.data()), m, k), m * k, nullptr,
                    row_major<T>(static_cast<const T*>(b.data()), k, n), k * n, nullptr, T(0),
                    row_major<T>(cp, m, n), m * n, thr);
#endif
  };
  const double cpu1 = median_time(reps, CLOCK_THREAD_CPUTIME_ID, [&] { run(1); });
  const double wall = median_time(reps, CLOCK_MONOTONIC, [&] { run(threads); });
  std::printf("batch %zu×(%td×%td·%td×%td): 1-thread CPU %.1f us (%.1f ns/matrix), %d-thread wall %.1f us\n",
              sizeof(T), m, k, k, n, 1e6 * cpu1, 1e9 * cpu1 / double(count), threads, 1e6 * wall);
}

template <class T>
void gemv(idx m, idx k, int threads, int reps) {
  std::vector<T> a(m * k), x(k), y(m);
  fill(a);
  fill(x);
  auto run = [&](int thr) {
    gemm<T>(T(1), row_major<T>(static_cast<const T*>(a.data()), m, k), row_major<T>(static_cast<const T*>(x.data()), k, 1),
            T(0), row_major<T>(y.data(), m, 1), thr);
  };
  const double cpu1 = median_time(reps, CLOCK_THREAD_CPUTIME_ID, [&] { run(1); });
  const double wall1 = median_time(reps, CLOCK_MONOTONIC, [&] { run(1); });
  const double wall = median_time(reps, CLOCK_MONOTONIC, [&] { run(threads); });
  const double bytes = double(m) * k * sizeof(T);
  std::printf("gemv %zu-byte %td×%td: 1-thread CPU %.1f us (%.0f GB/s), wall %.1f us; %d-thread wall %.1f us (%.0f GB/s)\n",
              sizeof(T), m, k, 1e6 * cpu1, bytes / cpu1 * 1e-9, 1e6 * wall1, threads, 1e6 * wall, bytes / wall * 1e-9);
}

template <class F>
void by_type(char t, F&& f) {
  switch (t) {
    case 's': return f(float{});
    case 'd': return f(double{});
    case 'c': return f(std::complex<float>{});
    default: return f(std::complex<double>{});
  }
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gemm_small_rate batch|gemv s|d|c|z …\n");
    return 2;
  }
  const std::string what = argv[1];
  const char t = argv[2][0];
  if (what == "batch" && argc >= 9) {
    const idx count = std::atol(argv[3]), m = std::atol(argv[4]), k = std::atol(argv[5]), n = std::atol(argv[6]);
    const int threads = std::atoi(argv[7]), reps = std::atoi(argv[8]);
    by_type(t, [&](auto tag) { batch<decltype(tag)>(count, m, k, n, threads, reps); });
  } else if (what == "gemv" && argc >= 7) {
    const idx m = std::atol(argv[3]), k = std::atol(argv[4]);
    const int threads = std::atoi(argv[5]), reps = std::atoi(argv[6]);
    by_type(t, [&](auto tag) { gemv<decltype(tag)>(m, k, threads, reps); });
  } else {
    std::fprintf(stderr, "usage: gemm_small_rate batch t count m k n threads reps | gemv t m k threads reps\n");
    return 2;
  }
  return 0;
}
