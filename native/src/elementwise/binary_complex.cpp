// Binary ops on complex64/complex128 (binary_impl.hpp).
#include "binary_impl.hpp"

namespace lapis::ew {
void binary_complex(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out) {
  if (t == ElemType::c64) binary_typed<c64>(op, t, L, a, b, out);
  else binary_typed<c128>(op, t, L, a, b, out);
}
}  // namespace lapis::ew
