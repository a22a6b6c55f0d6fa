// Elementwise kernels of the tensor API: dtype casts, unary and binary ops, where. Arrays
// are contiguous; binary ops and where walk a collapsed broadcast layout (strides 0 on a
// broadcast dim, innermost strides 0 or 1) instead of materialised broadcast copies.
// Element types are named by ElemType so one entry serves all seven dtypes; the binding
// checks each pointer's typed array against them. Semantics: docs/tensor-api.md.
#pragma once
#include <cstdint>
#include "lapis/common.hpp"

namespace lapis {

// The dtype codes of the binding (DTypeCode in native/binding/common.hpp, dtypeCode in TS).
enum class ElemType : int { f32 = 0, f64 = 1, c64 = 2, c128 = 3, i32 = 4, u32 = 5, b8 = 6 };

// Op codes: the order of UNARY_OP_CODES / BINARY_OP_CODES in src/backend/cpu/elementwise.ts
// (test/property/elementwise.test.ts checks them against unary_op_name / binary_op_name).
enum class UnaryOp : int {
  neg, abs, sign, sqrt, exp, log, log1p, expm1, sin, cos, tanh, sigmoid, conj, real, imag, angle, logicalNot, count
};
enum class BinaryOp : int {
  add, sub, mul, div, pow, minimum, maximum, eq, ne, lt, le, gt, ge, logicalAnd, logicalOr, count
};

const char* unary_op_name(int code);   // null past the end
const char* binary_op_name(int code);  // null past the end

// The output type of an op on t, or -1 when the kernels do not take (op, t): float functions
// of integers and arithmetic on bool arrive promoted (the public layer's rule).
int unary_out_type(int op, ElemType t);
int binary_out_type(int op, ElemType t);

// A broadcast walk over up to three operands (ndim ≥ 1 collapsed dims).
struct Layout3 {
  int ndim;
  const index* shape;
  const index* s[3];
};

// out[i] = x[i] converted (float → integer truncates, NaN → 0, saturates; integer ↔ integer
// wraps; → bool is x ≠ 0; real → complex sets im = 0). complex → real: returns false.
bool cast(ElemType from, ElemType to, index n, const void* x, void* out);

// out = op(x) over n elements; false when unary_out_type(op, t) < 0.
bool unary(int op, ElemType t, index n, const void* x, void* out);

// out = a ∘ b over the layout (s[0] a's strides, s[1] b's); false when binary_out_type < 0.
bool binary(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out);

// out = cond ? a : b over the layout (s[0] cond's strides, s[1] a's, s[2] b's); cond is 0/1 bytes.
void where(ElemType t, const Layout3& L, const uint8_t* cond, const void* a, const void* b, void* out);

}  // namespace lapis
