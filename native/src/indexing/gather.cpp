// triu/tril, concat, take and put: row copies and flat gathers/scatters over dense arrays.
#include <algorithm>
#include <cstring>

#include "indexing_common.hpp"
#include "lapis/indexing.hpp"
#include "lapis/parallel.hpp"

namespace lapis {

using indexing_detail::kParallelElems;

template <class T>
void triangle(index count, index m, index n, bool upper, index k, const T* x, T* out) {
  if (count == 0 || m == 0 || n == 0) return;
  const index rows = count * m;
  // k beyond ±(m + n) selects all or nothing; clamping keeps i + k from overflowing.
  k = std::clamp<index>(k, -m - 1, n + 1);
  auto run = [&](index b, index e) {
    for (index r = b; r < e; ++r) {
      const index i = r % m;
      const T* src = x + r * n;
      T* dst = out + r * n;
      // upper keeps j ≥ i + k, lower keeps j ≤ i + k: [0, split) is zeroed or copied.
      const index split = std::clamp<index>(upper ? i + k : i + k + 1, 0, n);
      if (upper) {
        std::fill(dst, dst + split, T{});
        std::memcpy(dst + split, src + split, static_cast<size_t>(n - split) * sizeof(T));
      } else {
        std::memcpy(dst, src, static_cast<size_t>(split) * sizeof(T));
        std::fill(dst + split, dst + n, T{});
      }
    }
  };
  if (rows * n < kParallelElems) run(0, rows);
  else parallel_for(rows, std::max<index>(1, kParallelElems / n), run);
}

template <class T>
void concat(index outer, int parts, const T* const* xs, const index* sizes, T* out) {
  index row = 0;
  for (int p = 0; p < parts; ++p) row += sizes[p];
  if (outer == 0 || row == 0) return;
  if (outer == 1) {
    // One row (concat along dim 0): each part is one big copy.
    index at = 0;
    for (int p = 0; p < parts; ++p) {
      indexing_detail::copy_parallel(out + at, xs[p], sizes[p]);
      at += sizes[p];
    }
    return;
  }
  auto run = [&](index b, index e) {
    for (index o = b; o < e; ++o) {
      T* dst = out + o * row;
      for (int p = 0; p < parts; ++p) {
        // an empty part's data may be null, which memcpy may not receive even for 0 bytes
        if (sizes[p] > 0) std::memcpy(dst, xs[p] + o * sizes[p], static_cast<size_t>(sizes[p]) * sizeof(T));
        dst += sizes[p];
      }
    }
  };
  if (outer * row < kParallelElems) run(0, outer);
  else parallel_for(outer, std::max<index>(1, kParallelElems / row), run);
}

template <class T>
void take(index n, const T* x, const int32_t* idx, T* out) {
  auto run = [&](index b, index e) {
    for (index i = b; i < e; ++i) out[i] = x[idx[i]];
  };
  if (n < kParallelElems) run(0, n);
  else parallel_for(n, kParallelElems, run);
}

template <class T>
void put(index total, const T* x, index n, const int32_t* idx, const T* values, T* out, bool accumulate) {
  if (out != x) indexing_detail::copy_parallel(out, x, total);
  // Serial, in index order: the last duplicate wins without accumulate, and sums are reproducible with it.
  if (accumulate) {
    for (index i = 0; i < n; ++i) out[idx[i]] = indexing_detail::accumulate(out[idx[i]], values[i]);
  } else {
    for (index i = 0; i < n; ++i) out[idx[i]] = values[i];
  }
}

#define LAPIS_INSTANTIATE(T)                                                        \
  template void triangle<T>(index, index, index, bool, index, const T*, T*);        \
  template void concat<T>(index, int, const T* const*, const index*, T*);           \
  template void take<T>(index, const T*, const int32_t*, T*);                       \
  template void put<T>(index, const T*, index, const int32_t*, const T*, T*, bool);
LAPIS_INDEXING_TYPES(LAPIS_INSTANTIATE)
#undef LAPIS_INSTANTIATE

}  // namespace lapis
