// Recursive blocked TRSM. Everything is reduced to the left side (X·op(A) = αB is
// op(A)ᵀ·Xᵀ = αBᵀ: a stride swap), then split in halves: solve one half, update the
// other with one GEMM, solve it. Diagonal blocks up to the block size are packed (only
// the named triangle is read, conjugation applied, so the other triangle may hold NaN)
// and solved by the unblocked row kernel, or (real types, rows of B contiguous) by the
// register-blocked kernel of the small batched solves. With several threads the columns
// of B are split between them and each runs the whole solve on its own columns: every
// leaf solve and GEMM update is then parallel, with no barrier between them.
#include "lapis/trsm.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "../gemm/gemm_kernels.hpp"
#include "../lu/kernels.hpp"
#include "lapis/gemm.hpp"
#include "lapis/isa.hpp"
#include "lapis/lu.hpp"
#include "lapis/parallel.hpp"
#include "trsm_small.hpp"

namespace lapis {

namespace {

template <class T> std::vector<T>& scratch(int which) {
  thread_local std::vector<T> buf[2];
  return buf[which];
}

// The active GEMM family's register-tile width for T (its nr, as gemm.cpp picks the family):
// the unpacked GEMM that updates a narrow strip of B runs one full tile pass per nr columns or
// part of them, so a strip of 32 columns costs as much as 48 where nr = 24.
template <class T> index gemm_tile_cols() {
  static const index nr = [] {
    using namespace gemm_detail;
    Family f;
    switch (active_isa()) {
#if LAPIS_GEMM_X86
      case Isa::avx512: f = avx512_family(); break;
      case Isa::avx2: f = avx2_family(); break;
#endif
#if LAPIS_GEMM_ARM64
      case Isa::neon: f = neon_family(); break;
#endif
      default:
#if defined(__wasm_simd128__)
        f = wasm_family();
#else
        f = portable_family();
#endif
    }
    if constexpr (std::is_same_v<T, float>) return index(f.s.nr);
    else if constexpr (std::is_same_v<T, double>) return index(f.d.nr);
    else if constexpr (std::is_same_v<T, std::complex<float>>) return index(f.c.nr);
    else return index(f.z.nr);
  }();
  return nr;
}

template <class T>
void diag_solve(bool upper, bool unit, MatRef<T> A, MatMut<T> B) {
  const index n = A.rows, k = B.cols;
  if constexpr (!is_complex_v<T>) {
    // In place (B is X); an upper triangle is the lower one seen from its last row.
    const auto& small = detail::trsm_small<T>();
    if (small.solve && B.cs == 1 && n <= detail::kTrsmSmallMax) {
      if (!upper) {
        small.solve(unit, n, k, A.p, A.rs, A.cs, B.p, B.rs, B.p, B.rs, nullptr, nullptr);
      } else {
        T* last = B.p + (n - 1) * B.rs;
        small.solve(unit, n, k, A.p + (n - 1) * (A.rs + A.cs), -A.rs, -A.cs, last, -B.rs, last, -B.rs, nullptr,
                    nullptr);
      }
      return;
    }
  }
  const auto& kern = detail::solver_kernels<T>();
  // The kernel reads only the named triangle, so a row-major, unconjugated A is used in
  // place; other views are packed (conjugation applied) into a small buffer first.
  const T* tp = A.p;
  index ldt = A.rs;
  if (A.cs != 1 || (is_complex_v<T> && A.conj)) {
    auto& t = scratch<T>(0);
    t.resize(static_cast<size_t>(n * n));
    for (index i = 0; i < n; ++i) {
      const index j0 = upper ? (unit ? i + 1 : i) : 0, j1 = upper ? n : (unit ? i : i + 1);
      for (index j = j0; j < j1; ++j) t[i * n + j] = A.at(i, j);
    }
    tp = t.data();
    ldt = n;
  }
  // Column chunks keep the rows being updated in cache when B is wide.
  const index kc = 256;
  if (B.cs == 1) {
    for (index c = 0; c < k; c += kc) kern.trsv_rows(upper, unit, n, std::min(kc, k - c), tp, ldt, B.p + c, B.rs);
    return;
  }
  auto& w = scratch<T>(1);
  for (index c = 0; c < k; c += kc) {
    const index kb = std::min(kc, k - c);
    w.resize(static_cast<size_t>(n * kb));
    for (index i = 0; i < n; ++i)
      for (index j = 0; j < kb; ++j) w[i * kb + j] = B(i, c + j);
    kern.trsv_rows(upper, unit, n, kb, tp, ldt, w.data(), kb);
    for (index i = 0; i < n; ++i)
      for (index j = 0; j < kb; ++j) B(i, c + j) = w[i * kb + j];
  }
}

template <class T>
void left_rec(bool upper, bool unit, MatRef<T> A, MatMut<T> B, index nb, int threads) {
  const index n = A.rows, k = B.cols;
  if (n <= nb) {
    diag_solve(upper, unit, A, B);
    return;
  }
  // Split on a multiple of the block size so the leaves are full blocks.
  index n1 = n / 2;
  if (n1 > nb) n1 = (n1 + nb - 1) / nb * nb;
  const index n2 = n - n1;
  MatMut<T> B1 = B.block(0, 0, n1, k), B2 = B.block(n1, 0, n2, k);
  if (!upper) {
    left_rec(upper, unit, A.block(0, 0, n1, n1), B1, nb, threads);
    gemm<T>(T(-1), A.block(n1, 0, n2, n1), B1.ref(), T(1), B2, threads);
    left_rec(upper, unit, A.block(n1, n1, n2, n2), B2, nb, threads);
  } else {
    left_rec(upper, unit, A.block(n1, n1, n2, n2), B2, nb, threads);
    gemm<T>(T(-1), A.block(0, n1, n1, n2), B2.ref(), T(1), B1, threads);
    left_rec(upper, unit, A.block(0, 0, n1, n1), B1, nb, threads);
  }
}

}  // namespace

template <class T>
void trsm(Side side, bool upper, bool unit, T alpha, MatRef<T> A, MatMut<T> B, int max_threads, const TrsmParams& p) {
  if (side == Side::Right) {
    trsm<T>(Side::Left, !upper, unit, alpha, A.t(), B.t(), max_threads, p);
    return;
  }
  if (B.rows == 0 || B.cols == 0) return;
  if (alpha != T(1)) {
    for (index i = 0; i < B.rows; ++i)
      for (index j = 0; j < B.cols; ++j) B(i, j) = alpha == T(0) ? T(0) : alpha * B(i, j);
    if (alpha == T(0)) return;
  }
  const index nb = std::max<index>(1, p.block);
  const index n = A.rows, k = B.cols;
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  // real multiply-adds; below ~128³ one thread is faster than waking the pool
  const double work = 0.5 * double(n) * n * k * (is_complex_v<T> ? 4 : 1);
  if (in_parallel_region() || work < 128.0 * 128 * 128) threads = 1;
  // Column strips of at least kMinCols keep the GEMM updates and leaf kernels at full
  // vector width; when B is too narrow for one strip per thread, the GEMMs are threaded.
  constexpr index kMinCols = 16;
  const index strips = std::min<index>(threads, k / kMinCols);
  if (threads > 1 && strips >= threads) {
    // Strip widths: multiples of the GEMM tile width when B holds a tile per thread (double on
    // AVX-512, nr = 24: 64 columns as 24 + 40 run three tile passes, 32 + 32 ran four: a
    // quarter less CPU time), else of 8 columns; as even as that allows.
    const index nr = gemm_tile_cols<T>();
    const index step = nr > 8 && (k + nr - 1) / nr >= strips ? nr : 8;
    const index units = (k + step - 1) / step;
    parallel_for(strips, 1, [&](index s0, index s1) {
      for (index s = s0; s < s1; ++s) {
        const index c0 = std::min(k, units * s / strips * step), c1 = std::min(k, units * (s + 1) / strips * step);
        if (c1 > c0) left_rec(upper, unit, A, B.block(0, c0, n, c1 - c0), nb, 1);
      }
    }, threads);
    return;
  }
  left_rec(upper, unit, A, B, nb, threads);
}

#define LAPIS_INST(T) template void trsm<T>(Side, bool, bool, T, MatRef<T>, MatMut<T>, int, const TrsmParams&);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
