// SVD: scale, sort rows and columns, Householder QR, then one-sided Jacobi on R.
//
// Why this shape (docs/svd.md has the long version): one-sided Jacobi computes every
// singular value of A = B·D (D diagonal, B well conditioned) to high relative accuracy,
// which bidiagonalization cannot promise; the QR step first shrinks an m×n problem to
// n×n and makes Jacobi converge in fewer sweeps (Drmač–Veselić, LAPACK gejsv). Rows are
// sorted by decreasing max-norm before the QR so row-graded inputs keep that accuracy
// too (Cox–Higham); columns are sorted by decreasing norm as a static pivot, or pivoted
// in the QR itself when the rows are strongly graded (Cox–Higham need both).
#include "lapis/svd.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <numeric>
#include <utility>
#include <vector>

#include "../qr/qr_internal.hpp"
#include "bidiag.hpp"
#include "jacobi_kernels.hpp"
#include "lapis/blas1.hpp"
#include "lapis/gemm.hpp"
#include "lapis/isa.hpp"
#include "lapis/parallel.hpp"
#include "lapis/qr.hpp"
#include "lapis/trsm.hpp"

namespace lapis {
namespace {

constexpr int kMaxSweeps = 40;
// Below this size accumulating the rotations is cheaper than the solve and the check.
constexpr index kSolveForVMin = 24;
// Row grading (largest / smallest nonzero row max-norm) above which the first QR pivots
// columns (geqp2, unblocked, so slower than geqrf). 2^30: random and ungraded inputs stay
// far below it (row max-norm ratios of Gaussian matrices are under 2^10), while at 2^40
// the static column sort already costs accuracy (docs/svd.md). SvdOptions::pivot forces
// it on / off.
template <class R> R kPivotGrading() { return std::ldexp(R(1), 30); }
// Row or column grading (largest / smallest nonzero max-norm) up to which values-only
// calls take the bidiagonal route: its relative error bound eps·κ(A) is then within
// this factor (times √max(m, n)) of Jacobi's eps·κ(B), A = B·D or D·B (docs/svd.md).
template <class R> R kBidiagGrading() { return std::ldexp(R(1), 6); }
// Whether svd with vectors takes gebrd + divide and conquer rather than Jacobi, by speed
// (docs/svd.md): from two columns on, for every dtype and shape; Jacobi kept the lead only
// on real tall shapes before gebd2's larf kernels, and ties there now.
inline bool dc_faster(index m, index n) { return std::min(m, n) >= 2; }

// Whether A (row-major m×n, finite) has rows and columns of comparable max-norm.
template <class T>
bool ungraded(const T* A, index m, index n) {
  using R = real_t<T>;
  std::vector<R> cmax(static_cast<size_t>(n), R(0));
  R rlo = std::numeric_limits<R>::infinity(), rhi = 0;
  for (index i = 0; i < m; ++i) {
    R r = 0;
    for (index j = 0; j < n; ++j) {
      // Complex: max(|re|, |im|), within √2 of the modulus and without its square root.
      R v;
      if constexpr (is_complex_v<T>) v = std::max(std::abs(A[i * n + j].real()), std::abs(A[i * n + j].imag()));
      else v = std::abs(A[i * n + j]);
      r = std::max(r, v);
      cmax[j] = std::max(cmax[j], v);
    }
    if (r > 0) { rlo = std::min(rlo, r); rhi = std::max(rhi, r); }
  }
  R clo = std::numeric_limits<R>::infinity(), chi = 0;
  for (index j = 0; j < n; ++j)
    if (cmax[j] > 0) { clo = std::min(clo, cmax[j]); chi = std::max(chi, cmax[j]); }
  return rhi <= rlo * kBidiagGrading<R>() && chi <= clo * kBidiagGrading<R>();
}
// Column length from which row 0 of a composed wavefront step also carries its own next
// dot product (one-thread timings, docs/svd.md: 1024 4% faster, 512 even, 256 3% slower).
constexpr index kOwnCarryMin = 1024;
// Rows of the row-cyclic order run as one wavefront (real data, JacobiSweeps::wave_rows).
// The k rows' columns stay in L1 while the other columns stream past: about 16 KiB of
// them (timings: docs/decisions.md). Columns at a 4 KiB stride share L1 sets.
template <class R>
index wave_rows_for(index len) {
  const index fit = index(16384) / (std::max<index>(len, 1) * index(sizeof(R)));
  return std::max<index>(2, std::min<index>(svd_detail::kWaveStep, fit));
}

}  // namespace

namespace svd_detail {

// Portable kernels: four accumulators for the sums (the compiler will not reassociate).
template <class R>
static R p_dot(const R* a, const R* b, index len) {
  R s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  index i = 0;
  for (; i + 3 < len; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < len; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

template <class R>
static void p_dotc(const R* a, const R* b, index n, R* re, R* im) {
  R r0 = 0, r1 = 0, i0 = 0, i1 = 0;
  index i = 0;
  for (; i + 1 < n; i += 2) {
    r0 += a[2 * i] * b[2 * i] + a[2 * i + 1] * b[2 * i + 1];
    i0 += a[2 * i] * b[2 * i + 1] - a[2 * i + 1] * b[2 * i];
    r1 += a[2 * i + 2] * b[2 * i + 2] + a[2 * i + 3] * b[2 * i + 3];
    i1 += a[2 * i + 2] * b[2 * i + 3] - a[2 * i + 3] * b[2 * i + 2];
  }
  for (; i < n; ++i) {
    r0 += a[2 * i] * b[2 * i] + a[2 * i + 1] * b[2 * i + 1];
    i0 += a[2 * i] * b[2 * i + 1] - a[2 * i + 1] * b[2 * i];
  }
  *re = r0 + r1;
  *im = i0 + i1;
}

template <class R>
static void p_rot(R* x, R* y, index len, R c, R s) {
  for (index i = 0; i < len; ++i) {
    const R a = x[i], b = y[i];
    x[i] = c * a - s * b;
    y[i] = s * a + c * b;
  }
}

template <class R>
static void p_rotc(R* x, R* y, index n, R c, R zr, R zi) {
  for (index i = 0; i < n; ++i) {
    const R xr = x[2 * i], xi = x[2 * i + 1], yr = y[2 * i], yi = y[2 * i + 1];
    x[2 * i] = c * xr - (zr * yr + zi * yi);
    x[2 * i + 1] = c * xi - (zr * yi - zi * yr);
    y[2 * i] = (zr * xr - zi * xi) + c * yr;
    y[2 * i + 1] = (zr * xi + zi * xr) + c * yi;
  }
}

template <class R>
static R p_rot_dot(R* x, R* y, const R* w, index len, R c, R s) {
  p_rot(x, y, len, c, s);
  return p_dot<R>(x, w, len);
}

template <class R>
static void p_rotc_dotc(R* x, R* y, const R* w, index n, R c, R zr, R zi, R* re, R* im) {
  p_rotc(x, y, n, c, zr, zi);
  p_dotc<R>(x, w, n, re, im);
}

// `angles` lane by lane: the same formulas as jacobi_pair_sq (and as the SIMD kernels).
template <class R>
static unsigned p_angles(const R* g, const R* ap, const R* bq, R tol2, R* c, R* z, R* a2, R* b2) {
  unsigned m = 0;
  for (int l = 0; l < kWave; ++l) {
    if (!(g[l] * g[l] > tol2 * ap[l] * bq[l])) continue;
    m |= 1u << l;
    const R ag = std::abs(g[l]);
    const R zeta = (bq[l] - ap[l]) * (R(0.5) / ag);
    const R az = std::abs(zeta);
    R ta, cc;
    if (az < R(1) / std::numeric_limits<R>::epsilon()) {
      const R w = std::sqrt(1 + az * az);
      ta = R(1) / (az + w);
      cc = std::sqrt(R(0.5) + R(0.5) * (az / w));
    } else {
      ta = R(0.5) / az;
      cc = 1;
    }
    const R t = std::copysign(ta, zeta);
    const R sn = cc * t;
    c[l] = cc;
    z[l] = g[l] > 0 ? sn : -sn;
    const R tg = t * ag;
    a2[l] = ap[l] - tg;
    b2[l] = bq[l] + tg;
  }
  return m;
}

template <class R>
static void p_rot_dot2(R* x, R* y, const R* wx, const R* wy, index len, R c, R s, R* dx, R* dy) {
  p_rot(x, y, len, c, s);
  *dx = p_dot<R>(x, wx, len);
  *dy = p_dot<R>(y, wy, len);
}

template <class R>
static void p_larf_left(index r, index c, const R* v, R tau, R* C, index ldc) {
  for (index j = 0; j < c; ++j) {
    R* cj = C + j * ldc;
    const R f = tau * p_dot<R>(v, cj, r);
    for (index i = 0; i < r; ++i) cj[i] -= f * v[i];
  }
}

template <class R>
static void p_larf_right(index r, index c, const R* u, index incu, R tau, R* C, index ldc, R* w) {
  std::fill(w, w + r, R(0));
  for (index j = 0; j < c; ++j) {
    const R a = u[j * incu];
    const R* cj = C + j * ldc;
    for (index i = 0; i < r; ++i) w[i] += a * cj[i];
  }
  for (index j = 0; j < c; ++j) {
    const R f = tau * u[j * incu];
    R* cj = C + j * ldc;
    for (index i = 0; i < r; ++i) cj[i] -= f * w[i];
  }
}

template <class R> JacobiKernels<R> portable_jacobi() {
  JacobiKernels<R> k{&p_dot<R>, &p_dotc<R>, &p_rot<R>, &p_rotc<R>, &p_rot_dot<R>, &p_rotc_dotc<R>, &p_angles<R>};
  k.rot_dot2 = &p_rot_dot2<R>;
  k.larf_left = &p_larf_left<R>;
  k.larf_right = &p_larf_right<R>;
  return k;
}

}  // namespace svd_detail

namespace {

using namespace svd_detail;

template <class R>
JacobiKernels<R> pick_jacobi() {
#if LAPIS_SVD_X86
  // The process's ISA family (its CPUID check and LAPIS_KERNELS decide, lapis/isa.hpp).
  const Isa isa = active_isa();
  if (isa == Isa::avx512) return avx512_jacobi<R>();
  if (runs_avx2(isa)) return avx2_jacobi<R>();
#endif
  return portable_jacobi<R>();
}

// Picked once at load time: a namespace-scope object needs no guard on every call.
template <class R> const JacobiKernels<R> g_jacobi = pick_jacobi<R>();
template <class R> inline const JacobiKernels<R>& jk() { return g_jacobi<R>; }

// The Jacobi kernels (jk()) on T, in BLAS-1 argument order (lapis/blas1.hpp): the
// vectorised, ISA-dispatched versions of dotc and rot for the sweeps' hot loops.
// conj(x)·y over n elements.
template <class T>
T jdotc(index n, const T* x, const T* y) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    R re, im;
    jk<R>().dotc(reinterpret_cast<const R*>(x), reinterpret_cast<const R*>(y), n, &re, &im);
    return T(re, im);
  } else {
    return jk<R>().dot(x, y, n);
  }
}

// [x, y] ← [c·x − z̄·y, z·x + c·y]: the unitary plane rotation of one Jacobi step.
template <class T>
void jrot(index n, T* x, T* y, real_t<T> c, T z) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    jk<R>().rotc(reinterpret_cast<R*>(x), reinterpret_cast<R*>(y), n, c, z.real(), z.imag());
  } else {
    jk<R>().rot(x, y, n, c, z);
  }
}

// ‖x‖ through the vectorised dot product when `hint` (the norm's last known value)
// says the squares can neither underflow nor overflow; the careful nrm2 otherwise.
template <class T>
real_t<T> col_norm(const T* x, index len, real_t<T> hint) {
  using R = real_t<T>;
  const R lo = std::sqrt(smallest_normal<T>() / eps<T>()) * R(1e4);
  const R hi = std::sqrt(std::numeric_limits<R>::max()) / R(1e4 * (len + 1));
  if (hint > lo && hint < hi) {
    const R s = real_part(jdotc(len, x, x));
    if (s > lo * lo && s < hi * hi) return std::sqrt(s);
  }
  return blas1::nrm2(len, x, 1);
}

// jrot(x, y), then returns conj(x')·w (the next pair's dot product) from the same pass.
template <class T>
T jrot_dotc(index n, T* x, T* y, const T* w, real_t<T> c, T z) {
  using R = real_t<T>;
  if constexpr (is_complex_v<T>) {
    R re, im;
    jk<R>().rotc_dotc(reinterpret_cast<R*>(x), reinterpret_cast<R*>(y), reinterpret_cast<const R*>(w), n, c,
                      z.real(), z.imag(), &re, &im);
    return T(re, im);
  } else {
    return jk<R>().rot_dot(x, y, w, n, c, z);
  }
}

// Applies the rotation (c, z) to (x_p, x_q) and, when V is accumulated, to (v_p, v_q); with
// a next pair (x_p, x_next) its dot product comes out of the same pass over x_p.
template <class T>
inline void rotate_pair(T* xp, T* xq, index len, T* vp, T* vq, index nv, real_t<T> c, T z, const T* xnext, T& carry,
                        bool& have_carry) {
  if (xnext) {
    carry = jrot_dotc(len, xp, xq, xnext, c, z);
    have_carry = true;
  } else {
    jrot(len, xp, xq, c, z);
  }
  if (vp) jrot(nv, vp, vq, c, z);
}

// One Jacobi step on columns (xp, xq) with norms (dp, dq), rotating (vp, vq) alongside
// when they are non-null. Returns whether a rotation was applied.
template <class T>
bool jacobi_pair(T* xp, T* xq, index len, T* vp, T* vq, index nv, real_t<T>& dp, real_t<T>& dq, real_t<T> tol,
                 const T* xnext, T& carry, bool& have_carry) {
  using R = real_t<T>;
  const R tiny = smallest_normal<T>();
  // carry: conj(xp)·xq when the previous step of this row computed it in its rotation.
  const bool had = have_carry;
  have_carry = false;
  if (dp < tiny || dq < tiny) return false;
  // Cosine of the angle between the columns; from scaled copies when the plain dot
  // product could underflow.
  T cpq;
  if (dp * dq < smallest_normal<T>() / eps<T>()) {
    std::vector<T> tp(len), tq(len);
    const R ip = R(1) / dp, iq = R(1) / dq;
    for (index i = 0; i < len; ++i) {
      tp[i] = xp[i] * ip;
      tq[i] = xq[i] * iq;
    }
    cpq = jdotc(len, tp.data(), tq.data());
  } else {
    cpq = (had ? carry : jdotc(len, xp, xq)) * (R(1) / (dp * dq));
  }
  const R cosv = std::abs(cpq);
  if (!(cosv > tol)) return false;
  if (dq < eps<T>() * dp || dp < eps<T>() * dq) {
    // Norms more than 1/eps apart (gesvj's non-"rotok" case): c = 1 and z = ∓cpq·(small/
    // big), so the small column x_s takes the projection d_s·(x_s/d_s − c_bs·x_b/d_b) on
    // normalised columns; the big column's change is below its rounding. Rutishauser's
    // formulas below would overflow ζ (or make t subnormal): no progress, and column-
    // graded input (scales over 1e-300) hit the sweep cap. V takes the c = 1 rotation.
    const bool qs = dq < dp;
    T* xs = qs ? xq : xp;
    const T* xb = qs ? xp : xq;
    const R ds = qs ? dq : dp, db = qs ? dp : dq;
    const T cbs = qs ? cpq : conj(cpq);  // x_bᴴx_s / (d_b·d_s)
    const R is = R(1) / ds, ib = R(1) / db;
    for (index i = 0; i < len; ++i) xs[i] = (xs[i] * is - cbs * (xb[i] * ib)) * ds;
    if (vp) {
      const R r = ds / db;
      jrot(nv, vp, vq, R(1), qs ? T(-cpq * r) : T(cpq * r));
    }
    const R f = (R(1) - cosv) * (R(1) + cosv);
    (qs ? dq : dp) = f > R(0.5) ? ds * std::sqrt(f) : col_norm(xs, len, ds * std::sqrt(std::max(f, R(0))));
    return true;
  }
  // Rutishauser's formulas, with the square roots and divisions kept to a minimum
  // (at small n this scalar part costs as much as the vector work).
  const R rq = dq / dp, irq = R(1) / rq;
  const R zeta = (rq - irq) * (R(0.5) / cosv);
  const R az = std::abs(zeta);
  const R ta = az < R(1) / eps<T>() ? R(1) / (az + std::sqrt(1 + az * az)) : R(0.5) / az;
  const R t = std::copysign(ta, zeta);
  const R c = R(1) / std::sqrt(1 + t * t), s = c * t;
  T z;
  if constexpr (is_complex_v<T>) z = cpq * (s / cosv);
  else z = cpq > 0 ? s : -s;
  rotate_pair(xp, xq, len, vp, vq, nv, c, z, xnext, carry, have_carry);
  // Tracked norms; recomputed when cancellation would spoil them.
  const R tc = t * cosv;
  const R fp = 1 - tc * rq;
  const R fq = 1 + tc * irq;
  dp = fp > R(0.5) ? dp * std::sqrt(fp) : col_norm(xp, len, dp);
  dq = fq > R(0.5) ? dq * std::sqrt(fq) : col_norm(xq, len, dq);
  return true;
}

// jacobi_pair for the common case, both columns of moderate norm (the caller checks
// lo2 ≤ ‖x_p‖², ‖x_q‖² ≤ hi2, so no square or product below can under- or overflow):
// the same rotation from the squared norms ap = ‖x_p‖², bq = ‖x_q‖² and g = x_pᴴx_q.
// The test |g|² > tol²·ap·bq and ζ = (bq − ap)/(2|g|) need no square root, and the
// row keeps ap instead of ‖x_p‖ (a' = ap − t·|g|), so the chain of dependent divisions
// and square roots from one pair to the next is about half as long; at n = 64 that
// chain, not the vector work, sets the speed.
template <class T>
bool jacobi_pair_sq(T* xp, T* xq, index len, T* vp, T* vq, index nv, real_t<T>& ap, real_t<T>& dq, real_t<T> tol2,
                    const T* xnext, T& carry, bool& have_carry) {
  using R = real_t<T>;
  const bool had = have_carry;
  have_carry = false;
  const T g = had ? carry : jdotc(len, xp, xq);
  const R bq = dq * dq;
  R g2;
  if constexpr (is_complex_v<T>) g2 = g.real() * g.real() + g.imag() * g.imag();
  else g2 = g * g;
  if (!(g2 > tol2 * ap * bq)) return false;
  R ag;
  if constexpr (is_complex_v<T>) ag = std::sqrt(g2);
  else ag = std::abs(g);
  const R zeta = (bq - ap) * (R(0.5) / ag);
  const R az = std::abs(zeta);
  // tan θ = 1/(|ζ| + w) = w − |ζ| with w = √(1 + ζ²), and cos θ = √((1 + |ζ|/w)/2)
  // (cos 2θ = |ζ|/w; no cancellation): the two divisions run side by side, one fewer
  // step in the chain than c = 1/√(1 + t²).
  R ta, c;
  if (az < R(1) / eps<T>()) {
    const R w = std::sqrt(1 + az * az);
    ta = R(1) / (az + w);
    c = std::sqrt(R(0.5) + R(0.5) * (az / w));
  } else {
    ta = R(0.5) / az;
    c = 1;
  }
  const R t = std::copysign(ta, zeta);
  const R s = c * t;
  T z;
  if constexpr (is_complex_v<T>) z = g * (s / ag);
  else z = g > 0 ? s : -s;
  rotate_pair(xp, xq, len, vp, vq, nv, c, z, xnext, carry, have_carry);
  // Tracked squared norms; recomputed when cancellation would spoil them.
  const R tg = t * ag;
  const R a2 = ap - tg, b2 = bq + tg;
  if (a2 > R(0.5) * ap) {
    ap = a2;
  } else {
    const R np = col_norm(xp, len, std::sqrt(std::max(a2, R(0))));
    ap = np * np;
  }
  dq = b2 > R(0.5) * bq ? std::sqrt(b2) : col_norm(xq, len, dq);
  return true;
}

// Columns X[p], V[p] and d[p] moved to position q for the permutation `to` (new j holds
// old to[j]).
template <class T>
void permute_columns(T* X, index len, T* V, index nv, std::vector<real_t<T>>& d, const std::vector<index>& to) {
  const index n = static_cast<index>(to.size());
  std::vector<T> tmp(static_cast<size_t>(n * std::max(len, nv)));
  std::vector<real_t<T>> dd(d);
  for (index j = 0; j < n; ++j) std::copy(X + to[j] * len, X + to[j] * len + len, tmp.data() + j * len);
  std::copy(tmp.data(), tmp.data() + n * len, X);
  if (V) {
    for (index j = 0; j < n; ++j) std::copy(V + to[j] * nv, V + to[j] * nv + nv, tmp.data() + j * nv);
    std::copy(tmp.data(), tmp.data() + n * nv, V);
  }
  for (index j = 0; j < n; ++j) d[j] = dd[to[j]];
}

// One-sided Jacobi on the n columns of X (each `len` long, contiguous, stride len),
// accumulating the rotations into V (n columns of length n) when V is non-null.
// d holds the column norms on return. run() returns the sweeps used, or -1 if the cap was
// hit.
//
// One thread or small n: row-cyclic order with de Rijk pivoting (the largest remaining
// column moves to p). Larger n with threads: columns sorted by norm at each sweep, cut into
// 2P blocks; a sweep is one round of within-block pairs and 2P−1 rounds of block pairs
// (round-robin), each round's P block pairs disjoint and run in parallel. Every round ends
// in a barrier that waits for the slowest thread (one the OS has parked costs a whole time
// slice), hence one block pair per thread and no more. On one thread the plain row-cyclic
// order wins at every size measured: it needs about a sweep less on random matrices.
template <class T>
class JacobiSweeps {
  using R = real_t<T>;

 public:
  JacobiSweeps(T* X, index len, index n, T* V, std::vector<R>& d, int max_threads)
      : X_(X), len_(len), n_(n), V_(V), d_(d) {
    tol_ = std::sqrt(static_cast<R>(std::max<index>(len, 1))) * eps<T>();
    tol2_ = tol_ * tol_;
    // The squared-norm steps run while both norms are in [lo, hi]: tol²·‖x_p‖²·‖x_q‖²
    // stays above smallest_normal/eps and every square below overflow.
    lo2_ = std::sqrt(smallest_normal<T>() / eps<T>()) / tol_;
    hi2_ = std::sqrt(std::numeric_limits<R>::max()) * R(1e-2);
    P_ = max_threads > 0 ? std::min(max_threads, num_threads()) : num_threads();
    if (in_parallel_region()) P_ = 1;
    // Two threads start to win at these sizes (docs/decisions.md, "Native: parallel,
    // BLAS-1, SVD").
    blocked_ = P_ > 1 && n >= (is_complex_v<T> ? 128 : 256);
    bstart_.resize(2 * P_ + 1);
    for (index b = 0; b <= 2 * P_; ++b) bstart_[b] = b * n / (2 * P_);
    wave_ = !is_complex_v<T> && jk<R>().angles;
    if (wave_) {
      // e[-16 … n + 15] exist: the `wave` kernel's masked loads and stores reach there.
      ebuf_.assign(n + 32, R(0));
      e_ = ebuf_.data() + 16;
      sqf_.assign(n, 0);
    }
  }

  int run() {
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      for (index j = 0; j < n_; ++j) d_[j] = col_norm(x(j), len_, d_[j]);
      const index rotations = blocked_ ? sweep_blocked() : wave_ ? sweep_waves() : sweep_pairs();
      if (rotations == 0) {
        final_norms();
        return sweep + 1;
      }
    }
    final_norms();
    return -1;
  }

 private:
  // One row of pairs (p, q), q ascending, as a state machine so that two rows can be
  // interleaved. While `sq`, ap = ‖x_p‖² is current and d[p] is stale.
  struct Row {
    index p;
    R ap;
    bool sq;
    T carry;
    bool have;
  };

  T* x(index j) const { return X_ + j * len_; }
  T* v(index j) const { return V_ ? V_ + j * n_ : nullptr; }

  void final_norms() {
    for (index j = 0; j < n_; ++j) d_[j] = blas1::nrm2(len_, x(j), 1);
  }

  Row start(index p) const {
    const R ap = d_[p] * d_[p];
    return Row{p, ap, ap >= lo2_ && ap <= hi2_ && d_[p] >= smallest_normal<T>(), T{}, false};
  }

  // Pair (r.p, q); q1 ends the row (the next pair's dot product is fused in when q + 1 < q1).
  index step(Row& r, index q, index q1) {
    const index p = r.p;
    T* xn = q + 1 < q1 ? x(q + 1) : static_cast<T*>(nullptr);
    const R bq = d_[q] * d_[q];
    bool rotated;
    if (r.sq && bq >= lo2_ && bq <= hi2_) {
      rotated = jacobi_pair_sq(x(p), x(q), len_, v(p), v(q), n_, r.ap, d_[q], tol2_, xn, r.carry, r.have);
      if (!(r.ap >= lo2_ && r.ap <= hi2_)) {
        d_[p] = std::sqrt(r.ap);
        r.sq = false;
      }
    } else {
      if (r.sq) d_[p] = std::sqrt(r.ap);
      rotated = jacobi_pair(x(p), x(q), len_, v(p), v(q), n_, d_[p], d_[q], tol_, xn, r.carry, r.have);
      r.ap = d_[p] * d_[p];
      r.sq = r.ap >= lo2_ && r.ap <= hi2_ && d_[p] >= smallest_normal<T>();
    }
    return rotated ? 1 : 0;
  }

  void finish(Row& r) {
    if (r.sq) d_[r.p] = std::sqrt(r.ap);
  }

  // Row pa over q in [qa, q1), then row pb over [qb, q1) (qb ≥ qa; pb < 0: none), with
  // the same result as running them one after the other: pb trails pa by two columns,
  // so it only touches columns pa is done with, and the two rows' chains of dependent
  // divisions and square roots overlap in the CPU (at small n they, not the vector
  // work, set the speed). Row pb reads its norm at its first step, not before: when pb
  // is in [qa, q1), row pa's rotation of (pa, pb) changes it, and a stale norm steers
  // all of row pb (a sweep more on random matrices).
  void rows(index pa, index qa, index pb, index qb, index q1, index& cnt) {
    Row a = start(pa);
    if (pb < 0) {
      for (index q = qa; q < q1; ++q) cnt += step(a, q, q1);
      finish(a);
      return;
    }
    Row b{};
    bool b_started = false;
    for (index q = qa; q < q1; ++q) {
      cnt += step(a, q, q1);
      if (q - 2 >= qb) {
        if (!b_started) {
          b = start(pb);
          b_started = true;
        }
        cnt += step(b, q - 2, q1);
      }
    }
    finish(a);
    if (!b_started) b = start(pb);
    for (index q = std::max(qb, q1 - 2); q < q1; ++q) cnt += step(b, q, q1);
    finish(b);
  }

  // de Rijk: the largest column of [p, end) moves to p.
  void pivot(index p, index end) {
    index best = p;
    for (index q = p + 1; q < end; ++q)
      if (d_[q] > d_[best]) best = q;
    if (best != p) {
      blas1::swap(len_, x(p), 1, x(best), 1);
      if (V_) blas1::swap(n_, v(p), 1, v(best), 1);
      std::swap(d_[p], d_[best]);
    }
  }

  // Squared norms e[j] of the wavefront: current where sqf[j], else d[j] is.
  void set_norm(index j, R nrm) {
    d_[j] = nrm;
    const R a = nrm * nrm;
    sqf_[j] = nrm >= smallest_normal<T>() && a >= lo2_ && a <= hi2_;
    e_[j] = a;
  }
  void set_sq(index j, R a) {
    e_[j] = a;
    if (!(a >= lo2_ && a <= hi2_)) {
      d_[j] = std::sqrt(a);
      sqf_[j] = 0;
    }
  }
  R norm_of(index j) const { return sqf_[j] ? std::sqrt(e_[j]) : d_[j]; }

  // f(j) for the columns rows p … p + k − 1 against [qa, qe) touch. Only those: with
  // threads, the columns between two blocks belong to another thread's block pair.
  template <class F>
  static void touched(index p, index k, index qa, index qe, F&& f) {
    if (qa <= p + k) {
      for (index j = p, end = std::max(p + k, qe); j < end; ++j) f(j);
    } else {
      for (index j = p; j < p + k; ++j) f(j);
      for (index j = qa; j < qe; ++j) f(j);
    }
  }

  // Real data: rows p … p + k − 1 (k ≤ kWaveStep) of the row-cyclic order against the
  // columns [qa, qe) as a wavefront. Row p + j handles column q at time step t = q + j, so
  // the k pairs of one step are disjoint, and every pair still comes after the pairs it
  // follows in the row-cyclic order (the same rotations as running the rows one after the
  // other). A step takes the k dot products, then all k angles at once (`angles`: SIMD
  // registers, so the dependent divisions and square roots of k pairs overlap instead of
  // forming one chain per pair), then the k rotations; the `wave` kernel, where there is
  // one, runs all steps of a wave. Pairs outside the squared-norm range take the general
  // step (jacobi_pair).
  void wave_rows(index p, index k, index qa, index qe, index& cnt) {
    touched(p, k, qa, qe, [&](index j) { set_norm(j, d_[j]); });
    WaveCarry wc;
    index t = std::max(qa, p + 1);
    const index tend = qe + k - 1;
    bool all_sq = true;
    touched(p, k, qa, qe, [&](index j) { all_sq = all_sq && sqf_[j]; });
    if (jk<R>().wave && all_sq) t = wave_kernel(p, k, qa, qe, t, cnt);
    for (; t < tend; ++t) wave_step(p, k, qa, qe, t, cnt, wc);
    touched(p, k, qa, qe, [&](index j) {
      if (sqf_[j]) d_[j] = std::sqrt(e_[j]);
    });
  }

  // The ISA's whole-wave kernel from step t on; returns the step where it stopped.
  index wave_kernel(index p, index k, index qa, index qe, index t, index& cnt) {
    if constexpr (is_complex_v<T>) {
      return t;
    } else {
      t = jk<R>().wave(X_, len_, V_, n_, p, k, qa, qe, t, e_, tol2_, lo2_, hi2_, &cnt);
      // A squared norm may have left the range (or not been recomputable from the plain
      // sum of squares): the wave then stopped early (also possible at its last step),
      // and the general steps take over.
      touched(p, k, qa, qe, [&](index j) {
        if (e_[j] < 0) set_norm(j, blas1::nrm2(len_, x(j), 1));
        else if (!(e_[j] >= lo2_ && e_[j] <= hi2_)) set_norm(j, std::sqrt(e_[j]));
      });
      return t;
    }
  }

  // Composed wavefront steps (no wave_step kernel): g of row j's pair at the next step,
  // computed in row j − 1's rotation pass; bit j of `bits` says it is current. One per
  // wave_rows call (threads run waves of their own).
  struct WaveCarry {
    R g[kWaveStep] = {};
    unsigned bits = 0;
  };

  // Step t of the wavefront: rows p + j with max(qa, p + j + 1) ≤ q = t − j < qe.
  void wave_step(index p, index k, index qa, index qe, index t, index& cnt, WaveCarry& wc) {
    if constexpr (!is_complex_v<T>) {
      const auto& K = jk<R>();
      const index j0 = std::max<index>(0, t - (qe - 1));
      const index j1 = std::min<index>(k - 1, std::min<index>(t - qa, (t - p - 1) / 2));
      alignas(64) R g[kWaveStep], ap[kWaveStep], bq[kWaveStep], c[kWaveStep], z[kWaveStep], a2[kWaveStep],
          b2[kWaveStep];
      R* xs[kWaveStep];
      R* ys[kWaveStep];
      R* vs[kWaveStep];
      R* ws[kWaveStep];
      int lane_row[kWaveStep];
      const unsigned carried = wc.bits;
      wc.bits = 0;
      unsigned general = 0;
      int nl = 0;
      for (index j = j0; j <= j1; ++j) {
        const index pj = p + j, q = t - j;
        if (sqf_[pj] && sqf_[q]) {
          xs[nl] = x(pj);
          ys[nl] = x(q);
          if (V_) {
            vs[nl] = v(pj);
            ws[nl] = v(q);
          }
          ap[nl] = e_[pj];
          bq[nl] = e_[q];
          lane_row[nl++] = static_cast<int>(j);
        } else {
          general |= 1u << j;
        }
      }
      for (int l = nl; l < kWaveStep; ++l) ap[l] = bq[l] = 1;
      unsigned m = 0;
      if (nl > 0) {
        if (K.wave_step) {
          m = K.wave_step(xs, ys, V_ ? vs : nullptr, ws, nl, len_, n_, ap, bq, tol2_, a2, b2);
        } else {
          for (int l = 0; l < kWaveStep; ++l)
            g[l] = l >= nl ? R(0) : carried >> lane_row[l] & 1u ? wc.g[lane_row[l]] : K.dot(xs[l], ys[l], len_);
          for (int h = 0; h < nl; h += kWave)
            m |= K.angles(g + h, ap + h, bq + h, tol2_, c + h, z + h, a2 + h, b2 + h) << h;
          // Rows in decreasing order, so that row j + 1's column is final when row j's
          // rotation pass also takes g of row j + 1's next pair (p + j + 1, t − j): that dot
          // product then costs one load per element instead of a pass of its own. Row 0's
          // pass also takes its own next pair (p, t + 1), whose column no row touches at t.
          // rot(y, x, c, −s) gives the bits of rot(x, y, c, s).
          for (int l = nl - 1; l >= 0; --l) {
            if (!(m >> l & 1u)) continue;
            const index j = lane_row[l], nq = t - j;
            const bool next = j + 1 < k && nq >= std::max(qa, p + j + 2);
            const bool own = j == 0 && t + 1 < qe && K.rot_dot2 && len_ >= kOwnCarryMin;
            if (next && own) {
              K.rot_dot2(ys[l], xs[l], x(p + 1), x(t + 1), len_, c[l], -z[l], &wc.g[1], &wc.g[0]);
              wc.bits |= 3u;
            } else if (next) {
              wc.g[j + 1] = K.rot_dot(ys[l], xs[l], x(p + j + 1), len_, c[l], -z[l]);
              wc.bits |= 1u << (j + 1);
            } else if (own) {
              wc.g[0] = K.rot_dot(xs[l], ys[l], x(t + 1), len_, c[l], z[l]);
              wc.bits |= 1u;
            } else {
              K.rot(xs[l], ys[l], len_, c[l], z[l]);
            }
            if (V_) K.rot(vs[l], ws[l], n_, c[l], z[l]);
          }
        }
      }
      for (int l = 0; l < nl; ++l) {
        if (!(m >> l & 1u)) continue;
        ++cnt;
        const index pj = p + lane_row[l], q = t - lane_row[l];
        // Tracked squared norms; recomputed when cancellation would spoil them.
        if (a2[l] > R(0.5) * ap[l]) set_sq(pj, a2[l]);
        else set_norm(pj, col_norm(xs[l], len_, std::sqrt(std::max(a2[l], R(0)))));
        if (b2[l] > R(0.5) * bq[l]) set_sq(q, b2[l]);
        else set_norm(q, col_norm(ys[l], len_, std::sqrt(bq[l])));
      }
      if (general) wc.bits = 0;  // the general steps below may change the carries' columns
      for (index j = j0; j <= j1; ++j) {
        if (!(general >> j & 1u)) continue;
        const index pj = p + j, q = t - j;
        R dp = norm_of(pj), dq = norm_of(q);
        T carry{};
        bool have = false;
        cnt += jacobi_pair(x(pj), x(q), len_, v(pj), v(q), n_, dp, dq, tol_, static_cast<const T*>(nullptr), carry,
                           have);
        set_norm(pj, dp);
        set_norm(q, dq);
      }
    }
  }

  // Row-cyclic sweep of real data as wavefronts, with de Rijk's pivoting per wave: the k
  // largest remaining columns, in decreasing order, move to p … p + k − 1.
  index sweep_waves() {
    index rotations = 0;
    const index rows_per_wave = wave_rows_for<R>(len_);
    for (index p = 0; p + 1 < n_; p += rows_per_wave) {
      const index k = std::min<index>(rows_per_wave, n_ - 1 - p);
      index kk = 0;
      for (; kk < k; ++kk) {
        pivot(p + kk, n_);
        if (d_[p + kk] < smallest_normal<T>()) break;  // everything from here on is zero to working precision
      }
      if (kk > 0) wave_rows(p, kk, p + 1, n_, rotations);
      if (kk < k) break;
    }
    return rotations;
  }

  // Row-cyclic sweep, de Rijk's pivoting two rows at a time: the two largest remaining
  // columns move to p and p + 1.
  index sweep_pairs() {
    index rotations = 0;
    for (index p = 0; p + 1 < n_; p += 2) {
      pivot(p, n_);
      if (d_[p] < smallest_normal<T>()) break;  // everything left is zero to working precision
      const bool two = p + 2 < n_;
      if (two) pivot(p + 1, n_);
      rows(p, p + 1, two && d_[p + 1] >= smallest_normal<T>() ? p + 1 : -1, p + 2, n_, rotations);
      if (two && d_[p + 1] < smallest_normal<T>()) break;
    }
    return rotations;
  }

  // Pairs inside block b. de Rijk inside the block (the swaps stay inside the block this
  // task owns), two rows at a time, or as wavefronts for real data.
  void within(index b, index& cnt) {
    const index end = bstart_[b + 1];
    if (wave_) {
      const index wr = wave_rows_for<R>(len_);
      for (index p = bstart_[b]; p + 1 < end; p += wr) {
        const index k = std::min<index>(wr, end - 1 - p);
        for (index j = 0; j < k; ++j) pivot(p + j, end);
        wave_rows(p, k, p + 1, end, cnt);
      }
      return;
    }
    for (index p = bstart_[b]; p < end; p += 2) {
      pivot(p, end);
      const bool two = p + 2 < end;
      if (two) pivot(p + 1, end);
      rows(p, p + 1, two ? p + 1 : -1, p + 2, end, cnt);
    }
  }

  // Pairs with one column in block a and one in block b; the lower block plays the rows.
  void across(index a, index b, index& cnt) {
    if (a > b) std::swap(a, b);
    const index end = bstart_[a + 1];
    if (wave_) {
      const index wr = wave_rows_for<R>(len_);
      for (index p = bstart_[a]; p < end; p += wr) {
        const index k = std::min<index>(wr, end - p);
        for (index j = 0; j < k; ++j) pivot(p + j, end);
        wave_rows(p, k, bstart_[b], bstart_[b + 1], cnt);
      }
      return;
    }
    for (index p = bstart_[a]; p < end; p += 2) {
      pivot(p, end);
      const bool two = p + 1 < end;
      if (two) pivot(p + 1, end);
      rows(p, bstart_[b], two ? p + 1 : -1, bstart_[b], bstart_[b + 1], cnt);
    }
  }

  // Blocked sweep on P threads: columns sorted by norm, one round of within-block pairs,
  // then the circle method over nb = 2P blocks (block nb − 1 fixed, the others rotate).
  index sweep_blocked() {
    const index H = P_, m1 = 2 * H - 1;
    std::vector<index> order(n_);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](index a, index b) { return d_[a] > d_[b]; });
    permute_columns(X_, len_, V_, n_, d_, order);
    std::vector<index> counts(H, 0);
    parallel_for(H, 1, [&](index t0, index t1) {
      for (index t = t0; t < t1; ++t) {
        within(2 * t, counts[t]);
        within(2 * t + 1, counts[t]);
      }
    }, P_);
    for (index r = 0; r < m1; ++r) {
      parallel_for(H, 1, [&](index t0, index t1) {
        for (index t = t0; t < t1; ++t) {
          if (t == 0) across(r, m1, counts[t]);
          else across((r + t) % m1, (r - t + m1) % m1, counts[t]);
        }
      }, P_);
    }
    index rotations = 0;
    for (index c : counts) rotations += c;
    return rotations;
  }

  T* X_;
  index len_, n_;
  T* V_;
  std::vector<R>& d_;
  R tol_, tol2_, lo2_, hi2_;
  int P_;
  bool blocked_, wave_;
  std::vector<index> bstart_;
  std::vector<R> ebuf_;
  R* e_ = nullptr;
  std::vector<char> sqf_;
};

template <class T>
int jacobi(T* X, index len, index n, T* V, std::vector<real_t<T>>& d, int max_threads) {
  return JacobiSweeps<T>(X, len, n, V, d, max_threads).run();
}

// Storage of the Jacobi iterates X and V: columns of 64 doubles start on cache lines, so
// the AVX-512 kernels' loads and stores do not straddle two lines (with std::vector's
// 16-byte alignment every one did).
template <class T>
struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <class U>
  Aligned64(const Aligned64<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(64)); }
  template <class U>
  bool operator==(const Aligned64<U>&) const { return true; }
  template <class U>
  bool operator!=(const Aligned64<U>&) const { return false; }
};
template <class T>
using AVec = std::vector<T, Aligned64<T>>;

// Replaces the columns of W (n columns of length n, contiguous) whose flag is false by
// unit vectors orthogonal to all the others: unit vectors e_k, Gram–Schmidt'ed twice.
template <class T>
void complete_basis(T* W, index n, std::vector<char>& good) {
  using R = real_t<T>;
  std::vector<T> v(n);
  index cursor = 0;
  for (index j = 0; j < n; ++j) {
    if (good[j]) continue;
    for (index tries = 0; tries < n; ++tries) {
      const index k = (cursor + tries) % n;
      std::fill(v.begin(), v.end(), T(0));
      v[k] = T(1);
      for (int pass = 0; pass < 2; ++pass)
        for (index i = 0; i < n; ++i) {
          if (!good[i]) continue;
          const T* w = W + i * n;
          blas1::axpy(n, T(-jdotc(n, w, v.data())), w, 1, v.data(), 1);
        }
      const R nv = blas1::nrm2(n, v.data(), 1);
      if (nv > R(0.5)) {
        for (index r = 0; r < n; ++r) W[j * n + r] = v[r] / nv;
        good[j] = 1;
        cursor = k + 1;
        break;
      }
    }
  }
}

// Householder QR with column pivoting (LAPACK geqp2/laqp2), unblocked, in place on
// row-major B (m×n, m ≥ n), in geqrf's storage (R above, v_i below the diagonal, tau),
// so apply_q reads it. perm follows the column swaps. Used only for strongly row-graded
// input (see svd_tall): Cox–Higham's row-wise backward stability of Householder QR needs
// rows sorted AND columns pivoted; a static column sort is not enough there.
template <class T>
void geqp2(T* B, index m, index n, T* tau, std::vector<index>& perm) {
  using R = real_t<T>;
  std::vector<R> vn1(n), vn2(n);
  std::vector<T> col(m), w(n);
  for (index j = 0; j < n; ++j) {
    for (index i = 0; i < m; ++i) col[i] = B[i * n + j];
    vn1[j] = vn2[j] = blas1::nrm2(m, col.data(), 1);
  }
  const R tol3z = std::sqrt(eps<T>());
  for (index i = 0; i < n; ++i) {
    index pvt = i;
    for (index j = i + 1; j < n; ++j)
      if (vn1[j] > vn1[pvt]) pvt = j;
    if (pvt != i) {
      for (index r = 0; r < m; ++r) std::swap(B[r * n + i], B[r * n + pvt]);
      std::swap(perm[i], perm[pvt]);
      vn1[pvt] = vn1[i];
      vn2[pvt] = vn2[i];
    }
    qr_detail::larfg(B[i * n + i], B + (i + 1) * n + i, m - i - 1, n, tau[i]);
    if (i + 1 < n) {
      // B[i:, i+1:] ← H_iᴴ·B[i:, i+1:] with v(i) = 1, row by row for the row-major layout.
      const index nc = n - i - 1;
      T* wi = w.data() + i + 1;
      std::copy(B + i * n + i + 1, B + i * n + n, wi);
      for (index r = i + 1; r < m; ++r) blas1::axpy(nc, conj(B[r * n + i]), B + r * n + i + 1, 1, wi, 1);
      blas1::scal(nc, conj(tau[i]), wi, 1);
      blas1::axpy(nc, T(-1), wi, 1, B + i * n + i + 1, 1);
      for (index r = i + 1; r < m; ++r) blas1::axpy(nc, T(-B[r * n + i]), wi, 1, B + r * n + i + 1, 1);
      // Downdate the partial column norms; recompute where cancellation would spoil them.
      for (index j = i + 1; j < n; ++j) {
        if (vn1[j] == R(0)) continue;
        R t = std::abs(B[i * n + j]) / vn1[j];
        t = std::max(R(0), (R(1) + t) * (R(1) - t));
        const R q = vn1[j] / vn2[j];
        if (t * q * q <= tol3z) {
          for (index r = i + 1; r < m; ++r) col[r] = B[r * n + j];
          vn1[j] = vn2[j] = i + 1 < m ? blas1::nrm2(m - i - 1, col.data() + i + 1, 1) : R(0);
        } else {
          vn1[j] *= std::sqrt(t);
        }
      }
    }
  }
}

// The SVD's first step on a tall matrix given by an accessor (m ≥ n): B = the matrix
// scaled by 1/scale, rows sorted by decreasing max-norm, columns by decreasing 2-norm
// (static pivoting), row-major m×n. rmax, rmin: the largest and the smallest nonzero row
// max-norm (0 and Inf when all rows are zero).
template <class T, class Get>
void sorted_scaled_copy(Get a, index m, index n, real_t<T> scale, std::vector<T>& B, std::vector<index>& cperm,
                        std::vector<index>& rperm, real_t<T>& rmax, real_t<T>& rmin) {
  using R = real_t<T>;
  // `scale` is a power of two (exact scaling); 1/scale may overflow when it is
  // subnormal, so such inputs are scaled element by element (the bound is the type's:
  // float32 data at 1e-40 has se = -133, and 2^133 is Inf in float).
  const int se = std::ilogb(scale);
  const bool direct = se > -std::numeric_limits<R>::max_exponent && se < std::numeric_limits<R>::max_exponent;
  const R inv = direct ? std::ldexp(R(1), -se) : R(1);
  auto scl = [&](T v) -> T {
    if (direct) return v * inv;
    if constexpr (is_complex_v<T>) return T(std::ldexp(v.real(), -se), std::ldexp(v.imag(), -se));
    else return std::ldexp(v, -se);
  };
  std::vector<R> cn(n, R(0)), rn(m, R(0));
  {
    std::vector<T> colbuf(m);
    for (index j = 0; j < n; ++j) {
      for (index i = 0; i < m; ++i) {
        colbuf[i] = scl(a(i, j));
        rn[i] = std::max(rn[i], abs1(colbuf[i]));
      }
      cn[j] = blas1::nrm2(m, colbuf.data(), 1);
    }
  }
  cperm.resize(n);
  rperm.resize(m);
  std::iota(cperm.begin(), cperm.end(), 0);
  std::iota(rperm.begin(), rperm.end(), 0);
  std::stable_sort(cperm.begin(), cperm.end(), [&](index x, index y) { return cn[x] > cn[y]; });
  std::stable_sort(rperm.begin(), rperm.end(), [&](index x, index y) { return rn[x] > rn[y]; });
  B.resize(static_cast<size_t>(m * n));
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) B[i * n + j] = scl(a(rperm[i], cperm[j]));
  rmax = 0;
  rmin = std::numeric_limits<R>::infinity();
  for (index i = 0; i < m; ++i)
    if (rn[i] > R(0)) { rmax = std::max(rmax, rn[i]); rmin = std::min(rmin, rn[i]); }
}

// ‖I − VᴴV‖_F for V n×n (column-major, as Vm views it); G gets VᴴV.
template <class T>
real_t<T> departure_from_orthonormal(MatMut<T> Vm, std::vector<T>& G, int max_threads) {
  using R = real_t<T>;
  const index n = Vm.rows;
  G.assign(static_cast<size_t>(n * n), T(0));
  gemm<T>(T(1), Vm.ref().h(), Vm.ref(), T(0), MatMut<T>{G.data(), n, n, n, 1}, max_threads);
  R err = 0;
  for (index i = 0; i < n; ++i)
    for (index j = 0; j < n; ++j) {
      const R e = std::abs(G[i * n + j] - (i == j ? T(1) : T(0)));
      err += e * e;
    }
  return std::sqrt(err);
}

// Jacobi on X without accumulating the rotations (almost half the work of a sweep), then
// V from R·V = X_final by one triangular solve, R the triangle X was formed from (tri).
// The solve is backward stable, so A = U·Σ·Vᴴ holds to the extent that V is
// orthonormal; that is checked (‖I − VᴴV‖_F ≤ 24·n·eps, which needs κ(R) of order n at
// most; up to twice that, one Newton–Schulz step restores it). Returns false, with X as
// it came, when the check fails (the caller sweeps again, accumulating).
template <class T>
bool jacobi_then_solve_for_v(AVec<T>& X, index n, MatRef<T> tri, bool tri_upper, AVec<T>& V, std::vector<real_t<T>>& d, int& sweeps,
                             int max_threads) {
  using R = real_t<T>;
  AVec<T> X0(X);
  sweeps = jacobi(X.data(), n, n, static_cast<T*>(nullptr), d, max_threads);
  R dmax = 0, dmin = std::numeric_limits<R>::infinity();
  for (index j = 0; j < n; ++j) { dmax = std::max(dmax, d[j]); dmin = std::min(dmin, d[j]); }
  bool have_v = false;
  if (sweeps >= 0 && dmin >= smallest_normal<T>() && dmax / dmin < R(1) / (std::sqrt(eps<T>()) * 64)) {
    V = AVec<T>(X);
    MatMut<T> Vm{V.data(), n, n, 1, n};
    trsm<T>(Side::Left, tri_upper, false, T(1), tri, Vm, max_threads);
    std::vector<T> G;
    const R err = departure_from_orthonormal(Vm, G, max_threads);
    have_v = err <= 24 * n * eps<T>();  // NaN fails too
    if (!have_v && err <= 48 * n * eps<T>()) {
      // One Newton–Schulz step, V ← V·(3I − VᴴV)/2, squares the departure from
      // orthonormality; it moves V by about err/2, which the backward error absorbs.
      for (index i = 0; i < n; ++i)
        for (index j = 0; j < n; ++j) G[i * n + j] = (i == j ? T(R(1.5)) : T(0)) - G[i * n + j] * R(0.5);
      AVec<T> V2(V.size());
      gemm<T>(T(1), Vm.ref(), MatRef<T>{G.data(), n, n, n, 1, false}, T(0), MatMut<T>{V2.data(), n, n, 1, n},
              max_threads);
      V = std::move(V2);
      have_v = true;
    }
  }
  if (!have_v) X = std::move(X0);
  return have_v;
}

// The tall SVD's outputs from the converged Jacobi iterate X (columns of norm d) and V:
// S sorted; Ut = Rowperm⁻¹ · Q · [W 0; 0 I] with W the normalised columns of X (completed
// to a basis where the value is zero); Vt = P·V (A·P = Q·R and R = W·Σ·Vᴴ).
template <class T>
void tall_outputs(AVec<T>& X, const AVec<T>& V, std::vector<real_t<T>>& d, MatRef<T> Bq, const T* tau,
                  const std::vector<index>& rperm, const std::vector<index>& cperm, index m, index n, index uc,
                  real_t<T> scale, real_t<T>* S, T* Ut, T* Vt, bool uv, int max_threads) {
  using R = real_t<T>;
  std::vector<index> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (index j = 0; j < n; ++j)
    if (!(d[j] >= smallest_normal<T>())) d[j] = 0;  // below the smallest normal: zero
  std::stable_sort(order.begin(), order.end(), [&](index x, index y) { return d[x] > d[y]; });
  for (index i = 0; i < n; ++i) S[i] = d[order[i]] * scale;
  if (!uv) return;
  std::vector<char> good(n);
  for (index j = 0; j < n; ++j) {
    good[j] = d[j] > 0;
    if (good[j]) blas1::scal(n, R(1) / d[j], X.data() + j * n, 1);
  }
  complete_basis(X.data(), n, good);
  std::vector<T> C(static_cast<size_t>(m * uc), T(0));
  for (index i = 0; i < n; ++i)
    for (index c = 0; c < n; ++c) C[i * uc + c] = X[order[c] * n + i];
  for (index i = n; i < uc; ++i) C[i * uc + i] = T(1);
  apply_q<T>(Bq, tau, n, false, MatMut<T>{C.data(), m, uc, uc, 1}, max_threads);
  for (index i = 0; i < m; ++i) std::copy(&C[i * uc], &C[i * uc] + uc, Ut + rperm[i] * uc);
  for (index r = 0; r < n; ++r)
    for (index c = 0; c < n; ++c) Vt[cperm[r] * n + c] = V[order[c] * n + r];
}

// SVD of a tall matrix given by an accessor (m ≥ n): a(i, j) = element of the tall
// matrix. Outputs Ut (m×uc row-major, uc = full ? m : n) and Vt (n×n row-major) as
// U_tall, V_tall (not adjoint), S (n values). Returns info.
template <class T, class Get>
int svd_tall(Get a, index m, index n, real_t<T> scale, real_t<T>* S, T* Ut, T* Vt, bool uv, bool full,
             int max_threads, const SvdOptions& opts) {
  using R = real_t<T>;
  const index uc = full ? m : n;
  std::vector<T> B, tau(n);
  std::vector<index> cperm, rperm;
  R rmax, rmin;
  sorted_scaled_copy<T>(a, m, n, scale, B, cperm, rperm, rmax, rmin);
  MatMut<T> Bm{B.data(), m, n, n, 1};
  const bool pivot = opts.pivot == SvdOptions::Pivot::Auto ? rmax > rmin * kPivotGrading<R>()
                                                           : opts.pivot == SvdOptions::Pivot::Always;
  if (pivot) geqp2(B.data(), m, n, tau.data(), cperm);
  else geqrf(Bm, tau.data(), max_threads);

  // Second preconditioner (gejsv): the QR of R1ᴴ = Q2·R2, and Jacobi runs on
  // L = R2ᴴ = R1·Q2. L has the singular values and left vectors of R1 and the same row
  // grading (Q2 acts from the right), but the two QRs leave it closer to diagonal (a
  // sweep fewer on random matrices). R1 = W·Σ·(Q2·Z)ᴴ when L·Z = W·Σ.
  // Real n ≤ 128: the wavefront sweeps are cheap enough that the second QR and its
  // apply_q cost more than the sweep they save, and Jacobi runs on R1 itself. Strongly
  // row-graded input keeps the second QR at every size (accuracy: docs/decisions.md).
  const bool two_qr = is_complex_v<T> || n > 128 || pivot;
  std::vector<T> C2(two_qr ? static_cast<size_t>(n * n) : 0, T(0)), tau2(two_qr ? n : 0);
  MatMut<T> C2m{C2.data(), n, n, n, 1};
  if (two_qr) {
    for (index i = 0; i < n; ++i)
      for (index j = 0; j <= i; ++j) C2[i * n + j] = conj(B[j * n + i]);
    geqrf(C2m, tau2.data(), max_threads);
  }
  // X = L, stored by columns: L(i, j) = conj(R2(j, i)) for i ≥ j; or R1 by columns.
  AVec<T> X(static_cast<size_t>(n * n), T(0)), V;
  for (index j = 0; j < n; ++j)
    if (two_qr)
      for (index i = j; i < n; ++i) X[j * n + i] = conj(C2[j * n + i]);
    else
      for (index i = 0; i <= j; ++i) X[j * n + i] = B[i * n + j];
  std::vector<R> d(n);
  int sweeps = -1;
  bool have_v = false;
  // Below kSolveForVMin accumulating the rotations is cheaper than the solve and the check.
  if (uv && n >= kSolveForVMin && opts.solve_for_v) {
    // X's triangle: L = R2ᴴ (lower) or R1 (upper).
    const MatRef<T> tri = two_qr ? C2m.ref().h() : MatRef<T>{B.data(), n, n, n, 1, false};
    have_v = jacobi_then_solve_for_v(X, n, tri, !two_qr, V, d, sweeps, max_threads);
  }
  if (!have_v) {
    if (uv) {
      V.assign(static_cast<size_t>(n * n), T(0));
      for (index j = 0; j < n; ++j) V[j * n + j] = T(1);
    }
    sweeps = jacobi(X.data(), n, n, uv ? V.data() : nullptr, d, max_threads);
  }
  if (uv && two_qr) apply_q<T>(C2m.ref(), tau2.data(), n, false, MatMut<T>{V.data(), n, n, 1, n}, max_threads);
  tall_outputs(X, V, d, Bm.ref(), tau.data(), rperm, cperm, m, n, uc, scale, S, Ut, Vt, uv, max_threads);
  return sweeps < 0 ? 1 : 0;
}

}  // namespace

namespace svd_detail {
template <class R> const JacobiKernels<R>& jacobi_kernels() { return g_jacobi<R>; }
template const JacobiKernels<float>& jacobi_kernels<float>();
template const JacobiKernels<double>& jacobi_kernels<double>();
}  // namespace svd_detail

template <class T>
int svd(const T* A, index m, index n, real_t<T>* S, T* U, T* Vh, bool uv, bool full, int max_threads,
        const SvdOptions& opts) {
  using R = real_t<T>;
  const index k = std::min(m, n);
  const index ur = m, uc = full ? m : k, vr = full ? n : k, vc = n;
  // One pass over the real components, in lanes so that it vectorises: the largest
  // magnitude (complex: the larger of |re| and |im|) and whether all are finite (x − x is
  // 0 exactly for finite x).
  R scale = 0;
  bool finite = true;
  {
    const R* a = reinterpret_cast<const R*>(A);
    const index len = m * n * (is_complex_v<T> ? 2 : 1);
    R top[8] = {};
    bool bad[8] = {};
    index i = 0;
    for (; i + 8 <= len; i += 8)
      for (int l = 0; l < 8; ++l) {
        bad[l] |= (a[i + l] - a[i + l]) != 0;
        top[l] = std::max(top[l], std::abs(a[i + l]));
      }
    for (; i < len; ++i) {
      bad[0] |= (a[i] - a[i]) != 0;
      top[0] = std::max(top[0], std::abs(a[i]));
    }
    for (int l = 0; l < 8; ++l) {
      finite = finite && !bad[l];
      scale = std::max(scale, top[l]);
    }
  }
  if (!finite) {
    const R nan = std::numeric_limits<R>::quiet_NaN();
    std::fill(S, S + k, nan);
    if (uv) {
      std::fill(U, U + ur * uc, T(nan));
      std::fill(Vh, Vh + vr * vc, T(nan));
    }
    return -1;
  }
  if (scale > 0) scale = std::ldexp(R(1), std::ilogb(scale));  // a power of two: exact scaling
  if (scale == 0 || k == 0) {
    std::fill(S, S + k, R(0));
    if (uv) {
      for (index i = 0; i < ur; ++i)
        for (index j = 0; j < uc; ++j) U[i * uc + j] = i == j ? T(1) : T(0);
      for (index i = 0; i < vr; ++i)
        for (index j = 0; j < vc; ++j) Vh[i * vc + j] = i == j ? T(1) : T(0);
    }
    return 0;
  }
  // Real and complex alike (complex gebrd leaves a real bidiagonal).
  if (!uv && opts.values != SvdOptions::Values::Jacobi &&
      (opts.values == SvdOptions::Values::Bidiagonal || ungraded(A, m, n)))
    return svd_detail::svdvals_bidiag<T>(A, m, n, scale, S, max_threads);
  // With vectors, the same criterion: gebrd + divide and conquer (docs/svd.md); Jacobi
  // where the input is graded, where Values::Jacobi or a non-default Jacobi option (pivot,
  // solve_for_v) asks for it, or where bdsdc declines.
  const bool jacobi_opts = opts.pivot != SvdOptions::Pivot::Auto || !opts.solve_for_v;
  if (uv && opts.values != SvdOptions::Values::Jacobi && !jacobi_opts &&
      (opts.values == SvdOptions::Values::Bidiagonal || (dc_faster(m, n) && ungraded(A, m, n))) &&
      svd_detail::svd_bidiag<T>(A, m, n, scale, S, U, Vh, full, max_threads))
    return 0;
  if (m >= n) {
    std::vector<T> Vt(uv ? static_cast<size_t>(n * n) : 0);
    int info = svd_tall<T>([&](index i, index j) { return A[i * n + j]; }, m, n, scale, S, U, Vt.data(), uv,
                           full, max_threads, opts);
    if (uv)
      for (index i = 0; i < n; ++i)
        for (index j = 0; j < n; ++j) Vh[i * n + j] = conj(Vt[j * n + i]);
    return info;
  }
  // Wide: Aᴴ = Uₜ·Σ·Vₜᴴ is tall, and A = Vₜ·Σ·Uₜᴴ.
  const index tuc = full ? n : m;
  std::vector<T> Ut(uv ? static_cast<size_t>(n * tuc) : 0);
  int info = svd_tall<T>([&](index i, index j) { return conj(A[j * n + i]); }, n, m, scale, S, Ut.data(), U, uv,
                         full, max_threads, opts);
  if (uv)
    for (index i = 0; i < tuc; ++i)
      for (index j = 0; j < n; ++j) Vh[i * n + j] = conj(Ut[j * tuc + i]);
  return info;
}

#define LAPIS_INST(T) \
  template int svd<T>(const T*, index, index, real_t<T>*, T*, T*, bool, bool, int, const SvdOptions&);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
