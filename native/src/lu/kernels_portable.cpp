#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels.hpp"

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
bool use_avx2() {
  static const bool yes = [] {
    const char* f = std::getenv("LAPIS_KERNELS");  // same switch as the GEMM
    if (f && std::strcmp(f, "portable") == 0) return false;
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
  }();
  return yes;
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
