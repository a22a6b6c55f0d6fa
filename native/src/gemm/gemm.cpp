// Reference GEMM (correct for every view, no blocking). The optimised packed path
// replaces the body of gemm_impl; the interface and semantics stay.
#include "lapis/gemm.hpp"

namespace lapis {

template <class T>
void gemm(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C, int) {
  const index m = C.rows, n = C.cols, k = A.cols;
  for (index i = 0; i < m; ++i)
    for (index j = 0; j < n; ++j) {
      T s{};
      for (index p = 0; p < k; ++p) s += A.at(i, p) * B.at(p, j);
      C(i, j) = beta == T{} ? alpha * s : alpha * s + beta * C(i, j);
    }
}

template <class T>
void gemm(T alpha, MatRef<T> A, MatRef<T> B, T beta, MatMut<T> C) {
  gemm(alpha, A, B, beta, C, 0);
}

const char* gemm_kernel_name() { return "reference"; }

#define LAPIS_INST(T)                                                     \
  template void gemm<T>(T, MatRef<T>, MatRef<T>, T, MatMut<T>);           \
  template void gemm<T>(T, MatRef<T>, MatRef<T>, T, MatMut<T>, int);
LAPIS_INST(float)
LAPIS_INST(double)
LAPIS_INST(std::complex<float>)
LAPIS_INST(std::complex<double>)
#undef LAPIS_INST

}  // namespace lapis
