// Shape and indexing kernels of the tensor API (registry ops stridedCopy, triangle, concat,
// take, put). Every tensor is dense row-major, so a transpose, slice, diagonal or broadcast
// is one strided gather into a new contiguous array. Sizes and strides are in elements (a
// complex number is one); the bindings have checked that every offset read is in range.
// Instantiated for float, double, std::complex<float>, std::complex<double>, int32_t,
// uint32_t and uint8_t (bool).
#pragma once
#include <cstdint>

#include "lapis/common.hpp"

namespace lapis {

// out (contiguous, shape[0..nd)) = x[offset + Σ_d i_d·strides[d]]; strides may be 0 or
// negative. conj conjugates complex elements (ignored for real types). Multi-threaded for
// large copies; the last-two-dims transpose takes a tiled path.
template <class T>
void strided_copy(int nd, const index* shape, const index* strides, index offset, const T* x, T* out, bool conj);

// triu (upper) or tril of `count` m×n matrices: out = x with the entries j − i < k (upper)
// or j − i > k (lower) set to zero.
template <class T>
void triangle(index count, index m, index n, bool upper, index k, const T* x, T* out);

// Concatenation along one dim: out holds `outer` rows, each the parts' rows one after the
// other (part p contributes sizes[p] contiguous elements per row, read from xs[p]).
template <class T>
void concat(index outer, int parts, const T* const* xs, const index* sizes, T* out);

// out[i] = x[idx[i]] for i < n (indices already in range).
template <class T>
void take(index n, const T* x, const int32_t* idx, T* out);

// out = x (size total), then out[idx[i]] = values[i] (accumulate: += with every duplicate
// counted, in index order; integers wrap, bool is logical or) for i < n.
template <class T>
void put(index total, const T* x, index n, const int32_t* idx, const T* values, T* out, bool accumulate);

}  // namespace lapis
