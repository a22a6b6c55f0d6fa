#include "async_work.hpp"
#include "common.hpp"
#include "lapis/parallel.hpp"
#include "lapis/qr.hpp"

namespace lapis::binding {
namespace {

// qr({ dtype, A, Q, R, batch, m, n, mode }) — mode 0 reduced, 1 complete, 2 r (Q null).
// A: batch·m·n; Q: batch·m·qc (qc = k reduced, m complete); R: batch·rr·n.
Napi::Value Qr(const Napi::CallbackInfo& info) {
  const Opts o(info, "qr");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t batch = o.int_("batch"), m = o.int_("m"), n = o.int_("n"), mode = o.int_("mode");
  if (batch < 0 || m < 0 || n < 0) range_error(env, "qr: negative dimension");
  if (mode < 0 || mode > 2) range_error(env, "qr: mode must be 0, 1 or 2");
  const int64_t k = std::min(m, n);
  const int64_t qc = mode == 1 ? m : k, rr = mode == 1 ? m : k;
  note_size(code, batch, m, n);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto A = io.in(o.array<T>("A", batch * m * n));
    Span<T> Q{};
    if (mode != 2) Q = io.out(o.array<T>("Q", batch * m * qc));
    else o.get("Q");  // present (null) all the same: every option is required
    auto R = io.out(o.array<T>("R", batch * rr * n));
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
Export e_qr("qr", Qr, {"dtype", "A", "Q", "R", "batch", "m", "n", "mode"});

}  // namespace
}  // namespace lapis::binding
