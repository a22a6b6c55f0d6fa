// C++-only test of lapis/blas1.hpp and of parallel_for's schedules.
// BLAS-1: every routine against a plain loop in long double / complex<long double>, real
// and complex, unit and non-unit increments, lengths around the unrolled blocks; nrm2 on
// entries near overflow, near underflow, subnormal, with Inf and with NaN (it must scale,
// not overflow or flush to zero). parallel_for: every index covered exactly once under
// both schedules, Schedule::Pieces hands fn exactly one piece per call (also when the
// loop runs serially: one thread, or nested), exceptions reach the caller.
// Exits non-zero on any failure.
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <mutex>
#include <random>
#include <stdexcept>
#include <vector>

#include "lapis/blas1.hpp"
#include "lapis/parallel.hpp"
#include "test_util.hpp"

using lapis::index;
using lapis_test::wconj;
using lapis_test::wide;
using lapis_test::Wide;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261201);

void check(bool ok, const char* what, index n, long double err) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s n=%td err=%Lg\n", what, n, err);
  }
}

template <class T>
T rnd() {
  return lapis_test::uniform<T>(g_rng);
}

template <class T>
void test_routines(index n, index incx, index incy) {
  using R = lapis::real_t<T>;
  const long double u = std::numeric_limits<R>::epsilon();
  std::vector<T> x(static_cast<size_t>(n * incx + 1)), y(static_cast<size_t>(n * incy + 1));
  for (auto& v : x) v = rnd<T>();
  for (auto& v : y) v = rnd<T>();
  // dotc / dotu: |error| ≤ c·n·u·Σ|x_i||y_i|
  Wide<T> rc{}, ru{};
  long double mag = 0;
  for (index i = 0; i < n; ++i) {
    rc += wconj(wide(x[i * incx])) * wide(y[i * incy]);
    ru += wide(x[i * incx]) * wide(y[i * incy]);
    mag += std::abs(wide(x[i * incx])) * std::abs(wide(y[i * incy]));
  }
  const long double tol = 4 * (n + 2) * u * (mag + 1e-30L);
  const long double ec = std::abs(wide(lapis::blas1::dotc(n, x.data(), incx, y.data(), incy)) - rc);
  check(ec <= tol, "dotc", n, ec / tol);
  const long double eu = std::abs(wide(lapis::blas1::dotu(n, x.data(), incx, y.data(), incy)) - ru);
  check(eu <= tol, "dotu", n, eu / tol);
  // axpy: each element one multiply-add
  const T alpha = rnd<T>();
  std::vector<T> y2(y);
  lapis::blas1::axpy(n, alpha, x.data(), incx, y2.data(), incy);
  long double ea = 0;
  for (index i = 0; i < n; ++i) {
    const Wide<T> want = wide(y[i * incy]) + wide(alpha) * wide(x[i * incx]);
    ea = std::max(ea, std::abs(wide(y2[i * incy]) - want) / (4 * u * (std::abs(want) + 2)));
  }
  // elements between the strided ones are untouched
  for (size_t k = 0; k < y.size(); ++k)
    if (incy > 1 && k % static_cast<size_t>(incy) != 0 && y2[k] != y[k]) ea = 1e9;
  check(ea <= 1, "axpy", n, ea);
  // scal by a real and by a scalar of x's type
  std::vector<T> x2(x);
  lapis::blas1::scal(n, R(0.5), x2.data(), incx);
  long double es = 0;
  for (index i = 0; i < n; ++i) es = std::max(es, std::abs(wide(x2[i * incx]) - wide(x[i * incx]) / 2.0L));
  check(es == 0, "scal (real, exact)", n, es);
  x2 = x;
  lapis::blas1::scal(n, alpha, x2.data(), incx);
  es = 0;
  for (index i = 0; i < n; ++i)
    es = std::max(es, std::abs(wide(x2[i * incx]) - wide(alpha) * wide(x[i * incx])) / (4 * u));
  check(es <= 2, "scal", n, es);
  // swap
  x2 = x;
  y2 = y;
  lapis::blas1::swap(n, x2.data(), incx, y2.data(), incy);
  bool sw = true;
  for (index i = 0; i < n; ++i) sw = sw && x2[i * incx] == y[i * incy] && y2[i * incy] == x[i * incx];
  check(sw, "swap", n, 0);
  // rot with a complex s: the rotation [c s; −conj(s) c] is unitary when c² + |s|² = 1
  const R c = R(0.6);
  T s;
  if constexpr (lapis::is_complex_v<T>) s = T(R(0.48), R(0.64));
  else s = R(0.8);
  x2 = x;
  y2 = y;
  lapis::blas1::rot(n, x2.data(), incx, y2.data(), incy, c, s);
  long double er = 0;
  for (index i = 0; i < n; ++i) {
    const Wide<T> a = wide(x[i * incx]), b = wide(y[i * incy]);
    const Wide<T> wx = (long double)c * a + wide(s) * b, wy = (long double)c * b - wconj(wide(s)) * a;
    er = std::max(er, (std::abs(wide(x2[i * incx]) - wx) + std::abs(wide(y2[i * incy]) - wy)) / (8 * u));
  }
  check(er <= 1, "rot", n, er);
  // iamax: the first largest |re| + |im|
  if (n > 0) {
    x2 = x;
    const index at = n / 3;
    x2[at * incx] = T(R(2));
    if (at + 1 < n) x2[(at + 1) * incx] = T(R(-2));  // a tie after it: the first wins
    const index got = lapis::blas1::iamax(n, x2.data(), incx);
    check(got == at, "iamax", n, static_cast<long double>(got));
  } else {
    check(lapis::blas1::iamax(n, x.data(), incx) == -1, "iamax (empty)", n, 0);
  }
  // nrm2 of ordinary data
  long double ss = 0;
  for (index i = 0; i < n; ++i) ss += std::norm(wide(x[i * incx]));
  const long double want = std::sqrt(ss);
  const long double en = std::abs(lapis::blas1::nrm2(n, x.data(), incx) - want) / (4 * (n + 2) * u * (want + 1e-30L));
  check(en <= 1, "nrm2", n, en);
}

// nrm2 where a plain sum of squares over- or underflows: the scaled pass must give the
// norm to a few ulps.
template <class T>
void test_nrm2_extremes() {
  using R = lapis::real_t<T>;
  const long double u = std::numeric_limits<R>::epsilon();
  const R scales[] = {std::numeric_limits<R>::max() / R(64),  // the norm itself stays finite
                      std::sqrt(std::numeric_limits<R>::max()) * R(8),
                      std::numeric_limits<R>::min() * R(3), std::numeric_limits<R>::denorm_min() * R(64), R(1)};
  for (const R sc : scales) {
    for (index n : {1, 7, 8, 9, 33}) {
      for (index inc : {1, 3}) {
        std::vector<T> x(static_cast<size_t>(n * inc));
        long double ss = 0;
        for (index i = 0; i < n; ++i) {
          T v = rnd<T>();
          if constexpr (lapis::is_complex_v<T>) v = T(v.real() * sc, v.imag() * sc);
          else v = v * sc;
          x[i * inc] = v;
          ss += std::norm(wide(v) / (long double)sc);
        }
        const long double want = std::sqrt(ss) * (long double)sc;
        const R got = lapis::blas1::nrm2(n, x.data(), inc);
        // A subnormal result is rounded to the subnormal grid: half a denorm_min more.
        const long double e = std::abs((long double)got - want) /
                              (4 * (n + 2) * u * want + (long double)std::numeric_limits<R>::denorm_min());
        check(std::isfinite(got) && e <= 1, "nrm2 (scaled)", n, e);
      }
    }
  }
  std::vector<T> x(5, T(R(1)));
  x[2] = T(std::numeric_limits<R>::infinity());
  check(std::isinf(lapis::blas1::nrm2(index(5), x.data(), index(1))), "nrm2 (Inf)", 5, 0);
  x[3] = T(std::numeric_limits<R>::quiet_NaN());
  check(std::isnan(lapis::blas1::nrm2(index(5), x.data(), index(1))), "nrm2 (NaN)", 5, 0);
  std::vector<T> z(9, T(0));
  check(lapis::blas1::nrm2(index(9), z.data(), index(1)) == R(0), "nrm2 (zero)", 9, 0);
}

template <class T>
void run_type() {
  for (index n : {0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 64, 101})
    for (index incx : {1, 2})
      for (index incy : {1, 3}) test_routines<T>(n, incx, incy);
  test_nrm2_extremes<T>();
}

// parallel_for: coverage, piece boundaries, serial fallbacks, exceptions.
void test_parallel_for() {
  for (auto sched : {lapis::Schedule::Chunked, lapis::Schedule::Pieces}) {
    for (index n : {1, 7, 64, 1000, 4099}) {
      for (index grain : {1, 5, 64}) {
        std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
        std::atomic<bool> bad_piece{false};
        lapis::parallel_for(
            n, grain,
            [&](index b, index e) {
              if (sched == lapis::Schedule::Pieces && (b % grain != 0 || (e - b != grain && e != n)))
                bad_piece = true;
              for (index i = b; i < e; ++i) hits[static_cast<size_t>(i)]++;
            },
            0, sched);
        bool once = true;
        for (auto& h : hits) once = once && h.load() == 1;
        check(once, sched == lapis::Schedule::Pieces ? "parallel_for Pieces coverage" : "parallel_for coverage", n,
              grain);
        check(!bad_piece, "parallel_for Pieces: one piece per call", n, grain);
      }
    }
  }
  // Serial paths keep the pieces: one thread allowed, and a nested call.
  {
    std::vector<index> starts;
    lapis::parallel_for(100, 16, [&](index b, index) { starts.push_back(b); }, 1, lapis::Schedule::Pieces);
    check(starts.size() == 7 && starts[6] == 96, "parallel_for Pieces serial (max_threads 1)", 100,
          static_cast<long double>(starts.size()));
    std::mutex mu;
    std::vector<int> nested_calls;
    lapis::parallel_for(4, 1, [&](index b, index e) {
      for (index t = b; t < e; ++t) {
        int calls = 0;
        const bool in = lapis::in_parallel_region() || lapis::num_threads() == 1;
        lapis::parallel_for(50, 10, [&](index, index) { ++calls; }, 0, lapis::Schedule::Pieces);
        std::lock_guard<std::mutex> lk(mu);
        nested_calls.push_back(in ? calls : 5);
      }
    });
    bool ok = nested_calls.size() == 4;
    for (int c : nested_calls) ok = ok && c == 5;
    check(ok, "parallel_for Pieces nested (serial, per piece)", 50, 0);
  }
  // An exception in any piece reaches the caller.
  for (auto sched : {lapis::Schedule::Chunked, lapis::Schedule::Pieces}) {
    bool caught = false;
    try {
      lapis::parallel_for(
          1000, 1,
          [&](index b, index e) {
            if (b <= 777 && 777 < e) throw std::runtime_error("piece 777");
          },
          0, sched);
    } catch (const std::runtime_error&) {
      caught = true;
    }
    check(caught, "parallel_for rethrows", 1000, 0);
  }
}

}  // namespace

int main() {
  std::printf("test_blas1: threads=%d\n", lapis::num_threads());
  run_type<float>();
  run_type<double>();
  run_type<std::complex<float>>();
  run_type<std::complex<double>>();
  test_parallel_for();
  std::printf("test_blas1: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
