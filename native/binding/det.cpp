#include "async_work.hpp"
#include "common.hpp"
#include "lapis/det.hpp"

namespace lapis::binding {
namespace {

// slogdet(dtype, A, sign, logabs, det|null, count, n): sign and det of the dtype, logabs
// of its real dtype.
Napi::Value Slogdet(const Napi::CallbackInfo& info) {
  const char* who = "slogdet";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t count = arg_int(info, 5, who, "count"), n = arg_int(info, 6, who, "n");
  if (count < 0 || n < 0 || n > (int64_t(1) << 30)) range_error(env, "slogdet: bad dimension");
  note_size(code, count, n, n);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, false);
    auto A = io.in(arg_array<T>(info, 1, who, "A", count * n * n));
    auto S = io.out(arg_array<T>(info, 2, who, "sign", count));
    auto L = io.out(arg_array<real_t<T>>(info, 3, who, "logabs", count));
    T* det = nullptr;
    if (info.Length() > 4 && !info[4].IsNull() && !info[4].IsUndefined()) det = io.out(arg_array<T>(info, 4, who, "det", count)).data;
    return io.run([&] { slogdet_batched<T>(count, n, A.data, S.data, L.data, det); });
  });
}
Export e_slogdet("slogdet", Slogdet);

}  // namespace
}  // namespace lapis::binding
