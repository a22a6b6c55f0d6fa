// The frexp loop built with -mavx2 (CMakeLists.txt gives *_avx2.cpp files that flag);
// frexp.cpp calls it when the CPU has AVX2.
#include "frexp_impl.hpp"

namespace lapis {

void frexp_range_avx2(const float* x, float* m, int32_t* e, index b, index end) { frexp_range(x, m, e, b, end); }
void frexp_range_avx2(const double* x, double* m, int32_t* e, index b, index end) { frexp_range(x, m, e, b, end); }

}  // namespace lapis
