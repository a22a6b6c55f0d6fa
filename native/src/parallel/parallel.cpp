#include "lapis/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace lapis {
namespace {

thread_local bool t_in_region = false;

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
class Pool {
 public:
  explicit Pool(int n) { resize(n); }
  ~Pool() { stop(); }

  int size() const { return size_; }

  void resize(int n) {
    std::lock_guard<std::mutex> run(run_mu_);
    stop();
    size_ = std::max(1, n);
    quit_ = false;
    for (int i = 1; i < size_; ++i) workers_.emplace_back([this] { loop(); });
  }

  void run(index chunks, int participants, const std::function<void(index)>& body) {
    std::lock_guard<std::mutex> run(run_mu_);  // one parallel region at a time
    {
      std::lock_guard<std::mutex> lk(mu_);
      body_ = &body;
      chunks_ = chunks;
      next_.store(0);
      active_ = participants - 1;
      pending_ = participants - 1;
      ++gen_;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [this] { return pending_ == 0; });
    body_ = nullptr;
  }

 private:
  void work() {
    t_in_region = true;
    for (;;) {
      index c = next_.fetch_add(1);
      if (c >= chunks_) break;
      (*body_)(c);
    }
    t_in_region = false;
  }

  void loop() {
    std::uint64_t seen = 0;
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

  void stop() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
    workers_.clear();
  }

  std::mutex run_mu_, mu_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(index)>* body_ = nullptr;
  std::atomic<index> next_{0};
  index chunks_ = 0;
  int active_ = 0, pending_ = 0, size_ = 1;
  std::uint64_t gen_ = 0;
  bool quit_ = false;
};

Pool& pool() {
  static Pool p(default_threads());
  return p;
}

}  // namespace

int num_threads() { return pool().size(); }
void set_num_threads(int n) { pool().resize(n); }
bool in_parallel_region() { return t_in_region; }

void parallel_for(index n, index grain, const std::function<void(index, index)>& fn, int max_threads) {
  if (n <= 0) return;
  grain = std::max<index>(grain, 1);
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  index max_chunks = (n + grain - 1) / grain;
  if (threads <= 1 || max_chunks <= 1 || t_in_region) {
    fn(0, n);
    return;
  }
  // A few chunks per thread so a slow chunk does not idle the others.
  index chunks = std::min<index>(max_chunks, static_cast<index>(threads) * 4);
  index per = (n + chunks - 1) / chunks;
  chunks = (n + per - 1) / per;
  int participants = static_cast<int>(std::min<index>(threads, chunks));
  std::function<void(index)> body = [&](index c) {
    index b = c * per, e = std::min(n, b + per);
    fn(b, e);
  };
  pool().run(chunks, participants, body);
}

}  // namespace lapis
