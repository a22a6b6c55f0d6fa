// Binary ops on float32/float64 (binary_impl.hpp).
#include "binary_impl.hpp"

namespace lapis::ew {
void binary_real(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out) {
  if (t == ElemType::f32) binary_typed<float>(op, t, L, a, b, out);
  else binary_typed<double>(op, t, L, a, b, out);
}
}  // namespace lapis::ew
