// Shared pieces of the indexing kernels: the dtype list they are instantiated for, the
// conjugate that is a no-op on real and integer types, the threading threshold.
#pragma once
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "lapis/common.hpp"
#include "lapis/parallel.hpp"

// X(T) for every element type of the tensor API (uint8_t is bool).
#define LAPIS_INDEXING_TYPES(X) \
  X(float) X(double) X(std::complex<float>) X(std::complex<double>) X(int32_t) X(uint32_t) X(uint8_t)

namespace lapis::indexing_detail {

// Below this many elements a copy runs on the calling thread: waking the pool costs more.
constexpr index kParallelElems = index(1) << 15;

template <class T>
inline T cj(T v) {
  if constexpr (is_complex_v<T>) return std::conj(v);
  else return v;
}

// dst[0, n) = src[0, n), split across the pool when large (memory-bound: a few threads
// saturate the bandwidth one thread cannot).
template <class T>
inline void copy_parallel(T* dst, const T* src, index n) {
  if (n <= 0) return;
  const index grain = index(1) << 16;
  if (n < 2 * grain) {
    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
    return;
  }
  parallel_for(n, grain, [&](index b, index e) { std::memcpy(dst + b, src + b, static_cast<size_t>(e - b) * sizeof(T)); });
}

// a + b as put's accumulate: integers wrap (computed unsigned: no signed overflow), bool is or.
template <class T>
inline T accumulate(T a, T b) {
  if constexpr (std::is_same_v<T, int32_t>) return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  else if constexpr (std::is_same_v<T, uint8_t>) return static_cast<uint8_t>(a | b);
  else return a + b;
}

}  // namespace lapis::indexing_detail
