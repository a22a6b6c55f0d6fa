// A small persistent thread pool. Size: LAPIS_NUM_THREADS if set, else the hardware
// concurrency. parallel_for splits [0, n) into contiguous chunks, runs them on the pool
// and the calling thread, and returns when all are done. Nested calls run serially
// (a kernel already inside a parallel region never oversubscribes).
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

// fn(begin, end) over chunks of at least `grain` items; at most max_threads workers
// (0 = pool size).
void parallel_for(index n, index grain, const std::function<void(index, index)>& fn, int max_threads = 0);

// True while the current thread runs inside parallel_for.
bool in_parallel_region();

}  // namespace lapis
