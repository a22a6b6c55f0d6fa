// Reductions over one dim of a contiguous tensor seen as (outer, n, inner): out[o, j] =
// op over r of x[o, r, j]. The caller merges adjacent dims and reduces non-adjacent groups
// one at a time. Results do not depend on the thread count: rows are cut into blocks of a
// fixed size (shape-only), partials combined in a fixed order.
#pragma once
#include <cstdint>
#include "lapis/common.hpp"

namespace lapis {

enum class ReduceKind : int { sum = 0, prod = 1, max = 2, min = 3, any = 4, all = 5, sum_squares = 6, sum_magnitudes = 7 };

// T ∈ {float, double, complex<float>, complex<double>, int32_t, uint32_t, uint8_t (bool)}.
// out's element type: uint8_t (0/1) for any/all; int32_t for sum/prod of uint8_t (bool);
// T otherwise. sum of floating types: pairwise (8 lanes, numpy's scheme), in T; integer
// sum/prod wrap modulo 2^32; max/min propagate NaN (n ≥ 1 for them: the caller checks);
// n = 0 gives sum 0, prod 1, any false, all true. sum_squares (Σ|x|²) and sum_magnitudes
// (Σ|x|), the norms' sums: floating T (real or complex), out double, summed in double
// (pairwise in SIMD lanes for double data), so float32 squares never over- or underflow.
template <class T>
void reduce(ReduceKind op, index outer, index n, index inner, const T* x, void* out);

// max (is_max) or min over the n dim with the index of its first occurrence; NaN counts as
// the extremum (its first index, numpy). n ≥ 1. T real or integral (no complex).
template <class T>
void arg_reduce(bool is_max, index outer, index n, index inner, const T* x, T* values, int32_t* indices);

}  // namespace lapis
