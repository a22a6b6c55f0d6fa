#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels.hpp"
#include "lapis/isa.hpp"

namespace lapis::detail {
namespace portable {
#include "kernels_impl.hpp"

template <class T> SolverKernels<T> make_kernels() { return {&getf2<T>, &getf2_cm<T>, &trsv_rows<T>, &solve_small<T>}; }
template SolverKernels<float> make_kernels<float>();
template SolverKernels<double> make_kernels<double>();
template SolverKernels<std::complex<float>> make_kernels<std::complex<float>>();
template SolverKernels<std::complex<double>> make_kernels<std::complex<double>>();
}  // namespace portable

namespace {
// No AVX-512 build: the AVX2 one runs under avx512 too.
bool use_avx2() {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
  return runs_avx2(active_isa());
#else
  return false;
#endif
}
}  // namespace

template <class T> const SolverKernels<T>& solver_kernels() {
  static const SolverKernels<T> k = [] {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    if (use_avx2()) return avx2::make_kernels<T>();
#endif
    return portable::make_kernels<T>();
  }();
  return k;
}
template const SolverKernels<float>& solver_kernels<float>();
template const SolverKernels<double>& solver_kernels<double>();
template const SolverKernels<std::complex<float>>& solver_kernels<std::complex<float>>();
template const SolverKernels<std::complex<double>>& solver_kernels<std::complex<double>>();

const char* solver_kernel_name() { return use_avx2() ? "avx2" : "portable"; }

}  // namespace lapis::detail
