// C++-only test of lapis::trsm at sizes where the blocked solve and its thread split run
// (test_blocking.cpp covers small n with shrunken blocks): every side, stored triangle,
// unit diagonal, op(A) ∈ {A, Aᵀ, Aᴴ}; B row-major, padded, column-major and with a
// non-unit column stride; 1, 2 and 3 threads (uneven column strips); n across the leaf
// kernel's limit (128). NaN fills what must not be read (the other triangle, the diagonal
// when unit) and B's padding must stay untouched. Residual ‖op(A)·X − αB‖ in long double.
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lapis/parallel.hpp"
#include "lapis/trsm.hpp"
#include "test_util.hpp"

using lapis::index;
using lapis::MatMut;
using lapis::MatRef;
using lapis_test::Info;
using lapis_test::wide;
using lapis_test::Wide;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261202);

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

void check(bool ok, const std::string& what) {
  ++g_checks;
  if (!ok) {
    if (++g_failures <= 20) std::printf("FAIL %s\n", what.c_str());
  }
}

// Plain complex product and |re| + |im| (std::complex<long double>'s operator* is a
// libcall with Inf/NaN recovery, which made the reference the test's whole run time).
template <class W> W mul(W a, W b) {
  if constexpr (lapis::is_complex_v<W>)
    return W(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  else return a * b;
}
template <class W> long double abs1(W a) {
  if constexpr (lapis::is_complex_v<W>) return std::fabs(a.real()) + std::fabs(a.imag());
  else return std::fabs(a);
}

// layout of B: 0 row-major, 1 padded rows, 2 column-major, 3 column stride 2
template <class T>
void one(index n, index k, bool left, bool stored_upper, bool unit, int op, int layout, int threads) {
  using V = Wide<T>;
  const std::string what = std::string(Info<T>::name) + " n=" + std::to_string(n) + " k=" + std::to_string(k) +
                           (left ? " left" : " right") + (stored_upper ? " upper" : " lower") +
                           (unit ? " unit" : "") + " op=" + std::to_string(op) + " layout=" +
                           std::to_string(layout) + " threads=" + std::to_string(threads);
  std::vector<T> s(static_cast<size_t>(n * n), nan_of<T>());
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) {
      if (stored_upper ? j < i : j > i) continue;
      if (i == j && unit) continue;
      // diagonal near 2, off-diagonal small enough that the solve stays well conditioned
      s[i * n + j] = i == j ? T(2) + T(0.5) * lapis_test::uniform<T>(g_rng)
                            : T(2.0 / std::sqrt(double(n))) * lapis_test::uniform<T>(g_rng);
    }
  auto opA = [&](index i, index j) -> V {  // op(A)(i, j), the unit diagonal included
    const index r = op == 0 ? i : j, c = op == 0 ? j : i;
    if (r == c && unit) return V(1);
    if (stored_upper ? c < r : c > r) return V(0);
    V x = wide(s[r * n + c]);
    if (op == 2) x = lapis_test::wconj(x);
    return x;
  };
  MatRef<T> A{s.data(), n, n, n, 1, false};
  if (op == 1) A = A.t();
  if (op == 2) A = A.h();
  const bool upper = stored_upper != (op != 0);
  const index bm = left ? n : k, bn = left ? k : n;
  index rs, cs, len;
  switch (layout) {
    case 0: rs = bn, cs = 1, len = bm * bn; break;
    case 1: rs = bn + 3, cs = 1, len = bm * rs; break;
    case 2: rs = 1, cs = bm, len = bm * bn; break;
    default: rs = 2 * bn + 1, cs = 2, len = bm * rs; break;
  }
  std::vector<T> b(static_cast<size_t>(len), nan_of<T>());
  for (index i = 0; i < bm; ++i)
    for (index j = 0; j < bn; ++j) b[i * rs + j * cs] = lapis_test::uniform<T>(g_rng);
  const std::vector<T> b0 = b;
  const T alpha = op == 2 ? T(0.5) : T(1);
  lapis::trsm<T>(left ? lapis::Side::Left : lapis::Side::Right, upper, unit, alpha, A,
                 MatMut<T>{b.data(), bm, bn, rs, cs}, threads);
  // untouched padding
  std::vector<char> inside(static_cast<size_t>(len), 0);
  for (index i = 0; i < bm; ++i)
    for (index j = 0; j < bn; ++j) inside[i * rs + j * cs] = 1;
  bool pad_ok = true;
  for (index t = 0; t < len; ++t)
    if (!inside[t] && !same_bits(b[t], b0[t])) pad_ok = false;
  check(pad_ok, what + ": wrote outside B");
  // residual, relative to (|op(A)|·|X| + |αB|) per element, on every 7th independent
  // system (a column of X on the left, a row on the right) and the last one
  double worst = 0;
  const index sys = left ? bn : bm;
  for (index i = 0; i < bm; ++i)
    for (index j = 0; j < bn; ++j) {
      const index q = left ? j : i;
      if (q % 7 != 0 && q != sys - 1) continue;
      V acc = 0;
      long double mag = 0;
      const index kk = n;
      for (index p = 0; p < kk; ++p) {
        const V a = left ? opA(i, p) : opA(p, j);
        const V x = left ? wide(b[p * rs + j * cs]) : wide(b[i * rs + p * cs]);
        acc += mul(a, x);
        mag += abs1(a) * abs1(x);
      }
      const V rhs = wide(alpha) * wide(b0[i * rs + j * cs]);
      const long double err = abs1(acc - rhs), den = mag + abs1(rhs);
      const double r = double(err / (den * lapis::eps<T>() * n));
      if (!(r <= worst)) worst = std::isnan(r) ? INFINITY : std::max(worst, r);
    }
  check(worst < 4.0, what + ": residual ratio " + std::to_string(worst));
}

template <class T> void run_type(bool quick) {
  // (n, k): a leaf-sized system, the leaf limit + 1, and two whose work is above the
  // thread threshold (column strips of 16/24/24 on 3 threads; 32/32/36 for complex)
  const index sizes[][2] = {{100, 8}, {129, 31}, {300, 64}, {160, 100}};
  for (const auto& nk : sizes) {
    // --quick (qemu, where the long double residual is emulated): the leaf limit + 1 only,
    // on 1 and 2 threads in the first layout
    if (quick && nk[0] != 129) continue;
    for (bool left : {true, false})
      for (bool up : {false, true})
        for (bool unit : {false, true})
          for (int op = 0; op < 3; ++op) {
            if (op == 2 && !lapis::is_complex_v<T> && unit) continue;  // op 2 is op 1 for real T
            for (int threads : {1, 2, 3})
              if (!quick || threads < 3) one<T>(nk[0], nk[1], left, up, unit, op, 0, threads);
            if (!quick)
              for (int layout = 1; layout < 4; ++layout) one<T>(nk[0], nk[1], left, up, unit, op, layout, 2);
          }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  // three workers even on a 2-core host, so the three-strip split runs
  if (lapis::num_threads() < 3) lapis::set_num_threads(3);
  std::printf("test_trsm: threads=%d%s\n", lapis::num_threads(), quick ? " (quick)" : "");
  run_type<float>(quick);
  run_type<double>(quick);
  run_type<std::complex<float>>(quick);
  run_type<std::complex<double>>(quick);
  std::printf("test_trsm: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
