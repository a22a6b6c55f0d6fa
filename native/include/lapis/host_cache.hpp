// A process-wide cache of large host blocks for op outputs (native/binding/host_alloc.cpp).
// A fresh 40 MB output costs glibc an mmap, a page fault per 4 KiB on first write and an
// munmap when V8 frees it — together more than a memory-bound kernel. Blocks handed back
// here stay mapped and faulted, so the next output of a similar size reuses them.
// Kernel-free: no Node-API here. One mutex guards everything (finalizers of every worker
// thread's addon instance share it), and a block is either live or cached, never both.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <list>
#include <mutex>

#include "lapis/pages.hpp"

#if defined(_WIN32)
#include <malloc.h>
#endif

namespace lapis::detail {

struct HostCacheStats {
  uint64_t live_blocks = 0, live_bytes = 0;      // handed out, not yet released
  uint64_t cached_blocks = 0, cached_bytes = 0;  // released, kept for reuse
  uint64_t hits = 0, misses = 0, evicted = 0;    // reuses, fresh allocations, blocks freed by the cap
  uint64_t refused = 0;                          // requests over the live bound (the caller allocates elsewhere)
  uint64_t cap_bytes = 0;
};

class HostCache {
 public:
  static constexpr size_t kAlign = size_t(1) << 21;  // 2 MiB: huge-page aligned
  static constexpr size_t kMinCap = size_t(256) << 20;

  static HostCache& instance() {
    // Never destroyed: finalizers may run during process teardown after static destructors.
    static HostCache* c = new HostCache();
    return *c;
  }

  /**
   * A block of at least `bytes` (capacity rounded to 2 MiB), or nullptr when out of memory or
   * when live blocks would pass max(256 MiB, 2 × the request): Node runs the finalizers that
   * return blocks only between event-loop turns, so a synchronous loop of ops would otherwise
   * hold every dead output until it ends.
   */
  void* acquire(size_t bytes, size_t* capacity) {
    const size_t want = round_up(bytes);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (s_.live_bytes + want > std::max(kMinCap, 2 * want)) {
        s_.refused++;
        return nullptr;
      }
      // Best fit up to 1.25× the rounded size, so a big block is not spent on a small output.
      auto best = free_.end();
      for (auto it = free_.begin(); it != free_.end(); ++it) {
        if (it->size >= want && it->size <= want + want / 4 && (best == free_.end() || it->size < best->size)) best = it;
      }
      if (best != free_.end()) {
        void* p = best->ptr;
        *capacity = best->size;
        s_.cached_blocks--;
        s_.cached_bytes -= best->size;
        free_.erase(best);
        s_.live_blocks++;
        s_.live_bytes += *capacity;
        s_.hits++;
        return p;
      }
    }
    void* p = raw_alloc(want);
    if (p == nullptr) return nullptr;
    advise_hugepages(p, want);
    std::lock_guard<std::mutex> lock(mu_);
    *capacity = want;
    largest_ = std::max(largest_, want);
    s_.live_blocks++;
    s_.live_bytes += want;
    s_.misses++;
    return p;
  }

  /** Takes back a block from acquire (exactly once); frees the oldest cached ones beyond the cap. */
  void release(void* p, size_t capacity) {
    std::list<Block> drop;
    {
      std::lock_guard<std::mutex> lock(mu_);
      s_.live_blocks--;
      s_.live_bytes -= capacity;
      free_.push_back({p, capacity});
      s_.cached_blocks++;
      s_.cached_bytes += capacity;
      const size_t cap = cap_bytes();
      while (s_.cached_bytes > cap && !free_.empty()) {
        s_.cached_blocks--;
        s_.cached_bytes -= free_.front().size;
        s_.evicted++;
        drop.splice(drop.end(), free_, free_.begin());
      }
    }
    for (const Block& b : drop) raw_free(b.ptr);  // outside the lock: munmap is slow
  }

  /** Frees every cached block (live ones are untouched). */
  void trim() {
    std::list<Block> drop;
    {
      std::lock_guard<std::mutex> lock(mu_);
      s_.evicted += s_.cached_blocks;
      s_.cached_blocks = 0;
      s_.cached_bytes = 0;
      drop.swap(free_);
    }
    for (const Block& b : drop) raw_free(b.ptr);
  }

  HostCacheStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    HostCacheStats s = s_;
    s.cap_bytes = cap_bytes();
    return s;
  }

 private:
  struct Block {
    void* ptr;
    size_t size;
  };

  // At most max(256 MiB, 4 × the largest block) stays cached (mu_ held).
  size_t cap_bytes() const { return std::max(kMinCap, 4 * largest_); }

  static size_t round_up(size_t bytes) { return (std::max<size_t>(bytes, 1) + kAlign - 1) & ~(kAlign - 1); }

  static void* raw_alloc(size_t bytes) {
#if defined(_WIN32)
    return _aligned_malloc(bytes, kAlign);
#else
    void* p = nullptr;
    return posix_memalign(&p, kAlign, bytes) == 0 ? p : nullptr;
#endif
  }
  static void raw_free(void* p) {
#if defined(_WIN32)
    _aligned_free(p);
#else
    std::free(p);
#endif
  }

  std::mutex mu_;
  std::list<Block> free_;  // oldest release first
  size_t largest_ = 0;
  HostCacheStats s_;
};

}  // namespace lapis::detail
