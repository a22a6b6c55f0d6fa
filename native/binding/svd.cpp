#include "async_work.hpp"
#include "common.hpp"
#include "lapis/parallel.hpp"
#include "lapis/svd.hpp"

namespace lapis::binding {
namespace {

// svd(dtype, A, S, U|null, Vh|null, info, batch, m, n, computeUV, full)
// A: batch·m·n; S (real array): batch·k; U: batch·m·uc; Vh: batch·vr·n; info: batch.
Napi::Value Svd(const Napi::CallbackInfo& info) {
  const char* who = "svd";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t batch = arg_int(info, 6, who, "batch"), m = arg_int(info, 7, who, "m"), n = arg_int(info, 8, who, "n");
  bool uv = arg_bool(info, 9, who, "computeUV"), full = arg_bool(info, 10, who, "fullMatrices");
  if (batch < 0 || m < 0 || n < 0) range_error(env, "svd: negative dimension");
  const int64_t k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
  note_size(code, batch, m, n);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    using R = real_t<T>;
    Call io(info, who, false);
    auto A = io.in(arg_array<T>(info, 1, who, "A", batch * m * n));
    auto S = io.out(arg_array<R>(info, 2, who, "S", batch * k));
    Span<T> U{}, Vh{};
    if (uv) {
      U = io.out(arg_array<T>(info, 3, who, "U", batch * m * uc));
      Vh = io.out(arg_array<T>(info, 4, who, "Vh", batch * vr * n));
    }
    auto st = io.out(arg_array<int32_t>(info, 5, who, "info", batch));
    auto one = [&](index b, int threads) {
      st.data[b] = svd<T>(A.data + b * m * n, m, n, S.data + b * k, uv ? U.data + b * m * uc : nullptr,
                          uv ? Vh.data + b * vr * n : nullptr, uv, full, threads);
    };
    const double work = static_cast<double>(m) * n * std::max<int64_t>(k, 1);
    return io.run([&] {
      if (batch > 1 && work < 4.0e6) {
        index grain = std::max<index>(1, static_cast<index>(5.0e4 / (work + 1)));
        parallel_for(batch, grain, [&](index b0, index b1) {
          for (index b = b0; b < b1; ++b) one(b, 1);
        });
      } else {
        for (int64_t b = 0; b < batch; ++b) one(b, 0);
      }
    });
  });
}
Export e_svd("svd", Svd);

}  // namespace
}  // namespace lapis::binding
