#include <string>

#include "async_work.hpp"
#include "common.hpp"
#include "lapis/reduce.hpp"

namespace lapis::binding {
namespace {

// outer, n and inner as the kernels take them: non-negative, their product bounded.
struct Extent {
  int64_t outer, n, inner;
};

Extent read_extent(const Opts& o) {
  Napi::Env env = o.env();
  const Extent e{o.int_("outer"), o.int_("n"), o.int_("inner")};
  const int64_t lim = int64_t(1) << 50;
  if (e.outer < 0 || e.n < 0 || e.inner < 0 || e.outer > lim || e.n > lim || e.inner > lim ||
      static_cast<double>(e.outer) * static_cast<double>(e.n) * static_cast<double>(e.inner) > static_cast<double>(lim)) {
    range_error(env, std::string(o.who()) + ": outer, n and inner must be non-negative integers with a product below 2^50");
  }
  return e;
}

// reduce({ dtype, op, x, out, outer, n, inner }): op 0 sum, 1 prod, 2 max, 3 min, 4 any, 5 all,
// 6 Σ|x|², 7 Σ|x| (floating dtypes). out: Uint8Array for any/all, Int32Array for sum/prod of
// bool, Float64Array for 6 and 7, else x's element type.
Napi::Value Reduce(const Napi::CallbackInfo& info) {
  const Opts o(info, "reduce");
  Napi::Env env = o.env();
  const int64_t op = o.int_("op");
  if (op < 0 || op > 7) range_error(env, "reduce: op must be an integer in [0, 7]");
  const auto kind = static_cast<ReduceKind>(op);
  const Extent e = read_extent(o);
  const bool extremum = kind == ReduceKind::max || kind == ReduceKind::min;
  if (extremum && e.n == 0 && e.outer * e.inner > 0) range_error(env, "reduce: max/min of an empty dim");
  return dispatch_all(env, o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    if constexpr (is_complex_v<T>) {
      if (extremum) type_error(env, "reduce: max/min of complex values is not defined");
    }
    const bool norm = kind == ReduceKind::sum_squares || kind == ReduceKind::sum_magnitudes;
    if (norm && std::is_integral_v<T>) type_error(env, "reduce: sums of squares and magnitudes take floating-point data");
    Call io(o, false);
    auto x = io.in(o.array<T>("x", e.outer * e.n * e.inner));
    const int64_t m = e.outer * e.inner;
    void* out = nullptr;
    if (norm) {
      out = io.out(o.array<double>("out", m)).data;
    } else if (kind == ReduceKind::any || kind == ReduceKind::all) {
      out = io.out(o.array<uint8_t>("out", m)).data;
    } else if (std::is_same_v<T, uint8_t> && !extremum) {
      out = io.out(o.array<int32_t>("out", m)).data;
    } else {
      out = io.out(o.array<T>("out", m)).data;
    }
    return io.run([&] { reduce<T>(kind, e.outer, e.n, e.inner, x.data, out); });
  });
}
Export e_reduce("reduce", Reduce, {"dtype", "op", "x", "out", "outer", "n", "inner"});

// argReduce({ dtype, op, x, values, indices, outer, n, inner }): op 0 max, 1 min; real and
// integral dtypes; n ≥ 1 (and below 2^31: indices are int32).
Napi::Value ArgReduce(const Napi::CallbackInfo& info) {
  const Opts o(info, "argReduce");
  Napi::Env env = o.env();
  const int64_t op = o.int_("op");
  if (op != 0 && op != 1) range_error(env, "argReduce: op must be 0 (max) or 1 (min)");
  const Extent e = read_extent(o);
  if (e.n == 0 && e.outer * e.inner > 0) range_error(env, "argReduce: the reduced dim is empty");
  if (e.n > 2147483647) range_error(env, "argReduce: the reduced dim is longer than int32 indices reach");
  const int64_t code = o.int_("dtype");
  if (code == C64 || code == C128) type_error(env, "argReduce: max/min of complex values is not defined");
  return dispatch_all(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    if constexpr (is_complex_v<T>) {
      type_error(env, "argReduce: max/min of complex values is not defined");
    } else {
      Call io(o, false);
      auto x = io.in(o.array<T>("x", e.outer * e.n * e.inner));
      auto values = io.out(o.array<T>("values", e.outer * e.inner));
      auto indices = io.out(o.array<int32_t>("indices", e.outer * e.inner));
      return io.run([&] { arg_reduce<T>(op == 0, e.outer, e.n, e.inner, x.data, values.data, indices.data); });
    }
  });
}
Export e_arg_reduce("argReduce", ArgReduce, {"dtype", "op", "x", "values", "indices", "outer", "n", "inner"});

}  // namespace
}  // namespace lapis::binding
