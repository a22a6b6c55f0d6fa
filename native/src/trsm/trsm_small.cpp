// Driver for batches of small triangular solves (lapis/trsm.hpp: trsm_small_batched).
#include <algorithm>
#include <cstdint>

#include "lapis/pages.hpp"
#include "lapis/parallel.hpp"
#include "lapis/trsm.hpp"
#include "trsm_small.hpp"

namespace lapis {

namespace {

inline index pick(const int32_t* idx, index b) { return idx ? idx[b] : b; }

}  // namespace

template <class T>
bool trsm_small_batched(bool trans, bool upper, bool unit, index count, index n, index k, const T* A,
                        const int32_t* aIdx, const T* B, const int32_t* bIdx, T* X) {
  if constexpr (is_complex_v<T>) {
    return false;
  } else {
    const auto& ker = detail::trsm_small<T>();
    if (!ker.solve || n < 1 || n > detail::kTrsmSmallMax || k < 8 || count < 1) return false;
    // L(i, j) = A[i·ars + j·acs]; an upper triangle is solved as the lower one of the
    // matrix seen from its last row and column (negative strides), B and X likewise.
    index ars = n, acs = 1;
    if (trans) std::swap(ars, acs);
    const index nn = n * n, nk = n * k;
    const index a0 = upper ? (n - 1) * (ars + acs) : 0, r0 = upper ? (n - 1) * k : 0;
    if (upper) ars = -ars, acs = -acs;
    const index rs = upper ? -k : k;
    // Pieces of ~64 KiB of output (at least ~0.1 MFLOP) are prefaulted, then written while
    // still in cache. The threads claim units of ~2 MiB of output (whole pieces) one by one
    // (Schedule::Pieces), so two threads seldom fault the same huge page at once (one would
    // wait while the other clears it). A helper thread is woken only for at least 8 pieces
    // of its own (the caller waits for every woken thread to check in, which on a loaded
    // host can take longer than a small batch).
    const index piece = std::max<index>(
        {1, static_cast<index>(65536 / (sizeof(T) * nk)), static_cast<index>(1.0e5 / (double(n) * n * k))});
    const index per_unit = std::max<index>(1, static_cast<index>((size_t(2) << 20) / (sizeof(T) * nk * piece)));
    const index unit_sys = piece * per_unit;
    const index pieces = (count + piece - 1) / piece, units = (count + unit_sys - 1) / unit_sys;
    // The output of a large batch arrives as fresh zero pages: faulting them in one at a time
    // as the kernel stores cost more than the solves. Its 2 MiB-aligned interior is marked for
    // huge pages first, and each piece is mapped just before it is written (lapis/pages.hpp;
    // timings in docs/decisions.md, "Native kernels: ISA and SIMD").
    detail::advise_hugepages(X, sizeof(T) * static_cast<size_t>(count * nk));
    const int workers = static_cast<int>(std::max<index>(1, std::min<index>({num_threads(), pieces / 8, units})));
    parallel_for(
        count, unit_sys,
        [&](index u0, index u1) {
          for (index p0 = u0; p0 < u1; p0 += piece) {
            const index p1 = std::min(u1, p0 + piece);
            detail::prefault(X + p0 * nk, sizeof(T) * static_cast<size_t>((p1 - p0) * nk));
            for (index b = p0; b < p1; ++b) {
              const bool more = b + 1 < count;
              ker.solve(unit, n, k, A + pick(aIdx, b) * nn + a0, ars, acs, B + pick(bIdx, b) * nk + r0, rs,
                        X + b * nk + r0, rs, more ? A + pick(aIdx, b + 1) * nn : nullptr,
                        more ? B + pick(bIdx, b + 1) * nk : nullptr);
            }
          }
        },
        workers, Schedule::Pieces);
    return true;
  }
}

#define LAPIS_INST(T)                                                                                          \
  template bool trsm_small_batched<T>(bool, bool, bool, index, index, index, const T*, const int32_t*, const T*, \
                                      const int32_t*, T*);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
