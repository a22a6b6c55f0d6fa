// Batches of small triangular solves with several right-hand sides (n ≤ kTrsmSmallMax):
// one register-blocked kernel per system, no packing, no per-call blocking decisions.
// Internal to native/src; the entry point is trsm_small_batched (lapis/trsm.hpp).
#pragma once
#include "lapis/common.hpp"

namespace lapis::detail {

inline constexpr index kTrsmSmallMax = 128;

template <class T> struct TrsmSmall {
  // One lower-triangular system L·X = B in place of X (B may equal X): L(i, j) =
  // A[i·ars + j·acs], read only for j < i (and j = i when !unit); row i of B / X at
  // B + i·brs / X + i·xrs, its k elements contiguous. Strides may be negative (an upper
  // triangle is the lower one seen from the last row). 1 ≤ n ≤ kTrsmSmallMax. nextA /
  // nextB (n·n and n·k elements, or null) are prefetched along the way: the next system.
  void (*solve)(bool unit, index n, index k, const T* A, index ars, index acs, const T* B, index brs, T* X,
                index xrs, const T* nextA, const T* nextB) = nullptr;
};

// The widest build the CPU runs (LAPIS_KERNELS=portable or =avx2 narrows the choice);
// solve is null where the compiler has no vector extensions (MSVC).
template <class T> const TrsmSmall<T>& trsm_small();
const char* trsm_small_name();

namespace trsm_small_portable { template <class T> TrsmSmall<T> make(); }
namespace trsm_small_avx2 { template <class T> TrsmSmall<T> make(); }
namespace trsm_small_avx512 { template <class T> TrsmSmall<T> make(); }

}  // namespace lapis::detail
