// Batches of tiny systems with one right-hand side, several systems per SIMD register
// (one per lane, structure-of-arrays). Internal to native/src.
#pragma once
#include <cstdint>

#include "lapis/common.hpp"

namespace lapis::detail {

// Largest n the lane kernels are instantiated for (fully unrolled code grows as n³; up to 16
// was faster still but too large, docs/decisions.md).
inline constexpr index kTinyMax = 12;

// A lane's info when its A is finite but its largest entry lies beyond LAPACK's
// BIGNUM/SMLNUM (equilibrate.hpp): the kernel does not scale, solve_batched redoes it.
inline constexpr int32_t kTinyInfoEquilibrate = -100;

template <class T> struct TinySolver {
  int lanes = 0;  // systems per group; 0 = no lane kernel in this build
  // groups·lanes contiguous n×n systems A·x = b (2 ≤ n ≤ kTinyMax), one info per system:
  // 0, k > 0 for an exactly zero k-th pivot, −1 for a non-finite A (x is NaN for both),
  // kTinyInfoEquilibrate for a finite A near overflow/underflow (redone by the caller).
  // Every decision (pivot row, divide or multiply by the reciprocal) is made per lane, so
  // a system's result does not depend on its neighbours in the group.
  void (*groups)(index n, index ngroups, const T* A, const T* B, T* X, int32_t* info) = nullptr;
};

// The widest build the CPU runs (LAPIS_KERNELS=portable or =avx2 narrows the choice).
template <class T> const TinySolver<T>& tiny_solver();
const char* tiny_solver_name();

namespace tiny_portable { template <class T> TinySolver<T> make(); }
namespace tiny_avx2 { template <class T> TinySolver<T> make(); }
namespace tiny_avx512 { template <class T> TinySolver<T> make(); }

}  // namespace lapis::detail
