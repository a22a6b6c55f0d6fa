#include "async_work.hpp"
#include "common.hpp"
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"

namespace lapis::binding {
namespace {

// matmul(dtype, A, B, C, batch, m, k, n, aIdx|null, bIdx|null, aCount, bCount)
// C[b] = A[aIdx[b]] · B[bIdx[b]], all row-major; index maps carry the broadcast.
Napi::Value Matmul(const Napi::CallbackInfo& info) {
  const char* who = "matmul";
  Napi::Env env = info.Env();
  int64_t code = arg_int(info, 0, who, "dtype");
  int64_t batch = arg_int(info, 4, who, "batch"), m = arg_int(info, 5, who, "m"), k = arg_int(info, 6, who, "k"),
          n = arg_int(info, 7, who, "n"), ac = arg_int(info, 10, who, "aCount"), bc = arg_int(info, 11, who, "bCount");
  if (batch < 0 || m < 0 || k < 0 || n < 0 || ac < 0 || bc < 0) range_error(env, "matmul: negative dimension");
  note_size(code, batch, m, n);
  return dispatch_float(env, code, who, [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(info, who, false);
    auto A = io.in(arg_array<T>(info, 1, who, "A", ac * m * k));
    auto B = io.in(arg_array<T>(info, 2, who, "B", bc * k * n));
    auto C = io.out(arg_array<T>(info, 3, who, "C", batch * m * n));
    const BatchMaps maps = io.batch_maps(8, batch, ac, bc);
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
Export e_matmul("matmul", Matmul);

}  // namespace
}  // namespace lapis::binding
