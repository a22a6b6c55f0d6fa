#include "lapis/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace lapis {
namespace {

thread_local bool t_in_region = false;

// Marks the current thread as inside a parallel region (nested parallel_for runs serially).
struct RegionFlag {
  bool saved = t_in_region;
  RegionFlag() { t_in_region = true; }
  ~RegionFlag() { t_in_region = saved; }
};

int default_threads() {
  if (const char* s = std::getenv("LAPIS_NUM_THREADS")) {
    int v = std::atoi(s);
    if (v >= 1) return std::min(v, 256);
  }
  unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(std::min(hc, 256u));
}

// Workers sleep on a generation counter; a job is a chunk counter every participant
// (workers and the caller) pulls from, so uneven chunks balance themselves.
//
// Callers come from several threads at once (the JS thread, worker_threads, libuv threads
// of async calls). One region holds the workers at a time (run_mu_); a caller that finds
// them busy gets `false` and runs its loop itself instead of waiting, so no caller ever
// blocks on another's region. The participant count is taken under run_mu_ from the
// workers that exist, and resize() takes run_mu_ too: it waits for the region in flight and
// never removes a worker a region counts on.
class Pool {
 public:
  explicit Pool(int n) { start(n); }

  int size() const { return size_.load(std::memory_order_relaxed); }

  void resize(int n) {
    std::lock_guard<std::mutex> run(run_mu_);
    stop();
    start(n);
  }

  bool try_run(index chunks, int want, const std::function<void(index)>& body) {
    std::unique_lock<std::mutex> run(run_mu_, std::try_to_lock);
    if (!run.owns_lock()) return false;
    const int participants = static_cast<int>(std::min<index>(chunks, std::min(want, size())));
    if (participants <= 1) return false;
    {
      std::lock_guard<std::mutex> lk(mu_);
      body_ = &body;
      chunks_ = chunks;
      next_.store(0);
      error_ = nullptr;
      active_ = participants - 1;
      pending_ = participants - 1;
      ++gen_;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [this] { return pending_ == 0; });
    body_ = nullptr;
    // A chunk that threw (std::bad_alloc on a worker thread) is rethrown on the caller's
    // thread, where the binding turns it into a JS error.
    if (std::exception_ptr e = std::exchange(error_, nullptr)) {
      lk.unlock();
      std::rethrow_exception(e);
    }
    return true;
  }

 private:
  void work() {
    RegionFlag region;
    for (;;) {
      index c = next_.fetch_add(1);
      if (c >= chunks_) break;
      try {
        (*body_)(c);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu_);
        if (!error_) error_ = std::current_exception();
        next_.store(chunks_);  // hand out no more chunks
      }
    }
  }

  void loop(std::uint64_t seen) {
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [&] { return quit_ || gen_ != seen; });
        if (quit_) return;
        seen = gen_;
        if (active_ <= 0) continue;  // more workers than this job asked for
        --active_;
      }
      work();
      std::lock_guard<std::mutex> lk(mu_);
      if (--pending_ == 0) done_cv_.notify_one();
    }
  }

  // Called with run_mu_ held (or from the constructor): no region is running.
  void start(int n) {
    std::uint64_t gen;
    {
      std::lock_guard<std::mutex> lk(mu_);
      quit_ = false;
      gen = gen_;
    }
    int started = 1;
    for (int i = 1; i < std::max(1, n); ++i) {
      try {
        workers_.emplace_back([this, gen] { loop(gen); });
      } catch (const std::system_error&) {
        break;  // no more threads to be had (a memory limit): run with the ones we got
      }
      ++started;
    }
    size_.store(started);
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
    workers_.clear();
    size_.store(1);
  }

  std::mutex run_mu_, mu_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(index)>* body_ = nullptr;
  std::atomic<index> next_{0};
  index chunks_ = 0;
  std::exception_ptr error_;
  int active_ = 0, pending_ = 0;
  std::atomic<int> size_{1};
  std::uint64_t gen_ = 0;
  bool quit_ = false;
};

// Never destroyed: at process exit an async call may still be running on a libuv thread,
// and a destroyed pool under it would be a crash on the way out.
Pool& pool() {
  static Pool* p = new Pool(default_threads());
  return *p;
}

}  // namespace

int num_threads() { return pool().size(); }
void set_num_threads(int n) { pool().resize(n); }
bool in_parallel_region() { return t_in_region; }

void parallel_for(index n, index grain, const std::function<void(index, index)>& fn, int max_threads,
                  Schedule schedule) {
  if (n <= 0) return;
  grain = std::max<index>(grain, 1);
  // A hint only: the pool recounts its workers under its lock (a resize may be under way).
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  const index max_chunks = (n + grain - 1) / grain;
  index per = grain;
  if (schedule == Schedule::Chunked) {
    // A few chunks per thread so a slow chunk does not idle the others.
    const index want = std::min<index>(max_chunks, static_cast<index>(threads) * 4);
    per = (n + want - 1) / want;
  }
  const index chunks = (n + per - 1) / per;
  auto serial = [&] {
    if (schedule == Schedule::Pieces) {
      for (index b = 0; b < n; b += per) fn(b, std::min(n, b + per));
    } else {
      fn(0, n);
    }
  };
  if (threads <= 1 || chunks <= 1 || t_in_region) return serial();
  std::function<void(index)> body = [&](index c) {
    index b = c * per, e = std::min(n, b + per);
    fn(b, e);
  };
  // Workers busy with another thread's region: run the loop here rather than wait.
  if (!pool().try_run(chunks, threads, body)) serial();
}

}  // namespace lapis
