// Entry of the binary ops: checks (op, dtype) and routes to the per-family instantiations.
#include "binary_impl.hpp"

namespace lapis {

using namespace ew;

const char* binary_op_name(int code) {
  static const char* names[] = {"add", "sub", "mul", "div", "pow", "minimum", "maximum", "eq",
                                "ne",  "lt",  "le",  "gt",  "ge",  "logicalAnd", "logicalOr"};
  static_assert(sizeof(names) / sizeof(names[0]) == int(B::count), "one name per op");
  return code >= 0 && code < int(B::count) ? names[code] : nullptr;
}

int binary_out_type(int op, ElemType t) {
  return with_type(t, [&](auto tag) { return binary_out<decltype(tag)>(op, t); });
}

bool binary(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out) {
  if (binary_out_type(op, t) < 0) return false;
  switch (t) {
    case ElemType::f32: case ElemType::f64: binary_real(op, t, L, a, b, out); break;
    case ElemType::c64: case ElemType::c128: binary_complex(op, t, L, a, b, out); break;
    default: binary_int(op, t, L, a, b, out); break;
  }
  return true;
}

}  // namespace lapis
