// Batched inverses of n ≤ 4 matrices. Real types run the lane kernel of
// inv_small_lanes.hpp (one matrix per SIMD lane, branch-free Gauss–Jordan with partial
// pivoting): AVX-512 or AVX2+FMA as active_isa() allows, else the same algorithm on the
// portable packet. Complex types take the scalar per-matrix path (rare enough not to need
// lanes).
#include "lapis/inv_small.hpp"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // 32-byte Generic lanes, passed only into inlined calls
#endif

#include <limits>

#include "inv_small_lanes.hpp"
#include "lapis/isa.hpp"
#include "lapis/pages.hpp"
#include "lapis/parallel.hpp"

namespace lapis {

#if defined(__x86_64__) || defined(_M_X64)
void inv_small_avx2(index n, index count, const float* A, float* X, int32_t* info);
void inv_small_avx2(index n, index count, const double* A, double* X, int32_t* info);
#define LAPIS_INV_HAVE_AVX2 1
#if defined(__GNUC__) || defined(__clang__)
void inv_small_avx512(index n, index count, const float* A, float* X, int32_t* info);
void inv_small_avx512(index n, index count, const double* A, double* X, int32_t* info);
#define LAPIS_INV_HAVE_AVX512 1
#endif
#endif

namespace {

#if defined(LAPIS_INV_HAVE_AVX2)
bool use_avx2() {
#if defined(__GNUC__) || defined(__clang__)
  return runs_avx2(active_isa());
#else
  return false;
#endif
}
#endif

#if defined(LAPIS_INV_HAVE_AVX512)
bool use_avx512() { return active_isa() == Isa::avx512; }
#endif

template <class T>
int32_t inv_one(index n, const T* a, T* x) {
  T w[4][8];
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) {
      w[i][j] = a[i * n + j];
      w[i][n + j] = i == j ? T(1) : T(0);
    }
  int32_t info = 0;
  for (index i = 0; i < n * n; ++i)
    if (!is_finite(a[i])) info = -1;
  for (index c = 0; c < n && info == 0; ++c) {
    index p = c;
    for (index r = c + 1; r < n; ++r) if (abs1(w[r][c]) > abs1(w[p][c])) p = r;
    if (w[p][c] == T(0)) { info = static_cast<int32_t>(c + 1); break; }
    if (p != c) for (index j = 0; j < 2 * n; ++j) std::swap(w[p][j], w[c][j]);
    const T piv = w[c][c];
    for (index j = c + 1; j < 2 * n; ++j) w[c][j] /= piv;
    for (index r = 0; r < n; ++r) {
      if (r == c) continue;
      const T f = w[r][c];
      for (index j = c + 1; j < 2 * n; ++j) w[r][j] -= f * w[c][j];
    }
  }
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j)
      x[i * n + j] = info ? T(std::numeric_limits<real_t<T>>::quiet_NaN()) : w[i][n + j];
  return info;
}

template <class T>
void inv_small_scalar(index n, index count, const T* A, T* X, int32_t* info) {
  parallel_for(count, 4096, [&](index b0, index b1) {
    for (index b = b0; b < b1; ++b) info[b] = inv_one(n, A + b * n * n, X + b * n * n);
  });
}

}  // namespace

template <class T>
void inv_small_batched(index n, index count, const T* A, T* X, int32_t* info) {
  if (count <= 0 || n <= 0) return;
  // A large batch's output is fresh pages: huge pages fault in faster (docs/decisions.md).
  detail::advise_hugepages(X, sizeof(T) * static_cast<size_t>(count * n * n));
  if constexpr (is_complex_v<T>) {
    inv_small_scalar(n, count, A, X, info);
  } else {
#ifdef LAPIS_INV_HAVE_AVX512
    if (use_avx512()) { inv_small_avx512(n, count, A, X, info); return; }
#endif
#ifdef LAPIS_INV_HAVE_AVX2
    if (use_avx2()) { inv_small_avx2(n, count, A, X, info); return; }
#endif
    // 32-byte lanes: as many matrices per group as the AVX2 build
    inv_small_lanes<simd::Pack<simd::Generic<32>, T>>(n, count, A, X, info);
  }
}

template void inv_small_batched<float>(index, index, const float*, float*, int32_t*);
template void inv_small_batched<double>(index, index, const double*, double*, int32_t*);
template void inv_small_batched<std::complex<float>>(index, index, const std::complex<float>*, std::complex<float>*, int32_t*);
template void inv_small_batched<std::complex<double>>(index, index, const std::complex<double>*, std::complex<double>*, int32_t*);

}  // namespace lapis
