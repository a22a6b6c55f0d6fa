// A small persistent thread pool under one process-wide CPU budget. Size: LAPIS_NUM_THREADS
// if set, else the hardware concurrency; the budget is that many slots. parallel_for splits
// [0, n) into contiguous chunks that the pool's threads and the calling thread claim one at
// a time from a shared counter (so uneven chunks balance themselves, and a region finishes
// with however many threads took part), and returns when all are done. Nested calls run
// serially. It is the one scheduler of the kernels: a module that needs its own chunking
// picks a Schedule, it does not run its own counter.
//
// The budget: every thread inside a kernel holds one slot, a calling thread for its whole
// call (CpuSlot; parallel_for takes one itself on a thread that holds none) and a pool
// worker while it helps a region, so at most num_threads() threads run lapis kernels at
// any moment, however many callers (the JS thread, worker_threads, libuv threads of async
// calls) there are. A caller waits for a free slot; sync callers go before async ones;
// helpers join regions only with a free slot and leave one at a chunk boundary when a
// caller waits; several regions run at once and a slot freed meanwhile joins a running
// one. So a chunk must never wait for another chunk of its region (it may be the only
// participant). docs/architecture.md ("The CPU budget") gives the reasons. An exception
// thrown by fn on any thread is rethrown to the caller of parallel_for once all chunks
// stopped.
#pragma once
#include <cstdint>
#include <functional>
#include "lapis/common.hpp"

namespace lapis {

// The budget: the pool's workers plus one (the caller).
int num_threads();
// Sets the budget and the workers, while calls run too (a worker that goes leaves its
// region at its next chunk boundary; slots held beyond a smaller budget drain as their
// calls end). The size may come out smaller than asked if the system refuses to start
// more threads.
void set_num_threads(int n);

// Holds one slot of the budget on this thread for its lifetime, waiting for a free one;
// a no-op on a thread that already holds one (nested calls, pool workers). The binding
// takes one around each kernel call: Sync on JS threads (served first), Async on libuv
// threads (an async call also hands its slot to a waiting sync caller at its next
// parallel_for and waits to get one back).
class CpuSlot {
 public:
  enum class Kind { Sync, Async };
  explicit CpuSlot(Kind kind = Kind::Sync);
  ~CpuSlot();
  CpuSlot(const CpuSlot&) = delete;
  CpuSlot& operator=(const CpuSlot&) = delete;

 private:
  bool held_ = false;
};

// Instrumentation of the budget, always on (one atomic per slot taken or given back).
struct ThreadStats {
  int budget = 0;  // num_threads()
  int busy = 0;    // threads holding a slot now
  int peak = 0;    // most threads holding a slot at once since the last reset
  std::uint64_t regions = 0, joins = 0;  // parallel regions run; helpers that joined one
  std::uint64_t waits = 0, yields = 0;   // callers that waited for a slot; async hand-overs
};
ThreadStats thread_stats(bool reset_peak = false);

// How parallel_for cuts [0, n) into the chunks its threads claim.
enum class Schedule {
  // About four chunks per thread, each of at least `grain` items: few claims, and a slow
  // chunk still leaves the others something to take.
  Chunked,
  // Chunks of exactly `grain` items (the last one shorter), claimed one by one until none
  // is left: a thread that starts late takes little and nobody waits for a big chunk at
  // the end. fn sees one chunk per call even when the loop runs serially (callers size
  // the chunks to a cache or prefault them).
  Pieces,
};

// fn(begin, end) over chunks of [0, n) as `schedule` cuts them; at most max_threads
// threads take part, the caller's included (0 = pool size).
void parallel_for(index n, index grain, const std::function<void(index, index)>& fn, int max_threads = 0,
                  Schedule schedule = Schedule::Chunked);

// True while the current thread runs inside parallel_for.
bool in_parallel_region();

}  // namespace lapis
