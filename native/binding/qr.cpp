#include "async_work.hpp"
#include "common.hpp"
#include "lapis/parallel.hpp"
#include "lapis/qr.hpp"

namespace lapis::binding {
namespace {

// qr(dtype, A, Q|null, R, batch, m, n, mode) — mode 0 reduced, 1 complete, 2 r.
// A: batch·m·n; Q: batch·m·qc (qc = k reduced, m complete); R: batch·rr·n.
Napi::Value Qr(const Napi::CallbackInfo& info) {
  const char* who = "qr";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t batch = arg_int(info, 4, who, "batch"), m = arg_int(info, 5, who, "m"), n = arg_int(info, 6, who, "n"),
          mode = arg_int(info, 7, who, "mode");
  if (batch < 0 || m < 0 || n < 0) range_error(env, "qr: negative dimension");
  if (mode < 0 || mode > 2) range_error(env, "qr: mode must be 0, 1 or 2");
  const int64_t k = std::min(m, n);
  const int64_t qc = mode == 1 ? m : k, rr = mode == 1 ? m : k;
  note_size(code, batch, m, n);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, false);
    auto A = io.in(arg_array<T>(info, 1, who, "A", batch * m * n));
    Span<T> Q{};
    if (mode != 2) Q = io.out(arg_array<T>(info, 2, who, "Q", batch * m * qc));
    auto R = io.out(arg_array<T>(info, 3, who, "R", batch * rr * n));
    const auto qm = static_cast<QrMode>(mode);
    auto one = [&](index b, int threads) {
      qr<T>(A.data + b * m * n, m, n, qm, Q.data ? Q.data + b * m * qc : nullptr, R.data + b * rr * n, threads);
    };
    const double flops = static_cast<double>(m) * n * std::max<int64_t>(k, 1);
    return io.run([&] {
      if (batch > 1 && flops < 4.0e6) {
        index grain = std::max<index>(1, static_cast<index>(2.0e5 / (flops + 1)));
        parallel_for(batch, grain, [&](index b0, index b1) {
          for (index b = b0; b < b1; ++b) one(b, 1);
        });
      } else {
        for (int64_t b = 0; b < batch; ++b) one(b, 0);
      }
    });
  });
}
Export e_qr("qr", Qr);

// qrBlockSize(nb?) — tests shrink the panel width so the blocked paths run at small n.
Napi::Value QrBlockSize(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && !info[0].IsUndefined()) {
    int64_t nb = arg_int(info, 0, "qrBlockSize", "nb");
    if (nb < 0 || nb > 4096) range_error(info.Env(), "qrBlockSize: nb must be in 0..4096");
    set_qr_block_size(static_cast<index>(nb));
  }
  return Napi::Number::New(info.Env(), static_cast<double>(qr_block_size()));
}
Export e_qrnb("qrBlockSize", QrBlockSize);

}  // namespace
}  // namespace lapis::binding
