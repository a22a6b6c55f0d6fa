#include <cstdlib>
#include <vector>

#include "async_work.hpp"
#include "common.hpp"
#include "lapis/pages.hpp"
#include "lapis/special.hpp"

namespace lapis::binding {
namespace {

// A broadcast layout from three Float64Arrays (shape, strides of a, strides of b), checked
// against the arrays it will index: every offset the walk can reach lies inside them.
struct Layout {
  std::vector<index> shape, sa, sb;
  Broadcast2 bc() const { return {static_cast<int>(shape.size()), shape.data(), sa.data(), sb.data()}; }
};

Layout arg_layout(const Napi::CallbackInfo& info, Call& io, size_t i, const char* who, int64_t na, int64_t nb,
                  int64_t nout) {
  Napi::Env env = info.Env();
  auto shape = io.in(arg_array<double>(info, i, who, "shape"));
  auto sa = io.in(arg_array<double>(info, i + 1, who, "aStrides"));
  auto sb = io.in(arg_array<double>(info, i + 2, who, "bStrides"));
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

// Large outputs are fresh typed arrays whose first writes fault in 4 KiB at a time, which
// costs more than these memory-bound kernels (80 MB: ~70 ms of faults here, the kernel
// ~15 ms): huge-page advice from four 2 MiB pages up (lapis/pages.hpp).
template <class T>
void advise_huge(const Span<T>& s) {
  lapis::detail::advise_hugepages(s.data, static_cast<size_t>(s.count) * sizeof(T), 4);
}

// frexp(dtype, x, mantissa, exponent)
Napi::Value Frexp(const Napi::CallbackInfo& info) {
  const char* who = "frexp";
  return dispatch_real(info.Env(), arg_int(info, 0, who, "dtype"), who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, false);
    auto x = io.in(arg_array<T>(info, 1, who, "x"));
    auto m = io.out(arg_array<T>(info, 2, who, "mantissa", x.count));
    auto e = io.out(arg_array<int32_t>(info, 3, who, "exponent", x.count));
    advise_huge(m);
    advise_huge(e);
    return io.run([&] { frexp<T>(x.count, x.data, m.data, e.data); });
  });
}
Export e_frexp("frexp", Frexp);

// heaviside(dtype, x, values, out, shape, xStrides, vStrides)
Napi::Value Heaviside(const Napi::CallbackInfo& info) {
  const char* who = "heaviside";
  return dispatch_real(info.Env(), arg_int(info, 0, who, "dtype"), who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, false);
    auto x = io.in(arg_array<T>(info, 1, who, "x"));
    auto v = io.in(arg_array<T>(info, 2, who, "values"));
    auto o = io.out(arg_array<T>(info, 3, who, "out"));
    Layout L = arg_layout(info, io, 4, who, x.count, v.count, o.count);
    advise_huge(o);
    return io.run([&] { heaviside<T>(L.bc(), x.data, v.data, o.data); });
  });
}
Export e_heaviside("heaviside", Heaviside);

// laguerrePolynomialL(dtype, x, n, out, shape, xStrides, nStrides)
Napi::Value Laguerre(const Napi::CallbackInfo& info) {
  const char* who = "laguerrePolynomialL";
  return dispatch_real(info.Env(), arg_int(info, 0, who, "dtype"), who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, false);
    auto x = io.in(arg_array<T>(info, 1, who, "x"));
    auto n = io.in(arg_array<T>(info, 2, who, "n"));
    auto o = io.out(arg_array<T>(info, 3, who, "out"));
    Layout L = arg_layout(info, io, 4, who, x.count, n.count, o.count);
    advise_huge(o);
    return io.run([&] { laguerre_polynomial_l<T>(L.bc(), x.data, n.data, o.data); });
  });
}
Export e_laguerre("laguerrePolynomialL", Laguerre);

// logspace(dtype, out, steps, start, end, base): dtype float32, float64 or int32.
Napi::Value Logspace(const Napi::CallbackInfo& info) {
  const char* who = "logspace";
  Napi::Env env = info.Env();
  const int64_t code = arg_int(info, 0, who, "dtype");
  const int64_t steps = arg_int(info, 2, who, "steps");
  if (steps < 0) range_error(env, "logspace: steps must be non-negative");
  const double start = arg_double(info, 3, who, "start"), end = arg_double(info, 4, who, "end"),
               base = arg_double(info, 5, who, "base");
  Call io(info, who, false);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    auto o = io.out(arg_array<T>(info, 1, who, "out", steps));
    advise_huge(o);
    return io.run([&] { logspace<T>(steps, start, end, base, o.data); });
  };
  switch (code) {
    case F32: return run(float{});
    case F64: return run(double{});
    case I32: return run(int32_t{});
    default: type_error(env, "logspace: dtype must be float32, float64 or int32");
  }
}
Export e_logspace("logspace", Logspace);

}  // namespace
}  // namespace lapis::binding
