// Internal to the SVD: the level-1 kernels of one-sided Jacobi, on real scalars (a complex
// vector of n elements is 2n interleaved scalars), and the real reflector updates of the
// unblocked bidiagonalization (gebd2, bidiag.cpp). One family is picked at run time from
// active_isa() (lapis/isa.hpp): AVX-512 (real kernels; complex ones from AVX2), AVX2+FMA
// (so LAPIS_KERNELS=avx2 / portable force the narrower code here too), else the portable
// one. The SIMD families are one template over the packet type (jacobi_impl.hpp).
#pragma once
#include "lapis/common.hpp"

namespace lapis::svd_detail {

template <class R>
struct JacobiKernels {
  // Σ a_i·b_i over len scalars.
  R (*dot)(const R* a, const R* b, index len) = nullptr;
  // Σ conj(a_i)·b_i over n complex elements (2n scalars): (re, im).
  void (*dotc)(const R* a, const R* b, index n, R* re, R* im) = nullptr;
  // [x, y] ← [c·x − s·y, s·x + c·y] over len real scalars.
  void (*rot)(R* x, R* y, index len, R c, R s) = nullptr;
  // [x, y] ← [c·x − z̄·y, z·x + c·y] over n complex elements, z = zr + i·zi.
  void (*rotc)(R* x, R* y, index n, R c, R zr, R zi) = nullptr;
  // rot, then returns Σ x'_i·w_i: the dot product of the next Jacobi pair, fused into
  // the rotation's pass over x.
  R (*rot_dot)(R* x, R* y, const R* w, index len, R c, R s) = nullptr;
  // rotc, then conj(x')·w into (re, im).
  void (*rotc_dotc)(R* x, R* y, const R* w, index n, R c, R zr, R zi, R* re, R* im) = nullptr;
  // The rotations of kWave independent real Jacobi pairs at once, from the squared norms
  // ap = ‖x_p‖², bq = ‖x_q‖² and g = x_pᵀx_q of each (all in the range where no square
  // or product overflows or underflows; unused lanes: g = 0): returns the bit mask of the
  // lanes with g² > tol2·ap·bq and, for those, c = cos θ, z = ±sin θ (the s of rot),
  // and the updated squared norms a2 = ap − t·|g|, b2 = bq + t·|g|. The formulas and their
  // order of evaluation are those of the one-pair step (svd.cpp, jacobi_pair_sq), so a
  // lane gives the same bits as that step.
  unsigned (*angles)(const R* g, const R* ap, const R* bq, R tol2, R* c, R* z, R* a2, R* b2) = nullptr;
  // One step of the wavefront (svd.cpp) on nl ≤ kWaveStep disjoint pairs, fused: the nl
  // dot products g = x[l]ᵀy[l] (len scalars), the angles as in `angles` (a2, b2 likewise;
  // ap, bq hold kWaveStep entries, unused ones 1), and for the lanes of the returned mask
  // the rotation of (x[l], y[l]) and, when v is non-null, of (v[l], w[l]) (nv scalars).
  // Optional: svd.cpp composes it from dot, angles and rot where this is null.
  unsigned (*wave_step)(R* const* x, R* const* y, R* const* v, R* const* w, int nl, index len, index nv, const R* ap,
                        const R* bq, R tol2, R* a2, R* b2) = nullptr;
  // The whole wavefront of rows p … p + k − 1 (k ≤ kWaveStep) against the columns
  // [qa, qe) (qa ≤ p + k), from time step t0 on, while every squared norm stays in
  // [lo2, hi2]: columns j of X (and V when non-null) at X + j·len (V + j·nv), squared
  // norms in e[j] (e[-16] … e[n + 15] must exist: masked vector loads and stores reach
  // there; only the columns touched are changed). Step t handles the pairs (p + j, t − j)
  // with max(qa, p + j + 1) ≤ t − j < qe as wave_step does, tracks the squared norms as
  // jacobi_pair_sq (recomputed where cancellation would spoil them) and adds its
  // rotations to *rotations. Returns the step after the last one done: qe + k − 1 when
  // done, earlier when a squared norm left [lo2, hi2] (e then holds it, or −1 where a
  // recomputed norm could not be trusted). Optional.
  index (*wave)(R* X, index len, R* V, index nv, index p, index k, index qa, index qe, index t0, R* e, R tol2, R lo2,
                R hi2, index* rotations) = nullptr;
  // rot, then *dx = Σ x'_i·wx_i and *dy = Σ y'_i·wy_i from the same pass. Optional.
  void (*rot_dot2)(R* x, R* y, const R* wx, const R* wy, index len, R c, R s, R* dx, R* dy) = nullptr;
  // LAPACK larf on the r×c matrix C (column j at C + j·ldc), one call for the whole update:
  // from the left C ← (I − tau·v·vᵀ)·C (each column's dot product and update in one visit),
  // from the right C ← C·(I − tau·u·uᵀ) with u at stride incu (w: r scalars of scratch).
  void (*larf_left)(index r, index c, const R* v, R tau, R* C, index ldc) = nullptr;
  void (*larf_right)(index r, index c, const R* u, index incu, R tau, R* C, index ldc, R* w) = nullptr;
};

// The family active_isa() picks (svd.cpp), for the other translation units of the SVD.
template <class R> const JacobiKernels<R>& jacobi_kernels();

// Lanes of `angles`: one AVX-512 register of doubles.
constexpr int kWave = 8;
// Lanes of `wave_step`: two registers, so that two chains of divisions and square roots
// are in flight.
constexpr int kWaveStep = 16;

template <class R> JacobiKernels<R> portable_jacobi();
#if defined(__x86_64__) || defined(_M_X64)
#define LAPIS_SVD_X86 1
template <class R> JacobiKernels<R> avx2_jacobi();
template <> JacobiKernels<float> avx2_jacobi<float>();
template <> JacobiKernels<double> avx2_jacobi<double>();
template <class R> JacobiKernels<R> avx512_jacobi();
template <> JacobiKernels<float> avx512_jacobi<float>();
template <> JacobiKernels<double> avx512_jacobi<double>();
#else
#define LAPIS_SVD_X86 0
#endif

}  // namespace lapis::svd_detail
