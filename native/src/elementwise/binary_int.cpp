// Binary ops on int32/uint32/bool (binary_impl.hpp).
#include "binary_impl.hpp"

namespace lapis::ew {
void binary_int(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out) {
  if (t == ElemType::i32) binary_typed<int32_t>(op, t, L, a, b, out);
  else if (t == ElemType::u32) binary_typed<uint32_t>(op, t, L, a, b, out);
  else binary_typed<uint8_t>(op, t, L, a, b, out);
}
}  // namespace lapis::ew
