// Reductions over (outer, n, inner). Two kernels: contiguous rows (inner == 1), reduced in
// SIMD lanes (rows_simd.hpp for float/double sums, max/min and index searches), and columns
// (inner > 1), where each reduced row adds a contiguous run of columns into accumulators.
// Floating sums are pairwise (numpy's scheme: leaves of 16 elements per lane, halves split
// at lane multiples; pairwise halves of rows in the column kernel), so float32 sums stay in
// float32 with O(log n) error growth. Long rows are cut into blocks of kRowBlock
// elements and long columns into kRowsPerTask rows whose partials combine pairwise: the
// cuts depend on the shape only, so the result is the same for every thread count.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "lapis/isa.hpp"
#include "lapis/parallel.hpp"
#include "lapis/reduce.hpp"
#include "rows_simd.hpp"

namespace lapis {

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
void reduce_sum_avx2(const float* x, index m, bool pairs, float* out);
void reduce_sum_avx2(const double* x, index m, bool pairs, double* out);
double reduce_sum_squares_avx2(const double* x, index m);
double reduce_sum_magnitudes_avx2(const double* x, index m);
float reduce_extremum_avx2(const float* x, index m, bool is_max);
double reduce_extremum_avx2(const double* x, index m, bool is_max);
index reduce_find_avx2(const float* x, index m, float v);
index reduce_find_avx2(const double* x, index m, double v);
#define LAPIS_REDUCE_HAVE_AVX2 1
#endif

namespace {

bool use_avx2() {
#if defined(LAPIS_REDUCE_HAVE_AVX2)
  return runs_avx2(active_isa());
#else
  return false;
#endif
}

// The row kernels of rows_simd.hpp for float/double: AVX2 where it runs, else the baseline's.
template <class R> using BasePack = simd::Pack<simd::Generic<16>, R>;

template <class R> void simd_sum(const R* x, index m, bool pairs, R* out) {
#if defined(LAPIS_REDUCE_HAVE_AVX2)
  if (use_avx2()) return reduce_sum_avx2(x, m, pairs, out);
#endif
  reduce_rows_detail::sum<BasePack<R>>(x, m, pairs, out);
}
template <int Tm> double simd_sum_terms(const double* x, index m) {
#if defined(LAPIS_REDUCE_HAVE_AVX2)
  if (use_avx2()) return Tm == reduce_rows_detail::kSquares ? reduce_sum_squares_avx2(x, m) : reduce_sum_magnitudes_avx2(x, m);
#endif
  return reduce_rows_detail::sum_terms<BasePack<double>, Tm>(x, m);
}
template <class R> R simd_extremum(const R* x, index m, bool is_max) {
#if defined(LAPIS_REDUCE_HAVE_AVX2)
  if (use_avx2()) return reduce_extremum_avx2(x, m, is_max);
#endif
  return reduce_rows_detail::extremum<BasePack<R>>(x, m, is_max);
}
template <class R> index simd_find(const R* x, index m, R v) {
#if defined(LAPIS_REDUCE_HAVE_AVX2)
  if (use_avx2()) return reduce_find_avx2(x, m, v);
#endif
  return reduce_rows_detail::find_first<BasePack<R>>(x, m, v);
}

template <class T> constexpr bool kSimdReal = std::is_same_v<T, float> || std::is_same_v<T, double>;

constexpr index kRowBlock = index(1) << 15;  // contiguous elements per partial of a long row
constexpr index kRowsPerTask = 4096;         // reduced rows per partial when inner > 1
constexpr index kWork = index(1) << 15;      // elements a parallel chunk should cover at least

template <class T> using wide_t = std::conditional_t<std::is_integral_v<T>, uint32_t, T>;

template <class T> inline bool nonzero(T v) {
  if constexpr (is_complex_v<T>) return v.real() != 0 || v.imag() != 0;
  else return v != T(0);
}

// Complex product by the textbook formula (numpy's), not the C99 Annex G routine std::complex calls.
template <class T> inline T mul(T a, T b) {
  if constexpr (is_complex_v<T>) {
    return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  } else {
    return a * b;
  }
}

// Each op: accumulator type A, identity, load (input → A) and combine.
template <class T> struct Sum {
  using A = wide_t<T>;  // integers in uint32: wrap-around without signed-overflow UB
  static constexpr bool pairwise = !std::is_integral_v<T>;
  static A id() { return A(0); }
  static A load(T v) { return static_cast<A>(v); }
  static A comb(A a, A b) { return a + b; }
};
template <class T> struct Prod {
  using A = wide_t<T>;
  static constexpr bool pairwise = false;
  static A id() { return A(1); }
  static A load(T v) { return static_cast<A>(v); }
  static A comb(A a, A b) { return mul(a, b); }
};
// The norms' sums, Σ|x|² and Σ|x|, in double whatever T: float32 squares neither over- nor
// underflow there, and the caller decides from one double whether float64 ones did.
template <class T> double squared_magnitude(T v) {
  if constexpr (is_complex_v<T>) {
    const double re = v.real(), im = v.imag();
    return re * re + im * im;
  } else {
    return static_cast<double>(v) * static_cast<double>(v);
  }
}
template <class T> double magnitude(T v) {
  if constexpr (is_complex_v<T>) {
    const double s = squared_magnitude(v);
    if constexpr (std::is_same_v<T, std::complex<float>>) return std::sqrt(s);
    else return s < std::numeric_limits<double>::infinity() && s > 1e-290 ? std::sqrt(s) : std::hypot(v.real(), v.imag());
  } else {
    return std::fabs(static_cast<double>(v));
  }
}
// Tm: reduce_rows_detail::kSquares (Σ|x|²) or kMagnitudes (Σ|x|).
template <class T, int Tm> struct NormSum {
  using A = double;
  static constexpr bool pairwise = true;
  static constexpr int terms = Tm;
  static A id() { return 0; }
  static A load(T v) {
    if constexpr (Tm == reduce_rows_detail::kSquares) return squared_magnitude(v);
    else return magnitude(v);
  }
  static A comb(A a, A b) { return a + b; }
};

// b wins if larger or NaN; a NaN accumulator never loses (every comparison with it is false).
template <class T> struct Max {
  using A = T;
  static constexpr bool pairwise = false;
  static constexpr int extremum = 1;
  static A id() {
    if constexpr (std::is_integral_v<T>) return std::numeric_limits<T>::lowest();
    else return -std::numeric_limits<T>::infinity();
  }
  static A load(T v) { return v; }
  static A comb(A a, A b) { return (b > a || b != b) ? b : a; }
  static bool better(T v, T m) { return v > m || (v != v && m == m); }
};
template <class T> struct Min {
  using A = T;
  static constexpr bool pairwise = false;
  static constexpr int extremum = -1;
  static A id() {
    if constexpr (std::is_integral_v<T>) return std::numeric_limits<T>::max();
    else return std::numeric_limits<T>::infinity();
  }
  static A load(T v) { return v; }
  static A comb(A a, A b) { return (b < a || b != b) ? b : a; }
  static bool better(T v, T m) { return v < m || (v != v && m == m); }
};
template <class T> struct Any {
  using A = uint8_t;
  static constexpr bool pairwise = false;
  static A id() { return 0; }
  static A load(T v) { return nonzero(v) ? 1 : 0; }
  static A comb(A a, A b) { return a | b; }
};
template <class T> struct All {
  using A = uint8_t;
  static constexpr bool pairwise = false;
  static A id() { return 1; }
  static A load(T v) { return nonzero(v) ? 1 : 0; }
  static A comb(A a, A b) { return a & b; }
};

// Pairwise combination of count values p[0], p[stride], …
template <class A, class Comb>
A tree(const A* p, index count, index stride, Comb comb) {
  if (count == 1) return p[0];
  const index h = count / 2;
  return comb(tree(p, h, stride, comb), tree(p + h * stride, count - h, stride, comb));
}

template <class Op, class = void> struct Has_extremum : std::false_type {};
template <class Op> struct Has_extremum<Op, std::void_t<decltype(Op::extremum)>> : std::true_type {};
template <class Op, class = void> struct Has_terms : std::false_type {};
template <class Op> struct Has_terms<Op, std::void_t<decltype(Op::terms)>> : std::true_type {};

// A norm sum of x[0, m): double data (and the squares of complex<double> as 2m doubles) in
// SIMD lanes, pairwise; other types through 8 accumulators in double.
template <class Op, class T>
double norm_block(const T* x, index m) {
  constexpr bool lanes = std::is_same_v<T, double> ||
                         (std::is_same_v<T, std::complex<double>> && Op::terms == reduce_rows_detail::kSquares);
  if constexpr (lanes) {
    if (m >= 16) return simd_sum_terms<Op::terms>(reinterpret_cast<const double*>(x), is_complex_v<T> ? 2 * m : m);
  }
  constexpr int L = 8;
  double a[L] = {};
  index i = 0;
  for (; i + L <= m; i += L) {
    for (int l = 0; l < L; ++l) a[l] += Op::load(x[i + l]);
  }
  double r = tree(a, L, 1, Op::comb);
  for (; i < m; ++i) r += Op::load(x[i]);
  return r;
}

// Op over x[0, m) (contiguous); m may be 0 (identity).
template <class Op, class T>
typename Op::A block_reduce(const T* x, index m) {
  using A = typename Op::A;
  if constexpr (Has_terms<Op>::value) {
    return norm_block<Op>(x, m);
  } else if constexpr (Op::pairwise) {
    if (m < 16) {
      // Short rows (many of them, e.g. the last dim of an (n, 3) tensor): a plain loop beats the lane setup.
      A r = Op::id();
      for (index i = 0; i < m; ++i) r = Op::comb(r, Op::load(x[i]));
      return r;
    }
    real_t<T> r[2];
    simd_sum(reinterpret_cast<const real_t<T>*>(x), m, is_complex_v<T>, r);
    if constexpr (is_complex_v<T>) return T(r[0], r[1]);
    else return r[0];
  } else if constexpr (kSimdReal<T> && Has_extremum<Op>::value) {
    if (m == 0) return Op::id();
    return simd_extremum(x, m, Op::extremum > 0);
  } else {
    constexpr int L = 8;
    A a[L];
    for (int l = 0; l < L; ++l) a[l] = Op::id();
    index i = 0;
    for (; i + L <= m; i += L) {
      for (int l = 0; l < L; ++l) a[l] = Op::comb(a[l], Op::load(x[i + l]));
    }
    A r = tree(a, L, 1, Op::comb);
    for (; i < m; ++i) r = Op::comb(r, Op::load(x[i]));
    return r;
  }
}

template <class O, class A> inline O finish(A a) { return static_cast<O>(a); }

// inner == 1: each of `outer` rows of n contiguous elements to one value.
template <class Op, class T, class O>
void reduce_rows(index outer, index n, const T* x, O* out) {
  using A = typename Op::A;
  const index nb = (n + kRowBlock - 1) / kRowBlock;
  if (nb <= 1) {
    parallel_for(outer, std::max<index>(1, kWork / std::max<index>(n, 1)), [&](index b, index e) {
      for (index o = b; o < e; ++o) out[o] = finish<O>(block_reduce<Op>(x + o * n, n));
    });
    return;
  }
  std::vector<A> part(static_cast<size_t>(outer * nb));
  parallel_for(outer * nb, 1, [&](index b, index e) {
    for (index t = b; t < e; ++t) {
      const index o = t / nb, s = (t % nb) * kRowBlock;
      part[t] = block_reduce<Op>(x + o * n + s, std::min(kRowBlock, n - s));
    }
  });
  for (index o = 0; o < outer; ++o) out[o] = finish<O>(tree(part.data() + o * nb, nb, 1, Op::comb));
}

// Columns per task when inner > 1: a few tasks per thread, each row's run long enough for
// the prefetchers (up to 16 KiB). Any width gives the same numbers (columns are independent).
template <class T>
index column_width(index inner) {
  const index most = std::max<index>(64, index(16384) / static_cast<index>(sizeof(T)));
  const index want = (inner + 4 * num_threads() - 1) / (4 * num_threads());
  return std::min(most, std::max<index>(64, (want + 15) / 16 * 16));
}

// acc[0, w) = op over `rows` rows (stride ld) of columns [0, w). Sums: pairwise halves down
// to 16 rows, each half into the next scratch row (scratch holds w per recursion level);
// the leaf adds four rows per pass over acc, in row order.
template <class Op, class T>
void column_block(const T* x, index rows, index ld, index w, typename Op::A* acc, typename Op::A* scratch) {
  if constexpr (Op::pairwise) {
    if (rows > 16) {
      const index h = rows / 2;
      column_block<Op>(x, h, ld, w, acc, scratch + w);
      column_block<Op>(x + h * ld, rows - h, ld, w, scratch, scratch + w);
      for (index j = 0; j < w; ++j) acc[j] = Op::comb(acc[j], scratch[j]);
      return;
    }
  }
  (void)scratch;
  for (index j = 0; j < w; ++j) acc[j] = Op::id();
  index r = 0;
  for (; r + 4 <= rows; r += 4) {
    const T* x0 = x + r * ld;
    const T* x1 = x0 + ld;
    const T* x2 = x1 + ld;
    const T* x3 = x2 + ld;
    for (index j = 0; j < w; ++j) {
      acc[j] = Op::comb(Op::comb(Op::comb(Op::comb(acc[j], Op::load(x0[j])), Op::load(x1[j])), Op::load(x2[j])), Op::load(x3[j]));
    }
  }
  for (; r < rows; ++r) {
    const T* xr = x + r * ld;
    for (index j = 0; j < w; ++j) acc[j] = Op::comb(acc[j], Op::load(xr[j]));
  }
}

// inner > 1: tasks of (outer index, column chunk, row block of kRowsPerTask rows).
template <class Op, class T, class O>
void reduce_columns(index outer, index n, index inner, const T* x, O* out) {
  using A = typename Op::A;
  const index W = column_width<T>(inner);
  const index nc = (inner + W - 1) / W;
  const index nr = std::max<index>(1, (n + kRowsPerTask - 1) / kRowsPerTask);
  const index per_task = std::max<index>(1, std::min(n, kRowsPerTask) * std::min(inner, W));
  std::vector<A> part(nr > 1 ? static_cast<size_t>(outer * nr * inner) : 0);
  parallel_for(outer * nc * nr, std::max<index>(1, kWork / per_task), [&](index b, index e) {
    // acc plus one scratch row per halving level (kRowsPerTask / 16 = 2^8 → 9 levels).
    std::vector<A> buf(static_cast<size_t>(W * 12));
    A* acc = buf.data();
    for (index t = b; t < e; ++t) {
      const index r = t % nr, c = (t / nr) % nc, o = t / (nr * nc);
      const index j0 = c * W, w = std::min(W, inner - j0);
      const index r0 = r * kRowsPerTask, rows = std::min(kRowsPerTask, n - r0);
      column_block<Op>(x + (o * n + r0) * inner + j0, rows, inner, w, acc, acc + W);
      if (nr == 1) {
        O* dst = out + o * inner + j0;
        for (index j = 0; j < w; ++j) dst[j] = finish<O>(acc[j]);
      } else {
        A* dst = part.data() + (o * nr + r) * inner + j0;
        for (index j = 0; j < w; ++j) dst[j] = acc[j];
      }
    }
  });
  if (nr == 1) return;
  parallel_for(outer * inner, std::max<index>(1, kWork / nr), [&](index b, index e) {
    for (index t = b; t < e; ++t) {
      const index o = t / inner, j = t % inner;
      out[t] = finish<O>(tree(part.data() + o * nr * inner + j, nr, inner, Op::comb));
    }
  });
}

template <class Op, class T, class O>
void run(index outer, index n, index inner, const T* x, void* out) {
  if (outer == 0 || inner == 0) return;
  O* o = static_cast<O*>(out);
  if (inner == 1) reduce_rows<Op>(outer, n, x, o);
  else reduce_columns<Op>(outer, n, inner, x, o);
}

// First i < m with x[i] == v (or x[i] NaN when v is NaN), or −1.
template <class T>
index first_hit(const T* x, index m, T v) {
  if constexpr (kSimdReal<T>) return simd_find(x, m, v);
  if (v != v) {
    for (index i = 0; i < m; ++i) {
      if (x[i] != x[i]) return i;
    }
  } else {
    for (index i = 0; i < m; ++i) {
      if (x[i] == v) return i;
    }
  }
  return -1;
}

// The extremum of x[0, m) (m ≥ 1) and the index of its first occurrence, in one pass: the
// extremum of each L1-sized piece by the vectorised reduction, the first piece holding the
// best one remembered (a NaN piece ends the scan), then a search of that piece alone.
template <class Op, class T>
std::pair<T, index> arg_scan(const T* x, index m) {
  constexpr index kPiece = 2048;
  T best = x[0];
  index at = 0;
  if (m < 64) {
    // Short rows: one scalar pass (the vector setup would cost more).
    for (index i = 1; i < m; ++i) {
      const T v = x[i];
      const bool b = Op::better(v, best);  // a NaN best is never beaten: its index stays the first
      best = b ? v : best;
      at = b ? i : at;
    }
    return {best, at};
  }
  for (index s = 0; s < m; s += kPiece) {
    const T v = block_reduce<Op>(x + s, std::min(kPiece, m - s));
    if (v != v) {
      if (best == best) { best = v; at = s; }
      break;
    }
    if (Op::better(v, best)) { best = v; at = s; }
  }
  const index i = at + first_hit(x + at, std::min(kPiece, m - at), best);
  return {x[i], i};
}

template <class Op, class T>
void arg_impl(index outer, index n, index inner, const T* x, T* values, int32_t* indices) {
  if (outer == 0 || inner == 0 || n == 0) return;
  if (inner > 1) {
    const index W = column_width<T>(inner);
    const index nc = (inner + W - 1) / W;
    parallel_for(outer * nc, std::max<index>(1, kWork / std::max<index>(1, n * std::min(inner, W))), [&](index b, index e) {
      std::vector<T> m(static_cast<size_t>(W));
      std::vector<int32_t> id(static_cast<size_t>(W));
      for (index t = b; t < e; ++t) {
        const index o = t / nc, j0 = (t % nc) * W, w = std::min(W, inner - j0);
        const T* base = x + o * n * inner + j0;
        for (index j = 0; j < w; ++j) { m[j] = base[j]; id[j] = 0; }
        for (index r = 1; r < n; ++r) {
          const T* xr = base + r * inner;
          const int32_t ri = static_cast<int32_t>(r);
          T* mv = m.data();
          int32_t* iv = id.data();
          for (index j = 0; j < w; ++j) {
            const T v = xr[j];
            const bool bt = Op::better(v, mv[j]);
            mv[j] = bt ? v : mv[j];
            iv[j] = bt ? ri : iv[j];
          }
        }
        for (index j = 0; j < w; ++j) { values[o * inner + j0 + j] = m[j]; indices[o * inner + j0 + j] = id[j]; }
      }
    });
    return;
  }
  const index nb = (n + kRowBlock - 1) / kRowBlock;
  if (nb <= 1) {
    parallel_for(outer, std::max<index>(1, kWork / n), [&](index b, index e) {
      for (index o = b; o < e; ++o) {
        const auto r = arg_scan<Op>(x + o * n, n);
        values[o] = r.first;
        indices[o] = static_cast<int32_t>(r.second);
      }
    });
    return;
  }
  // Long rows: each block's first extremum, then the blocks in order (strictly better or the first NaN wins).
  std::vector<std::pair<T, index>> part(static_cast<size_t>(outer * nb));
  parallel_for(outer * nb, 1, [&](index b, index e) {
    for (index t = b; t < e; ++t) {
      const index o = t / nb, s = (t % nb) * kRowBlock;
      auto r = arg_scan<Op>(x + o * n + s, std::min(kRowBlock, n - s));
      part[t] = {r.first, r.second + s};
    }
  });
  for (index o = 0; o < outer; ++o) {
    auto best = part[o * nb];
    for (index k = 1; k < nb && best.first == best.first; ++k) {
      if (Op::better(part[o * nb + k].first, best.first)) best = part[o * nb + k];
    }
    values[o] = best.first;
    indices[o] = static_cast<int32_t>(best.second);
  }
}

}  // namespace

template <class T>
void reduce(ReduceKind op, index outer, index n, index inner, const T* x, void* out) {
  using SumOut = std::conditional_t<std::is_same_v<T, uint8_t>, int32_t, T>;
  switch (op) {
    case ReduceKind::sum: return run<Sum<T>, T, SumOut>(outer, n, inner, x, out);
    case ReduceKind::prod: return run<Prod<T>, T, SumOut>(outer, n, inner, x, out);
    case ReduceKind::any: return run<Any<T>, T, uint8_t>(outer, n, inner, x, out);
    case ReduceKind::all: return run<All<T>, T, uint8_t>(outer, n, inner, x, out);
    case ReduceKind::sum_squares:
    case ReduceKind::sum_magnitudes:
      if constexpr (std::is_integral_v<T>) {
        throw std::invalid_argument("sums of squares and magnitudes take floating-point data");
      } else {
        if (op == ReduceKind::sum_squares) return run<NormSum<T, reduce_rows_detail::kSquares>, T, double>(outer, n, inner, x, out);
        return run<NormSum<T, reduce_rows_detail::kMagnitudes>, T, double>(outer, n, inner, x, out);
      }
    case ReduceKind::max:
    case ReduceKind::min:
      if constexpr (is_complex_v<T>) {
        throw std::invalid_argument("max/min of complex values is not defined");
      } else {
        if (n == 0 && outer * inner > 0) throw std::invalid_argument("max/min of an empty dim");
        if (op == ReduceKind::max) return run<Max<T>, T, T>(outer, n, inner, x, out);
        return run<Min<T>, T, T>(outer, n, inner, x, out);
      }
  }
}

template <class T>
void arg_reduce(bool is_max, index outer, index n, index inner, const T* x, T* values, int32_t* indices) {
  if (is_max) arg_impl<Max<T>>(outer, n, inner, x, values, indices);
  else arg_impl<Min<T>>(outer, n, inner, x, values, indices);
}

#define LAPIS_REDUCE(T) template void reduce<T>(ReduceKind, index, index, index, const T*, void*);
LAPIS_REDUCE(float)
LAPIS_REDUCE(double)
LAPIS_REDUCE(std::complex<float>)
LAPIS_REDUCE(std::complex<double>)
LAPIS_REDUCE(int32_t)
LAPIS_REDUCE(uint32_t)
LAPIS_REDUCE(uint8_t)
#undef LAPIS_REDUCE

#define LAPIS_ARG_REDUCE(T) template void arg_reduce<T>(bool, index, index, index, const T*, T*, int32_t*);
LAPIS_ARG_REDUCE(float)
LAPIS_ARG_REDUCE(double)
LAPIS_ARG_REDUCE(int32_t)
LAPIS_ARG_REDUCE(uint32_t)
LAPIS_ARG_REDUCE(uint8_t)
#undef LAPIS_ARG_REDUCE

}  // namespace lapis
