#include "lapis/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#include <immintrin.h>
#endif

namespace lapis {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// How long a helper spins for new work, and a caller for its helpers, before sleeping: a
// sleeping thread wakes tens to hundreds of microseconds late on a virtual machine
// (docs/architecture.md, "Threads"), longer than a 256³ product's share of one thread.
constexpr auto kSpin = std::chrono::microseconds(200);

// Spins until done() or kSpin has passed; returns done()'s last value.
template <class F>
bool spin_until(F done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    cpu_relax();
    if ((i & 63) == 0 && std::chrono::steady_clock::now() >= until) return done();
  }
}

// A WebAssembly build without pthreads (docs/wasm.md) has one thread: the pool starts no
// workers there, so the budget is 1 whatever numThreads asks.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr bool kCanStartThreads = false;
#else
constexpr bool kCanStartThreads = true;
#endif

// What the current thread holds of the CPU budget (docs/architecture.md, "Threads").
enum class Held : unsigned char { None, Sync, Async, Helper };
thread_local Held t_held = Held::None;
thread_local bool t_in_region = false;

// Marks the current thread as inside a parallel region (nested parallel_for runs serially).
struct RegionFlag {
  bool saved = t_in_region;
  RegionFlag() { t_in_region = true; }
  ~RegionFlag() { t_in_region = saved; }
};

int default_threads() {
  if (!kCanStartThreads) return 1;
  if (const char* s = std::getenv("LAPIS_NUM_THREADS")) {
    int v = std::atoi(s);
    if (v >= 1) return std::min(v, 256);
  }
  unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(std::min(hc, 256u));
}

// A sync caller may pass this many waiting async callers in a row before the oldest async
// one is served: the JS thread is served first, but worker_threads that keep the budget
// full with sync calls cannot starve an async call.
constexpr int kMaxBypass = 4;

// One parallel_for in flight, on its caller's stack. Chunks are pulled from `next`, so any
// number of participants (the caller alone included) finishes it.
struct Region {
  const std::function<void(index)>* body;
  index chunks;
  int helpers_wanted;  // participants beyond the caller
  std::atomic<index> next{0};
  int helpers = 0;      // joined and not yet left (under the pool's mutex)
  std::atomic<int> working{0};  // helpers inside work(): what the caller spins on
  bool closed = false;  // the caller is done pulling: nobody joins any more
  std::exception_ptr error;
  std::condition_variable left;
  Region* prev = nullptr;
  Region* after = nullptr;
};

// A caller waiting for its slot, on its own stack.
struct Waiter {
  bool async;
  bool granted = false;
  std::condition_variable cv;
  Waiter* next = nullptr;
};

struct WaitQueue {
  Waiter* head = nullptr;
  Waiter* tail = nullptr;
  bool empty() const { return head == nullptr; }
  void push_back(Waiter* w) {
    w->next = nullptr;
    if (tail) tail->next = w;
    else head = w;
    tail = w;
  }
  void push_front(Waiter* w) {
    w->next = head;
    head = w;
    if (!tail) tail = w;
  }
  Waiter* pop() {
    Waiter* w = head;
    head = w->next;
    if (!head) tail = nullptr;
    return w;
  }
};

struct WorkerState {
  std::thread thread;
  std::atomic<bool> quit{false};  // set under the pool's mutex
};

// The CPU budget and the helpers that draw from it.
//
// budget_ slots, used_ of them held: one by each thread inside a kernel call (the caller's
// slot, CpuSlot) and one by each pool worker while it helps a region. A caller waits for
// a free slot (sync callers before async ones, FIFO within each, kMaxBypass); a worker
// joins a region only when a slot is free and no caller waits, and leaves at its next
// chunk boundary when a caller starts waiting (pressure_). So at no moment are more than
// budget_ threads inside kernels, and a waiting caller waits for at most one helper's
// chunk or for one running call to end (or, for an async call in flight, to reach its next
// parallel_for, where it hands its slot to a waiting sync caller). Several regions run at
// once, each with the helpers it could get; a slot freed while a region runs lets an idle
// worker join it late.
class Pool {
 public:
  explicit Pool(int n) {
    std::lock_guard<std::mutex> lk(mu_);
    budget_ = 1;
    grow_locked(n);
  }

  int size() const { return size_.load(std::memory_order_relaxed); }

  void resize(int n) {
    n = std::max(1, n);
    std::vector<std::shared_ptr<WorkerState>> gone;
    {
      std::lock_guard<std::mutex> lk(mu_);
      while (static_cast<int>(workers_.size()) > n - 1) {
        workers_.back()->quit = true;
        gone.push_back(std::move(workers_.back()));
        workers_.pop_back();
      }
      budget_ = 1 + static_cast<int>(workers_.size());
      grow_locked(n);
      update_pressure();
      dispatch();
    }
    work_cv_.notify_all();
    // Outside the lock, and without holding anything a chunk might wait for (a worker that goes
    // may itself be resizing from a chunk): it leaves its region at its next chunk boundary.
    for (auto& w : gone) {
      if (w->thread.get_id() == std::this_thread::get_id()) w->thread.detach();  // resized from its own chunk
      else w->thread.join();
    }
  }

  // ---- the caller's slot ----
  void acquire(bool async, bool front = false) {
    std::unique_lock<std::mutex> lk(mu_);
    const bool queued = !sync_q_.empty() || !async_q_.empty();
    if (!queued && used_ < budget_) {
      ++used_;
    } else {
      Waiter w;
      w.async = async;
      if (async && front) async_q_.push_front(&w);
      else (async ? async_q_ : sync_q_).push_back(&w);
      ++waits_;
      dispatch();  // a free slot and no one ahead (a shrink left used_ above budget_ otherwise)
      update_pressure();
      w.cv.wait(lk, [&] { return w.granted; });  // dispatch() counted the slot as ours
      update_pressure();
    }
    enter_busy();
  }

  void release() {
    leave_busy();
    int wake;
    {
      std::lock_guard<std::mutex> lk(mu_);
      --used_;
      dispatch();
      update_pressure();
      wake = helpers_to_wake();
      work_gen_.fetch_add(1, std::memory_order_release);
    }
    notify_helpers(wake);
  }

  // An async caller between two parallel regions: when a sync caller waits, it gives its
  // slot to it and queues at the front of the async callers.
  void yield_async() {
    if (!sync_waiting_.load(std::memory_order_relaxed)) return;
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (sync_q_.empty() || (!async_q_.empty() && bypass_ >= kMaxBypass)) return;
      ++yields_;
    }
    release();
    acquire(true, true);
  }

  // ---- regions ----
  void run(Region& r) {
    int wake;
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (regions_tail_) regions_tail_->after = &r;
      else regions_head_ = &r;
      r.prev = regions_tail_;
      regions_tail_ = &r;
      ++regions_;
      work_gen_.fetch_add(1, std::memory_order_release);
      wake = helpers_to_wake();
    }
    notify_helpers(wake);
    work(r);
    if (spin_ok_.load(std::memory_order_relaxed)) spin_until([&] { return r.working.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lk(mu_);
    r.closed = true;
    unlink(r);
    r.left.wait(lk, [&] { return r.helpers == 0; });
    // A chunk that threw (std::bad_alloc on a worker thread) is rethrown on the caller's
    // thread, where the binding turns it into a JS error.
    if (std::exception_ptr e = std::exchange(r.error, nullptr)) {
      lk.unlock();
      std::rethrow_exception(e);
    }
  }

  ThreadStats stats(bool reset) {
    std::lock_guard<std::mutex> lk(mu_);
    ThreadStats s;
    s.budget = budget_;
    s.busy = busy_.load();
    s.peak = peak_.load();
    s.regions = regions_;
    s.joins = joins_;
    s.waits = waits_;
    s.yields = yields_;
    if (reset) peak_.store(s.busy);
    return s;
  }

 private:
  // Called with mu_ held.
  void grow_locked(int n) {
    while (kCanStartThreads && static_cast<int>(workers_.size()) < n - 1) {
      auto w = std::make_shared<WorkerState>();
      try {
        w->thread = std::thread([this, w] { loop(*w); });
      } catch (const std::exception&) {
        break;  // no more threads (or memory) to be had: run with the ones we got
      }
      workers_.push_back(std::move(w));
    }
    budget_ = 1 + static_cast<int>(workers_.size());
    size_.store(budget_);
    const unsigned cores = std::thread::hardware_concurrency();
    spin_ok_.store(cores == 0 || budget_ <= static_cast<int>(cores), std::memory_order_relaxed);
  }

  void enter_busy() {
    const int now = busy_.fetch_add(1, std::memory_order_relaxed) + 1;
    int seen = peak_.load(std::memory_order_relaxed);
    while (now > seen && !peak_.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
  }
  void leave_busy() { busy_.fetch_sub(1, std::memory_order_relaxed); }

  // Hands free slots to waiting callers. Called with mu_ held.
  void dispatch() {
    while (used_ < budget_ && (!sync_q_.empty() || !async_q_.empty())) {
      Waiter* w;
      if (!sync_q_.empty() && (async_q_.empty() || bypass_ < kMaxBypass)) {
        w = sync_q_.pop();
        if (!async_q_.empty()) ++bypass_;
      } else {
        w = async_q_.pop();
        bypass_ = 0;
      }
      ++used_;
      w->granted = true;
      w->cv.notify_one();  // under mu_: the waiter cannot return (and free w) before we unlock
    }
  }

  // Called with mu_ held.
  void update_pressure() {
    sync_waiting_.store(!sync_q_.empty(), std::memory_order_relaxed);
    pressure_.store(!sync_q_.empty() || !async_q_.empty() || used_ > budget_, std::memory_order_relaxed);
  }

  // How many idle workers could join a region now. Called with mu_ held.
  int helpers_to_wake() {
    if (idle_ == 0 || used_ >= budget_ || !sync_q_.empty() || !async_q_.empty()) return 0;
    int want = 0;
    for (Region* r = regions_head_; r; r = r->after) {
      if (!r->closed && r->next.load(std::memory_order_relaxed) < r->chunks) want += r->helpers_wanted - r->helpers;
    }
    return std::min({want, budget_ - used_, idle_});
  }

  // Wakes k idle workers (each re-checks under the lock what it can join).
  void notify_helpers(int k) {
    if (k <= 0) return;
    if (k >= idle_hint_.load(std::memory_order_relaxed)) return work_cv_.notify_all();
    for (int i = 0; i < k; ++i) work_cv_.notify_one();
  }

  // A region a helper can join now, or null. Called with mu_ held.
  Region* joinable() {
    if (used_ >= budget_ || !sync_q_.empty() || !async_q_.empty()) return nullptr;
    for (Region* r = regions_head_; r; r = r->after) {
      if (!r->closed && r->helpers < r->helpers_wanted && r->next.load(std::memory_order_relaxed) < r->chunks) return r;
    }
    return nullptr;
  }

  void unlink(Region& r) {
    (r.prev ? r.prev->after : regions_head_) = r.after;
    (r.after ? r.after->prev : regions_tail_) = r.prev;
    r.prev = r.after = nullptr;
  }

  // Pulls chunks until none is left; a helper also stops when a caller waits for a slot.
  void work(Region& r, const std::atomic<bool>* quit = nullptr) {
    RegionFlag region;
    for (;;) {
      if (quit && (pressure_.load(std::memory_order_relaxed) || quit->load(std::memory_order_relaxed))) break;
      index c = r.next.fetch_add(1);
      if (c >= r.chunks) break;
      try {
        (*r.body)(c);
      } catch (...) {
        std::lock_guard<std::mutex> lk(mu_);
        if (!r.error) r.error = std::current_exception();
        r.next.store(r.chunks);  // hand out no more chunks
      }
    }
  }

  void loop(WorkerState& me) {
    t_held = Held::Helper;  // never takes a caller's slot: nested calls on a helper run serially
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      Region* r = joinable();
      // Spin (unlocked, holding no slot) while the work generation stays the same, then
      // look again; sleep only after kSpin without anything to join.
      // Not while every slot is taken (nothing to join, and the spin would take a core from
      // a running call), nor with more slots than cores.
      while (!r && !me.quit.load() && spin_ok_.load(std::memory_order_relaxed)) {
        const std::uint64_t seen = work_gen_.load(std::memory_order_acquire);
        const int budget = budget_;
        lk.unlock();
        spin_until([&] {
          return work_gen_.load(std::memory_order_acquire) != seen || me.quit.load(std::memory_order_relaxed) ||
                 busy_.load(std::memory_order_relaxed) >= budget;
        });
        lk.lock();
        r = joinable();
        if (work_gen_.load(std::memory_order_relaxed) == seen) break;
      }
      if (!r) {
        ++idle_;
        idle_hint_.store(idle_, std::memory_order_relaxed);
        work_cv_.wait(lk, [&] { return me.quit.load() || (r = joinable()) != nullptr; });
        --idle_;
        idle_hint_.store(idle_, std::memory_order_relaxed);
      }
      if (me.quit.load()) return;
      ++used_;
      ++r->helpers;
      r->working.fetch_add(1, std::memory_order_relaxed);
      ++joins_;
      lk.unlock();
      enter_busy();
      work(*r, &me.quit);
      r->working.fetch_sub(1, std::memory_order_release);
      leave_busy();
      lk.lock();
      if (--r->helpers == 0 && r->closed) r->left.notify_one();  // under mu_: r outlives this
      --used_;
      dispatch();
      update_pressure();
    }
  }

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::vector<std::shared_ptr<WorkerState>> workers_;
  Region* regions_head_ = nullptr;
  Region* regions_tail_ = nullptr;
  WaitQueue sync_q_, async_q_;
  int budget_ = 1, used_ = 0, bypass_ = 0, idle_ = 0;
  std::atomic<bool> spin_ok_{true};  // helpers and callers spin before sleeping (budget_ ≤ cores)
  std::atomic<int> size_{1}, idle_hint_{0}, busy_{0}, peak_{0};
  std::atomic<bool> pressure_{false}, sync_waiting_{false};
  std::atomic<std::uint64_t> work_gen_{0};  // bumped when a region opens or a slot frees
  std::uint64_t regions_ = 0, joins_ = 0, waits_ = 0, yields_ = 0;
};

// Never destroyed: at process exit an async call may still be running on a libuv thread,
// and a destroyed pool under it would be a crash on the way out.
Pool& pool() {
  static Pool* p = new Pool(default_threads());
  return *p;
}

}  // namespace

CpuSlot::CpuSlot(Kind kind) {
  if (t_held != Held::None) return;  // nested: the thread already holds its slot
  pool().acquire(kind == Kind::Async);
  t_held = kind == Kind::Async ? Held::Async : Held::Sync;
  held_ = true;
}

CpuSlot::~CpuSlot() {
  if (!held_) return;
  t_held = Held::None;
  pool().release();
}

int num_threads() { return pool().size(); }
void set_num_threads(int n) { pool().resize(n); }
bool in_parallel_region() { return t_in_region; }
ThreadStats thread_stats(bool reset_peak) { return pool().stats(reset_peak); }

void parallel_for(index n, index grain, const std::function<void(index, index)>& fn, int max_threads,
                  Schedule schedule) {
  if (n <= 0) return;
  // A thread outside any kernel call (a C++ caller) holds a slot for this loop.
  CpuSlot slot;
  grain = std::max<index>(grain, 1);
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
  if (t_held == Held::Async) pool().yield_async();
  std::function<void(index)> body = [&](index c) {
    index b = c * per, e = std::min(n, b + per);
    fn(b, e);
  };
  Region r;
  r.body = &body;
  r.chunks = chunks;
  r.helpers_wanted = static_cast<int>(std::min<index>(chunks, threads)) - 1;
  pool().run(r);
}

}  // namespace lapis
