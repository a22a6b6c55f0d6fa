// A GEMM family's micro-kernels alone, as a fraction of the FMA peak probed between the runs
// (so a machine whose clock drifts is read against its own minute): "panel" runs one packed A
// and B micro-panel over and over (both in L1 for small kc), "nest" the BLIS inner loops over
// one mc×kc A block and a kc×~1024 B block, as the packed path does. One thread, CPU time,
// five alternations per kc; medians (and the best) are printed. docs/gemm.md cites it.
// Build against the kernels-only library:
//   g++ -O2 -std=c++17 -Inative/include native/bench/ukernel_rate.cpp <build>/liblapis_kernels.a -pthread
// Usage: ukernel_rate [avx512|avx2|portable] [nc]
#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/peak.hpp"
#include "../src/gemm/gemm_kernels.hpp"
using namespace lapis::gemm_detail;
using ix = lapis::index;

static double cpu_now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

template <class T>
struct Aligned {
  T* p;
  std::size_t n;
  explicit Aligned(std::size_t count) : p(static_cast<T*>(std::aligned_alloc(64, (count * sizeof(T) + 63) / 64 * 64))), n(count) {
    std::fill(p, p + n, T(0));
  }
  ~Aligned() { std::free(p); }
  Aligned(const Aligned&) = delete;
  Aligned& operator=(const Aligned&) = delete;
  T* data() { return p; }
  T* begin() { return p; }
  T* end() { return p + n; }
};

template <class T>
void run(const KernelSet<T>& s, const char* name, ix nc_want) {
  constexpr bool cx = lapis::is_complex_v<T>;
  constexpr bool f64 = sizeof(T) == (cx ? 16 : 8);
  const double flops_per_madd = cx ? 8.0 : 2.0;
  const int mr = s.mr, nr = s.nr;
  for (ix kc : {ix(128), ix(192), ix(256), ix(384), ix(512)}) {
    const ix mc = s.mc, nc = nc_want / nr * nr;
    // 64-byte aligned, as the packing buffers are: a std::vector's 16-byte alignment splits
    // every other vector load across two cache lines and reads 5-10 points of peak low.
    Aligned<T> a(mr * kc), b(nr * kc), c(mr * nr), A(mc * kc), B(kc * nc), C(mc * nc);
    for (auto* v : {&a, &b, &A, &B}) std::fill(v->begin(), v->end(), T(0.001));
    std::vector<double> panel, nest;
    for (int rep = 0; rep < 5; ++rep) {
      const double peak = lapis::peak_gflops(f64, 1, 0.05);
      long calls = 0;
      double t0 = cpu_now(), t;
      do {
        for (int r = 0; r < 100; ++r) s.ukr(kc, a.data(), 1, mr, b.data(), nr, c.data(), nr, T(1), T(0), 0);
        calls += 100;
        t = cpu_now();
      } while (t - t0 < 0.1);
      panel.push_back(flops_per_madd * mr * nr * kc * calls / (t - t0) / 1e9 / peak);
      long passes = 0;
      t0 = cpu_now();
      do {
        for (ix jr = 0; jr < nc; jr += nr)
          for (ix ir = 0; ir < mc; ir += mr)
            s.ukr(kc, A.data() + ir * kc, 1, mr, B.data() + jr * kc, nr, C.data() + ir * nc + jr, nc, T(1), T(1), 0);
        ++passes;
        t = cpu_now();
      } while (t - t0 < 0.1);
      nest.push_back(flops_per_madd * mc * nc * kc * passes / (t - t0) / 1e9 / peak);
    }
    std::sort(panel.begin(), panel.end());
    std::sort(nest.begin(), nest.end());
    std::printf("%s %dx%d kc=%4ld  panel %.0f%% of peak (best %.0f%%)  nest mc=%ld nc=%ld %.0f%% (best %.0f%%)\n", name, mr,
                nr, long(kc), 100 * panel[2], 100 * panel[4], long(mc), long(nc), 100 * nest[2], 100 * nest[4]);
  }
}

int main(int argc, char** argv) {
  const char* fam = argc > 1 ? argv[1] : "avx512";
  const ix nc = argc > 2 ? std::atol(argv[2]) : 1024;
  Family f;
  if (!std::strcmp(fam, "portable")) f = portable_family();
#if LAPIS_GEMM_X86
  else if (!std::strcmp(fam, "avx2")) f = avx2_family();
  else if (!std::strcmp(fam, "avx512")) f = avx512_family();
#endif
  else {
    std::fprintf(stderr, "ukernel_rate: unknown family %s\n", fam);
    return 2;
  }
  run(f.d, "d", nc);
  run(f.s, "s", nc);
  run(f.z, "z", nc);
  run(f.c, "c", nc);
}
