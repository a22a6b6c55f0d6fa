// Gated DeltaNet on the CPU (lapis/gdn.hpp, docs/gdn.md).
//
// Forward: the chunked WY form, one task per (sequence, value head) on the thread pool. Per
// chunk of C tokens (the last one shorter), with γ_i = Σ_{j≤i} g_j and Γ_i = exp(γ_i):
//   A_ij = β_i·(k_i·k_j)·exp(γ_i − γ_j) (j < i),   [W | U] = (I + A)⁻¹·[diag(βΓ)·K | diag(β)·V]
//   Vn = U − W·S,   O = diag(Γ)·Q·S + ((Q·Kᵀ) ⊙ M)·Vn,   S ← Γ_last·S + (K ⊙ Γ_last/Γ)ᵀ·Vn
// with M_ij = exp(γ_i − γ_j) for j ≤ i. The products are GEMMs on one thread (the tasks fill
// the pool); (I + A)⁻¹ is applied by forward substitution. float32 computes in float, float64
// in double.
//
// Backward: the gradient of the recurrence token by token (the chunked form computes the same
// function), in double for both dtypes. The forward is recomputed with a state checkpoint every
// kCheckpoint tokens; each stretch's states are rebuilt from its checkpoint and walked back.
// One task per (sequence, key head), so the grouped value heads of a key head add their q/k
// gradients in one place (and the L2 normalisation's gradient sees their sum).
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
constexpr index kCheckpoint = 64;  // tokens between the backward's saved states

template <class T> T nan_v() { return std::numeric_limits<T>::quiet_NaN(); }

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
    // x − x is 0 for finite x and NaN otherwise: one branch per row instead of one per entry.
    T acc = 0;
    for (index d = 0; d < p.dk; ++d) acc += (qr[d] - qr[d]) + (kr[d] - kr[d]);
    for (index e = 0; e < p.dv; ++e) acc += vr[e] - vr[e];
    const T b = beta[at(sg, s, t, hv)];
    acc += b - b;
    finite = acc == 0;
    const T gt = g[at(sg, s, t, hv)];
    if (!(gt <= 0) || std::isinf(gt)) gate_ok = false;
  }
  if (finite && S0) {
    const T* s0 = S0 + (n * p.vheads + hv) * p.dk * p.dv;
    T acc = 0;
    for (index i = 0; i < p.dk * p.dv; ++i) acc += s0[i] - s0[i];
    finite = acc == 0;
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

// The chunked forward of one (sequence, value head) in arithmetic type A.
template <class T, class A>
struct ForwardTask {
  const GdnProblem& p;
  const T *q, *k, *v, *beta, *g, *S0;
  T *o, *Sout;
  std::vector<A> Q, K, X, S, KK, O, Kd, gam;
  std::vector<A> bt;

  ForwardTask(const GdnProblem& p_, const T* q_, const T* k_, const T* v_, const T* b_, const T* g_, const T* s0_, T* o_,
              T* so_)
      : p(p_), q(q_), k(k_), v(v_), beta(b_), g(g_), S0(s0_), o(o_), Sout(so_) {
    const index C = p.chunk, dk = p.dk, dv = p.dv;
    Q.resize(C * dk), K.resize(C * dk), X.resize(C * (dk + dv)), S.resize(dk * dv), KK.resize(C * C),
        O.resize(C * dv), Kd.resize(C * dk), gam.resize(C), bt.resize(C);
  }

  void nan_fill(index n, index hv) {
    const Seq s = seq_of(p, n);
    const GdnStrides sv = gdn_strides(p, p.vheads, p.dv);
    for (index t = 0; t < s.len; ++t) std::fill_n(o + at(sv, s, t, hv), p.dv, nan_v<T>());
    std::fill_n(Sout + (n * p.vheads + hv) * p.dk * p.dv, p.dk * p.dv, nan_v<T>());
  }

  void run(index n, index hv) {
    const index dk = p.dk, dv = p.dv, R = dk + dv, C = p.chunk;
    const index h = hv / (p.vheads / p.heads);
    const Seq s = seq_of(p, n);
    const GdnStrides sqk = gdn_strides(p, p.heads, dk), sv = gdn_strides(p, p.vheads, dv), sg = gdn_strides(p, p.vheads, 1);
    const index sidx = (n * p.vheads + hv) * dk * dv;
    if (S0) for (index i = 0; i < dk * dv; ++i) S[i] = static_cast<A>(S0[sidx + i]);
    else std::fill(S.begin(), S.end(), A(0));
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
        const T* vr = v + at(sv, s, t0 + i, hv);
        for (index e = 0; e < dv; ++e) x[dk + e] = bt[i] * static_cast<A>(vr[e]);
      }
      gemm<A>(A(1), cref(K.data(), m, dk, dk), cref(K.data(), m, dk, dk).t(), A(0), mref(KK.data(), m, m, C), 1);
      for (index i = 1; i < m; ++i) {
        A* xi = &X[i * R];
        for (index j = 0; j < i; ++j) {
          const A a = bt[i] * KK[i * C + j] * std::exp(gam[i] - gam[j]);
          if (a == A(0)) continue;
          const A* xj = &X[j * R];
          for (index c = 0; c < R; ++c) xi[c] -= a * xj[c];
        }
      }
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
        for (index j = 0; j <= i; ++j) KK[i * C + j] *= std::exp(gam[i] - gam[j]);
        for (index j = i + 1; j < m; ++j) KK[i * C + j] = A(0);
      }
      gemm<A>(A(1), cref(KK.data(), m, m, C), Vn, A(1), mref(O.data(), m, dv, dv), 1);
      for (index i = 0; i < m; ++i) {
        T* orow = o + at(sv, s, t0 + i, hv);
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
    for (index i = 0; i < dk * dv; ++i) Sout[sidx + i] = static_cast<T>(S[i]);
  }
};

template <class T> struct Compute { using type = T; };  // float32 in float, float64 in double

}  // namespace

template <class T>
void gdn_forward(const GdnProblem& p, const T* q, const T* k, const T* v, const T* beta, const T* g, const T* initial_state,
                 T* o, T* final_state, int32_t* status) {
  using A = typename Compute<T>::type;
  const index tasks = p.seqs * p.vheads;
  parallel_for(tasks, 1, [&](index b0, index b1) {
    ForwardTask<T, A> task(p, q, k, v, beta, g, initial_state, o, final_state);
    for (index i = b0; i < b1; ++i) {
      const index n = i / p.vheads, hv = i % p.vheads;
      status[i] = check_inputs(p, n, hv, q, k, v, beta, g, initial_state);
      if (status[i] != 0) task.nan_fill(n, hv);
      else task.run(n, hv);
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

// The backward of one (sequence, key head): every value head of its group.
template <class T>
struct BackwardTask {
  const GdnProblem& p;
  const T *q, *k, *v, *beta, *g, *S0, *dO, *dF;
  T *dq, *dk, *dv, *dbeta, *dg, *dS0;
  int32_t* status;
  std::vector<double> Qh, Kh, rq, rk, dQh, dKh, V, DO, bt, at_, ck, buf, U, D, w, dl;

  void run(index n, index h) {
    const index dkk = p.dk, dvv = p.dv, ss = dkk * dvv, group = p.vheads / p.heads;
    const Seq s = seq_of(p, n);
    const index L = s.len;
    const GdnStrides sqk = gdn_strides(p, p.heads, dkk), sv = gdn_strides(p, p.vheads, dvv), sg = gdn_strides(p, p.vheads, 1);
    Qh.assign(L * dkk, 0), Kh.assign(L * dkk, 0), rq.resize(L), rk.resize(L), dQh.assign(L * dkk, 0), dKh.assign(L * dkk, 0);
    V.resize(L * dvv), DO.resize(L * dvv), bt.resize(L), at_.resize(L);
    const index ncp = (L + kCheckpoint - 1) / kCheckpoint;
    ck.resize(std::max<index>(ncp, 1) * ss), buf.resize((kCheckpoint + 1) * ss), U.resize(kCheckpoint * dvv), D.resize(ss),
        w.resize(dvv), dl.resize(dvv);
    bool head_ok = true;
    for (index hv = h * group; hv < (h + 1) * group; ++hv) {
      const index sidx = (n * p.vheads + hv) * ss;
      const int32_t st = check_inputs(p, n, hv, q, k, v, beta, g, S0);
      status[n * p.vheads + hv] = st;
      if (st != 0) {
        head_ok = false;
        for (index t = 0; t < L; ++t) {
          std::fill_n(dv + at(sv, s, t, hv), dvv, nan_v<T>());
          dbeta[at(sg, s, t, hv)] = nan_v<T>();
          dg[at(sg, s, t, hv)] = nan_v<T>();
        }
        if (dS0) std::fill_n(dS0 + sidx, ss, nan_v<T>());
        continue;
      }
      if (hv == h * group) {  // q̂, k̂ once per key head (checked finite by now)
        for (index t = 0; t < L; ++t) {
          rq[t] = load_row(q + at(sqk, s, t, h), dkk, p.qk_l2norm, 1.0, &Qh[t * dkk]);
          rk[t] = load_row(k + at(sqk, s, t, h), dkk, p.qk_l2norm, 1.0, &Kh[t * dkk]);
        }
      }
      for (index t = 0; t < L; ++t) {
        const T* vr = v + at(sv, s, t, hv);
        const T* gr = dO + at(sv, s, t, hv);
        for (index e = 0; e < dvv; ++e) V[t * dvv + e] = static_cast<double>(vr[e]), DO[t * dvv + e] = static_cast<double>(gr[e]);
        bt[t] = static_cast<double>(beta[at(sg, s, t, hv)]);
        at_[t] = std::exp(static_cast<double>(g[at(sg, s, t, hv)]));
      }
      // Forward, saving the state before every kCheckpoint-th token.
      double* S = buf.data();
      if (S0) for (index i = 0; i < ss; ++i) S[i] = static_cast<double>(S0[sidx + i]);
      else std::fill_n(S, ss, 0.0);
      for (index c = 0; c < ncp; ++c) {
        std::copy_n(S, ss, &ck[c * ss]);
        const index t1 = std::min(L, (c + 1) * kCheckpoint);
        for (index t = c * kCheckpoint; t < t1; ++t) step(S, S, t, nullptr);
      }
      if (dF) for (index i = 0; i < ss; ++i) D[i] = static_cast<double>(dF[sidx + i]);
      else std::fill(D.begin(), D.end(), 0.0);
      for (index c = ncp - 1; c >= 0; --c) {
        const index t0 = c * kCheckpoint, m = std::min(kCheckpoint, L - t0);
        std::copy_n(&ck[c * ss], ss, buf.data());
        for (index i = 0; i < m; ++i) step(&buf[i * ss], &buf[(i + 1) * ss], t0 + i, &U[i * dvv]);
        for (index i = m - 1; i >= 0; --i) back_step(&buf[i * ss], &buf[(i + 1) * ss], t0 + i, &U[i * dvv], s, hv, sv, sg);
      }
      if (dS0) for (index i = 0; i < ss; ++i) dS0[sidx + i] = static_cast<T>(D[i]);
    }
    for (index t = 0; t < L; ++t) {
      T* dqr = dq + at(sqk, s, t, h);
      T* dkr = dk + at(sqk, s, t, h);
      if (!head_ok) {
        std::fill_n(dqr, dkk, nan_v<T>()), std::fill_n(dkr, dkk, nan_v<T>());
        continue;
      }
      write_grad(&Qh[t * dkk], &dQh[t * dkk], rq[t], dqr);
      write_grad(&Kh[t * dkk], &dKh[t * dkk], rk[t], dkr);
    }
  }

  // x̂ = r·x with r = (Σx² + ε)^−½: ∂/∂x = r·(dx̂ − x̂·(x̂·dx̂)).
  void write_grad(const double* xh, const double* dxh, double r, T* out) const {
    const index n = p.dk;
    if (!p.qk_l2norm) {
      for (index d = 0; d < n; ++d) out[d] = static_cast<T>(dxh[d]);
      return;
    }
    double dot = 0;
    for (index d = 0; d < n; ++d) dot += xh[d] * dxh[d];
    for (index d = 0; d < n; ++d) out[d] = static_cast<T>(r * (dxh[d] - xh[d] * dot));
  }

  // S_t = a·S_{t−1} + β·k·(v − a·u)ᵀ with u = S_{t−1}ᵀk (saved in u_out when given). Sp may be Sn.
  void step(const double* Sp, double* Sn, index t, double* u_out) {
    const index dkk = p.dk, dvv = p.dv;
    const double* kt = &Kh[t * dkk];
    const double a = at_[t], b = bt[t];
    std::fill(dl.begin(), dl.end(), 0.0);
    for (index d = 0; d < dkk; ++d) {
      const double kd = kt[d];
      const double* row = Sp + d * dvv;
      for (index e = 0; e < dvv; ++e) dl[e] += kd * row[e];
    }
    if (u_out) std::copy(dl.begin(), dl.end(), u_out);
    const double* vt = &V[t * dvv];
    for (index e = 0; e < dvv; ++e) dl[e] = vt[e] - a * dl[e];
    for (index d = 0; d < dkk; ++d) {
      const double bk = b * kt[d];
      const double* src = Sp + d * dvv;
      double* dst = Sn + d * dvv;
      for (index e = 0; e < dvv; ++e) dst[e] = a * src[e] + bk * dl[e];
    }
  }

  // One token backwards: D = ∂L/∂S_t in, ∂L/∂S_{t−1} out; the token's gradients written.
  void back_step(const double* Sp, const double* Sn, index t, const double* u, const Seq& s, index hv, const GdnStrides& sv,
                 const GdnStrides& sg) {
    const index dkk = p.dk, dvv = p.dv;
    const double* qt = &Qh[t * dkk];
    const double* kt = &Kh[t * dkk];
    const double* dot_ = &DO[t * dvv];
    const double a = at_[t], b = bt[t], sc = p.scale;
    double* dqt = &dQh[t * dkk];
    double* dkt = &dKh[t * dkk];
    // o_t = scale·S_tᵀq̂: ∂q̂ += scale·S_t·do, D += scale·q̂·doᵀ; then w = Dᵀk, ⟨D, S_{t−1}⟩.
    std::fill(w.begin(), w.end(), 0.0);
    double dS = 0;
    for (index d = 0; d < dkk; ++d) {
      const double* sn = Sn + d * dvv;
      const double* sp = Sp + d * dvv;
      double* Dr = &D[d * dvv];
      const double sq = sc * qt[d], kd = kt[d];
      double acc = 0, acc2 = 0;
      for (index e = 0; e < dvv; ++e) {
        acc += sn[e] * dot_[e];
        Dr[e] += sq * dot_[e];
        w[e] += kd * Dr[e];
        acc2 += Dr[e] * sp[e];
      }
      dqt[d] += sc * acc;
      dS += acc2;
    }
    // δ = v − a·u;  ∂v = β·w, ∂β = w·δ, ∂a = ⟨D, S_{t−1}⟩ − β·w·u, ∂g = a·∂a
    const double* vt = &V[t * dvv];
    double wd = 0, wu = 0;
    for (index e = 0; e < dvv; ++e) {
      dl[e] = vt[e] - a * u[e];
      wd += w[e] * dl[e];
      wu += w[e] * u[e];
    }
    T* dvr = dv + at(sv, s, t, hv);
    for (index e = 0; e < dvv; ++e) dvr[e] = static_cast<T>(b * w[e]);
    dbeta[at(sg, s, t, hv)] = static_cast<T>(wd);
    dg[at(sg, s, t, hv)] = static_cast<T>(a * (dS - b * wu));
    // ∂k̂ += β·D·δ − a·β·S_{t−1}·w;  D ← a·(D − β·k·wᵀ)
    for (index d = 0; d < dkk; ++d) {
      const double* sp = Sp + d * dvv;
      double* Dr = &D[d * dvv];
      double x1 = 0, x2 = 0;
      for (index e = 0; e < dvv; ++e) {
        x1 += Dr[e] * dl[e];
        x2 += sp[e] * w[e];
      }
      dkt[d] += b * x1 - a * b * x2;
      const double bk = b * kt[d];
      for (index e = 0; e < dvv; ++e) Dr[e] = a * (Dr[e] - bk * w[e]);
    }
  }
};

}  // namespace

template <class T>
void gdn_backward(const GdnProblem& p, const T* q, const T* k, const T* v, const T* beta, const T* g,
                  const T* initial_state, const T* d_o, const T* d_final, T* dq, T* dk, T* dv, T* dbeta, T* dg,
                  T* d_initial_state, int32_t* status) {
  parallel_for(p.seqs * p.heads, 1, [&](index b0, index b1) {
    BackwardTask<T> task{p, q, k, v, beta, g, initial_state, d_o, d_final, dq, dk, dv, dbeta, dg,
                         initial_state ? d_initial_state : nullptr, status, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                         {}, {}, {}, {}};
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
