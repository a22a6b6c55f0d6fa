// AVX2+FMA Jacobi kernels (this file alone is compiled with -mavx2 -mfma): the templates
// of jacobi_impl.hpp over Pack<Avx2, R>, with scalar tails.
#include "jacobi_impl.hpp"

namespace lapis::svd_detail {
namespace {

template <class R>
JacobiKernels<R> avx2_kernels() {
  using P = simd::Pack<simd::Avx2, R>;
  JacobiKernels<R> k{&dot<P, Tail::Scalar>, &dotc<P>,        &rot<P, Tail::Scalar>, &rotc<P>, &rot_dot<P, Tail::Scalar>,
                     &rotc_dotc<P>,         &angles<P>};
  k.rot_dot2 = &rot_dot2<P, Tail::Scalar>;
  k.larf_left = &larf_left<P, Tail::Scalar>;
  k.larf_right = &larf_right<P, Tail::Scalar>;
  return k;
}

}  // namespace

template <> JacobiKernels<double> avx2_jacobi<double>() { return avx2_kernels<double>(); }
template <> JacobiKernels<float> avx2_jacobi<float>() { return avx2_kernels<float>(); }

}  // namespace lapis::svd_detail
