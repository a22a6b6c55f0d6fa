// A/B timing driver for the kernel families (no Node): links lapis_kernels and times one
// call shape per family, best of several repetitions. Build against two checkouts and
// compare (issue 11: the SIMD refactor must not change speed or results).
// Usage: bench_kernels [reps] [--hash] [--cpu] [name filter]
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <functional>
#include <random>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"
#include "lapis/special.hpp"
#include "lapis/trsm.hpp"

namespace bench {
using index = lapis::index;  // (not a using-declaration: <strings.h> declares ::index)

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
const char* g_filter = nullptr;  // time only the cases whose name contains this

// --hash: instead of timing, print an FNV-1a hash of each family's outputs on inputs that
// include hard cases (zero and subnormal pivots, NaN, Inf, entries near overflow), so two
// builds can be compared bit for bit.
bool g_hash = false;
bool g_cpu = false;
template <class T> uint64_t fnv(const std::vector<T>& v, uint64_t h = 1469598103934665603ull) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
template <class T> void spoil(std::vector<T>& A, index nn) {
  // every 7th matrix gets a special case
  const size_t per = size_t(nn) * nn;
  for (size_t b = 0; b * per < A.size(); b += 7) {
    T* a = A.data() + b * per;
    switch ((b / 7) % 6) {
      case 0: for (index j = 0; j < nn; ++j) a[j] = T(0); break;                            // zero row
      case 1: a[0] = T(std::numeric_limits<lapis::real_t<T>>::quiet_NaN()); break;
      case 2: a[per - 1] = T(std::numeric_limits<lapis::real_t<T>>::infinity()); break;
      case 3: for (size_t i = 0; i < per; ++i) a[i] *= T(std::numeric_limits<lapis::real_t<T>>::min()); break;  // subnormal
      case 4: for (size_t i = 0; i < per; ++i) a[i] *= T(std::numeric_limits<lapis::real_t<T>>::max() / 4); break;
      default: a[0] = T(1e-30); break;
    }
  }
}
template <class... V> void report(const char* name, const V&... v) {
  uint64_t h = 1469598103934665603ull;
  ((h = fnv(v, h)), ...);
  std::printf("%-34s %016llx\n", name, static_cast<unsigned long long>(h));
}

void time(const char* name, const std::function<void()>& f) {
  if (g_filter && !std::strstr(name, g_filter)) return;
  f();
  if (g_hash) return;
  // --cpu: this thread's CPU time instead of wall time (one thread only; steadier on a shared host)
  auto now = [] {
    if (g_cpu) {
      timespec ts;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
    }
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  double best = 1e30;
  for (int r = 0; r < g_reps; ++r) {
    const double t0 = now();
    f();
    best = std::min(best, now() - t0);
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
  if (g_hash) report(name, c);
}

template <class T> void solve_case(const char* name, index count, index n, index k) {
  auto A = rnd<T>(count * n * n, n, n), B = rnd<T>(count * n * k);
  std::vector<T> X(count * n * k);
  std::vector<int32_t> info(count);
  if (g_hash) spoil(A, n);
  time(name, [&] { lapis::solve_batched<T>(count, n, k, A.data(), nullptr, B.data(), nullptr, X.data(), info.data()); });
  if (g_hash) report(name, X, info);
}

template <class T> void inv_case(const char* name, index count, index n) {
  auto A = rnd<T>(count * n * n, n, n);
  std::vector<T> X(count * n * n);
  std::vector<int32_t> info(count);
  if (g_hash) spoil(A, n);
  time(name, [&] { lapis::inv_batched<T>(count, n, A.data(), X.data(), info.data()); });
  if (g_hash) report(name, X, info);
}

template <class T> void trsm_case(const char* name, index count, index n, index k) {
  auto A = rnd<T>(count * n * n, n, n), B = rnd<T>(count * n * k);
  std::vector<T> X(count * n * k);
  if (g_hash) for (size_t b = 3; b < size_t(count); b += 11) A[b * n * n + (b % n) * (n + 1)] = T(1e-310 > 0 ? 1e-39 : 0);
  // the small-system kernel where it applies (what solveTriangular calls first), else the blocked trsm
  time(name, [&] {
    if (!lapis::trsm_small_batched<T>(false, false, false, count, n, k, A.data(), nullptr, B.data(), nullptr, X.data()))
      lapis::trsm_batched<T>(lapis::Op::None, false, false, count, n, k, A.data(), nullptr, B.data(), nullptr,
                             X.data());
  });
  if (g_hash) report(name, X);
}

template <class T> void lu_case(const char* name, index count, index n) {
  auto A = rnd<T>(count * n * n);
  std::vector<T> LU(count * n * n);
  std::vector<int32_t> piv(count * n), info(count);
  if (g_hash) spoil(A, n);
  time(name, [&] { lapis::lu_factor_batched<T>(count, n, n, A.data(), LU.data(), piv.data(), info.data()); });
  if (g_hash) report(name, LU, piv, info);
}

template <class T> void frexp_case(const char* name, index n) {
  auto x = rnd<T>(n);
  std::vector<T> m(n);
  std::vector<int32_t> e(n);
  if (g_hash) for (index i = 0; i < n; i += 5) x[i] *= std::numeric_limits<T>::denorm_min() * T(i % 1000);
  time(name, [&] { lapis::frexp<T>(n, x.data(), m.data(), e.data()); });
  if (g_hash) report(name, m, e);
}

}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--hash") == 0) g_hash = true;
    else if (std::strcmp(argv[i], "--cpu") == 0) g_cpu = true;
    else if (argv[i][0] >= '0' && argv[i][0] <= '9') g_reps = std::atoi(argv[i]);
    else g_filter = argv[i];
  }
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
  if (g_hash) {
    for (int n = 2; n <= 12; ++n) {
      char nm[64];
      std::snprintf(nm, sizeof nm, "solve d %dx%d x203 (tiny lanes)", n, n);
      solve_case<double>(nm, 203, n, 1);
      std::snprintf(nm, sizeof nm, "solve s %dx%d x203 (tiny lanes)", n, n);
      solve_case<float>(nm, 203, n, 1);
    }
    for (int n = 1; n <= 4; ++n) {
      char nm[64];
      std::snprintf(nm, sizeof nm, "inv d %dx%d x203", n, n);
      inv_case<double>(nm, 203, n);
      std::snprintf(nm, sizeof nm, "inv s %dx%d x203", n, n);
      inv_case<float>(nm, 203, n);
    }
    for (int n : {1, 5, 7, 13, 64, 100}) for (int k : {8, 9, 17, 40, 67}) {
      char nm[64];
      std::snprintf(nm, sizeof nm, "trsm d %dx%d k%d x13", n, n, k);
      trsm_case<double>(nm, 13, n, k);
      std::snprintf(nm, sizeof nm, "trsm s %dx%d k%d x13", n, n, k);
      trsm_case<float>(nm, 13, n, k);
    }
    trsm_case<double>("trsm d 200x200 k16 x3 (blocked)", 3, 200, 16);
    lu_case<float>("lu s 37x37 x50", 50, 37);
    lu_case<std::complex<float>>("lu c 9x9 x50", 50, 9);
  }
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
