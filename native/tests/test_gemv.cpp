// C++-only test of the GEMM's matrix-vector path (native/src/gemm/gemv.hpp) against a
// naive loop in double: float, double, complex<float>, complex<double>; C a column (n = 1)
// or a row (m = 1); lengths 1, 3, 7, 17, 1000 on both sides, and 4500 × 9; the matrix row-major,
// column-major, padded, or with no unit stride; conjugated matrix and vector; strided x and
// y; alpha/beta = (1, 0) with NaN in C (must not be read), (1, 1), general, and alpha = 0;
// one thread and the pool; nothing written outside C's view; views 0-7 elements into their
// storage; and A, x, y at every packet alignment giving bit-identical results (offsets).
// Other shapes must return false.
// Run it once as is and once with LAPIS_KERNELS=portable (scripts/test-native.sh does).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../src/gemm/gemv.hpp"
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"
#include "test_util.hpp"

using lapis::index;
using lapis::MatMut;
using lapis::MatRef;
using lapis_test::Info;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261202);

template <class T> using Wd = std::conditional_t<lapis::is_complex_v<T>, std::complex<double>, double>;
template <class T> Wd<T> wd(T x) {
  if constexpr (lapis::is_complex_v<T>) return Wd<T>(x.real(), x.imag());
  else return static_cast<double>(x);
}
template <class T> T nan_of() {
  using R = lapis::real_t<T>;
  const R q = std::numeric_limits<R>::quiet_NaN();
  if constexpr (lapis::is_complex_v<T>) return T(q, q);
  else return q;
}
template <class T> bool same_bits(T a, T b) {
  if constexpr (lapis::is_complex_v<T>) return same_bits(a.real(), b.real()) && same_bits(a.imag(), b.imag());
  else return (std::isnan(a) && std::isnan(b)) || a == b;
}
template <class W> double mag(W x) { return std::abs(x); }
// the textbook complex product (std::complex's operator* is a libcall with Inf/NaN recovery)
template <class W> W mulw(W a, W b) {
  if constexpr (lapis::is_complex_v<W>)
    return W(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else return a * b;
}

void check(bool ok, const std::string& what) {
  ++g_checks;
  if (!ok && ++g_failures <= 20) std::printf("FAIL %s\n", what.c_str());
}

// A strided matrix view over its own storage: layout 0 row-major, 1 column-major,
// 2 padded rows, 3 no unit stride (rs = 2·cols + 1, cs = 2). Unused slots hold NaN. The
// view starts 0-7 elements into the storage, so it meets many packet alignments (the
// kernels start their packets at a boundary of M; JS arrays are only 16-byte aligned).
template <class T> struct Store {
  std::vector<T> v;
  index rows, cols, rs, cs, off = static_cast<index>(g_rng() % 8);
  Store(index r, index c, int layout) : rows(r), cols(c) {
    switch (layout) {
      case 0: rs = c, cs = 1; break;
      case 1: rs = 1, cs = r; break;
      case 2: rs = c + 5, cs = 1; break;
      default: rs = 2 * c + 1, cs = 2; break;
    }
    v.assign(static_cast<size_t>(off + (r - 1) * rs + (c - 1) * cs + 1), nan_of<T>());
    for (index i = 0; i < r; ++i)
      for (index j = 0; j < c; ++j) at(i, j) = lapis_test::uniform<T>(g_rng);
  }
  T& at(index i, index j) { return v[off + i * rs + j * cs]; }
  MatRef<T> ref(bool cj) const { return {v.data() + off, rows, cols, rs, cs, cj}; }
  MatMut<T> mut() { return {v.data() + off, rows, cols, rs, cs}; }
};

template <class T>
void one(bool column, index len, index k, int layout, bool cjm, bool cjx, int v) {
  using W = Wd<T>;
  constexpr bool cx = lapis::is_complex_v<T>;
  const int ab = v % 4;
  const index xs = v & 1 ? 3 : 1, ys = v & 2 ? 2 : 1;
  const int threads = v & 1 ? 1 : 0;
  T alpha = T(1), beta = T(0);
  if (ab == 1) beta = T(1);
  if (ab == 2) {
    if constexpr (cx) alpha = T(0.7, -0.2), beta = T(-0.5, 0.3);
    else alpha = T(0.7), beta = T(-0.5);
  }
  if (ab == 3) alpha = T(0), beta = T(0.5);
  const std::string what = std::string(Info<T>::name) + (column ? " A·x" : " xᵀ·B") + " len=" +
                           std::to_string(len) + " k=" + std::to_string(k) + " layout=" + std::to_string(layout) +
                           (cjm ? " conjM" : "") + (cjx ? " conjx" : "") + " v=" + std::to_string(v);
  // the matrix: A (len×k) for a column, B (k×len) for a row
  Store<T> M(column ? len : k, column ? k : len, layout);
  // the vector: B (k×1, row stride xs) or A (1×k, column stride xs)
  Store<T> X(column ? k : 1, column ? 1 : k, 0);
  if (xs != 1) {
    Store<T> Xs(column ? k : 1, column ? 1 : k, 0);
    Xs.rs = column ? xs : 1, Xs.cs = column ? 1 : xs;
    Xs.v.assign(static_cast<size_t>(Xs.off + (k - 1) * xs + 1), nan_of<T>());
    for (index p = 0; p < k; ++p) Xs.v[Xs.off + p * xs] = X.v[X.off + p];
    X = Xs;
  }
  // C: len×1 (row stride ys) or 1×len (column stride ys), with a NaN-filled gap and tail
  std::vector<T> c(static_cast<size_t>(len * ys + 3), nan_of<T>());
  for (index i = 0; i < len; ++i) c[i * ys] = ab == 0 ? nan_of<T>() : lapis_test::uniform<T>(g_rng);
  const std::vector<T> c0 = c;
  MatMut<T> C = column ? MatMut<T>{c.data(), len, 1, ys, 1} : MatMut<T>{c.data(), 1, len, 1, ys};
  const MatRef<T> Mv = M.ref(cjm), Xv = X.ref(cjx);
  const bool ok = column ? lapis::gemm_detail::gemv<T>(alpha, Mv, Xv, beta, C, threads)
                         : lapis::gemm_detail::gemv<T>(alpha, Xv, Mv, beta, C, threads);
  check(ok, what + ": returned false");
  auto conjw = [](W x, bool cj) {
    if constexpr (cx) return cj ? std::conj(x) : x;
    else { (void)cj; return x; }
  };
  double worst = 0;
  for (index i = 0; i < len; ++i) {
    W s = 0;
    double m = 0;
    for (index p = 0; p < k; ++p) {
      const W a = conjw(wd(column ? M.at(i, p) : M.at(p, i)), cjm);
      const W x = conjw(wd(Xv(column ? p : 0, column ? 0 : p)), cjx);
      s += mulw(a, x);
      m += mag(a) * mag(x);
    }
    const W cin = wd(c0[i * ys]);
    const W ref = wd(alpha) * s + (ab == 0 ? W(0) : wd(beta) * cin);
    const double bound =
        4.0 * (k + 2) * double(lapis::eps<T>()) * (mag(wd(alpha)) * m + (ab == 0 ? 0.0 : mag(wd(beta)) * mag(cin)));
    const double err = mag(wd(c[i * ys]) - ref);
    if (!(err <= bound)) worst = std::isnan(err) ? INFINITY : std::max(worst, bound > 0 ? err / bound : INFINITY);
  }
  check(worst == 0, what + ": error " + std::to_string(worst) + "× the bound");
  bool untouched = true;
  for (size_t t = 0; t < c.size(); ++t)
    if (t % static_cast<size_t>(ys) != 0 || t >= static_cast<size_t>(len * ys))
      if (!same_bits(c[t], c0[t])) untouched = false;
  check(untouched, what + ": wrote outside C");
}

// The same product with A, x and y starting 0-7 elements past a 64-byte boundary (every
// packet alignment), each alone and together: the results must be BIT-identical to those
// at the boundary, whatever the kernels' packet loops do with the address. layout: 0
// row-major, 1 column-major, 2 padded rows (rows at different alignments).
template <class T>
void offsets(bool column, index len, index k, int layout, bool cjm, bool cjx, int threads) {
  const index mr = column ? len : k, mc = column ? k : len;
  const index rs = layout == 0 ? mc : layout == 1 ? 1 : mc + 5, cs = layout == 1 ? mr : 1;
  const index span = (mr - 1) * rs + (mc - 1) * cs + 1;
  std::vector<T> mv(static_cast<size_t>(mr * mc)), xv(static_cast<size_t>(k)), yv(static_cast<size_t>(len));
  for (auto& e : mv) e = lapis_test::uniform<T>(g_rng);
  for (auto& e : xv) e = lapis_test::uniform<T>(g_rng);
  for (auto& e : yv) e = lapis_test::uniform<T>(g_rng);
  T alpha, beta;
  if constexpr (lapis::is_complex_v<T>) alpha = T(0.7, -0.2), beta = T(-0.5, 0.3);
  else alpha = T(0.7), beta = T(-0.5);
  constexpr index pad = 64 / sizeof(T) + 8;
  // storage whose element `pad - 8` (or so) starts a 64-byte line, the view `o` elements on
  auto at_line = [](std::vector<T>& st, index o) {
    T* p = st.data();
    while (reinterpret_cast<std::uintptr_t>(p) % 64 != 0) ++p;
    return p + o;
  };
  auto run = [&](index om, index ox, index oy) {
    std::vector<T> sm(static_cast<size_t>(span + pad), nan_of<T>()), sx(static_cast<size_t>(k + pad)),
        sy(static_cast<size_t>(len + pad));
    T *m = at_line(sm, om), *x = at_line(sx, ox), *y = at_line(sy, oy);
    for (index i = 0; i < mr; ++i)
      for (index j = 0; j < mc; ++j) m[i * rs + j * cs] = mv[static_cast<size_t>(i * mc + j)];
    std::copy(xv.begin(), xv.end(), x);
    std::copy(yv.begin(), yv.end(), y);
    const MatRef<T> M{m, mr, mc, rs, cs, cjm};
    const MatRef<T> X = column ? MatRef<T>{x, k, 1, 1, 1, cjx} : MatRef<T>{x, 1, k, k, 1, cjx};
    const MatMut<T> C = column ? MatMut<T>{y, len, 1, 1, 1} : MatMut<T>{y, 1, len, len, 1};
    if (column) lapis::gemm_detail::gemv<T>(alpha, M, X, beta, C, threads);
    else lapis::gemm_detail::gemv<T>(alpha, X, M, beta, C, threads);
    return std::vector<T>(y, y + len);
  };
  const std::vector<T> ref = run(0, 0, 0);
  const std::string what = std::string(Info<T>::name) + (column ? " A·x" : " xᵀ·B") + " len=" + std::to_string(len) +
                           " k=" + std::to_string(k) + " layout=" + std::to_string(layout) + (cjm ? " conjM" : "") +
                           (cjx ? " conjx" : "") + " threads=" + std::to_string(threads) + " offsets ";
  auto same = [&](index om, index ox, index oy) {
    const std::vector<T> got = run(om, ox, oy);
    bool ok = true;
    for (index i = 0; i < len; ++i) ok = ok && same_bits(got[i], ref[i]);
    check(ok, what + std::to_string(om) + "/" + std::to_string(ox) + "/" + std::to_string(oy) +
                  ": not bit-identical to 0/0/0");
  };
  for (index o = 1; o < 8; ++o) {
    same(o, 0, 0);
    same(0, o, 0);
    same(0, 0, o);
    same(o, (3 * o) % 8, (5 * o) % 8);
  }
}

template <class T> void run_type(bool quick) {
  constexpr bool cx = lapis::is_complex_v<T>;
  const index lens[] = {1, 3, 7, 17, 1000};
  for (bool column : {true, false})
    for (index len : lens)
      for (index k : lens) {
        if (quick && len == 1000 && k == 1000) continue;
        for (int layout = 0; layout < 4; ++layout)
          for (int cj = 0; cj < (cx ? 4 : 1); ++cj) {
            // the 1000×1000 reference is the run time: its padded and strided layouts and
            // single conjugations are covered at the smaller sizes
            if (len == 1000 && k == 1000 && (layout >= 2 || cj == 1 || cj == 2)) continue;
            for (int v = 0; v < 4; ++v) one<T>(column, len, k, layout, cj & 1, cj & 2, v);
          }
      }
  // more rows than the column kernels' row blocks (1024 complex, 4096 real), few columns
  for (bool column : {true, false})
    for (int layout = 0; layout < 2; ++layout)
      for (int cj = 0; cj < (cx ? 4 : 1); ++cj)
        for (int v = 0; v < 4; ++v) one<T>(column, 4500, 9, layout, cj & 1, cj & 2, v);
  // bit-identical results at every alignment of A, x and y
  const index shapes[][2] = {{1, 1}, {3, 5}, {17, 33}, {33, 17}, {64, 64}, {100, 37}, {37, 100}, {130, 1000}, {1000, 130}};
  for (bool column : {true, false})
    for (const auto& sh : shapes)
      for (int layout = 0; layout < 3; ++layout)
        for (int cj = 0; cj < (cx ? 4 : 1); cj += 3)
          for (int threads : {1, 0}) offsets<T>(column, sh[0], sh[1], layout, cj & 1, cj & 2, threads);
  // other shapes are left to the GEMM
  std::vector<T> a(12, T(1)), b(12, T(1)), c(12, T(0));
  const bool taken = lapis::gemm_detail::gemv<T>(T(1), MatRef<T>{a.data(), 2, 3, 3, 1}, MatRef<T>{b.data(), 3, 2, 2, 1},
                                                 T(0), MatMut<T>{c.data(), 2, 2, 2, 1}, 1);
  check(!taken && c[0] == T(0), std::string(Info<T>::name) + ": 2×2 output taken by gemv");
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  std::printf("test_gemv: kernels=%s threads=%d%s\n", lapis::gemm_kernel_name(), lapis::num_threads(),
              quick ? " (quick)" : "");
  run_type<float>(quick);
  run_type<double>(quick);
  run_type<std::complex<float>>(quick);
  run_type<std::complex<double>>(quick);
  std::printf("test_gemv: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
