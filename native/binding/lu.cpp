#include "async_work.hpp"
#include "common.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"
#include "lapis/trsm.hpp"

namespace lapis::binding {
namespace {

void check_dims(const Opts& o, std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) {
    if (d < 0) range_error(o.env(), std::string(o.who()) + ": negative dimension");
    if (d > (int64_t(1) << 40)) range_error(o.env(), std::string(o.who()) + ": dimension too large");
  }
}

Op arg_op(const Opts& o) {
  int64_t op = o.int_("op");
  if (op < 0 || op > 2) range_error(o.env(), std::string(o.who()) + ": op must be 0, 1 or 2");
  return static_cast<Op>(op);
}

// luFactor({ dtype, A, LU, pivots, info, count, m, n, async })
Napi::Value LuFactor(const Napi::CallbackInfo& info) {
  const Opts o(info, "luFactor");
  const int64_t code = o.int_("dtype");
  const int64_t count = o.int_("count"), m = o.int_("m"), n = o.int_("n");
  check_dims(o, {count, m, n});
  const bool async = o.boolean("async");
  note_size(code, count, m, n);
  return dispatch_float(o.env(), code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, async);
    auto A = io.in(o.array<T>("A", count * m * n));
    auto LU = io.out(o.array<T>("LU", count * m * n));
    auto P = io.out(o.array<int32_t>("pivots", count * std::min(m, n)));
    auto I = io.out(o.array<int32_t>("info", count));
    return io.run([=] { lu_factor_batched<T>(count, m, n, A.data, LU.data, P.data, I.data); });
  });
}
Export e_lu("luFactor", LuFactor, {"dtype", "A", "LU", "pivots", "info", "count", "m", "n", "async"});

// luSolve({ dtype, LU, pivots, B, X, count, n, k, aIdx, bIdx, aCount, bCount, op, async })
Napi::Value LuSolve(const Napi::CallbackInfo& info) {
  const Opts o(info, "luSolve");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t count = o.int_("count"), n = o.int_("n"), k = o.int_("k");
  const int64_t ac = o.int_("aCount"), bc = o.int_("bCount");
  check_dims(o, {count, n, k, ac, bc});
  const Op op = arg_op(o);
  const bool async = o.boolean("async");
  note_size(code, count, n, k);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, async);
    auto LU = io.in(o.array<T>("LU", ac * n * n));
    auto P = io.in(o.array<int32_t>("pivots", ac * n));  // checked below, on this copy
    auto B = io.in(o.array<T>("B", bc * n * k));
    auto X = io.out(o.array<T>("X", count * n * k));
    const BatchMaps maps = io.batch_maps(count, ac, bc);
    const auto ai = maps.a, bi = maps.b;  // plain copies: lambdas capture them (C++17)
    // Out-of-range pivots would make the row interchanges write outside the matrix.
    for (int64_t i = 0; i < ac * n; ++i) {
      if (P.data[i] < 1 || P.data[i] > n) {
        range_error(env, "luSolve: pivots must be in 1.." + std::to_string(n) + ", found " + std::to_string(P.data[i]));
      }
    }
    return io.run([=] { lu_solve_batched<T>(op, count, n, k, LU.data, P.data, ai.data, B.data, bi.data, X.data); });
  });
}
Export e_lus("luSolve", LuSolve,
       {"dtype", "LU", "pivots", "B", "X", "count", "n", "k", "aIdx", "bIdx", "aCount", "bCount", "op", "async"});

// solve({ dtype, A, B, X, info, count, n, k, aIdx, bIdx, aCount, bCount, async })
Napi::Value Solve(const Napi::CallbackInfo& info) {
  const Opts o(info, "solve");
  const int64_t code = o.int_("dtype");
  const int64_t count = o.int_("count"), n = o.int_("n"), k = o.int_("k");
  const int64_t ac = o.int_("aCount"), bc = o.int_("bCount");
  check_dims(o, {count, n, k, ac, bc});
  const bool async = o.boolean("async");
  note_size(code, count, n, k);
  return dispatch_float(o.env(), code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, async);
    auto A = io.in(o.array<T>("A", ac * n * n));
    auto B = io.in(o.array<T>("B", bc * n * k));
    auto X = io.out(o.array<T>("X", count * n * k));
    auto I = io.out(o.array<int32_t>("info", count));
    const BatchMaps maps = io.batch_maps(count, ac, bc);
    const auto ai = maps.a, bi = maps.b;  // plain copies: lambdas capture them (C++17)
    return io.run([=] { solve_batched_shared<T>(count, n, k, A.data, ai.data, ac, B.data, bi.data, X.data, I.data); });
  });
}
Export e_solve("solve", Solve,
       {"dtype", "A", "B", "X", "info", "count", "n", "k", "aIdx", "bIdx", "aCount", "bCount", "async"});

// solveTriangular({ dtype, A, B, X, info, count, n, k, aIdx, bIdx, aCount, bCount, op, upper,
// unit, async }); info (Int32Array of count, or null): trtrs's status, the first exactly
// zero diagonal entry.
Napi::Value SolveTriangular(const Napi::CallbackInfo& info) {
  const Opts o(info, "solveTriangular");
  const int64_t code = o.int_("dtype");
  const int64_t count = o.int_("count"), n = o.int_("n"), k = o.int_("k");
  const int64_t ac = o.int_("aCount"), bc = o.int_("bCount");
  check_dims(o, {count, n, k, ac, bc});
  const Op op = arg_op(o);
  const bool upper = o.boolean("upper"), unit = o.boolean("unit");
  const bool async = o.boolean("async");
  note_size(code, count, n, k);
  return dispatch_float(o.env(), code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, async);
    auto A = io.in(o.array<T>("A", ac * n * n));
    auto B = io.in(o.array<T>("B", bc * n * k));
    auto X = io.out(o.array<T>("X", count * n * k));
    const BatchMaps maps = io.batch_maps(count, ac, bc);
    const auto ai = maps.a, bi = maps.b;  // plain copies: lambdas capture them (C++17)
    auto status = o.array_or_null<int32_t>("info", count);
    int32_t* st = status.data ? io.out(status).data : nullptr;
    return io.run([=] {
      // Real types: ConjTrans is Trans. Small systems go to the batched register kernel.
      if (!trsm_small_batched<T>(op != Op::None, upper, unit, count, n, k, A.data, ai.data, B.data, bi.data, X.data))
        trsm_batched<T>(op, upper, unit, count, n, k, A.data, ai.data, B.data, bi.data, X.data);
      if (st) trsm_diag_info<T>(unit, count, n, k, A.data, ai.data, ac, X.data, st);
    });
  });
}
Export e_trsm("solveTriangular", SolveTriangular,
       {"dtype", "A", "B", "X", "info", "count", "n", "k", "aIdx", "bIdx", "aCount", "bCount", "op", "upper", "unit", "async"});

}  // namespace
}  // namespace lapis::binding
