// Walks a broadcast binary layout (lapis::Broadcast2) in parallel chunks of the flat
// output, calling run(aOff, bOff, outOff, len) on maximal contiguous inner runs.
#pragma once
#include <algorithm>

#include "lapis/parallel.hpp"
#include "lapis/special.hpp"

namespace lapis::special_detail {

constexpr int kMaxDims = 64;
// Elementwise work is memory-bound: chunks big enough to amortise the pool hand-off.
constexpr index kGrain = 1 << 15;

template <class Run>
void walk_range(const Broadcast2& bc, index begin, index end, Run&& run) {
  const int nd = bc.ndim;
  const index inner = bc.shape[nd - 1];
  if (inner == 0 || begin >= end) return;
  const index sai = bc.sa[nd - 1], sbi = bc.sb[nd - 1];
  index cnt[kMaxDims];
  index row = begin / inner, j = begin % inner;
  index arow = 0, brow = 0;
  for (int d = nd - 2; d >= 0; --d) {
    cnt[d] = row % bc.shape[d];
    row /= bc.shape[d];
    arow += cnt[d] * bc.sa[d];
    brow += cnt[d] * bc.sb[d];
  }
  index o = begin;
  while (o < end) {
    const index len = std::min(inner - j, end - o);
    run(arow + j * sai, brow + j * sbi, o, len);
    o += len;
    j = 0;
    for (int d = nd - 2; d >= 0; --d) {
      arow += bc.sa[d];
      brow += bc.sb[d];
      if (++cnt[d] < bc.shape[d]) break;
      arow -= bc.sa[d] * cnt[d];
      brow -= bc.sb[d] * cnt[d];
      cnt[d] = 0;
    }
  }
}

template <class Run>
void walk(const Broadcast2& bc, Run&& run, index grain = kGrain) {
  const index total = broadcast_size(bc);
  parallel_for(total, grain, [&](index b, index e) { walk_range(bc, b, e, run); });
}

}  // namespace lapis::special_detail
