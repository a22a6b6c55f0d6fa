// Reductions over (outer, n, inner). Two kernels: contiguous rows (inner == 1), reduced in
// SIMD-width lanes, and columns (inner > 1), where each reduced row adds a contiguous run
// of up to kColWidth columns into accumulators. Floating sums are pairwise (numpy's scheme:
// 8-or-16-lane leaves of kLeaf elements, halves split at lane multiples), so float32 sums
// stay in float32 with O(log n) error growth. Long rows are cut into blocks of kRowBlock
// elements and long columns into kRowsPerTask rows whose partials combine pairwise: the
// cuts depend on the shape only, so the result is the same for every thread count.
#include <algorithm>
#include <complex>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "lapis/parallel.hpp"
#include "lapis/reduce.hpp"

namespace lapis {
namespace {

constexpr index kRowBlock = index(1) << 15;  // contiguous elements per partial of a long row
constexpr index kColWidth = 256;             // columns per task when inner > 1 (accumulators stay in L1)
constexpr index kRowsPerTask = 4096;         // reduced rows per partial when inner > 1
constexpr index kLeaf = 128;                 // pairwise leaf size (numpy's PW_BLOCKSIZE)
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
// b wins if larger or NaN; a NaN accumulator never loses (every comparison with it is false).
template <class T> struct Max {
  using A = T;
  static constexpr bool pairwise = false;
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

// Lanes of the pairwise sum: 16 floats or 8 doubles (two 256-bit or four 128-bit vectors).
template <class S> constexpr int kLanes = sizeof(S) == 4 ? 16 : 8;

// r[l] = sum of x[i] over i ≡ l (mod L), i < m, pairwise: halves split at multiples of L.
template <class S>
void pairwise_lanes(const S* x, index m, S* r) {
  constexpr int L = kLanes<S>;
  if (m <= kLeaf) {
    S a[L];
    for (int l = 0; l < L; ++l) a[l] = S(0);
    index i = 0;
    for (; i + L <= m; i += L) {
      for (int l = 0; l < L; ++l) a[l] += x[i + l];
    }
    for (int l = 0; i + l < m; ++l) a[l] += x[i + l];
    for (int l = 0; l < L; ++l) r[l] = a[l];
    return;
  }
  const index h = (m / 2) / L * L;
  S b[L];
  pairwise_lanes(x, h, r);
  pairwise_lanes(x + h, m - h, b);
  for (int l = 0; l < L; ++l) r[l] += b[l];
}

// Pairwise combination of count values p[0], p[stride], …
template <class A, class Comb>
A tree(const A* p, index count, index stride, Comb comb) {
  if (count == 1) return p[0];
  const index h = count / 2;
  return comb(tree(p, h, stride, comb), tree(p + h * stride, count - h, stride, comb));
}

// Op over x[0, m) (contiguous); m may be 0 (identity).
template <class Op, class T>
typename Op::A block_reduce(const T* x, index m) {
  using A = typename Op::A;
  if constexpr (Op::pairwise) {
    using S = real_t<T>;
    constexpr int L = kLanes<S>;
    S r[L];
    auto add = [](S a, S b) { return a + b; };
    if constexpr (is_complex_v<T>) {
      // Interleaved (re, im): even lanes hold real parts, odd lanes imaginary ones.
      pairwise_lanes(reinterpret_cast<const S*>(x), 2 * m, r);
      return T(tree(r, L / 2, 2, add), tree(r + 1, L / 2, 2, add));
    } else {
      pairwise_lanes(x, m, r);
      return tree(r, L, 1, add);
    }
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

// acc[0, w) = op over `rows` rows (stride ld) of columns [0, w); pairwise halves for sums.
template <class Op, class T>
void column_block(const T* x, index rows, index ld, index w, typename Op::A* acc) {
  using A = typename Op::A;
  if constexpr (Op::pairwise) {
    if (rows > 16) {
      const index h = rows / 2;
      column_block<Op>(x, h, ld, w, acc);
      A tmp[kColWidth];
      column_block<Op>(x + h * ld, rows - h, ld, w, tmp);
      for (index j = 0; j < w; ++j) acc[j] = Op::comb(acc[j], tmp[j]);
      return;
    }
  }
  for (index j = 0; j < w; ++j) acc[j] = Op::id();
  for (index r = 0; r < rows; ++r) {
    const T* xr = x + r * ld;
    for (index j = 0; j < w; ++j) acc[j] = Op::comb(acc[j], Op::load(xr[j]));
  }
}

// inner > 1: tasks of (outer index, column chunk, row block).
template <class Op, class T, class O>
void reduce_columns(index outer, index n, index inner, const T* x, O* out) {
  using A = typename Op::A;
  const index nc = (inner + kColWidth - 1) / kColWidth;
  const index nr = std::max<index>(1, (n + kRowsPerTask - 1) / kRowsPerTask);
  const index per_task = std::max<index>(1, std::min(n, kRowsPerTask) * std::min(inner, kColWidth));
  std::vector<A> part(nr > 1 ? static_cast<size_t>(outer * nr * inner) : 0);
  parallel_for(outer * nc * nr, std::max<index>(1, kWork / per_task), [&](index b, index e) {
    A acc[kColWidth];
    for (index t = b; t < e; ++t) {
      const index r = t % nr, c = (t / nr) % nc, o = t / (nr * nc);
      const index j0 = c * kColWidth, w = std::min(kColWidth, inner - j0);
      const index r0 = r * kRowsPerTask, rows = std::min(kRowsPerTask, n - r0);
      column_block<Op>(x + (o * n + r0) * inner + j0, rows, inner, w, acc);
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

template <class Op, class T>
void arg_impl(index outer, index n, index inner, const T* x, T* values, int32_t* indices) {
  if (outer == 0 || inner == 0 || n == 0) return;
  if (inner > 1) {
    const index nc = (inner + kColWidth - 1) / kColWidth;
    parallel_for(outer * nc, std::max<index>(1, kWork / std::max<index>(1, n * std::min(inner, kColWidth))),
                 [&](index b, index e) {
      T m[kColWidth];
      int32_t id[kColWidth];
      for (index t = b; t < e; ++t) {
        const index o = t / nc, j0 = (t % nc) * kColWidth, w = std::min(kColWidth, inner - j0);
        const T* base = x + o * n * inner + j0;
        for (index j = 0; j < w; ++j) { m[j] = base[j]; id[j] = 0; }
        for (index r = 1; r < n; ++r) {
          const T* xr = base + r * inner;
          for (index j = 0; j < w; ++j) {
            if (Op::better(xr[j], m[j])) { m[j] = xr[j]; id[j] = static_cast<int32_t>(r); }
          }
        }
        for (index j = 0; j < w; ++j) { values[o * inner + j0 + j] = m[j]; indices[o * inner + j0 + j] = id[j]; }
      }
    });
    return;
  }
  // Contiguous rows: the extremum by the vectorised reduction, then the first index holding it.
  const index nb = (n + kRowBlock - 1) / kRowBlock;
  if (nb <= 1) {
    parallel_for(outer, std::max<index>(1, kWork / n), [&](index b, index e) {
      for (index o = b; o < e; ++o) {
        const T* row = x + o * n;
        const index i = first_hit(row, n, block_reduce<Op>(row, n));
        values[o] = row[i];
        indices[o] = static_cast<int32_t>(i);
      }
    });
    return;
  }
  std::vector<T> part(static_cast<size_t>(outer * nb)), best(static_cast<size_t>(outer));
  std::vector<index> hit(static_cast<size_t>(outer * nb));
  parallel_for(outer * nb, 1, [&](index b, index e) {
    for (index t = b; t < e; ++t) {
      const index o = t / nb, s = (t % nb) * kRowBlock;
      part[t] = block_reduce<Op>(x + o * n + s, std::min(kRowBlock, n - s));
    }
  });
  for (index o = 0; o < outer; ++o) best[o] = tree(part.data() + o * nb, nb, 1, Op::comb);
  parallel_for(outer * nb, 1, [&](index b, index e) {
    for (index t = b; t < e; ++t) {
      const index o = t / nb, s = (t % nb) * kRowBlock;
      const index i = first_hit(x + o * n + s, std::min(kRowBlock, n - s), best[o]);
      hit[t] = i < 0 ? -1 : s + i;
    }
  });
  for (index o = 0; o < outer; ++o) {
    index i = 0;
    for (index k = 0; k < nb; ++k) {
      if (hit[o * nb + k] >= 0) { i = hit[o * nb + k]; break; }
    }
    values[o] = x[o * n + i];
    indices[o] = static_cast<int32_t>(i);
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
