#include "async_work.hpp"
#include "common.hpp"
#include "lapis/lu.hpp"
#include "lapis/solve.hpp"
#include "lapis/trsm.hpp"

namespace lapis::binding {
namespace {

void check_dims(Napi::Env env, const char* who, std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) {
    if (d < 0) range_error(env, std::string(who) + ": negative dimension");
    if (d > (int64_t(1) << 40)) range_error(env, std::string(who) + ": dimension too large");
  }
}

Op arg_op(const Napi::CallbackInfo& info, size_t i, const char* who) {
  int64_t op = arg_int(info, i, who, "op");
  if (op < 0 || op > 2) range_error(info.Env(), std::string(who) + ": op must be 0, 1 or 2");
  return static_cast<Op>(op);
}

// luFactor(dtype, A, LU, piv, info, count, m, n, async)
Napi::Value LuFactor(const Napi::CallbackInfo& info) {
  const char* who = "luFactor";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t count = arg_int(info, 5, who, "count"), m = arg_int(info, 6, who, "m"), n = arg_int(info, 7, who, "n");
  check_dims(env, who, {count, m, n});
  bool async = arg_async(info, 8);
  note_size(code, count, m, n);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, async);
    auto A = io.in(arg_array<T>(info, 1, who, "A", count * m * n));
    auto LU = io.out(arg_array<T>(info, 2, who, "LU", count * m * n));
    auto P = io.out(arg_array<int32_t>(info, 3, who, "pivots", count * std::min(m, n)));
    auto I = io.out(arg_array<int32_t>(info, 4, who, "info", count));
    return io.run([=] { lu_factor_batched<T>(count, m, n, A.data, LU.data, P.data, I.data); });
  });
}
Export e_lu("luFactor", LuFactor);

// luSolve(dtype, LU, piv, B, X, count, n, k, aIdx, bIdx, aCount, bCount, op, async)
Napi::Value LuSolve(const Napi::CallbackInfo& info) {
  const char* who = "luSolve";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t count = arg_int(info, 5, who, "count"), n = arg_int(info, 6, who, "n"), k = arg_int(info, 7, who, "k");
  int64_t ac = arg_int(info, 10, who, "aCount"), bc = arg_int(info, 11, who, "bCount");
  check_dims(env, who, {count, n, k, ac, bc});
  Op op = arg_op(info, 12, who);
  bool async = arg_async(info, 13);
  note_size(code, count, n, k);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, async);
    auto LU = io.in(arg_array<T>(info, 1, who, "LU", ac * n * n));
    auto P = io.in(arg_array<int32_t>(info, 2, who, "pivots", ac * n));  // checked below, on this copy
    auto B = io.in(arg_array<T>(info, 3, who, "B", bc * n * k));
    auto X = io.out(arg_array<T>(info, 4, who, "X", count * n * k));
    const BatchMaps maps = io.batch_maps(8, count, ac, bc);
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
Export e_lus("luSolve", LuSolve);

// solve(dtype, A, B, X, info, count, n, k, aIdx, bIdx, aCount, bCount, async)
Napi::Value Solve(const Napi::CallbackInfo& info) {
  const char* who = "solve";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t count = arg_int(info, 5, who, "count"), n = arg_int(info, 6, who, "n"), k = arg_int(info, 7, who, "k");
  int64_t ac = arg_int(info, 10, who, "aCount"), bc = arg_int(info, 11, who, "bCount");
  check_dims(env, who, {count, n, k, ac, bc});
  bool async = arg_async(info, 12);
  note_size(code, count, n, k);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, async);
    auto A = io.in(arg_array<T>(info, 1, who, "A", ac * n * n));
    auto B = io.in(arg_array<T>(info, 2, who, "B", bc * n * k));
    auto X = io.out(arg_array<T>(info, 3, who, "X", count * n * k));
    auto I = io.out(arg_array<int32_t>(info, 4, who, "info", count));
    const BatchMaps maps = io.batch_maps(8, count, ac, bc);
    const auto ai = maps.a, bi = maps.b;  // plain copies: lambdas capture them (C++17)
    return io.run([=] { solve_batched_shared<T>(count, n, k, A.data, ai.data, ac, B.data, bi.data, X.data, I.data); });
  });
}
Export e_solve("solve", Solve);

// solveTriangular(dtype, A, B, X, count, n, k, aIdx, bIdx, aCount, bCount, op, upper, unit, async, info?)
// info (Int32Array of count, optional): trtrs's status, first exactly zero diagonal entry
Napi::Value SolveTriangular(const Napi::CallbackInfo& info) {
  const char* who = "solveTriangular";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t count = arg_int(info, 4, who, "count"), n = arg_int(info, 5, who, "n"), k = arg_int(info, 6, who, "k");
  int64_t ac = arg_int(info, 9, who, "aCount"), bc = arg_int(info, 10, who, "bCount");
  check_dims(env, who, {count, n, k, ac, bc});
  Op op = arg_op(info, 11, who);
  bool upper = arg_bool(info, 12, who, "upper"), unit = arg_bool(info, 13, who, "unit");
  bool async = arg_async(info, 14);
  note_size(code, count, n, k);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, async);
    auto A = io.in(arg_array<T>(info, 1, who, "A", ac * n * n));
    auto B = io.in(arg_array<T>(info, 2, who, "B", bc * n * k));
    auto X = io.out(arg_array<T>(info, 3, who, "X", count * n * k));
    const BatchMaps maps = io.batch_maps(7, count, ac, bc);
    const auto ai = maps.a, bi = maps.b;  // plain copies: lambdas capture them (C++17)
    int32_t* st = nullptr;
    if (info.Length() > 15 && !info[15].IsUndefined() && !info[15].IsNull())
      st = io.out(arg_array<int32_t>(info, 15, who, "info", count)).data;
    return io.run([=] {
      // Real types: ConjTrans is Trans. Small systems go to the batched register kernel.
      if (!trsm_small_batched<T>(op != Op::None, upper, unit, count, n, k, A.data, ai.data, B.data, bi.data, X.data))
        trsm_batched<T>(op, upper, unit, count, n, k, A.data, ai.data, B.data, bi.data, X.data);
      if (st) trsm_diag_info<T>(unit, count, n, k, A.data, ai.data, ac, X.data, st);
    });
  });
}
Export e_trsm("solveTriangular", SolveTriangular);

// solverBlocking(luLeaf?, luCrossover?, trsmBlock?): sets the non-zero ones, returns all.
Napi::Value Blocking(const Napi::CallbackInfo& info) {
  const char* who = "solverBlocking";
  Napi::Env env = info.Env();
  int64_t v[3] = {0, 0, 0};
  for (size_t i = 0; i < 3; ++i) {
    if (i < info.Length() && !info[i].IsUndefined()) {
      v[i] = arg_int(info, i, who, "block size");
      if (v[i] < 0 || v[i] > 4096) range_error(env, "solverBlocking: block sizes must be in 0..4096");
    }
  }
  set_solver_blocking(v[0], v[1], v[2]);
  auto b = solver_blocking();
  Napi::Object o = Napi::Object::New(env);
  o.Set("luLeaf", Napi::Number::New(env, static_cast<double>(b.lu_leaf)));
  o.Set("luCrossover", Napi::Number::New(env, static_cast<double>(b.lu_crossover)));
  o.Set("trsmBlock", Napi::Number::New(env, static_cast<double>(b.trsm_block)));
  return o;
}
Export e_block("solverBlocking", Blocking);

}  // namespace
}  // namespace lapis::binding
