// The same kernels as kernels_portable.cpp, compiled with -mavx2 -mfma (CMake adds the
// flags for *_avx2.cpp on x86-64) and with contraction to FMA allowed in this file only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=fast")
#elif defined(__clang__)
#pragma clang fp contract(fast)
#endif
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels.hpp"

namespace lapis::detail {
namespace avx2 {
#include "kernels_impl.hpp"

template <class T> SolverKernels<T> make_kernels() { return {&getf2<T>, &getf2_cm<T>, &trsv_rows<T>, &solve_small<T>}; }
template SolverKernels<float> make_kernels<float>();
template SolverKernels<double> make_kernels<double>();
template SolverKernels<std::complex<float>> make_kernels<std::complex<float>>();
template SolverKernels<std::complex<double>> make_kernels<std::complex<double>>();
}  // namespace avx2
}  // namespace lapis::detail
