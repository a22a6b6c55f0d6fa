// A small persistent thread pool. Size: LAPIS_NUM_THREADS if set, else the hardware
// concurrency. parallel_for splits [0, n) into contiguous chunks that the pool's threads
// and the calling thread claim one at a time from a shared counter (so uneven chunks
// balance themselves), and returns when all are done. Nested calls run serially (a
// kernel already inside a parallel region never oversubscribes). It is the one scheduler
// of the kernels: a module that needs its own chunking picks a Schedule, it does not run
// its own counter.
//
// Safe to call from several threads at once and during set_num_threads(): one region
// uses the workers at a time, and a caller that finds them busy runs its loop serially
// on its own thread (it never waits on another caller's region). An exception thrown by
// fn on any thread is rethrown to the caller of parallel_for once all chunks stopped.
#pragma once
#include <functional>
#include "lapis/common.hpp"

namespace lapis {

int num_threads();
// Waits for the parallel region in flight (if any), then replaces the workers. The size
// may come out smaller than asked if the system refuses to start more threads.
void set_num_threads(int n);

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
