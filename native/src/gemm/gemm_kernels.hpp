// Internal to the GEMM: the micro-kernel contract shared by the driver (gemm.cpp) and the
// kernel families (portable, AVX2+FMA, NEON). One family is picked at run time.
#pragma once
#include <complex>
#include <cstdint>

#include "lapis/common.hpp"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#define LAPIS_GEMM_X86 1
#else
#define LAPIS_GEMM_X86 0
#endif
#if defined(__aarch64__) || defined(_M_ARM64)
#define LAPIS_GEMM_ARM64 1
#else
#define LAPIS_GEMM_ARM64 0
#endif

namespace lapis::gemm_detail {

enum : int { kConjA = 1, kConjB = 2 };

// The micro-kernel computes one mr×nr tile:
//   c[i*crs + j] = alpha · Σ_p a(i,p)·b(p,j) + beta · c[i*crs + j]     (0 ≤ i < mr, 0 ≤ j < nr)
// a(i,p) = a[i*ars + p*acs] (a packed panel is ars = 1, acs = mr; the kernel has a fast
// loop for that layout), b(p,j) = b[p*brs + j] (columns contiguous: a packed panel has
// brs = nr, an unpacked row-major B its row stride). beta == 0 never reads c. flags
// (complex only): kConjA / kConjB conjugate the elements of a / b as they are read, so
// the unpacked path needs no copy of a conjugated view. Strides count elements of T.
template <class T>
using Ukr = void (*)(index k, const T* a, index ars, index acs, const T* b, index brs, T* c, index crs, T alpha,
                     T beta, int flags);

// The same product for a right-edge tile of an unpacked B: only the first `cols` (< nr)
// columns of b are read (masked loads, so nothing past B's end is touched and no padded
// copy is made), and the whole mr×nr tile is written to the scratch tile c with beta = 0.
// Null where the ISA has no cheap masked loads; the driver then copies the strip.
template <class T>
using UkrEdge = void (*)(index k, const T* a, index ars, index acs, const T* b, index brs, T* c, index crs, T alpha,
                         int flags, index cols);

// SIMD packing of a real block into w-wide panels (w = mr for A, nr for B): panel r holds
// x(p, r·w + j) at dst[r·w·len + p·w + j] (0 ≤ p < len), columns past `width` zero.
// x(p, j) = src[p·ld + j] for the copy form (the panel's rows contiguous in the source),
// src[j·ld + p] for the transpose form. Null where the family has none; the driver then
// packs element by element.
template <class T>
using PackFn = void (*)(const T* src, index ld, index len, index width, T* dst);

// A batch of small products for the small-product kernels (small_kernel.hpp): matrix b
// computes C_b ← alpha·op(A_b)·op(B_b) + beta·C_b with A_b = a + ia·a_step (ia = a_idx[b],
// or b when a_idx is null), B_b likewise, C_b = c + b·c_step; op(A)(i, p) = a[i·ars + p·acs],
// op(B)(p, j) = b[p·brs + j·bcs], conjugated (complex) when conj_a / conj_b; C(i, j) =
// c[i·crs + j·ccs]. Strides count elements of T. m, n ≤ kSmallMax, k ≤ kSmallMaxK, k ≥ 1.
template <class T>
struct SmallBatch {
  index m = 0, n = 0, k = 0;
  T alpha = T(1), beta = T(0);
  const T* a = nullptr;
  index ars = 0, acs = 0, a_step = 0;
  const std::int32_t* a_idx = nullptr;
  const T* b = nullptr;
  index brs = 0, bcs = 0, b_step = 0;
  const std::int32_t* b_idx = nullptr;
  T* c = nullptr;
  index crs = 0, ccs = 0, c_step = 0;
  bool conj_a = false, conj_b = false;
};

// Runs matrices [b0, b1) of a batch.
template <class T>
using SmallFn = void (*)(const SmallBatch<T>& job, index b0, index b1);

// The shapes the driver sends to the small-product kernels (their stack buffers are sized
// by these); the crossover with the unpacked path is in docs/gemm.md.
inline constexpr index kSmallMax = 16, kSmallMaxK = 64;

template <class T>
struct KernelSet {
  int mr = 0, nr = 0;
  index mc = 0, kc = 0, nc = 0;  // cache blocking: A block mc×kc in L2, B panel kc×nr in L1, B block kc×nc in L3
  index nc_thread = 0;           // B block width per thread of a threaded product (0: nc / threads)
  int shared_from = 0;           // threads from which a large product shares one packed B block (0: never)
  // nb > 0: one thread's packed product keeps a B block of kc×nb in L2 and an A block of up to
  // mb rows in L3, and each A micro-panel stays in L1 while the B micro-panels of the block
  // stream past it (the B-resident order; mb 0: nc rows); nb = 0: the nest above (mc, nc).
  index nb = 0, mb = 0;
  Ukr<T> ukr = nullptr;
  UkrEdge<T> ukr_edge = nullptr;
  // Narrower tiles for a right edge of fewer than nr columns: part[v - 1] and part_edge[v - 1]
  // compute mr rows × v vectors of cpv columns each (v below nr's count), so an edge is not
  // computed at the full width and discarded; null (cpv 0) where the family has none.
  int cpv = 0;
  Ukr<T> part[3] = {};
  UkrEdge<T> part_edge[3] = {};
  PackFn<T> pack_a_copy = nullptr, pack_a_trans = nullptr;  // w = mr
  PackFn<T> pack_b_copy = nullptr, pack_b_trans = nullptr;  // w = nr
  SmallFn<T> small = nullptr;  // null: small products take the unpacked path
};

struct Family {
  const char* name = "";
  KernelSet<float> s;
  KernelSet<double> d;
  KernelSet<std::complex<float>> c;
  KernelSet<std::complex<double>> z;
};

Family portable_family();
#if LAPIS_GEMM_X86
Family avx2_family();
Family avx512_family();
#endif
#if LAPIS_GEMM_ARM64
Family neon_family();
#endif
#if defined(__wasm_simd128__)
Family wasm_family();  // kernels_wasm.cpp
#endif

// The active family's blocking of one dtype ('s', 'd', 'c', 'z'); set_blocking changes it
// before the first product (native/bench/gemm_rate.cpp's sweeps; ≤ 0 keeps a value,
// nc_thread 0 restores nc / threads; shared_from 0 turns the shared B block off).
struct Blocking {
  index mc = 0, kc = 0, nc = 0, nc_thread = -1;
  int shared_from = -1;
  index nb = -1, mb = -1;  // -1 keeps a value; nb 0 turns the B-resident order off, mb 0 takes nc
};
void set_blocking(char dtype, const Blocking& b);
Blocking blocking(char dtype);

// Largest tile any family uses (for stack buffers of edge tiles; real_set/complex_set check it).
inline constexpr int kMaxTile = 16 * 48;

}  // namespace lapis::gemm_detail
