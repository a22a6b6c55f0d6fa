#include <cstdlib>
#include <vector>

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

Layout arg_layout(const Napi::CallbackInfo& info, size_t i, const char* who, int64_t na, int64_t nb, int64_t nout) {
  Napi::Env env = info.Env();
  auto shape = arg_array<double>(info, i, who, "shape");
  auto sa = arg_array<double>(info, i + 1, who, "aStrides");
  auto sb = arg_array<double>(info, i + 2, who, "bStrides");
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
    auto x = arg_array<T>(info, 1, who, "x");
    auto m = arg_array<T>(info, 2, who, "mantissa", x.count);
    auto e = arg_array<int32_t>(info, 3, who, "exponent", x.count);
    advise_huge(m);
    advise_huge(e);
    frexp<T>(x.count, x.data, m.data, e.data);
    return info.Env().Undefined();
  });
}
Export e_frexp("frexp", Frexp);

// heaviside(dtype, x, values, out, shape, xStrides, vStrides)
Napi::Value Heaviside(const Napi::CallbackInfo& info) {
  const char* who = "heaviside";
  return dispatch_real(info.Env(), arg_int(info, 0, who, "dtype"), who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    auto x = arg_array<T>(info, 1, who, "x");
    auto v = arg_array<T>(info, 2, who, "values");
    auto o = arg_array<T>(info, 3, who, "out");
    Layout L = arg_layout(info, 4, who, x.count, v.count, o.count);
    advise_huge(o);
    heaviside<T>(L.bc(), x.data, v.data, o.data);
    return info.Env().Undefined();
  });
}
Export e_heaviside("heaviside", Heaviside);

// laguerrePolynomialL(dtype, x, n, out, shape, xStrides, nStrides)
Napi::Value Laguerre(const Napi::CallbackInfo& info) {
  const char* who = "laguerrePolynomialL";
  return dispatch_real(info.Env(), arg_int(info, 0, who, "dtype"), who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    auto x = arg_array<T>(info, 1, who, "x");
    auto n = arg_array<T>(info, 2, who, "n");
    auto o = arg_array<T>(info, 3, who, "out");
    Layout L = arg_layout(info, 4, who, x.count, n.count, o.count);
    advise_huge(o);
    laguerre_polynomial_l<T>(L.bc(), x.data, n.data, o.data);
    return info.Env().Undefined();
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
  switch (code) {
    case F32: { auto o = arg_array<float>(info, 1, who, "out", steps); advise_huge(o); logspace<float>(steps, start, end, base, o.data); break; }
    case F64: { auto o = arg_array<double>(info, 1, who, "out", steps); advise_huge(o); logspace<double>(steps, start, end, base, o.data); break; }
    case I32: { auto o = arg_array<int32_t>(info, 1, who, "out", steps); advise_huge(o); logspace<int32_t>(steps, start, end, base, o.data); break; }
    default: type_error(env, "logspace: dtype must be float32, float64 or int32");
  }
  return env.Undefined();
}
Export e_logspace("logspace", Logspace);

}  // namespace
}  // namespace lapis::binding
