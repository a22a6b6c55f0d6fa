#include "async_work.hpp"
#include "common.hpp"
#include "lapis/solve.hpp"

namespace lapis::binding {
namespace {

// inv(dtype, A, X, info, count, n, async)
Napi::Value Inv(const Napi::CallbackInfo& info) {
  const char* who = "inv";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t count = arg_int(info, 4, who, "count"), n = arg_int(info, 5, who, "n");
  if (count < 0 || n < 0 || n > (int64_t(1) << 30)) range_error(env, "inv: bad dimension");
  bool async = arg_async(info, 6);
  note_size(code, count, n, n);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, async);
    auto A = io.in(arg_array<T>(info, 1, who, "A", count * n * n));
    auto X = io.out(arg_array<T>(info, 2, who, "X", count * n * n));
    auto I = io.out(arg_array<int32_t>(info, 3, who, "info", count));
    return io.run([=] { inv_batched<T>(count, n, A.data, X.data, I.data); });
  });
}
Export e_inv("inv", Inv);

}  // namespace
}  // namespace lapis::binding
