// One strided gather into a contiguous output: transpose, permute, slice, diagonal, expand
// and split are all this kernel (the tensor API keeps every tensor dense, see
// docs/architecture.md). Dims are collapsed first (size-1 dims dropped, dims that walk
// memory as one merged), then one of three loops runs: contiguous rows (memcpy), a tiled
// transpose when the second-to-last dim is the unit-stride one (mT, mH, the last-two-dims
// permutation), or a strided row walk.
#include <algorithm>
#include <cstring>

#include "indexing_common.hpp"
#include "lapis/indexing.hpp"
#include "lapis/parallel.hpp"

namespace lapis {
namespace {

using indexing_detail::cj;
using indexing_detail::kParallelElems;

// Rows per tile of the transpose path: two cache lines of elements (32 float, 16 double,
// 8 complex128; at most 64), so each source row's run in a tile is whole lines.
template <class T>
constexpr index tile_of() {
  return std::min<index>(64, std::max<index>(4, index(128 / sizeof(T))));
}

struct Dims {
  int nd = 0;
  index shape[64];
  index strides[64];
};

// Size-1 dims dropped; a dim merged into the one before it when that one steps over it exactly.
Dims collapse(int nd, const index* shape, const index* strides) {
  Dims d;
  for (int i = 0; i < nd; ++i) {
    if (shape[i] == 1) continue;
    if (d.nd > 0 && d.strides[d.nd - 1] == strides[i] * shape[i]) {
      d.shape[d.nd - 1] *= shape[i];
      d.strides[d.nd - 1] = strides[i];
    } else {
      d.shape[d.nd] = shape[i];
      d.strides[d.nd] = strides[i];
      ++d.nd;
    }
  }
  return d;
}

// Walks the first `nouter` dims of d in row-major order from flat position `start`,
// tracking the element offset of the current position.
struct Counter {
  const Dims& d;
  int nouter;
  index cnt[64];
  index off = 0;
  Counter(const Dims& dims, int n, index start) : d(dims), nouter(n) {
    for (int i = nouter - 1; i >= 0; --i) {
      cnt[i] = start % d.shape[i];
      start /= d.shape[i];
      off += cnt[i] * d.strides[i];
    }
  }
  void next() {
    for (int i = nouter - 1; i >= 0; --i) {
      off += d.strides[i];
      if (++cnt[i] < d.shape[i]) return;
      off -= d.strides[i] * d.shape[i];
      cnt[i] = 0;
    }
  }
};

template <class T>
inline void copy_row(const T* src, index s, index len, T* dst, bool conj) {
  if (s == 0) {
    // A broadcast dim (expand): one value repeated, a fill the compiler vectorises.
    std::fill(dst, dst + len, conj ? cj(src[0]) : src[0]);
  } else if (s == 1 && !conj) {
    std::memcpy(dst, src, static_cast<size_t>(len) * sizeof(T));
  } else if (s == 1) {
    for (index j = 0; j < len; ++j) dst[j] = cj(src[j]);
  } else if (conj) {
    for (index j = 0; j < len; ++j) dst[j] = cj(src[j * s]);
  } else {
    for (index j = 0; j < len; ++j) dst[j] = src[j * s];
  }
}

// Rows [r0, r1) of the out block (R × C) = x[r + c·sc]: x's unit-stride dim becomes out's
// rows. Tiles of TB output rows × 16 columns: each output row of a tile is a contiguous run,
// and the 16 source rows it reads from stay in cache while the tile's rows walk along
// them. (Staging tiles in a local buffer to dodge cache-set aliasing measured slower.)
template <class T>
void transpose_rows(const T* x, index sc, index C, index r0, index r1, T* out, bool conj) {
  constexpr index TB = tile_of<T>(), TC = 16;
  // Column blocks outside: the source rows (pages, when sc is large) of one block are read
  // r1 − r0 long before the walk moves on, and the output rows stay TLB-resident.
  for (index cb = 0; cb < C; cb += TC) {
    const index cn = std::min(TC, C - cb);
    for (index rb = r0; rb < r1; rb += TB) {
      const index re = std::min(r1, rb + TB);
      for (index r = rb; r < re; ++r) {
        T* dst = out + r * C + cb;
        const T* src = x + cb * sc + r;
        if (conj) {
          for (index c = 0; c < cn; ++c) dst[c] = cj(src[c * sc]);
        } else {
          for (index c = 0; c < cn; ++c) dst[c] = src[c * sc];
        }
      }
    }
  }
}

}  // namespace

template <class T>
void strided_copy(int nd, const index* shape, const index* strides, index offset, const T* x, T* out, bool conj) {
  index total = 1;
  for (int i = 0; i < nd; ++i) total *= shape[i];
  if (total == 0) return;
  conj = conj && is_complex_v<T>;
  const Dims d = collapse(nd, shape, strides);
  const T* base = x + offset;
  if (d.nd == 0) {
    out[0] = conj ? cj(base[0]) : base[0];
    return;
  }
  const index C = d.shape[d.nd - 1], sc = d.strides[d.nd - 1];
  if (d.nd >= 2 && d.strides[d.nd - 2] == 1 && (sc > 1 || sc < -1)) {
    const index R = d.shape[d.nd - 2];
    const int nouter = d.nd - 2;
    // Work items: row blocks of `rows` output rows of one matrix (a few tiles, so threads balance).
    const index rows = 4 * tile_of<T>();
    const index mats = total / (R * C), tiles = (R + rows - 1) / rows;
    const index grain = std::max<index>(1, kParallelElems / (rows * C));
    auto run = [&](index b, index e) {
      Counter ctr(d, nouter, b / tiles);
      index mat = b / tiles;
      for (index it = b; it < e; ++it) {
        if (it / tiles != mat) {
          ctr.next();
          mat = it / tiles;
        }
        const index t = it % tiles;
        transpose_rows(base + ctr.off, sc, C, t * rows, std::min(R, (t + 1) * rows), out + mat * R * C, conj);
      }
    };
    if (total < kParallelElems) run(0, mats * tiles);
    else parallel_for(mats * tiles, grain, run);
    return;
  }
  const int nouter = d.nd - 1;
  const index rows = total / C;
  auto run = [&](index b, index e) {
    Counter ctr(d, nouter, b);
    for (index r = b; r < e; ++r) {
      copy_row(base + ctr.off, sc, C, out + r * C, conj);
      ctr.next();
    }
  };
  if (total < kParallelElems) run(0, rows);
  else parallel_for(rows, std::max<index>(1, kParallelElems / C), run);
}

#define LAPIS_INSTANTIATE(T) \
  template void strided_copy<T>(int, const index*, const index*, index, const T*, T*, bool);
LAPIS_INDEXING_TYPES(LAPIS_INSTANTIATE)
#undef LAPIS_INSTANTIATE

}  // namespace lapis
