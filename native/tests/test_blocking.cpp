// C++-only test of the blocked LU (getrf, getrs), TRSM and Householder QR (qr, geqrf,
// apply_q, orgqr) at several explicit block sizes: the tuned defaults and shrunken ones
// (LuParams, TrsmParams, QrParams), so the recursive and blocked paths run at small n,
// on sizes across each block edge, for float, double, complex<float>, complex<double>.
// Every check is a LAPACK-style scale-free ratio computed in double: backward errors
// ‖A − P·L·U‖ / (n·eps·‖A‖), ‖op(A)·X − B‖ / (n·eps·‖A‖·‖X‖), ‖A − Q·R‖ / (n·eps·‖A‖) and
// ‖QᴴQ − I‖ / (n·eps) below 30. Also: an exactly zero column gives info = its index + 1 at
// every blocking; rows near overflow, a subnormal column; NaN in the triangle TRSM must
// not read. Run by scripts/test-native.sh (native, each forced kernel family, qemu-aarch64).
// Exits non-zero on any failure.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lapis/lu.hpp"
#include "lapis/qr.hpp"
#include "lapis/trsm.hpp"

using lapis::index;
using lapis::LuParams;
using lapis::MatMut;
using lapis::MatRef;
using lapis::QrParams;
using lapis::TrsmParams;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261201);
constexpr double kLimit = 30;

template <class T> struct Name;
template <> struct Name<float> { static constexpr const char* s = "float"; };
template <> struct Name<double> { static constexpr const char* s = "double"; };
template <> struct Name<std::complex<float>> { static constexpr const char* s = "complex<float>"; };
template <> struct Name<std::complex<double>> { static constexpr const char* s = "complex<double>"; };

template <class T>
using W = std::conditional_t<lapis::is_complex_v<T>, std::complex<double>, double>;
template <class T>
constexpr bool cplx = lapis::is_complex_v<T>;

template <class T>
double eps() {
  return std::numeric_limits<lapis::real_t<T>>::epsilon();
}

template <class T>
W<T> widen(T x) {
  if constexpr (cplx<T>) return W<T>(x.real(), x.imag());
  else return static_cast<double>(x);
}
template <class T>
T narrow(W<T> x) {
  using R = lapis::real_t<T>;
  if constexpr (cplx<T>) return T(static_cast<R>(x.real()), static_cast<R>(x.imag()));
  else return static_cast<T>(x);
}
template <class V>
V conjw(V x) {
  if constexpr (std::is_same_v<V, double>) return x;
  else return std::conj(x);
}

template <class T>
W<T> rnd() {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (cplx<T>) {
    const double re = u(g_rng);
    return W<T>(re, u(g_rng));
  } else {
    return u(g_rng);
  }
}

void check(bool ok, const std::string& what) {
  ++g_checks;
  if (ok) return;
  if (++g_failures <= 40) std::printf("FAIL %s\n", what.c_str());
}

// A wide (double) row-major matrix.
template <class V>
struct Wm {
  index m = 0, n = 0;
  std::vector<V> a;
  Wm(index m_, index n_) : m(m_), n(n_), a(static_cast<size_t>(m_ * n_), V(0)) {}
  V& operator()(index i, index j) { return a[i * n + j]; }
  V operator()(index i, index j) const { return a[i * n + j]; }
};

template <class V>
double norm1(const Wm<V>& A) {
  double best = 0;
  for (index j = 0; j < A.n; ++j) {
    double s = 0;
    for (index i = 0; i < A.m; ++i) s += std::abs(A(i, j));
    if (!(s <= best)) best = s;  // NaN wins
  }
  return best;
}

template <class V>
Wm<V> mul(const Wm<V>& A, const Wm<V>& B) {
  Wm<V> C(A.m, B.n);
  for (index i = 0; i < A.m; ++i)
    for (index l = 0; l < A.n; ++l) {
      const V x = A(i, l);
      for (index j = 0; j < B.n; ++j) C(i, j) += x * B(l, j);
    }
  return C;
}

template <class V>
Wm<V> sub(const Wm<V>& A, const Wm<V>& B) {
  Wm<V> C(A.m, A.n);
  for (size_t i = 0; i < A.a.size(); ++i) C.a[i] = A.a[i] - B.a[i];
  return C;
}

template <class V>
Wm<V> adjoint(const Wm<V>& A) {
  Wm<V> C(A.n, A.m);
  for (index i = 0; i < A.m; ++i)
    for (index j = 0; j < A.n; ++j) C(j, i) = conjw(A(i, j));
  return C;
}

template <class T>
Wm<W<T>> random_w(index m, index n) {
  Wm<W<T>> A(m, n);
  for (auto& x : A.a) x = rnd<T>();
  return A;
}

// Rounds to T and back, so the reference sees exactly what the kernel gets.
template <class T>
std::vector<T> to_t(const Wm<W<T>>& A) {
  std::vector<T> v(A.a.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = narrow<T>(A.a[i]);
  return v;
}
template <class T>
Wm<W<T>> from_t(const T* p, index m, index n, index ld) {
  Wm<W<T>> A(m, n);
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) A(i, j) = widen(p[i * ld + j]);
  return A;
}

// Applies the Householder reflector I − 2·v·vᴴ/(vᴴv) to the rows (left) of A.
template <class V>
void reflect_rows(Wm<V>& A, const std::vector<V>& v) {
  double vv = 0;
  for (const V& x : v) vv += std::norm(x);
  for (index j = 0; j < A.n; ++j) {
    V s = 0;
    for (index i = 0; i < A.m; ++i) s += conjw(v[i]) * A(i, j);
    s *= 2.0 / vv;
    for (index i = 0; i < A.m; ++i) A(i, j) -= v[i] * s;
  }
}

// n×n with singular values from 1 down to 1/cond: U·Σ·V with U, V products of three
// random reflectors (DESIGN.md: inputs with a chosen condition number).
template <class T>
Wm<W<T>> with_condition(index n, double cond) {
  using V = W<T>;
  Wm<V> A(n, n);
  for (index i = 0; i < n; ++i) A(i, i) = n == 1 ? 1.0 : std::pow(cond, -double(i) / double(n - 1));
  for (int side = 0; side < 2; ++side) {
    for (int r = 0; r < 3; ++r) {
      std::vector<V> v(static_cast<size_t>(n));
      for (auto& x : v) x = rnd<T>();
      reflect_rows(A, v);
    }
    A = adjoint(A);
  }
  return A;
}

std::string tag(const std::string& what, const char* type, index m, index n, const std::string& extra) {
  return std::string(what) + " " + type + " " + std::to_string(m) + "x" + std::to_string(n) + " " + extra;
}

std::string lu_name(const LuParams& p) {
  return "{leaf " + std::to_string(p.leaf) + ", crossover " + std::to_string(p.crossover) + ", trsm " +
         std::to_string(p.trsm_block) + "}";
}

// --quick (the qemu-aarch64 runs): the blocking logic is the same C++ on every ISA and runs
// in full natively for each kernel family; under qemu the tuned defaults and the extreme and
// odd shrunken blockings are enough to drive the NEON kernels through every algorithm.
bool g_quick = false;

const std::vector<LuParams>& lu_params() {
  static const std::vector<LuParams> ps = {LuParams{}, {1, 1, 1}, {2, 2, 2}, {2, 3, 4}, {3, 2, 3}, {5, 8, 7}};
  static const std::vector<LuParams> quick = {LuParams{}, {1, 1, 1}, {5, 8, 7}};
  return g_quick ? quick : ps;
}

// P·L·U from getrf's output, in double: the interchanges undone in reverse order.
template <class T>
Wm<W<T>> plu(const std::vector<T>& lu, const std::vector<int32_t>& ipiv, index m, index n) {
  using V = W<T>;
  const index k = std::min(m, n);
  Wm<V> L(m, k), U(k, n);
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < k; ++j) L(i, j) = j < i ? widen(lu[i * n + j]) : (j == i ? V(1) : V(0));
  for (index i = 0; i < k; ++i)
    for (index j = i; j < n; ++j) U(i, j) = widen(lu[i * n + j]);
  Wm<V> R = mul(L, U);
  for (index i = k - 1; i >= 0; --i) {
    const index p = ipiv[i] - 1;
    if (p != i)
      for (index j = 0; j < n; ++j) std::swap(R(i, j), R(p, j));
  }
  return R;
}

// getrf on A at blocking p: returns info; checks pivots and the backward error.
template <class T>
int32_t check_getrf(const Wm<W<T>>& Aw, const LuParams& p, const std::string& what, std::vector<T>* out = nullptr) {
  const index m = Aw.m, n = Aw.n, k = std::min(m, n);
  std::vector<T> a = to_t<T>(Aw);
  const Wm<W<T>> A = from_t<T>(a.data(), m, n, n);
  std::vector<int32_t> ipiv(static_cast<size_t>(k), -7);
  const int32_t info = lapis::getrf<T>(m, n, a.data(), n, ipiv.data(), 0, p);
  bool piv_ok = true;
  for (index i = 0; i < k; ++i) piv_ok = piv_ok && ipiv[i] >= i + 1 && ipiv[i] <= m;
  check(piv_ok, what + ": pivots out of range");
  if (!piv_ok) return info;
  const double nA = norm1(A);
  const double r = nA == 0 ? 0 : norm1(sub(A, plu<T>(a, ipiv, m, n))) / (std::max<index>({m, n, 1}) * eps<T>() * nA);
  check(r < kLimit, what + ": ‖A − P·L·U‖ ratio " + std::to_string(r));
  if (out) *out = a;
  return info;
}

template <class T>
void test_getrf() {
  const char* tn = Name<T>::s;
  for (const LuParams& p : lu_params()) {
    const std::string pn = lu_name(p);
    for (index n : {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 65, 70})
      for (double cond : {1.0, 1e4, 1e12}) {
        const int32_t info = check_getrf<T>(with_condition<T>(n, cond), p, tag("getrf", tn, n, n, pn + " cond " + std::to_string(cond)));
        // beyond 1/eps (cond 1e12 in float) a rounded input may be exactly singular
        if (cond * eps<T>() < 1e-2) check(info == 0, tag("getrf info", tn, n, n, pn + " info " + std::to_string(info)));
      }
    for (auto [m, n] : std::vector<std::pair<index, index>>{{7, 3}, {3, 7}, {12, 5}, {5, 12}, {1, 4}, {4, 1}, {40, 17}, {17, 40}, {100, 70}})
      check_getrf<T>(random_w<T>(m, n), p, tag("getrf", tn, m, n, pn));
    // An exactly zero column zc: U(zc, zc) is exactly zero (eliminations add 0·l), the first
    // such pivot, and the factorization still completes.
    for (index n : {9, 40})
      for (index zc : {index(0), n / 2, n - 1}) {
        Wm<W<T>> A = random_w<T>(n, n);
        for (index i = 0; i < n; ++i) A(i, zc) = 0;
        const std::string what = tag("getrf zero column " + std::to_string(zc), tn, n, n, pn);
        const int32_t info = check_getrf<T>(A, p, what);
        check(info == zc + 1, what + ": info " + std::to_string(info));
      }
  }
}

// Rows near overflow and a subnormal column (double): backward error, finite factors, and
// the subnormal pivot divided by, not multiplied by its (infinite) reciprocal.
void test_getrf_extremes() {
  for (const LuParams& p : lu_params()) {
    const index n = 12;
    Wm<double> big = random_w<double>(n, n);
    for (index i = 0; i < n; i += 3)
      for (index j = 0; j < n; ++j) big(i, j) *= 1e300;
    check_getrf<double>(big, p, tag("getrf rows near overflow", "double", n, n, lu_name(p)));
    Wm<double> sub_col = random_w<double>(n, n);
    for (index i = 0; i < n; ++i) sub_col(i, 0) *= 1e-310;
    const std::string what = tag("getrf subnormal column", "double", n, n, lu_name(p));
    std::vector<double> a = to_t<double>(sub_col);
    std::vector<int32_t> ipiv(n);
    const int32_t info = lapis::getrf<double>(n, n, a.data(), n, ipiv.data(), 0, p);
    check(info == 0, what + ": info " + std::to_string(info));
    bool finite = true;
    for (double v : a) finite = finite && std::isfinite(v);
    check(finite, what + ": non-finite factor");
    // column-scaled backward error: the subnormal column is exact to its own scale
    const Wm<double> R = sub(sub_col, plu<double>(a, ipiv, n, n));
    double worst = 0;
    for (index i = 0; i < n; ++i) worst = std::max(worst, std::abs(R(i, 0)));
    check(worst < kLimit * n * eps<double>() * 1e-310 * 4, what + ": column 0 residual " + std::to_string(worst));
  }
}

template <class T>
void test_getrs() {
  const char* tn = Name<T>::s;
  for (const LuParams& p : lu_params()) {
    for (index n : {1, 3, 5, 8, 17, 33, 70})
      for (index k : {1, 5, 37})
        for (lapis::Op op : {lapis::Op::None, lapis::Op::Trans, lapis::Op::ConjTrans}) {
          const std::string what = tag("getrs", tn, n, k, lu_name(p) + " op " + std::to_string(int(op)));
          const Wm<W<T>> Aw = with_condition<T>(n, 1e3);
          std::vector<T> lu = to_t<T>(Aw);
          const Wm<W<T>> A = from_t<T>(lu.data(), n, n, n);
          std::vector<int32_t> ipiv(n);
          lapis::getrf<T>(n, n, lu.data(), n, ipiv.data(), 0, p);
          std::vector<T> b = to_t<T>(random_w<T>(n, k));
          const Wm<W<T>> B = from_t<T>(b.data(), n, k, k);
          lapis::getrs<T>(op, n, k, lu.data(), n, ipiv.data(), b.data(), k, 0, p);
          const Wm<W<T>> X = from_t<T>(b.data(), n, k, k);
          Wm<W<T>> opA = A;
          if (op != lapis::Op::None) {
            opA = adjoint(A);
            if (op == lapis::Op::Trans)
              for (auto& x : opA.a) x = conjw(x);
          }
          const double r = norm1(sub(mul(opA, X), B)) / (n * eps<T>() * norm1(A) * norm1(X));
          check(r < kLimit, what + ": residual ratio " + std::to_string(r));
        }
  }
}

// Every TRSM variant: side, the stored triangle, unit or not, op(A) ∈ {A, Aᵀ, Aᴴ} by view,
// alpha; NaN fills what must not be read (the other triangle; the diagonal when unit).
template <class T>
void test_trsm() {
  const char* tn = Name<T>::s;
  using V = W<T>;
  const T nan = narrow<T>(V(std::numeric_limits<double>::quiet_NaN()));
  for (index block : {TrsmParams{}.block, index(1), index(2), index(3), index(5)}) {
    if (g_quick && (block == 2 || block == 3)) continue;
    const TrsmParams p{block};
    for (index n : {1, 2, 3, 4, 6, 7, 13, 33, 70})
      for (index k : {5, 37})
        for (bool left : {true, false})
          for (bool stored_upper : {false, true})
            for (bool unit : {false, true})
              for (int op = 0; op < 3; ++op) {
                const std::string what = tag("trsm", tn, n, k,
                                             "block " + std::to_string(block) + (left ? " left" : " right") +
                                                 (stored_upper ? " upper" : " lower") + (unit ? " unit" : "") + " op " +
                                                 std::to_string(op));
                // the stored triangle: off-diagonal in [-1, 1], diagonal 1.5 + [-0.5, 0.5]
                std::vector<T> s(static_cast<size_t>(n * n), nan);
                Wm<V> S(n, n);
                for (index i = 0; i < n; ++i)
                  for (index j = 0; j < n; ++j) {
                    if (stored_upper ? j < i : j > i) continue;
                    if (i == j && unit) {
                      S(i, j) = 1;
                      continue;
                    }
                    const V x = i == j ? V(1.5) + 0.5 * rnd<T>() : rnd<T>();
                    s[i * n + j] = narrow<T>(x);
                    S(i, j) = widen(s[i * n + j]);
                  }
                MatRef<T> A{s.data(), n, n, n, 1, false};
                Wm<V> opS = S;
                if (op == 1) A = A.t(), opS = adjoint(S);
                if (op == 2) A = A.h(), opS = adjoint(S);
                if (op == 1)
                  for (auto& x : opS.a) x = conjw(x);
                const bool upper = stored_upper != (op != 0);
                const index bm = left ? n : k, bn = left ? k : n;
                std::vector<T> b = to_t<T>(random_w<T>(bm, bn));
                const Wm<V> B = from_t<T>(b.data(), bm, bn, bn);
                const T alpha = narrow<T>(V(op == 2 ? 0.5 : 1.0));
                lapis::trsm<T>(left ? lapis::Side::Left : lapis::Side::Right, upper, unit, alpha, A,
                               MatMut<T>{b.data(), bm, bn, bn, 1}, 0, p);
                const Wm<V> X = from_t<T>(b.data(), bm, bn, bn);
                Wm<V> aB = B;
                for (auto& x : aB.a) x *= widen(alpha);
                const Wm<V> R = sub(left ? mul(opS, X) : mul(X, opS), aB);
                const double r = norm1(R) / (n * eps<T>() * norm1(opS) * std::max(norm1(X), 1e-300));
                check(r < kLimit, what + ": residual ratio " + std::to_string(r));
              }
  }
}

template <class T>
double orth_ratio(const Wm<W<T>>& Q) {
  Wm<W<T>> G = mul(adjoint(Q), Q);
  for (index i = 0; i < G.m; ++i) G(i, i) -= 1.0;
  return norm1(G) / (std::max<index>(Q.m, 1) * eps<T>());
}

// qr() in every mode, and geqrf + orgqr + apply_q, at panel width nb.
template <class T>
void check_qr(const Wm<W<T>>& Aw, index nb, const std::string& what) {
  using V = W<T>;
  const index m = Aw.m, n = Aw.n, k = std::min(m, n), mx = std::max<index>({m, n, 1});
  const QrParams p{nb};
  const std::vector<T> a = to_t<T>(Aw);
  const Wm<V> A = from_t<T>(a.data(), m, n, n);
  const double nA = std::max(norm1(A), std::numeric_limits<double>::min());
  Wm<V> Rred(k, n);
  for (auto mode : {lapis::QrMode::Reduced, lapis::QrMode::Complete, lapis::QrMode::R}) {
    const index qc = mode == lapis::QrMode::Complete ? m : k, rr = qc;
    std::vector<T> q(static_cast<size_t>(m * qc)), r(static_cast<size_t>(rr * n));
    lapis::qr<T>(a.data(), m, n, mode, mode == lapis::QrMode::R ? nullptr : q.data(), r.data(), 0, p);
    const Wm<V> R = from_t<T>(r.data(), rr, n, n);
    bool tri = true;
    for (index i = 0; i < rr; ++i)
      for (index j = 0; j < std::min(i, n); ++j) tri = tri && R(i, j) == V(0);
    const std::string mw = what + " mode " + std::to_string(int(mode));
    check(tri, mw + ": R not upper triangular");
    if (mode == lapis::QrMode::R) {
      const double d = norm1(sub(R, Rred)) / (mx * eps<T>() * nA);
      check(d < kLimit, mw + ": R differs from the reduced R, ratio " + std::to_string(d));
      continue;
    }
    const Wm<V> Q = from_t<T>(q.data(), m, qc, qc);
    if (mode == lapis::QrMode::Reduced) Rred = R;
    const double be = norm1(sub(A, mul(Q, R))) / (mx * eps<T>() * nA);
    check(be < kLimit, mw + ": ‖A − Q·R‖ ratio " + std::to_string(be));
    const double orth = orth_ratio<T>(Q);
    check(orth < kLimit, mw + ": ‖QᴴQ − I‖ ratio " + std::to_string(orth));
  }
  // geqrf, then Q by orgqr and by apply_q on the identity; Qᴴ·(Q·C) = C.
  std::vector<T> f = a, tau(static_cast<size_t>(k));
  lapis::geqrf<T>(MatMut<T>{f.data(), m, n, n, 1}, tau.data(), 0, p);
  const MatRef<T> Vr{f.data(), m, n, n, 1, false};
  std::vector<T> q(static_cast<size_t>(m * k));
  lapis::orgqr<T>(Vr, tau.data(), k, MatMut<T>{q.data(), m, k, k, 1}, 0, p);
  const Wm<V> Q = from_t<T>(q.data(), m, k, k);
  Wm<V> R(k, n);
  for (index i = 0; i < k; ++i)
    for (index j = i; j < n; ++j) R(i, j) = widen(f[i * n + j]);
  const double be = norm1(sub(A, mul(Q, R))) / (mx * eps<T>() * nA);
  check(be < kLimit, what + " geqrf+orgqr: ‖A − Q·R‖ ratio " + std::to_string(be));
  std::vector<T> e(static_cast<size_t>(m * k), T(0));
  for (index i = 0; i < k; ++i) e[i * k + i] = T(1);
  lapis::apply_q<T>(Vr, tau.data(), k, false, MatMut<T>{e.data(), m, k, k, 1}, 0, p);
  const double dq = norm1(sub(from_t<T>(e.data(), m, k, k), Q)) / (std::max<index>(m, 1) * eps<T>());
  check(dq < kLimit, what + " apply_q(I) vs orgqr, ratio " + std::to_string(dq));
  const index c = 7;
  std::vector<T> cm = to_t<T>(random_w<T>(m, c));
  const Wm<V> C = from_t<T>(cm.data(), m, c, c);
  lapis::apply_q<T>(Vr, tau.data(), k, true, MatMut<T>{cm.data(), m, c, c, 1}, 0, p);
  lapis::apply_q<T>(Vr, tau.data(), k, false, MatMut<T>{cm.data(), m, c, c, 1}, 0, p);
  const double rt = norm1(sub(from_t<T>(cm.data(), m, c, c), C)) / (std::max<index>(m, 1) * eps<T>() * norm1(C));
  check(rt < kLimit, what + " apply_q round trip ratio " + std::to_string(rt));
}

template <class T>
void test_qr() {
  const char* tn = Name<T>::s;
  for (index nb : {index(0), index(1), index(2), index(3), index(4), index(5), index(8)}) {
    if (g_quick && (nb == 2 || nb == 4 || nb == 5)) continue;
    const std::string pn = "nb " + std::to_string(nb);
    for (index n : {1, 3, 4, 5, 8, 9, 13})
      for (index m : {n, 2 * n + 1, std::max<index>(1, n - 2)}) {
        check_qr<T>(random_w<T>(m, n), nb, tag("qr", tn, m, n, pn));
        if (m != n) check_qr<T>(random_w<T>(n, m), nb, tag("qr", tn, n, m, pn));
      }
    for (auto [m, n] : std::vector<std::pair<index, index>>{{70, 40}, {40, 70}, {65, 65}, {33, 31}})
      check_qr<T>(random_w<T>(m, n), nb, tag("qr", tn, m, n, pn));
    // far from 1: qr scales by a power of two (exact) so no Householder product over- or
    // underflows, at every panel width
    using R = lapis::real_t<T>;
    const double big = std::is_same_v<R, float> ? 1e30 : 1e300, tiny = std::is_same_v<R, float> ? 1e-30 : 1e-300;
    for (double s : {big, tiny}) {
      Wm<W<T>> A = random_w<T>(9, 6);
      for (auto& x : A.a) x *= s;
      check_qr<T>(A, nb, tag("qr scaled", tn, 9, 6, pn + " scale " + std::to_string(s)));
    }
  }
}

template <class T>
void run_all() {
  test_getrf<T>();
  test_getrs<T>();
  test_trsm<T>();
  test_qr<T>();
}

}  // namespace

int main(int argc, char** argv) {
  g_quick = argc > 1 && std::string(argv[1]) == "--quick";
  if (g_quick) std::printf("test_blocking: quick (default, extreme and odd block sizes)\n");
  run_all<float>();
  run_all<double>();
  run_all<std::complex<float>>();
  run_all<std::complex<double>>();
  test_getrf_extremes();
  std::printf("test_blocking: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
