#include "async_work.hpp"
#include "common.hpp"
#include "lapis/solve.hpp"

namespace lapis::binding {
namespace {

// inv({ dtype, A, X, info, count, n, async })
Napi::Value Inv(const Napi::CallbackInfo& info) {
  const Opts o(info, "inv");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t count = o.int_("count"), n = o.int_("n");
  if (count < 0 || n < 0 || n > (int64_t(1) << 30)) range_error(env, "inv: bad dimension");
  const bool async = o.boolean("async");
  note_size(code, count, n, n);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, async);
    auto A = io.in(o.array<T>("A", count * n * n));
    auto X = io.out(o.array<T>("X", count * n * n));
    auto I = io.out(o.array<int32_t>("info", count));
    return io.run([=] { inv_batched<T>(count, n, A.data, X.data, I.data); });
  });
}
Export e_inv("inv", Inv, {"dtype", "A", "X", "info", "count", "n", "async"});

}  // namespace
}  // namespace lapis::binding
