#include <cmath>
#include <string>

#include "async_work.hpp"
#include "common.hpp"
#include "lapis/gdn.hpp"

namespace lapis::binding {
namespace {

// The problem dims shared by gdnForward and gdnBackward, checked: every sequence inside its
// batch row, the value heads a multiple of the key heads, element counts that fit.
struct GdnCall {
  GdnProblem p;
  int64_t qk = 0, vo = 0, gate = 0, state = 0;  // element counts of q/k, v/o, beta/g, states
  Span<int32_t> start, len;
};

GdnCall read_problem(const Opts& o, Call& io) {
  Napi::Env env = o.env();
  const std::string who = o.who();
  GdnCall c;
  GdnProblem& p = c.p;
  p.batch = o.int_("batch"), p.time = o.int_("time"), p.heads = o.int_("heads"), p.vheads = o.int_("vHeads");
  p.dk = o.int_("keyDim"), p.dv = o.int_("valueDim");
  const int64_t layout = o.int_("layout");
  p.varlen = o.boolean("varlen");
  p.chunk = static_cast<int>(o.int_("chunk"));
  p.scale = o.number("scale");
  p.qk_l2norm = o.boolean("qkL2norm");
  const int64_t lim = int64_t(1) << 40;
  if (p.batch < 0 || p.time < 0 || p.heads < 1 || p.vheads < 1 || p.dk < 1 || p.dv < 1 || p.batch > lim || p.time > lim ||
      p.heads > lim || p.vheads > lim || p.dk > lim || p.dv > lim) {
    range_error(env, who + ": bad dimension");
  }
  if (p.vheads % p.heads != 0) range_error(env, who + ": vHeads must be a multiple of heads");
  if (layout != 0 && layout != 1) range_error(env, who + ": layout must be 0 (bthd) or 1 (bhtd)");
  p.bhtd = layout == 1;
  if (p.chunk != 16 && p.chunk != 32 && p.chunk != 64) range_error(env, who + ": chunk must be 16, 32 or 64");
  if (!std::isfinite(p.scale)) range_error(env, who + ": scale must be finite");
  const double bt = static_cast<double>(p.batch) * static_cast<double>(p.time);
  const double qk = bt * p.heads * p.dk, vo = bt * p.vheads * p.dv;
  if (qk > 9.0e15 || vo > 9.0e15) range_error(env, who + ": too many elements");
  c.qk = static_cast<int64_t>(qk), c.vo = static_cast<int64_t>(vo), c.gate = p.batch * p.time * p.vheads;
  auto start = io.in(o.array<int32_t>("seqStart"));
  auto len = io.in(o.array<int32_t>("seqLen"));
  if (start.count != len.count) range_error(env, who + ": seqStart and seqLen differ in length");
  p.seqs = start.count;
  if (p.varlen ? p.batch != 1 : p.seqs != p.batch) {
    range_error(env, who + (p.varlen ? ": packed sequences need batch 1" : ": one sequence per batch row expected"));
  }
  for (int64_t n = 0; n < p.seqs; ++n) {
    const int64_t s = start.data[n], l = len.data[n];
    if (s < 0 || l < 0 || s + l > p.time) range_error(env, who + ": sequence " + std::to_string(n) + " lies outside the time axis");
  }
  p.seq_start = start.data, p.seq_len = len.data;
  const double state = static_cast<double>(p.seqs) * p.vheads * p.dk * p.dv;
  if (state > 9.0e15) range_error(env, who + ": too many elements");
  c.state = static_cast<int64_t>(state);
  note_size(o.int_("dtype"), p.seqs * p.vheads, p.dk, p.dv);
  return c;
}

// gdnForward({ dtype, q, k, v, beta, g, initialState, o, finalState, status, ...problem }):
// initialState null for zeros; status int32 (seqs·vHeads).
Napi::Value GdnForward(const Napi::CallbackInfo& info) {
  const Opts o(info, "gdnForward");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  return dispatch_real(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    GdnCall c = read_problem(o, io);
    auto q = io.in(o.array<T>("q", c.qk));
    auto k = io.in(o.array<T>("k", c.qk));
    auto v = io.in(o.array<T>("v", c.vo));
    auto beta = io.in(o.array<T>("beta", c.gate));
    auto g = io.in(o.array<T>("g", c.gate));
    auto s0 = o.array_or_null<T>("initialState", c.state);
    const T* S0 = s0.data ? io.in(s0).data : nullptr;
    auto out = io.out(o.array<T>("o", c.vo));
    auto fin = io.out(o.array<T>("finalState", c.state));
    auto st = io.out(o.array<int32_t>("status", c.p.seqs * c.p.vheads));
    return io.run([&] { gdn_forward<T>(c.p, q.data, k.data, v.data, beta.data, g.data, S0, out.data, fin.data, st.data); });
  });
}
Export e_forward("gdnForward", GdnForward,
                 {"dtype", "q", "k", "v", "beta", "g", "initialState", "o", "finalState", "status", "batch", "time", "heads",
                  "vHeads", "keyDim", "valueDim", "layout", "varlen", "chunk", "scale", "qkL2norm", "seqStart", "seqLen"});

// gdnBackward({ dtype, q, k, v, beta, g, initialState, dO, dFinal, dq, dk, dv, dbeta, dg,
// dInitialState, status, ...problem }): dFinal null for zero; initialState and dInitialState
// both null or both arrays.
Napi::Value GdnBackward(const Napi::CallbackInfo& info) {
  const Opts o(info, "gdnBackward");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  return dispatch_real(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    GdnCall c = read_problem(o, io);
    auto q = io.in(o.array<T>("q", c.qk));
    auto k = io.in(o.array<T>("k", c.qk));
    auto v = io.in(o.array<T>("v", c.vo));
    auto beta = io.in(o.array<T>("beta", c.gate));
    auto g = io.in(o.array<T>("g", c.gate));
    auto s0 = o.array_or_null<T>("initialState", c.state);
    const T* S0 = s0.data ? io.in(s0).data : nullptr;
    auto dO = io.in(o.array<T>("dO", c.vo));
    auto df = o.array_or_null<T>("dFinal", c.state);
    const T* dF = df.data ? io.in(df).data : nullptr;
    auto dq = io.out(o.array<T>("dq", c.qk));
    auto dk = io.out(o.array<T>("dk", c.qk));
    auto dv = io.out(o.array<T>("dv", c.vo));
    auto dbeta = io.out(o.array<T>("dbeta", c.gate));
    auto dg = io.out(o.array<T>("dg", c.gate));
    auto ds0 = o.array_or_null<T>("dInitialState", c.state);
    if ((ds0.data == nullptr) != (S0 == nullptr)) {
      type_error(env, std::string(o.who()) + ": dInitialState must be given exactly when initialState is");
    }
    T* dS0 = ds0.data ? io.out(ds0).data : nullptr;
    auto st = io.out(o.array<int32_t>("status", c.p.seqs * c.p.vheads));
    return io.run([&] {
      gdn_backward<T>(c.p, q.data, k.data, v.data, beta.data, g.data, S0, dO.data, dF, dq.data, dk.data, dv.data, dbeta.data,
                      dg.data, dS0, st.data);
    });
  });
}
Export e_backward("gdnBackward", GdnBackward,
                  {"dtype", "q", "k", "v", "beta", "g", "initialState", "dO", "dFinal", "dq", "dk", "dv", "dbeta", "dg",
                   "dInitialState", "status", "batch", "time", "heads", "vHeads", "keyDim", "valueDim", "layout", "varlen",
                   "chunk", "scale", "qkL2norm", "seqStart", "seqLen"});

// gdnRecurrentStep({ dtype, state, q, k, v, beta, g, o, newState, status, seqs, heads, vHeads,
// keyDim, valueDim, scale, qkL2norm }): q, k (seqs, heads, keyDim), v and o (seqs, vHeads,
// valueDim), beta and g (seqs, vHeads), states (seqs, vHeads, keyDim, valueDim).
Napi::Value GdnRecurrentStep(const Napi::CallbackInfo& info) {
  const Opts o(info, "gdnRecurrentStep");
  Napi::Env env = o.env();
  const std::string who = o.who();
  const int64_t code = o.int_("dtype");
  const int64_t seqs = o.int_("seqs"), heads = o.int_("heads"), vheads = o.int_("vHeads"), dk = o.int_("keyDim"),
                dv = o.int_("valueDim");
  const double scale = o.number("scale");
  const bool l2 = o.boolean("qkL2norm");
  const int64_t lim = int64_t(1) << 30;
  if (seqs < 0 || heads < 1 || vheads < 1 || dk < 1 || dv < 1 || seqs > lim || heads > lim || vheads > lim || dk > lim ||
      dv > lim) {
    range_error(env, who + ": bad dimension");
  }
  if (vheads % heads != 0) range_error(env, who + ": vHeads must be a multiple of heads");
  if (!std::isfinite(scale)) range_error(env, who + ": scale must be finite");
  const double state = static_cast<double>(seqs) * vheads * dk * dv;
  if (state > 9.0e15) range_error(env, who + ": too many elements");
  note_size(code, seqs * vheads, dk, dv);
  return dispatch_real(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto S = io.in(o.array<T>("state", static_cast<int64_t>(state)));
    auto q = io.in(o.array<T>("q", seqs * heads * dk));
    auto k = io.in(o.array<T>("k", seqs * heads * dk));
    auto v = io.in(o.array<T>("v", seqs * vheads * dv));
    auto beta = io.in(o.array<T>("beta", seqs * vheads));
    auto g = io.in(o.array<T>("g", seqs * vheads));
    auto out = io.out(o.array<T>("o", seqs * vheads * dv));
    auto ns = io.out(o.array<T>("newState", static_cast<int64_t>(state)));
    auto st = io.out(o.array<int32_t>("status", seqs * vheads));
    return io.run([&] {
      gdn_recurrent_step<T>(seqs, heads, vheads, dk, dv, scale, l2, S.data, q.data, k.data, v.data, beta.data, g.data, out.data,
                            ns.data, st.data);
    });
  });
}
Export e_step("gdnRecurrentStep", GdnRecurrentStep,
              {"dtype", "state", "q", "k", "v", "beta", "g", "o", "newState", "status", "seqs", "heads", "vHeads", "keyDim",
               "valueDim", "scale", "qkL2norm"});

}  // namespace
}  // namespace lapis::binding
