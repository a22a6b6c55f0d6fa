// The register micro-kernels, written once over a SIMD packet VT (lapis/simd.hpp) and
// instantiated by each family's translation unit (portable, AVX2+FMA, AVX-512, NEON) with
// its own packet. Right-edge tiles read B with masked loads where the packet has them
// (VT::kTail).
//
// Everything here has internal linkage (anonymous namespace): each ISA file compiles its
// own copy with its own flags, so the linker can never hand AVX2 code to a portable
// caller through a shared inline definition. For the same reason the kernels call no
// library functions.
#pragma once
#include <utility>

#include "gemm_kernels.hpp"
#include "lapis/simd.hpp"

#if defined(__wasm_simd128__)
// Unrolled, the k loop's wasm (stackified one accumulator at a time) keeps every step's b
// vectors live at once and V8 spills them; rolled, V8 keeps the tile in registers.
#define LAPIS_UNROLL(n) _Pragma("clang loop unroll(disable)")
#elif defined(__clang__)
#define LAPIS_UNROLL(n) _Pragma("unroll 4")
#elif defined(__GNUC__)
#define LAPIS_UNROLL(n) _Pragma("GCC unroll 4")
#else
#define LAPIS_UNROLL(n)
#endif

namespace lapis::gemm_detail {
namespace {

// Compile-time loops (simd::unroll): the accumulator arrays are then indexed by constants
// from the start, so the compiler keeps them in registers (a runtime loop, even a fully
// unrolled one, leaves GCC storing every accumulator to the stack on each k step).
using simd::unroll;

// Loads of the NV vectors of a b row: plain, or (MASKED) limited to the first `lanes`
// scalars of the row, with the masks built once per tile.
template <class VT, int NV, bool MASKED>
struct LaneMasks {
  explicit LaneMasks(int) {}
  template <class I>
  typename VT::V load(const typename VT::R* b, I v) const { return VT::load(b + int(v) * VT::L); }
};

template <class VT, int NV>
struct LaneMasks<VT, NV, true> {
  typename VT::Tail m[NV];
  explicit LaneMasks(int lanes) {
    unroll<NV>([&](auto v) {
      const int n = lanes - int(v) * VT::L;
      m[v] = VT::tail(n < 0 ? 0 : n > VT::L ? VT::L : n);
    });
  }
  template <class I>
  typename VT::V load(const typename VT::R* b, I v) const { return VT::loadt(b + int(v) * VT::L, m[v]); }
};

// The C tile is read (beta ≠ 0) or written only after the k loop: start its cache misses
// now so they overlap the loop instead of stalling the tile's end (a large C is never in
// cache when its tile comes round).
template <class R, int MR, int NR>
inline void prefetch_c(const R* c, index crs) {
#if defined(__GNUC__) || defined(__clang__)
  // Every line the row touches (a 192-byte row spans three or four).
  constexpr int kStep = 64 / int(sizeof(R));
  unroll<MR>([&](auto i) {
    for (int j = 0; j < NR; j += kStep) __builtin_prefetch(c + i * crs + j, 1, 3);
    __builtin_prefetch(c + i * crs + NR - 1, 1, 3);
  });
#else
  (void)c;
  (void)crs;
#endif
}

// Real tile MR × (NV·L). Per k step: NV vector loads of b, MR broadcasts of a, MR·NV FMAs
// into MR·NV accumulators that stay in registers for the whole k loop.
template <class VT, int MR, int NV>
struct RealKernel {
  using R = typename VT::R;
  using V = typename VT::V;
  static constexpr int L = VT::L;
  static constexpr int NR = NV * L;

  template <bool PACKED, bool MASKED = false>
  static void body(index k, const R* a, index ars, index acs, const R* b, index brs, R* c, index crs, R alpha,
                   R beta, int lanes = 0) {
    V acc[MR][NV];
    unroll<MR>([&](auto i) { unroll<NV>([&](auto v) { acc[i][v] = VT::zero(); }); });
    prefetch_c<R, MR, NR>(c, crs);
    const index as = PACKED ? index(MR) : acs, ai = PACKED ? 1 : ars;
    LaneMasks<VT, NV, MASKED> mk(lanes);
    LAPIS_UNROLL(4)
    for (index p = 0; p < k; ++p) {
      V bv[NV];
      unroll<NV>([&](auto v) { bv[v] = mk.load(b, v); });
      unroll<MR>([&](auto i) {
        const V av = VT::bcast(a + i * ai);
        unroll<NV>([&](auto v) { acc[i][v] = VT::fma(av, bv[v], acc[i][v]); });
      });
      a += as;
      b += brs;
    }
    const V va = VT::set1(alpha);
    if (beta == R(0)) {
      unroll<MR>([&](auto i) {
        unroll<NV>([&](auto v) { VT::store(c + i * crs + v * L, VT::mul(acc[i][v], va)); });
      });
    } else {
      const V vb = VT::set1(beta);
      unroll<MR>([&](auto i) {
        unroll<NV>([&](auto v) {
          R* cp = c + i * crs + v * L;
          VT::store(cp, VT::fma(vb, VT::load(cp), VT::mul(acc[i][v], va)));
        });
      });
    }
  }

  static void run(index k, const R* a, index ars, index acs, const R* b, index brs, R* c, index crs, R alpha, R beta,
                  int) {
    if (ars == 1 && acs == MR) body<true>(k, a, ars, acs, b, brs, c, crs, alpha, beta);
    else body<false>(k, a, ars, acs, b, brs, c, crs, alpha, beta);
  }

  static void run_edge(index k, const R* a, index ars, index acs, const R* b, index brs, R* c, index crs, R alpha,
                       int, index cols) {
    if constexpr (VT::kTail) {
      if (ars == 1 && acs == MR) body<true, true>(k, a, ars, acs, b, brs, c, crs, alpha, R(0), int(cols));
      else body<false, true>(k, a, ars, acs, b, brs, c, crs, alpha, R(0), int(cols));
    }
  }
};

// Complex tile MR × (NV·L/2), interleaved (re, im). Two real accumulators per output
// vector: acc1 = Σ re(a)·b, acc2 = Σ im(a)·b (b as interleaved pairs), so the k loop is the
// real kernel's (same FMA density, b unexpanded) and a·b = acc1 + i·acc2 is formed once
// at the end with a lane swap and an addsub.
template <class VT, int MR, int NV>
struct ComplexKernel {
  using R = typename VT::R;
  using V = typename VT::V;
  using C = std::complex<R>;
  static constexpr int L = VT::L;
  static constexpr int NR = NV * L / 2;

  // alpha·x for interleaved complex x: (ar·x) addsub (ai·swap(x)).
  static V cmul(V x, V ar, V ai) { return VT::addsub(VT::mul(x, ar), VT::mul(VT::swap_pairs(x), ai)); }

  template <bool PACKED, bool MASKED = false>
  static void body(index k, const R* a, index ars, index acs, const R* b, index brs, R* c, index crs,
                   const R* alpha, const R* beta, int flags, int lanes = 0) {
    V acc1[MR][NV], acc2[MR][NV];
    unroll<MR>([&](auto i) { unroll<NV>([&](auto v) { acc1[i][v] = acc2[i][v] = VT::zero(); }); });
    prefetch_c<R, MR, 2 * NR>(c, crs);
    const index as = PACKED ? index(2 * MR) : acs, ai = PACKED ? 2 : ars;
    LaneMasks<VT, NV, MASKED> mk(lanes);
    LAPIS_UNROLL(4)
    for (index p = 0; p < k; ++p) {
      V bv[NV];
      unroll<NV>([&](auto v) { bv[v] = mk.load(b, v); });
      unroll<MR>([&](auto i) {
        const V xr = VT::bcast(a + i * ai), xi = VT::bcast(a + i * ai + 1);
        unroll<NV>([&](auto v) {
          acc1[i][v] = VT::fma(xr, bv[v], acc1[i][v]);
          acc2[i][v] = VT::fma(xi, bv[v], acc2[i][v]);
        });
      });
      a += as;
      b += brs;
    }
    // Σ a·b = acc1 + i·acc2; conj(a) gives acc1 − i·acc2; conj(b) conjugates the
    // conj(a)-form: Σ a·conj(b) = conj(Σ conj(a)·b).
    const bool ca = (flags & kConjA) != 0, cb = (flags & kConjB) != 0;
    const V var = VT::set1(alpha[0]), vai = VT::set1(alpha[1]);
    const bool beta0 = beta[0] == R(0) && beta[1] == R(0);
    const V vbr = VT::set1(beta[0]), vbi = VT::set1(beta[1]);
    unroll<MR>([&](auto i) {
      unroll<NV>([&](auto v) {
        V t2 = (ca != cb) ? VT::neg(acc2[i][v]) : acc2[i][v];
        V r = VT::addsub(acc1[i][v], VT::swap_pairs(t2));
        if (cb) r = VT::conj(r);
        r = cmul(r, var, vai);
        R* cp = c + i * crs + v * L;
        if (!beta0) r = VT::add(r, cmul(VT::load(cp), vbr, vbi));
        VT::store(cp, r);
      });
    });
  }

  static void run(index k, const C* a, index ars, index acs, const C* b, index brs, C* c, index crs, C alpha, C beta,
                  int flags) {
    const R* ar = reinterpret_cast<const R*>(a);
    const R* br = reinterpret_cast<const R*>(b);
    R* cr = reinterpret_cast<R*>(c);
    const R* al = reinterpret_cast<const R*>(&alpha);
    const R* be = reinterpret_cast<const R*>(&beta);
    if (ars == 1 && acs == MR) body<true>(k, ar, 2, 2 * MR, br, 2 * brs, cr, 2 * crs, al, be, flags);
    else body<false>(k, ar, 2 * ars, 2 * acs, br, 2 * brs, cr, 2 * crs, al, be, flags);
  }

  static void run_edge(index k, const C* a, index ars, index acs, const C* b, index brs, C* c, index crs, C alpha,
                       int flags, index cols) {
    if constexpr (VT::kTail) {
      const R* ar = reinterpret_cast<const R*>(a);
      const R* br = reinterpret_cast<const R*>(b);
      R* cr = reinterpret_cast<R*>(c);
      const R* al = reinterpret_cast<const R*>(&alpha);
      const R zero[2] = {R(0), R(0)};
      if (ars == 1 && acs == MR)
        body<true, true>(k, ar, 2, 2 * MR, br, 2 * brs, cr, 2 * crs, al, zero, flags, int(2 * cols));
      else
        body<false, true>(k, ar, 2 * ars, 2 * acs, br, 2 * brs, cr, 2 * crs, al, zero, flags, int(2 * cols));
    }
  }
};

// Packing with whole vectors (PackFn in gemm_kernels.hpp). Copy form: each source row p
// is read once, left to right, across all the panels it feeds (a sequential stream rather
// than one strided walk per panel). VT::L must divide W.
template <class VT, int W>
void pack_copy(const typename VT::R* src, index ld, index len, index width, typename VT::R* dst) {
  using R = typename VT::R;
  constexpr int L = VT::L;
  static_assert(W % L == 0, "panel width not a whole number of vectors");
  const index full = width / W * W;
  for (index p = 0; p < len; ++p) {
    const R* s = src + p * ld;
    R* d = dst + p * W;
    for (index j0 = 0; j0 < full; j0 += W) {
      R* dj = d + j0 * len;
      unroll<W / L>([&](auto v) { VT::store(dj + v * L, VT::load(s + j0 + v * L)); });
    }
    if (full < width) {
      R* dj = d + full * len;
      for (index j = 0; j < W; ++j) dj[j] = full + j < width ? s[full + j] : R(0);
    }
  }
}

// Transpose form: H::L × H::L blocks through registers (H::transpose), H::L source rows
// read in parallel along p. H::L must divide W.
template <class H, int W>
void pack_trans(const typename H::R* src, index ld, index len, index width, typename H::R* dst) {
  using R = typename H::R;
  using V = typename H::V;
  constexpr int T = H::L;
  static_assert(W % T == 0, "panel width not a whole number of vectors");
  const index full = width / W * W;
  for (index j0 = 0; j0 < full; j0 += W) {
    R* d = dst + j0 * len;
    const R* s = src + j0 * ld;
    index p = 0;
    for (; p + T <= len; p += T) {
      unroll<W / T>([&](auto g) {
        V r[T];
        unroll<T>([&](auto t) { r[t] = H::load(s + (g * T + t) * ld + p); });
        H::transpose(r);
        unroll<T>([&](auto t) { H::store(d + (p + t) * W + g * T, r[t]); });
      });
    }
    for (; p < len; ++p)
      for (int j = 0; j < W; ++j) d[p * W + j] = s[j * ld + p];
  }
  if (full < width) {
    R* d = dst + full * len;
    const R* s = src + full * ld;
    const index cols = width - full;
    for (index p = 0; p < len; ++p)
      for (index j = 0; j < W; ++j) d[p * W + j] = j < cols ? s[j * ld + p] : R(0);
  }
}

// The narrower edge kernels KernelSet::part: Kernel<VT, MR, v> for v = 1 … NV − 1.
template <template <class, int, int> class Kernel, class VT, int MR, int NV, class S>
void set_parts(S& s, int cpv) {
  static_assert(NV <= 4, "part[] holds three narrower tiles");
  s.cpv = cpv;
  unroll<NV - 1>([&](auto i) {
    constexpr int v = int(i) + 1;
    s.part[i] = &Kernel<VT, MR, v>::run;
    if constexpr (VT::kTail) s.part_edge[i] = &Kernel<VT, MR, v>::run_edge;
  });
}

// PARTS: also build the narrower edge tiles (the families where they were measured).
template <class VT, int MR, int NV, bool PARTS = false>
KernelSet<typename VT::R> real_set(index mc, index kc, index nc) {
  static_assert(MR * RealKernel<VT, MR, NV>::NR <= kMaxTile, "tile larger than the edge buffers");
  KernelSet<typename VT::R> s;
  s.mr = MR;
  s.nr = RealKernel<VT, MR, NV>::NR;
  s.mc = mc;
  s.kc = kc;
  s.nc = nc;
  s.ukr = &RealKernel<VT, MR, NV>::run;
  if constexpr (VT::kTail) s.ukr_edge = &RealKernel<VT, MR, NV>::run_edge;
  if constexpr (PARTS) set_parts<RealKernel, VT, MR, NV>(s, VT::L);
  return s;
}

template <class VT, int MR, int NV, bool PARTS = false>
KernelSet<std::complex<typename VT::R>> complex_set(index mc, index kc, index nc) {
  static_assert(MR * ComplexKernel<VT, MR, NV>::NR <= kMaxTile, "tile larger than the edge buffers");
  KernelSet<std::complex<typename VT::R>> s;
  s.mr = MR;
  s.nr = ComplexKernel<VT, MR, NV>::NR;
  s.mc = mc;
  s.kc = kc;
  s.nc = nc;
  s.ukr = &ComplexKernel<VT, MR, NV>::run;
  if constexpr (VT::kTail) s.ukr_edge = &ComplexKernel<VT, MR, NV>::run_edge;
  if constexpr (PARTS) set_parts<ComplexKernel, VT, MR, NV>(s, VT::L / 2);
  return s;
}

}  // namespace
}  // namespace lapis::gemm_detail
