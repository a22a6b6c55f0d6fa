#include <cstdlib>
#include <vector>

#include "async_work.hpp"
#include "common.hpp"
#include "lapis/special.hpp"

namespace lapis::binding {
namespace {

// A broadcast layout from three Float64Arrays (shape, strides of a, strides of b), checked
// against the arrays it will index: every offset the walk can reach lies inside them.
struct Layout {
  std::vector<index> shape, sa, sb;
  Broadcast2 bc() const { return {static_cast<int>(shape.size()), shape.data(), sa.data(), sb.data()}; }
};

Layout arg_layout(const Opts& o, Call& io, const char* aStrides, const char* bStrides, int64_t na, int64_t nb,
                  int64_t nout) {
  Napi::Env env = o.env();
  const char* who = o.who();
  auto shape = io.in(o.array<double>("shape"));
  auto sa = io.in(o.array<double>(aStrides));
  auto sb = io.in(o.array<double>(bStrides));
  const int64_t nd = shape.count;
  if (nd < 1 || nd > 64 || sa.count != nd || sb.count != nd) range_error(env, std::string(who) + ": bad broadcast layout rank");
  Layout L;
  int64_t total = 1, amax = 0, bmax = 0;
  bool empty = false;
  for (int64_t d = 0; d < nd; ++d) {
    const double s = shape.data[d], a = sa.data[d], b = sb.data[d];
    if (!(s >= 0 && s < 9.0e15 && s == static_cast<double>(static_cast<int64_t>(s)) && a >= 0 && a < 9.0e15 &&
          a == static_cast<double>(static_cast<int64_t>(a)) && b >= 0 && b < 9.0e15 &&
          b == static_cast<double>(static_cast<int64_t>(b)))) {
      range_error(env, std::string(who) + ": broadcast layout entries must be non-negative integers");
    }
    L.shape.push_back(static_cast<index>(s));
    L.sa.push_back(static_cast<index>(a));
    L.sb.push_back(static_cast<index>(b));
    if (s == 0) empty = true;
    total *= static_cast<int64_t>(s);
    if (total > (int64_t(1) << 50)) range_error(env, std::string(who) + ": output too large");
    if (s > 0) {
      amax += (static_cast<int64_t>(s) - 1) * static_cast<int64_t>(a);
      bmax += (static_cast<int64_t>(s) - 1) * static_cast<int64_t>(b);
    }
  }
  if (L.sa.back() > 1 || L.sb.back() > 1) range_error(env, std::string(who) + ": inner strides must be 0 or 1");
  if (!empty && (amax >= na || bmax >= nb)) range_error(env, std::string(who) + ": broadcast layout reaches past an operand");
  if (total > nout) range_error(env, std::string(who) + ": output array too short");
  return L;
}


// frexp({ dtype, x, mantissa, exponent })
Napi::Value Frexp(const Napi::CallbackInfo& info) {
  const Opts o(info, "frexp");
  return dispatch_real(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto m = io.out(o.array<T>("mantissa", x.count));
    auto e = io.out(o.array<int32_t>("exponent", x.count));
    return io.run([&] { frexp<T>(x.count, x.data, m.data, e.data); });
  });
}
Export e_frexp("frexp", Frexp, {"dtype", "x", "mantissa", "exponent"});

// heaviside({ dtype, x, values, out, shape, xStrides, valuesStrides })
Napi::Value Heaviside(const Napi::CallbackInfo& info) {
  const Opts o(info, "heaviside");
  return dispatch_real(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto v = io.in(o.array<T>("values"));
    auto out = io.out(o.array<T>("out"));
    Layout L = arg_layout(o, io, "xStrides", "valuesStrides", x.count, v.count, out.count);
    return io.run([&] { heaviside<T>(L.bc(), x.data, v.data, out.data); });
  });
}
Export e_heaviside("heaviside", Heaviside, {"dtype", "x", "values", "out", "shape", "xStrides", "valuesStrides"});

// laguerrePolynomialL({ dtype, x, n, out, shape, xStrides, nStrides })
Napi::Value Laguerre(const Napi::CallbackInfo& info) {
  const Opts o(info, "laguerrePolynomialL");
  return dispatch_real(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto n = io.in(o.array<T>("n"));
    auto out = io.out(o.array<T>("out"));
    Layout L = arg_layout(o, io, "xStrides", "nStrides", x.count, n.count, out.count);
    return io.run([&] { laguerre_polynomial_l<T>(L.bc(), x.data, n.data, out.data); });
  });
}
Export e_laguerre("laguerrePolynomialL", Laguerre, {"dtype", "x", "n", "out", "shape", "xStrides", "nStrides"});

// logspace({ dtype, out, steps, start, end, base }): dtype float32, float64 or int32.
Napi::Value Logspace(const Napi::CallbackInfo& info) {
  const Opts o(info, "logspace");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t steps = o.int_("steps");
  if (steps < 0) range_error(env, "logspace: steps must be non-negative");
  const double start = o.number("start"), end = o.number("end"), base = o.number("base");
  Call io(o, false);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    auto out = io.out(o.array<T>("out", steps));
    return io.run([&] { logspace<T>(steps, start, end, base, out.data); });
  };
  switch (code) {
    case F32: return run(float{});
    case F64: return run(double{});
    case I32: return run(int32_t{});
    default: type_error(env, "logspace: dtype must be float32, float64 or int32");
  }
}
Export e_logspace("logspace", Logspace, {"dtype", "out", "steps", "start", "end", "base"});

}  // namespace
}  // namespace lapis::binding
