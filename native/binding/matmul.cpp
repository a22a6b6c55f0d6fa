#include "async_work.hpp"
#include "common.hpp"
#include "lapis/gemm_batched.hpp"

namespace lapis::binding {
namespace {

// An operand's view for op code 0 (N: stored rows×cols as is), 1 (T: stored cols×rows,
// transposed by strides) or 2 (C: the same, conjugated; T for real types). No copy.
template <class T>
MatRef<T> op_view(const T* p, int64_t op, index rows, index cols) {
  if (op == 0) return row_major<T>(p, rows, cols);
  const MatRef<T> stored = row_major<T>(p, cols, rows);
  return op == 2 && is_complex_v<T> ? stored.h() : stored.t();
}

int64_t arg_op(const Opts& o, const char* name) {
  const int64_t op = o.int_(name);
  if (op < 0 || op > 2) range_error(o.env(), std::string(o.who()) + ": " + name + " must be 0, 1 or 2");
  return op;
}

// matmul({ dtype, A, B, C, batch, m, k, n, aIdx, bIdx, aCount, bCount, opA, opB })
// C[b] = op(A[aIdx[b]]) · op(B[bIdx[b]]), all row-major; index maps (or null) carry the
// broadcast. op 0 = N, 1 = T, 2 = C (conjugate transpose): A is stored m×k for N, k×m
// otherwise; B k×n for N, n×k otherwise.
Napi::Value Matmul(const Napi::CallbackInfo& info) {
  const Opts o(info, "matmul");
  Napi::Env env = o.env();
  const int64_t code = o.int_("dtype");
  const int64_t batch = o.int_("batch"), m = o.int_("m"), k = o.int_("k"), n = o.int_("n"), ac = o.int_("aCount"),
                bc = o.int_("bCount");
  if (batch < 0 || m < 0 || k < 0 || n < 0 || ac < 0 || bc < 0) range_error(env, "matmul: negative dimension");
  const int64_t opA = arg_op(o, "opA"), opB = arg_op(o, "opB");
  note_size(code, batch, m, n);
  return dispatch_float(env, code, o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto A = io.in(o.array<T>("A", ac * m * k));
    auto B = io.in(o.array<T>("B", bc * k * n));
    auto C = io.out(o.array<T>("C", batch * m * n));
    const BatchMaps maps = io.batch_maps(batch, ac, bc);
    return io.run([&] {
      gemm_batched<T>(batch, T(1), op_view<T>(static_cast<const T*>(A.data), opA, m, k), m * k, maps.a.data,
                      op_view<T>(static_cast<const T*>(B.data), opB, k, n), k * n, maps.b.data, T(0),
                      row_major<T>(C.data, m, n), m * n);
    });
  });
}
Export e_matmul("matmul", Matmul,
       {"dtype", "A", "B", "C", "batch", "m", "k", "n", "aIdx", "bIdx", "aCount", "bCount", "opA", "opB"});

}  // namespace
}  // namespace lapis::binding
