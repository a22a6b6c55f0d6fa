// C++-only test of the Gated DeltaNet kernels (lapis/gdn.hpp): gdn_forward (chunked WY form)
// against the token-by-token recurrence in long double over both layouts, chunk 16/32/64,
// short last chunks, grouped value heads, packed sequences, qkL2norm and an initial state;
// gdn_recurrent_step against the same recurrence; gdn_backward against central finite
// differences of the double forward; the status codes with NaN outputs. Exits non-zero on
// any failure.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "lapis/gdn.hpp"
#include "lapis/parallel.hpp"
#include "test_util.hpp"

using lapis::GdnProblem;
using lapis::index;
using lapis_test::Info;

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261202);

void check(bool ok, const char* what, const char* type, const char* name, double v) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    std::printf("FAIL %s %s %s: %.3e\n", what, type, name, v);
  }
}

struct Case {
  const char* name;
  index B, T, H, HV, dk, dv;
  bool bhtd, varlen, l2, s0;
  int chunk;
  std::vector<int32_t> cu;  // packed offsets (varlen)
};

struct Data {
  std::vector<double> q, k, v, beta, g, S0;
};

GdnProblem problem(const Case& c, std::vector<int32_t>& start, std::vector<int32_t>& len) {
  GdnProblem p;
  p.batch = c.B, p.time = c.T, p.heads = c.H, p.vheads = c.HV, p.dk = c.dk, p.dv = c.dv;
  p.bhtd = c.bhtd, p.varlen = c.varlen, p.chunk = c.chunk, p.scale = 0.7, p.qk_l2norm = c.l2;
  start.clear(), len.clear();
  if (c.varlen) {
    for (size_t n = 0; n + 1 < c.cu.size(); ++n) start.push_back(c.cu[n]), len.push_back(c.cu[n + 1] - c.cu[n]);
  } else {
    for (index n = 0; n < c.B; ++n) start.push_back(0), len.push_back(static_cast<int32_t>(c.T));
  }
  p.seqs = static_cast<index>(start.size()), p.seq_start = start.data(), p.seq_len = len.data();
  return p;
}

Data random_data(const Case& c, const GdnProblem& p) {
  std::normal_distribution<double> nd(0, 1);
  std::uniform_real_distribution<double> ud(0, 1);
  Data x;
  const index nqk = c.B * c.T * c.H * c.dk, nv = c.B * c.T * c.HV * c.dv, ng = c.B * c.T * c.HV;
  for (index i = 0; i < nqk; ++i) x.q.push_back(nd(g_rng)), x.k.push_back(nd(g_rng) / std::sqrt(double(c.dk)));
  for (index i = 0; i < nv; ++i) x.v.push_back(nd(g_rng));
  for (index i = 0; i < ng; ++i) x.beta.push_back(0.1 + 0.8 * ud(g_rng)), x.g.push_back(-0.02 - 0.3 * ud(g_rng));
  if (c.s0) for (index i = 0; i < p.seqs * c.HV * c.dk * c.dv; ++i) x.S0.push_back(0.5 * nd(g_rng));
  return x;
}

// The recurrence in long double: o and the final states.
void reference(const GdnProblem& p, const Data& x, std::vector<long double>& o, std::vector<long double>& Sf) {
  const auto sqk = lapis::gdn_strides(p, p.heads, p.dk), sv = lapis::gdn_strides(p, p.vheads, p.dv), sg = lapis::gdn_strides(p, p.vheads, 1);
  o.assign(x.v.size(), 0), Sf.assign(p.seqs * p.vheads * p.dk * p.dv, 0);
  for (index n = 0; n < p.seqs; ++n) {
    const index row = p.varlen ? 0 : n;
    for (index hv = 0; hv < p.vheads; ++hv) {
      const index h = hv / (p.vheads / p.heads);
      std::vector<long double> S(p.dk * p.dv, 0), qt(p.dk), kt(p.dk), u(p.dv);
      if (!x.S0.empty()) for (index i = 0; i < p.dk * p.dv; ++i) S[i] = x.S0[(n * p.vheads + hv) * p.dk * p.dv + i];
      for (index t = p.seq_start[n]; t < p.seq_start[n] + p.seq_len[n]; ++t) {
        long double sq = 0, sk = 0;
        for (index d = 0; d < p.dk; ++d) {
          qt[d] = x.q[row * sqk.sB + t * sqk.sT + h * sqk.sH + d], kt[d] = x.k[row * sqk.sB + t * sqk.sT + h * sqk.sH + d];
          sq += qt[d] * qt[d], sk += kt[d] * kt[d];
        }
        if (p.qk_l2norm) for (index d = 0; d < p.dk; ++d) qt[d] /= std::sqrt(sq + 1e-6L), kt[d] /= std::sqrt(sk + 1e-6L);
        const index gi = row * sg.sB + t * sg.sT + hv * sg.sH;
        const long double a = std::exp(static_cast<long double>(x.g[gi])), b = x.beta[gi];
        for (index e = 0; e < p.dv; ++e) {
          u[e] = 0;
          for (index d = 0; d < p.dk; ++d) u[e] += kt[d] * S[d * p.dv + e];
        }
        const index vi = row * sv.sB + t * sv.sT + hv * sv.sH;
        for (index d = 0; d < p.dk; ++d)
          for (index e = 0; e < p.dv; ++e) S[d * p.dv + e] = a * S[d * p.dv + e] + b * kt[d] * (x.v[vi + e] - a * u[e]);
        for (index e = 0; e < p.dv; ++e) {
          long double acc = 0;
          for (index d = 0; d < p.dk; ++d) acc += S[d * p.dv + e] * qt[d];
          o[vi + e] = p.scale * acc;
        }
      }
      for (index i = 0; i < p.dk * p.dv; ++i) Sf[(n * p.vheads + hv) * p.dk * p.dv + i] = S[i];
    }
  }
}

template <class T> std::vector<T> as(const std::vector<double>& a) { return std::vector<T>(a.begin(), a.end()); }

template <class T, class R>
double rel_err(const std::vector<T>& x, const std::vector<R>& ref) {
  long double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) num += (x[i] - ref[i]) * (x[i] - ref[i]), den += ref[i] * ref[i];
  return static_cast<double>(std::sqrt(num / den));
}

template <class T>
void forward_case(const Case& c, index value_block = 0) {
  std::vector<int32_t> start, len;
  GdnProblem p = problem(c, start, len);
  p.forward_value_block = value_block;
  const Data x = random_data(c, p);
  std::vector<long double> o_ref, S_ref;
  reference(p, x, o_ref, S_ref);
  auto q = as<T>(x.q), k = as<T>(x.k), v = as<T>(x.v), beta = as<T>(x.beta), g = as<T>(x.g), S0 = as<T>(x.S0);
  std::vector<T> o(v.size()), Sf(S_ref.size());
  std::vector<int32_t> st(p.seqs * p.vheads, -1);
  lapis::gdn_forward<T>(p, q.data(), k.data(), v.data(), beta.data(), g.data(), c.s0 ? S0.data() : nullptr, o.data(), Sf.data(),
                        st.data());
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
  double e = rel_err(o, o_ref);
  check(e <= tol, "forward o", Info<T>::name, c.name, e);
  e = rel_err(Sf, S_ref);
  check(e <= tol, "forward final state", Info<T>::name, c.name, e);
  bool ok = true;
  for (int32_t s : st) ok = ok && s == 0;
  check(ok, "forward status", Info<T>::name, c.name, 0);
}

// One token per sequence: the recurrent step equals a one-token forward.
template <class T>
void step_case() {
  const Case c{"step", 3, 1, 2, 4, 8, 6, false, false, true, true, 16, {}};
  std::vector<int32_t> start, len;
  const GdnProblem p = problem(c, start, len);
  const Data x = random_data(c, p);
  std::vector<long double> o_ref, S_ref;
  reference(p, x, o_ref, S_ref);
  auto q = as<T>(x.q), k = as<T>(x.k), v = as<T>(x.v), beta = as<T>(x.beta), g = as<T>(x.g), S0 = as<T>(x.S0);
  std::vector<T> o(v.size()), Sn(S0.size());
  std::vector<int32_t> st(p.seqs * p.vheads, -1);
  lapis::gdn_recurrent_step<T>(p.seqs, p.heads, p.vheads, p.dk, p.dv, p.scale, p.qk_l2norm, S0.data(), q.data(), k.data(), v.data(),
                               beta.data(), g.data(), o.data(), Sn.data(), st.data());
  const double tol = sizeof(T) == 4 ? 1e-6 : 1e-14;
  double e = rel_err(o, o_ref);
  check(e <= tol, "step o", Info<T>::name, c.name, e);
  e = rel_err(Sn, S_ref);
  check(e <= tol, "step state", Info<T>::name, c.name, e);
  // a NaN in v of (1, 2) and a positive g in (2, 0): only those are NaN, status 1 and 2
  v[(1 * p.vheads + 2) * p.dv + 1] = NAN;
  g[2 * p.vheads + 0] = 0.5;
  lapis::gdn_recurrent_step<T>(p.seqs, p.heads, p.vheads, p.dk, p.dv, p.scale, p.qk_l2norm, S0.data(), q.data(), k.data(), v.data(),
                               beta.data(), g.data(), o.data(), Sn.data(), st.data());
  bool ok = true;
  for (index i = 0; i < p.seqs * p.vheads; ++i) {
    const int want = i == 1 * p.vheads + 2 ? 1 : i == 2 * p.vheads ? 2 : 0;
    ok = ok && st[i] == want && std::isnan(o[i * p.dv]) == (want != 0) && std::isnan(Sn[i * p.dk * p.dv + 3]) == (want != 0);
  }
  check(ok, "step status", Info<T>::name, c.name, 0);
}

// L = Σ dO⊙o + Σ dF⊙S_final by the double forward.
double loss(const GdnProblem& p, const Data& x, const std::vector<double>& dO, const std::vector<double>& dF) {
  std::vector<double> o(x.v.size()), Sf(dF.size());
  std::vector<int32_t> st(p.seqs * p.vheads);
  lapis::gdn_forward<double>(p, x.q.data(), x.k.data(), x.v.data(), x.beta.data(), x.g.data(), x.S0.empty() ? nullptr : x.S0.data(),
                             o.data(), Sf.data(), st.data());
  double L = 0;
  for (size_t i = 0; i < o.size(); ++i) L += dO[i] * o[i];
  for (size_t i = 0; i < Sf.size(); ++i) L += dF[i] * Sf[i];
  return L;
}

void backward_case(const Case& c, index stride = 0) {
  std::vector<int32_t> start, len;
  GdnProblem p = problem(c, start, len);
  Data x = random_data(c, p);
  std::normal_distribution<double> nd(0, 1);
  std::vector<double> dO(x.v.size()), dF(p.seqs * p.vheads * p.dk * p.dv);
  for (auto& a : dO) a = nd(g_rng);
  for (auto& a : dF) a = nd(g_rng);
  std::vector<double> dq(x.q.size()), dk(x.k.size()), dv(x.v.size()), db(x.beta.size()), dg(x.g.size()), dS(x.S0.size());
  std::vector<int32_t> st(p.seqs * p.vheads, -1);
  lapis::gdn_backward<double>(p, x.q.data(), x.k.data(), x.v.data(), x.beta.data(), x.g.data(), c.s0 ? x.S0.data() : nullptr,
                              dO.data(), dF.data(), dq.data(), dk.data(), dv.data(), db.data(), dg.data(),
                              c.s0 ? dS.data() : nullptr, st.data());
  if (stride > 0) {
    // saved states every `stride` chunks: the same gradients, bit for bit
    GdnProblem ps = p;
    ps.backward_state_stride = stride;
    std::vector<double> g2[6] = {dq, dk, dv, db, dg, dS};
    for (auto& a : g2) std::fill(a.begin(), a.end(), -1.0);
    lapis::gdn_backward<double>(ps, x.q.data(), x.k.data(), x.v.data(), x.beta.data(), x.g.data(), c.s0 ? x.S0.data() : nullptr,
                                dO.data(), dF.data(), g2[0].data(), g2[1].data(), g2[2].data(), g2[3].data(), g2[4].data(),
                                c.s0 ? g2[5].data() : nullptr, st.data());
    const bool same = g2[0] == dq && g2[1] == dk && g2[2] == dv && g2[3] == db && g2[4] == dg && g2[5] == dS;
    check(same, "backward with saved states every few chunks", "double", c.name, double(stride));
  }
  std::vector<double>* ins[] = {&x.q, &x.k, &x.v, &x.beta, &x.g, &x.S0};
  const std::vector<double>* grads[] = {&dq, &dk, &dv, &db, &dg, &dS};
  const char* names[] = {"dq", "dk", "dv", "dbeta", "dg", "dS0"};
  const double h = 1e-6;
  for (int w = 0; w < 6; ++w) {
    std::vector<double>& a = *ins[w];
    if (a.empty()) continue;
    std::vector<double> fd(a.size()), an(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      const double keep = a[i];
      a[i] = keep + h;
      const double up = loss(p, x, dO, dF);
      a[i] = keep - h;
      const double dn = loss(p, x, dO, dF);
      a[i] = keep;
      fd[i] = (up - dn) / (2 * h);
      an[i] = (*grads[w])[i];
    }
    const double e = rel_err(an, fd);
    check(e <= 1e-6, names[w], "double", c.name, e);
  }
}

}  // namespace

int main(int argc, char** argv) {
  (void)argc, (void)argv;  // --quick (the aarch64 runner) changes nothing: the cases are small
  std::printf("test_gdn: threads=%d\n", lapis::num_threads());
  const std::vector<Case> cases = {
      {"bthd T37 C16 S0", 2, 37, 2, 2, 8, 6, false, false, false, true, 16, {}},
      {"bhtd T70 C32 GVA", 1, 70, 2, 6, 12, 10, true, false, false, false, 32, {}},
      {"bthd T150 C64 dk32 dv16 l2 S0", 2, 150, 1, 2, 32, 16, false, false, true, true, 64, {}},
      {"varlen GVA S0", 1, 83, 2, 4, 8, 6, false, true, false, true, 16, {0, 5, 5, 40, 83}},
      {"varlen bhtd l2 C32", 1, 100, 1, 3, 8, 8, true, true, true, false, 32, {0, 33, 64, 100}},
  };
  for (const Case& c : cases) {
    forward_case<float>(c);
    forward_case<double>(c);
  }
  // the state's columns in blocks (the last one shorter), one task each
  const Case split{"bthd T100 C32 dv 40 in column blocks of 16, S0, l2", 1, 100, 1, 1, 8, 40, false, false, true, true, 32, {}};
  forward_case<float>(split, 16);
  forward_case<double>(split, 16);
  const Case split2{"varlen GVA, column blocks of 3", 1, 83, 2, 4, 8, 7, true, true, false, true, 16, {0, 5, 5, 40, 83}};
  forward_case<double>(split2, 3);
  step_case<float>();
  step_case<double>();
  backward_case({"grad bthd S0", 2, 21, 1, 1, 4, 3, false, false, false, true, 16, {}});
  backward_case({"grad bhtd l2 GVA", 1, 19, 1, 2, 4, 3, true, false, true, true, 16, {}});
  backward_case({"grad varlen GVA", 1, 24, 2, 4, 3, 2, false, true, false, true, 16, {0, 7, 7, 24}});
  backward_case({"grad T90 l2 C32 (three chunks)", 1, 90, 1, 1, 3, 2, false, false, true, true, 32, {}});
  backward_case({"grad T150 C16 GVA, states every 2 chunks", 2, 150, 1, 2, 3, 2, false, false, true, true, 16, {}}, 2);
  backward_case({"grad varlen, states every 3 chunks", 1, 130, 1, 1, 2, 3, true, true, false, true, 16, {0, 1, 50, 130}}, 3);
  std::printf("test_gdn: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
