// One strided gather into a contiguous output: transpose, permute, slice, diagonal, expand
// and split are all this kernel (the tensor API keeps every tensor dense, see
// docs/architecture.md). Dims are collapsed first (size-1 dims dropped, dims that walk
// memory as one merged), then one of three loops runs: contiguous rows (memcpy), a tiled
// transpose when the second-to-last dim is the unit-stride one (mT, mH, the last-two-dims
// permutation; in-register L×L blocks on AVX2 and AVX-512, docs/gemm.md "Transposed
// operands"), or a strided row walk.
#include <algorithm>
#include <cstring>

#include "indexing_common.hpp"
#include "lapis/indexing.hpp"
#include "lapis/isa.hpp"
#include "lapis/parallel.hpp"
#include "lapis/simd.hpp"

namespace lapis {
namespace {

using indexing_detail::cj;
using indexing_detail::kParallelElems;

// Rows per tile of the transpose path: two cache lines of elements (32 float, 16 double,
// 8 complex128; at most 64), so each source row's run in a tile is whole lines.
template <class T>
constexpr index tile_of() {
  return std::min<index>(64, std::max<index>(4, index(128 / sizeof(T))));
}

struct Dims {
  int nd = 0;
  index shape[64];
  index strides[64];
};

// Size-1 dims dropped; a dim merged into the one before it when that one steps over it exactly.
Dims collapse(int nd, const index* shape, const index* strides) {
  Dims d;
  for (int i = 0; i < nd; ++i) {
    if (shape[i] == 1) continue;
    if (d.nd > 0 && d.strides[d.nd - 1] == strides[i] * shape[i]) {
      d.shape[d.nd - 1] *= shape[i];
      d.strides[d.nd - 1] = strides[i];
    } else {
      d.shape[d.nd] = shape[i];
      d.strides[d.nd] = strides[i];
      ++d.nd;
    }
  }
  return d;
}

// Walks the first `nouter` dims of d in row-major order from flat position `start`,
// tracking the element offset of the current position.
struct Counter {
  const Dims& d;
  int nouter;
  index cnt[64];
  index off = 0;
  Counter(const Dims& dims, int n, index start) : d(dims), nouter(n) {
    for (int i = nouter - 1; i >= 0; --i) {
      cnt[i] = start % d.shape[i];
      start /= d.shape[i];
      off += cnt[i] * d.strides[i];
    }
  }
  void next() {
    for (int i = nouter - 1; i >= 0; --i) {
      off += d.strides[i];
      if (++cnt[i] < d.shape[i]) return;
      off -= d.strides[i] * d.shape[i];
      cnt[i] = 0;
    }
  }
};

template <class T>
inline void copy_row(const T* src, index s, index len, T* dst, bool conj) {
  if (s == 0) {
    // A broadcast dim (expand): one value repeated, a fill the compiler vectorises.
    std::fill(dst, dst + len, conj ? cj(src[0]) : src[0]);
  } else if (s == 1 && !conj) {
    std::memcpy(dst, src, static_cast<size_t>(len) * sizeof(T));
  } else if (s == 1) {
    for (index j = 0; j < len; ++j) dst[j] = cj(src[j]);
  } else if (conj) {
    for (index j = 0; j < len; ++j) dst[j] = cj(src[j * s]);
  } else {
    for (index j = 0; j < len; ++j) dst[j] = src[j * s];
  }
}

// Rows [r0, r1), columns [c0, c1) of the out block (R × C) = x[r + c·sc]: x's unit-stride
// dim becomes out's rows. Element by element in tiles of TB output rows × 16 columns (the
// ragged edges of the register path below, the 1-byte types, and builds without it).
template <class T>
void transpose_rows(const T* x, index sc, index C, index r0, index r1, index c0, index c1, T* out, bool conj) {
  constexpr index TB = tile_of<T>(), TC = 16;
  for (index cb = c0; cb < c1; cb += TC) {
    const index cn = std::min(TC, c1 - cb);
    for (index rb = r0; rb < r1; rb += TB) {
      const index re = std::min(r1, rb + TB);
      for (index r = rb; r < re; ++r) {
        T* dst = out + r * C + cb;
        const T* src = x + cb * sc + r;
        if (conj) {
          for (index c = 0; c < cn; ++c) dst[c] = cj(src[c * sc]);
        } else {
          for (index c = 0; c < cn; ++c) dst[c] = src[c * sc];
        }
      }
    }
  }
}

// The register path: L×L blocks of E-byte units, L source rows loaded as whole vectors,
// transposed in registers, stored as L whole output row pieces (a vector of units is 64
// bytes under AVX-512, 32 under AVX2: every line read or written is used whole at once, so
// the 2^k-byte strides that alias in the caches cost nothing). Moves only (the complex
// conjugate flips sign bits), so every bit is kept. Returns false where no such path.
using TransFn = void (*)(const char* x, index sc, index C, index r0, index r1, char* out, bool conj);

#if LAPIS_SIMD_X86
// Defined once per target region below (a function template takes the target of the
// place it is defined, not of its caller).
#define LAPIS_TRANS_BLOCKS                                                                         \
  template <class H>                                                                               \
  void trans_blocks(const char* x, index sc, index C, index r0, index r1, char* out, bool conj) {  \
    constexpr int L = H::L;                                                                        \
    constexpr index E = H::E;                                                                      \
    using V = typename H::V;                                                                       \
    const index rfull = r0 + (r1 - r0) / L * L, cfull = C / L * L;                                 \
    for (index cb = 0; cb < cfull; cb += L) {                                                      \
      const char* xs = x + cb * sc * E;                                                            \
      char* os = out + cb * E;                                                                     \
      for (index r = r0; r < rfull; r += L) {                                                      \
        V v[L];                                                                                    \
        simd::unroll<L>([&](auto t) { v[t] = H::load(xs + (t * sc + r) * E); });                  \
        H::transpose(v);                                                                           \
        if (conj) simd::unroll<L>([&](auto t) { v[t] = H::flip(v[t]); });                          \
        simd::unroll<L>([&](auto t) { H::store(os + (r + t) * C * E, v[t]); });                    \
      }                                                                                            \
    }                                                                                              \
  }

LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX512)
// 4-byte units, 16×16; 8-byte, 8×8; 16-byte (complex<double>), 4×4 of 128-bit lanes.
// flip: the sign of every odd 4-byte half (complex<float> as 8-byte units), of every odd
// double (complex<double>).
struct U4x512 {
  using P = simd::Pack<simd::Avx512, float>;
  using V = __m512;
  static constexpr int L = 16;
  static constexpr index E = 4;
  static V load(const char* p) { return _mm512_loadu_ps(reinterpret_cast<const float*>(p)); }
  static void store(char* p, V v) { _mm512_storeu_ps(reinterpret_cast<float*>(p), v); }
  static void transpose(V (&r)[L]) { P::transpose(r); }
  static V flip(V v) { return v; }
};
struct U8x512 {
  using P = simd::Pack<simd::Avx512, double>;
  using V = __m512d;
  static constexpr int L = 8;
  static constexpr index E = 8;
  static V load(const char* p) { return _mm512_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(char* p, V v) { _mm512_storeu_pd(reinterpret_cast<double*>(p), v); }
  static void transpose(V (&r)[L]) { P::transpose(r); }
  static V flip(V v) {
    return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(int64_t(1) << 63)));
  }
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's _mm512_shuffle_f64x2 (as in simd.hpp)
#endif
struct U16x512 {
  using V = __m512d;
  static constexpr int L = 4;
  static constexpr index E = 16;
  static V load(const char* p) { return _mm512_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(char* p, V v) { _mm512_storeu_pd(reinterpret_cast<double*>(p), v); }
  static void transpose(V (&r)[L]) {
    const V t0 = _mm512_shuffle_f64x2(r[0], r[1], 0x44), t1 = _mm512_shuffle_f64x2(r[0], r[1], 0xEE);
    const V t2 = _mm512_shuffle_f64x2(r[2], r[3], 0x44), t3 = _mm512_shuffle_f64x2(r[2], r[3], 0xEE);
    r[0] = _mm512_shuffle_f64x2(t0, t2, 0x88);
    r[1] = _mm512_shuffle_f64x2(t0, t2, 0xDD);
    r[2] = _mm512_shuffle_f64x2(t1, t3, 0x88);
    r[3] = _mm512_shuffle_f64x2(t1, t3, 0xDD);
  }
  static V flip(V v) { return _mm512_xor_pd(v, _mm512_setr_pd(0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0)); }
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
namespace x512 {
LAPIS_TRANS_BLOCKS
}  // namespace x512
LAPIS_TARGET_END

LAPIS_TARGET_BEGIN(LAPIS_TARGET_AVX2)
struct U4x256 {
  using P = simd::Pack<simd::Avx2, float>;
  using V = __m256;
  static constexpr int L = 8;
  static constexpr index E = 4;
  static V load(const char* p) { return _mm256_loadu_ps(reinterpret_cast<const float*>(p)); }
  static void store(char* p, V v) { _mm256_storeu_ps(reinterpret_cast<float*>(p), v); }
  static void transpose(V (&r)[L]) { P::transpose(r); }
  static V flip(V v) { return v; }
};
struct U8x256 {
  using P = simd::Pack<simd::Avx2, double>;
  using V = __m256d;
  static constexpr int L = 4;
  static constexpr index E = 8;
  static V load(const char* p) { return _mm256_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(char* p, V v) { _mm256_storeu_pd(reinterpret_cast<double*>(p), v); }
  static void transpose(V (&r)[L]) { P::transpose(r); }
  static V flip(V v) {
    return _mm256_castsi256_pd(_mm256_xor_si256(_mm256_castpd_si256(v), _mm256_set1_epi64x(int64_t(1) << 63)));
  }
};
struct U16x256 {
  using V = __m256d;
  static constexpr int L = 2;
  static constexpr index E = 16;
  static V load(const char* p) { return _mm256_loadu_pd(reinterpret_cast<const double*>(p)); }
  static void store(char* p, V v) { _mm256_storeu_pd(reinterpret_cast<double*>(p), v); }
  static void transpose(V (&r)[L]) {
    const V a = _mm256_permute2f128_pd(r[0], r[1], 0x20), b = _mm256_permute2f128_pd(r[0], r[1], 0x31);
    r[0] = a;
    r[1] = b;
  }
  static V flip(V v) { return _mm256_xor_pd(v, _mm256_setr_pd(0.0, -0.0, 0.0, -0.0)); }
};
namespace x256 {
LAPIS_TRANS_BLOCKS
}  // namespace x256
LAPIS_TARGET_END

template <class T>
TransFn pick_trans() {
  const Isa isa = active_isa();
  constexpr std::size_t E = sizeof(T);
  if (isa == Isa::avx512) {
    if constexpr (E == 4) return &x512::trans_blocks<U4x512>;
    if constexpr (E == 8) return &x512::trans_blocks<U8x512>;
    if constexpr (E == 16) return &x512::trans_blocks<U16x512>;
  }
  if (runs_avx2(isa)) {
    if constexpr (E == 4) return &x256::trans_blocks<U4x256>;
    if constexpr (E == 8) return &x256::trans_blocks<U8x256>;
    if constexpr (E == 16) return &x256::trans_blocks<U16x256>;
  }
  return nullptr;
}
#else
template <class T>
TransFn pick_trans() {
  return nullptr;
}
#endif

// Its block size in units (0: no register path).
template <class T>
int trans_lanes() {
  if (!pick_trans<T>()) return 0;
  const int bytes = active_isa() == Isa::avx512 ? 64 : 32;
  return bytes / int(sizeof(T));
}

// Rows [r0, r1) of the out block through the register path where there is one, the
// ragged right columns and bottom rows element by element.
template <class T>
void transpose_block(const T* x, index sc, index C, index r0, index r1, T* out, bool conj) {
  static const TransFn fn = pick_trans<T>();
  static const index L = trans_lanes<T>();
  if (!fn) return transpose_rows(x, sc, C, r0, r1, 0, C, out, conj);
  fn(reinterpret_cast<const char*>(x), sc, C, r0, r1, reinterpret_cast<char*>(out), conj);
  const index rfull = r0 + (r1 - r0) / L * L, cfull = C / L * L;
  if (cfull < C) transpose_rows(x, sc, C, r0, r1, cfull, C, out, conj);
  if (rfull < r1) transpose_rows(x, sc, C, rfull, r1, 0, cfull, out, conj);
}

}  // namespace

template <class T>
void strided_copy(int nd, const index* shape, const index* strides, index offset, const T* x, T* out, bool conj) {
  index total = 1;
  for (int i = 0; i < nd; ++i) total *= shape[i];
  if (total == 0) return;
  conj = conj && is_complex_v<T>;
  const Dims d = collapse(nd, shape, strides);
  const T* base = x + offset;
  if (d.nd == 0) {
    out[0] = conj ? cj(base[0]) : base[0];
    return;
  }
  const index C = d.shape[d.nd - 1], sc = d.strides[d.nd - 1];
  if (d.nd >= 2 && d.strides[d.nd - 2] == 1 && (sc > 1 || sc < -1)) {
    const index R = d.shape[d.nd - 2];
    const int nouter = d.nd - 2;
    // Work items: row blocks of `rows` output rows of one matrix (a few tiles, so threads balance).
    const index rows = 4 * tile_of<T>();
    const index mats = total / (R * C), tiles = (R + rows - 1) / rows;
    const index grain = std::max<index>(1, kParallelElems / (rows * C));
    auto run = [&](index b, index e) {
      Counter ctr(d, nouter, b / tiles);
      index mat = b / tiles;
      for (index it = b; it < e; ++it) {
        if (it / tiles != mat) {
          ctr.next();
          mat = it / tiles;
        }
        const index t = it % tiles;
        transpose_block(base + ctr.off, sc, C, t * rows, std::min(R, (t + 1) * rows), out + mat * R * C, conj);
      }
    };
    if (total < kParallelElems) run(0, mats * tiles);
    else parallel_for(mats * tiles, grain, run);
    return;
  }
  const int nouter = d.nd - 1;
  const index rows = total / C;
  auto run = [&](index b, index e) {
    Counter ctr(d, nouter, b);
    for (index r = b; r < e; ++r) {
      copy_row(base + ctr.off, sc, C, out + r * C, conj);
      ctr.next();
    }
  };
  if (total < kParallelElems) run(0, rows);
  else parallel_for(rows, std::max<index>(1, kParallelElems / C), run);
}

#define LAPIS_INSTANTIATE(T) \
  template void strided_copy<T>(int, const index*, const index*, index, const T*, T*, bool);
LAPIS_INDEXING_TYPES(LAPIS_INSTANTIATE)
#undef LAPIS_INSTANTIATE

}  // namespace lapis
