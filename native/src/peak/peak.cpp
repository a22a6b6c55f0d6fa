// The peak probe (lapis/peak.hpp): the loop of the active ISA on `threads` fresh
// std::threads, released together after a warm-up. Its own threads, not the lapis pool:
// the figure must not depend on the pool's size or its scheduling. Each thread times
// kSegments stretches of its run over its own CPU time where the OS gives one (POSIX; the
// wall time elsewhere) and keeps its best rate, so other processes on a shared machine
// lower the figure little; the threads' rates add up over at most as many threads as the
// hardware runs at once.
#include "lapis/peak.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <time.h>
#define LAPIS_PEAK_CPU_CLOCK 1
#else
#define LAPIS_PEAK_CPU_CLOCK 0
#endif

#include "lapis/isa.hpp"
#include "peak_kernels.hpp"
#include "peak_loop.hpp"

namespace lapis {

namespace peak_detail {
// Baseline vectors (SSE2 / NEON width); fma is a multiply then an add here (-ffp-contract=off).
Loops portable_loops() {
  return {&fma_rounds<simd::Pack<simd::Portable, float>, 12>, &fma_rounds<simd::Pack<simd::Portable, double>, 12>};
}
}  // namespace peak_detail

namespace {

using Clock = std::chrono::steady_clock;

peak_detail::Loops active_loops() {
  switch (active_isa()) {
#if LAPIS_SIMD_X86
    case Isa::avx512: return peak_detail::avx512_loops();
    case Isa::avx2: return peak_detail::avx2_loops();
#endif
#if LAPIS_SIMD_NEON
    case Isa::neon: return peak_detail::neon_loops();
#endif
    default: return peak_detail::portable_loops();
  }
}

// Read through volatiles, so the compiler knows neither the loop's constants nor that its result is unused.
volatile double g_m = 0.999999, g_c = 1e-6;
volatile double g_sink = 0;

// Rounds between clock reads: 10–100 µs of work on any of the loops.
constexpr uint64_t kBlock = 8192;

// A peak is a best case: the best of this many stretches of each thread's run.
constexpr int kSegments = 5;

struct alignas(64) Slot {
  double rate = 0;  // best FMA lanes per second
  double sum = 0;
};

// This thread's CPU time in seconds (0 where there is no per-thread clock).
double thread_cpu_seconds() {
#if LAPIS_PEAK_CPU_CLOCK
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
#endif
  return 0;
}

}  // namespace

double peak_gflops(bool f64, int threads, double seconds) {
  threads = std::max(threads, 1);
  const peak_detail::Loop loop = f64 ? active_loops().f64 : active_loops().f32;
  const double m = g_m, c = g_c;
  const auto stretch = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds / kSegments));
  // Clocks ramp up and wide-vector power states settle within milliseconds.
  const auto warm = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::min(0.1, std::max(0.01, 0.25 * seconds))));
  std::vector<Slot> slots(static_cast<size_t>(threads));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  auto body = [&](int t) {
    Slot& s = slots[static_cast<size_t>(t)];
    uint64_t lanes = 0;
    double sum = 0;
    const auto w0 = Clock::now();
    do sum += loop(kBlock, m, c, &lanes);
    while (Clock::now() - w0 < warm);
    // the last thread to arrive releases all of them
    if (ready.fetch_add(1) == threads - 1) go.store(true, std::memory_order_release);
    while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
    for (int seg = 0; seg < kSegments; ++seg) {
      uint64_t total = 0;
      const double cpu0 = thread_cpu_seconds();
      const auto t0 = Clock::now();
      auto t1 = t0;
      do {
        sum += loop(kBlock, m, c, &lanes);
        total += lanes;
        t1 = Clock::now();
      } while (t1 - t0 < stretch);
      const double cpu = thread_cpu_seconds() - cpu0;
      const double secs = cpu > 0 ? cpu : std::chrono::duration<double>(t1 - t0).count();
      if (secs > 0) s.rate = std::max(s.rate, static_cast<double>(total) / secs);
    }
    s.sum = sum;
  };
  std::vector<std::thread> pool;
  try {
    pool.reserve(static_cast<size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) pool.emplace_back(body, t);
  } catch (...) {
    go.store(true);  // the threads already started run once and end, then the error goes up
    for (std::thread& th : pool) th.join();
    throw;
  }
  body(0);
  for (std::thread& th : pool) th.join();
  double rates = 0, sum = 0;
  for (const Slot& s : slots) {
    rates += s.rate;
    sum += s.sum;
  }
  g_sink = sum;
  // more threads than the hardware runs at once share it: the mean rate times what it runs
  const unsigned hw = std::thread::hardware_concurrency();
  if (hw > 0 && static_cast<unsigned>(threads) > hw) rates = rates / threads * hw;
  return 2 * rates / 1e9;
}

}  // namespace lapis
