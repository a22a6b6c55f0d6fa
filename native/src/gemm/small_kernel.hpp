// Register-resident kernels for small products (m, n ≤ kSmallMax, k ≤ kSmallMaxK), a
// whole batch of them per call (SmallFn, gemm_kernels.hpp). Included by each family's
// translation unit after ukernel.hpp, under the same rules: internal linkage, no library
// calls, only that family's packet.
//
// C is cut into tiles of up to MRMAX rows × NVMAX vectors whose accumulators stay in
// registers for the whole k loop. A is read in place by broadcasts (any strides), B's rows
// in place when its columns are contiguous, and the ragged last vector of a C row is read
// and written with masked loads and stores where the packet has them: row-major operands
// are never copied. Without masked access (NEON, portable) a ragged B is copied into
// zero-padded rows and C goes through a scratch tile. The tile plan depends only on
// (m, n, k) and is made once per call; each matrix then costs one indirect call per tile.
#pragma once
#include <type_traits>

#include "gemm_kernels.hpp"
#include "lapis/simd.hpp"

namespace lapis::gemm_detail {
namespace {

// Compile-time loops as simd::unroll, but defined here so that under a target region they
// carry its target too: the forced inlining below then never crosses targets.
template <class F, int... I>
LAPIS_SIMD_INLINE void small_unroll_seq(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <int N, class F>
LAPIS_SIMD_INLINE void small_unroll(F&& f) {
  small_unroll_seq(f, std::make_integer_sequence<int, N>{});
}

constexpr int small_min(int a, int b) { return a < b ? a : b; }

// The tile code is compile-time loops of lambdas; GCC stops inlining them once a tile is
// big enough, which leaves the accumulators in memory, so every such lambda is forced inline.
// A lambda's own attributes replace the target a pragma region gives it, so a family
// built in one (AVX-512) defines LAPIS_SMALL_TARGET as `, target("…")` before the include.
#ifndef LAPIS_SMALL_TARGET
#define LAPIS_SMALL_TARGET
#endif
#if defined(__GNUC__) || defined(__clang__)
#define LAPIS_SMALL_INLINE __attribute__((always_inline LAPIS_SMALL_TARGET))
#else
#define LAPIS_SMALL_INLINE
#endif

// Loads and stores of the NV vectors of a tile row; with MASKED the last one is limited to
// the first `lanes` scalars (the others are whole).
template <class VT, int NV, bool MASKED>
struct RowAccess {
  using R = typename VT::R;
  using V = typename VT::V;
  explicit RowAccess(int) {}
  template <class I> V load(const R* p, I v) const { return VT::load(p + int(v) * VT::L); }
  template <class I> void store(R* p, I v, V x) const { VT::store(p + int(v) * VT::L, x); }
};

template <class VT, int NV>
struct RowAccess<VT, NV, true> {
  using R = typename VT::R;
  using V = typename VT::V;
  typename VT::Tail t;
  explicit RowAccess(int lanes) : t(VT::tail(lanes)) {}
  template <class I> V load(const R* p, I v) const {
    if constexpr (I::value == NV - 1) return VT::loadt(p + int(v) * VT::L, t);
    else return VT::load(p + int(v) * VT::L);
  }
  template <class I> void store(R* p, I v, V x) const {
    if constexpr (I::value == NV - 1) VT::storet(p + int(v) * VT::L, t, x);
    else VT::store(p + int(v) * VT::L, x);
  }
};

// ACC: accumulator registers a tile may use (a complex output vector takes two); MRMAX,
// NVMAX: most rows and vectors of a tile.
// MASK_ALWAYS: every tile's last vector goes through a mask (where masked access costs
// what plain access does: AVX-512), so no unmasked tiles are built.
template <class VT, bool CPLX, int ACC, int MRMAX, int NVMAX, bool MASK_ALWAYS>
struct SmallKernels {
  using R = typename VT::R;
  using V = typename VT::V;
  using T = std::conditional_t<CPLX, std::complex<R>, R>;
  static constexpr int L = VT::L;
  static constexpr int CW = CPLX ? 2 : 1;                           // reals per element
  static constexpr int kMaxVec = (int(kSmallMax) * CW + L - 1) / L;  // vectors in a C row at most
  static constexpr int kLd = kMaxVec * L;                           // reals per row of the B copy / C scratch

  static constexpr int mr_cap(int nv) { return small_min(MRMAX, ACC / (CW * nv)); }

  // One tile: MR rows × NV vectors of C over the whole k. Strides in reals; a(i, p) at
  // a[i·ars + p·acs] (complex: re, im), row p of b at b + p·brs, row i of c at c + i·crs.
  using TileFn = void (*)(index k, const R* a, index ars, index acs, const R* b, index brs, R* c, index crs,
                          const R* alpha, const R* beta, int flags, int lanes);

  // Independent sums per output vector: with k this short the FMA latency, not the
  // throughput, bounds a tile of few accumulators, so spare registers take extra partial
  // sums over interleaved p (added once at the end).
  static constexpr int k_split(int acc) { return 4 * acc <= ACC ? 4 : 2 * acc <= ACC ? 2 : 1; }

  // One k step into one set of partial sums (always inlined: a call would keep them in memory).
  template <int MR, int NV, class IO>
  static LAPIS_SIMD_INLINE void step(V (&acc)[CW][MR][NV], const IO& io, const R* a, index ars, const R* b) {
    V bv[NV];
    small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE { bv[v] = io.load(b, v); });
    small_unroll<MR>([&](auto i) LAPIS_SMALL_INLINE {
      small_unroll<CW>([&](auto w) LAPIS_SMALL_INLINE {
        const V x = VT::bcast(a + i * ars + int(w));
        small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE { acc[w][i][v] = VT::fma(x, bv[v], acc[w][i][v]); });
      });
    });
  }

  template <int MR, int NV, bool MASKED>
  static LAPIS_SIMD_INLINE void body(index k, const R* a, index ars, index acs, const R* b, index brs, R* c,
                                     index crs, const R* alpha, const R* beta, int flags, int lanes) {
    constexpr int KS = k_split(MR * NV * CW);
    const RowAccess<VT, NV, MASKED> io(lanes);
    // s-th partial sums: real acc[s][0] = Σ a·b; complex acc[s][0] = Σ re(a)·b and
    // acc[s][1] = Σ im(a)·b on interleaved b (ComplexKernel in ukernel.hpp), combined at the end.
    V acc[KS][CW][MR][NV];
    small_unroll<KS>([&](auto s) LAPIS_SMALL_INLINE {
      small_unroll<CW>([&](auto w) LAPIS_SMALL_INLINE {
        small_unroll<MR>([&](auto i) LAPIS_SMALL_INLINE { small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE { acc[s][w][i][v] = VT::zero(); }); });
      });
    });
    index p = 0;
    for (; p + KS <= k; p += KS) {
      small_unroll<KS>([&](auto s) LAPIS_SMALL_INLINE { step<MR, NV>(acc[s], io, a + int(s) * acs, ars, b + int(s) * brs); });
      a += KS * acs;
      b += KS * brs;
    }
    for (; p < k; ++p) {
      step<MR, NV>(acc[0], io, a, ars, b);
      a += acs;
      b += brs;
    }
    small_unroll<KS - 1>([&](auto s) LAPIS_SMALL_INLINE {
      small_unroll<CW>([&](auto w) LAPIS_SMALL_INLINE {
        small_unroll<MR>([&](auto i) LAPIS_SMALL_INLINE {
          small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE { acc[0][w][i][v] = VT::add(acc[0][w][i][v], acc[s + 1][w][i][v]); });
        });
      });
    });
    if constexpr (!CPLX) {
      (void)flags;
      const V va = VT::set1(alpha[0]);
      if (beta[0] == R(0)) {
        small_unroll<MR>([&](auto i) LAPIS_SMALL_INLINE { small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE { io.store(c + i * crs, v, VT::mul(acc[0][0][i][v], va)); }); });
      } else {
        const V vb = VT::set1(beta[0]);
        small_unroll<MR>([&](auto i) LAPIS_SMALL_INLINE {
          small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE {
            R* cp = c + i * crs;
            io.store(cp, v, VT::fma(vb, io.load(cp, v), VT::mul(acc[0][0][i][v], va)));
          });
        });
      }
    } else {
      const bool ca = (flags & kConjA) != 0, cb = (flags & kConjB) != 0;
      const V var = VT::set1(alpha[0]), vai = VT::set1(alpha[1]);
      const bool beta0 = beta[0] == R(0) && beta[1] == R(0);
      const V vbr = VT::set1(beta[0]), vbi = VT::set1(beta[1]);
      small_unroll<MR>([&](auto i) LAPIS_SMALL_INLINE {
        small_unroll<NV>([&](auto v) LAPIS_SMALL_INLINE {
          // Σ a·b = acc1 + i·acc2; conj(a) gives acc1 − i·acc2; conj(b): conj(Σ conj(a)·b)
          const V t2 = (ca != cb) ? VT::neg(acc[0][1][i][v]) : acc[0][1][i][v];
          V r = VT::addsub(acc[0][0][i][v], VT::swap_pairs(t2));
          if (cb) r = VT::conj(r);
          r = VT::addsub(VT::mul(r, var), VT::mul(VT::swap_pairs(r), vai));
          R* cp = c + i * crs;
          if (!beta0) {
            const V x = io.load(cp, v);
            r = VT::add(r, VT::addsub(VT::mul(x, vbr), VT::mul(VT::swap_pairs(x), vbi)));
          }
          io.store(cp, v, r);
        });
      });
    }
  }

  template <int MR, int NV, bool MASKED>
  static void tile(index k, const R* a, index ars, index acs, const R* b, index brs, R* c, index crs,
                   const R* alpha, const R* beta, int flags, int lanes) {
    body<MR, NV, MASKED>(k, a, ars, acs, b, brs, c, crs, alpha, beta, flags, lanes);
  }

  // A batch whose C is a single tile, read in place: the tile's code inlined into the loop
  // over the matrices (a call per matrix cost a third of an 8×8×8 product).
  using BatchFn = void (*)(const SmallBatch<T>& j, index b0, index b1, int lanes);
  template <int MR, int NV, bool MASKED>
  static void batch(const SmallBatch<T>& j, index b0, index b1, int lanes) {
    int flags = 0;
    if constexpr (CPLX) flags = (j.conj_a ? kConjA : 0) | (j.conj_b ? kConjB : 0);
    const R* al = reinterpret_cast<const R*>(&j.alpha);
    const R* be = reinterpret_cast<const R*>(&j.beta);
    const index k = j.k, ars = j.ars * CW, acs = j.acs * CW, brs = j.brs * CW, crs = j.crs * CW;
    for (index b = b0; b < b1; ++b) {
      const R* pa = reinterpret_cast<const R*>(j.a + index(j.a_idx ? j.a_idx[b] : b) * j.a_step);
      const R* pb = reinterpret_cast<const R*>(j.b + index(j.b_idx ? j.b_idx[b] : b) * j.b_step);
      body<MR, NV, MASKED>(k, pa, ars, acs, pb, brs, reinterpret_cast<R*>(j.c + b * j.c_step), crs, al, be, flags,
                           lanes);
    }
  }

  struct Entry {
    TileFn tile = nullptr;
    BatchFn batch = nullptr;
  };

  template <int MR, int NV, bool MASKED>
  static Entry entry() {
    if constexpr (MR <= mr_cap(NV) && (MASKED ? VT::kTail : !MASK_ALWAYS))
      return {&tile<MR, NV, MASKED>, &batch<MR, NV, MASKED>};
    else return {};
  }

  template <bool MASKED, int... I>
  static Entry pick_in(int mr, int nv, std::integer_sequence<int, I...>) {
    Entry f;
    const int want = (mr - 1) * NVMAX + (nv - 1);
    ((I == want ? (void)(f = entry<I / NVMAX + 1, I % NVMAX + 1, MASKED>()) : (void)0), ...);
    return f;
  }

  // The kernels for mr rows (1 ≤ mr ≤ mr_cap(nv)) and nv vectors (1 ≤ nv ≤ NVMAX).
  static Entry pick(int mr, int nv, bool masked) {
    if (masked) return pick_in<true>(mr, nv, std::make_integer_sequence<int, MRMAX * NVMAX>{});
    return pick_in<false>(mr, nv, std::make_integer_sequence<int, MRMAX * NVMAX>{});
  }

  static void run(const SmallBatch<T>& j, index b0, index b1) {
    const index m = j.m, k = j.k;
    const int nre = int(j.n) * CW;
    const int nvec = (nre + L - 1) / L;
    const int lanes = nre - (nvec - 1) * L;  // reals in a row's last vector, 1…L
    const bool ragged = lanes < L;
    const bool masked = VT::kTail && (ragged || MASK_ALWAYS);
    const bool pack_b = j.bcs != 1 || (ragged && !VT::kTail);
    const bool scratch_c = j.ccs != 1 || (ragged && !VT::kTail);
    int flags = 0;
    if constexpr (CPLX) flags = (j.conj_a ? kConjA : 0) | (j.conj_b && !pack_b ? kConjB : 0);

    // Column blocks of NVMAX vectors (the last one masked when ragged), each cut into row
    // blocks of as many rows as its accumulators allow and a remainder.
    struct Block {
      Entry full;
      TileFn rem;
      int mr, j0, lanes;
    };
    Block blocks[(kMaxVec + NVMAX - 1) / NVMAX];
    int nb = 0;
    for (int v0 = 0; v0 < nvec; v0 += NVMAX) {
      const int nv = small_min(NVMAX, nvec - v0);
      const bool last = v0 + nv == nvec;
      const bool mk = masked && (last || MASK_ALWAYS);
      const int mr = small_min(mr_cap(nv), int(m));
      const int mrem = int(m) % mr;
      blocks[nb++] = {pick(mr, nv, mk), mrem ? pick(mrem, nv, mk).tile : nullptr, mr, v0 * L, last ? lanes : L};
    }
    if (nb == 1 && blocks[0].mr == m && !pack_b && !scratch_c) return blocks[0].full.batch(j, b0, b1, blocks[0].lanes);

    alignas(64) R bbuf[kSmallMaxK * kLd];
    alignas(64) R cbuf[kSmallMax * kLd];
    const R zero[2] = {R(0), R(0)};
    const R* al = reinterpret_cast<const R*>(&j.alpha);
    const R* be = scratch_c ? zero : reinterpret_cast<const R*>(&j.beta);
    const index ars = j.ars * CW, acs = j.acs * CW;
    const index brs = pack_b ? index(kLd) : j.brs * CW, crs = scratch_c ? index(kLd) : j.crs * CW;

    for (index b = b0; b < b1; ++b) {
      const R* pa = reinterpret_cast<const R*>(j.a + index(j.a_idx ? j.a_idx[b] : b) * j.a_step);
      const T* pb = j.b + index(j.b_idx ? j.b_idx[b] : b) * j.b_step;
      T* pc = j.c + b * j.c_step;
      const R* bb = reinterpret_cast<const R*>(pb);
      if (pack_b) {
        const index qs = j.bcs * CW;
        for (index p = 0; p < k; ++p) {
          R* d = bbuf + p * kLd;
          const R* s = bb + p * j.brs * CW;
          for (index q = 0; q < j.n; ++q) {
            d[CW * q] = s[q * qs];
            if constexpr (CPLX) d[2 * q + 1] = j.conj_b ? -s[q * qs + 1] : s[q * qs + 1];
          }
          for (int q = nre; q < nvec * L; ++q) d[q] = R(0);
        }
        bb = bbuf;
      }
      R* cc = scratch_c ? cbuf : reinterpret_cast<R*>(pc);
      for (int t = 0; t < nb; ++t) {
        const Block& bl = blocks[t];
        index i = 0;
        for (; i + bl.mr <= m; i += bl.mr)
          bl.full.tile(k, pa + i * ars, ars, acs, bb + bl.j0, brs, cc + i * crs + bl.j0, crs, al, be, flags, bl.lanes);
        if (i < m)
          bl.rem(k, pa + i * ars, ars, acs, bb + bl.j0, brs, cc + i * crs + bl.j0, crs, al, be, flags, bl.lanes);
      }
      if (scratch_c) merge(cbuf, pc, j);
    }
  }

  // C ← t + beta·C from the scratch tile (which holds alpha·op(A)·op(B)); beta == 0 never reads C.
  static void merge(const R* t, T* c, const SmallBatch<T>& j) {
    const R* be = reinterpret_cast<const R*>(&j.beta);
    bool beta0 = be[0] == R(0);
    if constexpr (CPLX) beta0 = beta0 && be[1] == R(0);
    for (index i = 0; i < j.m; ++i)
      for (index q = 0; q < j.n; ++q) {
        R* d = reinterpret_cast<R*>(c + i * j.crs + q * j.ccs);
        const R* s = t + i * kLd + q * CW;
        if constexpr (CPLX) {
          if (beta0) {
            d[0] = s[0];
            d[1] = s[1];
          } else {
            const R xr = d[0], xi = d[1];
            d[0] = s[0] + (be[0] * xr - be[1] * xi);
            d[1] = s[1] + (be[0] * xi + be[1] * xr);
          }
        } else {
          d[0] = beta0 ? s[0] : s[0] + be[0] * d[0];
        }
      }
  }
};

// The SmallFn of a family: real and complex kernels of one packet.
template <class VT, int ACC, int MRMAX, int NVMAX, bool MASK_ALWAYS = false>
SmallFn<typename VT::R> small_real() {
  return &SmallKernels<VT, false, ACC, MRMAX, NVMAX, MASK_ALWAYS>::run;
}
template <class VT, int ACC, int MRMAX, int NVMAX, bool MASK_ALWAYS = false>
SmallFn<std::complex<typename VT::R>> small_complex() {
  return &SmallKernels<VT, true, ACC, MRMAX, NVMAX, MASK_ALWAYS>::run;
}

}  // namespace
}  // namespace lapis::gemm_detail
