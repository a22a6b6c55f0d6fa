// Gated DeltaNet on the CPU (lapis/gdn.hpp, docs/gdn.md).
//
// Forward: the chunked WY form, one task per (sequence, value head) on the thread pool. Per
// chunk of C tokens (the last one shorter), with γ_i = Σ_{j≤i} g_j and Γ_i = exp(γ_i):
//   A_ij = β_i·(k_i·k_j)·exp(γ_i − γ_j) (j < i),   [W | U] = (I + A)⁻¹·[diag(βΓ)·K | diag(β)·V]
//   Vn = U − W·S,   O = diag(Γ)·Q·S + ((Q·Kᵀ) ⊙ M)·Vn,   S ← Γ_last·S + (K ⊙ Γ_last/Γ)ᵀ·Vn
// with M_ij = exp(γ_i − γ_j) for j ≤ i. The products are GEMMs on one thread (the tasks fill
// the pool); (I + A)⁻¹ is applied by blocked forward substitution. With fewer pairs than threads
// the state's columns (independent recurrences) are split into blocks, one task each. float32
// computes in float, float64 in double.
//
// Backward: reverse mode through the same chunked form, chunks walked back from the last, each
// recomputing W, U, Vn, A from the state h entering it (saved by a forward pass). With D = ∂L/∂S'
// (the state after the chunk), Q = scale·q̂, Γ_m = Γ_last, Kd = K ⊙ Γ_m/Γ, P = (Q·Kᵀ) ⊙ M:
//   dVn = Kd·D + Pᵀ·dO,  dKd = Vn·Dᵀ,  dγ_m += Γ_m·⟨D, h⟩,  dK += Kd's factor ⊙ dKd (and its dγ)
//   dQ = diag(Γ)·dO·hᵀ + (dP ⊙ M)·K,  dK += (dP ⊙ M)ᵀ·Q,  dP = dO·Vnᵀ,  dγ_i += Γ_i·dO_i·(Q·h)_i
//   dW = −dVn·hᵀ,  ∂L/∂h = Γ_m·D + Qᵀ·diag(Γ)·dO − Wᵀ·dVn
//   dR = (I + A)⁻ᵀ·[dW | dVn],  dA = −dR·[W | U]ᵀ (strictly lower),  R = [diag(βΓ)·K | diag(β)·V]
//   A_ij = β_i·(k_i·k_j)·exp(γ_i − γ_j) → dK += F·K + Fᵀ·K with F_ij = dA_ij·β_i·exp(γ_i − γ_j), dβ, dγ
//   every exp(γ_i − γ_j) factor x adds dx·x to dγ_i and subtracts it from dγ_j; dg = reverse cumsum of dγ.
// One task per (sequence, key head), so the grouped value heads of a key head add their q/k
// gradients in one place (and the L2 normalisation's gradient sees their sum). In double for
// both dtypes: the ± pairs that make dγ cancel, and float arithmetic left dg of float32 inputs
// ~1e-5 off under strong decay (double: the inputs' rounding, ~1e-7).
#include "lapis/gdn.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"

namespace lapis {
namespace {

constexpr double kNormEps = 1e-6;  // flash-linear-attention's l2norm: x / sqrt(Σx² + 1e-6)

template <class T> T nan_v() { return std::numeric_limits<T>::quiet_NaN(); }

// The backward saves the state entering every chunk up to this size per task, every √chunks-th beyond.
constexpr double kSavedStateBytes = 32.0 * 1024 * 1024;

// Where the tokens of sequence n lie: element (token t, head hh, d) of a tensor with `st`
// strides is at base(st) + t·st.sT + hh·st.sH + d.
struct Seq {
  index row, start, len;
};
inline Seq seq_of(const GdnProblem& p, index n) {
  return {p.varlen ? 0 : n, static_cast<index>(p.seq_start[n]), static_cast<index>(p.seq_len[n])};
}
inline index at(const GdnStrides& s, const Seq& q, index t, index head) {
  return q.row * s.sB + (q.start + t) * s.sT + head * s.sH;
}

// No NaN or ±Inf among x[0..n) (an OR of compares: it vectorises, unlike a sum).
template <class T>
bool all_finite(const T* x, index n) {
  int bad = 0;
  for (index i = 0; i < n; ++i) bad |= !(std::abs(x[i]) <= std::numeric_limits<T>::max());
  return bad == 0;
}

// 0, 1 (a non-finite q/k/v/β/S0 entry) or 2 (a g > 0, NaN or −∞) for (n, hv).
template <class T>
int32_t check_inputs(const GdnProblem& p, index n, index hv, const T* q, const T* k, const T* v, const T* beta,
                     const T* g, const T* S0) {
  const Seq s = seq_of(p, n);
  const index h = hv / (p.vheads / p.heads);
  const GdnStrides sqk = gdn_strides(p, p.heads, p.dk), sv = gdn_strides(p, p.vheads, p.dv),
                   sg = gdn_strides(p, p.vheads, 1);
  bool finite = true, gate_ok = true;
  for (index t = 0; t < s.len && finite; ++t) {
    const T* qr = q + at(sqk, s, t, h);
    const T* kr = k + at(sqk, s, t, h);
    const T* vr = v + at(sv, s, t, hv);
    finite = all_finite(qr, p.dk) && all_finite(kr, p.dk) && all_finite(vr, p.dv) && all_finite(&beta[at(sg, s, t, hv)], 1);
    const T gt = g[at(sg, s, t, hv)];
    if (!(gt <= 0) || std::isinf(gt)) gate_ok = false;
  }
  if (finite && S0) {
    finite = all_finite(S0 + (n * p.vheads + hv) * p.dk * p.dv, p.dk * p.dv);
  }
  if (!finite) return 1;
  return gate_ok ? 0 : 2;
}

// Loads row `src` (dim entries) into dst in type A, divided by sqrt(Σx² + eps) when asked; returns the
// inverse norm (1 without normalisation).
template <class T, class A>
double load_row(const T* src, index dim, bool l2, double mult, A* dst) {
  double r = 1;
  if (l2) {
    double ss = 0;
    for (index d = 0; d < dim; ++d) ss += static_cast<double>(src[d]) * static_cast<double>(src[d]);
    r = 1 / std::sqrt(ss + kNormEps);
  }
  const double f = r * mult;
  for (index d = 0; d < dim; ++d) dst[d] = static_cast<A>(static_cast<double>(src[d]) * f);
  return r;
}

template <class A> MatRef<A> cref(const A* p, index m, index n, index rs) { return {p, m, n, rs, 1, false}; }
template <class A> MatMut<A> mref(A* p, index m, index n, index rs) { return {p, m, n, rs, 1}; }

constexpr index kSolveBlock = 16;  // rows per diagonal block of the chunk solves: the rest is GEMM

// X ← (I + A)⁻¹·X with A strictly lower (m×m, row stride lda; the rest never read), X m×n.
template <class A>
void unit_lower_solve(const A* Am, index lda, A* X, index m, index n, index ldx) {
  for (index i0 = 0; i0 < m; i0 += kSolveBlock) {
    const index i1 = std::min(m, i0 + kSolveBlock);
    if (i0 > 0) gemm<A>(A(-1), cref(Am + i0 * lda, i1 - i0, i0, lda), cref(X, i0, n, ldx), A(1), mref(X + i0 * ldx, i1 - i0, n, ldx), 1);
    for (index i = i0 + 1; i < i1; ++i) {
      A* xi = X + i * ldx;
      for (index j = i0; j < i; ++j) {
        const A a = Am[i * lda + j];
        if (a == A(0)) continue;
        const A* xj = X + j * ldx;
        for (index c = 0; c < n; ++c) xi[c] -= a * xj[c];
      }
    }
  }
}

// X ← (I + A)⁻ᵀ·X, A as above.
template <class A>
void unit_lower_solve_t(const A* Am, index lda, A* X, index m, index n, index ldx) {
  for (index i1 = m; i1 > 0; i1 -= kSolveBlock) {
    const index i0 = std::max<index>(0, i1 - kSolveBlock);
    if (i1 < m) {
      gemm<A>(A(-1), cref(Am + i1 * lda + i0, m - i1, i1 - i0, lda).t(), cref(X + i1 * ldx, m - i1, n, ldx), A(1),
              mref(X + i0 * ldx, i1 - i0, n, ldx), 1);
    }
    for (index j = i1 - 1; j > i0; --j) {
      const A* xj = X + j * ldx;
      for (index i = i0; i < j; ++i) {
        const A a = Am[j * lda + i];
        if (a == A(0)) continue;
        A* xi = X + i * ldx;
        for (index c = 0; c < n; ++c) xi[c] -= a * xj[c];
      }
    }
  }
}

// The chunked forward of one (sequence, value head) in arithmetic type A.
template <class T, class A>
struct ForwardTask {
  const GdnProblem& p;
  const T *q, *k, *v, *beta, *g, *S0;
  T *o, *Sout;
  std::vector<A> Q, K, X, S, KK, E, O, Kd, gam;
  std::vector<A> bt;

  ForwardTask(const GdnProblem& p_, const T* q_, const T* k_, const T* v_, const T* b_, const T* g_, const T* s0_, T* o_,
              T* so_, index width)
      : p(p_), q(q_), k(k_), v(v_), beta(b_), g(g_), S0(s0_), o(o_), Sout(so_) {
    const index C = p.chunk, dk = p.dk, dv = width;
    Q.resize(C * dk), K.resize(C * dk), X.resize(C * (dk + dv)), S.resize(dk * dv), KK.resize(C * C), E.resize(C * C),
        O.resize(C * dv), Kd.resize(C * dk), gam.resize(C), bt.resize(C);
  }

  // Columns e0 … e0 + w − 1 of (n, hv)'s o and final state.
  void nan_fill(index n, index hv, index e0, index w) {
    const Seq s = seq_of(p, n);
    const GdnStrides sv = gdn_strides(p, p.vheads, p.dv);
    for (index t = 0; t < s.len; ++t) std::fill_n(o + at(sv, s, t, hv) + e0, w, nan_v<T>());
    T* Sf = Sout + (n * p.vheads + hv) * p.dk * p.dv + e0;
    for (index d = 0; d < p.dk; ++d) std::fill_n(Sf + d * p.dv, w, nan_v<T>());
  }

  // The columns e0 … e0 + w − 1 of the state and of o (the columns are independent recurrences
  // that share the key side: W, A, the decays).
  void run(index n, index hv, index e0, index w) {
    const index dk = p.dk, dv = w, R = dk + dv, C = p.chunk;
    const index h = hv / (p.vheads / p.heads);
    const Seq s = seq_of(p, n);
    const GdnStrides sqk = gdn_strides(p, p.heads, dk), sv = gdn_strides(p, p.vheads, p.dv), sg = gdn_strides(p, p.vheads, 1);
    const index sidx = (n * p.vheads + hv) * dk * p.dv + e0;
    if (S0) {
      for (index d = 0; d < dk; ++d)
        for (index e = 0; e < dv; ++e) S[d * dv + e] = static_cast<A>(S0[sidx + d * p.dv + e]);
    } else {
      std::fill(S.begin(), S.end(), A(0));
    }
    for (index t0 = 0; t0 < s.len; t0 += C) {
      const index m = std::min(C, s.len - t0);
      double acc = 0;
      for (index i = 0; i < m; ++i) {
        const index t = t0 + i;
        load_row(q + at(sqk, s, t, h), dk, p.qk_l2norm, p.scale, &Q[i * dk]);
        load_row(k + at(sqk, s, t, h), dk, p.qk_l2norm, 1.0, &K[i * dk]);
        acc += static_cast<double>(g[at(sg, s, t, hv)]);
        gam[i] = static_cast<A>(acc);
        bt[i] = static_cast<A>(beta[at(sg, s, t, hv)]);
      }
      // Right-hand sides [β·Γ·k | β·v] per row, then (I + A)⁻¹ by forward substitution.
      for (index i = 0; i < m; ++i) {
        const A bg = bt[i] * std::exp(gam[i]);
        A* x = &X[i * R];
        for (index d = 0; d < dk; ++d) x[d] = bg * K[i * dk + d];
        const T* vr = v + at(sv, s, t0 + i, hv) + e0;
        for (index e = 0; e < dv; ++e) x[dk + e] = bt[i] * static_cast<A>(vr[e]);
      }
      gemm<A>(A(1), cref(K.data(), m, dk, dk), cref(K.data(), m, dk, dk).t(), A(0), mref(KK.data(), m, m, C), 1);
      for (index i = 0; i < m; ++i) {
        for (index j = 0; j <= i; ++j) E[i * C + j] = std::exp(gam[i] - gam[j]);
        for (index j = 0; j < i; ++j) KK[i * C + j] *= bt[i] * E[i * C + j];  // A
      }
      unit_lower_solve(KK.data(), C, X.data(), m, R, R);
      // Vn = U − W·S (in U's place).
      const MatRef<A> W = cref(X.data(), m, dk, R), Sref = cref(S.data(), dk, dv, dv);
      gemm<A>(A(-1), W, Sref, A(1), mref(X.data() + dk, m, dv, R), 1);
      const MatRef<A> Vn = cref(X.data() + dk, m, dv, R);
      // O = diag(Γ)·Q·S + ((Q·Kᵀ) ⊙ M)·Vn (Q carries the scale).
      gemm<A>(A(1), cref(Q.data(), m, dk, dk), Sref, A(0), mref(O.data(), m, dv, dv), 1);
      gemm<A>(A(1), cref(Q.data(), m, dk, dk), cref(K.data(), m, dk, dk).t(), A(0), mref(KK.data(), m, m, C), 1);
      for (index i = 0; i < m; ++i) {
        const A G = std::exp(gam[i]);
        for (index e = 0; e < dv; ++e) O[i * dv + e] *= G;
        for (index j = 0; j <= i; ++j) KK[i * C + j] *= E[i * C + j];
        for (index j = i + 1; j < m; ++j) KK[i * C + j] = A(0);
      }
      gemm<A>(A(1), cref(KK.data(), m, m, C), Vn, A(1), mref(O.data(), m, dv, dv), 1);
      for (index i = 0; i < m; ++i) {
        T* orow = o + at(sv, s, t0 + i, hv) + e0;
        for (index e = 0; e < dv; ++e) orow[e] = static_cast<T>(O[i * dv + e]);
      }
      // S ← Γ_last·S + (K ⊙ Γ_last/Γ)ᵀ·Vn
      const A gl = gam[m - 1];
      for (index j = 0; j < m; ++j) {
        const A f = std::exp(gl - gam[j]);
        for (index d = 0; d < dk; ++d) Kd[j * dk + d] = f * K[j * dk + d];
      }
      gemm<A>(A(1), cref(Kd.data(), m, dk, dk).t(), Vn, std::exp(gl), mref(S.data(), dk, dv, dv), 1);
    }
    for (index d = 0; d < dk; ++d)
      for (index e = 0; e < dv; ++e) Sout[sidx + d * p.dv + e] = static_cast<T>(S[d * dv + e]);
  }
};

template <class T> struct Compute { using type = T; };  // the forward: float32 in float, float64 in double

}  // namespace

template <class T>
void gdn_forward(const GdnProblem& p, const T* q, const T* k, const T* v, const T* beta, const T* g, const T* initial_state,
                 T* o, T* final_state, int32_t* status) {
  using A = typename Compute<T>::type;
  const index tasks = p.seqs * p.vheads;
  // Fewer (sequence, value head) pairs than threads: the state's columns split into blocks of
  // at least 32, each its own task (the key side is then computed once per block).
  index width = p.forward_value_block > 0 ? p.forward_value_block : p.dv;
  if (p.forward_value_block <= 0 && tasks > 0 && tasks < num_threads()) {
    const index blocks = std::min<index>((num_threads() + tasks - 1) / tasks, std::max<index>(1, p.dv / 32));
    width = (p.dv + blocks - 1) / blocks;
  }
  width = std::min(width, p.dv);
  const index nb = (p.dv + width - 1) / width;
  parallel_for(tasks * nb, 1, [&](index b0, index b1) {
    ForwardTask<T, A> task(p, q, k, v, beta, g, initial_state, o, final_state, width);
    for (index i = b0; i < b1; ++i) {
      const index pair = i / nb, n = pair / p.vheads, hv = pair % p.vheads, e0 = (i % nb) * width, w = std::min(width, p.dv - e0);
      const int32_t st = check_inputs(p, n, hv, q, k, v, beta, g, initial_state);
      if (e0 == 0) status[pair] = st;
      if (st != 0) task.nan_fill(n, hv, e0, w);
      else task.run(n, hv, e0, w);
    }
  });
}

template <class T>
void gdn_recurrent_step(index seqs, index heads, index vheads, index dk, index dv, double scale, bool qk_l2norm,
                        const T* state, const T* q, const T* k, const T* v, const T* beta, const T* g, T* o, T* new_state,
                        int32_t* status) {
  // A step is a one-token sequence of the (seqs, 1, heads, d) layout.
  std::vector<int32_t> start(static_cast<size_t>(seqs), 0), len(static_cast<size_t>(seqs), 1);
  GdnProblem p;
  p.batch = seqs, p.time = 1, p.heads = heads, p.vheads = vheads, p.dk = dk, p.dv = dv, p.seqs = seqs;
  p.seq_start = start.data(), p.seq_len = len.data(), p.scale = scale, p.qk_l2norm = qk_l2norm;
  const index work = dk * dv;
  parallel_for(seqs * vheads, std::max<index>(1, 16384 / std::max<index>(work, 1)), [&](index b0, index b1) {
    std::vector<double> qh(dk), kh(dk), u(dv), dl(dv);
    for (index i = b0; i < b1; ++i) {
      const index n = i / vheads, hv = i % vheads, h = hv / (vheads / heads);
      const T* S = state + i * work;
      T* Sn = new_state + i * work;
      T* on = o + i * dv;
      status[i] = check_inputs(p, n, hv, q, k, v, beta, g, state);
      if (status[i] != 0) {
        std::fill_n(Sn, work, nan_v<T>());
        std::fill_n(on, dv, nan_v<T>());
        continue;
      }
      load_row(q + (n * heads + h) * dk, dk, qk_l2norm, scale, qh.data());
      load_row(k + (n * heads + h) * dk, dk, qk_l2norm, 1.0, kh.data());
      const double a = std::exp(static_cast<double>(g[i])), b = static_cast<double>(beta[i]);
      // S' = a·S + β·k·(v − a·kᵀS)ᵀ,  o = S'ᵀ·(scale·q)
      std::fill(u.begin(), u.end(), 0.0);
      for (index d = 0; d < dk; ++d)
        for (index e = 0; e < dv; ++e) u[e] += kh[d] * static_cast<double>(S[d * dv + e]);
      const T* vr = v + i * dv;
      for (index e = 0; e < dv; ++e) dl[e] = static_cast<double>(vr[e]) - a * u[e];
      std::fill(u.begin(), u.end(), 0.0);  // now o
      for (index d = 0; d < dk; ++d) {
        const double bk = b * kh[d];
        for (index e = 0; e < dv; ++e) {
          const double s = a * static_cast<double>(S[d * dv + e]) + bk * dl[e];
          Sn[d * dv + e] = static_cast<T>(s);
          u[e] += s * qh[d];
        }
      }
      for (index e = 0; e < dv; ++e) on[e] = static_cast<T>(u[e]);
    }
  });
}

namespace {

// The chunked backward of one (sequence, key head): every value head of its group. Per value
// head, a forward pass saves the state entering each chunk; then the chunks are walked back,
// each recomputing its forward quantities (W, U, Vn, (I + A)) from that state.
template <class T, class A>
struct BackwardTask {
  const GdnProblem& p;
  const T *q, *k, *v, *beta, *g, *S0, *dO, *dF;
  T *dq, *dk, *dv, *dbeta, *dg, *dS0;
  int32_t* status;
  // per key head: q̂·scale, k̂ (L × dk), their inverse norms and gradients
  std::vector<A> Qh, Kh, dQh, dKh;
  std::vector<double> rq, rk;
  // per chunk (m ≤ C rows)
  std::vector<A> V, DOc, bt, gam, G, KK, E, Am, X, P, Kd, dX, dKd, dQ, dOG, tmp, dAm, ck, H, Sf, D, Dn, QH;
  std::vector<double> dgam;

  BackwardTask(const GdnProblem& p_, const T* q_, const T* k_, const T* v_, const T* b_, const T* g_, const T* s0_, const T* do_,
               const T* df_, T* dq_, T* dk_, T* dv_, T* db_, T* dg_, T* ds0_, int32_t* st_)
      : p(p_), q(q_), k(k_), v(v_), beta(b_), g(g_), S0(s0_), dO(do_), dF(df_), dq(dq_), dk(dk_), dv(dv_), dbeta(db_), dg(dg_),
        dS0(ds0_), status(st_) {}

  void resize() {
    const index C = p.chunk, dk_ = p.dk, dv_ = p.dv, R = dk_ + dv_;
    V.resize(C * dv_), DOc.resize(C * dv_), bt.resize(C), gam.resize(C), G.resize(C), KK.resize(C * C), E.resize(C * C), Am.resize(C * C),
        X.resize(C * R), P.resize(C * C), Kd.resize(C * dk_), dX.resize(C * R), dKd.resize(C * dk_), dQ.resize(C * dk_),
        dOG.resize(C * dv_), tmp.resize(C * C), dAm.resize(C * C), D.resize(dk_ * dv_), Dn.resize(dk_ * dv_), QH.resize(C * dv_),
        dgam.resize(C);
  }

  // Forward quantities of the chunk at t0 (m tokens) of value head hv entering with state h:
  // γ, Γ, β, V, KK = K·Kᵀ, A, X = [W | Vn] (Vn = U − W·h), P = (Q·Kᵀ) ⊙ M, Kd = K ⊙ Γ_last/Γ.
  void prepare(const Seq& s, index hv, index t0, index m, const A* h) {
    const index dk_ = p.dk, dv_ = p.dv, R = dk_ + dv_, C = p.chunk;
    const GdnStrides sv = gdn_strides(p, p.vheads, dv_), sg = gdn_strides(p, p.vheads, 1);
    const A* K = &Kh[t0 * dk_];
    const A* Q = &Qh[t0 * dk_];
    double acc = 0;
    for (index i = 0; i < m; ++i) {
      acc += static_cast<double>(g[at(sg, s, t0 + i, hv)]);
      gam[i] = static_cast<A>(acc);
      G[i] = std::exp(gam[i]);
      bt[i] = static_cast<A>(beta[at(sg, s, t0 + i, hv)]);
      const T* vr = v + at(sv, s, t0 + i, hv);
      for (index e = 0; e < dv_; ++e) V[i * dv_ + e] = static_cast<A>(vr[e]);
      A* x = &X[i * R];
      const A bg = bt[i] * G[i];
      for (index d = 0; d < dk_; ++d) x[d] = bg * K[i * dk_ + d];
      for (index e = 0; e < dv_; ++e) x[dk_ + e] = bt[i] * V[i * dv_ + e];
    }
    gemm<A>(A(1), cref(K, m, dk_, dk_), cref(K, m, dk_, dk_).t(), A(0), mref(KK.data(), m, m, C), 1);
    for (index i = 0; i < m; ++i) {
      for (index j = 0; j <= i; ++j) E[i * C + j] = std::exp(gam[i] - gam[j]);
      for (index j = 0; j < i; ++j) Am[i * C + j] = bt[i] * KK[i * C + j] * E[i * C + j];
    }
    unit_lower_solve(Am.data(), C, X.data(), m, R, R);
    gemm<A>(A(-1), cref(X.data(), m, dk_, R), cref(h, dk_, dv_, dv_), A(1), mref(X.data() + dk_, m, dv_, R), 1);
    gemm<A>(A(1), cref(Q, m, dk_, dk_), cref(K, m, dk_, dk_).t(), A(0), mref(P.data(), m, m, C), 1);
    for (index i = 0; i < m; ++i) {
      for (index j = 0; j <= i; ++j) P[i * C + j] *= E[i * C + j];
      for (index j = i + 1; j < m; ++j) P[i * C + j] = A(0);
    }
    const A gl = gam[m - 1];
    for (index j = 0; j < m; ++j) {
      const A f = std::exp(gl - gam[j]);
      for (index d = 0; d < dk_; ++d) Kd[j * dk_ + d] = f * K[j * dk_ + d];
    }
  }

  // The state after chunk c from the state h entering it (hn may be h).
  void advance(const Seq& s, index hv, index c, const A* h, A* hn) {
    const index C = p.chunk, t0 = c * C, m = std::min(C, s.len - t0), dk_ = p.dk, dv_ = p.dv;
    prepare(s, hv, t0, m, h);
    if (hn != h) std::copy_n(h, dk_ * dv_, hn);
    gemm<A>(A(1), cref(Kd.data(), m, dk_, dk_).t(), cref(X.data() + dk_, m, dv_, dk_ + dv_), std::exp(gam[m - 1]),
            mref(hn, dk_, dv_, dv_), 1);
  }

  void run(index n, index h) {
    const index dk_ = p.dk, dv_ = p.dv, ss = dk_ * dv_, group = p.vheads / p.heads, C = p.chunk;
    const Seq s = seq_of(p, n);
    const index L = s.len, nc = (L + C - 1) / C;
    const GdnStrides sqk = gdn_strides(p, p.heads, dk_), sv = gdn_strides(p, p.vheads, dv_), sg = gdn_strides(p, p.vheads, 1);
    Qh.resize(L * dk_), Kh.resize(L * dk_), rq.resize(L), rk.resize(L);
    dQh.assign(L * dk_, A(0)), dKh.assign(L * dk_, A(0));
    // Saved states: every chunk's when they fit in kSavedStateBytes, else every stride-th (the
    // stretch between two recomputed once more on the way back).
    index stride = p.backward_state_stride;
    if (stride <= 0) {
      stride = static_cast<double>(nc) * ss * sizeof(A) <= kSavedStateBytes ? 1 : static_cast<index>(std::ceil(std::sqrt(double(nc))));
    }
    ck.resize(std::max<index>((nc + stride - 1) / stride, 1) * ss), H.resize(stride * ss), Sf.resize(ss);
    resize();
    bool head_ok = true, loaded = false;
    for (index hv = h * group; hv < (h + 1) * group; ++hv) {
      const index sidx = (n * p.vheads + hv) * ss;
      const int32_t st = check_inputs(p, n, hv, q, k, v, beta, g, S0);
      status[n * p.vheads + hv] = st;
      if (st != 0) {
        head_ok = false;
        for (index t = 0; t < L; ++t) {
          std::fill_n(dv + at(sv, s, t, hv), dv_, nan_v<T>());
          dbeta[at(sg, s, t, hv)] = nan_v<T>();
          dg[at(sg, s, t, hv)] = nan_v<T>();
        }
        if (dS0) std::fill_n(dS0 + sidx, ss, nan_v<T>());
        continue;
      }
      if (!loaded) {  // q̂·scale, k̂ once per key head (checked finite by now)
        loaded = true;
        for (index t = 0; t < L; ++t) {
          rq[t] = load_row(q + at(sqk, s, t, h), dk_, p.qk_l2norm, p.scale, &Qh[t * dk_]);
          rk[t] = load_row(k + at(sqk, s, t, h), dk_, p.qk_l2norm, 1.0, &Kh[t * dk_]);
        }
      }
      // Forward: ck[j] = the state entering chunk j·stride.
      if (S0) for (index i = 0; i < ss; ++i) Sf[i] = static_cast<A>(S0[sidx + i]);
      else std::fill(Sf.begin(), Sf.end(), A(0));
      for (index c = 0; c < nc; ++c) {
        if (c % stride == 0) std::copy_n(Sf.data(), ss, &ck[(c / stride) * ss]);
        advance(s, hv, c, Sf.data(), Sf.data());
      }
      if (dF) for (index i = 0; i < ss; ++i) D[i] = static_cast<A>(dF[sidx + i]);
      else std::fill(D.begin(), D.end(), A(0));
      // Backward, a stretch of `stride` chunks at a time: H[i] = the state entering chunk c0 + i.
      for (index j = (nc + stride - 1) / stride - 1; j >= 0; --j) {
        const index c0 = j * stride, c1 = std::min(nc, c0 + stride);
        std::copy_n(&ck[j * ss], ss, H.data());
        for (index c = c0; c + 1 < c1; ++c) advance(s, hv, c, &H[(c - c0) * ss], &H[(c - c0 + 1) * ss]);
        for (index c = c1 - 1; c >= c0; --c) {
          const index t0 = c * C, m = std::min(C, L - t0);
          prepare(s, hv, t0, m, &H[(c - c0) * ss]);
          back_chunk(s, hv, t0, m, &H[(c - c0) * ss]);
        }
      }
      if (dS0) for (index i = 0; i < ss; ++i) dS0[sidx + i] = static_cast<T>(D[i]);
    }
    for (index t = 0; t < L; ++t) {
      T* dqr = dq + at(sqk, s, t, h);
      T* dkr = dk + at(sqk, s, t, h);
      if (!head_ok) {
        std::fill_n(dqr, dk_, nan_v<T>()), std::fill_n(dkr, dk_, nan_v<T>());
        continue;
      }
      write_grad(&Qh[t * dk_], &dQh[t * dk_], rq[t], p.scale, dqr);
      write_grad(&Kh[t * dk_], &dKh[t * dk_], rk[t], 1.0, dkr);
    }
  }

  // xs = f·x̂ with x̂ = r·x, r = (Σx² + ε)^−½ (f the scale for q): ∂/∂x = r·(dx̂ − x̂·(x̂·dx̂)), dx̂ = f·dxs.
  void write_grad(const A* xs, const A* dxs, double r, double f, T* out) const {
    const index n = p.dk;
    if (f == 0) {  // scale 0: o does not depend on q
      std::fill_n(out, n, T(0));
      return;
    }
    if (!p.qk_l2norm) {
      for (index d = 0; d < n; ++d) out[d] = static_cast<T>(f * static_cast<double>(dxs[d]));
      return;
    }
    double dot = 0;
    for (index d = 0; d < n; ++d) dot += static_cast<double>(xs[d]) * static_cast<double>(dxs[d]);  // = x̂·dx̂
    for (index d = 0; d < n; ++d) out[d] = static_cast<T>(r * (f * static_cast<double>(dxs[d]) - static_cast<double>(xs[d]) / f * dot));
  }

  // One chunk backwards: D = ∂L/∂(state after the chunk) in, ∂L/∂h out; gradients of the
  // chunk's tokens written (v, β, g) or added (q̂, k̂).
  void back_chunk(const Seq& s, index hv, index t0, index m, const A* h) {
    const index dk_ = p.dk, dv_ = p.dv, R = dk_ + dv_, C = p.chunk;
    const GdnStrides sv = gdn_strides(p, p.vheads, dv_), sg = gdn_strides(p, p.vheads, 1);
    const A* K = &Kh[t0 * dk_];
    const A* Q = &Qh[t0 * dk_];
    A* dK = &dKh[t0 * dk_];
    A* dQs = &dQh[t0 * dk_];
    const MatRef<A> Vn = cref(X.data() + dk_, m, dv_, R), W = cref(X.data(), m, dk_, R), hr = cref(h, dk_, dv_, dv_);
    const MatRef<A> Kr = cref(K, m, dk_, dk_), Qr = cref(Q, m, dk_, dk_);
    for (index i = 0; i < m; ++i) {
      const T* gr = dO + at(sv, s, t0 + i, hv);
      for (index e = 0; e < dv_; ++e) DOc[i * dv_ + e] = static_cast<A>(gr[e]);
      dgam[i] = 0;
    }
    const MatRef<A> dOr = cref(DOc.data(), m, dv_, dv_);
    A* dVn = dX.data() + dk_;  // dX = [dW | dVn]
    const MatMut<A> dVnm = mref(dVn, m, dv_, R), dWm = mref(dX.data(), m, dk_, R);
    const MatRef<A> Dr = cref(D.data(), dk_, dv_, dv_);
    // S' = Γ_m·h + Kdᵀ·Vn
    const index ml = m - 1;
    const A Gm = std::exp(gam[ml]);
    gemm<A>(A(1), cref(Kd.data(), m, dk_, dk_), Dr, A(0), dVnm, 1);               // dVn = Kd·D
    gemm<A>(A(1), Vn, Dr.t(), A(0), mref(dKd.data(), m, dk_, dk_), 1);           // dKd = Vn·Dᵀ
    double hd = 0;
    for (index i = 0; i < dk_ * dv_; ++i) hd += static_cast<double>(h[i]) * static_cast<double>(D[i]);
    dgam[ml] += static_cast<double>(Gm) * hd;
    for (index j = 0; j < m; ++j) {
      const A f = std::exp(gam[ml] - gam[j]);
      double c = 0;
      for (index d = 0; d < dk_; ++d) {
        c += static_cast<double>(Kd[j * dk_ + d]) * static_cast<double>(dKd[j * dk_ + d]);
        dK[j * dk_ + d] += f * dKd[j * dk_ + d];
      }
      dgam[ml] += c;
      dgam[j] -= c;
    }
    for (index i = 0; i < dk_ * dv_; ++i) Dn[i] = Gm * D[i];
    // O = diag(Γ)·Q·h + P·Vn
    gemm<A>(A(1), cref(P.data(), m, m, C).t(), dOr, A(1), dVnm, 1);             // dVn += Pᵀ·dO
    gemm<A>(A(1), Qr, hr, A(0), mref(QH.data(), m, dv_, dv_), 1);                // Q·h
    for (index i = 0; i < m; ++i) {
      double c = 0;
      for (index e = 0; e < dv_; ++e) {
        c += static_cast<double>(DOc[i * dv_ + e]) * static_cast<double>(QH[i * dv_ + e]);
        dOG[i * dv_ + e] = G[i] * DOc[i * dv_ + e];
      }
      dgam[i] += static_cast<double>(G[i]) * c;
    }
    const MatRef<A> dOGr = cref(dOG.data(), m, dv_, dv_);
    gemm<A>(A(1), dOGr, hr.t(), A(1), mref(dQs, m, dk_, dk_), 1);               // dQ += diag(Γ)·dO·hᵀ
    gemm<A>(A(1), Qr.t(), dOGr, A(1), mref(Dn.data(), dk_, dv_, dv_), 1);       // dh += Qᵀ·diag(Γ)·dO
    gemm<A>(A(1), dOr, Vn.t(), A(0), mref(tmp.data(), m, m, C), 1);             // dP = dO·Vnᵀ
    for (index i = 0; i < m; ++i) {
      for (index j = 0; j <= i; ++j) {
        const A dp = tmp[i * C + j];
        const double e = static_cast<double>(dp) * static_cast<double>(P[i * C + j]);
        dgam[i] += e;
        dgam[j] -= e;
        tmp[i * C + j] = dp * E[i * C + j];                                     // dP ⊙ M
      }
      for (index j = i + 1; j < m; ++j) tmp[i * C + j] = A(0);
    }
    const MatRef<A> dPM = cref(tmp.data(), m, m, C);
    gemm<A>(A(1), dPM, Kr, A(1), mref(dQs, m, dk_, dk_), 1);                    // dQ += (dP⊙M)·K
    gemm<A>(A(1), dPM.t(), Qr, A(1), mref(dK, m, dk_, dk_), 1);                 // dK += (dP⊙M)ᵀ·Q
    // Vn = U − W·h
    gemm<A>(A(-1), dVnm.ref(), hr.t(), A(0), dWm, 1);                           // dW = −dVn·hᵀ
    gemm<A>(A(-1), W.t(), dVnm.ref(), A(1), mref(Dn.data(), dk_, dv_, dv_), 1); // dh −= Wᵀ·dVn
    // X = (I + A)⁻¹·R: dR = (I + A)⁻ᵀ·dX (back substitution, in dX), dA = −dR·Xᵀ (strictly lower)
    unit_lower_solve_t(Am.data(), C, dX.data(), m, R, R);
    // X's W part is W, its U part was overwritten by Vn: U = Vn + W·h, rebuilt in place
    gemm<A>(A(1), W, hr, A(1), mref(X.data() + dk_, m, dv_, R), 1);
    gemm<A>(A(-1), cref(dX.data(), m, R, R), cref(X.data(), m, R, R).t(), A(0), mref(dAm.data(), m, m, C), 1);
    // R = [β·Γ·K | β·V]
    std::fill(tmp.begin(), tmp.begin() + m * C, A(0));  // F, strictly lower
    for (index i = 0; i < m; ++i) {
      const A* dRW = &dX[i * R];
      const A* dRU = dRW + dk_;
      double kw = 0, vu = 0;
      for (index d = 0; d < dk_; ++d) {
        kw += static_cast<double>(K[i * dk_ + d]) * static_cast<double>(dRW[d]);
        dK[i * dk_ + d] += bt[i] * G[i] * dRW[d];
      }
      T* dvr = dv + at(sv, s, t0 + i, hv);
      for (index e = 0; e < dv_; ++e) {
        vu += static_cast<double>(V[i * dv_ + e]) * static_cast<double>(dRU[e]);
        dvr[e] = static_cast<T>(bt[i] * dRU[e]);
      }
      double db = static_cast<double>(G[i]) * kw + vu;
      dgam[i] += static_cast<double>(bt[i]) * static_cast<double>(G[i]) * kw;
      // A_ij = β_i·(k_i·k_j)·exp(γ_i − γ_j), j < i
      for (index j = 0; j < i; ++j) {
        const A da = dAm[i * C + j];
        const A ex = E[i * C + j];
        db += static_cast<double>(da) * static_cast<double>(KK[i * C + j]) * static_cast<double>(ex);
        tmp[i * C + j] = da * bt[i] * ex;
        const double e = static_cast<double>(da) * static_cast<double>(Am[i * C + j]);
        dgam[i] += e;
        dgam[j] -= e;
      }
      dbeta[at(sg, s, t0 + i, hv)] = static_cast<T>(db);
    }
    const MatRef<A> F = cref(tmp.data(), m, m, C);
    gemm<A>(A(1), F, Kr, A(1), mref(dK, m, dk_, dk_), 1);                       // dK += F·K
    gemm<A>(A(1), F.t(), Kr, A(1), mref(dK, m, dk_, dk_), 1);                   // dK += Fᵀ·K
    // γ = cumsum(g): dg_j = Σ_{i ≥ j} dγ_i
    double acc = 0;
    for (index i = m - 1; i >= 0; --i) {
      acc += dgam[i];
      dg[at(sg, s, t0 + i, hv)] = static_cast<T>(acc);
    }
    std::swap(D, Dn);
  }
};

}  // namespace

template <class T>
void gdn_backward(const GdnProblem& p, const T* q, const T* k, const T* v, const T* beta, const T* g,
                  const T* initial_state, const T* d_o, const T* d_final, T* dq, T* dk, T* dv, T* dbeta, T* dg,
                  T* d_initial_state, int32_t* status) {
  using A = double;  // see the header comment
  parallel_for(p.seqs * p.heads, 1, [&](index b0, index b1) {
    BackwardTask<T, A> task(p, q, k, v, beta, g, initial_state, d_o, d_final, dq, dk, dv, dbeta, dg,
                            initial_state ? d_initial_state : nullptr, status);
    for (index i = b0; i < b1; ++i) task.run(i / p.heads, i % p.heads);
  });
}

#define LAPIS_GDN_INSTANTIATE(T)                                                                                          \
  template void gdn_forward<T>(const GdnProblem&, const T*, const T*, const T*, const T*, const T*, const T*, T*, T*,       \
                               int32_t*);                                                                                 \
  template void gdn_recurrent_step<T>(index, index, index, index, index, double, bool, const T*, const T*, const T*,        \
                                      const T*, const T*, const T*, T*, T*, int32_t*);                                     \
  template void gdn_backward<T>(const GdnProblem&, const T*, const T*, const T*, const T*, const T*, const T*, const T*,    \
                                const T*, T*, T*, T*, T*, T*, T*, int32_t*);
LAPIS_GDN_INSTANTIATE(float)
LAPIS_GDN_INSTANTIATE(double)
#undef LAPIS_GDN_INSTANTIATE

}  // namespace lapis
