// Batched drivers: copy, factor, solve, per item; see lapis/solve.hpp for the contract.
#include "lapis/solve.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "../lu/kernels.hpp"
#include "equilibrate.hpp"
#include "tiny.hpp"
#include "lapis/pages.hpp"
#include "lapis/parallel.hpp"
#include "lapis/trsm.hpp"

namespace lapis {

void for_each_item(index count, double flops_per_item, void (*fn)(index, int, void*), void* ctx) {
  if (count <= 0) return;
  // Below ~2 MFLOP per item the GEMMs inside gain little from threads, while spreading
  // whole items over the pool scales perfectly.
  if (count > 1 && flops_per_item < 2.0e6) {
    const index grain = std::max<index>(1, static_cast<index>(2.0e5 / (flops_per_item + 1.0)));
    parallel_for(count, grain, [&](index b0, index b1) {
      for (index b = b0; b < b1; ++b) fn(b, 1, ctx);
    });
  } else {
    for (index b = 0; b < count; ++b) fn(b, 0, ctx);
  }
}

namespace {

template <class T> void fill_nan(index len, T* p) {
  const T q = nan_value<T>();
  for (index i = 0; i < len; ++i) p[i] = q;
}

template <class T> std::vector<T>& lu_scratch() {
  thread_local std::vector<T> v;
  return v;
}
inline std::vector<int32_t>& piv_scratch() {
  thread_local std::vector<int32_t> v;
  return v;
}

inline index pick(const int32_t* idx, index b) { return idx ? idx[b] : b; }

// An output's first write. A large one (≥ 256 KiB, where one syscall is cheap beside the
// copy) is mapped in one call first: on a VM faulting fresh pages one by one inside the
// copy cost twice as much (docs/solvers.md, "Triangular solve of one large system").
template <class T> void copy_out(T* dst, const T* src, index len) {
  const size_t bytes = sizeof(T) * static_cast<size_t>(len);
  if (bytes >= (size_t(256) << 10)) detail::prefault(dst, bytes);
  std::memcpy(dst, src, bytes);
}

}  // namespace

template <class T>
void lu_factor_batched(index count, index m, index n, const T* A, T* LU, int32_t* piv, int32_t* info) {
  const index mn = std::min(m, n);
  const double flops = static_cast<double>(mn) * m * n;
  for_each_item(count, flops, [&](index b, int threads) {
    T* a = LU + b * m * n;
    if (a != A + b * m * n) copy_out(a, A + b * m * n, m * n);
    info[b] = detail::getrf_guarded(m, n, a, piv + b * mn, threads);
  });
}

template <class T>
void lu_solve_batched(Op op, index count, index n, index k, const T* LU, const int32_t* piv, const int32_t* aIdx,
                      const T* B, const int32_t* bIdx, T* X) {
  const double flops = 2.0 * n * n * k;
  for_each_item(count, flops, [&](index b, int threads) {
    const index ia = pick(aIdx, b), ib = pick(bIdx, b);
    T* x = X + b * n * k;
    if (x != B + ib * n * k) copy_out(x, B + ib * n * k, n * k);
    getrs(op, n, k, LU + ia * n * n, n, piv + ia * n, x, k, threads);
  });
}

template <class T>
void solve_batched(index count, index n, index k, const T* A, const int32_t* aIdx, const T* B, const int32_t* bIdx,
                   T* X, int32_t* info) {
  const double flops = 2.0 / 3.0 * n * n * n + 2.0 * n * n * k;
  // Finite A near overflow/underflow: solved through R·A·C (equilibrate.hpp).
  auto equilibrated = [&](index b, index ia, index ib, int threads) {
    T* x = X + b * n * k;
    info[b] = detail::solve_equilibrated(n, k, A + ia * n * n, B + ib * n * k, x, threads);
    if (info[b] != 0) fill_nan(n * k, x);
  };
  auto one = [&](index b, int threads) {
    const index ia = pick(aIdx, b), ib = pick(bIdx, b);
    const T* a = A + ia * n * n;
    T* x = X + b * n * k;
    const detail::Scale cls = detail::scale_class(n * n, a);
    if (cls == detail::Scale::NonFinite) {
      info[b] = -1;
      fill_nan(n * k, x);
      return;
    }
    if (cls == detail::Scale::Extreme) {
      equilibrated(b, ia, ib, threads);
      return;
    }
    if (n >= 1 && n <= detail::kSolveSmallMax) {
      const int32_t st = detail::solver_kernels<T>().solve_small(n, k, a, B + ib * n * k, x);
      info[b] = st;
      if (st != 0) fill_nan(n * k, x);
      return;
    }
    auto& lu = lu_scratch<T>();
    auto& pv = piv_scratch();
    lu.assign(a, a + n * n);
    pv.resize(static_cast<size_t>(n));
    const int32_t st = getrf(n, n, lu.data(), n, pv.data(), threads);
    if (detail::growth_can_overflow<T>(n) && !all_finite(n * n, lu.data())) {  // finite A, non-finite factors
      equilibrated(b, ia, ib, threads);
      return;
    }
    info[b] = st;
    if (st != 0) {
      fill_nan(n * k, x);
      return;
    }
    copy_out(x, B + ib * n * k, n * k);
    getrs(Op::None, n, k, lu.data(), n, pv.data(), x, k, threads);
  };
  // Many tiny systems with one right-hand side: several matrices per SIMD register.
  if constexpr (!is_complex_v<T>) {
    const auto& tiny = detail::tiny_solver<T>();
    const index L = tiny.lanes;
    if (tiny.groups && k == 1 && !aIdx && !bIdx && n >= 2 && n <= detail::kTinyMax && count >= L) {
      const index groups = count / L;
      parallel_for(groups, 256, [&](index g0, index g1) {
        // Output buffers fresh from Node are untouched zero pages. Where the solve costs ~30 ns a
        // system, one fault per 4 KiB page (≈ 2 µs in a VM) is a third of the run: each group's
        // range is mapped in one call just before it is written (lapis/pages.hpp).
        detail::prefault(X + g0 * L * n, sizeof(T) * static_cast<size_t>((g1 - g0) * L * n));
        detail::prefault(info + g0 * L, sizeof(int32_t) * static_cast<size_t>((g1 - g0) * L));
        tiny.groups(n, g1 - g0, A + g0 * L * n * n, B + g0 * L * n, X + g0 * L * n, info + g0 * L);
        // the lane kernel does not scale: it flags systems near overflow/underflow, redone here
        for (index b = g0 * L; b < g1 * L; ++b)
          if (info[b] == detail::kTinyInfoEquilibrate) equilibrated(b, b, b, 1);
      });
      // The last partial group goes through the same kernel, padded with identity systems,
      // so a system's result does not depend on where it sits in the batch.
      const index b0 = groups * L, rest = count - b0;
      if (rest > 0) {
        std::vector<T> a(static_cast<size_t>(L * n * n), T(0)), bx(static_cast<size_t>(2 * L * n), T(1));
        std::vector<int32_t> st(static_cast<size_t>(L));
        std::memcpy(a.data(), A + b0 * n * n, sizeof(T) * static_cast<size_t>(rest * n * n));
        for (index l = rest; l < L; ++l)
          for (index i = 0; i < n; ++i) a[static_cast<size_t>((l * n + i) * n + i)] = T(1);
        std::memcpy(bx.data(), B + b0 * n, sizeof(T) * static_cast<size_t>(rest * n));
        tiny.groups(n, 1, a.data(), bx.data(), bx.data() + L * n, st.data());
        std::memcpy(X + b0 * n, bx.data() + L * n, sizeof(T) * static_cast<size_t>(rest * n));
        std::memcpy(info + b0, st.data(), sizeof(int32_t) * static_cast<size_t>(rest));
        for (index b = b0; b < count; ++b)
          if (info[b] == detail::kTinyInfoEquilibrate) equilibrated(b, b, b, 1);
      }
      return;
    }
  }
  for_each_item(count, flops, one);
}

template <class T>
void solve_batched_shared(index count, index n, index k, const T* A, const int32_t* aIdx, index aCount, const T* B,
                          const int32_t* bIdx, T* X, int32_t* info) {
  // (tiny systems keep the per-system kernels: refactoring is cheap and results then do
  // not depend on how the batch was broadcast)
  if (!aIdx || aCount >= count || n <= detail::kSolveSmallMax) {
    solve_batched(count, n, k, A, aIdx, B, bIdx, X, info);
    return;
  }
  // Fewer distinct matrices than systems (A broadcast over B's batch): factor each once.
  std::vector<T> lu(static_cast<size_t>(aCount * n * n));
  std::vector<int32_t> piv(static_cast<size_t>(aCount * n)), st(static_cast<size_t>(aCount));
  std::vector<char> eq(static_cast<size_t>(aCount), 0);  // solved through R·A·C per system
  for_each_item(aCount, 2.0 / 3.0 * n * n * n, [&](index a, int threads) {
    const T* src = A + a * n * n;
    T* f = lu.data() + a * n * n;
    const detail::Scale cls = detail::scale_class(n * n, src);
    if (cls == detail::Scale::NonFinite) {
      st[a] = -1;
      return;
    }
    std::memcpy(f, src, sizeof(T) * static_cast<size_t>(n * n));
    if (cls == detail::Scale::Ordinary) {
      st[a] = getrf(n, n, f, n, piv.data() + a * n, threads);
      if (!detail::growth_can_overflow<T>(n) || all_finite(n * n, f)) return;
    }
    eq[a] = 1;
    st[a] = 0;
  });
  for_each_item(count, 2.0 * n * n * k, [&](index b, int threads) {
    const index ia = aIdx[b], ib = pick(bIdx, b);
    T* x = X + b * n * k;
    if (eq[ia]) {
      info[b] = detail::solve_equilibrated(n, k, A + ia * n * n, B + ib * n * k, x, threads);
      if (info[b] != 0) fill_nan(n * k, x);
      return;
    }
    info[b] = st[ia];
    if (st[ia] != 0) {
      fill_nan(n * k, x);
      return;
    }
    copy_out(x, B + ib * n * k, n * k);
    getrs(Op::None, n, k, lu.data() + ia * n * n, n, piv.data() + ia * n, x, k, threads);
  });
}

template <class T>
void trsm_batched(Op op, bool upper, bool unit, index count, index n, index k, const T* A, const int32_t* aIdx,
                  const T* B, const int32_t* bIdx, T* X) {
  const double flops = 1.0 * n * n * k;
  for_each_item(count, flops, [&](index b, int threads) {
    const index ia = pick(aIdx, b), ib = pick(bIdx, b);
    T* x = X + b * n * k;
    if (x != B + ib * n * k) copy_out(x, B + ib * n * k, n * k);
    MatRef<T> a{A + ia * n * n, n, n, n, 1};
    if (op == Op::Trans) a = a.t();
    else if (op == Op::ConjTrans) a = a.h();
    trsm<T>(Side::Left, upper, unit, T(1), a, MatMut<T>{x, n, k, k, 1}, threads);
  });
}

#define LAPIS_INST(T)                                                                                          \
  template void lu_factor_batched<T>(index, index, index, const T*, T*, int32_t*, int32_t*);                 \
  template void lu_solve_batched<T>(Op, index, index, index, const T*, const int32_t*, const int32_t*,       \
                                    const T*, const int32_t*, T*);                                           \
  template void solve_batched<T>(index, index, index, const T*, const int32_t*, const T*, const int32_t*, T*, \
                                 int32_t*);                                                                  \
  template void solve_batched_shared<T>(index, index, index, const T*, const int32_t*, index, const T*,        \
                                        const int32_t*, T*, int32_t*);                                       \
  template void trsm_batched<T>(Op, bool, bool, index, index, index, const T*, const int32_t*, const T*,      \
                                const int32_t*, T*);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
