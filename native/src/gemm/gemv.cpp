// Matrix-vector products (gemv.hpp): the shape is reduced to t = M·x with M's rows or
// columns contiguous, x copied when strided or conjugated (k elements beside the m·k
// product), then y = alpha·t + beta·y. Large products split M's rows over the threads.
#include "gemv.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gemm_kernels.hpp"
#include "lapis/blas1.hpp"
#include "lapis/isa.hpp"
#include "lapis/parallel.hpp"
#include "lapis/simd.hpp"

namespace lapis::gemm_detail {

namespace gemv_portable {
template <class R> using Pk = simd::Pack<simd::Portable, R>;
constexpr int kVecRegs = 16;
#include "gemv_impl.hpp"
}  // namespace gemv_portable

template <class T> const GemvKernels<T>& gemv_kernels() {
  static const GemvKernels<T> k = [] {
    switch (active_isa()) {
#if LAPIS_GEMM_X86
      case Isa::avx512: return gemv_avx512::make<T>();
      case Isa::avx2: return gemv_avx2::make<T>();
#endif
#if LAPIS_GEMM_ARM64
      case Isa::neon: return gemv_neon::make<T>();
#endif
      default: return gemv_portable::make<T>();
    }
  }();
  return k;
}

namespace {

// Below this many real multiply-adds per thread, waking another thread costs more than it saves.
constexpr double kGemvPerThread = 65536;

template <class T> std::vector<T>& buffer(int which) {
  thread_local std::vector<T> b[2];
  return b[which];
}

using blas1::mul;  // the textbook complex product, as in the kernels

// y (len elements, stride ys) ← alpha·t + beta·y; beta == 0 never reads y.
template <class T>
void merge(index len, const T* t, T alpha, T beta, T* y, index ys) {
  if (beta == T(0)) {
    if (alpha == T(1))
      for (index i = 0; i < len; ++i) y[i * ys] = t[i];
    else
      for (index i = 0; i < len; ++i) y[i * ys] = mul(alpha, t[i]);
  } else if (alpha == T(1) && beta == T(1)) {
    for (index i = 0; i < len; ++i) y[i * ys] += t[i];
  } else {
    for (index i = 0; i < len; ++i) y[i * ys] = mul(alpha, t[i]) + mul(beta, y[i * ys]);
  }
}

// y ← alpha·M·x + beta·y, M rows×k; x at stride xs (conjugated when conj_x), y at stride ys.
template <class T>
void matvec(T alpha, MatRef<T> M, const T* x, index xs, bool conj_x, T beta, T* y, index ys, int max_threads) {
  const index rows = M.rows, k = M.cols;
  if (rows <= 0) return;
  if (k <= 0 || alpha == T(0)) {
    for (index i = 0; i < rows; ++i) y[i * ys] = beta == T(0) ? T(0) : mul(beta, y[i * ys]);
    return;
  }
  const bool cj_x = is_complex_v<T> && conj_x, cj_m = is_complex_v<T> && M.conj;
  // a contiguous, conjugation-applied x
  const T* xc = x;
  if (xs != 1 || cj_x) {
    auto& b = buffer<T>(0);
    b.resize(static_cast<size_t>(k));
    for (index p = 0; p < k; ++p) b[p] = cj_x ? conj(x[p * xs]) : x[p * xs];
    xc = b.data();
  }
  const GemvKernels<T>& K = gemv_kernels<T>();
  auto part = [&](index r0, index r1) {
    const index len = r1 - r0;
    // t, 64 bytes longer than it needs, at the alignment of M's column on the column path
    // (the kernels start their packets at a packet boundary of the column)
    auto& tb = buffer<T>(1);
    tb.resize(static_cast<size_t>(len) + 64 / sizeof(T) + 1);
    T* t = tb.data();
    if (M.rs == 1 && M.cs != 1) {
      const auto mis = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64; };
      const std::uintptr_t d = (mis(M.p + r0) + 64 - mis(t)) % 64;
      if (d % sizeof(T) == 0) t += d / sizeof(T);
    }
    if (M.cs == 1) {
      K.rows(len, k, M.p + r0 * M.rs, M.rs, xc, t, cj_m);
    } else if (M.rs == 1) {
      K.cols(len, k, M.p + r0, M.cs, xc, t, cj_m);
    } else {
      for (index i = 0; i < len; ++i) {
        T s = T(0);
        for (index p = 0; p < k; ++p) s += mul(M.at(r0 + i, p), xc[p]);
        t[i] = s;
      }
    }
    merge(len, t, alpha, beta, y + r0 * ys, ys);
  };
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  const double work = double(rows) * k * (is_complex_v<T> ? 4 : 1);
  threads = static_cast<int>(std::min<double>({double(threads), work / kGemvPerThread, double(rows / 16)}));
  if (threads <= 1 || in_parallel_region()) return part(0, rows);
  // row pieces of whole 16-row groups, one per thread
  const index groups = (rows + 15) / 16;
  parallel_for(threads, 1, [&](index c0, index c1) {
    for (index c = c0; c < c1; ++c) {
      const index r0 = std::min(rows, groups * c / threads * 16), r1 = std::min(rows, groups * (c + 1) / threads * 16);
      if (r1 > r0) part(r0, r1);
    }
  }, threads);
}

}  // namespace

template <class T>
bool gemv(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int threads) {
  if (C.cols == 1) {
    // y = op(A)·x: x is B's column, y C's
    matvec(alpha, A, B.p, B.rs, B.conj, beta, C.p, C.rs, threads);
    return true;
  }
  if (C.rows == 1) {
    // yᵀ = xᵀ·op(B), i.e. y = op(B)ᵀ·x: x is A's row, y C's
    matvec(alpha, B.t(), A.p, A.cs, A.conj, beta, C.p, C.cs, threads);
    return true;
  }
  return false;
}

#define LAPIS_INST(T)                                                        \
  template bool gemv<T>(T, MatRef<T>, MatRef<T>, T, MatMut<T>, int);        \
  template const GemvKernels<T>& gemv_kernels<T>();
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis::gemm_detail
