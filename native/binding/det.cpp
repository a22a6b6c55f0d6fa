#include "async_work.hpp"
#include "common.hpp"
#include "lapis/det.hpp"

namespace lapis::binding {
namespace {

// slogdet({ dtype, A, sign, logabs, det, count, n }): sign and det (or null) of the dtype,
// logabs of its real dtype.
Napi::Value Slogdet(const Napi::CallbackInfo& info) {
  const Opts o(info, "slogdet");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t count = o.int_("count"), n = o.int_("n");
  if (count < 0 || n < 0 || n > (int64_t(1) << 30)) range_error(env, "slogdet: bad dimension");
  note_size(code, count, n, n);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto A = io.in(o.array<T>("A", count * n * n));
    auto S = io.out(o.array<T>("sign", count));
    auto L = io.out(o.array<real_t<T>>("logabs", count));
    auto D = o.array_or_null<T>("det", count);
    T* det = D.data ? io.out(D).data : nullptr;
    return io.run([&] { slogdet_batched<T>(count, n, A.data, S.data, L.data, det); });
  });
}
Export e_slogdet("slogdet", Slogdet, {"dtype", "A", "sign", "logabs", "det", "count", "n"});

}  // namespace
}  // namespace lapis::binding
