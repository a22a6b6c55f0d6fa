#include "async_work.hpp"
#include "common.hpp"
#include "lapis/parallel.hpp"
#include "lapis/svd.hpp"

namespace lapis::binding {
namespace {

// svd({ dtype, A, S, U, Vh, info, batch, m, n, computeUV, fullMatrices }); U and Vh null
// without computeUV. A: batch·m·n; S (real array): batch·k; U: batch·m·uc; Vh: batch·vr·n;
// info: batch.
Napi::Value Svd(const Napi::CallbackInfo& info) {
  const Opts o(info, "svd");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t batch = o.int_("batch"), m = o.int_("m"), n = o.int_("n");
  const bool uv = o.boolean("computeUV"), full = o.boolean("fullMatrices");
  if (batch < 0 || m < 0 || n < 0) range_error(env, "svd: negative dimension");
  const int64_t k = std::min(m, n), uc = full ? m : k, vr = full ? n : k;
  note_size(code, batch, m, n);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    using R = real_t<T>;
    Call io(o, false);
    auto A = io.in(o.array<T>("A", batch * m * n));
    auto S = io.out(o.array<R>("S", batch * k));
    Span<T> U{}, Vh{};
    if (uv) {
      U = io.out(o.array<T>("U", batch * m * uc));
      Vh = io.out(o.array<T>("Vh", batch * vr * n));
    } else {
      o.get("U"), o.get("Vh");  // present (null) all the same: every option is required
    }
    auto st = io.out(o.array<int32_t>("info", batch));
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
Export e_svd("svd", Svd, {"dtype", "A", "S", "U", "Vh", "info", "batch", "m", "n", "computeUV", "fullMatrices"});

}  // namespace
}  // namespace lapis::binding
