// Unary elementwise ops: one contiguous loop per (op, dtype), split over the thread pool.
// Real floats follow numpy 2 (sign(−0) = +0, sign(NaN) = NaN, angle(−0) = π); complex math
// is std::complex except where a formula keeps accuracy (abs by hypot, log1p/expm1 near 0).
#include "elementwise_common.hpp"
#include "unary_simd.hpp"

namespace lapis {
namespace {

using namespace ew;
using U = UnaryOp;

template <class R>
inline std::complex<R> clog1p(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  // |1 + z|² − 1 = x(2 + x) + y² without the cancellation of forming 1 + z first.
  const R re = R(0.5) * std::log1p(x * (R(2) + x) + y * y);
  if (!std::isfinite(re) || std::abs(x) > R(0.5) || std::abs(y) > R(0.5)) return std::log(R(1) + z);
  return {re, std::atan2(y, R(1) + x)};
}

template <class R>
inline std::complex<R> cexpm1(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (y == 0) return {std::expm1(x), y};
  const R s = std::sin(y / 2);
  // e^x cos y − 1 = expm1(x) cos y − 2 sin²(y/2): no cancellation for small x and y.
  return {std::expm1(x) * std::cos(y) - R(2) * s * s, std::exp(x) * std::sin(y)};
}

template <class R>
inline R sigmoid_real(R x) {
  // exp of a non-positive argument never overflows: accurate down to the subnormal range.
  if (x >= 0) return R(1) / (R(1) + std::exp(-x));
  const R e = std::exp(x);
  return e / (R(1) + e);
}

// The output type (as ElemType int) of op on T, or -1 when not taken.
template <class T>
constexpr int out_type(int op, ElemType t) {
  const int self = static_cast<int>(t);
  if (op == int(U::logicalNot)) return int(ElemType::b8);
  if (op == int(U::conj) || op == int(U::real) || op == int(U::imag)) {
    if constexpr (is_complex_v<T>) return op == int(U::conj) ? self : (t == ElemType::c64 ? 0 : 1);
    return self;
  }
  if constexpr (is_complex_v<T>) {
    if (op == int(U::abs) || op == int(U::angle)) return t == ElemType::c64 ? 0 : 1;
    return self;
  } else if constexpr (is_float_v<T>) {
    return self;
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return -1;  // bool arithmetic arrives as int32
  } else {
    return op == int(U::neg) || op == int(U::abs) || op == int(U::sign) ? self : -1;
  }
}

template <int OP, class T>
inline auto apply(T x) {
  if constexpr (OP == int(U::logicalNot)) {
    return static_cast<uint8_t>(!nonzero(x));
  } else if constexpr (OP == int(U::conj)) {
    if constexpr (is_complex_v<T>) return std::conj(x); else return x;
  } else if constexpr (OP == int(U::real)) {
    if constexpr (is_complex_v<T>) return x.real(); else return x;
  } else if constexpr (OP == int(U::imag)) {
    if constexpr (is_complex_v<T>) return x.imag(); else return T(0);
  } else if constexpr (is_int_v<T>) {
    if constexpr (OP == int(U::neg)) return static_cast<T>(uns<T>(0) - static_cast<uns<T>>(x));
    else if constexpr (OP == int(U::abs)) {
      if constexpr (std::is_signed_v<T>) return x < 0 ? static_cast<T>(uns<T>(0) - static_cast<uns<T>>(x)) : x;
      else return x;
    } else {
      if constexpr (std::is_signed_v<T>) return static_cast<T>((x > 0) - (x < 0));
      else return static_cast<T>(x != 0);
    }
  } else if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    if constexpr (OP == int(U::neg)) return -x;
    else if constexpr (OP == int(U::abs)) return std::hypot(x.real(), x.imag());
    else if constexpr (OP == int(U::angle)) return std::atan2(x.imag(), x.real());
    else if constexpr (OP == int(U::sign)) {
      const R a = std::hypot(x.real(), x.imag());
      return a == 0 ? T(0) : T(x.real() / a, x.imag() / a);
    } else if constexpr (OP == int(U::sqrt)) return std::sqrt(x);
    else if constexpr (OP == int(U::exp)) return std::exp(x);
    else if constexpr (OP == int(U::log)) return std::log(x);
    else if constexpr (OP == int(U::log1p)) return clog1p(x);
    else if constexpr (OP == int(U::expm1)) return cexpm1(x);
    else if constexpr (OP == int(U::sin)) return std::sin(x);
    else if constexpr (OP == int(U::cos)) return std::cos(x);
    else if constexpr (OP == int(U::tanh)) return std::tanh(x);
    else return T(1) / (T(1) + std::exp(-x));  // sigmoid
  } else {
    if constexpr (OP == int(U::neg)) return -x;
    else if constexpr (OP == int(U::abs)) return std::abs(x);
    else if constexpr (OP == int(U::angle)) return std::atan2(T(0), x);
    else if constexpr (OP == int(U::sign)) return x > 0 ? T(1) : (x < 0 ? T(-1) : (x == 0 ? T(0) : x));
    else if constexpr (OP == int(U::sqrt)) return std::sqrt(x);
    else if constexpr (OP == int(U::exp)) return std::exp(x);
    else if constexpr (OP == int(U::log)) return std::log(x);
    else if constexpr (OP == int(U::log1p)) return std::log1p(x);
    else if constexpr (OP == int(U::expm1)) return std::expm1(x);
    else if constexpr (OP == int(U::sin)) return std::sin(x);
    else if constexpr (OP == int(U::cos)) return std::cos(x);
    else if constexpr (OP == int(U::tanh)) return std::tanh(x);
    else return sigmoid_real(x);
  }
}

constexpr bool heavy(int op) {
  return op >= int(U::sqrt) && op <= int(U::sigmoid);
}

// The real ops unary_simd() has spans for.
constexpr bool simd_op(int op) {
  return op == int(U::exp) || op == int(U::expm1) || op == int(U::log) || op == int(U::log1p) || op == int(U::sin) ||
         op == int(U::cos) || op == int(U::tanh) || op == int(U::sigmoid);
}

template <int OP, class T>
void run(index n, const T* x, void* out) {
  using O = decltype(apply<OP>(T{}));
  O* o = static_cast<O*>(out);
  if constexpr (simd_op(OP) && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
    const UnarySimd<T>& s = unary_simd<T>();
    const UnarySpan<T> f = OP == int(U::exp)     ? s.exp
                           : OP == int(U::expm1) ? s.expm1
                           : OP == int(U::log)   ? s.log
                           : OP == int(U::log1p) ? s.log1p
                           : OP == int(U::sin)   ? s.sin
                           : OP == int(U::cos)   ? s.cos
                           : OP == int(U::tanh)  ? s.tanh
                                                 : s.sigmoid;
    if (f) {
      // A SIMD element costs about what an add does: the light grain.
      parallel_for(n, kGrain, [&](index b, index e) { f(x + b, o + b, e - b); });
      return;
    }
  }
  parallel_for(n, heavy(OP) || is_complex_v<T> ? kGrainHeavy : kGrain, [&](index b, index e) {
    const T* __restrict xs = x;
    O* __restrict os = o;
    for (index i = b; i < e; ++i) os[i] = apply<OP>(xs[i]);
  });
}

template <class T, int OP = 0>
void dispatch(int op, index n, const T* x, void* out) {
  if constexpr (OP < int(U::count)) {
    if (op == OP) {
      // Only (op, T) pairs out_type accepts are instantiated for integers.
      if constexpr (is_int_v<T> && (heavy(OP) || OP == int(U::angle))) return;
      else if constexpr (std::is_same_v<T, uint8_t> && (OP == int(U::neg) || OP == int(U::abs) || OP == int(U::sign))) return;
      else return run<OP>(n, x, out);
    }
    dispatch<T, OP + 1>(op, n, x, out);
  }
}

}  // namespace

const char* unary_op_name(int code) {
  static const char* names[] = {"neg",   "abs",  "sign", "sqrt", "exp",     "log",  "log1p", "expm1", "sin",
                                "cos",   "tanh", "sigmoid", "conj", "real", "imag", "angle", "logicalNot"};
  static_assert(sizeof(names) / sizeof(names[0]) == int(U::count), "one name per op");
  return code >= 0 && code < int(U::count) ? names[code] : nullptr;
}

int unary_out_type(int op, ElemType t) {
  if (op < 0 || op >= int(U::count)) return -1;
  return with_type(t, [&](auto tag) { return out_type<decltype(tag)>(op, t); });
}

bool unary(int op, ElemType t, index n, const void* x, void* out) {
  if (unary_out_type(op, t) < 0) return false;
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    dispatch<T>(op, n, static_cast<const T*>(x), out);
  });
  return true;
}

}  // namespace lapis
