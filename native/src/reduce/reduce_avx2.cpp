// The contiguous-row kernels (rows_simd.hpp) built with -mavx2 -mfma; reduce.cpp calls them
// when active_isa() allows AVX2.
#include "rows_simd.hpp"

namespace lapis {

using simd::Avx2;
using simd::Pack;
namespace rd = reduce_rows_detail;

void reduce_sum_avx2(const float* x, index m, bool pairs, float* out) { rd::sum<Pack<Avx2, float>>(x, m, pairs, out); }
void reduce_sum_avx2(const double* x, index m, bool pairs, double* out) { rd::sum<Pack<Avx2, double>>(x, m, pairs, out); }
double reduce_sum_squares_avx2(const double* x, index m) { return rd::sum_terms<Pack<Avx2, double>, rd::kSquares>(x, m); }
double reduce_sum_magnitudes_avx2(const double* x, index m) { return rd::sum_terms<Pack<Avx2, double>, rd::kMagnitudes>(x, m); }
float reduce_extremum_avx2(const float* x, index m, bool is_max) { return rd::extremum<Pack<Avx2, float>>(x, m, is_max); }
double reduce_extremum_avx2(const double* x, index m, bool is_max) { return rd::extremum<Pack<Avx2, double>>(x, m, is_max); }
index reduce_find_avx2(const float* x, index m, float v) { return rd::find_first<Pack<Avx2, float>>(x, m, v); }
index reduce_find_avx2(const double* x, index m, double v) { return rd::find_first<Pack<Avx2, double>>(x, m, v); }

}  // namespace lapis
