// SIMD spans of the real unary ops that spent their time in libm's scalar calls (exp,
// expm1, log, log1p, sin, cos, sigmoid, tanh): AVX2 and AVX-512 builds (unary_avx2.cpp, unary_avx512.cpp) of
// unary_simd_impl.hpp, picked once by active_isa(). Elsewhere (portable, NEON, wasm) the
// spans are null and unary.cpp calls libm per element.
#pragma once
#include "lapis/common.hpp"

namespace lapis::ew {

template <class R> using UnarySpan = void (*)(const R* x, R* out, index n);

template <class R>
struct UnarySimd {
  UnarySpan<R> exp = nullptr;
  UnarySpan<R> sigmoid = nullptr;
  UnarySpan<R> tanh = nullptr;
  UnarySpan<R> log = nullptr;
  UnarySpan<R> expm1 = nullptr;
  UnarySpan<R> log1p = nullptr;
  UnarySpan<R> sin = nullptr;
  UnarySpan<R> cos = nullptr;
};

// The active ISA's spans (float, double), or nulls.
template <class R> const UnarySimd<R>& unary_simd();

}  // namespace lapis::ew
