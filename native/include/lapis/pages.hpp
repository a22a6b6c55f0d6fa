// Page advice for large outputs. Outputs arrive from Node as fresh, untouched zero pages;
// a kernel's first writes then fault them in 4 KiB at a time, which in a VM (1–2 µs a
// fault) can cost more than a memory-bound kernel itself. Two remedies, both advice only
// (memory ownership stays with V8, and a refusal leaves the old behaviour):
//  - advise_hugepages: mark the 2 MiB-aligned interior for transparent huge pages (where
//    THP is "madvise"), 512× fewer faults; numpy does the same for its arrays.
//    LAPIS_HUGEPAGES=0 turns it off (where direct compaction stalls cost more);
//  - prefault: map a range in one call just before it is written (Linux ≥ 5.14).
// Only whole pages inside the range are touched, so no neighbouring allocation is affected.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lapis::detail {

// The huge-page size advise_hugepages works with, 0 where it does nothing.
#if defined(__linux__) && defined(MADV_HUGEPAGE)
inline constexpr size_t kHugePage = size_t(1) << 21;
#else
inline constexpr size_t kHugePage = 0;
#endif

inline bool hugepages_wanted() {
  static const bool on = [] {
    const char* v = std::getenv("LAPIS_HUGEPAGES");
    return !(v && v[0] == '0');
  }();
  return on;
}

/** Huge-page advice for [p, p + bytes) when it holds at least `min_pages` whole 2 MiB pages. */
inline void advise_hugepages(const void* p, size_t bytes, size_t min_pages = 1) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (!hugepages_wanted()) return;
  constexpr uintptr_t pg = uintptr_t(1) << 21;
  const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + pg - 1) & ~(pg - 1);
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(pg - 1);
  if (e > b && e - b >= min_pages * pg) (void)madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
  (void)min_pages;
#endif
}

/** Maps [p, p + bytes) for writing in one call when it spans at least 8 whole 4 KiB pages. */
inline void prefault(const void* p, size_t bytes) {
#if defined(__linux__)
  constexpr uintptr_t pg = 4096;
  const uintptr_t b = (reinterpret_cast<uintptr_t>(p) + pg - 1) & ~(pg - 1);
  const uintptr_t e = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(pg - 1);
  if (e >= b + 8 * pg) (void)madvise(reinterpret_cast<void*>(b), e - b, 23 /* MADV_POPULATE_WRITE */);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace lapis::detail
