#include "async_work.hpp"
#include "common.hpp"
#include "lapis/gemm_batched.hpp"

namespace lapis::binding {
namespace {

// matmul({ dtype, A, B, C, batch, m, k, n, aIdx, bIdx, aCount, bCount })
// C[b] = A[aIdx[b]] · B[bIdx[b]], all row-major; index maps (or null) carry the broadcast.
Napi::Value Matmul(const Napi::CallbackInfo& info) {
  const Opts o(info, "matmul");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t batch = o.int_("batch"), m = o.int_("m"), k = o.int_("k"), n = o.int_("n"), ac = o.int_("aCount"),
                bc = o.int_("bCount");
  if (batch < 0 || m < 0 || k < 0 || n < 0 || ac < 0 || bc < 0) range_error(env, "matmul: negative dimension");
  note_size(code, batch, m, n);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto A = io.in(o.array<T>("A", ac * m * k));
    auto B = io.in(o.array<T>("B", bc * k * n));
    auto C = io.out(o.array<T>("C", batch * m * n));
    const BatchMaps maps = io.batch_maps(batch, ac, bc);
    return io.run([&] {
      gemm_batched<T>(batch, T(1), row_major<T>(static_cast<const T*>(A.data), m, k), m * k, maps.a.data,
                      row_major<T>(static_cast<const T*>(B.data), k, n), k * n, maps.b.data, T(0),
                      row_major<T>(C.data, m, n), m * n);
    });
  });
}
Export e_matmul("matmul", Matmul,
       {"dtype", "A", "B", "C", "batch", "m", "k", "n", "aIdx", "bIdx", "aCount", "bCount"});

}  // namespace
}  // namespace lapis::binding
