// C++-only test of the thread pool's CPU budget (lapis/parallel.hpp): many threads calling
// parallel_for at once, with nested calls, async-kind callers, throwing chunks and resizes
// (also from inside a chunk), never have more threads inside kernels than the budget —
// checked by the pool's own counter (thread_stats().peak) and independently by counting
// the threads inside the test's chunk functions — and always finish (a watchdog aborts
// after a minute). Also: a slot freed while a region runs joins it late, and a sync caller
// gets a slot while async callers keep the budget full.
// Exits non-zero on any failure.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lapis/parallel.hpp"

using lapis::index;
using Clock = std::chrono::steady_clock;

namespace {

int g_failures = 0;
long g_checks = 0;
int g_ms_scale = 1;  // --quick (the qemu runs): the timed phases at a third

void check(bool ok, const char* what, long double a = 0, long double b = 0) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s (%Lg, %Lg)\n", what, a, b);
  }
}

// Threads running the test's chunk functions right now (a thread counts once, nested or not).
std::atomic<int> g_inside{0}, g_inside_peak{0};
thread_local int t_depth = 0;

struct Inside {
  Inside() {
    if (t_depth++ > 0) return;
    const int now = g_inside.fetch_add(1) + 1;
    int seen = g_inside_peak.load();
    while (now > seen && !g_inside_peak.compare_exchange_weak(seen, now)) {
    }
  }
  ~Inside() {
    if (--t_depth == 0) g_inside.fetch_sub(1);
  }
};

void spin_for(std::chrono::microseconds d) {
  const auto end = Clock::now() + d;
  while (Clock::now() < end) {
  }
}

// One kernel-like call: a region whose chunks each run a nested parallel_for, checked for
// exact coverage. Returns false on a coverage error.
bool one_call(std::mt19937& rng, int max_threads) {
  const index n = 16 + static_cast<index>(rng() % 200);
  const index inner = 1 + static_cast<index>(rng() % 64);
  std::vector<std::atomic<int>> hits(static_cast<size_t>(n * inner));
  const auto sched = rng() % 2 ? lapis::Schedule::Chunked : lapis::Schedule::Pieces;
  lapis::parallel_for(
      n, 1 + static_cast<index>(rng() % 8),
      [&](index b, index e) {
        for (index i = b; i < e; ++i) {
          // Not counted across the nested call: an async caller may wait in it for its slot
          // back (a loop that ran serially leaves nested calls free to open regions).
          lapis::parallel_for(inner, 4, [&](index j0, index j1) {
            Inside in;
            for (index j = j0; j < j1; ++j) hits[static_cast<size_t>(i * inner + j)]++;
          });
          Inside in;
          spin_for(std::chrono::microseconds(20));
        }
      },
      max_threads, sched);
  for (auto& h : hits)
    if (h.load() != 1) return false;
  return true;
}

// `callers` threads making calls for `ms` milliseconds; every third one an async-kind caller
// holding its slot across two calls; `resize` also changes the budget meanwhile.
void hammer(int callers, int ms, bool resize, bool throws) {
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0}, thrown{0}, caught{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < callers; ++t) {
    ts.emplace_back([&, t] {
      std::mt19937 rng(1234u + static_cast<unsigned>(t));
      while (!stop.load()) {
        try {
          if (t % 3 == 2) {
            lapis::CpuSlot slot(lapis::CpuSlot::Kind::Async);
            if (!one_call(rng, 0)) ++bad;
            spin_for(std::chrono::microseconds(200));  // serial work between two regions
            if (!one_call(rng, 2)) ++bad;
          } else if (throws && rng() % 4 == 0) {
            lapis::parallel_for(64, 1, [&](index b, index e) {
              Inside in;
              spin_for(std::chrono::microseconds(30));
              if (b <= 40 && 40 < e) {
                ++thrown;
                if (thrown.load() % 2) throw std::bad_alloc();
                throw std::runtime_error("chunk 40");
              }
            });
          } else if (resize && t == 0 && rng() % 8 == 0) {
            // A resize from inside a chunk: the pool must not wait on the thread asking.
            const int to = 1 + static_cast<int>(rng() % 4);
            lapis::parallel_for(4, 1, [&](index b, index) {
              Inside in;
              if (b == 1) lapis::set_num_threads(to);
            });
          } else {
            if (!one_call(rng, 0)) ++bad;
          }
        } catch (const std::bad_alloc&) {
          ++caught;
        } catch (const std::runtime_error&) {
          ++caught;
        }
      }
    });
  }
  std::thread resizer;
  if (resize) {
    resizer = std::thread([&] {
      std::mt19937 rng(99);
      while (!stop.load()) {
        lapis::set_num_threads(1 + static_cast<int>(rng() % 4));
        std::this_thread::sleep_for(std::chrono::milliseconds(1 + rng() % 20));
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(ms / g_ms_scale));
  stop = true;
  for (auto& th : ts) th.join();
  if (resizer.joinable()) resizer.join();
  check(bad.load() == 0, "hammer: every index covered exactly once", bad.load());
  check(caught.load() == thrown.load(), "hammer: every throwing region rethrew to its caller", caught.load(),
        thrown.load());
}

void test_steady(int budget) {
  lapis::set_num_threads(budget);
  const int got = lapis::num_threads();
  g_inside_peak = 0;
  lapis::thread_stats(true);
  hammer(8, 1500, false, true);
  const lapis::ThreadStats s = lapis::thread_stats();
  std::printf("steady budget %d: peak %d (chunks: %d) regions %llu joins %llu waits %llu yields %llu\n", got, s.peak,
              g_inside_peak.load(), (unsigned long long)s.regions, (unsigned long long)s.joins,
              (unsigned long long)s.waits, (unsigned long long)s.yields);
  check(s.peak <= got, "steady: peak busy threads <= budget", s.peak, got);
  check(g_inside_peak.load() <= got, "steady: threads inside chunks <= budget", g_inside_peak.load(), got);
  check(s.peak >= 1 && s.regions > 0, "steady: regions ran", s.peak, static_cast<long double>(s.regions));
  check(s.busy == 0, "steady: no slot held after the callers ended", s.busy);
}

void test_resizes() {
  lapis::set_num_threads(4);
  g_inside_peak = 0;
  lapis::thread_stats(true);
  hammer(6, 2000, true, true);
  const lapis::ThreadStats s = lapis::thread_stats();
  std::printf("resizes (budget 1..4): peak %d (chunks: %d)\n", s.peak, g_inside_peak.load());
  // Slots held when the budget shrinks drain as their calls end, so the bound is the largest budget.
  check(s.peak <= 4, "resizes: peak busy threads <= largest budget", s.peak, 4);
  check(g_inside_peak.load() <= 4, "resizes: threads inside chunks <= largest budget", g_inside_peak.load(), 4);
  check(s.busy == 0, "resizes: no slot held after the callers ended", s.busy);
}

// Budget 2: a caller holds a slot (serial work) while another runs a long region; when the
// first lets go, an idle worker joins the running region.
void test_late_join() {
  lapis::set_num_threads(2);
  std::atomic<bool> holding{false}, release{false};
  std::thread holder([&] {
    lapis::CpuSlot slot;
    holding = true;
    while (!release.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!holding.load()) std::this_thread::yield();
  const auto before = lapis::thread_stats();
  std::mutex mu;
  std::set<std::thread::id> ids_before, ids_after;
  lapis::parallel_for(60, 1, [&](index b, index e) {
    for (index i = b; i < e; ++i) {
      if (i == 10) {
        release = true;
        holder.join();
      }
      {
        std::lock_guard<std::mutex> lk(mu);
        (release.load() ? ids_after : ids_before).insert(std::this_thread::get_id());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }, 0, lapis::Schedule::Pieces);
  const auto after = lapis::thread_stats();
  check(ids_before.size() == 1, "late join: one thread while the budget was full", static_cast<long double>(ids_before.size()));
  check(ids_after.size() == 2, "late join: a freed slot joined the running region", static_cast<long double>(ids_after.size()));
  check(after.joins > before.joins, "late join: counted", static_cast<long double>(after.joins - before.joins));
}

// Budget 2, four async-kind callers looping long calls: a sync caller gets a slot within a
// few of their regions (they hand theirs over at their next parallel_for), not after them all.
void test_sync_first() {
  lapis::set_num_threads(2);
  std::atomic<bool> stop{false};
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([&] {
      while (!stop.load()) {
        lapis::CpuSlot slot(lapis::CpuSlot::Kind::Async);
        for (int r = 0; r < 200 && !stop.load(); ++r)  // a long call: 200 regions of ~2 ms
          lapis::parallel_for(8, 1, [&](index, index) { spin_for(std::chrono::microseconds(250)); });
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto before = lapis::thread_stats(true);
  double worst = 0;
  for (int i = 0; i < 20; ++i) {
    const auto t0 = Clock::now();
    {
      lapis::CpuSlot slot;
      worst = std::max(worst, std::chrono::duration<double>(Clock::now() - t0).count());
      spin_for(std::chrono::microseconds(500));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  stop = true;
  for (auto& th : ts) th.join();
  const auto after = lapis::thread_stats();
  std::printf("sync beside 4 async callers: worst wait %.1f ms, yields %llu\n", worst * 1e3,
              (unsigned long long)(after.yields - before.yields));
  // One async call is 200 regions (~0.4 s of work); a sync caller that waited for whole calls
  // would wait that long. Loose bound: the machine is shared.
  check(worst < 0.2, "sync first: a sync caller waits for a region boundary, not a whole async call", worst);
  check(after.yields > before.yields, "sync first: async callers handed their slots over",
        static_cast<long double>(after.yields - before.yields));
  check(after.peak <= 2, "sync first: peak <= budget", after.peak, 2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--quick") g_ms_scale = 3;
  std::thread watchdog([] {
    std::this_thread::sleep_for(std::chrono::seconds(90));
    std::printf("FAIL test_pool: no progress after 90 s (deadlock)\n");
    std::fflush(stdout);
    std::_Exit(2);
  });
  watchdog.detach();
  std::printf("test_pool: threads=%d\n", lapis::num_threads());
  test_steady(2);
  test_steady(3);
  test_resizes();
  test_late_join();
  test_sync_first();
  lapis::set_num_threads(1);
  check(lapis::thread_stats().busy == 0, "end: no slot held");
  std::printf("test_pool: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
