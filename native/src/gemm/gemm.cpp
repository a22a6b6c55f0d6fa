// GEMM driver: C ← alpha·op(A)·op(B) + beta·C on strided views (see lapis/gemm.hpp).
//
// Large products take the BLIS loop nest: for each nc-wide column block of C and kc-deep
// slice of k, B is packed once into nr-wide panels (shared by all threads), then every
// thread packs mc-row blocks of A into mr-row panels and sweeps the register micro-kernel
// over the block. Packing applies conjugation and absorbs any strides, so the kernels see
// contiguous, aligned, zero-padded panels. Small or skinny products skip packing: the
// kernel reads A through its strides and B's rows directly (only edge strips are copied),
// which wins whenever packing would be reused too few times to pay for itself.
// Design notes and the blocking parameters: docs/gemm.md.
#include "lapis/gemm.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "gemm_kernels.hpp"
#include "gemv.hpp"
#include "lapis/blas1.hpp"
#include "lapis/gemm_batched.hpp"
#include "lapis/isa.hpp"
#include "lapis/pages.hpp"
#include "lapis/parallel.hpp"

namespace lapis {
namespace gemm_detail {
namespace {

// The family of active_isa() (lapis/isa.hpp).
Family pick_family() {
  switch (active_isa()) {
#if LAPIS_GEMM_X86
    case Isa::avx512: return avx512_family();
    case Isa::avx2: return avx2_family();
#endif
#if LAPIS_GEMM_ARM64
    case Isa::neon: return neon_family();
#endif
    default:
#if defined(__wasm_simd128__)
      return wasm_family();
#else
      return portable_family();
#endif
  }
}

Family& family_mut() {
  static Family f = pick_family();
  return f;
}
const Family& family() { return family_mut(); }

template <class T> const KernelSet<T>& kernels();
template <> const KernelSet<float>& kernels<float>() { return family().s; }
template <> const KernelSet<double>& kernels<double>() { return family().d; }
template <> const KernelSet<std::complex<float>>& kernels<std::complex<float>>() { return family().c; }
template <> const KernelSet<std::complex<double>>& kernels<std::complex<double>>() { return family().z; }

// Per-thread packing buffers: grow on demand, never shrink, 64-byte aligned. Reused across
// calls so a medium product pays no allocation or page faults. Where huge pages exist,
// those of 2 MiB or more are 2 MiB-aligned huge-page candidates: fewer TLB misses, and a
// cache placement that does not depend on which 4 KiB frames the process was given.
class Scratch {
 public:
  template <class T>
  T* get(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes > cap_ || !p_) {
      constexpr std::size_t huge = detail::kHugePage, page = huge > 0 ? huge : 1;
      const bool big = huge > 0 && bytes >= huge;
      const std::size_t align = big ? huge : 64, cap = big ? (bytes + page - 1) / page * page : bytes;
      buf_.reset(new unsigned char[cap + align]);
      const auto addr = reinterpret_cast<std::uintptr_t>(buf_.get());
      p_ = reinterpret_cast<unsigned char*>((addr + align - 1) & ~std::uintptr_t(align - 1));
      cap_ = cap;
      if (big) detail::advise_hugepages(p_, cap);
    }
    return reinterpret_cast<T*>(p_);
  }

 private:
  std::unique_ptr<unsigned char[]> buf_;
  unsigned char* p_ = nullptr;
  std::size_t cap_ = 0;
};

struct Buffers {
  Scratch a, b;
  Scratch shared[2];  // a calling thread's B blocks of a shared-B product (packed_shared)
};

Buffers& tls() {
  thread_local Buffers b;
  return b;
}

// Plain complex product (BLAS semantics, as in the kernels).
using blas1::mul;

template <class T, bool CJ>
inline T take(T x) {
  if constexpr (CJ) return T(x.real(), -x.imag());
  else return x;
}

// A block (mc × kc at src) → panels of mr rows: panel r holds a(r·mr + i, p) at
// [r·mr·kc + p·mr + i], rows past mc zero.
template <class T, bool CJ>
void pack_a_impl(const T* src, index rs, index cs, index mc, index kc, int mr, T* dst) {
  for (index ir = 0; ir < mc; ir += mr) {
    const index rows = std::min<index>(mr, mc - ir);
    T* d = dst + ir * kc;
    const T* s = src + ir * rs;
    if (cs == 1) {
      for (index i = 0; i < rows; ++i) {
        const T* si = s + i * rs;
        for (index p = 0; p < kc; ++p) d[p * mr + i] = take<T, CJ>(si[p]);
      }
    } else {
      for (index p = 0; p < kc; ++p) {
        const T* sp = s + p * cs;
        for (index i = 0; i < rows; ++i) d[p * mr + i] = take<T, CJ>(sp[i * rs]);
      }
    }
    if (rows < mr)
      for (index p = 0; p < kc; ++p)
        for (index i = rows; i < mr; ++i) d[p * mr + i] = T(0);
  }
}

// B block (kc × nc at src) → panels of nr columns: panel r holds b(p, r·nr + j) at
// [r·nr·kc + p·nr + j], columns past nc zero.
template <class T, bool CJ>
void pack_b_impl(const T* src, index rs, index cs, index kc, index nc, int nr, T* dst) {
  for (index jr = 0; jr < nc; jr += nr) {
    const index cols = std::min<index>(nr, nc - jr);
    T* d = dst + jr * kc;
    const T* s = src + jr * cs;
    if (cs == 1) {
      for (index p = 0; p < kc; ++p) {
        const T* sp = s + p * rs;
        T* dp = d + p * nr;
        for (index j = 0; j < cols; ++j) dp[j] = take<T, CJ>(sp[j]);
        for (index j = cols; j < nr; ++j) dp[j] = T(0);
      }
    } else {
      for (index j = 0; j < cols; ++j) {
        const T* sj = s + j * cs;
        for (index p = 0; p < kc; ++p) d[p * nr + j] = take<T, CJ>(sj[p * rs]);
      }
      for (index p = 0; p < kc; ++p)
        for (index j = cols; j < nr; ++j) d[p * nr + j] = T(0);
    }
  }
}

// The family's SIMD packing where it has one for this layout, else element by element.
template <class T>
void pack_a(const KernelSet<T>& K, const MatRef<T>& A, index i0, index mc, index p0, index kc, T* dst) {
  const T* src = A.p + i0 * A.rs + p0 * A.cs;
  if constexpr (is_complex_v<T>) {
    if (A.conj) return pack_a_impl<T, true>(src, A.rs, A.cs, mc, kc, K.mr, dst);
  }
  if (A.cs == 1 && K.pack_a_trans) return K.pack_a_trans(src, A.rs, kc, mc, dst);
  if (A.rs == 1 && K.pack_a_copy) return K.pack_a_copy(src, A.cs, kc, mc, dst);
  pack_a_impl<T, false>(src, A.rs, A.cs, mc, kc, K.mr, dst);
}

template <class T>
void pack_b(const KernelSet<T>& K, const MatRef<T>& B, index p0, index kc, index j0, index nc, T* dst) {
  const T* src = B.p + p0 * B.rs + j0 * B.cs;
  if constexpr (is_complex_v<T>) {
    if (B.conj) return pack_b_impl<T, true>(src, B.rs, B.cs, kc, nc, K.nr, dst);
  }
  if (B.cs == 1 && K.pack_b_copy) return K.pack_b_copy(src, B.rs, kc, nc, dst);
  if (B.rs == 1 && K.pack_b_trans) return K.pack_b_trans(src, B.cs, kc, nc, dst);
  pack_b_impl<T, false>(src, B.rs, B.cs, kc, nc, K.nr, dst);
}

// c ← t + beta·c for an edge tile (or any tile of a C without unit column stride).
template <class T>
void merge(const T* t, index tld, index rows, index cols, T beta, T* c, index crs, index ccs) {
  if (beta == T(0)) {
    for (index i = 0; i < rows; ++i)
      for (index j = 0; j < cols; ++j) c[i * crs + j * ccs] = t[i * tld + j];
  } else {
    for (index i = 0; i < rows; ++i)
      for (index j = 0; j < cols; ++j) {
        T& x = c[i * crs + j * ccs];
        x = t[i * tld + j] + mul(beta, x);
      }
  }
}

template <class T>
void scale(MatMut<T> C, T beta) {
  if (beta == T(1)) return;
  for (index i = 0; i < C.rows; ++i)
    for (index j = 0; j < C.cols; ++j) {
      T& x = C(i, j);
      x = beta == T(0) ? T(0) : mul(beta, x);
    }
}

// The vectors a right edge of `cols` (< nr) columns needs when the family has a narrower
// tile for them (KernelSet::part), else 0 (the full-width tile runs).
template <class T>
inline int part_vectors(const KernelSet<T>& K, index cols) {
  if (K.cpv == 0 || cols >= K.nr) return 0;
  const int v = int((cols + K.cpv - 1) / K.cpv);
  return v * K.cpv < K.nr && K.part[v - 1] != nullptr ? v : 0;
}

// One tile through the kernel (a narrower one for a right edge where the family has it):
// straight into C when the kernel's tile covers it exactly and C's columns are contiguous,
// else through a scratch tile.
template <class T>
inline void tile(const KernelSet<T>& K, index kc, const T* a, index ars, index acs, const T* b, index brs, T alpha,
                 T beta, int flags, index rows, index cols, T* c, index crs, index ccs) {
  if (rows == K.mr && cols == K.nr && ccs == 1) return K.ukr(kc, a, ars, acs, b, brs, c, crs, alpha, beta, flags);
  const int v = part_vectors(K, cols);
  const Ukr<T> f = v > 0 ? K.part[v - 1] : K.ukr;
  if (v > 0 && rows == K.mr && cols == v * K.cpv && ccs == 1) return f(kc, a, ars, acs, b, brs, c, crs, alpha, beta, flags);
  alignas(64) T t[kMaxTile];
  f(kc, a, ars, acs, b, brs, t, K.nr, alpha, T(0), flags);
  merge(t, K.nr, rows, cols, beta, c, crs, ccs);
}

// A right-edge tile read straight from an unpacked B (masked loads), through scratch.
template <class T>
inline void tile_edge(const KernelSet<T>& K, index kc, const T* a, index ars, index acs, const T* b, index brs,
                      T alpha, T beta, int flags, index rows, index cols, T* c, index crs, index ccs) {
  alignas(64) T t[kMaxTile];
  const int v = part_vectors(K, cols);
  const UkrEdge<T> f = v > 0 && K.part_edge[v - 1] != nullptr ? K.part_edge[v - 1] : K.ukr_edge;
  f(kc, a, ars, acs, b, brs, t, K.nr, alpha, flags, cols);
  merge(t, K.nr, rows, cols, beta, c, crs, ccs);
}

// ---------------------------------------------------------------------------------------
// Unpacked path (sequential; the caller splits C across threads).

constexpr index kDirectKc = 1024;

template <class T>
void direct(const KernelSet<T>& K, T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C) {
  const index m = C.rows, n = C.cols, k = A.cols;
  const int mr = K.mr, nr = K.nr;
  int flags = 0;
  if constexpr (is_complex_v<T>) flags = (A.conj ? kConjA : 0) | (B.conj ? kConjB : 0);
  const index mfull = m - m % mr;
  const index kb = std::min(k, kDirectKc);
  Buffers& tl = tls();
  T* abuf = m > mfull ? tl.a.template get<T>(static_cast<std::size_t>(kb) * mr) : nullptr;
  T* bbuf = nullptr;
  for (index pc = 0; pc < k; pc += kb) {
    const index kc = std::min(kb, k - pc);
    const T beta_eff = pc == 0 ? beta : T(1);
    if (abuf) pack_a(K, A, mfull, m - mfull, pc, kc, abuf);
    for (index j0 = 0; j0 < n; j0 += nr) {
      const index cols = std::min<index>(nr, n - j0);
      const T* b;
      index brs;
      int fl = flags;
      // A narrow last strip is read in place with masked loads where the ISA has them:
      // copying it would cost more than the product when the whole matrix is tiny.
      const bool edge = B.cs == 1 && cols < nr && K.ukr_edge != nullptr;
      if (B.cs == 1 && (cols == nr || edge)) {
        b = B.p + pc * B.rs + j0;
        brs = B.rs;
      } else {
        if (!bbuf) bbuf = tl.b.template get<T>(static_cast<std::size_t>(kb) * nr);
        pack_b(K, B, pc, kc, j0, cols, bbuf);
        b = bbuf;
        brs = nr;
        fl &= ~kConjB;
      }
      const auto run = edge ? tile_edge<T> : tile<T>;
      for (index i0 = 0; i0 < mfull; i0 += mr)
        run(K, kc, A.p + i0 * A.rs + pc * A.cs, A.rs, A.cs, b, brs, alpha, beta_eff, fl, mr, cols,
            C.p + i0 * C.rs + j0 * C.cs, C.rs, C.cs);
      if (abuf)
        run(K, kc, abuf, 1, mr, b, brs, alpha, beta_eff, fl & ~kConjA, m - mfull, cols,
            C.p + mfull * C.rs + j0 * C.cs, C.rs, C.cs);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Packed path.

inline index ceil_div(index a, index b) { return (a + b - 1) / b; }
inline index round_up(index a, index b) { return ceil_div(a, b) * b; }

// The tiles of an mc × nc block against packed A and B. chunk = 0: the A-resident order (a
// B micro-panel meets every A micro-panel); chunk > 0: B-resident chunks of that many columns,
// each held in L2 while every A micro-panel, kept in L1, crosses its micro-panels.
template <class T>
void macro_kernel(const KernelSet<T>& K, index mc, index nc, index kc, const T* Ap, const T* Bp, T alpha, T beta,
                  T* c, index crs, index ccs, index chunk = 0) {
  const int mr = K.mr, nr = K.nr;
  if (chunk > 0) {
    chunk = round_up(chunk, nr);  // whole micro-panels
    for (index jb = 0; jb < nc; jb += chunk) {
      const index je = std::min(nc, jb + chunk);
      for (index ir = 0; ir < mc; ir += mr) {
        const index rows = std::min<index>(mr, mc - ir);
        for (index jr = jb; jr < je; jr += nr)
          tile(K, kc, Ap + ir * kc, 1, mr, Bp + jr * kc, nr, alpha, beta, 0, rows, std::min<index>(nr, nc - jr),
               c + ir * crs + jr * ccs, crs, ccs);
      }
    }
    return;
  }
  for (index jr = 0; jr < nc; jr += nr) {
    const index cols = std::min<index>(nr, nc - jr);
    const T* b = Bp + jr * kc;
    for (index ir = 0; ir < mc; ir += mr) {
      const index rows = std::min<index>(mr, mc - ir);
      tile(K, kc, Ap + ir * kc, 1, mr, b, nr, alpha, beta, 0, rows, cols, c + ir * crs + jr * ccs, crs, ccs);
    }
  }
}

// One thread's packed product with the B block in L2 (KernelSet::nb): A blocks of up to
// mb rows are packed once per k step into L3, B blocks of nb columns into L2, and each A
// micro-panel (kc × mr, in L1) meets every B micro-panel of the block before the next one
// is read. The A-resident nest streams the wider B micro-panel (kc × nr) from L2 per tile
// beside the A one; here only the B micro-panel streams.
template <class T>
void packed_serial_bres(const KernelSet<T>& K, T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C) {
  const index m = C.rows, n = C.cols, k = A.cols;
  const int mr = K.mr, nr = K.nr;
  const index kcb = ceil_div(k, ceil_div(k, K.kc));
  const index mbb = round_up(ceil_div(m, ceil_div(m, K.mb > 0 ? K.mb : K.nc)), mr);
  const index nbb = round_up(ceil_div(n, ceil_div(n, K.nb)), nr);
  Buffers& tl = tls();
  T* Ap = tl.a.template get<T>(static_cast<std::size_t>(mbb) * kcb);
  T* Bp = tl.b.template get<T>(static_cast<std::size_t>(kcb) * nbb);
  for (index ic = 0; ic < m; ic += mbb) {
    const index mc = std::min(mbb, m - ic);
    for (index pc = 0; pc < k; pc += kcb) {
      const index kc = std::min(kcb, k - pc);
      const T beta_eff = pc == 0 ? beta : T(1);
      pack_a(K, A, ic, mc, pc, kc, Ap);
      for (index jc = 0; jc < n; jc += nbb) {
        const index nc = std::min(nbb, n - jc);
        pack_b(K, B, pc, kc, jc, nc, Bp);
        macro_kernel(K, mc, nc, kc, Ap, Bp, alpha, beta_eff, C.p + ic * C.rs + jc * C.cs, C.rs, C.cs, nbb);
      }
    }
  }
}

// One thread's packed product: the loop nest of the header comment on its own buffers.
template <class T>
void packed_serial(const KernelSet<T>& K, T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, index nc_max) {
  const index m = C.rows, n = C.cols, k = A.cols;
  if (m <= 0 || n <= 0) return;
  if (K.nb > 0) return packed_serial_bres(K, alpha, A, B, beta, C);
  const int mr = K.mr, nr = K.nr;
  // Even splits: k = 300 runs as 2×150 rather than 256 + 44.
  const index kcb = ceil_div(k, ceil_div(k, K.kc));
  const index ncb = round_up(ceil_div(n, ceil_div(n, nc_max)), nr);
  const index mcb = round_up(ceil_div(m, ceil_div(m, K.mc)), mr);
  Buffers& tl = tls();
  T* Bp = tl.b.template get<T>(static_cast<std::size_t>(kcb) * ncb);
  T* Ap = tl.a.template get<T>(static_cast<std::size_t>(mcb) * kcb);
  for (index jc = 0; jc < n; jc += ncb) {
    const index nc = std::min(ncb, n - jc);
    for (index pc = 0; pc < k; pc += kcb) {
      const index kc = std::min(kcb, k - pc);
      const T beta_eff = pc == 0 ? beta : T(1);
      pack_b(K, B, pc, kc, jc, nc, Bp);
      for (index ic = 0; ic < m; ic += mcb) {
        const index mc = std::min(mcb, m - ic);
        pack_a(K, A, ic, mc, pc, kc, Ap);
        macro_kernel(K, mc, nc, kc, Ap, Bp, alpha, beta_eff, C.p + ic * C.rs + jc * C.cs, C.rs, C.cs);
      }
    }
  }
}

// Many threads, one B block: the BLIS nest with the kc × nc block of B packed once into
// the caller's buffer and read by every thread from the shared cache, while each thread
// packs its own mc-row blocks of A. Without a barrier inside a region, step s (one jc, pc)
// is a region whose first pieces pack the next step's B block into the other buffer and
// whose rest are (A block, column group) products against this step's block; the region's
// end is the barrier. The grid (packed) repacks A once per per-thread B block and keeps
// one B block per thread in the L3: with many threads the shared block moves less data.
template <class T>
void packed_shared(const KernelSet<T>& K, T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int threads) {
  const index m = C.rows, n = C.cols, k = A.cols;
  const int mr = K.mr, nr = K.nr;
  const index kcb = ceil_div(k, ceil_div(k, K.kc));
  const index ncb = round_up(ceil_div(n, ceil_div(n, K.nc)), nr);
  // A blocks in whole waves of threads (the last wave full), else column groups to fill them.
  index mb = ceil_div(m, K.mc), groups = 1;
  if (mb >= threads) mb = round_up(mb, threads);
  else groups = ceil_div(threads, mb);
  const index mcb = round_up(ceil_div(m, mb), mr);
  mb = ceil_div(m, mcb);
  const index ksteps = ceil_div(k, kcb), steps = ceil_div(n, ncb) * ksteps;
  Buffers& tl = tls();
  T* bufs[2] = {tl.shared[0].template get<T>(static_cast<std::size_t>(kcb) * ncb),
                steps > 1 ? tl.shared[1].template get<T>(static_cast<std::size_t>(kcb) * ncb) : nullptr};
  struct Step {
    index jc, nc, pc, kc, gw, pieces, pw;
  };
  auto step_of = [&](index s) {
    Step st;
    st.jc = (s / ksteps) * ncb;
    st.nc = std::min(ncb, n - st.jc);
    st.pc = (s % ksteps) * kcb;
    st.kc = std::min(kcb, k - st.pc);
    const index panels = ceil_div(st.nc, nr);
    st.gw = round_up(ceil_div(st.nc, groups), nr);
    st.pieces = std::min<index>(threads, panels);
    st.pw = ceil_div(panels, st.pieces) * nr;
    st.pieces = ceil_div(st.nc, st.pw);
    return st;
  };
  auto pack_piece = [&](const Step& st, index piece, T* Bp) {
    const index j = piece * st.pw;
    pack_b(K, B, st.pc, st.kc, st.jc + j, std::min(st.pw, st.nc - j), Bp + j * st.kc);
  };
  {
    const Step first = step_of(0);
    parallel_for(first.pieces, 1, [&](index p0, index p1) {
      for (index p = p0; p < p1; ++p) pack_piece(first, p, bufs[0]);
    }, threads, Schedule::Pieces);
  }
  for (index s = 0; s < steps; ++s) {
    const Step st = step_of(s);
    const bool more = s + 1 < steps;
    const Step next = more ? step_of(s + 1) : Step{};
    const index pre = more ? next.pieces : 0;
    const T* Bp = bufs[s & 1];
    T* Bn = more ? bufs[(s + 1) & 1] : nullptr;
    const T beta_eff = st.pc == 0 ? beta : T(1);
    const index gcount = ceil_div(st.nc, st.gw);
    parallel_for(pre + mb * gcount, 1, [&](index t0, index t1) {
      for (index t = t0; t < t1; ++t) {
        if (t < pre) {
          pack_piece(next, t, Bn);
          continue;
        }
        const index ib = (t - pre) / gcount, g = (t - pre) % gcount;
        const index ic = ib * mcb, mc = std::min(mcb, m - ic);
        const index j = g * st.gw, nc = std::min(st.gw, st.nc - j);
        T* Ap = tls().a.template get<T>(static_cast<std::size_t>(mcb) * kcb);
        pack_a(K, A, ic, mc, st.pc, st.kc, Ap);
        macro_kernel(K, mc, nc, st.kc, Ap, Bp + j * st.kc, alpha, beta_eff, C.p + ic * C.rs + (st.jc + j) * C.cs,
                     C.rs, C.cs, K.nb);
      }
    }, threads, Schedule::Pieces);
  }
}

// Threads split C into a tm × tn grid of independent sub-products, one region per call
// and no barrier inside it: each thread packs the A rows and B columns its tile needs. The
// grid minimises that packing (A is packed tn times, B tm times), which costs far less
// than the several barrier-separated regions of a shared B block and lets a region run
// with fewer threads than asked (tiles are pulled from a counter).
template <class T>
void packed(const KernelSet<T>& K, T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int threads) {
  const index m = C.rows, n = C.cols, k = A.cols;
  const index mt = ceil_div(m, K.mr), nt = ceil_div(n, K.nr);
  int tm = 1, tn = 1;
  double best = -1;
  for (int a = 1; a <= threads; ++a) {
    if (threads % a != 0) continue;
    const int b = threads / a;
    if (a > mt || b > nt) continue;
    const double cost = double(m) * k * b + double(k) * n * a;
    if (best < 0 || cost < best) {
      best = cost;
      tm = a;
      tn = b;
    }
  }
  if (tm * tn <= 1) return packed_serial(K, alpha, A, B, beta, C, K.nc);
  if (K.shared_from > 0 && threads >= K.shared_from && m >= index(threads) * K.mr && k >= K.kc / 2)
    return packed_shared(K, alpha, A, B, beta, C, threads);
  const index rows = round_up(ceil_div(m, tm), K.mr), cols = round_up(ceil_div(n, tn), K.nr);
  // Every thread keeps its own B block in the shared L3: together they get what one had (the
  // A-resident nest; in the B-resident order the L3 block is A, of mb rows).
  const index nc_max = K.nc_thread > 0 ? round_up(K.nc_thread, K.nr) : std::max<index>(round_up(K.nc / threads, K.nr), 4 * K.nr);
  parallel_for(
      index(tm) * tn, 1,
      [&](index t0, index t1) {
        for (index t = t0; t < t1; ++t) {
          const index i0 = (t / tn) * rows, j0 = (t % tn) * cols;
          if (i0 >= m || j0 >= n) continue;
          const index r = std::min(rows, m - i0), c = std::min(cols, n - j0);
          packed_serial(K, alpha, A.block(i0, 0, r, k), B.block(0, j0, k, c), beta, C.block(i0, j0, r, c), nc_max);
        }
      },
      threads, Schedule::Pieces);
}

// ---------------------------------------------------------------------------------------

// Below this many multiply-adds one thread is faster than waking the pool.
constexpr double kParallelMin = 128.0 * 128.0 * 128.0;

template <class T>
bool use_direct(const KernelSet<T>& K, index m, index n, index k, int threads) {
  // Packing B pays off over m/mr tiles, packing A over n/nr, and either only when k is deep
  // enough to hide the C tile traffic: with few tiles, a shallow k, or operands that
  // already fit in L2 (up to ~300³ in double), the unpacked kernel wins.
  if (m <= 2 * K.mr || n <= 2 * K.nr || k <= 32) return true;
  const double bytes = (double(m) * k + double(k) * n + double(m) * n) * sizeof(T);
  // One thread of the real B-resident kernels: its strip of B read in place through the
  // leading dimension stops staying in L1 from about half a MiB of operands (docs/gemm.md).
  const bool half = K.nb > 0 && !is_complex_v<T> && threads <= 1;
  return bytes <= (half ? 512.0 : 1024.0) * 1024;
}

// Small products (small_kernel.hpp): register tiles over the whole product, nothing packed.
template <class T>
bool use_small(const KernelSet<T>& K, index m, index n, index k) {
  return K.small != nullptr && m <= kSmallMax && n <= kSmallMax && k <= kSmallMaxK;
}

// The small kernels' job for matrix 0 of a batch (steps and maps added by the caller).
template <class T>
SmallBatch<T> small_job(T alpha, const MatRef<T>& A, const MatRef<T>& B, T beta, const MatMut<T>& C) {
  SmallBatch<T> j;
  j.m = C.rows;
  j.n = C.cols;
  j.k = A.cols;
  j.alpha = alpha;
  j.beta = beta;
  j.a = A.p;
  j.ars = A.rs;
  j.acs = A.cs;
  j.conj_a = A.conj;
  j.b = B.p;
  j.brs = B.rs;
  j.bcs = B.cs;
  j.conj_b = B.conj;
  j.c = C.p;
  j.crs = C.rs;
  j.ccs = C.cs;
  return j;
}

template <class T>
void gemm_impl(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int max_threads) {
  index m = C.rows, n = C.cols;
  const index k = A.cols;
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == T(0)) return scale(C, beta);
  if ((n == 1 || m == 1) && gemv(alpha, A, B, beta, C, max_threads)) return;
  // Kernels store along contiguous C rows: a column-major C is computed as Cᵀ = Bᵀ·Aᵀ.
  if (C.cs != 1 && C.rs == 1) {
    const MatRef<T> At = A.t(), Bt = B.t();
    A = Bt;
    B = At;
    C = C.t();
    std::swap(m, n);
  }
  const KernelSet<T>& K = kernels<T>();
  if (use_small(K, m, n, k)) return K.small(small_job(alpha, A, B, beta, C), 0, 1);
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  const double work = double(m) * n * k * (is_complex_v<T> ? 4 : 1);  // real multiply-adds
  if (in_parallel_region() || work < kParallelMin) threads = 1;

  if (use_direct(K, m, n, k, threads)) {
    if (threads <= 1) return direct(K, alpha, A, B, beta, C);
    // Split C along its longer side (in whole tiles); each piece runs unpacked.
    const index mt = ceil_div(m, K.mr), nt = ceil_div(n, K.nr);
    if (mt >= nt) {
      parallel_for(mt, 1, [&](index t0, index t1) {
        const index i0 = t0 * K.mr, i1 = std::min(m, t1 * K.mr);
        direct(K, alpha, A.block(i0, 0, i1 - i0, k), B, beta, C.block(i0, 0, i1 - i0, n));
      }, threads);
    } else {
      parallel_for(nt, 1, [&](index t0, index t1) {
        const index j0 = t0 * K.nr, j1 = std::min(n, t1 * K.nr);
        direct(K, alpha, A, B.block(0, j0, k, j1 - j0), beta, C.block(0, j0, m, j1 - j0));
      }, threads);
    }
    return;
  }
  packed(K, alpha, A, B, beta, C, threads);
}

// Below this many real multiply-adds in a whole batch of small products one thread is
// faster than waking the pool; above it, each thread takes chunks of at least this much.
constexpr double kSmallBatchParallelMin = 65536.0, kSmallBatchChunk = 131072.0;

template <class T>
void gemm_batched_impl(index count, T alpha, MatRef<T> A, index a_step, const int32_t* a_idx, MatRef<T> B,
                       index b_step, const int32_t* b_idx, T beta, MatMut<T> C, index c_step, int max_threads) {
  index m = C.rows, n = C.cols;
  const index k = A.cols;
  if (count <= 0 || m <= 0 || n <= 0) return;
  int threads = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
  if (in_parallel_region()) threads = 1;
  auto a_of = [&](index b) { return A.p + index(a_idx ? a_idx[b] : b) * a_step; };
  auto b_of = [&](index b) { return B.p + index(b_idx ? b_idx[b] : b) * b_step; };
  const double per = double(m) * n * std::max<index>(k, 1) * (is_complex_v<T> ? 4 : 1);  // real multiply-adds
  // Groups of whole products on each thread: the work and the grain in matrices.
  auto over_batch = [&](const std::function<void(index, index)>& fn, double chunk) {
    if (threads <= 1 || double(count) * per < kSmallBatchParallelMin) return fn(0, count);
    const index grain = std::max<index>(1, static_cast<index>(chunk / per));
    parallel_for(count, grain, fn, threads);
  };
  if (k <= 0 || alpha == T(0)) {
    over_batch([&](index b0, index b1) {
      for (index b = b0; b < b1; ++b) scale(MatMut<T>{C.p + b * c_step, m, n, C.rs, C.cs}, beta);
    }, kSmallBatchChunk);
    return;
  }
  if (C.cs != 1 && C.rs == 1) {  // column-major C: Cᵀ = Bᵀ·Aᵀ, as in gemm_impl
    const MatRef<T> At = A.t(), Bt = B.t();
    A = Bt;
    B = At;
    C = C.t();
    std::swap(m, n);
    std::swap(a_step, b_step);
    std::swap(a_idx, b_idx);
  }
  const KernelSet<T>& K = kernels<T>();
  if (use_small(K, m, n, k)) {
    SmallBatch<T> job = small_job(alpha, A, B, beta, C);
    job.a_step = a_step;
    job.a_idx = a_idx;
    job.b_step = b_step;
    job.b_idx = b_idx;
    job.c_step = c_step;
    over_batch([&](index b0, index b1) { K.small(job, b0, b1); }, kSmallBatchChunk);
    return;
  }
  auto one = [&](index b, int thr) {
    gemm_impl(alpha, MatRef<T>{a_of(b), m, k, A.rs, A.cs, A.conj}, MatRef<T>{b_of(b), k, n, B.rs, B.cs, B.conj}, beta,
              MatMut<T>{C.p + b * c_step, m, n, C.rs, C.cs}, thr);
  };
  // Many modest products: one thread per group of them. Few large ones: the GEMM
  // parallelises inside.
  if (count > 1 && per < 2.0e6) {
    over_batch([&](index b0, index b1) {
      for (index b = b0; b < b1; ++b) one(b, 1);
    }, 2.0e5);
  } else {
    for (index b = 0; b < count; ++b) one(b, threads);
  }
}

template <class T>
void set_blocking_of(KernelSet<T>& K, const Blocking& b) {
  // The driver rounds each block to whole tiles.
  if (b.mc > 0) K.mc = b.mc;
  if (b.kc > 0) K.kc = b.kc;
  if (b.nc > 0) K.nc = b.nc;
  if (b.nc_thread >= 0) K.nc_thread = b.nc_thread;
  if (b.shared_from >= 0) K.shared_from = b.shared_from;
  if (b.nb >= 0) K.nb = b.nb;
  if (b.mb >= 0) K.mb = b.mb;
}

}  // namespace

void set_blocking(char dtype, const Blocking& b) {
  Family& f = family_mut();
  switch (dtype) {
    case 's': return set_blocking_of(f.s, b);
    case 'd': return set_blocking_of(f.d, b);
    case 'c': return set_blocking_of(f.c, b);
    default: return set_blocking_of(f.z, b);
  }
}

Blocking blocking(char dtype) {
  const Family& f = family();
  const auto get = [](const auto& K) { return Blocking{K.mc, K.kc, K.nc, K.nc_thread, K.shared_from, K.nb, K.mb}; };
  return dtype == 's' ? get(f.s) : dtype == 'd' ? get(f.d) : dtype == 'c' ? get(f.c) : get(f.z);
}

}  // namespace gemm_detail

template <class T>
void gemm(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int max_threads) {
  gemm_detail::gemm_impl(alpha, A, B, beta, C, max_threads);
}

template <class T>
void gemm(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C) {
  gemm_detail::gemm_impl(alpha, A, B, beta, C, 0);
}

template <class T>
void gemm_batched(index count, T alpha, MatRef<T> A, index a_step, const int32_t* a_idx, MatRef<T> B, index b_step,
                  const int32_t* b_idx, T beta, MatMut<T> C, index c_step, int max_threads) {
  gemm_detail::gemm_batched_impl(count, alpha, A, a_step, a_idx, B, b_step, b_idx, beta, C, c_step, max_threads);
}

const char* gemm_kernel_name() { return gemm_detail::family().name; }

#define LAPIS_INST(T)                                                     \
  template void gemm<T>(T, MatRef<T>, MatRef<T>, T, MatMut<T>);           \
  template void gemm<T>(T, MatRef<T>, MatRef<T>, T, MatMut<T>, int);      \
  template void gemm_batched<T>(index, T, MatRef<T>, index, const int32_t*, MatRef<T>, index, const int32_t*, T, \
                                MatMut<T>, index, int);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
