// C++-only test of lapis::gemm against a naive triple loop (accumulated in double):
// float, double, complex<float>, complex<double>; odd sizes and sizes on the micro-tile and
// cache-block edges; transposed / conjugated / conjugate-transposed views; row-major,
// column-major, padded and fully strided (non-unit column stride) storage; beta = 0 with
// NaN in C (must not be read), beta = 1 and general alpha/beta; threaded and single-thread
// runs; elements of C outside the view must stay untouched. Batched products
// (lapis::gemm_batched): the small-product kernels on every size 1…16 (and past their
// bounds), every op pair and layout, broadcast index maps, empty batches, threaded splits.
// Run it once as is and once with LAPIS_KERNELS=portable (scripts/test-native.sh does).
// Exits non-zero on any failure.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/gemm_batched.hpp"
#include "lapis/parallel.hpp"
#include "test_util.hpp"
#include "../src/gemm/gemm_kernels.hpp"

using lapis::index;
using lapis::MatMut;
using lapis::MatRef;
using lapis_test::Info;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261129);


template <class T>
T rnd() {
  return lapis_test::uniform<T>(g_rng);
}

template <class T>
using Wide = std::conditional_t<lapis::is_complex_v<T>, std::complex<double>, double>;

template <class T>
Wide<T> widen(T x) {
  if constexpr (lapis::is_complex_v<T>) return Wide<T>(x.real(), x.imag());
  else return static_cast<double>(x);
}

template <class T>
bool is_nan(T x) {
  if constexpr (lapis::is_complex_v<T>) return std::isnan(x.real()) || std::isnan(x.imag());
  else return std::isnan(x);
}

template <class T>
T nan_value() {
  using R = lapis::real_t<T>;
  const R q = std::numeric_limits<R>::quiet_NaN();
  if constexpr (lapis::is_complex_v<T>) return T(q, q);
  else return q;
}

// Storage layouts a view can have.
enum class Layout { RowMajor, ColMajor, Padded, Strided };
const char* layout_name(Layout l) {
  switch (l) {
    case Layout::RowMajor: return "row";
    case Layout::ColMajor: return "col";
    case Layout::Padded: return "pad";
    default: return "strided";
  }
}

// A rows×cols matrix stored inside a larger buffer (sentinels around it).
template <class T>
struct Stored {
  std::vector<T> buf;
  index off = 0, rows = 0, cols = 0, rs = 0, cs = 0;
  Stored(index r, index c, Layout l) : rows(r), cols(c) {
    switch (l) {
      case Layout::RowMajor: rs = c; cs = 1; break;
      case Layout::ColMajor: rs = 1; cs = r; break;
      case Layout::Padded: rs = c + 3; cs = 1; break;
      case Layout::Strided: rs = 2 * c + 5; cs = 2; break;
    }
    off = 7;
    const index span = (r > 0 ? (r - 1) * rs : 0) + (c > 0 ? (c - 1) * cs : 0) + 1;
    buf.assign(static_cast<std::size_t>(off + span + 7), T(12345));
  }
  T* p() { return buf.data() + off; }
  T& at(index i, index j) { return p()[i * rs + j * cs]; }
};

// Which positions of buf belong to the view.
template <class T>
std::vector<char> mask_of(const Stored<T>& s) {
  std::vector<char> m(s.buf.size(), 0);
  for (index i = 0; i < s.rows; ++i)
    for (index j = 0; j < s.cols; ++j) m[static_cast<std::size_t>(s.off + i * s.rs + j * s.cs)] = 1;
  return m;
}

enum class Op { N, T, C, H };
const char* op_name(Op o) { return o == Op::N ? "N" : o == Op::T ? "T" : o == Op::C ? "C" : "H"; }

// Stores the operand so that the view op(stored) is rows×cols.
template <class T>
MatRef<T> view_of(Stored<T>& s, Op op) {
  MatRef<T> v{s.p(), s.rows, s.cols, s.rs, s.cs, false};
  switch (op) {
    case Op::N: return v;
    case Op::T: return v.t();
    case Op::C: v.conj = true; return v;
    default: return v.h();
  }
}

struct Case {
  index m, n, k;
  Op opa, opb;
  Layout la, lb, lc;
  int beta_kind;   // 0: beta = 0 (C holds NaN), 1: beta = 1, 2: general
  int alpha_kind;  // 0: alpha = 1, 1: general, 2: alpha = 0
  int threads;
};

template <class T>
void run_case(const Case& cs) {
  using W = Wide<T>;
  using R = lapis::real_t<T>;
  const index m = cs.m, n = cs.n, k = cs.k;
  const bool ta = cs.opa == Op::T || cs.opa == Op::H, tb = cs.opb == Op::T || cs.opb == Op::H;
  Stored<T> sa(ta ? k : m, ta ? m : k, cs.la), sb(tb ? n : k, tb ? k : n, cs.lb), sc(m, n, cs.lc);
  for (index i = 0; i < sa.rows; ++i)
    for (index j = 0; j < sa.cols; ++j) sa.at(i, j) = rnd<T>();
  for (index i = 0; i < sb.rows; ++i)
    for (index j = 0; j < sb.cols; ++j) sb.at(i, j) = rnd<T>();
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) sc.at(i, j) = cs.beta_kind == 0 ? nan_value<T>() : rnd<T>();
  const std::vector<T> c0 = sc.buf;
  const T alpha = cs.alpha_kind == 0 ? T(1) : cs.alpha_kind == 2 ? T(0) : rnd<T>() * T(2);
  const T beta = cs.beta_kind == 0 ? T(0) : cs.beta_kind == 1 ? T(1) : rnd<T>();
  MatRef<T> A = view_of(sa, cs.opa), B = view_of(sb, cs.opb);
  MatMut<T> C{sc.p(), m, n, sc.rs, sc.cs};
  lapis::gemm(alpha, A, B, beta, C, cs.threads);

  const R eps = std::numeric_limits<R>::epsilon();
  int bad = 0;
  // op(A) by rows and op(B) by columns, widened once with their magnitudes: the triple loop
  // reads contiguous memory and calls no hypot (the same sums in the same order as before).
  std::vector<W> aw(static_cast<std::size_t>(m * k)), bw(static_cast<std::size_t>(n * k));
  std::vector<double> am(aw.size()), bm(bw.size());
  for (index i = 0; i < m; ++i)
    for (index p = 0; p < k; ++p) {
      const std::size_t q = static_cast<std::size_t>(i * k + p);
      aw[q] = widen(A.at(i, p));
      am[q] = std::abs(aw[q]);
    }
  for (index j = 0; j < n; ++j)
    for (index p = 0; p < k; ++p) {
      const std::size_t q = static_cast<std::size_t>(j * k + p);
      bw[q] = widen(B.at(p, j));
      bm[q] = std::abs(bw[q]);
    }
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      W s{};
      double mag = 0;
      const W* xa = aw.data() + i * k;
      const W* yb = bw.data() + j * k;
      const double* xm = am.data() + i * k;
      const double* ym = bm.data() + j * k;
      for (index p = 0; p < k; ++p) {
        s += xa[p] * yb[p];
        mag += xm[p] * ym[p];
      }
      const W cold = widen(c0[static_cast<std::size_t>(sc.off + i * sc.rs + j * sc.cs)]);
      W ref = widen(alpha) * s;
      double bound = std::abs(widen(alpha)) * std::abs(mag);
      if (cs.beta_kind != 0) {
        ref += widen(beta) * cold;
        bound += std::abs(widen(beta)) * std::abs(cold);
      }
      bound = 8.0 * double(k + 4) * double(eps) * bound + 1e-300;
      const T got = C(i, j);
      const double err = std::abs(widen(got) - ref);
      ++g_checks;
      if (!(err <= bound) || is_nan(got)) {
        if (bad++ < 3)
          std::printf("FAIL %s m=%td n=%td k=%td op=%s%s layout=%s/%s/%s beta=%d alpha=%d thr=%d at (%td,%td): err %.3g > %.3g\n",
                      Info<T>::name, m, n, k, op_name(cs.opa), op_name(cs.opb), layout_name(cs.la),
                      layout_name(cs.lb), layout_name(cs.lc), cs.beta_kind, cs.alpha_kind, cs.threads, i, j, err,
                      bound);
      }
    }
  // Nothing outside C's view may change.
  const std::vector<char> mask = mask_of(sc);
  for (std::size_t q = 0; q < sc.buf.size(); ++q)
    if (!mask[q] && !(sc.buf[q] == c0[q])) {
      if (bad++ < 3) std::printf("FAIL %s m=%td n=%td k=%td: wrote outside C at buffer position %zu\n", Info<T>::name, m, n, k, q);
      break;
    }
  if (bad) ++g_failures;
}

// NaN/Inf in A must reach C (never finite garbage): with NaN at A(r, 0), row r of C is NaN.
template <class T>
void nan_propagation(index m, index n, index k) {
  std::vector<T> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), c(static_cast<std::size_t>(m * n));
  for (auto& x : a) x = rnd<T>();
  for (auto& x : b) x = rnd<T>() + T(2);  // no zeros: NaN·b stays NaN
  const index r = m / 2;
  a[static_cast<std::size_t>(r * k)] = nan_value<T>();
  lapis::gemm(T(1), lapis::row_major<T>(static_cast<const T*>(a.data()), m, k),
              lapis::row_major<T>(static_cast<const T*>(b.data()), k, n), T(0), lapis::row_major(c.data(), m, n));
  int bad = 0;
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      ++g_checks;
      const bool nan = is_nan(c[static_cast<std::size_t>(i * n + j)]);
      if (nan != (i == r)) ++bad;
    }
  if (bad) {
    std::printf("FAIL %s NaN propagation m=%td n=%td k=%td: %d wrong entries\n", Info<T>::name, m, n, k, bad);
    ++g_failures;
  }
}

// A batch of `count` products through gemm_batched, every matrix of an operand stored with
// the same layout `step` elements after the previous one (sentinels between them); with
// bcast_a / bcast_b the operand holds fewer matrices and an index map picks them.
struct BatchCase {
  index count, m, n, k;
  Op opa, opb;
  Layout la, lb, lc;
  int beta_kind, alpha_kind, threads;
  bool bcast_a, bcast_b;
};

template <class T>
void run_batched(const BatchCase& cs) {
  using W = Wide<T>;
  using R = lapis::real_t<T>;
  const index m = cs.m, n = cs.n, k = cs.k, count = cs.count;
  const bool ta = cs.opa == Op::T || cs.opa == Op::H, tb = cs.opb == Op::T || cs.opb == Op::H;
  Stored<T> pa(ta ? k : m, ta ? m : k, cs.la), pb(tb ? n : k, tb ? k : n, cs.lb), pc(m, n, cs.lc);
  const index sa = static_cast<index>(pa.buf.size()), sb = static_cast<index>(pb.buf.size()),
              sc = static_cast<index>(pc.buf.size());
  const index na = cs.bcast_a ? 1 + index(g_rng() % 3) : count, nb = cs.bcast_b ? 1 + index(g_rng() % 3) : count;
  std::vector<int32_t> ia(static_cast<std::size_t>(count)), ib(static_cast<std::size_t>(count));
  for (index b = 0; b < count; ++b) {
    ia[static_cast<std::size_t>(b)] = cs.bcast_a ? int32_t(g_rng() % na) : int32_t(b);
    ib[static_cast<std::size_t>(b)] = cs.bcast_b ? int32_t(g_rng() % nb) : int32_t(b);
  }
  std::vector<T> a(static_cast<std::size_t>(std::max<index>(na, 1) * sa), T(12345)),
      bbuf(static_cast<std::size_t>(std::max<index>(nb, 1) * sb), T(12345)),
      c(static_cast<std::size_t>(std::max<index>(count, 1) * sc), T(12345));
  const std::vector<char> ma = mask_of(pa), mb = mask_of(pb), mc = mask_of(pc);
  for (index i = 0; i < na * sa; ++i)
    if (ma[static_cast<std::size_t>(i % sa)]) a[static_cast<std::size_t>(i)] = rnd<T>();
  for (index i = 0; i < nb * sb; ++i)
    if (mb[static_cast<std::size_t>(i % sb)]) bbuf[static_cast<std::size_t>(i)] = rnd<T>();
  for (index i = 0; i < count * sc; ++i)
    if (mc[static_cast<std::size_t>(i % sc)]) c[static_cast<std::size_t>(i)] = cs.beta_kind == 0 ? nan_value<T>() : rnd<T>();
  const std::vector<T> c0 = c;
  const T alpha = cs.alpha_kind == 0 ? T(1) : cs.alpha_kind == 2 ? T(0) : rnd<T>() * T(2);
  const T beta = cs.beta_kind == 0 ? T(0) : cs.beta_kind == 1 ? T(1) : rnd<T>();
  // views of matrix 0 (Stored's offset and strides, in the batch buffers)
  auto view = [](const Stored<T>& st, T* base, Op op) {
    MatRef<T> v{base + st.off, st.rows, st.cols, st.rs, st.cs, false};
    switch (op) {
      case Op::N: return v;
      case Op::T: return v.t();
      case Op::C: v.conj = true; return v;
      default: return v.h();
    }
  };
  const MatRef<T> A0 = view(pa, a.data(), cs.opa), B0 = view(pb, bbuf.data(), cs.opb);
  const MatMut<T> C0{c.data() + pc.off, m, n, pc.rs, pc.cs};
  // identity maps are passed as null half the time (both forms must work)
  const bool null_a = !cs.bcast_a && (count % 2 == 0), null_b = !cs.bcast_b && (count % 2 == 1);
  lapis::gemm_batched<T>(count, alpha, A0, sa, null_a ? nullptr : ia.data(), B0, sb, null_b ? nullptr : ib.data(), beta,
                         C0, sc, cs.threads);

  const R eps = std::numeric_limits<R>::epsilon();
  int bad = 0;
  for (index b = 0; b < count && bad < 3; ++b) {
    const index xa = ia[static_cast<std::size_t>(b)] * sa, xb = ib[static_cast<std::size_t>(b)] * sb;
    const MatRef<T> A{A0.p + xa, A0.rows, A0.cols, A0.rs, A0.cs, A0.conj}, B{B0.p + xb, B0.rows, B0.cols, B0.rs, B0.cs, B0.conj};
    for (index i = 0; i < m; ++i)
      for (index j = 0; j < n; ++j) {
        W s{};
        double mag = 0;
        for (index p = 0; p < k; ++p) {
          const W x = widen(A.at(i, p)), y = widen(B.at(p, j));
          s += x * y;
          mag += std::abs(x) * std::abs(y);
        }
        const std::size_t q = static_cast<std::size_t>(b * sc + pc.off + i * pc.rs + j * pc.cs);
        W ref = widen(alpha) * s;
        double bound = std::abs(widen(alpha)) * mag;
        if (cs.beta_kind != 0) {
          ref += widen(beta) * widen(c0[q]);
          bound += std::abs(widen(beta)) * std::abs(widen(c0[q]));
        }
        bound = 8.0 * double(k + 4) * double(eps) * bound + 1e-300;
        const double err = std::abs(widen(c[q]) - ref);
        ++g_checks;
        if (!(err <= bound) || is_nan(c[q])) {
          if (bad++ < 3)
            std::printf("FAIL %s batched count=%td m=%td n=%td k=%td op=%s%s layout=%s/%s/%s beta=%d alpha=%d thr=%d "
                        "bcast=%d%d matrix %td at (%td,%td): err %.3g > %.3g\n",
                        Info<T>::name, count, m, n, k, op_name(cs.opa), op_name(cs.opb), layout_name(cs.la),
                        layout_name(cs.lb), layout_name(cs.lc), cs.beta_kind, cs.alpha_kind, cs.threads, cs.bcast_a,
                        cs.bcast_b, b, i, j, err, bound);
        }
      }
  }
  // Nothing outside the C views may change (nor anything in A or B).
  for (std::size_t q = 0; q < c.size() && bad == 0; ++q)
    if (!(count > 0 && mc[q % static_cast<std::size_t>(sc)]) && !(c[q] == c0[q])) {
      std::printf("FAIL %s batched count=%td m=%td n=%td k=%td: wrote outside C at position %zu\n", Info<T>::name, count,
                  m, n, k, q);
      ++bad;
    }
  if (bad) ++g_failures;
}

// Batched products: the small-product kernels on every size up to their bounds and just past them.
template <class T>
void run_batched_type(bool quick) {
  const Op ops[] = {Op::N, Op::T, Op::C, Op::H};
  const Layout lays[] = {Layout::RowMajor, Layout::ColMajor, Layout::Padded, Layout::Strided};
  std::uniform_int_distribution<int> pick4(0, 3), pick3(0, 2), pick2(0, 1);
  std::uniform_int_distribution<index> size(1, 16), count(0, 9);
  // Every m and n of 1…16 once (row-major, the binding's case), k from 1…16 and the k bound.
  for (index m = 1; m <= 16; ++m)
    for (index n = 1; n <= 16; ++n) {
      if (quick && (m * 7 + n * 3) % 4 != 0) continue;
      const index k = (m + n) % 5 == 0 ? 64 : size(g_rng);
      run_batched<T>({1 + count(g_rng), m, n, k, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor,
                      pick3(g_rng), pick2(g_rng), 1, false, false});
    }
  // Every op pair and layout; broadcast maps; beta and alpha kinds; k past the kernels' bound.
  const int reps = quick ? 48 : 160;
  for (int r = 0; r < reps; ++r) {
    const index k = r % 8 == 7 ? (r % 16 == 7 ? 65 : 64) : size(g_rng);
    const index m = r % 11 == 10 ? 17 : size(g_rng), n = r % 13 == 12 ? 17 : size(g_rng);
    run_batched<T>({count(g_rng), m, n, k, ops[pick4(g_rng)], ops[pick4(g_rng)], lays[pick4(g_rng)], lays[pick4(g_rng)],
                    lays[pick4(g_rng)], pick3(g_rng), r % 9 == 4 ? 2 : pick2(g_rng), r % 3 == 0 ? 0 : 1, pick2(g_rng) == 1,
                    pick2(g_rng) == 1});
  }
  // Empty batch, k = 0 (C ← beta·C), and batches large enough to split over the threads.
  run_batched<T>({0, 4, 5, 3, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor, 0, 0, 0, false, false});
  run_batched<T>({5, 4, 5, 0, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor, 0, 0, 0, false, false});
  run_batched<T>({5, 4, 5, 0, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor, 2, 1, 0, false, false});
  run_batched<T>({700, 8, 8, 8, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor, 0, 0, 0, false, false});
  run_batched<T>({300, 13, 11, 16, Op::N, Op::H, Layout::RowMajor, Layout::Padded, Layout::RowMajor, 2, 1, 0, true, false});
  if (!quick)  // larger products: one lapis::gemm each, threaded over the batch, then inside
    for (index s : {40, 200})
      run_batched<T>({s == 40 ? 60 : 3, s, s + 1, s - 1, Op::N, Op::T, Layout::RowMajor, Layout::RowMajor,
                      Layout::RowMajor, 2, 1, 0, false, true});
}

template <class T>
void run_type(bool quick) {
  const std::vector<index> small = {1, 2, 3, 5, 6, 7, 8, 9, 13, 16, 17};
  const Op ops[] = {Op::N, Op::T, Op::C, Op::H};
  const Layout lays[] = {Layout::RowMajor, Layout::ColMajor, Layout::Padded, Layout::Strided};
  std::uniform_int_distribution<int> pick4(0, 3), pick3(0, 2), pick2(0, 1);
  // Every op pair and layout of C on small odd sizes.
  for (Op oa : ops)
    for (Op ob : ops)
      for (Layout lc : lays) {
        const index m = small[g_rng() % small.size()], n = small[g_rng() % small.size()],
                    k = small[g_rng() % small.size()];
        run_case<T>({m, n, k, oa, ob, lays[pick4(g_rng)], lays[pick4(g_rng)], lc, pick3(g_rng), pick2(g_rng), 0});
      }
  // Sizes around micro-tile (3, 4, 6, 8, 16) and cache-block (96, 128, 192, 256, 384) edges,
  // through both the unpacked and the packed paths, threaded and not.
  std::vector<std::array<index, 3>> shapes = {
      {1, 1, 1},     {1, 40, 33},   {40, 1, 33},    {33, 40, 1},    {6, 8, 256},   {3, 4, 257},
      {12, 16, 31},  {18, 32, 64},  {25, 33, 47},   {47, 49, 50},   {64, 64, 64},  {65, 63, 66},
      {95, 97, 96},  {97, 129, 100}, {130, 120, 257}, {193, 65, 129}, {200, 200, 200}, {7, 300, 300},
      {300, 9, 300}, {300, 300, 7}, {300, 400, 300}, {385, 130, 260}, {250, 520, 513}};
  if (quick) shapes.resize(shapes.size() - 2);
  for (const auto& s : shapes)
    for (int rep = 0; rep < 3; ++rep) {
      Case c{s[0], s[1], s[2], ops[pick4(g_rng)], ops[pick4(g_rng)], lays[pick4(g_rng)], lays[pick4(g_rng)],
             lays[pick4(g_rng)], pick3(g_rng), rep == 2 ? 2 : pick2(g_rng), rep == 1 ? 1 : 0};
      if (rep == 0) {  // the common case: plain row-major product
        c.opa = c.opb = Op::N;
        c.la = c.lb = c.lc = Layout::RowMajor;
      }
      run_case<T>(c);
    }
  // k = 0: C ← beta·C (beta = 0 must overwrite NaN).
  run_case<T>({5, 7, 0, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor, 0, 0, 0});
  run_case<T>({5, 7, 0, Op::N, Op::N, Layout::RowMajor, Layout::RowMajor, Layout::RowMajor, 2, 1, 0});
  nan_propagation<T>(9, 11, 5);
  nan_propagation<T>(150, 140, 130);
  run_batched_type<T>(quick);
}

// The packed path under blockings far from the defaults (set_blocking, the sweeps' hook):
// odd kc, mc and nc of a few tiles, a narrow per-thread B block, the shared B block from
// two threads (packed_shared), the A-resident nest and the B-resident order (nb, mb) with
// blocks of one tile up to one block for all, so every loop runs many blocks with ragged
// edges; then the defaults again.
template <class T>
void run_blockings(char dt) {
  namespace gd = lapis::gemm_detail;
  const gd::Blocking saved = gd::blocking(dt);
  const gd::Blocking odd[] = {{1, 37, 1, 1, 0, 0, -1},      {50, 129, 100, 0, 0, 0, -1},     {200, 300, 5000, 7, 0, 0, -1},
                              {1, 37, 1, 1, 2, 0, -1},      {50, 129, 100, 0, 2, 0, -1},     {16, 64, 40, 0, 2, 0, -1},
                              {1, 37, 1, 1, 0, 1, 1},       {50, 129, 100, 0, 0, 30, 20},    {200, 300, 5000, 7, 0, 500, 5000},
                              {16, 64, 40, 0, 2, 30, 20}};
  for (const gd::Blocking& b : odd) {
    gd::set_blocking(dt, b);
    for (int threads : {1, 0})
      for (const auto& s : std::vector<std::array<index, 3>>{{130, 120, 257}, {300, 400, 300}, {97, 260, 75}, {700, 90, 33}})
        run_case<T>({s[0], s[1], s[2], Op::N, threads ? Op::T : Op::C, Layout::RowMajor, Layout::Padded,
                     Layout::RowMajor, 2, 1, threads});
  }
  gd::set_blocking(dt, saved);
  const gd::Blocking back = gd::blocking(dt);
  ++g_checks;
  if (back.mc != saved.mc || back.kc != saved.kc || back.nc != saved.nc || back.nc_thread != saved.nc_thread ||
      back.shared_from != saved.shared_from || back.nb != saved.nb || back.mb != saved.mb) {
    ++g_failures;
    std::printf("FAIL blocking of %c not restored\n", dt);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  std::printf("test_gemm: kernels=%s threads=%d%s\n", lapis::gemm_kernel_name(), lapis::num_threads(),
              quick ? " (quick)" : "");
  run_type<float>(quick);
  run_type<double>(quick);
  run_type<std::complex<float>>(quick);
  run_type<std::complex<double>>(quick);
  run_blockings<float>('s');
  run_blockings<double>('d');
  run_blockings<std::complex<float>>('c');
  run_blockings<std::complex<double>>('z');
  std::printf("test_gemm: %ld checks, %d failing cases\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
