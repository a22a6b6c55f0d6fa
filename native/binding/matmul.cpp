#include "async_work.hpp"
#include "common.hpp"
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"

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
    const auto ai = maps.a, bi = maps.b;  // plain copies: lambdas capture them (C++17)
    auto one = [&](int64_t b, int threads) {
      int64_t ia = ai.data ? ai.data[b] : b, ib = bi.data ? bi.data[b] : b;
      gemm<T>(T(1), row_major<T>(static_cast<const T*>(A.data + ia * m * k), m, k),
              row_major<T>(static_cast<const T*>(B.data + ib * k * n), k, n), T(0),
              row_major<T>(C.data + b * m * n, m, n), threads);
    };
    // Many small products: one thread per group of matrices. Few large ones: the GEMM
    // parallelises inside.
    const double flops = static_cast<double>(m) * n * k;
    return io.run([&] {
      if (batch > 1 && flops < 2.0e6) {
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
Export e_matmul("matmul", Matmul,
       {"dtype", "A", "B", "C", "batch", "m", "k", "n", "aIdx", "bIdx", "aCount", "bCount"});

}  // namespace
}  // namespace lapis::binding
